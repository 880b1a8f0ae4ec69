"""bench_area's count of labelled tiles the play area leaves outside."""
import numpy as np
import pytest

from benchmarks.bench_area import dropped, left_out, on_photo
from vision.area import PlayArea

TILE = np.array([[0, 0], [30, 0], [30, 40], [0, 40]], float)


@pytest.mark.parametrize("offset, area, expected", [
    pytest.param((0, 0), None, 0, id="no-area-leaves-nothing-out"),
    pytest.param((0, 0), PlayArea.whole_frame(200, 100), 0, id="whole-frame"),
    pytest.param((0, 0), PlayArea.marked([(50, 0), (200, 0), (200, 100), (50, 100)]), 1, id="one-tile-left-of-area"),
    pytest.param((60, 0), PlayArea.marked([(50, 0), (200, 0), (200, 100), (50, 100)]), 0, id="offset-into-area"),
])
def test_left_out_counts_tiles_whose_middle_lies_outside(offset, area, expected):
    labels = [("R1", TILE), ("K5", TILE + [100, 40])]
    assert left_out(area, labels, offset) == expected


@pytest.mark.parametrize("shift, lying", [
    pytest.param((10, 10), True, id="wholly-on-the-photo"),
    pytest.param((-2, 10), True, id="label-two-pixels-over-the-border"),
    pytest.param((-10, 10), False, id="a-third-cut-off-by-the-border"),
    pytest.param((185, 70), False, id="cut-at-the-bottom-right"),
])
def test_only_tiles_lying_on_the_photo_count(shift, lying):
    assert [code for code, _ in on_photo([("B7", TILE + shift)], 200, 100)] == (["B7"] if lying else [])


class _Read:
    def __init__(self, area, centres):
        self.area = area
        self.tiles = [type("Tile", (), {"center": c})() for c in centres]


@pytest.mark.parametrize("centres, expected", [
    pytest.param([], 1, id="left-out-and-not-read"),
    pytest.param([(15, 20)], 0, id="left-out-but-read-on-the-tables-surface"),
    pytest.param([(115, 60)], 1, id="only-the-tile-inside-read"),
])
def test_not_read_counts_left_out_tiles_no_tile_is_read_on(centres, expected):
    area = PlayArea.marked([(50, 0), (200, 0), (200, 100), (50, 100)])
    labels = [("R1", TILE), ("K5", TILE + [100, 40])]
    assert dropped(_Read(area, centres), labels) == expected
