"""The eyes' picture of a frame: cells (vision.stillness), the border band, tiles' outlines on the
cell grid, and where a set of cells lies as a person at the table would say it."""
from __future__ import annotations

import cv2
import numpy as np

from .stillness import CELL, WORK_WIDTH

EDGES = ("left", "top", "right", "bottom")


def band_mask(shape: tuple[int, int], width: int) -> np.ndarray:
    """True on the cells within `width` cells of the frame's border."""
    band = np.ones(shape, bool)
    if shape[0] > 2 * width and shape[1] > 2 * width:
        band[width:-width, width:-width] = False
    return band


def edges_of(mask: np.ndarray, width: int) -> tuple[str, ...]:
    """The frame edges (left, top, right, bottom) whose band holds a cell of `mask`."""
    rows, cols = np.nonzero(mask)
    if not len(rows):
        return ()
    h, w = mask.shape
    near = {"left": cols.min() < width, "top": rows.min() < width,
            "right": cols.max() >= w - width, "bottom": rows.max() >= h - width}
    return tuple(edge for edge in EDGES if near[edge])


def where_of(mask: np.ndarray, width: int) -> str:
    """'right edge', 'top and left edges', or 'middle' (nothing at the border)."""
    edges = edges_of(mask, width)
    if not edges:
        return "middle"
    return " and ".join(edges) + (" edges" if len(edges) > 1 else " edge")


def cell_centres(pixels: np.ndarray, grid: tuple[int, int]) -> np.ndarray:
    """A frame-sized mask sampled at the centre of each cell of `grid`."""
    fh, fw = pixels.shape[:2]
    size = CELL * fw / float(WORK_WIDTH)  # a cell's side in frame pixels
    rows = np.minimum(((np.arange(grid[0]) + 0.5) * size).astype(int), fh - 1)
    cols = np.minimum(((np.arange(grid[1]) + 0.5) * size).astype(int), fw - 1)
    return pixels[np.ix_(rows, cols)]


def tiles_mask(tiles, frame_shape: tuple[int, int], grid: tuple[int, int], margin: int) -> np.ndarray:
    """True on the cells a tile's outline covers or touches, grown by `margin` cells.

    Outlines are in frame pixels; they are drawn on the small grey copy's grid and any cell they
    touch counts."""
    fh, fw = frame_shape
    gh, gw = grid
    if not tiles:
        return np.zeros(grid, bool)
    scale = WORK_WIDTH / float(fw)
    canvas = np.zeros((gh * CELL, gw * CELL), np.uint8)
    for outline in tiles:
        points = np.round(np.asarray(outline, np.float64) * scale).astype(np.int32)
        if len(points) >= 3:
            cv2.fillPoly(canvas, [points], 1)
    touched = canvas.reshape(gh, CELL, gw, CELL).max(axis=(1, 3))
    if margin > 0:
        touched = cv2.dilate(touched, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8))
    return touched.astype(bool)

