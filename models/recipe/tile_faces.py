"""Tile faces for training: any edition, any typeface found, numbers and jokers varied.

The faces are drawn by the demo's own drawer (controller/demo/tile_faces.py); this module
names the editions (`tile_designs.EDITIONS`) and typeface families (`typefaces.font_families`)
a table's look is drawn from, and adds the procedural variation of numbers and jokers
(`glyph_variants`), none of which the product needs.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from controller.demo.tile_faces import (  # noqa: F401 - tile_face re-exported
    _JOKER_MOTIFS,
    HERSHEY,
    Edition,
    TileFaceStyle,
    _ink,
    tile_face,
)
from controller.demo.tile_faces import table_face_style as _drawn_style

from .glyph_variants import varied_joker, varied_number
from .tile_designs import EDITIONS
from .typefaces import _glyph, font_families


@dataclass(frozen=True)
class TrainingFaceStyle(TileFaceStyle):
    """A table's look in training: numbers in any typeface, some of them varied."""

    # chance that a tile's number or joker is varied procedurally; 0 draws nothing extra
    glyph_variation: float = 0.0

    def glyph(self, text: str) -> np.ndarray:
        return _glyph(self.font, text, self.weight)

    def varies(self, rng: np.random.Generator) -> bool:
        return self.glyph_variation > 0 and bool(rng.random() < self.glyph_variation)

    def varied_number(self, rng: np.random.Generator, digits: str) -> np.ndarray:
        return varied_number(rng, digits, self.glyph)

    def draw_varied_joker(self, face: np.ndarray, rng: np.random.Generator, tw: int, th: int) -> None:
        varied_joker(face, rng, self, tw, th, _JOKER_MOTIFS, _ink)


def table_face_style(rng: np.random.Generator, edition: str | Edition | None = None,
                     font_family: str | None = None, glyph_variation: float = 0.0) -> TrainingFaceStyle:
    """Draw the look of one table's tiles: `edition` (a key of EDITIONS, or an Edition to try
    a new design) printed in a face of `font_family` (a key of font_families()); None: the
    original set in Hershey faces."""
    ed = edition if isinstance(edition, Edition) else EDITIONS[edition or "original"]
    drawn = _drawn_style(rng, ed, font_families()[font_family or HERSHEY])
    return TrainingFaceStyle(**{f.name: getattr(drawn, f.name) for f in fields(drawn)},
                             glyph_variation=float(glyph_variation or 0.0))
