"""`vision.same_table.lies_as_read` answers as `vision.eyes_tiles.lies_as` does (the blocks first, the
patches one at a time): the same changes tell the table apart, the same noise and light do not."""
from __future__ import annotations

import cv2
import pytest

from vision.eyes_tiles import lies_as
from vision.same_table import blocks_unchanged, lies_as_read

from test_lies_as import AREA, TABLE, changed, outlines, renderer  # noqa: F401 - the module's fixture


@pytest.mark.parametrize("change", ["nothing", "the lamp turned up", "a tile drawn from below the area",
                                    "a tile laid on bare table", "a tile's code changed in place", "a phone put down"])
@pytest.mark.parametrize("area", [AREA, None])
def test_it_answers_as_lies_as(renderer, change, area):  # noqa: F811
    before = renderer.frame(TABLE, 1)
    after = changed(renderer, change)
    assert lies_as_read(before, outlines(TABLE), after, area) is lies_as(before, outlines(TABLE), after, area)


def test_a_tile_that_lies_as_it_lay_passes_however_many_tiles_are_compared(renderer):  # noqa: F811
    before = renderer.frame(TABLE, 1)
    assert lies_as_read(before, outlines(TABLE), renderer.frame(TABLE, 9), AREA)
    assert lies_as_read(before, (), renderer.frame(TABLE, 9), AREA)


def test_a_tile_laid_on_bare_table_is_caught_by_the_blocks(renderer):  # noqa: F811
    before = renderer.frame(TABLE, 1)
    assert not blocks_unchanged(before, outlines(TABLE), changed(renderer, "a tile laid on bare table"), AREA)
    assert blocks_unchanged(before, outlines(TABLE), renderer.frame(TABLE, 9), AREA)


def test_frames_of_two_sizes_never_lie_alike(renderer):  # noqa: F811
    before = renderer.frame(TABLE, 1)
    assert not lies_as_read(before, outlines(TABLE), cv2.resize(before, (320, 200)), AREA)


@pytest.mark.parametrize("change, alike", [
    ("nothing", True),
    ("a tile drawn from below the area", True),
    ("the lamp turned up", False),  # no light matched: the frame is read
    ("a tile laid on bare table", False),
    ("a tile's code changed in place", False),
    ("a phone put down", False),
])
def test_two_frames_of_a_look_are_alike_only_as_they_are(renderer, change, alike):  # noqa: F811
    from vision.same_table import still_as_read

    before = renderer.frame(TABLE, 1)
    after = changed(renderer, change)
    assert still_as_read(before, outlines(TABLE), after, AREA) is alike
    if alike:  # never alike where lies_as would tell them apart
        assert lies_as(before, outlines(TABLE), after, AREA)


@pytest.mark.parametrize("tile", [18, 30, 44, 61])
@pytest.mark.parametrize("size", [(1920, 1080), (1283, 721)])
def test_the_blocks_see_half_a_tile_put_down_whatever_the_frame_and_tile_size(tile, size):
    """The blocks are compared on a copy a whole factor smaller than the frame (a cheap box average),
    whatever the frame's size: a patch half a tile wide put down anywhere, up to the frame's last
    pixels, is a change; sensor noise is none."""
    import numpy as np

    w, h = size
    rng = np.random.default_rng(tile * 7 + w)
    before = np.clip(rng.normal(120, 25, (h, w, 3)), 0, 255).astype(np.uint8)
    before = cv2.GaussianBlur(before, (0, 0), 2)  # a table's grain, not pixel noise
    square = [(0, 0), (tile, 0), (tile, tile), (0, tile)]
    tiles = tuple(tuple((x + 40 + i * (tile + 4), y + 40) for x, y in square) for i in range(5))
    noisy = np.clip(before.astype(np.int16) + rng.integers(-6, 7, before.shape), 0, 255).astype(np.uint8)
    assert blocks_unchanged(before, tiles, noisy)
    half = tile // 2
    for x, y in [(w // 2, h // 2), (w - half, h - half), (0, h - half), (w - half, 0)]:
        after = noisy.copy()
        after[y:y + half, x:x + half] = 250
        assert not blocks_unchanged(before, tiles, after), (x, y)
