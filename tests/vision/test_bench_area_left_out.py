"""bench_area's count of labelled tiles the play area leaves outside."""
import numpy as np
import pytest

from benchmarks.bench_area import left_out
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
