"""The frame's border band at fine cells: what entered from an edge is seen to leave.

The eyes' cells (vision.stillness) are 1/40 of the frame's width: 48 pixels on a 1080p frame. The
last fingertips of a hand leaving across the border change such a cell by less than sensor noise
allows for, so the border is also watched at fine cells: a band `BAND_CELLS` cells deep along
each edge, each cell 1/240 of the frame's width deep and 1/120 long (8 x 16 pixels at 1080p).
A band is a few thousand pixels of a two-million-pixel frame, so watching it costs little.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .eyes_cells import EDGES

DEPTH_SHARE = 1 / 240  # a fine cell's depth (across the edge), as a share of the frame's width
LENGTH_SHARE = 1 / 120  # its length along the edge
BAND_CELLS = 3  # rows of fine cells along each edge


@dataclass(frozen=True)
class BorderGrid:
    """Where the fine cells lie in a frame of one size: each cell's pixel box and edge."""

    shape: tuple[int, int]  # the frame's height and width
    boxes: np.ndarray  # cells x 4: x0, y0, x1, y1 in frame pixels
    edges: np.ndarray  # cells: index into EDGES
    depth: int
    length: int


@lru_cache(maxsize=8)
def border_grid(shape: tuple[int, int]) -> BorderGrid:
    h, w = shape
    depth = max(2, int(round(w * DEPTH_SHARE)))
    length = max(2 * depth, int(round(w * LENGTH_SHARE)))
    boxes, edges = [], []
    along_x, along_y = w // length, h // length
    for row in range(BAND_CELLS):
        near, far = row * depth, (row + 1) * depth
        for k in range(along_x):
            x0 = k * length
            boxes.append((x0, near, x0 + length, far)); edges.append(EDGES.index("top"))
            boxes.append((x0, h - far, x0 + length, h - near)); edges.append(EDGES.index("bottom"))
        for k in range(along_y):
            y0 = k * length
            boxes.append((near, y0, far, y0 + length)); edges.append(EDGES.index("left"))
            boxes.append((w - far, y0, w - near, y0 + length)); edges.append(EDGES.index("right"))
    return BorderGrid(shape, np.asarray(boxes, np.int32), np.asarray(edges, np.int8), depth, length)


def border_cells(image: np.ndarray, light: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The mean B, G, R of every fine border cell (cells x 3, float32), in `border_grid`'s order.
    `light` (gain, offset per channel): each pixel is first shown as under that light, clipped to
    0..255 as a camera clips (so a near-white edge under a brighter lamp saturates as it would)."""
    h, w = image.shape[:2]
    grid = border_grid((h, w))
    d, n = grid.depth * BAND_CELLS, grid.length
    along_x, along_y = w // n, h // n

    def strip(part: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        part = part if part.ndim == 3 else part[..., None].repeat(3, axis=2)
        if light is not None:
            part = np.clip(part.astype(np.float32) * light[0] + light[1], 0, 255)
        return cv2.resize(part, size, interpolation=cv2.INTER_AREA).astype(np.float32)

    top = strip(image[:d, : along_x * n], (along_x, BAND_CELLS))  # rows from the edge inwards
    bottom = strip(image[h - d:, : along_x * n], (along_x, BAND_CELLS))[::-1]
    left = strip(image[: along_y * n, :d], (BAND_CELLS, along_y))
    right = strip(image[: along_y * n, w - d:], (BAND_CELLS, along_y))[:, ::-1]
    out = []
    for row in range(BAND_CELLS):
        pair_x = np.stack([top[row], bottom[row]], axis=1).reshape(-1, 3)  # top, bottom, top, bottom, ...
        pair_y = np.stack([left[:, row], right[:, row]], axis=1).reshape(-1, 3)
        out += [pair_x, pair_y]
    return np.concatenate(out, axis=0)


def border_edges(grid: BorderGrid, mask: np.ndarray) -> tuple[str, ...]:
    """The edges (in EDGES' order) holding a cell of `mask`."""
    present = set(int(e) for e in grid.edges[mask])
    return tuple(edge for k, edge in enumerate(EDGES) if k in present)


def tiles_on_border(grid: BorderGrid, outlines, margin: float) -> np.ndarray:
    """True on the fine cells a tile's outline (frame pixels) comes within `margin` pixels of."""
    covered = np.zeros(len(grid.boxes), bool)
    if not outlines:
        return covered
    h, w = grid.shape
    scale = 0.25  # a quarter-size canvas: tiles are tens of pixels, cells 8 x 16
    canvas = np.zeros((max(1, int(h * scale)) + 1, max(1, int(w * scale)) + 1), np.uint8)
    for outline in outlines:
        points = np.round(np.asarray(outline, np.float64) * scale).astype(np.int32)
        if len(points) >= 3:
            cv2.fillPoly(canvas, [points], 1)
    grow = int(np.ceil(margin * scale))
    if grow > 0:
        canvas = cv2.dilate(canvas, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    total = cv2.integral(canvas)
    b = np.floor(grid.boxes * scale).astype(np.int64)
    x0, y0 = b[:, 0], b[:, 1]
    x1 = np.maximum(x0 + 1, np.ceil(grid.boxes[:, 2] * scale).astype(np.int64))
    y1 = np.maximum(y0 + 1, np.ceil(grid.boxes[:, 3] * scale).astype(np.int64))
    x1, y1 = np.minimum(x1, canvas.shape[1]), np.minimum(y1, canvas.shape[0])
    sums = total[y1, x1] - total[y0, x1] - total[y1, x0] + total[y0, x0]
    return sums > 0
