"""The camera of a scripted game in benchmarks/bench_games.py: a real-looking table seen as a club's camera sees it.

The table is laid with tile faces cut from photos of the train split (the bundled atlas of
controller/demo/scene_data/, two crops of every code) on a real table top (the bundled wood,
grey and white tops cut from the shared photos, or the wood darkened to walnut), in the middle
of a floor with a box of spare tiles (faces cut from train photos) and its lid beside it
(models/recipe/area_scenes.py). That floor is seen through one camera per game: turned in the frame,
tilted off vertical (a perspective), blurred, at 1280x720 or 1920x1080, in warm or cold light,
with sensor noise in every frame; the room's light changes once, in the middle of the game.
Whenever the table changes a hand or forearm (benchmarks/watch_scenes.py: composited arms of
models/recipe/occluder_data.py and the recorded games' arms) comes in from an edge, rests while the
tiles change under it, and leaves.

The camera also knows where each tile lies in its frames (`true_table`), so a reading can be
compared with the truth and a referee can answer a doubt about a tile as a person looking at
the table would.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from benchmarks import watch_scenes
from benchmarks.game_scripts import Meld, true_table
from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from controller.demo.scene_photos import table_top
from controller.game.machine import TableState
from models.recipe.area_scenes import compose, cut_faces

ENTER, REST, LEAVE = 4, 5, 4  # frames of a hand coming in, resting while the tiles change, leaving
LIGHT_FRAMES = 8  # frames over which the room's light changes
NOISE = 2.0
GRID_ROWS, GRID_COLUMNS = 6, 22
TABLE_MARGIN = 2.0  # tile widths of bare table top around the places tiles are laid on
WARMTH = {"neutral": (1.0, 1.0, 1.0), "warm": (0.82, 0.97, 1.12), "cold": (1.12, 1.0, 0.86)}  # B, G, R gains


@dataclass(frozen=True)
class Condition:
    """One camera: how the table lies in its frames."""

    name: str
    width: int
    height: int
    tile_width: int  # pixels, before turning and tilting
    top: str  # "wood", "grey", "white" (bundled photos) or "walnut" (the wood darkened)
    turned: float  # degrees in the frame
    tilt: float  # degrees off vertical
    blur: float  # Gaussian sigma, pixels (0: sharp)
    light: str  # a WARMTH key
    light_change: float  # the room's level after the mid-game change (1: none)

    def describe(self) -> str:
        parts = [f"{self.width}x{self.height}", f"{self.tile_width} px tiles", f"{self.top} top"]
        parts += [f"turned {self.turned:g} deg"] if self.turned else []
        parts += [f"{self.tilt:g} deg off vertical"] if self.tilt else []
        parts += [f"blur sigma {self.blur:g}"] if self.blur else []
        parts += [f"{self.light} light, then x{self.light_change:g}"]
        return ", ".join(parts)


CONDITIONS = (
    Condition("upright wood", 1920, 1080, 40, "wood", 0, 0, 0, "neutral", 0.8),
    Condition("turned pale", 1920, 1080, 36, "white", 105, 0, 0, "warm", 1.2),
    Condition("tilted grey", 1920, 1080, 36, "grey", 0, 20, 0, "cold", 0.8),
    Condition("blurred walnut", 1280, 720, 31, "walnut", 15, 0, 2.0, "warm", 1.2),
    Condition("turned tilted 720p", 1280, 720, 30, "wood", 200, 15, 0, "cold", 0.8),
    Condition("all at once", 1920, 1080, 44, "white", 330, 20, 1.0, "neutral", 1.25),
)


def spare_faces(train_photos, count: int = 4) -> list[np.ndarray]:
    """Tile faces cut from a few train photos, for the box of spare tiles."""
    faces: list[np.ndarray] = []
    for photo in train_photos[:count]:
        image = cv2.imread(str(photo.image_path))
        if image is not None:
            faces += cut_faces(image, [quad for _, quad in photo.tiles])
    if not faces:
        raise ValueError("no tile faces could be cut from the train photos for the box of spare tiles")
    return faces


class TopRenderer(SceneRenderer):
    """The scene renderer on one of the bundled tops, or the wood darkened to walnut."""

    def __init__(self, layout: SceneLayout, top: str) -> None:
        self.top = top
        super().__init__(layout)

    def _table(self) -> np.ndarray:
        lay = self.layout
        if self.top == "walnut":
            wood = table_top("wood", lay.width, lay.height).astype(np.float32)
            return np.clip(wood * np.float32([0.42, 0.45, 0.55]), 0, 255).astype(np.uint8)
        return table_top(self.top, lay.width, lay.height)


class GameCamera:
    def __init__(self, condition: Condition, faces: list[np.ndarray], seed: int) -> None:
        self.condition = condition
        self.seed = seed
        c = condition
        t = c.tile_width
        lay = SceneLayout(width=0, height=0, tile_width=t, margin=int(TABLE_MARGIN * t))  # its tile height and pitch
        width = int(2 * lay.margin + GRID_COLUMNS * t * lay.gap) + 2
        height = int(2 * lay.margin + GRID_ROWS * lay.tile_height * lay.row_pitch) + 2
        self.layout = SceneLayout(width=width, height=height, tile_width=t, margin=lay.margin, seed=seed, faces="photo",
                                  background="wood", noise=0)
        self.renderer = TopRenderer(self.layout, c.top)
        floor = compose(self.renderer.render(Scene(())), faces, seed, objects=("box", "lid"))
        self.floor = floor.image
        self.offset = floor.offset
        self.homography = self._homography()
        self._widen_floor(np.random.default_rng(seed))
        self.gains = np.float32(WARMTH[c.light])
        self.light_from: int | None = None  # the frame at which the mid-game change begins
        rng = np.random.default_rng(seed)
        self.noise = [rng.normal(0, NOISE, (c.height, c.width, 3)).astype(np.float32) for _ in range(3)]
        self.noise = [(np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)) for n in self.noise]
        self._clean: dict[tuple[Scene, float], np.ndarray] = {}

    # --------------------------------------------------------------- geometry

    def _homography(self) -> np.ndarray:
        c = self.condition
        ox, oy = self.offset
        cx, cy = ox + self.layout.width / 2, oy + self.layout.height / 2
        to_origin = np.float64([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]])
        a = math.radians(c.turned)
        turn = np.float64([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
        f = float(c.width)  # a camera of about 50 degrees across, one focal length above the table's middle
        p = math.radians(c.tilt)
        tilt = np.float64([[1, 0, 0], [0, math.cos(p), 0], [0, math.sin(p) / f, 1]])
        h = tilt @ turn @ to_origin
        corners = np.float64([[ox, oy], [ox + self.layout.width, oy], [ox + self.layout.width, oy + self.layout.height],
                              [ox, oy + self.layout.height]])
        seen = cv2.perspectiveTransform(corners[None], h)[0]
        span = seen.max(axis=0) - seen.min(axis=0)
        scale = min(1.0, 0.92 * c.width / span[0], 0.92 * c.height / span[1])  # the whole table in view
        middle = (seen.max(axis=0) + seen.min(axis=0)) / 2 * scale
        to_frame = np.float64([[scale, 0, c.width / 2 - middle[0]], [0, scale, c.height / 2 - middle[1]], [0, 0, 1]])
        return to_frame @ h

    def _widen_floor(self, rng: np.random.Generator) -> None:
        """More of the same carpet around the floor, so that the whole frame sees floor."""
        c = self.condition
        corners = np.float64([[[0, 0], [c.width, 0], [c.width, c.height], [0, c.height]]])
        seen = cv2.perspectiveTransform(corners, np.linalg.inv(self.homography))[0]
        h, w = self.floor.shape[:2]
        left, top = max(0, int(-seen[:, 0].min()) + 8), max(0, int(-seen[:, 1].min()) + 8)
        right, bottom = max(0, int(seen[:, 0].max()) - w + 8), max(0, int(seen[:, 1].max()) - h + 8)
        if not (left or top or right or bottom):
            return
        border = np.concatenate([self.floor[:4].reshape(-1, 3), self.floor[-4:].reshape(-1, 3)]).astype(np.float32)
        base = np.median(border, axis=0)
        H, W = h + top + bottom, w + left + right
        pile = cv2.resize(rng.normal(0, 14, (H // 3 + 1, W // 3 + 1)).astype(np.float32), (W, H))[..., None]
        canvas = np.clip(base + pile + rng.normal(0, 6, (H, W, 1)).astype(np.float32), 0, 255).astype(np.uint8)
        canvas[top: top + h, left: left + w] = self.floor
        self.floor = canvas
        self.offset = (self.offset[0] + left, self.offset[1] + top)
        self.homography = self.homography @ np.float64([[1, 0, -left], [0, 1, -top], [0, 0, 1]])

    @property
    def tile_pixels(self) -> float:
        """A tile's width in the frame at the table's middle."""
        ox, oy = self.offset
        x, y = ox + self.layout.width / 2, oy + self.layout.height / 2
        ends = cv2.perspectiveTransform(np.float64([[[x, y], [x + self.layout.tile_width, y]]]), self.homography)[0]
        return float(np.linalg.norm(ends[1] - ends[0]))

    def table_corners(self) -> tuple[tuple[float, float], ...]:
        """The table top's corners in the frame (top-left, top-right, bottom-right, bottom-left of the
        top as laid), where a referee marking the play area would drag them."""
        ox, oy = self.offset
        w, h = self.layout.width, self.layout.height
        corners = np.float64([[[ox, oy], [ox + w, oy], [ox + w, oy + h], [ox, oy + h]]])
        return tuple((float(x), float(y)) for x, y in cv2.perspectiveTransform(corners, self.homography)[0])

    def where(self, row: int, col: int) -> tuple[float, float]:
        """A grid place's tile centre in the frame."""
        cx, cy = self.layout.center(row, col)
        point = cv2.perspectiveTransform(np.float64([[[cx + self.offset[0], cy + self.offset[1]]]]), self.homography)
        return float(point[0, 0, 0]), float(point[0, 0, 1])

    def true_table(self, melds: tuple[Meld, ...]) -> TableState:
        return true_table(melds, self.where)

    # ----------------------------------------------------------------- frames

    def light(self, index: int) -> tuple[float, np.ndarray]:
        """(how far the mid-game change has gone, 0..1; the B, G, R gains) at frame `index`."""
        u = 0.0
        if self.light_from is not None:
            u = min(1.0, max(0.0, (index - self.light_from) / LIGHT_FRAMES))
        level = 1 + (self.condition.light_change - 1) * u
        return u, self.gains * np.float32(level)

    def clean(self, scene: Scene, index: int) -> np.ndarray:
        """The frame without a hand or noise (cached per table and light)."""
        u, gains = self.light(index)
        key = (scene, round(u, 3))
        if key in self._clean:
            return self._clean[key]
        c = self.condition
        floor = self.floor.copy()
        table = self.renderer.render(scene)
        ox, oy = self.offset
        floor[oy: oy + table.shape[0], ox: ox + table.shape[1]] = table
        image = cv2.warpPerspective(floor, self.homography, (c.width, c.height), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
        if c.blur:
            image = cv2.GaussianBlur(image, (0, 0), c.blur)
        image = cv2.transform(image, np.diag(gains).astype(np.float32))
        if len(self._clean) > 6:
            self._clean.clear()
        self._clean[key] = image
        return image

    def frame(self, scene: Scene, index: int, hand: "Hand | None" = None) -> np.ndarray:
        image = self.clean(scene, index)
        if hand is not None:
            image = hand.over(image, self.light(index)[1])
        else:
            image = image.copy()
        noise = self.noise[index % len(self.noise)]
        return cv2.subtract(cv2.add(image, noise[0]), noise[1])

    def arm(self, rng: np.random.Generator) -> "Arm":
        """A hand or forearm from a random edge, scaled to this camera's frames."""
        edge = watch_scenes.EDGES[int(rng.integers(4))]
        sprite = watch_scenes.arm_sprite(rng, edge)
        return Arm.scaled(sprite, self.condition.width / watch_scenes.WIDTH, self.condition.width, self.condition.height)


@dataclass(frozen=True)
class Arm:
    """An occluder sprite at this camera's scale: colour (premultiplied), alpha and shade over a box."""

    colour: np.ndarray
    alpha: np.ndarray
    shade: np.ndarray
    origin: tuple[int, int]
    edge: str
    width: int
    height: int

    @staticmethod
    def scaled(sprite, factor: float, width: int, height: int) -> "Arm":
        h, w = sprite.alpha.shape
        size = (max(1, round(w * factor)), max(1, round(h * factor)))
        resize = (lambda a: cv2.resize(a, size, interpolation=cv2.INTER_AREA)) if factor != 1 else (lambda a: a)
        origin = (round(sprite.origin[0] * factor), round(sprite.origin[1] * factor))
        return Arm(resize(sprite.colour), np.clip(resize(sprite.alpha), 0, 1), resize(sprite.shade), origin,
                   sprite.edge, width, height)

    @property
    def hide_distance(self) -> int:
        h, w = self.alpha.shape
        x0, y0 = self.origin
        return {"top": y0 + h, "bottom": self.height - y0, "left": x0 + w, "right": self.width - x0}[self.edge] + 2


@dataclass(frozen=True)
class Hand:
    """An arm at `out` pixels from its resting place along its edge's normal (0: resting)."""

    arm: Arm
    out: float

    def over(self, image: np.ndarray, gains: np.ndarray) -> np.ndarray:
        arm = self.arm
        dx, dy = watch_scenes.OUTWARD[arm.edge]
        h, w = arm.alpha.shape
        x0, y0 = arm.origin[0] + round(dx * self.out), arm.origin[1] + round(dy * self.out)
        fx0, fy0, fx1, fy1 = max(0, x0), max(0, y0), min(arm.width, x0 + w), min(arm.height, y0 + h)
        out = image.copy()
        if fx0 >= fx1 or fy0 >= fy1:
            return out
        rows, cols = slice(fy0, fy1), slice(fx0, fx1)
        srows, scols = slice(fy0 - y0, fy1 - y0), slice(fx0 - x0, fx1 - x0)
        alpha = arm.alpha[srows, scols]
        region = out[rows, cols].astype(np.float32)
        region *= (arm.shade[srows, scols] * (1 - alpha))[..., None]
        region += arm.colour[srows, scols] * gains  # the arm is lit by the room's light too
        out[rows, cols] = np.clip(region, 0, 255).astype(np.uint8)
        return out


def hand_path(arm: Arm) -> list[float]:
    """How far out the arm is in each frame: coming in, resting, leaving (eased as a hand moves)."""
    hide = arm.hide_distance
    coming = [hide * (1 - (k + 1) / ENTER) ** 2 for k in range(ENTER)]
    leaving = [hide * ((k + 1) / (LEAVE + 1)) ** 2 for k in range(LEAVE)]
    return coming + [0.0] * REST + leaving
