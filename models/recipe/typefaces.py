"""Typefaces for tile numbers in training: which families this machine can draw, and their glyphs.

OpenCV's Hershey faces (`HERSHEY`, controller/demo/tile_faces.py) need nothing installed and
are the renderer's default. Training may ask for TrueType/OpenType families from Debian font
packages (`models/recipe/install_training_fonts.sh`), drawn with Pillow; the trained model needs no font
at run time. `HELD_OUT_FAMILY` is kept out of training to measure how the reader copes
with numbers in a typeface it never saw.
"""
from __future__ import annotations

import functools
import importlib.util
import os
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import cv2
import numpy as np

from controller.demo.tile_faces import HERSHEY, HERSHEY_FACES, FontFace, cropped_to_ink, hershey_glyph

# URW Gothic (an Avant Garde geometric sans: round O-like 0, 6 and 9, an open 4) shares no
# design with any other family found, unlike the Helvetica clones (Liberation Sans, Nimbus
# Sans, FreeSans) which stand in for one another. DejaVu Sans and Liberation Sans, the
# shapes the issue saw misread, stay in training.
HELD_OUT_FAMILY = "URW Gothic"

@dataclass(frozen=True)
class FontSource:
    package: str  # what installs the files (Debian package or Python package)
    directory: str
    # Families kept: the packages also hold script, symbol and dingbat fonts whose digits
    # are missing, copies of another family's or not tile-like (Noto's 200 script families,
    # Z003 chancery, D050000L dingbats, Standard Symbols).
    families: tuple[str, ...]


_FONT_SOURCES = (
    FontSource("fonts-dejavu-core", "/usr/share/fonts/truetype/dejavu",
               ("DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono")),
    FontSource("fonts-liberation2", "/usr/share/fonts/truetype/liberation2",
               ("Liberation Sans", "Liberation Sans Narrow", "Liberation Serif", "Liberation Mono")),
    FontSource("fonts-freefont-ttf", "/usr/share/fonts/truetype/freefont", ("FreeSans", "FreeSerif", "FreeMono")),
    FontSource("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35",
               ("Nimbus Sans", "Nimbus Sans Narrow", "Nimbus Roman", "Nimbus Mono PS", "C059", "P052",
                "URW Bookman", "URW Gothic")),
    FontSource("fonts-noto-core", "/usr/share/fonts/truetype/noto",
               ("Noto Sans", "Noto Sans Display", "Noto Serif", "Noto Serif Display", "Noto Sans Mono")),
)
# Narrow and display cuts are the same design as their family: one family when held out.
_FAMILY_OF = {
    "Liberation Sans Narrow": "Liberation Sans",
    "Nimbus Sans Narrow": "Nimbus Sans",
    "Noto Sans Display": "Noto Sans",
    "Noto Serif Display": "Noto Serif",
}
# Tile numbers are upright and heavy: slant comes from the renderer's own shear, and
# hairline cuts would teach strokes no tile has.
_SKIPPED_STYLE_WORDS = {"Italic", "Oblique", "Thin", "ExtraLight", "Light"}
_FONT_EXTENSIONS = (".ttf", ".otf")
_GLYPH_PX = 128  # font size the glyphs are drawn at before being scaled onto the face


def _font_sources() -> tuple[FontSource, ...]:
    sources = list(_FONT_SOURCES)
    spec = importlib.util.find_spec("matplotlib")  # located, not imported: it is slow to import
    if spec is not None and spec.origin:
        mpl = os.path.join(os.path.dirname(spec.origin), "mpl-data", "fonts", "ttf")
        sources.append(FontSource("matplotlib", mpl, ("DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono")))
    return tuple(sources)


def _pillow_fonts():
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        return None
    return Image, ImageDraw, ImageFont


@functools.lru_cache(maxsize=256)
def _pil_font(path: str, size: int):
    return _pillow_fonts()[2].truetype(path, size)


def _draw_text_pil(path: str, text: str, size: int) -> np.ndarray:
    Image, ImageDraw, _ = _pillow_fonts()
    font = _pil_font(path, size)
    left, top, right, bottom = font.getbbox(text)
    pad = 4
    img = Image.new("L", (max(1, right - left) + 2 * pad, max(1, bottom - top) + 2 * pad), 0)
    ImageDraw.Draw(img).text((pad - left, pad - top), text, fill=255, font=font)
    return np.asarray(img)


def _sane_digits(path: str) -> bool:
    """The file draws 0-9 as ten different upright glyphs of about one height (a missing
    glyph draws the same box for every digit; old-style figures vary in height)."""
    try:
        masks = [_draw_text_pil(path, d, 64) for d in "0123456789"]
    except OSError:
        return False
    heights, seen = [], set()
    for m in masks:
        ys, xs = np.nonzero(m > 127)
        if len(ys) == 0:
            return False
        crop = m[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
        seen.add((crop.shape, crop.tobytes()))
        heights.append(ys.max() - ys.min() + 1)
    return len(seen) == 10 and min(heights) >= 0.75 * max(heights)


@functools.lru_cache(maxsize=8)
def font_families(sources: tuple[FontSource, ...] | None = None) -> Mapping[str, tuple[FontFace, ...]]:
    """Typeface families usable for tile numbers on this machine: family -> its faces.

    `HERSHEY` (OpenCV's faces) is always there; font files are read from the Debian font
    packages in `_FONT_SOURCES` and matplotlib's bundled DejaVu, only when Pillow is
    installed (the `train` extra). Upright regular to bold cuts, condensed and narrow ones
    included, each with sane digits.
    """
    families: dict[str, list[FontFace]] = {HERSHEY: list(HERSHEY_FACES)}
    if _pillow_fonts() is None:
        return MappingProxyType({k: tuple(v) for k, v in families.items()})
    seen: set[tuple[str, str]] = set()
    for source in sources if sources is not None else _font_sources():
        if not os.path.isdir(source.directory):
            continue
        for name in sorted(os.listdir(source.directory)):
            if not name.lower().endswith(_FONT_EXTENSIONS):
                continue
            path = os.path.join(source.directory, name)
            try:
                named, style = _pil_font(path, 64).getname()
            except OSError:
                continue
            if named not in source.families or _SKIPPED_STYLE_WORDS & set(style.split()):
                continue
            family = _FAMILY_OF.get(named, named)
            cut = f"{named[len(family):].strip()} {style}".strip()
            if (family, cut) in seen or not _sane_digits(path):
                continue
            seen.add((family, cut))
            families.setdefault(family, []).append(FontFace(family, cut, path))
    ordered = {HERSHEY: families.pop(HERSHEY)}
    ordered.update({k: sorted(families[k], key=lambda f: (f.style, f.path)) for k in sorted(families)})
    return MappingProxyType({k: tuple(v) for k, v in ordered.items()})


@functools.lru_cache(maxsize=4096)
def _glyph(face: FontFace, text: str, weight: float) -> np.ndarray:
    """`text` in white on black, cropped to its ink, about 96 px tall (read-only)."""
    if face.path is None:
        return hershey_glyph(face, text, weight)
    # outline fonts carry their own weight; the drawn weight only swells the strokes (1 to
    # 3 px each side at 128 px), because tile numbers are printed heavy and the
    # regular cuts of book and typewriter faces are far thinner than any tile's
    canvas = _draw_text_pil(face.path, text, _GLYPH_PX)
    grow = int(np.clip(1 + round((weight - 0.8) * 2.5), 1, 3))
    if grow:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1))
        canvas = cv2.dilate(np.pad(canvas, grow + 1), kernel)
    return cropped_to_ink(canvas)


def training_families() -> tuple[str, ...]:
    """Typeface families the training draws from on this machine: all found but the held-out one."""
    return tuple(name for name in font_families() if name != HELD_OUT_FAMILY)
