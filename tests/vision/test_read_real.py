"""The shipped models on real photos the training never saw (tests/vision/data, held out)."""
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import read_path

DATA = Path(__file__).parent / "data"
LABELS = json.loads((DATA / "labels.json").read_text())

# Measured with the shipped models: full_grid 54/54 found, 53/54 codes right; melds 17/17
# and 17/17; single 1/1. The floors leave room for two or three misses so a retrained
# model that is as good still passes.
MIN_RECALL = {"full_grid": 0.96, "melds": 0.94, "single": 1.0}
MIN_CODES_RIGHT = {"full_grid": 0.94, "melds": 0.94, "single": 1.0}


def _inside(point, quad):
    return cv2.pointPolygonTest(np.float32(quad).reshape(-1, 1, 2), tuple(map(float, point)), False) >= 0


def _score(name):
    reading = read_path(DATA / f"{name}.jpg")
    labels = LABELS[name]["tiles"]
    used, found, right = set(), 0, 0
    for label in labels:
        hits = [i for i, t in enumerate(reading.tiles) if i not in used and _inside(t.center, label["corners"])]
        if hits:
            used.add(hits[0])
            found += 1
            right += reading.tiles[hits[0]].code == label["code"]
    return reading, labels, found, right, len(reading.tiles) - len(used)


@pytest.mark.parametrize("name", ["full_grid", "melds", "single"])
def test_tiles_found_and_read_on_real_photos(name):
    reading, labels, found, right, extra = _score(name)
    assert found / len(labels) >= MIN_RECALL[name], f"found {found}/{len(labels)}"
    assert right / len(labels) >= MIN_CODES_RIGHT[name], f"codes right {right}/{len(labels)}"
    assert extra <= max(1, len(labels) // 25), f"{extra} tiles read where none is labelled"


def test_empty_table_has_no_tiles():
    reading = read_path(DATA / "empty.jpg")
    assert reading.tiles == ()
    assert reading.sets == ()


def test_real_melds_are_grouped_in_reading_order():
    reading = read_path(DATA / "melds.jpg")
    # the photo's runs and groups lie upright, left to right; a set of 3+ tiles of one colour
    # must come out ascending
    runs = [s.codes for s in reading.sets if len({c[0] for c in s.codes}) == 1 and "J" not in s.codes]
    assert runs, "no run found"
    for codes in runs:
        numbers = [int(c[1:]) for c in codes]
        assert numbers == sorted(numbers), codes
