"""Frame sequences of a real table with something coming over it, each frame with its truth.

A sequence is one wait of the eyes: a shared real photo of the train split (models/split/),
turned to lie landscape, scaled to cover 1920x1080 and cropped in the middle (the table fills
the frame as under a camera; tiles past the crop are cut, and the clear table's reading is taken
from the same crop), at `fps` timestamps, with fresh sensor noise in every frame. Over it move
occluders of the project's own making, each drawn once and then slid in and out along the
normal of the edge it reaches to, so an arm always stays joined to the frame's edge:

- composited hands and forearms (models/recipe/occluder_data.py: skin tones along a continuous range,
  sleeves, fists, flat and pinching hands) and the recorded games' arms
  (controller/demo/scene_hands.py), entering from a named edge over 0.3-0.7 s, resting 1-5 s
  with a tremor of 1-2 pixels, leaving slowly (0.7-1.5 s);
- a forearm in a sleeve of the table's own colour;
- a phone brought in by a hand, put down, left alone 1-4 s, then taken away;
- a cup left at the table's edge for the whole wait;
- a hand already resting when the wait begins (a resume), and a game's first wait (no look
  settled since the game began: the table clear for a moment, then a hand enters and rests; or
  the hand over the table from the first frame);
- a hand resting perfectly still (no tremor);
- a hand resting while the room's light changes.

No photographed hand is used: none that may be credited is available offline.

Each frame carries its truth: the share of the frame an occluder covers (its composited mask
above one half), and the sequence knows when the last occluder left (`left_at`). Frames are made
lazily, one at a time; the occluders are drawn at half size and scaled up, and only the box an
occluder covers is composited, so a frame costs a few milliseconds.
"""
from __future__ import annotations

from collections import Counter
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

import cv2
import numpy as np

from controller.demo.scene_hands import draw_arm
from models.recipe.occluder_data import HardSamples, draw_cup, draw_hand, draw_phone
from models.recipe.realdata import Photo

WIDTH, HEIGHT = 1920, 1080
EDGES = ("top", "right", "bottom", "left")
OUTWARD = {"top": (0, -1), "right": (1, 0), "bottom": (0, 1), "left": (-1, 0)}  # unit steps out of the frame
KINDS = ("hand from the top", "hand from the right", "hand from the bottom", "hand from the left",
         "sleeve like the table", "phone put down", "cup at the edge", "hand through a resume",
         "hand at the first wait", "light change", "hand resting still", "hand as the first wait begins")
NOISE_LEVEL = 2.0  # grey levels of sensor noise (standard deviation)
NOISE_FIELDS = 4  # frames cycle through this many noise fields, drawn once
SETTLE_TAIL = 2.5  # seconds of clear table after the last occluder left, for the eyes to judge it
COVERED_ALPHA = 0.5  # a pixel is covered where an occluder's mask is above this
LIKE_TABLE = HardSamples(thin_arms=0.0, like_table=1.0)


# ------------------------------------------------------------------ the clear table


def table_frame(photo: Photo) -> np.ndarray:
    """The photo as a 1920x1080 camera frame: landscape, scaled to cover, cropped in the middle."""
    return _table_frame(str(photo.image_path)).copy()


@lru_cache(maxsize=4)
def _table_frame(path: str) -> np.ndarray:
    image = cv2.imread(path)
    if image is None:
        raise ValueError(f"the table photo {path!r} cannot be read as an image")
    if image.shape[0] > image.shape[1]:
        image = np.ascontiguousarray(np.rot90(image))
    h, w = image.shape[:2]
    scale = max(WIDTH / w, HEIGHT / h)
    big = cv2.resize(image, (max(WIDTH, round(w * scale)), max(HEIGHT, round(h * scale))), interpolation=cv2.INTER_CUBIC)
    y0, x0 = (big.shape[0] - HEIGHT) // 2, (big.shape[1] - WIDTH) // 2
    return big[y0:y0 + HEIGHT, x0:x0 + WIDTH]


def labelled_quads(photo: Photo) -> list[tuple[str, np.ndarray]]:
    """The photo's labelled tiles as `table_frame` shows them: (code, four corners in frame pixels)."""
    image = cv2.imread(str(photo.image_path))
    if image is None:
        raise ValueError(f"the table photo {str(photo.image_path)!r} cannot be read as an image")
    h, w = image.shape[:2]
    quads = []
    for code, quad in photo.tiles:
        points = np.asarray(quad, np.float64)
        if h > w:  # np.rot90 turns the photo a quarter anticlockwise: (x, y) -> (y, w - 1 - x)
            points = np.stack([points[:, 1], w - 1 - points[:, 0]], axis=1)
        ph, pw = (w, h) if h > w else (h, w)
        scale = max(WIDTH / pw, HEIGHT / ph)
        big_w, big_h = max(WIDTH, round(pw * scale)), max(HEIGHT, round(ph * scale))
        quads.append((code, points * scale - [(big_w - WIDTH) // 2, (big_h - HEIGHT) // 2]))
    return quads


def labelled_table(photo: Photo) -> tuple[Counter, int]:
    """The photo's labelled codes as `table_frame` shows them: (codes of the tiles wholly in the frame,
    how many labelled tiles the crop cuts, whose reading is free)."""
    inside, cut = Counter(), 0
    for code, points in labelled_quads(photo):
        if points[:, 0].min() >= 0 and points[:, 1].min() >= 0 and points[:, 0].max() < WIDTH and points[:, 1].max() < HEIGHT:
            inside[code] += 1
        elif points[:, 0].max() >= 0 and points[:, 1].max() >= 0 and points[:, 0].min() < WIDTH and points[:, 1].min() < HEIGHT:
            cut += 1
    return inside, cut


def empty_table(photo: Photo, outlines=()) -> np.ndarray:
    """`table_frame` with its tiles painted out by their surroundings (the labelled ones, and `outlines`, the
    tiles read on it): the table as it lay clear when the game began, which a table settles on first and
    compares its first wait with. Tiles the crop cuts stay: a camera over a real table sees the whole
    table, so what the frame's edge cuts here stands for what lay beyond the table from the start."""
    mask = np.zeros((HEIGHT, WIDTH), np.uint8)
    for quad in [points for _, points in labelled_quads(photo)] + [np.asarray(o, np.float64) for o in outlines]:
        if quad[:, 0].min() < 1 or quad[:, 1].min() < 1 or quad[:, 0].max() > WIDTH - 2 or quad[:, 1].max() > HEIGHT - 2:
            continue
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255)
    mask = cv2.dilate(mask, np.ones((15, 15), np.uint8))
    return cv2.inpaint(table_frame(photo), mask, 5, cv2.INPAINT_TELEA)


def noisy(frame: np.ndarray, k: int) -> np.ndarray:
    """The frame with the k-th of NOISE_FIELDS fields of sensor noise added (a camera's still table)."""
    noise = np.random.default_rng(4242 + k % NOISE_FIELDS).normal(0, NOISE_LEVEL, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


@lru_cache(maxsize=2)
def _noisy_frames(path: str) -> tuple[np.ndarray, ...]:
    clear = _table_frame(path)
    return tuple(noisy(clear, k) for k in range(NOISE_FIELDS))


# ------------------------------------------------------------------ occluders as sprites


@dataclass(frozen=True)
class Sprite:
    """An occluder drawn once at rest: its colour (premultiplied by its mask), mask and the shadow it
    casts (a factor on the table), over a box whose top-left lies at `origin` in the frame."""
    colour: np.ndarray  # h x w x 3 float32
    alpha: np.ndarray  # h x w float32 0..1
    shade: np.ndarray  # h x w float32, 1 where no shadow
    origin: tuple[int, int]
    edge: str | None  # the frame edge it reaches to (slides along this edge's normal), None: lies apart
    name: str  # what it is: "hand", "hand+sleeve", "scene arm", "phone", "cup"
    covered_sum: np.ndarray  # integral image of alpha > COVERED_ALPHA, to count covered pixels in any window

    @property
    def hide_distance(self) -> int:
        """Pixels it slides out along its edge's normal before none of it is left in the frame."""
        h, w = self.alpha.shape
        x0, y0 = self.origin
        return {"top": y0 + h, "bottom": HEIGHT - y0, "left": x0 + w, "right": WIDTH - x0}.get(self.edge, 0) + 2

    def window(self, offset: tuple[int, int]) -> tuple[slice, slice, slice, slice] | None:
        """(frame rows, frame columns, sprite rows, sprite columns) it covers moved by `offset`; None: out of sight."""
        h, w = self.alpha.shape
        x0, y0 = self.origin[0] + offset[0], self.origin[1] + offset[1]
        fx0, fy0, fx1, fy1 = max(0, x0), max(0, y0), min(WIDTH, x0 + w), min(HEIGHT, y0 + h)
        if fx0 >= fx1 or fy0 >= fy1:
            return None
        return slice(fy0, fy1), slice(fx0, fx1), slice(fy0 - y0, fy1 - y0), slice(fx0 - x0, fx1 - x0)

    def covered_pixels(self, offset: tuple[int, int]) -> int:
        box = self.window(offset)
        if box is None:
            return 0
        _, _, rows, cols = box
        s = self.covered_sum
        return int(s[rows.stop, cols.stop] - s[rows.start, cols.stop] - s[rows.stop, cols.start] + s[rows.start, cols.start])


def sprite_from_layer(colour, alpha, shade, edge, name) -> Sprite:
    """A drawn layer (half size) scaled to the frame and cut to the box of what it changes."""
    colour = cv2.resize(colour, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR)
    alpha = np.clip(cv2.resize(alpha, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR), 0, 1)
    shade = cv2.resize(shade, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR)
    ys, xs = np.nonzero((alpha > 1 / 255) | (shade < 0.995))
    if not len(ys):
        raise ValueError(f"the drawn {name} covers nothing")
    y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
    alpha = np.ascontiguousarray(alpha[y0:y1, x0:x1])
    covered = cv2.integral((alpha > COVERED_ALPHA).astype(np.uint8))
    return Sprite(np.ascontiguousarray(colour[y0:y1, x0:x1]), alpha, np.ascontiguousarray(shade[y0:y1, x0:x1]),
                  (x0, y0), edge, name, covered)


def _entered_edge(alpha: np.ndarray) -> str | None:
    counts = {"top": (alpha[0] > COVERED_ALPHA).sum(), "bottom": (alpha[-1] > COVERED_ALPHA).sum(),
              "left": (alpha[:, 0] > COVERED_ALPHA).sum(), "right": (alpha[:, -1] > COVERED_ALPHA).sum()}
    edge = max(counts, key=counts.get)
    return edge if counts[edge] else None


_FLIPS = {("top", "bottom"), ("bottom", "top"), ("left", "right"), ("right", "left")}


def composited_arm(rng: np.random.Generator, edge: str, table: np.ndarray | None = None,
                   sleeve: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """A hand or forearm of models/recipe/occluder_data.py reaching in from `edge` (half size). `table`: the
    arm (and its sleeve) takes that table's colour; `sleeve`: only arms in a sleeve are kept."""
    w, h = WIDTH // 2, HEIGHT // 2
    tone = None if table is None else table.reshape(-1, 3).astype(np.float32).mean(axis=0)
    for _ in range(60):
        colour = np.zeros((h, w, 3), np.float32)
        shade = np.ones((h, w), np.float32)
        alpha, kinds = draw_hand(rng, colour, shade, tone, LIKE_TABLE if table is not None else None)
        got = _entered_edge(alpha)
        if "phone" in kinds or got is None or (sleeve and "sleeve" not in kinds):
            continue
        if (alpha > COVERED_ALPHA).mean() < 0.004:  # a sliver at the border is no arm over the table
            continue
        if got == edge or (got, edge) in _FLIPS:
            if got != edge:
                flip = (lambda a: a[::-1]) if edge in ("top", "bottom") else (lambda a: a[:, ::-1])
                colour, alpha, shade = (np.ascontiguousarray(flip(a)) for a in (colour, alpha, shade))
            return colour, alpha, shade, "+".join(kinds)
    raise RuntimeError(f"no composited arm from the {edge} edge in 60 draws")


def scene_arm(rng: np.random.Generator, edge: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """An arm of the recorded games' scenes (controller/demo/scene_hands.py) from `edge`, at half size."""
    w, h = WIDTH // 2, HEIGHT // 2
    grey = 128.0
    drawn = np.full((h, w, 3), grey, np.uint8)
    mask = draw_arm(drawn, (rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h), rng, edge=edge)
    alpha = cv2.GaussianBlur(mask, (0, 0), 1.2).astype(np.float32) / 255.0
    out = drawn.astype(np.float32)
    shade = np.where(alpha < 0.02, out.mean(axis=2) / grey, 1.0).astype(np.float32)
    colour = out - grey * shade[..., None] * (1 - alpha[..., None])
    return np.clip(colour, 0, 255), alpha, shade, "scene arm"


def arm_sprite(rng: np.random.Generator, edge: str, table: np.ndarray | None = None, sleeve: bool = False,
               scene_share: float = 1 / 3) -> Sprite:
    """An arm from `edge`: one of the recorded games' arms `scene_share` of the time, else a composited
    one (in `table`'s colour when given, in a sleeve when `sleeve`)."""
    if table is None and not sleeve and rng.random() < scene_share:
        colour, alpha, shade, name = scene_arm(rng, edge)
    else:
        small = None if table is None else cv2.resize(table, (WIDTH // 2, HEIGHT // 2), interpolation=cv2.INTER_AREA)
        colour, alpha, shade, name = composited_arm(rng, edge, small, sleeve)
    return sprite_from_layer(colour, alpha, shade, edge, name)


def phone_sprite(rng: np.random.Generator, arm: Sprite) -> Sprite:
    """A phone lying under the fingertips of `arm` (the covered point farthest from its edge)."""
    ys, xs = np.nonzero(arm.alpha > COVERED_ALPHA)
    depth = {"top": ys, "bottom": -ys, "left": xs, "right": -xs}[arm.edge]
    k = int(np.argmax(depth))
    tip = np.array([xs[k] + arm.origin[0], ys[k] + arm.origin[1]], np.float64)
    step = -np.array(OUTWARD[arm.edge], np.float64)
    w, h = WIDTH // 2, HEIGHT // 2
    colour = np.zeros((h, w, 3), np.float32)
    shade = np.ones((h, w), np.float32)
    length = rng.uniform(0.12, 0.18) * w
    at = (tip + step * length * 0.15) / 2
    alpha = draw_phone(rng, colour, shade, at=at, length=length)
    return sprite_from_layer(colour, alpha, shade, arm.edge, "phone")


def cup_sprite(rng: np.random.Generator) -> Sprite:
    """A cup (models/recipe/occluder_data.draw_cup) moved to stand at an edge of the table, partly cut or not."""
    w, h = WIDTH // 2, HEIGHT // 2
    colour = np.zeros((h, w, 3), np.float32)
    shade = np.ones((h, w), np.float32)
    alpha = draw_cup(rng, colour, shade)
    sprite = sprite_from_layer(colour, alpha, shade, None, "cup")
    ys, xs = np.nonzero(sprite.alpha > 0.99)
    cy, cx = float(np.median(ys)), float(np.median(xs))  # the cup's body, its handle aside
    radius = math.sqrt(len(ys) / math.pi)
    edge = EDGES[int(rng.integers(4))]
    gap = rng.uniform(0.6, 1.5) * radius  # from the edge to the cup's centre
    along = rng.uniform(0.15, 0.85)
    centre = {"top": (along * WIDTH, gap), "bottom": (along * WIDTH, HEIGHT - gap),
              "left": (gap, along * HEIGHT), "right": (WIDTH - gap, along * HEIGHT)}[edge]
    origin = (int(round(centre[0] - cx)), int(round(centre[1] - cy)))
    return Sprite(sprite.colour, sprite.alpha, sprite.shade, origin, None, f"cup at the {edge} edge", sprite.covered_sum)


# ------------------------------------------------------------------ movement


@dataclass(frozen=True)
class Track:
    """How far a sprite lies out of place along its edge's normal over time: keyframes (seconds, pixels
    out), eased between (slowing as it comes in, speeding up as it goes out); before the first and
    after the last it keeps their distance. While two keyframes in a row are both at rest (0 pixels
    out) it trembles by up to `tremor` pixels."""
    keys: tuple[tuple[float, float], ...]
    tremor: int = 0

    def distance(self, at: float) -> float:
        keys = self.keys
        if at <= keys[0][0]:
            return keys[0][1]
        for (t0, d0), (t1, d1) in zip(keys, keys[1:]):
            if at <= t1:
                u = (at - t0) / max(t1 - t0, 1e-9)
                # a hand slows down to rest and speeds up to leave; it does not linger at the frame's edge
                u = u * u if d1 > d0 else 1 - (1 - u) ** 2
                return d0 + (d1 - d0) * u
        return keys[-1][1]

    def resting(self, at: float) -> bool:
        keys = self.keys
        for (t0, d0), (t1, d1) in zip(keys, keys[1:]):
            if t0 <= at <= t1:
                return d0 == d1 == 0
        return False


@dataclass(frozen=True)
class Mover:
    sprite: Sprite
    track: Track

    def offset(self, at: float, frame_index: int, seed: int) -> tuple[int, int]:
        sprite = self.sprite
        if sprite.edge is None:
            return 0, 0
        out = self.track.distance(at)
        dx, dy = OUTWARD[sprite.edge]
        side = 0
        if self.track.tremor and self.track.resting(at):
            a = self.track.tremor
            normal, side = (int(v) for v in np.random.default_rng((seed, frame_index)).integers(-a, a + 1, 2))
            out += a + normal  # at rest a tremor's width out, so it never pulls back from the frame's edge
        return int(round(dx * out)) + side * (dx == 0), int(round(dy * out)) + side * (dy == 0)


@dataclass(frozen=True)
class SceneFrame:
    image: np.ndarray  # 1920x1080 BGR
    at: float  # seconds since the wait began
    index: int
    covered_share: float  # of the frame, under an occluder (its mask above one half)

    @property
    def covered(self) -> bool:
        return self.covered_share > 0


@dataclass(frozen=True)
class Light:
    """The room's light changes from 1 to `gains` (B, G, R) between `start` and `end`."""
    start: float
    end: float
    gains: tuple[float, float, float]

    def at(self, t: float) -> np.ndarray | None:
        if t <= self.start:
            return None
        u = min(1.0, (t - self.start) / max(self.end - self.start, 1e-9))
        return np.diag([1 + (g - 1) * u for g in self.gains]).astype(np.float32)


# ------------------------------------------------------------------ sequences


@dataclass
class Sequence:
    """One wait: frames at `fps` from the wait's start (t = 0) to `duration`, made lazily."""
    index: int
    kind: str
    photo: Photo
    fps: float
    duration: float
    movers: tuple[Mover, ...]  # drawn in order (a phone under the hand that holds it)
    has_reference: bool  # False: a game's first wait (no settled table before)
    seed: int
    light: Light | None = None
    entered_at: float | None = None  # when the first occluder appears (None: there from the start)

    @property
    def frame_count(self) -> int:
        return int(math.floor(self.duration * self.fps)) + 1

    def at(self, index: int) -> float:
        return index / self.fps

    @property
    def design(self) -> str:
        return ", ".join(dict.fromkeys(m.sprite.name for m in self.movers))

    def clear_frame(self, noise: int = 0) -> np.ndarray:
        """The table with nothing over it, under the light the wait begins with."""
        return _noisy_frames(str(self.photo.image_path))[noise % NOISE_FIELDS].copy()

    def covered_pixels(self, index: int) -> int:
        at = self.at(index)
        return sum(m.sprite.covered_pixels(m.offset(at, index, self.seed)) for m in self.movers)

    def covered(self, index: int) -> bool:
        return self.covered_pixels(index) > 0

    @property
    def left_at(self) -> float | None:
        """When the last occluder left the frame for good: the first frame after the last covered one.
        None: something is still covered at the end (a cup)."""
        last = max((i for i in range(self.frame_count) if self.covered(i)), default=None)
        if last is None:
            return 0.0
        return None if last == self.frame_count - 1 else self.at(last + 1)

    def mask(self, index: int) -> np.ndarray:
        """Where the frame is covered (an occluder's mask above one half), as a 1080 x 1920 bool array."""
        at = self.at(index)
        covered = np.zeros((HEIGHT, WIDTH), bool)
        for mover in self.movers:
            box = mover.sprite.window(mover.offset(at, index, self.seed))
            if box is not None:
                rows, cols, srows, scols = box
                covered[rows, cols] |= mover.sprite.alpha[srows, scols] > COVERED_ALPHA
        return covered

    def frame(self, index: int) -> SceneFrame:
        at = self.at(index)
        image = self.clear_frame(index)
        covered = 0
        for mover in self.movers:
            offset = mover.offset(at, index, self.seed)
            box = mover.sprite.window(offset)
            if box is None:
                continue
            rows, cols, srows, scols = box
            sprite = mover.sprite
            alpha = sprite.alpha[srows, scols]
            region = image[rows, cols].astype(np.float32)
            region *= (sprite.shade[srows, scols] * (1 - alpha))[..., None]
            region += sprite.colour[srows, scols]
            image[rows, cols] = np.clip(region, 0, 255).astype(np.uint8)
            covered += sprite.covered_pixels(offset)
        if self.light is not None:
            gains = self.light.at(at)
            if gains is not None:
                image = cv2.transform(image, gains)
        # occluders that overlap (a hand over its phone) are counted twice: the share is an upper bound
        return SceneFrame(image, at, index, min(1.0, covered / float(WIDTH * HEIGHT)))

    def frames(self) -> Iterator[SceneFrame]:
        for index in range(self.frame_count):
            yield self.frame(index)


def _in_rest_out(enter_at: float, enter: float, rest: float, leave: float, hide: float) -> tuple[tuple[float, float], ...]:
    """Keyframes: out of sight until `enter_at`, in over `enter` s, at rest `rest` s, out over `leave` s."""
    return ((enter_at, hide), (enter_at + enter, 0.0), (enter_at + enter + rest, 0.0),
            (enter_at + enter + rest + leave, hide))


def build_sequence(index: int, kind: str, photo: Photo, seed: int, fps: float = 30.0,
                   ask_after: float = 10.0) -> Sequence:
    """The sequence of `kind` (one of KINDS) over `photo`, drawn from `seed`. `ask_after`: the eyes'
    patience before asking the arbiter; a cup's wait lasts 3 s longer, so the ask can be seen."""
    if kind not in KINDS:
        raise ValueError(f"sequence kind {kind!r} is not one of {KINDS}")
    rng = np.random.default_rng(seed)
    tremor = int(rng.integers(1, 3))
    enter, rest, leave = rng.uniform(0.3, 0.7), rng.uniform(1.0, 5.0), rng.uniform(0.7, 1.5)
    edge = EDGES[int(rng.integers(4))]
    light = None
    has_reference = True

    def arm(**options) -> Sprite:
        return arm_sprite(rng, options.pop("edge", edge), **options)

    if kind.startswith("hand from the "):
        edge = kind.removeprefix("hand from the ")
        start = rng.uniform(0.0, 0.3)  # the wait begins as the player's hand comes back over the table
        sprite = arm()
        movers = (Mover(sprite, Track(_in_rest_out(start, enter, rest, leave, sprite.hide_distance), tremor)),)
    elif kind == "sleeve like the table":
        start = rng.uniform(0.0, 0.3)
        sprite = arm(table=table_frame(photo), sleeve=True)
        movers = (Mover(sprite, Track(_in_rest_out(start, enter, rest, leave, sprite.hide_distance), tremor)),)
    elif kind == "hand through a resume":  # resting over the table from the first frame
        start = None
        sprite = arm()
        hide = sprite.hide_distance
        movers = (Mover(sprite, Track(((0.0, 0.0), (rest, 0.0), (rest + leave, hide)), tremor)),)
    elif kind == "hand at the first wait":  # no reference; the table clear for a moment, then a hand rests
        has_reference = False
        start = rng.uniform(0.1, 0.4)
        sprite = arm()
        movers = (Mover(sprite, Track(_in_rest_out(start, enter, rest, leave, sprite.hide_distance), tremor)),)
    elif kind == "hand resting still":  # no tremor at all: the border and the net must tell
        start = rng.uniform(0.0, 0.3)
        sprite = arm()
        movers = (Mover(sprite, Track(_in_rest_out(start, enter, rest, leave, sprite.hide_distance), 0)),)
    elif kind == "hand as the first wait begins":  # no settled look yet; the hand over the table from the first frame
        has_reference = False
        start = None
        sprite = arm()
        hide = sprite.hide_distance
        movers = (Mover(sprite, Track(((0.0, 0.0), (rest, 0.0), (rest + leave, hide)), tremor)),)
    elif kind == "light change":  # brighter or dimmer, warmer or colder, while a hand rests
        start = rng.uniform(0.0, 0.3)
        sprite = arm()
        movers = (Mover(sprite, Track(_in_rest_out(start, enter, rest, leave, sprite.hide_distance), tremor)),)
        change = start + enter + rest * rng.uniform(0.2, 0.6)
        level, warmth = rng.choice([rng.uniform(0.72, 0.88), rng.uniform(1.12, 1.28)]), rng.uniform(-0.08, 0.08)
        light = Light(change, change + rng.uniform(0.05, 0.5), (level * (1 - warmth), level, level * (1 + warmth)))
    elif kind == "phone put down":
        start = rng.uniform(0.0, 0.3)
        sprite = arm(scene_share=0.0)
        phone = phone_sprite(rng, sprite)
        hide = max(sprite.hide_distance, phone.hide_distance)
        held = rng.uniform(0.3, 0.8)
        alone = rng.uniform(1.0, 4.0)
        away = start + enter + held + leave  # the hand has gone, the phone lies there
        back = away + alone
        take = rng.uniform(0.3, 0.6)
        hand_keys = _in_rest_out(start, enter, held, leave, hide) + _in_rest_out(back, enter, take, leave, hide)
        phone_keys = ((start, hide), (start + enter, 0.0), (back + enter + take, 0.0), (back + enter + take + leave, hide))
        movers = (Mover(phone, Track(phone_keys)), Mover(sprite, Track(hand_keys, tremor)))
    elif kind == "cup at the edge":
        start = None
        movers = (Mover(cup_sprite(rng), Track(((0.0, 0.0),))),)
        return Sequence(index, kind, photo, fps, ask_after + 3.0, movers, True, seed)
    last = max(m.track.keys[-1][0] for m in movers)
    return Sequence(index, kind, photo, fps, last + SETTLE_TAIL, movers, has_reference, seed, light, start)


def plan(photos: list[Photo], count: int, seed: int, fps: float = 30.0, ask_after: float = 10.0,
         only: frozenset[int] | None = None) -> Iterator[Sequence]:
    """`count` sequences, the kinds in turn, each over a photo drawn from `photos`; built one at a time.
    `only`: just the sequences of these indices (the same as in the whole plan: to look at one again)."""
    if not photos:
        raise ValueError("no table photos to build sequences from")
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(photos))
    for index in range(count):
        if only is None or index in only:
            photo = photos[int(order[index % len(photos)])]
            yield build_sequence(index, KINDS[index % len(KINDS)], photo, seed * 100_003 + index, fps, ask_after)
