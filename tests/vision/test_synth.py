"""The synthetic renderer: deterministic, complete ground truth, runtime deps only."""
import hashlib
from dataclasses import replace

import numpy as np
import pytest

from vision.codes import CODES, FULL_SET, JOKER_CODE
from models.recipe.synth import (
    BACKGROUNDS,
    EDITIONS,
    HELD_OUT_EDITION,
    HELD_OUT_FAMILY,
    HERSHEY,
    RANDOM,
    WOOD_TONES,
    JokerDesign,
    Style,
    font_families,
    random_melds,
    render_table,
    table_face_style,
    tile_face,
    training_designs,
    training_editions,
    training_families,
    unseen_designs,
)


def test_same_seed_gives_the_same_image_and_truth():
    melds = [["R5", "R6", "R7"], ["K1", "B1", "O1"], ["J"]]
    a = render_table(melds, 640, 480, seed=7)
    b = render_table(melds, 640, 480, seed=7)
    assert np.array_equal(a.image, b.image)
    assert [t.code for t in a.tiles] == [t.code for t in b.tiles]
    assert np.allclose(a.tiles[0].corners, b.tiles[0].corners)


def test_another_seed_gives_another_image():
    melds = [["R5", "R6", "R7"]]
    assert not np.array_equal(render_table(melds, 640, 480, seed=1).image, render_table(melds, 640, 480, seed=2).image)


@pytest.mark.parametrize("background", BACKGROUNDS)
def test_full_table_has_every_tile_inside_the_frame(background):
    melds = random_melds(np.random.default_rng(3), 106)
    assert sorted(c for m in melds for c in m) == sorted(FULL_SET)
    r = render_table(melds, 960, 540, seed=3, background=background, perspective_deg=25, rotation_deg=10)
    assert r.image.shape == (540, 960, 3) and r.image.dtype == np.uint8
    assert len(r.tiles) == 106
    for t in r.tiles:
        assert t.corners.shape == (4, 2)
        assert (t.corners[:, 0] >= -1).all() and (t.corners[:, 0] <= 961).all()
        assert (t.corners[:, 1] >= -1).all() and (t.corners[:, 1] <= 541).all()
        assert melds[t.meld][t.position] == t.code


def test_turned_melds_are_reported_upside_down():
    r = render_table([["K6", "K7", "K8"]], 640, 480, seed=0, upside_down=1.0, rotation_deg=0, perspective_deg=0)
    assert all(t.upside_down for t in r.tiles)
    # reading order runs right to left in the image when the meld lies the other way round
    xs = [t.center[0] for t in sorted(r.tiles, key=lambda t: t.position)]
    assert xs == sorted(xs, reverse=True)


def test_hands_cover_tiles_and_visibility_says_so():
    melds = random_melds(np.random.default_rng(5), 40)
    r = render_table(melds, 800, 600, seed=5, hands=2)
    assert min(t.visible for t in r.tiles) < 1.0 or r.style["hands"] == 2


def test_unknown_code_and_option_are_refused():
    with pytest.raises(ValueError, match="X5"):
        render_table([["X5"]], 640, 480)
    with pytest.raises(TypeError, match="sparkle"):
        render_table([["R5"]], 640, 480, sparkle=True)


# ------------------------------------------------ editions, typefaces, designs

# sha256 of the images below, taken with models/recipe/synth.py as it was before editions and font
# files existed: the default look (demo, golden files, shipped models' data) must not move.
# Pixel-exact, so a new OpenCV or numpy that draws differently also trips it; then compare
# the images by eye and update the digest.
DEFAULT_LOOK = "1eea8f3e0e1db78c0f5c66fa81eadb58aaccec76dc53b347e9632b294b14b9c0"
LOOK_MELDS = [["R5", "R6", "R7"], ["K1", "B1", "O1", "J"], ["K13", "B10", "O12", "J"]]


def _look_digest(**style) -> str:
    h = hashlib.sha256()
    for seed in (0, 5):
        h.update(render_table(LOOK_MELDS, 320, 240, seed=seed, **style).image.tobytes())
    for code in ("R5", "J", "K13", "B10"):
        h.update(tile_face(code, 80, np.random.default_rng(3)).tobytes())
    return h.hexdigest()


def test_the_default_look_is_unchanged():
    assert _look_digest() == DEFAULT_LOOK


def test_the_original_design_asked_for_by_name_is_the_default():
    explicit = dict(edition="original", font_family=HERSHEY, wood="classic", glare=0)
    assert _look_digest(**explicit) == _look_digest()


def _ink_pixels(face, shade, tol=45):
    near = np.abs(face[..., :3].astype(int) - np.array(shade)).max(axis=2) <= tol
    return near & (face[..., 3] == 255)


@pytest.mark.parametrize("name", list(EDITIONS))
def test_every_edition_draws_every_code_in_its_inks(name):
    rng = np.random.default_rng(11)
    fs = table_face_style(rng, name)
    th = 72
    for code in CODES:
        face = tile_face(code, th, rng, fs)
        assert face.shape == (th, round(th * fs.aspect), 4) and face.dtype == np.uint8
        if code == JOKER_CODE:
            inked = np.zeros(face.shape[:2], bool)
            for shade in fs.shades.values():
                inked |= _ink_pixels(face, shade)
        else:
            inked = _ink_pixels(face, fs.shades[code[0]])
        least = 0.01 if code == JOKER_CODE else 0.03  # a smiley is a thin outline
        assert inked.sum() > least * inked.size, (name, code)
        ys, _ = np.nonzero(inked)
        assert ys.mean() < 0.55 * th, (name, code)  # the number sits above the logo, as on real tiles


def test_every_edition_lays_out_a_table():
    melds = [["K1", "K2", "K3"], ["B13", "O13", "R13"], ["J"]]
    for name in EDITIONS:
        r = render_table(melds, 240, 160, seed=2, edition=name, perspective_deg=10)
        assert r.style["edition"] == name and len(r.tiles) == 7


@pytest.mark.parametrize("motif", ["smiley", "butterfly", "star", "letter"])
@pytest.mark.parametrize("multicolour", [False, True])
def test_every_joker_design_draws(motif, multicolour):
    edition = replace(EDITIONS["original"], jokers=(JokerDesign(motif, ("K", "B", "O", "R"), multicolour),))
    rng = np.random.default_rng(4)
    fs = table_face_style(rng, edition)
    face = tile_face(JOKER_CODE, 96, rng, fs)
    used = [role for role, shade in fs.shades.items() if _ink_pixels(face, shade, 40).sum() > 15]
    assert used and (len(used) >= 2 if multicolour else True), (motif, used)


def test_random_designs_leave_the_held_out_ones_out():
    assert HELD_OUT_EDITION in EDITIONS and HELD_OUT_EDITION not in training_editions()
    assert HELD_OUT_FAMILY not in training_families() and HERSHEY in training_families()
    editions, families = set(), set()
    for seed in range(60):
        drawn = Style(**training_designs()).resolve_design(np.random.default_rng(seed))
        editions.add(drawn.edition)
        families.add(drawn.font_family)
        assert drawn.wood in WOOD_TONES and 0 <= drawn.glare <= 3
    assert editions == set(training_editions())
    assert HELD_OUT_FAMILY not in families and families <= set(training_families())


def test_unseen_designs_draw_only_the_held_out_ones():
    if HELD_OUT_FAMILY not in font_families():
        pytest.skip("held-out family not installed (models/recipe/install_training_fonts.sh and Pillow)")
    r = render_table([["R5", "R6", "R7"], ["J"]], 240, 160, seed=1, **unseen_designs())
    assert (r.style["edition"], r.style["font_family"]) == (HELD_OUT_EDITION, HELD_OUT_FAMILY)


def test_a_design_keeps_the_layout_of_its_seed():
    melds = [["R5", "R6", "R7"], ["K9", "B9", "O9"]]
    plain = render_table(melds, 320, 240, seed=8, edition="original")
    other = render_table(melds, 320, 240, seed=8, edition="yellow-set")
    a = np.array([t.center for t in plain.tiles])
    b = np.array([t.center for t in other.tiles])
    assert np.allclose(a, b, atol=0.5)


def test_a_photo_of_a_given_set_draws_that_set_and_keeps_the_rest_of_its_seed():
    """A club calibrates the very set it plays with (models/recipe/evaluate.py): another photo drawn
    with a table's `tile_set` shows that set's print, and a photo given the set its own seed
    would draw is the same photo."""
    melds = [["R5", "R6", "R7"], ["K1", "B1", "O1"]]
    table = render_table(melds, 320, 240, seed=3, edition="yellow-set")
    own = render_table(melds, 320, 240, seed=3, edition="yellow-set", tile_set=table.tile_set)
    assert np.array_equal(own.image, table.image)
    other_seed = render_table(melds, 320, 240, seed=4, edition="yellow-set")
    same_set = render_table(melds, 320, 240, seed=4, edition="yellow-set", tile_set=table.tile_set)
    assert other_seed.tile_set != table.tile_set and same_set.tile_set == table.tile_set
    assert not np.array_equal(same_set.image, other_seed.image)
    assert np.allclose([t.center for t in same_set.tiles], [t.center for t in other_seed.tiles], atol=0.5)


def test_glare_only_brightens():
    melds = [["R5", "R6", "R7"], ["K9", "B9", "O9"]]
    calm = dict(noise=0.0, blur=0.0, jpeg=0, hands=0)
    plain = render_table(melds, 320, 240, seed=6, glare=0, **calm).image.astype(int)
    shiny = render_table(melds, 320, 240, seed=6, glare=3, **calm).image.astype(int)
    assert (shiny >= plain).all() and (shiny > plain + 20).any()


def test_every_wood_tone_draws():
    means = {}
    for tone in WOOD_TONES:
        img = render_table([["R5"]], 160, 120, seed=1, background="wood", wood=tone, glare=0).image
        means[tone] = img.mean()
    assert means["birch"] > means["oak"] > means["walnut"]


def test_unknown_designs_are_refused():
    for bad in (dict(edition="gold"), dict(font_family="Comic Sans"), dict(wood="ebony"),
                dict(edition=RANDOM, exclude_editions=("gold",))):
        with pytest.raises(ValueError):
            render_table([["R5"]], 128, 96, **bad)
    with pytest.raises(ValueError, match="excluded"):
        render_table([["R5"]], 128, 96, edition=RANDOM, exclude_editions=tuple(EDITIONS))


def _outline_families():
    pytest.importorskip("PIL")
    outline = [f for f in font_families() if f != HERSHEY]
    if not outline:
        pytest.skip("no font files found (models/recipe/install_training_fonts.sh)")
    return outline


def test_font_families_draw_ten_different_digits():
    from models.recipe.synth import _glyph

    for family in _outline_families():
        for face in font_families()[family]:
            glyphs = {_glyph(face, d, 1.2).tobytes() for d in "0123456789"}
            assert len(glyphs) == 10, (family, face.style)


def test_the_held_out_family_is_never_drawn_when_excluded():
    if HELD_OUT_FAMILY not in _outline_families():
        pytest.skip(f"{HELD_OUT_FAMILY} not installed")
    for seed in range(40):
        drawn = Style(font_family=RANDOM, exclude_families=(HELD_OUT_FAMILY,)).resolve_design(np.random.default_rng(seed))
        assert drawn.font_family != HELD_OUT_FAMILY
    r = render_table([["B4", "B5"], ["J"]], 240, 160, seed=3, font_family=HELD_OUT_FAMILY, edition="dark-grey")
    assert r.style["font_family"] == HELD_OUT_FAMILY
