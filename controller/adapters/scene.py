"""Camera frames of a table whose tiles stay where they were put (for recorded games).

`vision.synth.render_table` lays melds out afresh for every picture, which is right for
training but not for a game, where a tile nobody touched stays put. Here every meld has
a grid place (`at`: row, column of its first tile), so the frames of one game show the
same tile in the same spot from turn to turn. Tile faces come from `vision.synth.tile_face`;
a hand reaching in from the bottom edge can be drawn over the table; each frame gets its
own sensor noise, so consecutive frames of a still table differ a little, as with a camera.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from vision.synth import TILE_ASPECT, tile_face


@dataclass(frozen=True)
class PlacedMeld:
    tiles: tuple[str, ...]
    row: int
    col: int


@dataclass(frozen=True)
class SceneLayout:
    width: int = 1280
    height: int = 720
    tile_width: int = 40
    margin: int = 24
    gap: float = 1.02  # tile pitch along a meld, in tile widths
    row_pitch: float = 1.3  # in tile heights
    background: tuple[int, int, int] = (52, 92, 38)  # BGR felt green
    seed: int = 0
    noise: float = 2.0

    @property
    def tile_height(self) -> int:
        return int(round(self.tile_width / TILE_ASPECT))

    def tile_box(self, row: int, col: int) -> tuple[int, int]:
        x = self.margin + int(round(col * self.tile_width * self.gap))
        y = self.margin + int(round(row * self.tile_height * self.row_pitch))
        return x, y

    def center(self, row: int, col: int) -> tuple[float, float]:
        x, y = self.tile_box(row, col)
        return x + self.tile_width / 2, y + self.tile_height / 2

    @property
    def columns(self) -> int:
        return int((self.width - 2 * self.margin) // (self.tile_width * self.gap))

    @property
    def rows(self) -> int:
        return int((self.height - 2 * self.margin) // (self.tile_height * self.row_pitch))


@dataclass(frozen=True)
class Scene:
    melds: tuple[PlacedMeld, ...]
    hand: bool = False

    @staticmethod
    def of(melds: Sequence[dict], hand: bool = False) -> "Scene":
        return Scene(tuple(PlacedMeld(tuple(m["tiles"]), int(m["at"][0]), int(m["at"][1])) for m in melds), hand)

    def with_hand(self) -> "Scene":
        return Scene(self.melds, True)

    def codes(self) -> list[list[str]]:
        return [list(m.tiles) for m in self.melds]


def _stable_seed(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "little")


@dataclass
class SceneRenderer:
    layout: SceneLayout = field(default_factory=SceneLayout)

    def __post_init__(self) -> None:
        self._faces: dict[tuple[str, int], np.ndarray] = {}
        self._background = self._felt()
        self._cache: dict[Scene, np.ndarray] = {}
        # a few fields of sensor noise, used in turn (drawing fresh noise for every frame is slow)
        rng = np.random.default_rng(_stable_seed("noise", self.layout.seed))
        self._noise = []
        for _ in range(5):
            field = rng.normal(0, self.layout.noise, (self.layout.height, self.layout.width, 3))
            self._noise.append((np.clip(field, 0, 255).astype(np.uint8), np.clip(-field, 0, 255).astype(np.uint8)))

    def _felt(self) -> np.ndarray:
        lay = self.layout
        rng = np.random.default_rng(_stable_seed("felt", lay.seed))
        small = rng.normal(0, 1, (lay.height // 16 + 2, lay.width // 16 + 2)).astype(np.float32)
        blotch = cv2.resize(small, (lay.width, lay.height), interpolation=cv2.INTER_CUBIC) * 0.05
        fuzz = rng.normal(0, 0.03, (lay.height, lay.width)).astype(np.float32)
        base = np.array(lay.background, np.float32)
        return np.clip(base[None, None, :] * (1 + blotch + fuzz)[..., None], 0, 255).astype(np.uint8)

    def _face(self, code: str, copy: int) -> np.ndarray:
        key = (code, copy)
        if key not in self._faces:
            # one physical set per table: the same seed gives every face the same print style
            rng = np.random.default_rng(_stable_seed("face", self.layout.seed))
            # drawn large and scaled down, as a camera sees a tile (sharp print, smooth edges)
            face = tile_face(code, int(self.layout.tile_height * 1.4), rng)
            self._faces[key] = cv2.resize(face, (self.layout.tile_width, self.layout.tile_height),
                                          interpolation=cv2.INTER_AREA)
        return self._faces[key]

    def render(self, scene: Scene) -> np.ndarray:
        """The scene without sensor noise (cached)."""
        if scene in self._cache:
            return self._cache[scene]
        lay = self.layout
        image = self._background.copy()
        copies: dict[str, int] = {}
        for meld in scene.melds:
            for k, code in enumerate(meld.tiles):
                copy = copies.get(code, 0)
                copies[code] = copy + 1
                x, y = lay.tile_box(meld.row, meld.col + k)
                self._paste(image, self._face(code, copy), x, y)
        if scene.hand:
            self._hand(image, scene)
        self._cache[scene] = image
        return image

    def frame(self, scene: Scene, index: int) -> np.ndarray:
        """One camera frame of the scene: the picture plus this frame's own sensor noise."""
        image = self.render(scene)
        if not self.layout.noise:
            return image.copy()
        noise = self._noise[index % len(self._noise)]
        return cv2.subtract(cv2.add(image, noise[0]), noise[1])  # saturating, like a sensor

    def _paste(self, image: np.ndarray, face: np.ndarray, x: int, y: int) -> None:
        h, w = face.shape[:2]
        H, W = image.shape[:2]
        if x < 0 or y < 0 or x + w > W or y + h > H:
            raise ValueError(f"a tile at ({x}, {y}) falls outside the {W}x{H} frame")
        # a soft contact shadow and the tile's side (its body seen at a slight slant)
        sx, sy = max(1, w // 20), max(2, h // 9)
        pad = 6
        y0, y1, x0, x1 = max(0, y - pad), min(H, y + h + sy + pad), max(0, x - pad), min(W, x + w + sx + pad)
        shade = np.zeros((y1 - y0, x1 - x0), np.float32)
        shade[y - y0 + sy + 1: y - y0 + sy + h, x - x0 + sx: x - x0 + sx + w] = 1.0
        shade = cv2.GaussianBlur(shade, (0, 0), max(1.0, w * 0.08))
        region = image[y0:y1, x0:x1]
        region[:] = (region * (1 - 0.45 * shade[..., None])).astype(np.uint8)
        side = image[y + sy // 2: y + h + sy // 2, x + 1: x + w - 1]
        side[:] = (np.array(face[max(2, h // 12), w // 2, :3], np.float32) * 0.7).astype(np.uint8)
        alpha = face[..., 3:4].astype(np.float32) / 255.0
        roi = image[y: y + h, x: x + w]
        roi[:] = (roi * (1 - alpha) + face[..., :3] * alpha).astype(np.uint8)

    def _hand(self, image: np.ndarray, scene: Scene) -> None:
        """A hand and forearm reaching in from the bottom edge towards the last meld."""
        lay = self.layout
        H, W = image.shape[:2]
        if scene.melds:
            meld = scene.melds[-1]
            tx, ty = lay.center(meld.row, meld.col + len(meld.tiles) // 2)
        else:
            tx, ty = W / 2, H / 2
        mask = np.zeros((H, W), np.uint8)
        size = int(0.12 * max(W, H))
        cv2.line(mask, (int(tx + size * 0.4), H + 20), (int(tx), int(ty + size * 0.4)), 255, int(size * 0.5))
        cv2.ellipse(mask, (int(tx), int(ty + size * 0.25)), (int(size * 0.35), int(size * 0.45)), 0, 0, 360, 255, -1)
        for k in range(-2, 2):
            fx = int(tx + k * size * 0.14 + size * 0.07)
            cv2.line(mask, (fx, int(ty + size * 0.1)), (fx, int(ty - size * 0.35)), 255, max(3, size // 10))
        soft = cv2.GaussianBlur(mask, (0, 0), 2).astype(np.float32)[..., None] / 255.0
        skin = np.array((120, 160, 215), np.float32)
        image[:] = (image * (1 - soft) + skin * soft).astype(np.uint8)
