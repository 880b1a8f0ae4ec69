"""Procedural variation of numbers and jokers (training only, models/recipe/glyph_variants.py)."""
import numpy as np

from models.recipe.glyph_variants import varied_number
from models.recipe.synth import render_table
from models.recipe.tile_faces import table_face_style, tile_face
from models.recipe.typefaces import HERSHEY, _glyph, font_families

MELDS = [["R1", "R7", "R4"], ["K11", "B12", "O13"], ["J"]]


def test_off_by_default_and_draws_nothing_extra():
    plain = render_table(MELDS, 320, 240, seed=3, edition="teal-amber")
    zero = render_table(MELDS, 320, 240, seed=3, edition="teal-amber", glyph_variation=0.0)
    assert np.array_equal(plain.image, zero.image)
    varied = render_table(MELDS, 320, 240, seed=3, edition="teal-amber", glyph_variation=1.0)
    assert not np.array_equal(plain.image, varied.image)
    assert [t.code for t in varied.tiles] == [t.code for t in plain.tiles]


def test_varied_numbers_are_white_on_black_glyphs_of_every_digit():
    face = font_families()[HERSHEY][0]
    rng = np.random.default_rng(0)
    for text in ("1", "4", "7", "10", "11", "12", "13", "9"):
        for _ in range(10):
            g = varied_number(rng, text, lambda d: _glyph(face, d, 1.0))
            assert g.dtype == np.uint8 and g.ndim == 2 and g.max() > 200
            assert g.shape[0] > 50 and g.shape[1] >= 2


def test_varied_faces_draw_for_every_code_kind():
    rng = np.random.default_rng(1)
    fs = table_face_style(rng, "dark-grey", HERSHEY, glyph_variation=1.0)
    for code in ("K1", "B7", "O11", "R13", "J", "J", "J", "J"):
        f = tile_face(code, 90, rng, fs)
        assert f.shape[2] == 4 and f[..., :3].std() > 5
