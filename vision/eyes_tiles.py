"""What the last settled table's tiles and the tiles read now may explain, and which tiles lie
exactly as they lay.

A change against the last settled table is explained by one of its tiles only when that tile is
still accounted for: a tile read now covers half of it (the tile itself, moved a little or another
put in its place; a neighbour that only shares the cells along its edge does not count), or the
tile was taken away cleanly and its cells look like bare table again. A phone lying over a tile
hides it (nothing is read there) and is no bare table: the old outline explains nothing under it.
A tile read now explains its own cells, and the cells around it only when it was moved or laid
(its side and shadow moved with it): a phone put down beside tiles that lie as they lay is not
explained by them.

A tile whose patch of the frame is unchanged since the last settled table (the same pixels,
after matching the room's light) is the same tile: `unchanged_tiles` says which, so a reading
that flickers there can keep the settled table's code.
"""
from __future__ import annotations

import cv2
import numpy as np

from .eyes_cells import tiles_mask
from .eyes_values import EyesSettings
from .stillness import UNCLIPPED, channel_max, light_fit, light_residual

# the thresholds are the eyes' (vision.eyes_values.EyesSettings): `settings` here, its defaults unless handed in
DEFAULTS = EyesSettings()


def table_under_tiles(cells: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """The reference's colour cells with the cells under tiles (`tiles`) filled from the bare table
    around them: what those cells look like once the tiles are taken away.

    The ring of cells around the tiles is filled too, never filled from: it holds a tile's side and
    shadow, and the edge of a tile whose outline was read a little tight (a rim the reader leaves
    out); a half-tile cell taken as bare table would brighten everything filled from it."""
    under = cv2.dilate(tiles.astype(np.uint8), np.ones((3, 3), np.uint8))
    if not under.any() or under.all():
        return cells.copy()
    image = np.clip(cells, 0, 255).astype(np.uint8)
    filled = cv2.inpaint(image, under, 3, cv2.INPAINT_TELEA)
    return filled.astype(np.float32)


def explained_by_reference(reference_tiles, now_outlines, image_shape: tuple[int, int], grid: tuple[int, int],
                           margin: int, now_cells: np.ndarray, reference_cells: np.ndarray,
                           bare_table: np.ndarray, settings: EyesSettings = DEFAULTS,
                           read_there: bool = True) -> np.ndarray:
    """The cells the reference's tiles explain in a frame read as `now_outlines`: those of each
    reference tile (grown by `margin` cells) that a tile read now covers by half (only its own cells
    when that tile lies as it lay), and those of any reference tile that look like bare table now
    (a tile taken away cleanly). Without `read_there`, only the latter: where the occluder net sees
    something, a tile read half there may be the visible half of a tile under a phone."""
    explained = np.zeros(grid, bool)
    if not reference_tiles:
        return explained
    gain, offset = light_fit(now_cells, reference_cells, below=UNCLIPPED)
    bare = light_residual(now_cells, bare_table, gain, offset).max(axis=-1) <= settings.bare_table_level
    for outline in reference_tiles:
        grown = tiles_mask((outline,), image_shape, grid, margin)
        cover = max((_shared(outline, now) for now in _touching(outline, now_outlines)), default=0.0) if read_there else 0.0
        if cover >= settings.in_place_share:  # it lies as it lay: its side and shadow too, nothing around it changed
            explained |= tiles_mask((outline,), image_shape, grid, 0) | (grown & bare)
        elif cover >= settings.read_there_share:
            explained |= grown
        else:
            explained |= grown & bare
    return explained


def explained_by_tiles_read(now_outlines, reference_tiles, image_shape: tuple[int, int], grid: tuple[int, int],
                            margin: int, settings: EyesSettings = DEFAULTS) -> np.ndarray:
    """The cells the tiles read now explain: each tile's own cells, and the cells within `margin` of a
    tile that was moved or laid (its side and shadow moved with it). A tile lying as a tile of the
    last settled table lay (`in_place`) changed nothing around it, so a phone put down beside it is
    not explained by it."""
    explained = tiles_mask(now_outlines, image_shape, grid, 0)
    moved = tuple(outline for outline in now_outlines or () if not in_place(outline, reference_tiles, settings))
    if margin > 0 and moved:
        explained |= tiles_mask(moved, image_shape, grid, margin)
    return explained


def laid_anew(now_outlines, reference_tiles, settings: EyesSettings = DEFAULTS) -> tuple:
    """The tiles read now that lie where no tile of the last settled table lay (none shares
    `read_there_share` with them): laid this turn, or moved here from elsewhere."""
    return tuple(outline for outline in now_outlines or ()
                 if not any(_shared(outline, old) >= settings.read_there_share
                            for old in _touching(outline, reference_tiles)))


def in_place(outline, reference_tiles, settings: EyesSettings = DEFAULTS) -> bool:
    """Whether a tile read at `outline` lies as one of `reference_tiles` lay (`in_place_share` of both shared)."""
    return any(_shared(outline, old) >= settings.in_place_share for old in _touching(outline, reference_tiles))


def _touching(outline, others) -> tuple:
    """The outlines of `others` whose bounding boxes meet `outline`'s: the only ones it can share area with
    (a pair far apart is told apart without building either polygon)."""
    if not others:
        return ()
    points = np.asarray(outline, np.float64).reshape(-1, 2)
    if len(points) < 3:
        return ()
    x0, y0 = points.min(axis=0)
    x1, y1 = points.max(axis=0)
    return tuple(other for other in others if _box_meets(other, x0, y0, x1, y1))


def _box_meets(outline, x0: float, y0: float, x1: float, y1: float) -> bool:
    xs = [float(p[0]) for p in outline]
    ys = [float(p[1]) for p in outline]
    return bool(xs) and min(xs) <= x1 and max(xs) >= x0 and min(ys) <= y1 and max(ys) >= y0


def _shared(one, other) -> float:
    """The area two outlines share, as a share of the larger of them (0 when either is no polygon)."""
    a, b = _polygon(one), _polygon(other)
    if a is None or b is None:
        return 0.0
    larger = max(abs(float(cv2.contourArea(a))), abs(float(cv2.contourArea(b))))
    if larger <= 0:
        return 0.0
    shared, _ = cv2.intersectConvexConvex(a, b)
    return float(shared) / larger


def _polygon(outline) -> np.ndarray | None:
    points = np.asarray(outline, np.float32).reshape(-1, 2)
    if len(points) < 3:
        return None
    return cv2.convexHull(points)


def lies_as(reference: np.ndarray, outlines, image: np.ndarray, area=None, light=None,
            settings: EyesSettings = DEFAULTS) -> bool:
    """Whether the table lies in `image` exactly as in `reference` (the frame of the last table read, its
    tiles at `outlines`), within the play area `area` (four corners; None: the whole frame): every tile's
    patch unchanged (`unchanged_tiles`), and no block of the frame a third of a tile wide (a quarter of
    its pixels) changed anywhere else, a tile laid on bare table or a phone put down. The room's light
    is matched first (`light`: the gain and offset of `light_between`, fitted here when None); what lies
    outside the area (a box of spare tiles a player draws from) is not compared."""
    if reference.shape != image.shape or reference.ndim != 3:
        return False
    h, w = image.shape[:2]
    gain, offset = light if light is not None else light_between(reference, image)
    if outlines and not all(unchanged_tiles(reference, outlines, image, (gain, offset), settings)):
        return False
    return blocks_unchanged(reference, outlines, image, area, (gain, offset), settings)


def blocks_unchanged(reference: np.ndarray, outlines, image: np.ndarray, area=None, light=None,
                     settings: EyesSettings = DEFAULTS) -> bool:
    """No block of the frame a third of a tile wide (`block_share` of its pixels) changed by more than
    `patch_level` within `area` (four corners; None: the whole frame), `image` shown in `reference`'s
    light (`light`: gain and offset, fitted when None; (1, 0) compares the pixels as they are): the coarse
    half of `lies_as`."""
    h, w = image.shape[:2]
    gain, offset = light if light is not None else light_between(reference, image)
    sides = [min(np.ptp(np.asarray(o, float), axis=0)) for o in outlines or () if len(o) >= 3]
    tile = float(np.median(sides)) if sides else w / 60.0
    # compared at a size where a tile is about `block_tile_pixels` wide (never enlarged): the blocks are
    # what counts, and a fifth of the pixels cost a fifth of the time. The size is the frame's divided by a
    # whole number (the last few rows and columns left out): an area resize by a whole factor is a plain
    # box average, ten times cheaper than a fractional one, and this runs on every frame a look keeps
    factor = max(1, int(round(tile / settings.block_tile_pixels)))
    scale = 1.0 / factor
    size = (max(1, w // factor), max(1, h // factor))
    now = cv2.resize(image[: size[1] * factor, : size[0] * factor], size, interpolation=cv2.INTER_AREA)
    before = cv2.resize(reference[: size[1] * factor, : size[0] * factor], size, interpolation=cv2.INTER_AREA)
    if _as_they_are(gain, offset) and now.dtype == np.uint8 and before.dtype == np.uint8:
        residual = _clipped_residual(now, before)
    else:
        residual = light_residual(now.astype(np.float32), before.astype(np.float32), gain, offset)
    differs = (channel_max(residual) > settings.patch_level).astype(np.float32)
    if area is not None:
        inside = np.zeros((size[1], size[0]), np.uint8)
        cv2.fillConvexPoly(inside, np.round(np.asarray(area, float) * scale).astype(np.int32), 1)
        differs *= inside
    block = max(2, int(round(tile * scale / 3)))
    blocks = cv2.resize(differs, (max(1, size[0] // block), max(1, size[1] // block)), interpolation=cv2.INTER_AREA)
    return float(blocks.max(initial=0.0)) <= settings.block_share


def _as_they_are(gain, offset) -> bool:
    """Whether a light fit leaves every pixel as it is (gain 1, offset 0 in every channel)."""
    return bool(np.all(np.asarray(gain) == 1.0) and np.all(np.asarray(offset) == 0.0))


def _clipped_residual(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """`light_residual` of two 8-bit images under the same light, in 8-bit arithmetic (the same values, a
    fraction of the time): |now - before|, where a side at or above UNCLIPPED says only "at least this bright".
    A side clipped that is also the brighter one says nothing only when the other side is clipped too (being
    brighter than a clipped value makes a pixel clipped), so the residual is |now - before| except where both
    are clipped."""
    level = int(np.ceil(UNCLIPPED)) - 1  # a pixel above this is at or above UNCLIPPED
    _, not_both_clipped = cv2.threshold(cv2.min(now, before), level, 255, cv2.THRESH_BINARY_INV)
    return cv2.bitwise_and(cv2.absdiff(now, before), not_both_clipped)


def light_between(reference: np.ndarray, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The gain and offset that show `image` in `reference`'s light (fitted on an eighth-size copy)."""
    h, w = image.shape[:2]
    small = (max(1, w // 8), max(1, h // 8))
    return light_fit(cv2.resize(image, small, interpolation=cv2.INTER_AREA).astype(np.float32),
                     cv2.resize(reference, small, interpolation=cv2.INTER_AREA).astype(np.float32),
                     below=UNCLIPPED)


def unchanged_tiles(reference: np.ndarray, outlines, image: np.ndarray, light=None,
                    settings: EyesSettings = DEFAULTS) -> tuple[bool, ...]:
    """For each outline (frame pixels, on `reference`): whether its patch of `image` is as it was on
    `reference`, after matching the room's light (`light`: the gain and offset of `light_between`, fitted
    here when None;
    sensor noise and a glint on a few pixels allowed)."""
    if reference.shape != image.shape or not outlines:
        return tuple(False for _ in outlines)
    h, w = image.shape[:2]
    gain, offset = light if light is not None else light_between(reference, image)
    found = []
    for outline in outlines:
        points = np.asarray(outline, np.float64)
        if len(points) < 3:
            found.append(False)
            continue
        x0, y0 = np.floor(points.min(axis=0)).astype(int)
        x1, y1 = np.ceil(points.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 - x0 < 3 or y1 - y0 < 3:
            found.append(False)
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round(points - (x0, y0)).astype(np.int32)], 1)
        now = cv2.blur(image[y0:y1, x0:x1], (3, 3)).astype(np.float32)
        before = cv2.blur(reference[y0:y1, x0:x1], (3, 3)).astype(np.float32)
        differs = light_residual(now, before, gain, offset).max(axis=-1) > settings.patch_level
        inside = mask.astype(bool)
        found.append(bool(inside.any()) and float(differs[inside].mean()) <= settings.patch_share)
    return tuple(found)
