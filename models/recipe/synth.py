"""Synthetic table photos with known answers: Rummikub tiles laid out in melds.

Training and the benchmarks draw tables with it; the product never does (the demo lays its
table with controller/demo/scene.py). `render_table(melds)` draws a table seen from above or
at a slant, on a procedural wood, cloth, felt or plastic top, under uneven light, with optional shadows, hands, glare and
blur, and returns the image together with the ground truth (each tile's code, face
corners and meld). It needs only numpy and OpenCV (Pillow only for the training typefaces);
the same seed always gives the same image.

Tile sets differ between clubs, so the look of the tiles is data: an edition
(`tile_designs`) and a typeface family for the numbers (`typefaces`), which `tile_faces`
draws onto each face. By default numbers use OpenCV's built-in Hershey
faces and the "original" edition, which need nothing installed. One family and one
edition are kept out of training (`HELD_OUT_FAMILY`, `HELD_OUT_EDITION`) to measure how
the reader copes with a design it never saw; `training_designs()` and `unseen_designs()`
are the style keywords for either side. This module is the renderer's one entry: the
design modules' public names are importable from here as well.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping, Sequence

import cv2
import numpy as np

from vision.codes import CODES, JOKER_CODE

from .tile_designs import (  # noqa: F401 - Edition, Ink, JokerDesign, training_editions re-exported
    BGR,
    EDITIONS,
    HELD_OUT_EDITION,
    TILE_ASPECT,
    Edition,
    Ink,
    JokerDesign,
    training_editions,
)
from .tile_faces import TileFaceStyle, TrainingFaceStyle, table_face_style, tile_face  # noqa: F401 - re-exported
from .typefaces import (  # noqa: F401 - the rest re-exported; _glyph for the glyph tests
    HELD_OUT_FAMILY,
    HERSHEY,
    FontFace,
    FontSource,
    _glyph,
    font_families,
    training_families,
)

__all__ = [
    "BACKGROUNDS",
    "EDITIONS",
    "HELD_OUT_EDITION",
    "HELD_OUT_FAMILY",
    "HERSHEY",
    "LAYOUTS",
    "RANDOM",
    "TILE_ASPECT",
    "WOOD_TONES",
    "Edition",
    "FontFace",
    "FontSource",
    "Ink",
    "JokerDesign",
    "Rendered",
    "RenderedTile",
    "Style",
    "TileFaceStyle",
    "font_families",
    "random_melds",
    "render_table",
    "table_face_style",
    "tile_face",
    "training_designs",
    "training_editions",
    "training_families",
    "unseen_designs",
]

BACKGROUNDS = ("wood", "cloth", "felt", "plastic")
LAYOUTS = ("rows", "scatter")

# Asks a design option (edition, font family, wood tone, glare) to be drawn from the seed.
RANDOM = "random"

# Wood table tops, base colour ranges (BGR). "classic" is the range the renderer always drew.
WOOD_TONES: Mapping[str, tuple[BGR, BGR]] = MappingProxyType({
    "classic": ((20, 50, 90), (80, 120, 180)),
    "birch": ((150, 195, 215), (185, 222, 242)),
    "maple": ((110, 160, 200), (145, 190, 228)),
    "oak": ((70, 120, 165), (100, 150, 195)),
    "cherry": ((40, 70, 135), (65, 100, 170)),
    "teak": ((30, 65, 110), (50, 90, 140)),
    "walnut": ((20, 35, 55), (40, 55, 85)),
    "grey-wash": ((120, 125, 125), (165, 168, 168)),
})


def training_designs() -> dict:
    """Style keywords for training tables: any design but the held-out family and edition."""
    return dict(edition=RANDOM, font_family=RANDOM, exclude_editions=(HELD_OUT_EDITION,),
                exclude_families=(HELD_OUT_FAMILY,), wood=RANDOM, glare=RANDOM)


def unseen_designs() -> dict:
    """Style keywords for the "unseen design" figures: the held-out family on the held-out edition."""
    return dict(edition=HELD_OUT_EDITION, font_family=HELD_OUT_FAMILY, wood=RANDOM, glare=RANDOM)


@dataclass(frozen=True)
class RenderedTile:
    code: str
    corners: np.ndarray  # (4, 2) float: face corners top-left, top-right, bottom-right, bottom-left of the upright tile
    meld: int  # index into the melds given to render_table
    position: int  # index within the meld, in its reading order
    visible: float  # share of the face not covered by a hand or occluder (0..1)

    @property
    def center(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    @property
    def upside_down(self) -> bool:
        """True when the tile's top edge is lower in the image than its bottom edge."""
        top = self.corners[0] + self.corners[1]
        bottom = self.corners[2] + self.corners[3]
        up = (top - bottom) / 2.0
        return bool(up[1] > 0)


@dataclass(frozen=True)
class Rendered:
    image: np.ndarray  # H x W x 3 uint8 BGR
    tiles: tuple[RenderedTile, ...]
    melds: tuple[tuple[str, ...], ...]
    style: dict = field(default_factory=dict)
    tile_set: TileFaceStyle | None = None  # the physical set drawn (print, typeface cut, inks)

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]


@dataclass(frozen=True)
class Style:
    """Everything random about a render; unset fields are drawn from the seed.

    The design fields (edition ... glare) are the exception: unset, they keep the look the
    renderer always had (and draw nothing from the seed, so old seeds give the same images);
    `RANDOM` draws them from the seed, on a stream of their own so that the same seed lays
    out the same table whatever design it is drawn in.
    """

    background: str | None = None  # one of BACKGROUNDS
    layout: str | None = None  # "rows": melds in rows like a table in play; "scatter": melds anywhere at any angle
    perspective_deg: float | None = None  # camera tilt away from straight down, 0..~35
    rotation_deg: float | None = None  # in-plane rotation of the whole layout
    upside_down: float | None = None  # share of melds lying the other way round (read by the player opposite)
    fill: float | None = None  # share of the frame the layout spans (0.3..0.95)
    blur: float | None = None  # Gaussian blur sigma in pixels at 1000 px width
    noise: float | None = None  # pixel noise sigma
    light: float | None = None  # overall gain
    shadows: int | None = None  # number of soft shadow shapes
    hands: int | None = None  # number of hands / occluders
    jpeg: int | None = None  # JPEG quality, 0 for none
    tile_jitter_deg: float | None = None  # per-tile rotation wobble inside a meld
    edition: str | None = None  # tile set design, a key of EDITIONS or RANDOM; None: "original"
    font_family: str | None = None  # typeface of the numbers, a key of font_families() or RANDOM; None: HERSHEY
    exclude_editions: tuple[str, ...] = ()  # never drawn by edition=RANDOM (the held-out one when training)
    exclude_families: tuple[str, ...] = ()  # never drawn by font_family=RANDOM
    wood: str | None = None  # wood tone, a key of WOOD_TONES or RANDOM; None: "classic"
    glare: int | str | None = None  # glare spots on table and tiles, or RANDOM (0-3); None: none
    meld_per_row: bool | None = None  # "rows" layout: each meld on a row of its own (a calibration layout)
    glyph_variation: float = 0.0  # training only: chance a tile's number/joker is varied (models.recipe.glyph_variants)

    @staticmethod
    def random(rng: np.random.Generator, **given) -> "Style":
        unknown = set(given) - set(Style.__dataclass_fields__)
        if unknown:
            raise TypeError(f"unknown style option(s): {sorted(unknown)}")
        drawn = dict(
            background=str(rng.choice(BACKGROUNDS)),
            layout="rows" if rng.random() < 0.7 else "scatter",
            perspective_deg=float(rng.uniform(0, 30)) if rng.random() < 0.8 else 0.0,
            rotation_deg=float(rng.normal(0, 8)) if rng.random() < 0.7 else float(rng.uniform(-180, 180)),
            upside_down=float(rng.choice([0.0, 0.25, 0.5])),
            fill=float(rng.uniform(0.6, 0.95)),
            blur=float(rng.choice([0.0, 0.0, rng.uniform(0.3, 1.6)])),
            noise=float(rng.uniform(0, 6)),
            light=float(rng.uniform(0.65, 1.2)),
            shadows=int(rng.integers(0, 3)),
            hands=int(rng.random() < 0.25),
            jpeg=int(rng.choice([0, 0, rng.integers(60, 95)])),
            tile_jitter_deg=float(rng.uniform(0, 3)),
        )
        drawn.update({k: v for k, v in given.items() if v is not None})
        for key in ("exclude_editions", "exclude_families"):
            if key in drawn:
                drawn[key] = (drawn[key],) if isinstance(drawn[key], str) else tuple(drawn[key])
        return Style(**drawn)

    def resolve_design(self, rng: np.random.Generator) -> "Style":
        """This style with every RANDOM design field drawn and every design name checked."""
        editions = _allowed("edition", self.edition, tuple(EDITIONS), self.exclude_editions, "EDITIONS")
        # a family may be excluded without being installed: which fonts exist is up to the machine
        families = _allowed("font family", self.font_family, tuple(font_families()), self.exclude_families,
                            "font_families() (training fonts: models/recipe/install_training_fonts.sh, Pillow)",
                            check_excluded=False)
        woods = _allowed("wood tone", self.wood, tuple(WOOD_TONES), (), "WOOD_TONES")
        edition = editions[int(rng.integers(len(editions)))] if self.edition == RANDOM else self.edition
        family = families[int(rng.integers(len(families)))] if self.font_family == RANDOM else self.font_family
        wood = woods[int(rng.integers(len(woods)))] if self.wood == RANDOM else self.wood
        glare = int(rng.integers(0, 4)) if self.glare == RANDOM else int(self.glare or 0)
        return replace(self, edition=edition or "original", font_family=family or HERSHEY,
                       wood=wood or "classic", glare=glare)


def _allowed(what: str, given: str | None, names: tuple[str, ...], excluded: Sequence[str], where: str,
             check_excluded: bool = True):
    """The names RANDOM may draw; refuses a name that does not exist (a misspelt exclusion
    would let a held-out design into training)."""
    for name in ([given] if given not in (None, RANDOM) else []) + (list(excluded) if check_excluded else []):
        if name not in names:
            raise ValueError(f"unknown {what} {name!r}; expected RANDOM or one of {where}: {list(names)}")
    left = tuple(n for n in names if n not in set(excluded))
    if given == RANDOM and not left:
        raise ValueError(f"every {what} is excluded; nothing left to draw")
    return left


def render_table(
    melds: Sequence[Sequence[str]],
    width: int = 1920,
    height: int = 1080,
    seed: int = 0,
    tile_set: TileFaceStyle | None = None,
    **style,
) -> Rendered:
    """Draw `melds` (lists of codes; a one-tile list is a lone tile) on a table photo.

    Style keywords are the fields of `Style` (background, layout, perspective_deg, ...);
    any left out are drawn from `seed`, except the design fields (edition, font_family,
    wood, glare), which default to the original look. `Rendered.style` holds what was drawn.
    `tile_set` draws the tiles of one physical set (`Rendered.tile_set` of another photo: the
    same print, typeface cut, slant and inks) instead of a set drawn from `seed`.
    """
    for meld in melds:
        for code in meld:
            if code not in CODES:
                raise ValueError(f"unknown tile code {code!r}; expected one of K1..R13 or J")
    if width < 64 or height < 64:
        raise ValueError(f"image size {width}x{height} is too small to draw tiles on")
    rng = np.random.default_rng(seed)
    chosen = Style.random(rng, **style).resolve_design(np.random.default_rng([seed, _DESIGN_STREAM]))

    image = _background(rng, chosen.background, width, height, chosen.wood)
    placements = _layout(rng, melds, chosen, width, height)
    plane_to_image = _camera(rng, chosen.perspective_deg, width, height, placements)
    tiles, tile_set = _draw_tiles(rng, image, melds, placements, plane_to_image, chosen, tile_set)
    occluded = np.zeros((height, width), np.uint8)
    _shadows(rng, image, chosen.shadows)
    _hands(rng, image, occluded, chosen.hands, tiles)
    _lighting(rng, image, chosen.light)
    _glare(rng, image, chosen.glare, tiles)
    _degrade(rng, image, chosen, width)
    if chosen.jpeg:
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(chosen.jpeg)])
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    final = tuple(
        RenderedTile(t.code, t.corners, t.meld, t.position, _visible_share(occluded, t.corners)) for t in tiles
    )
    return Rendered(image, final, tuple(tuple(m) for m in melds), chosen.__dict__.copy(), tile_set)


def render_layout(rows: Sequence[Sequence[str]], width: int = 1920, height: int = 1080, seed: int = 0,
                  **design) -> Rendered:
    """A calibration photo: `rows` of codes laid out row under row, upright, as a club would
    for `tileref calibrate`, in the given design (edition, font_family, wood, ...; `tile_set`:
    the very set another photo showed, its `Rendered.tile_set`)."""
    rng = np.random.default_rng([seed, _LAYOUT_STREAM])
    settings = dict(layout="rows", meld_per_row=True, upside_down=0.0, hands=0, fill=0.92,
                    rotation_deg=float(rng.normal(0, 2)), perspective_deg=float(rng.uniform(0, 10)),
                    tile_jitter_deg=float(rng.uniform(0, 2)), shadows=0)
    settings.update(design)
    return render_table(rows, width, height, seed=seed, **settings)


_DESIGN_STREAM = 0x7E5167  # second word of the seed of the stream RANDOM designs are drawn from
_LAYOUT_STREAM = 0xCA11B  # and of the calibration photo's camera


def random_melds(rng: np.random.Generator, tiles: int = 106) -> list[list[str]]:
    """A plausible table: the full set (or `tiles` of it) dealt into runs, groups and leftovers."""
    pool = [c for c in CODES[:-1] for _ in range(2)]
    jokers = [JOKER_CODE, JOKER_CODE]
    order = rng.permutation(len(pool))
    pool = [pool[i] for i in order]
    melds: list[list[str]] = []
    used = 0
    remaining = list(pool)
    while remaining and used < tiles:
        start = remaining.pop()
        colour, number = start[0], int(start[1:])
        if rng.random() < 0.55:
            run = [start]
            n = number + 1
            while f"{colour}{n}" in remaining and len(run) < rng.integers(3, 8):
                remaining.remove(f"{colour}{n}")
                run.append(f"{colour}{n}")
                n += 1
            melds.append(run)
        else:
            group = [start]
            for other in rng.permutation(["K", "B", "O", "R"]):
                code = f"{other}{number}"
                if other != colour and code in remaining and len(group) < 4:
                    remaining.remove(code)
                    group.append(code)
            melds.append(group)
        used += len(melds[-1])
    for joker in jokers:
        if used < tiles:
            target = melds[int(rng.integers(len(melds)))] if melds else None
            if target is None:
                melds.append([joker])
            else:
                target.insert(int(rng.integers(len(target) + 1)), joker)
            used += 1
    # trim to exactly `tiles`
    flat = sum(len(m) for m in melds)
    while flat > tiles:
        melds[-1].pop()
        if not melds[-1]:
            melds.pop()
        flat -= 1
    return melds


# ---------------------------------------------------------------- backgrounds


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    small = rng.standard_normal((max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _background(rng: np.random.Generator, kind: str, w: int, h: int, wood: str | None = None) -> np.ndarray:
    if kind not in BACKGROUNDS:
        raise ValueError(f"unknown background {kind!r}; expected one of {BACKGROUNDS}")
    scale = max(w, h) / 1000.0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        lo, hi = WOOD_TONES[wood or "classic"]
        base = np.array(rng.uniform(lo, hi), np.float32)
        angle = rng.uniform(0, math.pi)
        across = -xx * math.sin(angle) + yy * math.cos(angle)
        warp = _smooth_noise(rng, h, w, int(120 * scale)) * 25 * scale
        grain = np.sin((across + warp) / (rng.uniform(3, 9) * scale)) * 0.5 + 0.5
        streak = _smooth_noise(rng, h, w, int(25 * scale)) * 0.15
        planks = np.floor((across + 0.3 * warp) / (rng.uniform(90, 260) * scale)) % 3
        shade = 0.8 + 0.25 * grain + streak + 0.06 * planks
        img = base[None, None, :] * shade[..., None]
    elif kind == "cloth":
        base = np.array(rng.uniform([60, 60, 60], [230, 230, 230]), np.float32)
        if rng.random() < 0.5:
            base = base * np.array(rng.uniform(0.5, 1.1, 3), np.float32)
        period = rng.uniform(2.5, 7) * scale
        weave = np.sin(xx / period) * np.sin(yy / period)
        fibre = _smooth_noise(rng, h, w, max(2, int(3 * scale))) * 0.08
        blotch = _smooth_noise(rng, h, w, int(150 * scale)) * 0.08
        img = base[None, None, :] * (0.9 + 0.08 * weave + fibre + blotch)[..., None]
    elif kind == "felt":
        base = np.array(rng.choice([[60, 110, 30], [90, 60, 20], [40, 40, 120], [70, 70, 70]]), np.float32)
        base = base * rng.uniform(0.7, 1.3)
        fuzz = rng.standard_normal((h, w)).astype(np.float32) * 0.05
        blotch = _smooth_noise(rng, h, w, int(80 * scale)) * 0.07
        img = base[None, None, :] * (1.0 + fuzz + blotch)[..., None]
    else:  # plastic: near-flat colour, glossy highlight, fine speckle; white tops are the hard case
        base = np.array(rng.uniform([90, 90, 90], [245, 245, 245]), np.float32)
        if rng.random() < 0.4:
            base = base * np.array(rng.uniform(0.6, 1.0, 3), np.float32)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        glow = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (0.4 * max(w, h)) ** 2))
        speckle = rng.standard_normal((h, w)).astype(np.float32) * 0.015
        img = base[None, None, :] * (0.92 + 0.12 * glow + speckle)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------- layout


@dataclass(frozen=True)
class _Placement:
    meld: int
    position: int
    center: tuple[float, float]  # plane coordinates
    angle: float  # radians; 0 = upright
    size: float  # face width in plane units


def _meld_slots(rng: np.random.Generator, n: int, tile_w: float) -> list[float]:
    """x offsets of the tiles of one meld along its line (tiles touch or nearly)."""
    xs, x = [], 0.0
    for _ in range(n):
        xs.append(x)
        x += tile_w * (1.0 + max(0.0, rng.normal(0.01, 0.02)))
    return xs


def _layout(rng, melds, style: Style, w: int, h: int) -> list[_Placement]:
    if style.layout not in LAYOUTS:
        raise ValueError(f"unknown layout {style.layout!r}; expected one of {LAYOUTS}")
    tile_w = 1.0
    tile_h = tile_w / TILE_ASPECT
    jitter = math.radians(style.tile_jitter_deg or 0.0)
    flips = [rng.random() < (style.upside_down or 0.0) for _ in melds]
    local: list[_Placement] = []
    if style.layout == "rows":
        lengths = [len(m) * tile_w * 1.02 for m in melds]
        gap_x, gap_y = rng.uniform(0.6, 1.2) * tile_w, rng.uniform(0.25, 0.8) * tile_h
        best = None
        # pack the rows for the frame as the turned layout will see it
        turned = abs(math.sin(math.radians(style.rotation_deg or 0.0))) > 0.7
        frame_w, frame_h = (h, w) if turned else (w, h)
        widths = [max(lengths, default=1.0)] if style.meld_per_row else \
            np.linspace(max(lengths, default=1.0), sum(lengths) + gap_x * len(melds), 40)
        for row_width in widths:
            rows, cur, cur_w = [], [], 0.0
            for i, length in enumerate(lengths):
                if cur and (style.meld_per_row or cur_w + gap_x + length > row_width):
                    rows.append(cur)
                    cur, cur_w = [], 0.0
                cur_w += (gap_x if cur else 0.0) + length
                cur.append(i)
            if cur:
                rows.append(cur)
            span_w = row_width
            span_h = len(rows) * tile_h + (len(rows) - 1) * gap_y
            fit = max(span_w / frame_w, span_h / frame_h)
            if best is None or fit < best[0]:
                best = (fit, rows, span_w, span_h)
        _, rows, span_w, span_h = best
        y = -span_h / 2 + tile_h / 2
        for row in rows:
            x = -span_w / 2 + rng.uniform(0, 0.3) * tile_w
            for i in row:
                slots = _meld_slots(rng, len(melds[i]), tile_w)
                dy = rng.normal(0, 0.04) * tile_h
                for pos, code in enumerate(melds[i]):
                    slot = slots[len(slots) - 1 - pos] if flips[i] else slots[pos]
                    angle = (math.pi if flips[i] else 0.0) + rng.normal(0, jitter / 2 + 1e-9)
                    local.append(_Placement(i, pos, (x + slot + tile_w / 2, y + dy + rng.normal(0, 0.02)), angle, tile_w))
                x += slots[-1] + tile_w + gap_x + rng.uniform(0, 0.5) * tile_w
            y += tile_h + gap_y
    else:
        n_tiles = sum(len(m) for m in melds)
        area = max(n_tiles, 1) * tile_w * tile_h * rng.uniform(3.0, 6.0)
        span_h = math.sqrt(area * h / w)
        span_w = span_h * w / h
        boxes: list[tuple[float, float, float]] = []
        for i, meld in enumerate(melds):
            length = len(meld) * tile_w * 1.02
            radius = math.hypot(length, tile_h) / 2
            span_w, span_h = max(span_w, 2.2 * radius), max(span_h, 2.2 * radius)
            for _attempt in range(200):
                cx, cy = rng.uniform(-span_w / 2 + radius, span_w / 2 - radius + 1e-6), rng.uniform(
                    -span_h / 2 + radius, span_h / 2 - radius + 1e-6
                )
                if all(math.hypot(cx - bx, cy - by) > radius + br + 0.1 for bx, by, br in boxes):
                    break
                span_w *= 1.01
                span_h *= 1.01
            boxes.append((cx, cy, radius))
            theta = rng.uniform(-math.pi, math.pi) if rng.random() < 0.6 else rng.normal(0, 0.1)
            if flips[i]:
                theta += math.pi
            slots = _meld_slots(rng, len(meld), tile_w)
            mid = (slots[-1] + tile_w) / 2
            for pos in range(len(meld)):
                along = slots[pos] + tile_w / 2 - mid
                px = cx + along * math.cos(theta)
                py = cy + along * math.sin(theta)
                local.append(_Placement(i, pos, (px, py), theta + rng.normal(0, jitter / 2 + 1e-9), tile_w))
    # rotate the whole layout, then scale it into the frame
    rot = math.radians(style.rotation_deg or 0.0)
    c, s = math.cos(rot), math.sin(rot)
    pts = []
    for p in local:
        x, y = p.center
        pts.append((x * c - y * s, x * s + y * c))
    pts_arr = np.array(pts, np.float64).reshape(-1, 2)
    if len(pts_arr):
        corners_extent = np.abs(pts_arr).max(axis=0) + tile_h * 0.7
    else:
        corners_extent = np.array([1.0, 1.0])
    scale = (style.fill or 0.8) * min(w / (2 * corners_extent[0]), h / (2 * corners_extent[1]))
    scale = min(scale, 0.22 * h)  # never bigger than a close-up
    room_x = max(0.0, w / 2 - corners_extent[0] * scale)
    room_y = max(0.0, h / 2 - corners_extent[1] * scale)
    ox, oy = w / 2 + rng.uniform(-room_x, room_x) * 0.8, h / 2 + rng.uniform(-room_y, room_y) * 0.8
    return [
        _Placement(p.meld, p.position, (ox + x * scale, oy + y * scale), p.angle + rot, p.size * scale)
        for p, (x, y) in zip(local, pts_arr)
    ]


def _camera(rng, tilt_deg, w, h, placements) -> np.ndarray:
    """Homography from the table plane (drawn as if seen straight down) to the photo."""
    tilt = math.radians(tilt_deg or 0.0)
    if tilt < 1e-6:
        return np.eye(3)
    axis = rng.uniform(0, math.pi)
    ax, ay = math.cos(axis), math.sin(axis)
    # Rodrigues rotation about the in-plane axis (ax, ay, 0)
    K = np.array([[0, 0, ay], [0, 0, -ax], [-ay, ax, 0]], np.float64)
    R = np.eye(3) + math.sin(tilt) * K + (1 - math.cos(tilt)) * K @ K
    f = max(w, h) * rng.uniform(0.9, 1.6)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    P = np.c_[src - [w / 2, h / 2], np.zeros(4)]
    Q = P @ R.T + [0, 0, f]
    dst = Q[:, :2] / Q[:, 2:3] * f
    # keep the tiles inside the frame: fit the projected layout into the frame
    H = cv2.getPerspectiveTransform(src.astype(np.float32), (dst + [w / 2, h / 2]).astype(np.float32))
    if placements:
        centers = np.array([p.center for p in placements], np.float64)
        margin = max(p.size for p in placements) * 1.2
        proj = cv2.perspectiveTransform(centers[None].astype(np.float64), H)[0]
        lo, hi = proj.min(axis=0) - margin, proj.max(axis=0) + margin
        s = min(w / max(hi[0] - lo[0], 1), h / max(hi[1] - lo[1], 1), 1.0)
        mid = (lo + hi) / 2
        fit = np.array([[s, 0, w / 2 - s * mid[0]], [0, s, h / 2 - s * mid[1]], [0, 0, 1]])
        H = fit @ H
    return H


# --------------------------------------------------------- tiles on the table


def _draw_tiles(rng, image, melds, placements: list[_Placement], H: np.ndarray, style: Style | None = None,
                tile_set: TileFaceStyle | None = None) -> tuple[list[RenderedTile], TileFaceStyle]:
    h_img, w_img = image.shape[:2]
    out: list[RenderedTile] = []
    # one physical set per table; drawn even when given, so that the rest of the photo is the same
    drawn = table_face_style(rng, style and style.edition, style and style.font_family,
                             style.glyph_variation if style else 0.0)
    face_style = tile_set or drawn
    side_dir = rng.normal(0, 0.3, 2) + [0, 1]
    thickness = rng.uniform(0.08, 0.16)
    shadow_off = rng.normal(0, 0.08, 2)
    for p in placements:
        code = melds[p.meld][p.position]
        tw = p.size
        th = tw / face_style.aspect
        c, s = math.cos(p.angle), math.sin(p.angle)
        # plane coordinates of the upright face corners TL, TR, BR, BL
        local = np.array([[-tw / 2, -th / 2], [tw / 2, -th / 2], [tw / 2, th / 2], [-tw / 2, th / 2]])
        plane = np.c_[local[:, 0] * c - local[:, 1] * s, local[:, 0] * s + local[:, 1] * c] + p.center
        corners = cv2.perspectiveTransform(plane[None].astype(np.float64), H)[0]
        img_h = float(np.linalg.norm(corners[3] - corners[0]))
        px = int(np.clip(img_h * 1.4, 24, 260))
        bitmap = tile_face(code, px, rng, face_style)
        bh, bw = bitmap.shape[:2]
        src = np.float32([[0, 0], [bw, 0], [bw, bh], [0, bh]])
        # tile body (its side seen at a slant) and a soft contact shadow
        span = np.linalg.norm(corners[1] - corners[0])
        offset = side_dir / np.linalg.norm(side_dir) * span * thickness
        _paste_quad_shade(image, corners + offset * 1.6 + shadow_off * span, 0.55, blur=span * 0.12)
        side_col = np.array(face_style.cream) * rng.uniform(0.6, 0.8)
        _paste_quad_colour(image, corners + offset, side_col)
        _paste_warped(image, bitmap, src, corners.astype(np.float32))
        out.append(RenderedTile(code, corners.astype(np.float64), p.meld, p.position, 1.0))
    return out, face_style


def _roi(quad: np.ndarray, w: int, h: int, pad: int = 4):
    x0 = int(max(0, math.floor(quad[:, 0].min()) - pad))
    y0 = int(max(0, math.floor(quad[:, 1].min()) - pad))
    x1 = int(min(w, math.ceil(quad[:, 0].max()) + pad))
    y1 = int(min(h, math.ceil(quad[:, 1].max()) + pad))
    return x0, y0, x1, y1


def _paste_warped(image, bitmap, src, quad) -> None:
    h, w = image.shape[:2]
    x0, y0, x1, y1 = _roi(quad, w, h)
    if x1 <= x0 or y1 <= y0:
        return
    M = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(bitmap, M, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA)
    a = warped[..., 3:4].astype(np.float32) / 255.0
    roi = image[y0:y1, x0:x1]
    roi[:] = (roi * (1 - a) + warped[..., :3] * a).astype(np.uint8)


def _paste_quad_colour(image, quad, colour) -> None:
    h, w = image.shape[:2]
    x0, y0, x1, y1 = _roi(quad, w, h)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad - [x0, y0]) * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    a = mask[..., None].astype(np.float32) / 255.0
    roi = image[y0:y1, x0:x1]
    roi[:] = (roi * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def _paste_quad_shade(image, quad, darkness, blur) -> None:
    h, w = image.shape[:2]
    pad = int(blur * 3) + 2
    x0, y0, x1, y1 = _roi(quad, w, h, pad)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillConvexPoly(mask, np.round(quad - [x0, y0]).astype(np.int32), 1.0)
    if blur > 0.5:
        mask = cv2.GaussianBlur(mask, (0, 0), blur)
    roi = image[y0:y1, x0:x1]
    roi[:] = (roi * (1 - (1 - darkness) * mask[..., None])).astype(np.uint8)


# ------------------------------------------------------------ light and dirt


def _shadows(rng, image, count) -> None:
    h, w = image.shape[:2]
    for _ in range(int(count or 0)):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.1, 0.4) * max(w, h)
        n = int(rng.integers(3, 7))
        angles = np.sort(rng.uniform(0, 2 * math.pi, n))
        quad = np.c_[cx + r * np.cos(angles) * rng.uniform(0.4, 1.0, n), cy + r * np.sin(angles) * rng.uniform(0.4, 1.0, n)]
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round(quad).astype(np.int32)], 255)
        small = cv2.resize(mask, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small.astype(np.float32) / 255.0, (0, 0), rng.uniform(1, 6))
        soft = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        dark = rng.uniform(0.45, 0.8)
        image[:] = (image * (1 - (1 - dark) * soft[..., None])).astype(np.uint8)


def _hands(rng, image, occluded, count, tiles) -> None:
    h, w = image.shape[:2]
    for _ in range(int(count or 0)):
        skin = np.array(rng.choice([[140, 170, 220], [100, 140, 190], [60, 90, 140], [170, 190, 230]]), np.float32)
        skin = skin * rng.uniform(0.8, 1.1)
        # enter from an edge towards a tile (a hand reaching to play)
        if tiles and rng.random() < 0.8:
            target = np.array(tiles[int(rng.integers(len(tiles)))].center)
        else:
            target = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        edge = int(rng.integers(4))
        start = {0: (target[0], -50.0), 1: (w + 50.0, target[1]), 2: (target[0], h + 50.0), 3: (-50.0, target[1])}[edge]
        start = np.array(start)
        direction = target - start
        direction /= max(np.linalg.norm(direction), 1e-6)
        size = rng.uniform(0.08, 0.16) * max(w, h)
        mask = np.zeros((h, w), np.uint8)
        arm_w = int(size * 0.45)
        cv2.line(mask, tuple(np.round(start).astype(int)), tuple(np.round(target - direction * size * 0.5).astype(int)), 255, arm_w)
        palm = target - direction * size * 0.35
        angle = math.degrees(math.atan2(direction[1], direction[0]))
        cv2.ellipse(mask, tuple(np.round(palm).astype(int)), (int(size * 0.4), int(size * 0.3)), angle, 0, 360, 255, -1)
        normal = np.array([-direction[1], direction[0]])
        for k in range(-2, 2):
            base = palm + direction * size * 0.25 + normal * k * size * 0.13 + normal * size * 0.06
            tip = base + direction * size * rng.uniform(0.3, 0.5)
            cv2.line(mask, tuple(np.round(base).astype(int)), tuple(np.round(tip).astype(int)), 255, max(2, int(size * 0.1)))
        soft = cv2.GaussianBlur(mask, (0, 0), max(1.0, size * 0.01)).astype(np.float32) / 255.0
        shade = 0.85 + 0.2 * _smooth_noise(rng, h, w, max(8, int(size * 0.3)))
        colour = skin[None, None, :] * shade[..., None]
        image[:] = (image * (1 - soft[..., None]) + colour * soft[..., None]).clip(0, 255).astype(np.uint8)
        np.maximum(occluded, mask, out=occluded)


def _visible_share(occluded, corners) -> float:
    h, w = occluded.shape
    x0, y0, x1, y1 = _roi(corners, w, h, 0)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners - [x0, y0]).astype(np.int32), 1)
    area = mask.sum()
    if area == 0:
        return 0.0
    covered = ((occluded[y0:y1, x0:x1] > 127) & (mask > 0)).sum()
    return float(1.0 - covered / area)


def _lighting(rng, image, gain) -> None:
    h, w = image.shape[:2]
    field = 1.0 + 0.18 * _smooth_noise(rng, h // 4 + 1, w // 4 + 1, max(4, max(w, h) // 12))
    gx, gy = rng.normal(0, 0.15, 2)
    yy, xx = np.mgrid[0: h // 4 + 1, 0: w // 4 + 1].astype(np.float32)
    field = field + gx * (xx / (w / 4) - 0.5) + gy * (yy / (h / 4) - 0.5)
    field = cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    tint = np.array(rng.normal(1.0, 0.05, 3), np.float32)
    out = image.astype(np.float32) * (field[..., None] * float(gain or 1.0)) * tint
    image[:] = np.clip(out, 0, 255).astype(np.uint8)


def _glare(rng, image, count, tiles) -> None:
    """Soft reflections of a lamp: glossy tile faces shine much more than the table."""
    if not count:
        return
    h, w = image.shape[:2]
    faces = np.zeros((h, w), np.float32)
    for t in tiles:
        cv2.fillConvexPoly(faces, np.round(t.corners).astype(np.int32), 1.0)
    for _ in range(int(count)):
        if tiles and rng.random() < 0.7:
            cx, cy = np.array(tiles[int(rng.integers(len(tiles)))].center) + rng.normal(0, 0.01 * max(w, h), 2)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sigma = rng.uniform(0.008, 0.04) * max(w, h)
        long, angle = rng.uniform(1.0, 2.5), rng.uniform(0, math.pi)
        strength = rng.uniform(0.2, 0.6)  # stronger glare wipes numbers out that the label still names
        reach = 3 * sigma * long
        x0, y0, x1, y1 = _roi(np.array([[cx - reach, cy - reach], [cx + reach, cy + reach]]), w, h, 0)
        if x1 <= x0 or y1 <= y0:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        u = (xx - cx) * math.cos(angle) + (yy - cy) * math.sin(angle)
        v = -(xx - cx) * math.sin(angle) + (yy - cy) * math.cos(angle)
        spot = np.exp(-0.5 * ((u / (sigma * long)) ** 2 + (v / sigma) ** 2))
        gain = (strength * spot * (0.3 + 0.7 * faces[y0:y1, x0:x1]))[..., None]
        roi = image[y0:y1, x0:x1].astype(np.float32)
        image[y0:y1, x0:x1] = np.clip(roi + (255 - roi) * gain, 0, 255).astype(np.uint8)


def _degrade(rng, image, style: Style, width: int) -> None:
    sigma = (style.blur or 0.0) * width / 1000.0
    if sigma > 0.2:
        image[:] = cv2.GaussianBlur(image, (0, 0), sigma)
    if style.noise:
        noise = rng.normal(0, style.noise, image.shape).astype(np.float32)
        image[:] = np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)
