"""The frame painted outside the play area (the reader's look again beside a box of spare tiles): the
area's median colour is numpy's own, counted from histograms, and the inside is left as it was."""
from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.area import AreaError, PlayArea
from vision.pipeline import _median_colour, _outside_painted


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), height=st.integers(1, 40), width=st.integers(1, 40),
       levels=st.sampled_from([2, 5, 256]), share=st.floats(0.01, 1.0))
def test_the_median_colour_is_numpys_median_cut_to_an_integer(seed, height, width, levels, share):
    rng = np.random.default_rng(seed)
    image = (rng.integers(0, levels, (height, width, 3)) * (255 // max(levels - 1, 1))).astype(np.uint8)
    mask = (rng.random((height, width)) < share).astype(np.uint8)
    if not mask.any():
        mask[0, 0] = 1
    assert _median_colour(image, mask).tolist() == np.median(image[mask > 0], axis=0).astype(np.uint8).tolist()


def test_outside_the_area_is_painted_in_its_median_and_inside_is_untouched():
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (120, 200, 3), dtype=np.uint8)
    area = PlayArea.marked(((40, 20), (160, 25), (150, 100), (50, 95)), 200, 120)
    painted = _outside_painted(image, area)
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(area.quad).astype(np.int32), 1)
    assert (painted[inside > 0] == image[inside > 0]).all()
    median = np.median(image[inside > 0], axis=0).astype(np.uint8)
    assert (painted[inside == 0] == median).all()


def test_an_area_off_the_frame_is_named():
    image = np.zeros((50, 80, 3), np.uint8)
    area = PlayArea.marked(((200, 200), (300, 200), (300, 260), (200, 260)), 400, 300)
    with pytest.raises(AreaError, match="covers no pixel of the 80x50 frame"):
        _outside_painted(image, area)
