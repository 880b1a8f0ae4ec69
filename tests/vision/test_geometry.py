"""Quad ordering and crops, shared by training and inference."""
import math

import cv2
import numpy as np
from hypothesis import example, given, strategies as st

from vision.config import CROP_HEIGHT, CROP_WIDTH
from vision.geometry import (bright_levels, flip_quad, length, normalise_crops, order_upright, order_upright_many, quad_size,
                             quad_sizes, rectify)


def _tile(cx, cy, w, h, angle):
    c, s = math.cos(angle), math.sin(angle)
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return local @ np.array([[c, s], [-s, c]]) + [cx, cy]


@given(
    st.floats(-80, 80),  # degrees away from upright; beyond 90 the "top" is the other end
    st.integers(0, 3),
    st.floats(20, 200),
)
def test_order_upright_puts_the_long_side_vertical_and_top_up(angle, start, width):
    quad = _tile(500, 400, width, width / 0.74, math.radians(angle))
    ordered = order_upright(np.roll(quad, start, axis=0))
    w, h = quad_size(ordered)
    assert h > w
    top = (ordered[0] + ordered[1]) / 2
    bottom = (ordered[2] + ordered[3]) / 2
    assert top[1] < bottom[1]
    # top-left is left of top-right along the tile's own width axis, seen upright
    right = ordered[1] - ordered[0]
    up = top - bottom
    assert right[0] * up[1] - right[1] * up[0] < 0  # clockwise in image coordinates (y down)


def test_flip_twice_is_identity():
    q = _tile(10, 10, 30, 40, 0.3)
    assert np.allclose(flip_quad(flip_quad(q)), q)


def test_rectify_and_normalise_shapes_and_white_balance():
    image = np.zeros((200, 200, 3), np.uint8)
    image[:] = (150, 200, 230)  # a cream face under warm light
    quad = order_upright(_tile(100, 100, 60, 80, 0.2))
    crop = rectify(image, quad)
    assert crop.shape == (CROP_HEIGHT, CROP_WIDTH, 3)
    x = normalise_crops(crop[None])
    assert x.shape == (1, 3, CROP_HEIGHT, CROP_WIDTH)
    # every channel of the plain face lands on the same value whatever the light colour
    assert np.allclose(x[0, :, 20, 20], x[0, 0, 20, 20], atol=0.02)


def test_bright_levels_are_numpys_percentile_for_every_pair_of_levels():
    # counted from histograms, the bright level must be what np.percentile gives, to the last bit:
    # the classifier reads crops divided by it. Each row puts level `low` at the rank under the
    # 85th percentile and `high` above it, for every low <= high.
    n = CROP_HEIGHT * CROP_WIDTH
    below = int(np.floor((n - 1) * 0.85))
    pairs = np.array([(low, high) for low in range(256) for high in range(low, 256)], np.uint8)
    rows = np.empty((len(pairs), n), np.uint8)
    rows[:, :below + 1] = pairs[:, :1]
    rows[:, below + 1:] = pairs[:, 1:]
    for chunk in np.array_split(rows, 8):
        crops = np.repeat(chunk.reshape(len(chunk), CROP_HEIGHT, CROP_WIDTH, 1), 3, axis=3)
        crops[..., 1] = 255 - crops[..., 1]  # channels apart
        expected = np.percentile(crops.astype(np.float32).reshape(len(crops), -1, 3), 85, axis=1)
        assert np.array_equal(bright_levels(crops), expected)
    crops = np.random.default_rng(7).integers(0, 256, (50, CROP_HEIGHT, CROP_WIDTH, 3), dtype=np.uint8)
    expected = np.percentile(crops.astype(np.float32).reshape(50, -1, 3), 85, axis=1)
    assert bright_levels(crops).dtype == expected.dtype and np.array_equal(bright_levels(crops), expected)


def test_length_is_numpys_norm_to_the_last_bit():
    vectors = np.random.default_rng(3).normal(size=(20000, 2)) * np.random.default_rng(4).uniform(0.01, 5000, (20000, 1))
    assert all(length(v) == np.linalg.norm(v) for v in vectors)


def test_normalise_crops_gives_white_balance_s_figures_to_the_last_bit():
    # the classifier reads these planes; worked out in place on the planes they must stay the figures
    # of white_balance(crops) - 0.6, with the bright levels given or counted
    from vision.geometry import white_balance

    crops = np.random.default_rng(11).integers(0, 256, (40, CROP_HEIGHT, CROP_WIDTH, 3), dtype=np.uint8)
    crops[:10] //= 40  # dark crops: their bright level is held at 8
    crops[10:20] = np.maximum(crops[10:20], 200)  # bright ones: clipped at 1.5 where over it
    expected = np.ascontiguousarray((white_balance(crops) - 0.6).transpose(0, 3, 1, 2))
    assert np.array_equal(normalise_crops(crops), expected)
    assert np.array_equal(normalise_crops(crops, bright_levels(crops)), expected)
    assert normalise_crops(crops).dtype == np.float32 and normalise_crops(crops).flags.c_contiguous


_QUADS = st.lists(st.tuples(st.floats(0, 4000), st.floats(0, 4000), st.floats(1, 300), st.floats(1, 300),
                            st.sampled_from([0.0, 45.0, 90.0, -45.0, 30.0]) | st.floats(-180, 180),
                            st.sampled_from([1.0, 0.37, 1 / 6])), min_size=1, max_size=20)


@given(_QUADS, st.lists(st.lists(st.floats(-50, 50), min_size=8, max_size=8), max_size=5))
@example(rects=[(0.0, 0.0, 1.0, 1.0, 0.0, 1.0)], loose=[[0.0, 33.0, 0.0, 0.0, 0.0, 0.0, 33.0, 0.0]])  # corners tied
def test_order_upright_many_orders_each_quad_as_order_upright_does(rects, loose):
    # boxes as the detector fits them (exact right angles, quarter turns) and any four points
    quads = [cv2.boxPoints(((x, y), (w, h), angle)).astype(np.float64) / scale for x, y, w, h, angle, scale in rects]
    quads += [np.reshape(points, (4, 2)) for points in loose]
    many = order_upright_many(quads)
    assert many.shape == (len(quads), 4, 2)
    for quad, ordered in zip(quads, many):
        assert np.array_equal(ordered, order_upright(quad))


@given(_QUADS)
def test_quad_sizes_are_quad_size_to_the_last_bit(rects):
    quads = order_upright_many([cv2.boxPoints(((x, y), (w, h), a)).astype(np.float64) / s for x, y, w, h, a, s in rects])
    sizes = quad_sizes(quads)
    assert [tuple(row) for row in sizes] == [quad_size(q) for q in quads]
