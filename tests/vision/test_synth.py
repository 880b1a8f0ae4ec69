"""The synthetic renderer: deterministic, complete ground truth, runtime deps only."""
import numpy as np
import pytest

from vision.codes import FULL_SET
from vision.synth import BACKGROUNDS, random_melds, render_table


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
