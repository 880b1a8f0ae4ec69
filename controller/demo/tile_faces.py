"""One tile face drawn upright: the face of an edition, its logos, a number or a joker.

The demo's table (`controller.demo.scene`) is laid with these faces: the "original" edition,
the photographed sets, with numbers in OpenCV's Hershey faces, which need nothing installed.
An `Edition` holds how one tile set looks as data; `table_face_style` draws the look shared
by every tile of one table and `tile_face` one face in that look. The training recipe draws
other editions and typefaces with the same code (models/recipe/tile_faces.py).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping, Sequence

import cv2
import numpy as np

from vision.codes import JOKER_CODE

TILE_ASPECT = 0.74  # face width / height of a real tile (measured on the photos)

BGR = tuple[float, float, float]


# ------------------------------------------------------------------ editions


@dataclass(frozen=True)
class Ink:
    """One colour role's ink: each table (one physical set) draws a shade between `lo` and
    `hi`, and every tile jitters it by `jitter` (printing is never even)."""

    lo: BGR
    hi: BGR | None = None  # None: exactly `lo` (and no random draw, see _span)
    jitter: float = 12.0


@dataclass(frozen=True)
class JokerDesign:
    motif: str  # a key of _JOKER_MOTIFS: smiley, butterfly, star, letter
    inks: tuple[str, ...] = ("R", "K")  # colour roles one of which inks a joker
    multicolour: bool = False  # parts of the motif in different inks of `inks`


@dataclass(frozen=True)
class Edition:
    """How one tile set looks. Ranges are drawn once per table; a range whose ends are equal
    is a fixed value and costs no random draw, which is what keeps the "original" edition
    drawing exactly the images it drew before editions existed."""

    name: str
    inks: Mapping[str, Ink]  # colour role K, B, O, R -> its ink in this edition
    cream_lo: BGR  # face tint range
    cream_hi: BGR
    radius: tuple[float, float] = (0.09, 0.09)  # corner radius / face width
    aspect: tuple[float, float] = (TILE_ASPECT, TILE_ASPECT)  # face width / height
    number_y: float = 0.38  # number centre / face height (real numbers sit above the middle)
    motif_y: float = 0.40  # centre of the ring and the joker / face height
    number_h: tuple[float, float] = (0.27, 0.34)  # number height / face height, per tile
    # (logo kind, chance) drawn in this order once per table; kinds are _LOGO_DRAWERS keys
    logos: tuple[tuple[str, float], ...] = (("text", 0.8), ("ring", 0.7))
    logo_word: str = "Rummikub"
    emblem: str = "diamond"  # outline of the "shape" logo, a key of _EMBLEMS
    emboss: bool = False  # logos pressed into the face (relief) instead of printed flat
    jokers: tuple[JokerDesign, ...] = (JokerDesign("smiley"),)


def edition_inks(K: Ink, B: Ink, O: Ink, R: Ink) -> Mapping[str, Ink]:  # noqa: E741 - the colour letters
    return MappingProxyType({"K": K, "B": B, "O": O, "R": R})


# The tiles the renderer always drew, matching the photographed sets.
ORIGINAL_EDITION = Edition(
    "original",
    edition_inks(Ink((30, 30, 32)), Ink((185, 95, 20)), Ink((30, 135, 240)), Ink((45, 35, 205))),
    cream_lo=(200, 225, 232), cream_hi=(238, 248, 255),
)


# ------------------------------------------------------------------ typefaces


HERSHEY = "Hershey"  # the family of OpenCV's built-in faces; always available


@dataclass(frozen=True)
class FontFace:
    family: str
    style: str
    path: str | None = None  # font file; None for an OpenCV Hershey face
    hershey: int = cv2.FONT_HERSHEY_SIMPLEX


HERSHEY_FACES: tuple[FontFace, ...] = tuple(
    FontFace(HERSHEY, name, None, face) for name, face in zip(
        ("Simplex", "Duplex", "Triplex", "Complex"),
        (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX),
    )
)


@functools.lru_cache(maxsize=4096)
def hershey_glyph(face: FontFace, text: str, weight: float) -> np.ndarray:
    """`text` in white on black in one of OpenCV's stroke faces, cropped to its ink, about 96 px
    tall (read-only); the weight is the pen width."""
    big_h = 96
    scale = cv2.getFontScaleFromHeight(face.hershey, big_h)
    thick = max(2, int(round(big_h * 0.11 * weight)))
    (bw, bh), base = cv2.getTextSize(text, face.hershey, scale, thick)
    canvas = np.zeros((bh + base + 2 * thick + 8, bw + 2 * thick + 8), np.uint8)
    cv2.putText(canvas, text, (thick + 4, bh + thick + 4), face.hershey, scale, 255, thick, cv2.LINE_AA)
    return cropped_to_ink(canvas)


def cropped_to_ink(canvas: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(canvas)
    out = canvas[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].copy()
    out.setflags(write=False)
    return out


# ---------------------------------------------------------------------- faces


@dataclass(frozen=True)
class TileFaceStyle:
    """The look shared by every tile of one table (one physical set)."""

    cream: tuple[float, float, float]
    font: FontFace
    weight: float
    slant: float
    stretch: float
    logos: tuple[str, ...]  # logo kinds drawn on every face
    edition: Edition = ORIGINAL_EDITION
    radius: float = 0.09
    aspect: float = TILE_ASPECT
    shades: Mapping[str, tuple[float, ...]] = field(
        default_factory=lambda: {k: ink.lo for k, ink in ORIGINAL_EDITION.inks.items()}
    )

    def glyph(self, text: str) -> np.ndarray:
        """`text` in this look's typeface and weight, white on black, cropped to its ink."""
        return hershey_glyph(self.font, text, self.weight)

    # Training varies some numbers and jokers procedurally (models/recipe/glyph_variants.py);
    # a style that never varies draws nothing for it, so its faces take no extra random draw.
    def varies(self, rng: np.random.Generator) -> bool:
        """Whether the next face's number or joker is drawn varied."""
        return False

    def varied_number(self, rng: np.random.Generator, digits: str) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__} draws no varied numbers")

    def draw_varied_joker(self, face: np.ndarray, rng: np.random.Generator, tw: int, th: int) -> None:
        raise NotImplementedError(f"{type(self).__name__} draws no varied jokers")


def _span(rng, lo, hi=None):
    """A value drawn between lo and hi; equal ends are a fixed value and draw nothing."""
    if hi is None or lo == hi:
        return lo
    drawn = rng.uniform(lo, hi)
    return tuple(float(v) for v in drawn) if np.ndim(drawn) else float(drawn)


def _pick(rng, options: Sequence):
    return options[0] if len(options) == 1 else options[int(rng.choice(len(options)))]


def table_face_style(rng: np.random.Generator, edition: Edition = ORIGINAL_EDITION,
                     faces: Sequence[FontFace] = HERSHEY_FACES) -> TileFaceStyle:
    """Draw the look of one table's tiles: `edition` printed in one of `faces` (by default the
    original set in Hershey faces)."""
    ed = edition
    # the draws of the original look come first and in their old order
    cream = tuple(float(v) for v in rng.uniform(ed.cream_lo, ed.cream_hi))
    font = _pick(rng, faces)
    weight = float(rng.uniform(0.8, 1.6))
    slant = float(rng.normal(0, 0.06))
    stretch = float(rng.uniform(0.85, 1.2))
    logos = tuple(kind for kind, chance in ed.logos if chance >= 1.0 or bool(rng.random() < chance))
    return TileFaceStyle(
        cream=cream, font=font, weight=weight, slant=slant, stretch=stretch, logos=logos, edition=ed,
        radius=_span(rng, *ed.radius), aspect=_span(rng, *ed.aspect),
        shades=MappingProxyType({role: _span(rng, ink.lo, ink.hi) for role, ink in ed.inks.items()}),
    )


def _ink(rng, fs: TileFaceStyle, role: str) -> tuple[float, float, float]:
    base = np.array(fs.shades[role], np.float32)
    return tuple(float(v) for v in np.clip(base + rng.normal(0, fs.edition.inks[role].jitter, 3), 0, 255))


def tile_face(code: str, height: int, rng: np.random.Generator, face_style: TileFaceStyle | None = None) -> np.ndarray:
    """One upright tile face, BGRA, `height` pixels tall (alpha: the rounded outline).

    Without `face_style` the face is one of the original set (`table_face_style`)."""
    fs = face_style or table_face_style(rng)
    th = int(height)
    tw = max(8, int(round(th * fs.aspect)))
    face = np.zeros((th, tw, 4), np.uint8)
    radius = max(2, int(fs.radius * tw))
    alpha = np.zeros((th, tw), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (tw - 1 - radius, th - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (tw - 1, th - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (tw - 1 - radius, radius), (radius, th - 1 - radius), (tw - 1 - radius, th - 1 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    cream = np.array(fs.cream, np.float32)
    gradient = np.linspace(1.02, 0.95, th, dtype=np.float32)[:, None, None]
    body = np.clip(cream[None, None, :] * gradient * np.ones((th, tw, 1), np.float32), 0, 255)
    # bevel: a slightly darker rim
    rim = max(1, int(0.04 * tw))
    inner = cv2.erode(alpha, np.ones((2 * rim + 1, 2 * rim + 1), np.uint8))
    body[inner == 0] *= 0.9
    face[..., :3] = body.astype(np.uint8)
    face[..., 3] = alpha
    for kind in _LOGO_ORDER:
        if kind in fs.logos:
            _draw_logo(face, kind, fs, tw, th)
    varied = fs.varies(rng)
    if code == JOKER_CODE:
        if varied:
            fs.draw_varied_joker(face, rng, tw, th)
        else:
            _draw_joker(face, rng, fs, tw, th)
    else:
        _draw_number(face, rng, code, fs, (tw / 2, th * fs.edition.number_y), tw, th, varied)
    face[..., 3] = alpha
    return face


# ------------------------------------------------------------------ logos


def _logo_ring(canvas, colour, fs: TileFaceStyle, tw, th) -> None:
    cv2.circle(canvas, (int(tw / 2), int(th * fs.edition.motif_y)), int(tw * 0.36), colour, -1, cv2.LINE_AA)


def _logo_text(canvas, colour, fs: TileFaceStyle, tw, th) -> None:
    word = fs.edition.logo_word
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_TRIPLEX, max(2, int(th * 0.06)))
    (lw, lh), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_TRIPLEX, scale, 1)
    cv2.putText(canvas, word, (int(tw / 2 - lw / 2), int(th * 0.86)), cv2.FONT_HERSHEY_TRIPLEX,
                scale, colour, 1, cv2.LINE_AA)


# Emblem outlines in units of the face width around their centre, under the number.
_EMBLEMS: Mapping[str, tuple[tuple[float, float], ...]] = MappingProxyType({
    "diamond": ((0.0, -0.16), (0.16, 0.0), (0.0, 0.16), (-0.16, 0.0)),
    "shield": ((-0.15, -0.13), (0.15, -0.13), (0.15, 0.02), (0.0, 0.16), (-0.15, 0.02)),
    "crown": ((-0.18, 0.1), (-0.18, -0.1), (-0.09, 0.0), (0.0, -0.14), (0.09, 0.0), (0.18, -0.1), (0.18, 0.1)),
})


def _logo_shape(canvas, colour, fs: TileFaceStyle, tw, th) -> None:
    outline = np.array(_EMBLEMS[fs.edition.emblem]) * tw + [tw / 2, th * 0.79]
    cv2.polylines(canvas, [np.round(outline * 16).astype(np.int32)], True, colour,
                  max(1, int(round(tw * 0.035))), cv2.LINE_AA, 4)


def _logo_border(canvas, colour, fs: TileFaceStyle, tw, th) -> None:
    m = max(2, int(round(tw * 0.1)))
    cv2.rectangle(canvas, (m, m), (tw - 1 - m, th - 1 - m), colour, max(1, int(round(tw * 0.025))), cv2.LINE_AA)


_LOGO_DRAWERS: Mapping[str, Callable] = MappingProxyType({
    "border": _logo_border, "ring": _logo_ring, "shape": _logo_shape, "text": _logo_text,
})
_LOGO_ORDER = ("border", "ring", "shape", "text")  # painted bottom to top
# Printed logos are the face's cream darkened by these factors (B, G, R).
_LOGO_TINT = MappingProxyType({
    "border": (0.86, 0.88, 0.9), "ring": (0.95, 0.95, 0.95), "shape": (0.8, 0.85, 0.9), "text": (0.75, 0.85, 0.92),
})


def _draw_logo(face, kind: str, fs: TileFaceStyle, tw: int, th: int) -> None:
    draw = _LOGO_DRAWERS[kind]
    if not fs.edition.emboss:
        colour = tuple(float(v) for v in np.array(fs.cream) * np.array(_LOGO_TINT[kind]))
        draw(face, colour + (255,), fs, tw, th)
        return
    # pressed into the face: no ink, only the light on its edges and a faint shade inside
    mask = np.zeros((th, tw), np.uint8)
    draw(mask, 255, fs, tw, th)
    m = mask.astype(np.float32) / 255.0
    d = max(1, int(round(tw * 0.02)))
    moved = np.zeros_like(m)
    moved[d:, d:] = m[:-d, :-d]
    lit = np.clip(moved - m, 0, 1)  # the far wall of the hollow faces the light (from the top left)
    dark = np.clip(m - moved, 0, 1)  # the near wall is in its own shadow
    body = face[..., :3].astype(np.float32) * (1 - 0.05 * m - 0.22 * dark)[..., None] + 30 * lit[..., None]
    face[..., :3] = np.clip(body, 0, 255).astype(np.uint8)


# --------------------------------------------------------- numbers and jokers


def _place_glyph(face, glyph: np.ndarray, ink, fs: TileFaceStyle, center, target_h: float, tw: int, th: int) -> None:
    """Scale a white-on-black glyph to `target_h` (stretched and slanted as the set prints) at `center`."""
    target_w = glyph.shape[1] * target_h / glyph.shape[0] * fs.stretch
    if target_w > tw * 0.8:
        target_h *= tw * 0.8 / target_w
        target_w = tw * 0.8
    src = np.float32([[0, 0], [glyph.shape[1], 0], [0, glyph.shape[0]]])
    cx, cy = center
    x0, y0 = cx - target_w / 2, cy - target_h / 2
    dst = np.float32([[x0 + fs.slant * target_h, y0], [x0 + target_w + fs.slant * target_h, y0], [x0, y0 + target_h]])
    M = cv2.getAffineTransform(src, dst)
    mask = cv2.warpAffine(glyph, M, (tw, th), flags=cv2.INTER_AREA if target_h < glyph.shape[0] else cv2.INTER_LINEAR)
    a = (mask.astype(np.float32) / 255.0)[..., None]
    face[..., :3] = (face[..., :3] * (1 - a) + np.array(ink, np.float32) * a).astype(np.uint8)


def _draw_number(face, rng, code, fs: TileFaceStyle, center, tw, th, varied: bool = False) -> None:
    ink = _ink(rng, fs, code[0])
    glyph = fs.varied_number(rng, code[1:]) if varied else fs.glyph(code[1:])
    _place_glyph(face, glyph, ink, fs, center, th * _span(rng, *fs.edition.number_h), tw, th)


def _draw_joker(face, rng, fs: TileFaceStyle, tw, th) -> None:
    design = _pick(rng, fs.edition.jokers)
    if design.multicolour:
        roles = [design.inks[i] for i in rng.permutation(len(design.inks))]
    else:
        roles = [design.inks[min(int(rng.random() * len(design.inks)), len(design.inks) - 1)]]
    inks = [_ink(rng, fs, role) for role in roles]
    _JOKER_MOTIFS[design.motif](face, rng, fs, (int(tw / 2), int(th * fs.edition.motif_y)), tw, th, inks)


def _joker_smiley(face, rng, fs, centre, tw, th, inks) -> None:
    def col(i):
        return inks[i % len(inks)] + (255,)

    cx, cy = centre
    r = int(tw * rng.uniform(0.26, 0.32))
    t = max(1, int(r * 0.12))
    cv2.circle(face, (cx, cy), r, col(0), t, cv2.LINE_AA)
    eye = max(1, int(r * 0.13))
    cv2.circle(face, (cx - int(r * 0.38), cy - int(r * 0.25)), eye, col(1), -1, cv2.LINE_AA)
    cv2.circle(face, (cx + int(r * 0.38), cy - int(r * 0.25)), eye, col(1), -1, cv2.LINE_AA)
    cv2.ellipse(face, (cx, cy + int(r * 0.1)), (int(r * 0.55), int(r * 0.45)), 0, 20, 160, col(2), t, cv2.LINE_AA)
    if rng.random() < 0.5:  # hair / hat strokes seen on some joker faces
        for k in range(-2, 3):
            x = cx + int(k * r * 0.3)
            cv2.line(face, (x, cy - r), (x + int(k * r * 0.1), cy - int(r * 1.25)), col(3), max(1, t // 2), cv2.LINE_AA)


def _joker_butterfly(face, rng, fs, centre, tw, th, inks) -> None:
    def col(i):
        return inks[i % len(inks)] + (255,)

    cx, cy = centre
    r = tw * rng.uniform(0.32, 0.38)
    t = max(1, int(round(r * 0.08)))
    fill = -1 if rng.random() < 0.5 else t
    for side in (-1, 1):  # big upper wings swept out, smaller lower wings, feelers
        cv2.ellipse(face, (int(cx + side * r * 0.52), int(cy - r * 0.28)), (int(r * 0.55), int(r * 0.38)),
                    side * 30, 0, 360, col(1), fill, cv2.LINE_AA)
        cv2.ellipse(face, (int(cx + side * r * 0.38), int(cy + r * 0.4)), (int(r * 0.36), int(r * 0.25)),
                    -side * 35, 0, 360, col(2), fill, cv2.LINE_AA)
        cv2.line(face, (cx, int(cy - r * 0.5)), (int(cx + side * r * 0.32), int(cy - r * 0.95)), col(3),
                 max(1, t // 2), cv2.LINE_AA)
    cv2.ellipse(face, (cx, int(cy + r * 0.05)), (max(1, int(r * 0.09)), int(r * 0.6)), 0, 0, 360, col(0), -1,
                cv2.LINE_AA)


def _joker_star(face, rng, fs, centre, tw, th, inks) -> None:
    cx, cy = centre
    r = tw * rng.uniform(0.3, 0.36)
    turn = rng.normal(0, 0.1)
    outer = [(cx + r * math.sin(turn + k * 2 * math.pi / 5), cy - r * math.cos(turn + k * 2 * math.pi / 5))
             for k in range(5)]
    inner = [(cx + 0.42 * r * math.sin(turn + (k + 0.5) * 2 * math.pi / 5),
              cy - 0.42 * r * math.cos(turn + (k + 0.5) * 2 * math.pi / 5)) for k in range(5)]
    if rng.random() < 0.6 or len(inks) > 1:  # solid, each point in its ink (one ink: all alike)
        for k in range(5):
            kite = np.array([(cx, cy), inner[k - 1], outer[k], inner[k]]) * 16
            cv2.fillConvexPoly(face, np.round(kite).astype(np.int32), inks[k % len(inks)] + (255,), cv2.LINE_AA, 4)
    else:
        star = np.array([p for k in range(5) for p in (outer[k], inner[k])]) * 16
        cv2.polylines(face, [np.round(star).astype(np.int32)], True, inks[0] + (255,), max(1, int(r * 0.12)),
                      cv2.LINE_AA, 4)


def _joker_letter(face, rng, fs, centre, tw, th, inks) -> None:
    glyph = fs.glyph("J")
    h = th * rng.uniform(0.32, 0.4)
    if len(inks) > 1:  # two-tone: a shadow letter in a second ink
        d = max(1, int(round(tw * 0.04)))
        _place_glyph(face, glyph, inks[1], fs, (centre[0] + d, centre[1] + d), h, tw, th)
    _place_glyph(face, glyph, inks[0], fs, centre, h, tw, th)


_JOKER_MOTIFS: Mapping[str, Callable] = MappingProxyType({
    "smiley": _joker_smiley, "butterfly": _joker_butterfly, "star": _joker_star, "letter": _joker_letter,
})
