"""Quads, rectified crops and crop normalisation, shared by training and inference."""
from __future__ import annotations

import math

import cv2
import numpy as np

from .config import CROP_HEIGHT, CROP_WIDTH


def order_upright(quad: np.ndarray) -> np.ndarray:
    """Order four corners as top-left, top-right, bottom-right, bottom-left of a tile that
    stands with its long side vertical and its top towards the top of the image.

    A face lying exactly sideways keeps an arbitrary one of its two ends as top; the
    classifier's orientation output decides which end is really the top.
    """
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    center = (quad[0] + quad[1] + quad[2] + quad[3]) / 4  # quad.mean(axis=0) to the last bit, at half the cost
    # the two edges through corner 0: the longer one is the tile's height
    e1 = quad[1] - quad[0]
    e2 = quad[3] - quad[0]
    up_axis = e1 if length(e1) > length(e2) else e2
    up = up_axis / max(length(up_axis), 1e-9)
    if up[1] > 0 or (abs(up[1]) < 1e-9 and up[0] > 0):
        up = -up
    right = np.array([-up[1], up[0]])  # image y points down: (0,-1) up gives (1,0) right
    rel = quad - center
    # products and sums written out as order_upright_many writes them: `rel @ up` may fuse them and move the
    # last bit, which decides between corners tied on a face with two corners at one point
    a = rel[:, 0] * up[0] + rel[:, 1] * up[1]
    b = rel[:, 0] * right[0] + rel[:, 1] * right[1]
    tl = quad[np.argmax(a - b)]
    tr = quad[np.argmax(a + b)]
    br = quad[np.argmax(-a + b)]
    bl = quad[np.argmax(-a - b)]
    return np.array([tl, tr, br, bl])


def order_upright_many(quads) -> np.ndarray:
    """`order_upright` of each of N quads (N x 4 x 2) at once: the same arithmetic on whole columns, so
    the same corners (tests/vision/test_geometry.py); a read orders hundreds of faces."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if len(q) == 0:
        return q.copy()
    center = (q[:, 0] + q[:, 1] + q[:, 2] + q[:, 3]) / 4
    e1 = q[:, 1] - q[:, 0]
    e2 = q[:, 3] - q[:, 0]
    long1, long2 = np.sqrt(e1[:, 0] * e1[:, 0] + e1[:, 1] * e1[:, 1]), np.sqrt(e2[:, 0] * e2[:, 0] + e2[:, 1] * e2[:, 1])
    first = long1 > long2
    up = np.where(first[:, None], e1, e2) / np.maximum(np.where(first, long1, long2), 1e-9)[:, None]
    flip = (up[:, 1] > 0) | ((np.abs(up[:, 1]) < 1e-9) & (up[:, 0] > 0))
    up[flip] = -up[flip]
    rel = q - center[:, None, :]
    a = rel[:, :, 0] * up[:, None, 0] + rel[:, :, 1] * up[:, None, 1]
    b = rel[:, :, 0] * -up[:, None, 1] + rel[:, :, 1] * up[:, None, 0]
    picks = np.stack([np.argmax(a - b, axis=1), np.argmax(a + b, axis=1),
                      np.argmax(-a + b, axis=1), np.argmax(-a - b, axis=1)], axis=1)
    return np.take_along_axis(q, picks[:, :, None], axis=1)


def flip_quad(quad: np.ndarray) -> np.ndarray:
    """The same face turned half round: the old bottom-right becomes top-left."""
    quad = np.asarray(quad)
    return quad[[2, 3, 0, 1]]


def rectify(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Warp the face bounded by quad (TL, TR, BR, BL) to an upright CROP_WIDTH x CROP_HEIGHT crop."""
    dst = np.float32([[0, 0], [CROP_WIDTH, 0], [CROP_WIDTH, CROP_HEIGHT], [0, CROP_HEIGHT]])
    M = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    side = float(np.linalg.norm(np.asarray(quad[3]) - np.asarray(quad[0])))
    # shrinking a big face: average, don't sample, or thin strokes alias away
    flags = cv2.INTER_AREA if side > 1.5 * CROP_HEIGHT else cv2.INTER_LINEAR
    return cv2.warpPerspective(image, M, (CROP_WIDTH, CROP_HEIGHT), flags=flags, borderMode=cv2.BORDER_REPLICATE)


def normalise_crops(crops: np.ndarray, bright: np.ndarray | None = None) -> np.ndarray:
    """uint8 N x H x W x 3 BGR crops -> float32 N x 3 x H x W, white-balanced on the face.

    Dividing each channel by the crop's bright level turns any cream face under any light
    into the same white, so ink colour is judged against the tile, not the lamp. `bright`:
    the crops' bright_levels when already known. The figures of white_balance(crops) - 0.6,
    worked out on the planes (apart while still bytes) in place.
    """
    levels = bright_levels(crops) if bright is None else bright
    x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2)).astype(np.float32)
    x /= np.maximum(levels, 8.0)[:, :, None, None]
    np.clip(x, 0.0, 1.5, out=x)
    x -= 0.6
    return x


_BRIGHT_PERCENT = 85  # a crop's bright level: this percentile of each channel (the face)


def white_balance(crops: np.ndarray) -> np.ndarray:
    """uint8 N x H x W x 3 BGR crops -> float32 N x H x W x 3, each channel divided by the
    crop's bright level (its 85th percentile: the face) and clipped to 0..1.5."""
    x = crops.astype(np.float32)
    x = x / np.maximum(bright_levels(crops)[:, None, None, :], 8.0)
    return np.clip(x, 0.0, 1.5)


def bright_levels(crops: np.ndarray) -> np.ndarray:
    """Each uint8 crop's 85th percentile per channel (N x 3 float32), as np.percentile gives it on the
    crops as float32. Crops of the reading's size are counted from histograms of their 256 levels
    (a crop is never sorted), and interpolated as np.percentile does for their pixel count: the same
    figures for every pair of levels (tests/vision/test_geometry.py); other sizes go to np.percentile."""
    n = crops.shape[1] * crops.shape[2]
    if crops.dtype != np.uint8 or n != CROP_HEIGHT * CROP_WIDTH or crops.ndim != 4 or crops.shape[3] != 3:
        return np.percentile(crops.astype(np.float32).reshape(len(crops), -1, 3), _BRIGHT_PERCENT, axis=1)
    position = np.float64(n - 1) * (_BRIGHT_PERCENT / 100)
    below = int(np.floor(position))
    levels = crops.reshape(len(crops), n, 3) + np.arange(len(crops) * 3, dtype=np.int64).reshape(-1, 1, 3) * 256
    counts = np.bincount(levels.ravel(), minlength=len(crops) * 3 * 256).reshape(len(crops), 3, 256).cumsum(axis=2)
    # the level of rank r: how many levels hold r or fewer pixels at or under them
    low = (counts <= below).sum(axis=2).astype(np.float32)
    high = (counts <= min(below + 1, n - 1)).sum(axis=2).astype(np.float32)
    gamma = np.float32(position - below)
    step = high - low
    return high - step * (1 - gamma) if gamma >= 0.5 else low + step * gamma


def axes_apart(a, b):
    """Radians between two axes (lines without a sense) at angles a and b: 0 .. pi/2."""
    return np.abs((np.asarray(a) - b + np.pi / 2) % np.pi - np.pi / 2)


def quad_size(quad: np.ndarray) -> tuple[float, float]:
    """(width, height) of an upright-ordered quad."""
    q = np.asarray(quad, np.float64)
    w = (length(q[1] - q[0]) + length(q[2] - q[3])) / 2
    h = (length(q[3] - q[0]) + length(q[2] - q[1])) / 2
    return float(w), float(h)


def quad_sizes(quads) -> np.ndarray:
    """`quad_size` of each of N upright-ordered quads (N x 4 x 2), as an N x 2 array: the same figures."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)

    def lengths(v):
        return np.sqrt(v[:, 0] * v[:, 0] + v[:, 1] * v[:, 1])

    w = (lengths(q[:, 1] - q[:, 0]) + lengths(q[:, 2] - q[:, 3])) / 2
    h = (lengths(q[:, 3] - q[:, 0]) + lengths(q[:, 2] - q[:, 1])) / 2
    return np.column_stack([w, h])


def length(vector) -> float:
    """The length of a 2-vector: np.linalg.norm's figure to the last bit (the root of x*x + y*y),
    without its dispatch, which costs four times the arithmetic on the thousands of faces' sides of a read."""
    x, y = float(vector[0]), float(vector[1])
    return math.sqrt(x * x + y * y)
