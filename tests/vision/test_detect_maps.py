"""Turning the detector's face/core maps into tile quads, on hand-drawn maps with known tiles."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.config import DEFAULT_CONFIG
from vision.detect import _blobs, _main_face_blobs, candidates_from_maps

SHAPE = (120, 160)  # image pixels; the maps are at half of this and scale is 1


def _logits(face_boxes, core_spots) -> np.ndarray:
    """Logit maps (2 x h/2 x w/2): +8 inside the drawn boxes, -8 elsewhere; cores as blurred spots."""
    h, w = SHAPE[0] // 2, SHAPE[1] // 2
    face = np.full((h, w), -8.0, np.float32)
    for x0, y0, x1, y1 in face_boxes:
        face[y0 // 2: y1 // 2, x0 // 2: x1 // 2] = 8.0
    core_prob = np.zeros((SHAPE[0], SHAPE[1]), np.float32)
    for (x0, y0, x1, y1), peak in core_spots:
        spot = np.zeros_like(core_prob)
        spot[y0:y1, x0:x1] = peak
        core_prob = np.maximum(core_prob, spot)
    core_prob = np.clip(core_prob, 1e-4, 1 - 1e-4)
    core = np.log(core_prob / (1 - core_prob))
    return np.stack([face, cv2.resize(core, (w, h), interpolation=cv2.INTER_AREA)])


def _tiles(maps) -> list[tuple[float, float]]:
    return sorted(c.center for c in candidates_from_maps(maps, 1.0, DEFAULT_CONFIG, SHAPE))


def test_a_lone_tile_with_an_oversized_core_is_one_tile():
    # one upright tile 28 x 38 whose core came out long (aspect 2), on a face of a tile's shape
    maps = _logits([(60, 40, 88, 78)], [((66, 44, 82, 76), 0.99)])
    assert len(_tiles(maps)) == 1


@pytest.mark.parametrize("ridge", [0.7, 0.8], ids=["ridge-0.7", "ridge-0.8"])
def test_two_tiles_side_by_side_whose_cores_ran_together_are_two_tiles(ridge):
    # two tiles 28 x 38 touching: the face blob (56 x 38) has about one tile's aspect, and
    # the cores joined over a ridge that stays under the peak threshold
    maps = _logits([(50, 40, 106, 78)], [((56, 48, 72, 70), 0.99), ((84, 48, 100, 70), 0.99), ((72, 56, 84, 62), ridge)])
    tiles = _tiles(maps)
    assert len(tiles) == 2
    (left_x, _), (right_x, _) = tiles
    assert left_x < 78 < right_x


def test_a_crumb_beside_a_lone_tiles_core_is_not_a_tile():
    maps = _logits([(60, 40, 88, 78)], [((66, 44, 82, 66), 0.99), ((60, 70, 68, 78), 0.99)])
    assert len(_tiles(maps)) == 1


def test_two_merged_cores_thinner_than_the_frames_typical_core_are_read_side_by_side_by_their_middles():
    # a slanted camera: the frame's single cores are 14 x 17; two neighbours at the end of a
    # row came out 14 high, so the short side of their joined blob looks like a core's width
    # ("one above the other", which would read one tile); their two middles say side by side
    singles = [((x, 20, x + 14, 37), 0.99) for x in (10, 40, 70, 100)]
    faces = [(x - 5, 13, x + 19, 44) for x in (10, 40, 70, 100)]
    pair = [((40, 82, 54, 96), 0.99), ((56, 82, 70, 96), 0.99), ((54, 85, 56, 92), 0.7)]
    tiles = [t for t in _tiles(_logits(faces + [(30, 73, 80, 104)], singles + pair)) if t[1] > 60]
    assert len(tiles) == 2
    (left_x, _), (right_x, _) = tiles
    assert left_x < 55 < right_x


def test_each_core_blob_lies_on_the_face_blob_most_of_its_pixels_do():
    # the table of (core, face) pairs gives each core blob the face that np.bincount(...).argmax() of its own
    # pixels gives: the lowest label among equals, 0 (no face) counting as any other
    rng = np.random.default_rng(5)
    for _ in range(20):
        core = (rng.random((61, 83)) < rng.uniform(0.1, 0.6)).astype(np.uint8)
        face = (rng.random((61, 83)) < rng.uniform(0.2, 0.9)).astype(np.uint8)
        count, labels, _ = _blobs(core)
        face_count, face_labels, _ = _blobs(face)
        on = labels > 0
        faces = _main_face_blobs(labels[on], face_labels[on], count, face_count)
        for label in range(1, count):
            assert faces[label] == np.bincount(face_labels[labels == label]).argmax()
    assert _main_face_blobs(labels[on], face_labels[on], 1 << 12, 1 << 11) is None  # too many pairs: counted blob by blob
