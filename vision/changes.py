"""Read only what changed: a camera's frame compared with its last whole read, block by block.

At a game's table most of a frame is the table as the camera last read it whole: only where a hand
moved, or tiles were laid, taken or moved, is anything new. `changed_regions` finds those blocks,
grows them by about a tile, and gives the frame's rectangles that hold them with a tile's context round
them: the detector and the classifier look there only. A face of the whole read none of whose blocks
changed keeps its reading; a face found now counts where its middle lies in the grown blocks and it
lies on no face kept (`TableMemory`). The reference is always a whole read, never a frame read in part:
every frame of a look reads the tiles laid since afresh (the frames of a look still outvote one
another there), and a face kept is one a whole read saw where it still lies. A frame whose changes
cover too much of the play area, a frame of another size or in another play area, and every
changed_whole_every-th frame in a row, are read whole and become the reference.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np

from .area import PlayArea
from .classify import TileGuess
from .config import VisionConfig
from .geometry import quad_sizes


@dataclass(frozen=True)
class Changed:
    """Where a frame differs from the whole read it is compared with."""

    changed: np.ndarray  # bool per block: its mean colour moved
    grown: np.ndarray  # the changed blocks grown by a tile's reach
    block: int  # pixels of the frame per block side
    boxes: tuple[tuple[int, int, int, int], ...]  # frame rectangles (x0, y0, x1, y1) to detect and read again

    @property
    def share(self) -> float:
        """Of the frame's blocks, those that changed (before growing)."""
        return float(self.changed.mean()) if self.changed.size else 0.0

    def holds(self, points: np.ndarray) -> np.ndarray:
        """For (n, 2) frame points: whether each lies in a grown changed block."""
        if len(points) == 0:
            return np.zeros(0, bool)
        rows, columns = self.grown.shape
        x = np.clip((points[:, 0] // self.block).astype(int), 0, columns - 1)
        y = np.clip((points[:, 1] // self.block).astype(int), 0, rows - 1)
        return self.grown[y, x]

    def touches(self, quads: np.ndarray) -> np.ndarray:
        """For (n, 4, 2) frame quads: whether a changed block lies within each one's bounding box."""
        if len(quads) == 0:
            return np.zeros(0, bool)
        rows, columns = self.changed.shape
        # a summed-area table: any changed block in a rectangle of blocks in four lookups
        summed = np.zeros((rows + 1, columns + 1), np.int32)
        summed[1:, 1:] = self.changed.astype(np.int32).cumsum(axis=0).cumsum(axis=1)
        low = np.clip(np.floor(quads.min(axis=1) / self.block).astype(int), 0, [columns, rows])
        high = np.clip(np.floor(quads.max(axis=1) / self.block).astype(int) + 1, 0, [columns, rows])
        (x0, y0), (x1, y1) = low.T, high.T
        return (summed[y1, x1] - summed[y0, x1] - summed[y1, x0] + summed[y0, x0]) > 0

    def box_area(self) -> int:
        return sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in self.boxes)


def block_means(image: np.ndarray, block: int) -> np.ndarray:
    """The frame's mean colour per block of block x block pixels (a last partial row or column of blocks
    filled out with the frame's edge), as int16 so two can be subtracted."""
    height, width = image.shape[:2]
    rows, columns = -(-height // block), -(-width // block)
    if rows * block != height or columns * block != width:
        image = cv2.copyMakeBorder(image, 0, rows * block - height, 0, columns * block - width, cv2.BORDER_REPLICATE)
    # an area resize by a whole factor is a plain box average
    return cv2.resize(image, (columns, rows), interpolation=cv2.INTER_AREA).astype(np.int16)


def changed_regions(image: np.ndarray, before: np.ndarray, block: int, tile_width: float,
                    config: VisionConfig) -> Changed:
    """The blocks of `image` whose mean colour differs from `before`'s (its `block_means`) by more than
    config.changed_level in any channel, grown by a tile's reach, and the rectangles to read again."""
    now = block_means(image, block)
    differs = np.abs(now - before)
    changed = (differs.max(axis=2) if differs.ndim == 3 else differs) > config.changed_level
    # every face with a changed block on it has its middle within a tile of that block
    reach = int(np.ceil(tile_width / block)) + 1
    kernel = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
    grown = cv2.dilate(changed.astype(np.uint8), kernel) > 0
    count, _, stats, _ = cv2.connectedComponentsWithStats(grown.astype(np.uint8), connectivity=8)
    height, width = image.shape[:2]
    context = int(np.ceil(tile_width))  # the detector sees the faces at the rectangle's edge whole
    boxes = [(max(0, x * block - context), max(0, y * block - context),
              min(width, (x + w) * block + context), min(height, (y + h) * block + context))
             for x, y, w, h, _ in stats[1:count]]
    return Changed(changed, grown, block, _merged(boxes))


def _merged(boxes: list[tuple[int, int, int, int]]) -> tuple[tuple[int, int, int, int], ...]:
    """Rectangles that overlap made one, until none do: a face is detected in one rectangle only."""
    boxes = list(boxes)
    while True:
        for i, j in combinations(range(len(boxes)), 2):
            a, b = boxes[i], boxes[j]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                boxes[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                del boxes[j]
                break
        else:
            return tuple(sorted(boxes))


@dataclass(frozen=True)
class WholeRead:
    """A frame read whole: what a later frame of the camera is compared with and keeps faces from."""

    shape: tuple[int, ...]
    area: PlayArea
    scale: float  # detector pixels per frame pixel it was read at
    block: int
    tile_width: float  # frame pixels, the median sure face's
    means: np.ndarray  # block_means of the (exposed) frame
    read: tuple[TileGuess, ...]  # every face the classifier read in it, before the play area split them


class TableMemory:
    """One camera's last whole read of its table in a play area, kept between its reads: a later frame
    of the same size in the same area is read again only where it changed (`changed_regions`)."""

    def __init__(self) -> None:
        self.last: WholeRead | None = None
        self.parts_in_a_row = 0
        self.whole_reads = 0
        self.part_reads = 0

    def recall(self, image: np.ndarray, area: PlayArea | None, config: VisionConfig) -> tuple[WholeRead, Changed] | None:
        """The whole read to keep faces from and what changed since, or None: read the frame whole."""
        last = self.last
        if (not config.read_changed_only or area is None or last is None or last.shape != image.shape
                or last.area != area or self.parts_in_a_row >= config.changed_whole_every):
            return None
        changed = changed_regions(image, last.means, last.block, last.tile_width, config)
        (x0, y0), (x1, y1) = np.floor(area.quad.min(axis=0)), np.ceil(area.quad.max(axis=0))
        if changed.box_area() > config.changed_most * max(1.0, (x1 - x0) * (y1 - y0)):
            return None
        return last, changed

    def forget(self) -> None:
        """The next frame is read whole."""
        self.last = None

    def read_in_part(self) -> None:
        self.part_reads += 1
        self.parts_in_a_row += 1

    def keep(self, image: np.ndarray, area: PlayArea | None, scale: float, read: tuple[TileGuess, ...],
             config: VisionConfig) -> None:
        """A frame read whole becomes the reference (none without a play area: an area found on each
        frame may move)."""
        self.whole_reads += 1
        self.parts_in_a_row = 0
        if area is None or not config.read_changed_only:
            self.last = None
            return
        sure = [g.corners for g in read if g.tile_probability >= config.min_tile_confidence]
        # without faces the table's tile size comes from the look: the detector's tiles are about
        # detect_tile_width wide at it
        width = float(np.median(quad_sizes(sure)[:, 0])) if sure else config.detect_tile_width / scale
        block = int(np.clip(round(width * config.changed_block), 2, 64))
        self.last = WholeRead(image.shape, area, scale, block, width, block_means(image, block), tuple(read))
