"""Stage 0 for a live table: is anything over it? (hands, arms, sleeves, phones, cups)

`find_occluders(frame, reference=None)` runs models/occluder.onnx, a small net that marks
covered cells on a grid at 1/4 of its 192-pixel input, and returns the covered regions
large enough to matter, each with where it is ("left edge", "middle"). It does not use
colour rules: wood, skin and sleeves overlap in colour, so the net was trained on shapes
composited onto real table photos (models/recipe/occluder_data.py).

With a `reference` (the last frame in which the table lay clear), a covered region only
counts where the picture changed against it: a knot in the wood that the net takes for
something is there in the reference too, a hand is not. Without one (the first wait of a
game, the first after a resume) the net decides alone.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .config import DEFAULT_CONFIG, OCCLUDER_LONG_SIDE, OCCLUDER_STRIDE, VisionConfig
from .image import check_image
from .models import OCCLUDER_FILE, load_model
from .stillness import matched_difference

OUTPUT_STRIDE = 4  # the net's output grid is 1/4 of its input


@dataclass(frozen=True)
class OccluderRegion:
    share: float  # of the frame's area
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in frame pixels
    edges: tuple[str, ...]  # frame edges it reaches or nearly ("left", "top", "right", "bottom")
    score: float  # mean probability over the region

    @property
    def where(self) -> str:
        """Where a person at the table would look: 'left edge', 'top and right edges', 'middle'."""
        if self.edges:
            names = list(self.edges)
            return (" and ".join(names) + (" edges" if len(names) > 1 else " edge"))
        return "middle"


@dataclass(frozen=True)
class Occluders:
    regions: tuple[OccluderRegion, ...]  # largest first
    covered: np.ndarray  # H' x W' float32 probabilities on the net's output grid (padding cut off)

    @property
    def clear(self) -> bool:
        return not self.regions

    def describe(self) -> str:
        if not self.regions:
            return "nothing over the table"
        return "something over the table, " + "; ".join(r.where for r in self.regions)


def input_size(height: int, width: int) -> tuple[int, int]:
    """(h, w) of a frame shrunk for the net, before padding to OCCLUDER_STRIDE."""
    scale = OCCLUDER_LONG_SIDE / max(height, width)
    return max(OCCLUDER_STRIDE, round(height * scale)), max(OCCLUDER_STRIDE, round(width * scale))


def shrink_padded(image: np.ndarray) -> np.ndarray:
    """An image (frame or mask) at the net's input size, padded right and bottom to OCCLUDER_STRIDE."""
    h, w = image.shape[:2]
    nh, nw = input_size(h, w)
    small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if nw < w else cv2.INTER_LINEAR)
    return cv2.copyMakeBorder(small, 0, -nh % OCCLUDER_STRIDE, 0, -nw % OCCLUDER_STRIDE, cv2.BORDER_REPLICATE)


def occluder_input(frame: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """BGR frame -> (N=1 x 3 x H x W float32 in -0.5..0.5, (h, w) of the unpadded resize).

    Training composes its samples larger and goes through the same function."""
    small = shrink_padded(frame)
    x = small.astype(np.float32) / 255.0 - 0.5
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None]), input_size(*frame.shape[:2])


def find_occluders(frame: np.ndarray, reference: np.ndarray | None = None,
                   config: VisionConfig = DEFAULT_CONFIG, net=None) -> Occluders:
    frame = check_image(frame, "frame")
    net = net or load_model(OCCLUDER_FILE, config.threads)
    x, (nh, nw) = occluder_input(frame)
    logits = net(x)[0, 0]
    gh, gw = -(-nh // OUTPUT_STRIDE), -(-nw // OUTPUT_STRIDE)
    covered = 1.0 / (1.0 + np.exp(-logits[:gh, :gw]))
    mask = (covered > config.occluder_threshold).astype(np.uint8)
    if reference is not None and mask.any():
        mask &= _changed_cells(frame, reference, (gw, gh), config.occluder_change_level)
    return Occluders(_regions(mask, covered, frame.shape[:2], config), covered.astype(np.float32))


def _changed_cells(frame: np.ndarray, reference: np.ndarray, grid: tuple[int, int], level: int) -> np.ndarray:
    """1 where the frame's colour differs from the reference's on the output grid once the room's light
    is matched (vision.stillness.matched_difference: a lamp dimmed in mid-game changes every cell, a
    hand only its own), grown by a cell: the edge of a hand over a table of the same colour changes
    less than its middle."""
    reference = check_image(reference, "reference frame")
    a = cv2.resize(frame, grid, interpolation=cv2.INTER_AREA).astype(np.float32)
    b = cv2.resize(reference, grid, interpolation=cv2.INTER_AREA).astype(np.float32)
    changed = (matched_difference(a, b) > level).astype(np.uint8)
    return cv2.dilate(changed, np.ones((3, 3), np.uint8))


def _regions(mask: np.ndarray, covered: np.ndarray, shape: tuple[int, int], config: VisionConfig):
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    gh, gw = mask.shape
    fh, fw = shape
    sx, sy = fw / gw, fh / gh
    regions = []
    for label in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[label])
        share = area / float(gh * gw)
        if share < config.occluder_min_share:
            continue
        # the net's grid is coarse and an arm's first cells at the border often come out faint
        mx, my = config.occluder_edge_margin * gw, config.occluder_edge_margin * gh
        edges = tuple(name for name, near in (("left", x <= mx), ("top", y <= my), ("right", x + bw >= gw - mx),
                                              ("bottom", y + bh >= gh - my)) if near)
        score = float(covered[labels == label].mean())
        regions.append(OccluderRegion(share, (x * sx, y * sy, (x + bw) * sx, (y + bh) * sy), edges, score))
    return tuple(sorted(regions, key=lambda r: -r.share))
