"""One way of comparing camera frames: a small grey copy, averaged into cells.

Cells, not the whole frame: one tile taken away, or an arm over a corner, changes a few cells a
lot and the frame's mean hardly at all; sensor noise averages out inside a cell. The settle wait
and the eyes (`vision.eyes`) compare frames only through these functions.
"""
from __future__ import annotations

import cv2
import numpy as np

WORK_WIDTH = 240  # pixels: plenty to see a moving tile, cheap to compare
UNCLIPPED = 245.0  # colour levels: brighter values may be clipped at white, and fit no lamp's gain
CELL = 6  # pixels of that copy averaged into one cell (1/40 of the width: a tile covers a cell or more)


def small_grey(frame: np.ndarray) -> np.ndarray:
    """A small grey copy to compare frames by (int16, so differences do not wrap)."""
    h, w = frame.shape[:2]
    size = (WORK_WIDTH, max(1, int(round(h * WORK_WIDTH / float(w)))))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return small.astype(np.int16)


def cells(grey: np.ndarray) -> np.ndarray:
    """The mean grey of each CELL x CELL block of a small grey copy (float32)."""
    h, w = grey.shape
    return cv2.resize(grey.astype(np.float32), (max(1, w // CELL), max(1, h // CELL)), interpolation=cv2.INTER_AREA)


def frame_cells(frame: np.ndarray) -> np.ndarray:
    return cells(small_grey(frame))


def colour_cells(frame: np.ndarray) -> np.ndarray:
    """The mean B, G, R of each cell (float32, cells x 3): skin and wood can be one grey and two colours."""
    return cells_of_small(small_colour(frame))


def small_colour(frame: np.ndarray) -> np.ndarray:
    """A small colour copy, WORK_WIDTH wide (float32, B, G, R): what colour cells are averaged from."""
    h, w = frame.shape[:2]
    sh = max(1, int(round(h * WORK_WIDTH / float(w))))
    small = cv2.resize(frame, (WORK_WIDTH, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
    return small if small.ndim == 3 else np.repeat(small[..., None], 3, axis=2)


def cells_of_small(small: np.ndarray) -> np.ndarray:
    """The colour cells of a small copy (`small_colour`)."""
    h, w = small.shape[:2]
    grid = cv2.resize(small, (max(1, w // CELL), max(1, h // CELL)), interpolation=cv2.INTER_AREA)
    return grid if grid.ndim == 3 else grid[..., None]


def light_change(small_now: np.ndarray, small_before: np.ndarray) -> np.ndarray:
    """How much each colour cell changed between two frames (their small copies, `small_colour`) once
    the room's light is matched, the largest over B, G, R.

    A lamp scales every pixel, and the camera clips what goes past white: a cell half of bright
    tile face and half of table is no longer a scaled copy of itself. So each frame's pixels are
    shown in the other's light and clipped as the camera clips, then averaged into cells; what
    differs both ways changed (a hand or a phone does; a brighter or a dimmer lamp does not)."""
    cells_now, cells_before = cells_of_small(small_now), cells_of_small(small_before)
    if small_now.shape != small_before.shape:
        return np.full(cells_before.shape[:2], np.inf, np.float32)
    return np.minimum(_shown_difference(small_before, cells_before, cells_now),
                      _shown_difference(small_now, cells_now, cells_before))


def _shown_difference(small: np.ndarray, cells: np.ndarray, other_cells: np.ndarray) -> np.ndarray:
    gain, offset = light_fit(cells, other_cells, below=UNCLIPPED)
    shown = cells_of_small(np.clip(small * gain + offset, 0, 255))
    return np.abs(shown - other_cells).max(axis=-1)


def channel_max(image: np.ndarray) -> np.ndarray:
    """The largest of each pixel's channels (`image.max(axis=-1)`, the same values): numpy reduces a last
    axis of three slowly, a frame's worth took 17 ms where OpenCV takes under one."""
    if image.ndim != 3 or image.shape[-1] != 3 or image.dtype not in (np.uint8, np.float32):
        return image.max(axis=-1)
    return cv2.max(cv2.max(image[..., 0], image[..., 1]), image[..., 2]).reshape(image.shape[:2])


def grey_of(colour: np.ndarray) -> np.ndarray:
    """Grey cells from colour cells (the weights of cv2's BGR to grey; a mean of means is a mean)."""
    return colour @ np.float32([0.114, 0.587, 0.299])


def grey_difference(a: np.ndarray, b: np.ndarray) -> float:
    """The largest change of a cell's mean between two small grey copies; infinite when their shapes differ."""
    if a.shape != b.shape:
        return float("inf")
    return float(np.abs(cells(a) - cells(b)).max())


def frame_difference(frame: np.ndarray, other: np.ndarray) -> float:
    """The largest change of a cell's mean grey (0..255) between two frames; infinite when their shapes differ."""
    return grey_difference(small_grey(frame), small_grey(other))


def matched_difference(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """|now - before| per cell after matching `now`'s overall light to `before`'s; for colour cells, the
    largest over the three channels, each matched on its own.

    A cloud or a lamp switched on changes every cell by about the same factor and offset; a hand
    changes a part. So gain and offset are fitted over all cells, then again over the cells that
    fitted (the hand's cells left out), and what is left is what changed. A camera clips at white:
    the fit takes only cells under UNCLIPPED, and a clipped cell counts only as far as the other
    side is darker than the clip would allow (`light_residual`)."""
    if now.shape != before.shape:
        return np.full(before.shape[:2], np.inf, np.float32)
    if now.ndim == 3:
        return np.max([_matched(now[..., c], before[..., c]) for c in range(now.shape[2])], axis=0)
    return _matched(now, before)


def light_residual(now: np.ndarray, before: np.ndarray, gain, offset, clip: float = UNCLIPPED) -> np.ndarray:
    """|now shown in before's light - before|, where a value at or above `clip` on either side says only
    "at least this bright": a face clipped under a brighter lamp is no change, a dark hand over it is."""
    mapped = now.astype(np.float32) * gain + offset
    difference = mapped - before
    residual = np.abs(difference)
    now_clipped, before_clipped = now >= clip, before >= clip
    residual = np.where(now_clipped, np.maximum(difference, 0), residual)
    residual = np.where(before_clipped, np.maximum(-difference, 0), residual)
    return np.where(now_clipped & before_clipped, 0, residual).astype(np.float32)


def light_fit(now: np.ndarray, before: np.ndarray, below: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The gain and offset per channel that match `now`'s overall light to `before`'s (cells, grey or
    colour): what `matched_difference` takes away before comparing. `below`: only cells under this
    level in both are fitted (a camera clips at white, so near-white cells say nothing of a gain)."""
    if now.ndim == 3:
        fits = [_fit_below(now[..., c], before[..., c], below) for c in range(now.shape[2])]
        return np.float32([g for g, _ in fits]), np.float32([o for _, o in fits])
    gain, offset = _fit_below(now, before, below)
    return np.float32([gain]), np.float32([offset])


def _fit_below(now: np.ndarray, before: np.ndarray, below: float | None) -> tuple[float, float]:
    if below is not None:
        keep = (now < below) & (before < below)
        if keep.sum() >= 8:
            return _fit(now[keep], before[keep])
    return _fit(now, before)


def _matched(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    gain, offset = _fit_below(now, before, UNCLIPPED)
    return light_residual(now, before, gain, offset)


RATIO_FLOOR = 16.0  # grey levels: a cell darker than this says little of a lamp's gain by its ratio


def _fit(now: np.ndarray, before: np.ndarray) -> tuple[float, float]:
    x, y = now.ravel().astype(np.float64), before.ravel().astype(np.float64)
    if not len(x):
        return 1.0, 0.0
    # the first cells fitted are those the light alone could explain: a lamp scales every pixel, so the first
    # gain is the cells' median ratio (where a ratio says something), and tiles laid on a quarter of a bare table
    # are outliers from the start, not a gain of 0.4 that darkens the wood. A lamp's gain found only among dark
    # cells (a dark floor around a pale top whose bright channel clips) is no lamp of a different colour
    lit = x > RATIO_FLOOR
    gain = min(max(_median(y[lit] / x[lit]), 0.4), 2.5) if lit.sum() >= 8 else 1.0
    offset = _median(y - gain * x)
    for _ in range(2):
        residual = np.abs(gain * x + offset - y)
        keep = residual <= max(4.0, _percentile(residual, 60) * 3)
        if keep.sum() < 8 or np.ptp(x[keep]) < 1e-6:
            gain, offset = 1.0, _median(y - x)
        else:
            gain = min(max(_slope(x[keep], y[keep]), 0.4), 2.5)  # a lamp, not a black frame
            offset = _median(y[keep] - gain * x[keep])
    return gain, offset


# The light fit takes six order statistics of a few hundred cells on every comparison; np.median and
# np.percentile spend most of their time on generality (axes, NaNs, many quantiles) around one partition.
# These give their values (the same interpolation, term for term) for a 1-D float array without NaNs.

def _median(values: np.ndarray) -> float:
    """`np.median(values)`."""
    n = len(values)
    k = n // 2
    if n % 2:
        return float(np.partition(values, k)[k])
    part = np.partition(values, (k - 1, k))
    return float((part[k - 1] + part[k]) / 2)


def _percentile(values: np.ndarray, q: float) -> float:
    """`np.percentile(values, q)` (its default, linear interpolation between the two nearest ranks)."""
    n = len(values)
    virtual = (n - 1) * (q / 100)
    if virtual >= n - 1:
        return float(np.max(values))
    below = int(np.floor(virtual))
    part = np.partition(values, (below, below + 1))
    a, b = part[below], part[below + 1]
    gamma = virtual - below
    step = b - a
    return float(b - step * (1 - gamma)) if gamma >= 0.5 else float(a + step * gamma)


def _slope(x: np.ndarray, y: np.ndarray) -> float:
    """The least-squares slope of y on x (what `np.polyfit(x, y, 1)[0]` gives, in one pass and no matrix
    solve: the fit runs on every frame a wait compares)."""
    dx = x - x.mean()
    # sums of products, not a dot product: BLAS's dot runs threaded on long arrays, and beside another busy
    # process on two cores its threads' hand-offs took a millisecond for what a plain sum does in microseconds
    spread = float(np.sum(dx * dx))
    return float(np.sum(dx * (y - y.mean()))) / spread if spread > 0 else 0.0
