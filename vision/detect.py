"""Stage 2: find_tiles - where the tile faces are, as quads in image pixels.

The segmentation net (models/tile_seg.onnx) marks each face and each face's core (the
face shrunk to CORE_SHRINK of its size around its centre); one connected blob of core is
one tile, and its rotated bounding box grown back (config.core_grow) is the face.
Shrinking is what keeps tiles that touch in a meld apart.
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np

from .config import DETECT_STRIDE, VisionConfig
from .geometry import axes_apart, order_upright, order_upright_many, quad_sizes


@dataclass(frozen=True)
class TileCandidate:
    corners: np.ndarray  # (4, 2) image pixels, TL TR BR BL with the top towards the image top
    score: float  # mean core probability of the blob
    # Other quads to try when the face came out nearly square, so its angle is a guess:
    # tile-shaped, same area and centre, turned in even steps (the classifier picks)
    other_turns: Sequence[np.ndarray] = ()  # a tuple, or UnsureTurns worked out when first read
    # the other turns are the same face drawn another way (vision/perspective.py: sheared along its set's line,
    # or turned back whole), not other angles: read only when the first drawing reads unsure
    redrawn: bool = False

    @property
    def center(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)


class _CoreBlob(NamedTuple):
    rect: tuple  # cv2.minAreaRect of the blob, detector pixels x 2
    score: float  # mean core probability
    area: int  # pixels
    peaks: int  # tile middles inside it (see _peaks_per_core)
    face_blob: int  # label of the face blob it lies on (0: none)


def resize_for_detector(image: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """Resize so the long side is long_side, then pad right/bottom to a multiple of DETECT_STRIDE."""
    h, w = image.shape[:2]
    scale = long_side / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(image, (nw, nh), interpolation=interp)
    pw = -nw % DETECT_STRIDE
    ph = -nh % DETECT_STRIDE
    if pw or ph:
        resized = cv2.copyMakeBorder(resized, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    return resized, scale


def detector_tensor(resized: np.ndarray) -> np.ndarray:
    """BGR uint8 H x W x 3 (or N x H x W x 3) -> float32 N x 3 x H x W in -0.5..0.5."""
    frames = resized[None] if resized.ndim == 3 else resized
    # planes apart while still bytes: a quarter of the memory moved, then the same arithmetic in place
    x = np.ascontiguousarray(frames.transpose(0, 3, 1, 2)).astype(np.float32)
    x /= 255.0
    x -= 0.5
    return x


def _blobs(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """cv2.connectedComponentsWithStats of a 0/1 mask, 4-connected, without the centroids: the count, the
    labels and, for each blob (label 1 on), its box and area (the background's row: the frame's box and the
    pixels left). OpenCV's statistics cost less than scipy's boxes of the labels and a count of them, on the
    maps of a 1000x750 photo and of a 4K frame's second look alike."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    return count, labels, stats


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def candidates_from_maps(maps: np.ndarray, scale: float, config: VisionConfig, image_shape) -> tuple[TileCandidate, ...]:
    """Face and core logits (2 x h x w, half the detector resolution) -> tile quads in the image.

    Each core blob is a tile. Where a tile lies alone (its face blob holds no other core),
    the face blob itself gives the sharper outline; in a meld the faces run together, so
    the core, grown back, gives it.
    """
    # thresholds compared in logit space: the sigmoid of a whole 4K map is needless work
    face_logit = cv2.resize(maps[0].astype(np.float32), None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
    core_logit = cv2.resize(maps[1].astype(np.float32), None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
    count, labels, stats = _blobs((core_logit > _logit(config.core_threshold)).astype(np.uint8))
    peaks = _peaks_per_core(core_logit, labels, count, config)
    face_count, face_labels, face_stats = _blobs((face_logit > _logit(config.face_threshold)).astype(np.uint8))
    on_core = labels > 0
    core_of_pixel = labels[on_core]
    # each core blob's mean core probability and the face blob most of it lies on, for all blobs at once
    scores = np.bincount(core_of_pixel, weights=_sigmoid(core_logit[on_core]), minlength=count) / np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
    faces_under = _main_face_blobs(core_of_pixel, face_labels[on_core], count, face_count)
    blobs = []
    for label in np.nonzero(stats[1:, cv2.CC_STAT_AREA] >= config.min_core_pixels)[0] + 1:
        x0, y0, bw, bh = stats[label, :4]
        mask = labels[y0: y0 + bh, x0: x0 + bw] == label
        blobs.append(_CoreBlob(
            rect=_mask_rect(mask, x0, y0), score=float(scores[label]),
            area=int(stats[label, cv2.CC_STAT_AREA]), peaks=int(peaks[label]),
            face_blob=int(faces_under[label]) if faces_under is not None
            else int(np.bincount(face_labels[y0: y0 + bh, x0: x0 + bw][mask]).argmax())))
    blobs = _without_core_fragments(blobs, config)
    single_core = _typical_core(blobs, config)
    face_rects: dict[int, tuple] = {}  # face blob label -> its rectangle, each fitted once

    def face_rect(face_blob: int) -> tuple:
        if face_blob not in face_rects:
            x0, y0, bw, bh = face_stats[face_blob, :4]
            face_rects[face_blob] = _mask_rect(face_labels[y0: y0 + bh, x0: x0 + bw] == face_blob, x0, y0)
        return face_rects[face_blob]

    found: list[tuple[tuple, float, int]] = []  # (face rect, score, face blob label)
    cores_on_face = np.bincount([b.face_blob for b in blobs], minlength=face_count)
    for core in blobs:
        # A lone core on a face blob shaped like one tile is one tile, however its core came
        # out; but two tiles side by side also make a face blob of about a tile's aspect, and
        # their cores, run together, still show two middles.
        alone = (core.face_blob > 0 and cores_on_face[core.face_blob] == 1 and core.peaks <= 1
                 and _tile_shaped(face_rect(core.face_blob)[1], config))
        faces = [core.rect] if alone else _faces_of_blob(core.rect, config, single_core, core.peaks)
        blob = core.face_blob if len(faces) == 1 else 0
        found += [(face, core.score, blob) for face in faces]
    cores_per_face = np.bincount([b for _, _, b in found], minlength=face_count)
    drawn: list[tuple[tuple, float, np.ndarray]] = []
    h, w = image_shape[:2]
    for face, score, blob in found:
        if blob > 0 and cores_per_face[blob] == 1:
            (fx, fy), (fw, fh), fa = face_rect(blob)
            if _tile_shaped((fw, fh), config):
                face = ((fx, fy), (fw * config.face_grow, fh * config.face_grow), fa)
        if min(face[1]) < config.min_tile_side:
            continue
        drawn.append((face, score, cv2.boxPoints(face).astype(np.float64) / scale))
    centres = np.asarray([quad for _, _, quad in drawn], np.float64).reshape(-1, 4, 2).mean(axis=1)  # each one's mean, to the last bit
    kept = [d for d, (x, y) in zip(drawn, centres.tolist()) if 0 <= x < w and 0 <= y < h]
    upright = order_upright_many([quad for _, _, quad in kept])
    return tuple(TileCandidate(upright[k], score, _other_turns(face, scale, config)) for k, (face, score, _) in enumerate(kept))


_DENSE_PAIRS = 1 << 22  # core blobs x face blobs counted in one table up to this size (a 4K frame's: some 10^4)


def _main_face_blobs(core_of_pixel: np.ndarray, face_of_pixel: np.ndarray, count: int, face_count: int) -> np.ndarray | None:
    """Per core blob label, the face blob label most of its pixels lie on (the lowest of equals, as
    np.bincount(...).argmax() of its own pixels gives it); None when the table of pairs would be too big."""
    if count * face_count > _DENSE_PAIRS:
        return None
    pairs = np.bincount(core_of_pixel.astype(np.int64) * face_count + face_of_pixel, minlength=count * face_count)
    return pairs.reshape(count, face_count).argmax(axis=1)


def lie_like_neighbours(candidates: tuple[TileCandidate, ...], config: VisionConfig) -> tuple[TileCandidate, ...]:
    """A face of unsure angle lies as its sure neighbours do, and is their size, when it has
    any and its own fitted angle is near theirs.

    Trying every turn and keeping the surest reading lets a narrow digit win at the wrong
    angle (a 1 turned 15-30 degrees is read as 7 with full confidence). A set's tiles lie
    alike and are of one size, so a face between sure neighbours needs no turns at all.
    """
    sure = [c for c in candidates if not c.other_turns]
    if not sure or len(sure) == len(candidates):
        return candidates
    centres = np.array([c.corners.mean(axis=0) for c in sure])
    sizes = quad_sizes([c.corners for c in sure])
    # angle of each sure face's width axis, doubled so that opposite directions agree
    widths = np.array([c.corners[1] - c.corners[0] for c in sure])
    doubled = 2.0 * np.arctan2(widths[:, 1], widths[:, 0])
    out = []
    for c in candidates:
        if not c.other_turns:
            out.append(c)
            continue
        centre = c.corners.mean(axis=0)
        _, height = _tile_shape(c.corners, config)
        near = np.linalg.norm(centres - centre, axis=1) <= config.unsure_angle_reach * height
        angle = 0.5 * np.arctan2(np.sin(doubled[near]).sum(), np.cos(doubled[near]).sum())
        own = c.corners[1] - c.corners[0]
        apart = axes_apart(np.arctan2(own[1], own[0]), angle)
        # a tile turned across its neighbours (strewn, not in a set) keeps its own turns
        if not near.any() or np.degrees(apart) > config.unsure_angle_agreement:
            out.append(c)
            continue
        width, height = np.median(sizes[near], axis=0)
        out.append(TileCandidate(_face_quad(centre, width, height, angle), c.score))
    return tuple(out)


def lie_along_sets(candidates: tuple[TileCandidate, ...], config: VisionConfig) -> tuple[TileCandidate, ...]:
    """A face of unsure angle that stands in a line of faces lies along that line.

    Under a tilted camera and some blur whole sets come out nearly square, so no sure
    neighbour settles their angle; but a set's tiles stand side by side, so the line
    through a face's nearest neighbours is its width axis. The nearest neighbours are
    the faces within `set_line_spacing` of the nearest one's distance: two or more must
    lie on one line through the face (within `set_line_agreement`); a single one counts
    when its own nearest neighbours make such a line through this face (a set's end).
    The line must also agree with the face's own fitted sides (`set_line_fit`, modulo a
    quarter turn: a square's sides say its angle but not which side is long). Otherwise
    the face keeps its turns.
    """
    if len(candidates) < 2 or not any(c.other_turns for c in candidates):
        return candidates
    centres = np.array([c.corners.mean(axis=0) for c in candidates])
    distance = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    np.fill_diagonal(distance, np.inf)
    nearest = [np.nonzero(row <= config.set_line_spacing * row.min())[0] for row in distance]

    def line_through(i: int) -> float | None:
        """The doubled angle of the line through face i and its nearest neighbours, if they make one."""
        if len(nearest[i]) < 2:
            return None
        d = centres[nearest[i]] - centres[i]
        doubled = 2.0 * np.arctan2(d[:, 1], d[:, 0])
        mean = np.arctan2(np.sin(doubled).sum(), np.cos(doubled).sum())
        spread = np.abs((doubled - mean + np.pi) % (2 * np.pi) - np.pi) / 2
        return float(mean) if np.degrees(spread.max()) <= config.set_line_agreement else None

    out = []
    for i, c in enumerate(candidates):
        doubled = line_through(i) if c.other_turns else None
        if c.other_turns and doubled is None and len(nearest[i]) == 1:
            j = int(nearest[i][0])
            if i in nearest[j]:  # the end of a set: the line runs on through its neighbour
                doubled = line_through(j)
        if doubled is None:
            out.append(c)
            continue
        angle = doubled / 2
        own = c.corners[1] - c.corners[0]
        off = np.degrees(abs((np.arctan2(own[1], own[0]) - angle + np.pi / 4) % (np.pi / 2) - np.pi / 4))
        if off > config.set_line_fit:
            out.append(c)
            continue
        # tile-shaped, of the fitted area: the fitted square cuts off a tile's top and bottom
        out.append(TileCandidate(_face_quad(centres[i], *_tile_shape(c.corners, config), angle), c.score))
    return tuple(out)


def _tile_shape(corners: np.ndarray, config: VisionConfig) -> tuple[float, float]:
    """(width, height) of a tile-shaped face (config.tile_aspect) of the quad's area."""
    area = abs(float(cv2.contourArea(np.asarray(corners, np.float32))))
    width = float(np.sqrt(area * config.tile_aspect))
    return width, width / config.tile_aspect


def _face_quad(centre: np.ndarray, width: float, height: float, angle: float) -> np.ndarray:
    """An upright-ordered quad of the given size around centre, its width axis at angle (radians)."""
    across = np.array([np.cos(angle), np.sin(angle)]) * width / 2
    down = np.array([-np.sin(angle), np.cos(angle)]) * height / 2
    return order_upright(np.array([centre - across - down, centre + across - down,
                                   centre + across + down, centre - across + down]))


def _other_turns(face, scale: float, config: VisionConfig) -> "tuple[np.ndarray, ...] | UnsureTurns":
    (cx, cy), (fw, fh), angle = face
    if min(fw, fh) <= 0 or max(fw, fh) / min(fw, fh) >= config.unsure_angle_aspect or config.angle_tries < 2:
        return ()
    return UnsureTurns(face, scale, config.tile_aspect, config.angle_tries)


class UnsureTurns(Sequence):
    """The turned quads of a face of unsure angle (tile-shaped, of its area, turned in even steps), worked
    out when first looked at: most such faces lie as their sure neighbours do and lose their turns
    (`lie_like_neighbours`, `lie_along_sets`) before the classifier reads any, and a frame looked at
    twice drops its first look's faces whole. Truthful from the start (a face has them), read like a tuple."""

    def __init__(self, face, scale: float, tile_aspect: float, tries: int):
        self._face, self._scale, self._tile_aspect, self._tries = face, scale, tile_aspect, tries
        self._quads: tuple[np.ndarray, ...] | None = None

    def _worked_out(self) -> tuple[np.ndarray, ...]:
        if self._quads is None:
            (cx, cy), (fw, fh), angle = self._face
            width = np.sqrt(fw * fh * self._tile_aspect)
            step = 180.0 / self._tries
            quads = [cv2.boxPoints(((cx, cy), (width, width / self._tile_aspect), angle + k * step)).astype(np.float64) / self._scale
                     for k in range(1, self._tries)]
            self._quads = tuple(order_upright_many(quads))
        return self._quads

    @property
    def quarter(self) -> int:
        """The index of the turn a quarter turn from the fitted angle (the nearest to it): a squarish blob's box is
        most often right up to which side is the long one."""
        return max(0, round(self._tries / 2) - 1)

    def __len__(self) -> int:
        return self._tries - 1

    def __getitem__(self, index):
        return self._worked_out()[index]

    def __iter__(self):
        return iter(self._worked_out())

    def __repr__(self) -> str:
        return f"UnsureTurns({self._tries - 1} turns of {self._face!r})"


def _logit(p: float) -> float:
    return float(np.log(p / (1.0 - p)))


def _peaks_per_core(core_logit: np.ndarray, labels: np.ndarray, count: int, config: VisionConfig) -> np.ndarray:
    """How many tile middles (core_peak_threshold, fair size) each core blob holds.

    Two neighbours' cores can join over a low ridge while each middle stays near 1, and
    the face blob of two tiles side by side has about one tile's aspect; the peaks tell.
    """
    # only the peaks' sizes are wanted: counted from their pixels, not by connectedComponentsWithStats,
    # whose centroids and boxes cost ten times the labelling on a 4K frame's map
    peak_count, peaks = cv2.connectedComponents((core_logit > _logit(config.core_peak_threshold)).astype(np.uint8), connectivity=4)
    on_peak = peaks > 0
    peak_of_pixel = peaks[on_peak]
    area = np.bincount(peak_of_pixel, minlength=peak_count)
    # a peak's pixels lie above the core threshold and touch, so all lie in one core blob: any of them names it
    core_of_peak = np.zeros(peak_count, dtype=np.int64)
    core_of_peak[peak_of_pixel] = labels[on_peak]
    largest = np.zeros(count, dtype=np.int64)
    np.maximum.at(largest, core_of_peak[1:], area[1:])
    fair = (area[1:] >= config.min_core_pixels) & (area[1:] >= config.core_fragment_ratio * largest[core_of_peak[1:]])
    return np.bincount(core_of_peak[1:][fair], minlength=count)


def _without_core_fragments(blobs: list[_CoreBlob], config: VisionConfig) -> list[_CoreBlob]:
    """Drop core blobs far smaller than the largest core on the same face blob.

    A big lone tile's core can break into a main blob and crumbs (a joker's face printing);
    neighbouring tiles of one set have cores of about the same size, so crumbs are not tiles.
    """
    largest: dict[int, int] = {}
    for core in blobs:
        largest[core.face_blob] = max(largest.get(core.face_blob, 0), core.area)
    return [core for core in blobs if core.face_blob == 0 or core.area >= config.core_fragment_ratio * largest[core.face_blob]]


def _mask_rect(mask: np.ndarray, x0: int, y0: int) -> tuple:
    """cv2.minAreaRect of the centres of a blob's pixels, from its outline only (same hull, far fewer points)."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = contours[0].reshape(-1, 2) if len(contours) == 1 else np.vstack([c.reshape(-1, 2) for c in contours])
    points = (outline + (x0 + 0.5, y0 + 0.5)).astype(np.float32)
    return cv2.minAreaRect(points)


def _tile_shaped(size, config: VisionConfig) -> bool:
    return min(size) > 0 and max(size) / min(size) < config.max_tile_aspect


def _typical_core(blobs, config: VisionConfig) -> tuple[float, float] | None:
    """Median (width, height) of the core blobs that are plainly one tile each."""
    sizes = [sorted(core.rect[1]) for core in blobs if min(core.rect[1]) > 0 and max(core.rect[1]) / min(core.rect[1]) <= config.max_tile_aspect]
    if len(sizes) < 3:
        return None
    w, h = np.median(np.array(sizes), axis=0)
    return float(w), float(h)


def _faces_of_blob(rect, config: VisionConfig, single_core: tuple[float, float] | None, peaks: int = 0):
    """One core blob -> the face rectangle(s) it stands for.

    A blob much longer than a tile's core is the cores of neighbours that ran together:
    side by side in a meld (the blob's short side is then a core's height) or one above
    the other (its short side is a core's width). The typical single core of the frame
    tells which; the tiles are then spread evenly along the long side. Under a slanted
    camera the short side can mislead: when the reading it suggests leaves the blob whole
    though it shows two or more middles (`peaks`), the other reading is taken if its count
    of tiles agrees with them.
    """
    (cx, cy), (rw, rh), angle = rect
    grow = config.core_grow
    long_side, short_side = max(rw, rh), min(rw, rh)
    if short_side <= 0:
        return []
    looks_merged = long_side / short_side > config.max_tile_aspect
    if single_core is not None:
        # under a slanted camera every face is squashed alike, so compare with this frame's own cores
        looks_merged = looks_merged or rw * rh > config.merged_area_ratio * single_core[0] * single_core[1]
    if not looks_merged:
        return [((cx, cy), (rw * grow, rh * grow), angle)]
    readings = [_RowReading.of(False, short_side, single_core, long_side, config)]
    if single_core is not None:
        core_w, core_h = single_core
        stacked = _RowReading.of(True, short_side, single_core, long_side, config)
        if abs(np.log(short_side / core_w)) < abs(np.log(short_side / core_h)):
            readings.insert(0, stacked)
        else:
            readings.append(stacked)
    row = readings[0]
    if peaks >= 2 and row.count < 2:  # (only then: elsewhere this changed as many reads for the worse as for the better)
        row = next((r for r in readings if r.count == peaks), row)
    if row.count < 2:
        return [((cx, cy), (rw * grow, rh * grow), angle)]
    spacing = (long_side - row.core_step) / (row.count - 1)
    theta = np.deg2rad(angle)
    axis = np.array([np.cos(theta), np.sin(theta)]) if rw >= rh else np.array([-np.sin(theta), np.cos(theta)])
    along = min(row.step, spacing)
    faces = []
    for i in range(row.count):
        offset = (i - (row.count - 1) / 2) * spacing
        centre = (cx + axis[0] * offset, cy + axis[1] * offset)
        size = (along, row.across) if rw >= rh else (row.across, along)
        faces.append((centre, size, angle))
    return faces


class _RowReading(NamedTuple):
    """A merged core blob read as `count` tiles side by side or one above another."""
    stacked: bool
    step: float  # face length along the blob
    core_step: float  # core length along the blob
    across: float  # face length across the blob
    count: int

    @classmethod
    def of(cls, stacked: bool, short_side: float, single_core, long_side: float, config: VisionConfig) -> "_RowReading":
        grow = config.core_grow
        if stacked:  # tiles one above another: the long side runs along their height
            across = short_side * grow
            step = across / config.tile_aspect if single_core is None else single_core[1] * grow
        else:
            across = short_side * grow
            step = across * config.tile_aspect if single_core is None else single_core[0] * grow
        core_step = step / grow
        n = int(round((long_side - core_step) / step + 1))
        # neighbours' centres lie a face apart; much closer, the blob is one tile nearer the camera
        while n >= 2 and (long_side - core_step) / (n - 1) < config.min_split_spacing * step:
            n -= 1
        return cls(stacked, step, core_step, across, n)
