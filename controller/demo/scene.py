"""Camera frames of a table whose tiles stay where they were put (for recorded games).

The training recipe's renderer (models/recipe/synth.py) lays melds out afresh for every
picture, which is right for training but not for a game, where a tile nobody touched stays
put. Here every meld has a grid place (`at`: row, column of its first tile), so the frames
of one game show the same tile in the same spot from turn to turn. Tile faces come from `tile_faces.tile_face`;
a hand reaching in from the bottom edge can be drawn over the table; each frame gets its
own sensor noise, so consecutive frames of a still table differ a little, as with a camera.

A layout can instead look like a real table: `faces="photo"` pastes crops of a real set
(two different crops per code, so both copies of a code look like two tiles), `background`
names a real table-top photo ("wood", "grey", "white"), and `hands="varied"` draws arms
from any side with any skin tone, often in a sleeve (scene_photos.py, scene_hands.py).
The defaults stay the green felt with rendered faces, so recorded games keep their frames.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from .scene_hands import draw_arm
from .scene_photos import TABLE_TOPS, face_crops, table_top
from .tile_faces import TILE_ASPECT, tile_face

FACES = ("rendered", "photo")
HANDS = ("plain", "varied")


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
    background: tuple[int, int, int] | str = (52, 92, 38)  # BGR felt colour, or a real table top: "wood", ...
    seed: int = 0
    noise: float = 2.0
    faces: str = "rendered"  # or "photo": crops of a real set
    hands: str = "plain"  # or "varied": arms from any side, any skin tone, sleeves

    def __post_init__(self) -> None:
        if isinstance(self.background, str):
            if self.background not in TABLE_TOPS:
                raise ValueError(f"layout background {self.background!r} is not a BGR colour or one of {', '.join(TABLE_TOPS)}")
        else:
            colour = tuple(int(v) for v in self.background)
            if len(colour) != 3 or not all(0 <= v <= 255 for v in colour):
                raise ValueError(f"layout background {self.background!r} is not a BGR colour or one of {', '.join(TABLE_TOPS)}")
            object.__setattr__(self, "background", colour)  # JSON gives a list; a layout stays hashable
        if self.faces not in FACES:
            raise ValueError(f"layout faces {self.faces!r} is not one of {', '.join(FACES)}")
        if self.hands not in HANDS:
            raise ValueError(f"layout hands {self.hands!r} is not one of {', '.join(HANDS)}")

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

    def outlines(self, scene: "Scene") -> tuple[tuple[tuple[int, int], ...], ...]:
        """Each tile's four corners (TL TR BR BL) where this layout lays it, meld by meld, as a reader that
        never errs outlines them."""
        w, h = self.tile_width, self.tile_height
        return tuple(((x, y), (x + w, y), (x + w, y + h), (x, y + h))
                     for meld in scene.melds for k in range(len(meld.tiles))
                     for x, y in [self.tile_box(meld.row, meld.col + k)])

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


def _body_colour(face: np.ndarray) -> np.ndarray:
    """The tile's plastic, for its side: the face's bright level (a real face has ink anywhere near its top)."""
    return np.percentile(face[..., :3][face[..., 3] > 0].astype(np.float32), 75, axis=0)


def _stable_seed(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "little")


@dataclass
class SceneRenderer:
    layout: SceneLayout = field(default_factory=SceneLayout)

    def __post_init__(self) -> None:
        self._faces: dict[tuple[str, int], np.ndarray] = {}
        self._background = self._table()
        self._cache: dict[Scene, np.ndarray] = {}
        # a few fields of sensor noise, used in turn (drawing fresh noise for every frame is slow)
        rng = np.random.default_rng(_stable_seed("noise", self.layout.seed))
        self._noise = []
        for _ in range(5):
            field = rng.normal(0, self.layout.noise, (self.layout.height, self.layout.width, 3))
            self._noise.append((np.clip(field, 0, 255).astype(np.uint8), np.clip(-field, 0, 255).astype(np.uint8)))

    def _table(self) -> np.ndarray:
        lay = self.layout
        if isinstance(lay.background, str):
            return table_top(lay.background, lay.width, lay.height)
        return self._felt()

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
        if key not in self._faces and self.layout.faces == "photo":
            self._faces[key] = self._photo_face(code, copy)
        if key not in self._faces:
            # one physical set per table: the same seed gives every face the same print style
            rng = np.random.default_rng(_stable_seed("face", self.layout.seed))
            # drawn large and scaled down, as a camera sees a tile (sharp print, smooth edges)
            face = tile_face(code, int(self.layout.tile_height * 1.4), rng)
            self._faces[key] = cv2.resize(face, (self.layout.tile_width, self.layout.tile_height),
                                          interpolation=cv2.INTER_AREA)
        return self._faces[key]

    def _photo_face(self, code: str, copy: int) -> np.ndarray:
        """A real crop of `code` (copy 0 and 1 are different crops), BGRA with a rounded outline."""
        crops = face_crops()
        if code not in crops:
            raise ValueError(f"tile code {code!r} has no bundled face crop")
        w, h = self.layout.tile_width, self.layout.tile_height
        crop = crops[code][copy % len(crops[code])]
        face = cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
        radius = max(2, int(0.09 * w))
        alpha = np.zeros((h, w), np.uint8)
        cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
        cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
        for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius), (w - 1 - radius, h - 1 - radius)):
            cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
        # the crops are cut just inside the face; the bevel at its rim is drawn back in, slightly darker
        rim = max(1, int(round(0.04 * w)))
        inner = cv2.erode(alpha, np.ones((2 * rim + 1, 2 * rim + 1), np.uint8))
        face[inner == 0] *= 0.88
        return np.dstack([np.clip(face, 0, 255).astype(np.uint8), alpha])

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
                face = self._face(code, copy)
                self._paste(image, face, x, y, _body_colour(face) if lay.faces == "photo" else None)
        if scene.hand and self.layout.hands == "varied":
            draw_arm(image, self._hand_target(scene), np.random.default_rng(_stable_seed("hand", lay.seed, scene)))
        elif scene.hand:
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

    def _paste(self, image: np.ndarray, face: np.ndarray, x: int, y: int,
               body: np.ndarray | None = None) -> None:
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
        if body is None:
            body = np.array(face[max(2, h // 12), w // 2, :3], np.float32)
        side[:] = (body * 0.7).astype(np.uint8)
        alpha = face[..., 3:4].astype(np.float32) / 255.0
        roi = image[y: y + h, x: x + w]
        roi[:] = (roi * (1 - alpha) + face[..., :3] * alpha).astype(np.uint8)

    def _hand_target(self, scene: Scene) -> tuple[float, float]:
        """Over the last meld (where a player just laid or moved tiles), or the middle of an empty table."""
        if scene.melds:
            meld = scene.melds[-1]
            return self.layout.center(meld.row, meld.col + len(meld.tiles) // 2)
        return self.layout.width / 2, self.layout.height / 2

    def _hand(self, image: np.ndarray, scene: Scene) -> None:
        """A hand and forearm reaching in from the bottom edge towards the last meld."""
        H, W = image.shape[:2]
        tx, ty = self._hand_target(scene)
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
