"""The reading pipeline: load -> find_tiles -> classify -> group, orient, order -> FrameReading."""
from __future__ import annotations

import dataclasses
import os
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from .area import AreaError, PlayArea, TableSurface, find_table, split_faces, split_on_table, work_copy
from .classify import TileGuess, classify
from .codes import CODES, FULL_SET_SIZE, MAX_COPIES
from .changes import Changed, TableMemory, WholeRead
from .config import DEFAULT_CONFIG, DETECT_STRIDE, VisionConfig
from .copies import limit_copies
from .detect import candidates_from_maps, detector_tensor, lie_along_sets, lie_like_neighbours, resize_for_detector, TileCandidate
from .exposure import expose
from .geometry import quad_sizes
from .image import check_image, load_image
from .inks import decide_colours
from .melds import find_groups, place_group
from .models import CLASSIFIER_FILE, DETECTOR_FILE, eight_bit, load_model
from .perspective import follow_perspective
from .profile import SetProfile
from .reading import EdgeTile, FrameReading, SetReading, TileReading



class DetectorLooks:
    """The size the detector looked at each size of image read (its long side), kept between the reads
    of one camera: the table's tiles keep their size from frame to frame, so a read goes straight to
    the look the last one chose, and looks as ever only when the tiles no longer fit it."""

    def __init__(self) -> None:
        self._looks: dict[tuple[int, int], int] = {}

    def chosen(self, shape) -> int | None:
        return self._looks.get((int(shape[0]), int(shape[1])))

    def keep(self, shape, look: int) -> None:
        self._looks[(int(shape[0]), int(shape[1]))] = int(look)


def find_tiles(image: np.ndarray, config: VisionConfig = DEFAULT_CONFIG, detector=None,
               looks: DetectorLooks | None = None, look: int | None = None) -> tuple[TileCandidate, ...]:
    """Candidate tile faces in a BGR image.

    The detector sees the frame at the size of its first look (`_first_look`); when the tiles come out smaller
    or larger than it reads well (a whole table in a big frame, a close-up), it looks again
    at the size that brings the median tile to detect_tile_width pixels. With `looks` (one
    camera's), it looks first at the size the last read of an image this size chose, and again
    as ever only when the tiles do not fit that size; with `look` (a part of a frame, at the long side
    its frame was looked at scaled to the part), once at that size. Specks far smaller
    than the table's faces are dropped (`_without_specks`). A face of unsure
    angle then lies as its sure neighbours do (`lie_like_neighbours`), or else along the line of
    its nearest neighbours when it stands in one (`lie_along_sets`), and the faces of sure
    angle become parallelograms that follow the table's perspective (`follow_perspective`).
    """
    detector = detector or load_model(reading_net(DETECTOR_FILE, config), config.threads)
    if look is not None:
        return _laid_out(_detect_at(image, look, config, detector), config)
    long_side = _first_look(image.shape, config)
    known = None if looks is None else looks.chosen(image.shape)
    candidates = () if known is None else _detect_at(image, known, config, detector)
    if known is not None and candidates and _better_long_side(image.shape, known, candidates, config) is None:
        look = known
    else:
        candidates = _detect_at(image, long_side, config, detector)
        look = _better_long_side(image.shape, long_side, candidates, config) or long_side
        if look != long_side:
            candidates = _detect_at(image, look, config, detector)
    if looks is not None:
        looks.keep(image.shape, look)
    return _laid_out(candidates, config)


def _first_look(shape, config: VisionConfig) -> int:
    """The long side of a frame's first look: detect_long_side, or for a frame at least detect_large_frame
    long, detect_large_look (at a whole fraction of the frame when one lies near): there the table's tiles
    come out too small at detect_long_side for any read but one that chooses a second look."""
    if config.detect_large_frame > 0 and max(shape[:2]) >= config.detect_large_frame:
        return _whole_fraction(shape, config.detect_large_look, config)
    return config.detect_long_side


def _laid_out(candidates: tuple[TileCandidate, ...], config: VisionConfig) -> tuple[TileCandidate, ...]:
    candidates = _without_specks(candidates, config)
    # after the look is chosen: the faces as fitted pick the scale, as they always did
    candidates = lie_like_neighbours(candidates, config)
    if config.set_lines:
        candidates = lie_along_sets(candidates, config)
    return follow_perspective(candidates, config) if config.perspective else candidates


def reading_net(path: Path, config: VisionConfig) -> Path:
    """The net read with for the shipped one at `path`: its eight-bit copy, where one ships, unless the
    config says not."""
    return eight_bit(path) if config.eight_bit else Path(path)


def _without_specks(candidates: tuple[TileCandidate, ...], config: VisionConfig) -> tuple[TileCandidate, ...]:
    """The faces at least min_face_share of the area-weighted median face's area.

    The tiles of one table are of about one size, and the share of the frame they cover outweighs
    the specks of a carpet's weave or a wood grain that the detector takes for tiny faces (most
    of them around a lone close-up tile); weighting by area makes the one big tile the measure."""
    if len(candidates) < 2:
        return candidates
    areas = np.prod(quad_sizes([c.corners for c in candidates]), axis=1)
    order = np.argsort(areas)
    weighted = areas[order][np.searchsorted(np.cumsum(areas[order]), areas.sum() / 2)]
    return tuple(c for c, a in zip(candidates, areas) if a >= config.min_face_share * weighted)


def _better_long_side(shape, long_side, candidates, config) -> int | None:
    """The long side of a second look that brings the median tile to detect_tile_width, when the
    faces seen at long_side came out too small or too large; None when that look is good."""
    if not candidates:
        return None
    scale = long_side / max(shape[:2])
    width = float(np.median(quad_sizes([c.corners for c in candidates])[:, 0])) * scale
    if width < config.detect_min_tile_width or width > config.detect_max_tile_width:
        better = long_side * config.detect_tile_width / max(width, 1.0)
        better = int(min(config.detect_max_long_side, max(shape[:2]), max(config.detect_min_long_side, better)))
        better = _whole_fraction(shape, better, config)
        if abs(better - long_side) > 0.15 * long_side:
            return better
    return None


def _whole_fraction(shape, long_side: int, config: VisionConfig) -> int:
    """The long side of the frame shrunk by a whole factor (both sides divide by it) when that lies within
    detect_whole_fraction of `long_side` and inside the second look's bounds; else `long_side` itself."""
    height, width = (int(v) for v in shape[:2])
    side = max(height, width)
    factor = max(1, round(side / max(long_side, 1)))
    whole = side // factor
    if (config.detect_whole_fraction > 0 and height % factor == 0 and width % factor == 0
            and abs(whole - long_side) <= config.detect_whole_fraction * long_side
            and config.detect_min_long_side <= whole <= config.detect_max_long_side):
        return whole
    return long_side


def _detect_at(image, long_side, config, detector):
    resized, scale = resize_for_detector(image, long_side)
    maps = detector(detector_tensor(resized))[0]
    return candidates_from_maps(maps, scale, config, image.shape)


class _Beside:
    """One worker thread beside the reading thread: OpenCV's resizes let go of the interpreter, so what it
    makes is made on the second core while the first runs Python. A process forked from a reading one (the
    recipe's and the benchmarks' worker pools) has no such thread, only its record: it starts its own."""

    def __init__(self) -> None:
        self._pid: int | None = None
        self._pool: ThreadPoolExecutor | None = None

    def submit(self, function, *args) -> Future:
        if self._pid != os.getpid():
            self._pid, self._pool = os.getpid(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="tileref-reading")
        return self._pool.submit(function, *args)


_BESIDE = _Beside()


@dataclass(frozen=True)
class TableReader:
    """A reading pipeline bound to one config and the shipped models."""

    config: VisionConfig = DEFAULT_CONFIG
    detector_path: Path = DETECTOR_FILE
    classifier_path: Path = CLASSIFIER_FILE
    profile: SetProfile | None = None  # a club set's calibration (tileref calibrate); None: the shipped reading
    area: PlayArea | None = None  # the table's play area (vision/area.py); None: found from each frame

    def read(self, image: np.ndarray, area: PlayArea | None = None, looks: DetectorLooks | None = None,
             memory: TableMemory | None = None) -> FrameReading:
        """Read a frame; only tiles inside the play area (`area`, else the reader's, else found) count.
        `looks`: the detector's looks of this camera's earlier reads (`DetectorLooks`); `memory`: the
        camera's last whole read (`TableMemory`): in a given play area only what changed since is read again."""
        image = check_image(image)
        config = self.config
        image = expose(image, config).image
        detector = load_model(reading_net(self.detector_path, config), config.threads)
        if self.profile is None:
            classifier = load_model(reading_net(self.classifier_path, config), config.threads)
        else:  # the profile was fitted to the float classifier's embedding
            self.profile.check_classifier(self.classifier_path)
            classifier = load_model(self.classifier_path, config.threads)
        given = area or self.area
        recalled = None if memory is None else memory.recall(image, given, config)
        if recalled is not None:
            classified = self._read_changed(image, given, *recalled, detector, classifier)
            read, area, across, _, _ = _within_area(image, classified, given, config)
            memory.read_in_part()
        else:
            if memory is not None and looks is None:
                looks = DetectorLooks()  # the size the frame is looked at is kept with it
            read, classified, area, across, scale = self._read_whole(image, given, looks, detector, classifier)
            if memory is not None:
                memory.keep(image, given, scale, classified, config)
        guesses = _drop_overlaps([g for g in read if g.tile_probability >= config.min_tile_confidence])
        if config.set_faces_kept:
            guesses = _keep_faces_in_sets(guesses, [g for g in read if g.tile_probability < config.min_tile_confidence], config)
        unsure: tuple[int, ...] = ()
        if self.profile is None or config.ink_roles_with_profile:  # otherwise a set profile knows the club's inks
            roles = decide_colours(guesses, config)
            guesses, unsure = list(roles.guesses), roles.unsure
        return _assemble(image, guesses, config, frozenset(unsure), area, across)

    def _read_whole(self, image, area, looks, detector, classifier):
        """The whole frame read: the faces inside the play area, every face classified (before the area
        split them), the area, the faces across its edge, and the detector's scale the faces came from."""
        config = self.config
        # the small copy the table's surface is found on needs only the frame: it is made on the other
        # core while this one finds the faces; the table is then found there from every face found while
        # this core reads them, and kept when the classifier calls every face sure
        finding = area is None and config.play_area
        given = area is not None
        surface_copy = _BESIDE.submit(work_copy, image) if finding else None
        candidates = find_tiles(image, config, detector, looks)
        outlines = [c.corners for c in candidates]
        every_face_sure = _BESIDE.submit(_found_table, image, outlines, config, surface_copy) if finding else None
        scale = _looked_at(looks, image.shape, config)
        classified = classify(image, candidates, classifier, config, self.profile)
        read, area, across, outside, table = _within_area(image, classified, area, config, outlines=outlines,
                                                          surface_copy=surface_copy, every_face_sure=every_face_sure)
        if outside or (given and not any(g.tile_probability >= config.min_tile_confidence for g in read)):
            # what lies outside (a box of smaller spare tiles, a rack) also moved the detector's choice
            # of scale: the table is looked at again with everything outside the area painted over
            # (but the faces read outside it on the table's own surface). An area given whose look saw
            # no sure face on it is looked at again too: what lies around it may have swayed the look
            # so far that it saw nothing (a pale stretch taken for one face so large that the real ones
            # were dropped as specks)
            kept = [g.corners for g in read if area.share_inside(g.corners) < config.play_area_inside_share]
            # on the area's own box: the detector then sees the table at the scale it sees it alone
            # (in the whole frame, painted, a lone close-up tile was read as two halves)
            x0, y0, x1, y1 = _box_around(area, kept, image.shape)
            painted = _painted_part(image, (x0, y0, x1, y1), area, kept)
            candidates = _moved(find_tiles(painted, config, detector, looks), (x0, y0))
            scale = _looked_at(looks, painted.shape, config)
            classified = classify(image, candidates, classifier, config, self.profile)
            read, area, across, _, _ = _within_area(image, classified, area, config, table)
        return read, classified, area, across, scale

    def _read_changed(self, image: np.ndarray, area: PlayArea, last: WholeRead, changed: Changed, detector,
                      classifier) -> tuple[TileGuess, ...]:
        """Every face classified in a frame read again only where it changed since the whole read `last`:
        the faces of `last` none of whose blocks changed, and the faces read now (at the scale of `last`)
        whose middles lie in the grown changed blocks and on no face kept."""
        config = self.config
        faces = np.array([g.corners for g in last.read]).reshape(-1, 4, 2)
        kept = [g for g, touched in zip(last.read, changed.touches(faces)) if not touched]
        candidates: list[TileCandidate] = []
        for x0, y0, x1, y1 in changed.boxes:
            part = image[y0:y1, x0:x1]
            inside = area.share_inside(np.float64([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
            if inside == 0.0:
                continue  # a change outside the play area (a hand beside it): nothing there is read
            if inside < 1.0:  # as a whole read's second look: the detector sees nothing outside the area
                part = _painted_part(image, (x0, y0, x1, y1), area)
            look = max(DETECT_STRIDE, round(max(part.shape[:2]) * last.scale))
            candidates += _moved(find_tiles(part, config, detector, look=look), (x0, y0))
        read = classify(image, tuple(candidates), classifier, config, self.profile)
        sure_kept = [g.corners for g in kept if g.tile_probability >= config.min_tile_confidence]
        kept_middles = _middles(sure_kept)

        def on_a_kept_face(middle: np.ndarray) -> bool:
            near = np.flatnonzero(np.linalg.norm(kept_middles - middle, axis=1) < last.tile_width * 1.5)
            return any(_inside(middle, sure_kept[k]) for k in near)

        middles = _middles([g.corners for g in read])
        new = [g for g, middle, there in zip(read, middles, changed.holds(middles))
               if there and not on_a_kept_face(middle)]
        return tuple(kept) + tuple(new)


def _middles(quads: Sequence[np.ndarray]) -> np.ndarray:
    """The middles of (4, 2) quads, as (n, 2)."""
    return np.array([quad.mean(axis=0) for quad in quads]).reshape(-1, 2)


def _painted_part(image: np.ndarray, box: tuple[int, int, int, int], area: PlayArea,
                  kept: Sequence[np.ndarray] = ()) -> np.ndarray:
    """The frame's rectangle `box` (x0, y0, x1, y1) painted outside the play area (`_outside_painted`; the
    faces `kept` left as they are)."""
    x0, y0, x1, y1 = box
    shift = np.float64([x0, y0])
    return _outside_painted(image[y0:y1, x0:x1], PlayArea(tuple(map(tuple, area.quad - shift))),
                            [np.asarray(face, float) - shift for face in kept])


def _looked_at(looks: DetectorLooks | None, shape, config: VisionConfig) -> float:
    """Detector pixels per frame pixel of the look last kept for frames of this shape."""
    look = None if looks is None else looks.chosen(shape)
    return (look or _first_look(shape, config)) / max(shape[:2])


def _within_area(image: np.ndarray, read: tuple[TileGuess, ...], area: PlayArea | None, config: VisionConfig,
                 table: TableSurface | None = None, outlines: Sequence[np.ndarray] | None = None,
                 surface_copy: Future | None = None, every_face_sure: Future | None = None):
    """The faces inside the play area (found from the sure faces when none is given), the area, the
    sure faces lying across its edge as (side, centre): those are named, never read; whether any
    sure face lay outside it and is not read; and the table's surface the area was found on (None for an
    area given). In an area found on the frame a sure face outside it that lies on the table's own
    surface is read (`split_on_table`). The area is found from the sure faces' `outlines` as the detector
    found them (their own corners when not given), whatever turn the classifier read them at;
    `surface_copy`: the frame's `work_copy`, being made beside; `every_face_sure`: the table found beside
    from every outline, taken when every face is sure and none lies over another."""
    if area is None and not config.play_area:
        return read, None, (), False, None
    sure = [g.tile_probability >= config.min_tile_confidence for g in read]
    if area is None:
        position = {id(g): k for k, g in enumerate(read)}
        kept = [position[id(g)] for g in _drop_overlaps([g for g, s in zip(read, sure) if s])]
        if every_face_sure is not None and len(kept) == len(read):
            table = every_face_sure.result()
        else:
            outlines = [g.corners for g in read] if outlines is None else outlines
            table = find_table(image, [outlines[k] for k in kept], config,
                               None if surface_copy is None else surface_copy.result(),
                               _doubted_faces(outlines, sure, config))
        area = table.area
    quads = [g.corners for g in read]
    split = split_faces(area, quads, config) if table is None else split_on_table(table, quads, sure, config)
    across = tuple((side, tuple(float(v) for v in read[k].corners.mean(axis=0))) for k, side in split.across if sure[k])
    outside = any(sure[k] for k in split.outside)
    return tuple(read[k] for k in split.inside), area, across, outside, table


def _doubted_faces(outlines: Sequence[np.ndarray], sure: Sequence[bool], config: VisionConfig) -> list[np.ndarray]:
    """The outlines of the faces the classifier doubts that are no larger than `play_area_size_ratio` times the
    median face, of three faces found or more: a doubted half of a table's tile, not a pale stretch of the table
    taken for one face."""
    sizes = [abs(cv2.contourArea(np.asarray(o, np.float32))) for o in outlines]
    if len(sizes) < 3:
        return []
    largest = config.play_area_size_ratio * float(np.median(sizes))
    return [o for o, s, size in zip(outlines, sure, sizes) if not s and size <= largest]


def _found_table(image: np.ndarray, outlines: list[np.ndarray], config: VisionConfig, surface_copy: Future) -> TableSurface:
    """`find_table` from these face outlines, on the work copy being made beside (submitted before)."""
    return find_table(image, outlines, config, surface_copy.result())


def _outside_painted(image: np.ndarray, area: PlayArea, kept: Sequence[np.ndarray] = ()) -> np.ndarray:
    """The frame with everything outside the play area painted in the area's median colour (AreaError for
    an area that covers no pixel of it); the faces `kept` (read outside it) are left as they are."""
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(area.quad).astype(np.int32), 1)
    painted = np.empty_like(image)
    height, width = image.shape[:2]
    # a filled rectangle, not numpy's broadcasting: a hundred times faster on a full frame
    cv2.rectangle(painted, (0, 0), (width, height), tuple(int(v) for v in _median_colour(image, inside)), -1)
    for face in kept:
        cv2.fillConvexPoly(inside, np.round(_with_margin(face)).astype(np.int32), 1)
    cv2.copyTo(image, inside, painted)
    return painted


def _with_margin(face: np.ndarray) -> np.ndarray:
    """A face grown by a fifth of its size on every side: the detector sees its edges on the table."""
    face = np.asarray(face, float)
    centre = face.mean(axis=0)
    return centre + 1.4 * (face - centre)


def _box_around(area: PlayArea, kept: Sequence[np.ndarray], shape) -> tuple[int, int, int, int]:
    """The frame's rectangle (x0, y0, x1, y1) holding the area and the faces kept outside it."""
    points = np.vstack([area.quad] + [_with_margin(face) for face in kept])
    height, width = shape[:2]
    # no painted margin around it: a margin of one colour around a pale top made the whole top one face
    x0, y0 = np.floor(points.min(axis=0)).astype(int)
    x1, y1 = np.ceil(points.max(axis=0)).astype(int)
    return max(0, x0), max(0, y0), min(width, max(x1, x0 + 1)), min(height, max(y1, y0 + 1))


def _moved(candidates: tuple[TileCandidate, ...], offset: tuple[int, int]) -> tuple[TileCandidate, ...]:
    """Faces found on a part of the frame, in the frame's pixels."""
    if offset == (0, 0):
        return candidates
    shift = np.asarray(offset, float)
    return tuple(dataclasses.replace(c, corners=c.corners + shift, other_turns=tuple(q + shift for q in c.other_turns))
                 for c in candidates)


def _median_colour(image: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Each channel's median over the masked pixels of an 8-bit image, as `np.median` takes it (the mean of
    the two middle values of an even count, cut to an integer), counted from histograms: a frame's
    million pixels are never sorted."""
    count = int(np.count_nonzero(mask))
    if count == 0:
        raise AreaError(f"the play area covers no pixel of the {image.shape[1]}x{image.shape[0]} frame")
    low, high = (count - 1) // 2, count // 2  # ranks of the middle values
    colour = []
    for channel in range(image.shape[2]):
        cumulative = np.cumsum(cv2.calcHist([image], [channel], mask, [256], [0, 256]).ravel())
        a, b = np.searchsorted(cumulative, [low + 1, high + 1])
        colour.append((int(a) + int(b)) // 2)
    return np.array(colour, image.dtype)


def _keep_faces_in_sets(sure: list[TileGuess], doubted: list[TileGuess], config: VisionConfig) -> list[TileGuess]:
    """The sure tiles, and each face the classifier doubts is a tile that lies in a set beside
    at least two of them: clutter lies apart from the sets, and a joker or tile of a design the
    classifier never saw lies in one. Such a face keeps its low tile probability, so its
    reading is named among the unsure tiles."""
    if not doubted or len(sure) < 2:
        return sure
    together = _drop_overlaps(sure + doubted, settled=len(sure))  # a doubted face never displaces a sure one
    is_sure = {id(g) for g in sure}
    keep = {id(g) for g in together if id(g) in is_sure}
    for members in find_groups([g.corners for g in together], config):
        if sum(id(together[i]) in is_sure for i in members) >= 2:
            keep.update(id(together[i]) for i in members)
    return [g for g in together if id(g) in keep]


def _drop_overlaps(guesses: list[TileGuess], settled: int = 0) -> list[TileGuess]:
    """Two candidates on one face (a blob split badly): keep the surer one, and of two
    sure ones the larger (the other is a sliver of the same face). The first `settled`
    guesses (already apart) come before all the others, however sure."""
    if len(guesses) < 2:
        return list(guesses)
    sizes = quad_sizes([g.corners for g in guesses])
    order = sorted(range(len(guesses)),
                   key=lambda i: (i >= settled, -round(guesses[i].tile_probability, 1), -float(sizes[i].prod())))
    centers = np.array([g.corners for g in guesses], np.float64).mean(axis=1)  # each face's mean, to the last bit
    distance = np.hypot(*(centers[:, None, :] - centers[None, :, :]).transpose(2, 0, 1))
    close = distance < np.maximum(sizes[:, None, 1], sizes[None, :, 1])  # nearer than the taller face's height
    kept: list[int] = []
    for i in order:
        near = [k for k in kept if close[i, k]]
        if all(distance[i, k] > 0.5 * sizes[i, 0] and not _inside(centers[i], guesses[k].corners) for k in near):
            kept.append(i)
    return [guesses[i] for i in sorted(kept)]


def _inside(point: np.ndarray, quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.astype(np.float32).reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) > 0


def _assemble(image: np.ndarray, guesses: list[TileGuess], config: VisionConfig,
              unsure_colour: frozenset[int] = frozenset(), area: PlayArea | None = None,
              across: tuple = ()) -> FrameReading:
    h, w = image.shape[:2]
    groups = find_groups([g.corners for g in guesses], config)
    placed_groups = []
    doubtful = set()  # ids of placed tiles whose colour stays unsure (vision.inks)
    for members in groups:
        placed, order = place_group([guesses[i] for i in members], config)
        doubtful.update(id(placed[k]) for k, i in enumerate(members) if i in unsure_colour)
        placed_groups.append([placed[k] for k in order])
    # sets in reading order of the table: by the top-most, then left-most tile
    placed_groups.sort(key=lambda ts: (round(min(t.corners[:, 1].min() for t in ts) / max(1.0, h / 40)), min(t.corners[:, 0].min() for t in ts)))
    in_sets = [group for group in placed_groups if len(group) > 1]
    ordered = [t for group in in_sets for t in group] + [group[0] for group in placed_groups if len(group) == 1]
    probabilities = np.array([t.code_probabilities for t in ordered])
    limit = limit_copies(probabilities) if config.copy_limit and ordered else None
    tiles = _tile_readings(ordered, probabilities, config, None if limit is None else limit.codes)
    sets: list[SetReading] = []
    start = 0
    for group in in_sets:
        indices = tuple(range(start, start + len(group)))
        sets.append(SetReading(indices, tuple(tiles[i].code for i in indices)))
        start += len(group)
    colour_doubts = [k for k, t in enumerate(ordered) if id(t) in doubtful]
    warnings = _warnings(tiles, w, h, config)
    if limit is not None and limit.moved:
        warnings.append(_copies_warning(limit, ordered, tiles))
    if colour_doubts:
        warnings.append(f"{len(colour_doubts)} tile(s) whose colour is unsure (their ink lies between two of the photo's inks): "
                        + "; ".join(_colour_doubt(tiles[i]) for i in colour_doubts))
    edge_tiles = tuple(EdgeTile(side, (round(c[0], 1), round(c[1], 1)), area is not None and area.side_on_border(side, w, h))
                       for side, c in across)
    warnings.extend(t.describe() for t in edge_tiles)
    return FrameReading(w, h, tuple(tiles), tuple(sets), tuple(warnings), area, edge_tiles)


def _copies_warning(limit, ordered, tiles: list[TileReading]) -> str:
    over = ", ".join(f"{code} {n} times" for code, n in limit.over_read)
    moved = "; ".join(f"{tiles[i].code} at ({tiles[i].center[0]:.0f}, {tiles[i].center[1]:.0f}) {tiles[i].confidence:.2f}"
                      f" (read {CODES[int(np.argmax(ordered[i].code_probabilities))]})" for i in limit.moved)
    return (f"read {over}, but a set has only {MAX_COPIES} of each: {len(limit.moved)} tile(s) read as their likeliest "
            f"code that keeps the count: {moved}")


def _colour_doubt(tile: TileReading) -> str:
    other = [code for code, _ in tile.alternatives if code[1:] == tile.code[1:] and code != tile.code]
    return f"{tile.code}{' or ' + other[0] if other else ''} at ({tile.center[0]:.0f}, {tile.center[1]:.0f})"


def _tile_readings(placed, probabilities: np.ndarray, config: VisionConfig, chosen=None) -> list[TileReading]:
    """Each tile read as its likeliest code (`probabilities`: the placed tiles' code probabilities, one row each),
    or as `chosen[k]` (vision.copies), the likeliest then an alternative; the tiles' codes ranked and centres
    taken all at once (the same figures as one by one)."""
    if not placed:
        return []
    ranks = np.argsort(-probabilities, axis=1)[:, :config.alternatives + 1].tolist()
    centres = np.asarray([t.corners for t in placed], np.float64).mean(axis=1).tolist()
    tiles = []
    for k, t in enumerate(placed):
        ranked = [(CODES[i], float(probabilities[k, i])) for i in ranks[k]]
        if chosen is not None and CODES[chosen[k]] != ranked[0][0]:
            ranked = ([(CODES[chosen[k]], float(probabilities[k, chosen[k]]))]
                      + [r for r in ranked if r[0] != CODES[chosen[k]]][:config.alternatives])
        code, p = ranked[0]
        tiles.append(TileReading(code=code, confidence=float(p * t.tile_probability), center=tuple(centres[k]),
                                 corners=tuple(map(tuple, np.asarray(t.corners, np.float64).tolist())),
                                 alternatives=tuple(ranked[1:])))
    return tiles


def _warnings(tiles: list[TileReading], w: int, h: int, config: VisionConfig) -> list[str]:
    out = []
    unsure = [f"{t.code} at ({t.center[0]:.0f}, {t.center[1]:.0f}) {t.confidence:.2f}" for t in tiles if t.confidence < config.low_confidence]
    if unsure:
        out.append(f"{len(unsure)} tile(s) read with low confidence: " + "; ".join(unsure))
    for code, n in sorted(Counter(t.code for t in tiles).items()):
        if n > MAX_COPIES:
            out.append(f"{code} read {n} times, but a set has only {MAX_COPIES}")
    if len(tiles) > FULL_SET_SIZE:
        out.append(f"{len(tiles)} tiles read, more than the {FULL_SET_SIZE} of a full set")
    edge = [t.code for t in tiles if any(x < 1 or y < 1 or x > w - 2 or y > h - 2 for x, y in t.corners)]
    if edge:
        out.append(f"{len(edge)} tile(s) cut by the image border: {' '.join(edge)}")
    return out


_DEFAULT_READER = TableReader()


def read_image(image: np.ndarray, config: VisionConfig | None = None, profile: SetProfile | None = None,
               area: PlayArea | None = None, looks: DetectorLooks | None = None,
               memory: TableMemory | None = None) -> FrameReading:
    """Read a BGR (or grey, or BGRA) uint8 image of a table; `profile` is a club set's calibration,
    `area` the table's play area (None: found from the image), `looks` one camera's detector looks
    (`DetectorLooks`: a camera's frames read one after another), `memory` its last whole read
    (`TableMemory`: in a play area, a frame is read again only where it changed)."""
    if config is None and profile is None:
        return _DEFAULT_READER.read(image, area, looks, memory)
    return TableReader(config or DEFAULT_CONFIG, profile=profile).read(image, area, looks, memory)


def read_path(path: str | os.PathLike, config: VisionConfig | None = None, profile: SetProfile | None = None,
              area: PlayArea | None = None) -> FrameReading:
    """Read an image file; ImageReadError names the file when it is not a usable image."""
    image = load_image(path)
    return read_image(image, config, profile, area)
