"""The eyes' faster comparisons give the answers of the plain ones they stand in for: 8-bit residuals
under the same light, overlapping boxes before shared areas, a closed-form slope for the light fit, the
largest of three channels taken by OpenCV."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.eyes_tiles import _clipped_residual, _shared, _touching, in_place
from vision.eyes_values import EyesSettings
from vision.stillness import _slope, light_residual


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bright=st.booleans())
def test_the_8_bit_residual_is_the_residual_under_the_same_light(seed, bright):
    rng = np.random.default_rng(seed)
    low = 200 if bright else 0  # near white, many pixels at or above the clip level
    now = rng.integers(low, 256, (23, 31, 3), dtype=np.uint8)
    before = np.clip(now.astype(int) + rng.integers(-60, 61, now.shape), 0, 255).astype(np.uint8)
    plain = light_residual(now.astype(np.float32), before.astype(np.float32), 1.0, 0.0)
    assert np.array_equal(_clipped_residual(now, before).astype(np.float32), plain)


def _tile(x: float, y: float, turn: float) -> tuple:
    c, s = np.cos(turn), np.sin(turn)
    return tuple((x + c * dx - s * dy, y + s * dx + c * dy) for dx, dy in ((0, 0), (40, 0), (40, 55), (0, 55)))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_only_touching_outlines_share_area(seed):
    rng = np.random.default_rng(seed)
    old = [_tile(rng.uniform(0, 600), rng.uniform(0, 400), rng.uniform(0, 0.5)) for _ in range(25)]
    now = [_tile(o[0][0] + rng.uniform(-45, 45), o[0][1] + rng.uniform(-45, 45), rng.uniform(0, 0.5)) for o in old]
    for outline in now:
        near = _touching(outline, old)
        assert max((_shared(outline, o) for o in old), default=0.0) == max((_shared(outline, o) for o in near), default=0.0)
        assert all(_shared(outline, o) == 0.0 for o in old if o not in near)
        assert in_place(outline, old) == any(_shared(outline, o) >= EyesSettings().in_place_share for o in old)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_slope_is_the_least_squares_slope(seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 255, 500)
    y = rng.uniform(0.4, 2.5) * x + rng.normal(0, 6, 500) + rng.uniform(-30, 30)
    assert abs(_slope(x, y) - float(np.polyfit(x, y, 1)[0])) <= 1e-9 * abs(float(np.polyfit(x, y, 1)[0]))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), float_=st.booleans(), height=st.integers(1, 40), width=st.integers(1, 40))
def test_the_channel_max_is_numpys(seed, float_, height, width):
    from vision.stillness import channel_max

    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (height, width, 3)).astype(np.float32 if float_ else np.uint8)
    if float_:
        image += rng.random(image.shape, dtype=np.float32)
    found = channel_max(image)
    assert found.dtype == image.dtype
    assert np.array_equal(found, image.max(axis=-1))


@settings(max_examples=150, deadline=None)
@given(values=st.lists(st.floats(-1e4, 1e4, allow_nan=False, width=64), min_size=1, max_size=300),
       q=st.sampled_from([0.0, 10.0, 37.5, 50.0, 60.0, 90.0, 100.0]))
def test_the_light_fits_order_statistics_are_numpys(values, q):
    from vision.stillness import _median, _percentile

    array = np.asarray(values, np.float64)
    assert _median(array.copy()) == float(np.median(array))
    assert _percentile(array.copy(), q) == float(np.percentile(array, q))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), cells=st.integers(8, 900))
def test_the_light_fit_finds_what_numpys_statistics_find(seed, cells):
    """The fit with its own order statistics is the fit with numpy's (gain and offset equal)."""
    from unittest import mock

    from vision import stillness

    rng = np.random.default_rng(seed)
    now = rng.uniform(0, 255, cells)
    before = now * rng.uniform(0.5, 1.8) + rng.normal(0, 3, cells) + rng.uniform(-20, 20)
    before[: cells // 4] = rng.uniform(0, 255, cells // 4)  # a hand over a quarter of the cells
    fitted = stillness._fit(now, before)
    with mock.patch.object(stillness, "_median", lambda v: float(np.median(v))), \
            mock.patch.object(stillness, "_percentile", lambda v, q: float(np.percentile(v, q))):
        assert stillness._fit(now, before) == fitted
