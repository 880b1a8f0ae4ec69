"""The shipped models on synthetic tables with known answers."""
import numpy as np
import pytest

from vision import read_image
from models.recipe.synth import random_melds, render_table


def _score(r, reading):
    truth = {i: t for i, t in enumerate(r.tiles)}
    used, right = set(), 0
    for t in r.tiles:
        c = np.array(t.center)
        best = min(range(len(reading.tiles)), key=lambda k: np.hypot(*(np.array(reading.tiles[k].center) - c)), default=None)
        if best is None or best in used:
            continue
        if np.hypot(*(np.array(reading.tiles[best].center) - c)) < 0.4 * np.linalg.norm(t.corners[1] - t.corners[0]):
            used.add(best)
            right += reading.tiles[best].code == t.code
    return right / len(truth), len(reading.tiles) - len(used)


@pytest.mark.parametrize("seed", [101, 202])
def test_a_table_in_play_is_read(seed):
    melds = random_melds(np.random.default_rng(seed), 60)
    r = render_table(melds, 1600, 900, seed=seed, hands=0, layout="rows", perspective_deg=15)
    reading = read_image(r.image)
    right, extra = _score(r, reading)
    assert right >= 0.95
    assert extra <= 1


def test_sets_come_out_in_their_own_reading_order_even_upside_down():
    melds = [["R3", "R4", "R5", "R6"], ["K9", "B9", "O9"], ["B10", "B11", "B12", "B13"]]
    r = render_table(melds, 1280, 720, seed=5, layout="rows", upside_down=0.0, hands=0, perspective_deg=0, rotation_deg=180)
    reading = read_image(r.image)
    assert sorted(s.codes for s in reading.sets) == sorted(tuple(m) for m in melds)


def test_lone_tiles_are_in_tiles_but_in_no_set():
    r = render_table([["J"], ["K13"]], 960, 720, seed=3, layout="scatter", hands=0)
    reading = read_image(r.image)
    assert sorted(reading.codes) == ["J", "K13"]
    assert reading.sets == ()


def test_json_shape_matches_the_issue():
    r = render_table([["O7", "O8", "O9"], ["R1"]], 960, 540, seed=8, hands=0)
    d = read_image(r.image).to_json_dict("table.png")
    assert set(d) == {"image", "width", "height", "tiles", "sets", "warnings", "area", "edge_tiles"}
    assert d["area"] == {"corners": [[0.0, 0.0], [960.0, 0.0], [960.0, 540.0], [0.0, 540.0]], "found": True}
    assert d["image"] == "table.png" and (d["width"], d["height"]) == (960, 540)
    for t in d["tiles"]:
        assert set(t) == {"code", "confidence", "center", "corners", "alternatives"}
        assert isinstance(t["code"], str) and 0.0 <= t["confidence"] <= 1.0
        assert len(t["center"]) == 2 and len(t["corners"]) == 4 and all(len(c) == 2 for c in t["corners"])
        assert all(isinstance(code, str) and 0.0 <= p <= 1.0 for code, p in t["alternatives"])
    for s in d["sets"]:
        assert [d["tiles"][i]["code"] for i in s["tiles"]] == s["codes"]
    assert all(isinstance(w, str) for w in d["warnings"])
