"""The play area: the quadrilateral of the frame where the game's tiles lie.

Nothing outside it is read or counted (racks, the tile box, its lid, phones, the floor),
and a tile lying across its edge is named, never guessed. A table's area is marked by the
referee (`tileref area`) or found from the frame by `find_play_area`:

1. a small copy of the frame is blurred at half a tile's width with the tile faces weighing
   nothing (each pixel the mean of the bare surface around it), so wood grain, marble veins
   and cloth weave become the surface's own colour and the faces take their surroundings';
2. the table's colour is that of the frame's middle (the camera looks at the table): its
   median and spread in CIE Lab. On a frame with no tile in its middle (the clear table as
   a game begins; spare tiles in a box beside it do not count), a middle whose spread is
   wider than one surface's (`play_area_max_spread`: a narrow table turned in the frame, the
   floor beside it) is narrowed to the frame's centre (`play_area_middles`) until it is one
   surface;
3. the table is the connected piece of the pixels near that colour (in its own spread) that
   fills most of the frame's middle, opened by a tile's width so that thin bridges to another
   surface (a box's rim touching the table) break;
4. four points of its convex hull are the area's corners: on a table in play, the four that match
   the table's piece best (their overlap over their union), so that a spike of the piece towards a
   lid or a box beside the table takes no corner; on a clear table, the hull simplified to four of
   its own points. A hull covering most of the frame (`play_area_whole_frame`) is the whole frame.

In an area found on the frame, the area decides which faces are dropped, not which pixels are
read: a sure face outside it that lies on the table's own surface (table-coloured and joined to
the table around it), beside the area or in a set with faces inside it, and of the table's
tiles' size, is read (`split_on_table`); one on a box's tray, a rack or a lid is not. A marked
area, and one a game found once and keeps, are the referee's and the game's: what lies outside
them is dropped.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from .config import DEFAULT_CONFIG, VisionConfig
from .errors import VisionError

EDGE_NAMES = ("top", "right", "bottom", "left")  # the area's sides in the order of its corners (TL TR BR BL)
_WORK_SIDE = 320  # long side of the copy of the frame the surface is found on


class AreaError(VisionError):
    """A play area's corners cannot be used (not four points, crossed, outside the frame)."""


@dataclass(frozen=True)
class PlayArea:
    """Four corners in frame pixels, top-left, top-right, bottom-right, bottom-left; `found`:
    found from the frame (False: marked by the referee)."""

    corners: tuple[tuple[float, float], ...]
    found: bool = True

    @classmethod
    def whole_frame(cls, width: int, height: int, found: bool = True) -> "PlayArea":
        return cls(((0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height))), found)

    @classmethod
    def marked(cls, points: Sequence[Sequence[float]], width: int | None = None, height: int | None = None) -> "PlayArea":
        """An area from four points in any order; AreaError quotes what is wrong with them."""
        quad = np.asarray(points, dtype=float)
        if quad.shape != (4, 2) or not np.all(np.isfinite(quad)):
            raise AreaError(f"a play area needs four corners x,y; got {np.asarray(points).tolist()!r}")
        ordered = order_corners(quad)
        if cv2.contourArea(ordered.astype(np.float32)) < 1.0 or not cv2.isContourConvex(ordered.astype(np.float32).reshape(-1, 1, 2)):
            raise AreaError(f"the corners {quad.tolist()!r} do not make a convex four-sided area")
        if width is not None and height is not None:
            off = [(float(x), float(y)) for x, y in quad if x < 0 or y < 0 or x > width or y > height]
            if off:
                raise AreaError(f"corner {off[0][0]:g},{off[0][1]:g} lies outside the {width} x {height} frame")
        return cls(tuple((float(x), float(y)) for x, y in ordered), found=False)

    @property
    def quad(self) -> np.ndarray:
        return np.asarray(self.corners, dtype=float)

    def share_inside(self, face: np.ndarray) -> float:
        """The share of a tile face (4 corners) lying inside the area."""
        return self.shares_inside([face])[0]

    def shares_inside(self, faces: Sequence[np.ndarray]) -> list[float]:
        """`share_inside` of each face, their corners ordered all at once."""
        if len(faces) == 0:
            return []
        quads = np.asarray([np.asarray(face, dtype=np.float32) for face in faces])
        ordered = order_corners_many(quads).astype(np.float32)
        area = self.quad.astype(np.float32)
        shares = []
        for face, corners in zip(quads, ordered):
            whole = abs(cv2.contourArea(face))
            if whole <= 0:
                shares.append(float(cv2.pointPolygonTest(area.reshape(-1, 1, 2), tuple(map(float, face.mean(axis=0))), False) >= 0))
                continue
            common, _ = cv2.intersectConvexConvex(corners, area)
            shares.append(float(min(1.0, common / whole)))
        return shares

    def nearest_edge(self, point: Sequence[float]) -> str:
        """"left", "top"... : the side of the area nearest a point."""
        p = np.asarray(point, dtype=float)
        quad = self.quad
        distances = [_segment_distance(p, quad[k], quad[(k + 1) % 4]) for k in range(4)]
        return EDGE_NAMES[int(np.argmin(distances))]

    def side_on_border(self, side: str, width: int, height: int) -> bool:
        """Whether the area's `side` ("top", ...) runs along the border of a width x height frame (within a
        pixel): what lies across it is cut by the image, not by the table's edge."""
        k = EDGE_NAMES.index(side)
        ends = self.quad[[k, (k + 1) % 4]]
        return bool(np.all(ends[:, 0] <= 1) or np.all(ends[:, 0] >= width - 1)
                    or np.all(ends[:, 1] <= 1) or np.all(ends[:, 1] >= height - 1))

    def to_json_dict(self) -> dict:
        return {"corners": [[round(x, 1), round(y, 1)] for x, y in self.corners], "found": self.found}

    def describe(self) -> str:
        return ",".join(f"{x:.0f},{y:.0f}" for x, y in self.corners)


@dataclass(frozen=True)
class AreaSplit:
    """Which faces lie inside the area, which outside, and which across its edge (with the side)."""

    inside: tuple[int, ...]
    outside: tuple[int, ...]
    across: tuple[tuple[int, str], ...]


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Four points clockwise (image y down) from the one nearest the top-left."""
    return order_corners_many(np.asarray(quad, dtype=float)[None])[0]


def order_corners_many(quads: np.ndarray) -> np.ndarray:
    """Each of N quads (N x 4 x 2) as `order_corners` gives it: clockwise from the corner nearest the top-left."""
    quads = np.asarray(quads, dtype=float)
    centre = quads.mean(axis=1)
    angles = np.arctan2(quads[:, :, 1] - centre[:, None, 1], quads[:, :, 0] - centre[:, None, 0])
    clockwise = np.take_along_axis(quads, np.argsort(angles, axis=1)[:, :, None], axis=1)
    start = np.argmin(clockwise.sum(axis=2), axis=1)
    return np.take_along_axis(clockwise, ((np.arange(4)[None, :] + start[:, None]) % 4)[:, :, None], axis=1)


def split_faces(area: PlayArea, faces: Sequence[np.ndarray], config: VisionConfig = DEFAULT_CONFIG) -> AreaSplit:
    """Inside: at least `play_area_inside_share` of the face in the area; outside: at most
    `play_area_outside_share`; across the edge: anything between, and, in an area marked by the referee, a
    face mostly inside that reaches over the edge (`play_area_crossing_share`) yet is under
    `play_area_cut_share` of the inside faces' median area: the edge cuts a tile there, and what shows of
    it is no tile to read (a code read off a sliver is a guess)."""
    inside, outside, across = [], [], []
    shares = area.shares_inside(faces)
    for k, (face, share) in enumerate(zip(faces, shares)):
        if share >= config.play_area_inside_share:
            inside.append(k)
        elif share <= config.play_area_outside_share:
            outside.append(k)
        else:
            across.append((k, area.nearest_edge(np.asarray(face, float).mean(axis=0))))
    # only a marked area's edge: a found area's edge lies where the table's surface or the frame ends, and a
    # tile cut by the frame's border is named by whoever reads the frame (`tileref calibrate` refuses it)
    reaching = [] if area.found else [k for k in inside if shares[k] < config.play_area_crossing_share]
    if reaching and len(inside) - len(reaching) >= 3:
        sizes = {k: abs(cv2.contourArea(np.asarray(faces[k], np.float32))) for k in inside}
        typical = float(np.median([sizes[k] for k in inside if k not in reaching]))
        cut = [k for k in reaching if sizes[k] < config.play_area_cut_share * typical]
        if cut:
            inside = [k for k in inside if k not in cut]
            across += [(k, area.nearest_edge(np.asarray(faces[k], float).mean(axis=0))) for k in cut]
    return AreaSplit(tuple(inside), tuple(outside), tuple(across))


def split_on_table(table: "TableSurface", faces: Sequence[np.ndarray], sure: Sequence[bool],
                   config: VisionConfig = DEFAULT_CONFIG) -> AreaSplit:
    """`split_faces` in an area found on the frame, where the area decides which faces are dropped, not
    which pixels are read: a sure face outside it (or across its edge) is read when it lies on the table's
    own surface, both ways at once: the ring around it lies mostly on the table's surface
    (`play_area_surface_share`; a box's tray, a rack or a lid around a face is not table), and it lies
    within `play_area_reach` tile widths of the area or in a set (`find_groups`) with a face inside it (the
    top row of tiles cut off by a box lying just above it; a box's spare tiles lie in no set with the
    table's)."""
    from .melds import find_groups

    split = split_faces(table.area, faces, config)
    if table.on_table is None:
        return split
    candidates = [k for k in split.outside if sure[k]] + [k for k, _ in split.across if sure[k]]
    if not candidates:
        return split
    polygon = table.area.quad.astype(np.float32).reshape(-1, 1, 2)
    reach = config.play_area_reach * table.tile_width
    near = {k for k in candidates
            if -cv2.pointPolygonTest(polygon, tuple(map(float, np.asarray(faces[k], float).mean(axis=0))), True)
            <= reach + 0.5 * table.tile_width}
    sure_faces = [k for k in range(len(faces)) if sure[k]]
    inside = set(split.inside)
    in_set = set()
    for group in find_groups([np.asarray(faces[k], float) for k in sure_faces], config):
        members = [sure_faces[i] for i in group]
        if inside.intersection(members):
            in_set.update(members)
    # of the size of the table's own tiles: a box's spare tiles, a lid's printed ones and its logo are not
    sizes = {k: abs(cv2.contourArea(np.asarray(faces[k], np.float32))) for k in set(candidates) | inside if sure[k]}
    table_size = np.median([sizes[k] for k in inside if sure[k]]) if any(sure[k] for k in inside) else 0.0
    kept = set()
    for k in candidates:
        if table_size <= 0 or not 1.0 / config.play_area_size_ratio <= sizes[k] / table_size <= config.play_area_size_ratio:
            continue
        # a face in a set with the area's faces needs less of the table around it (its set's geometry says
        # much): a face at the frame's corner or in its set's shadow shows less of the surface around it
        least = config.play_area_set_surface_share if k in in_set else config.play_area_surface_share if k in near else None
        if least is not None and table.share_around_on_table(faces[k]) >= least:
            kept.add(k)
    if not kept:
        return split
    return AreaSplit(tuple(sorted(inside | kept)), tuple(k for k in split.outside if k not in kept),
                     tuple((k, side) for k, side in split.across if k not in kept))


def find_play_area(image: np.ndarray, faces: Sequence[np.ndarray], config: VisionConfig = DEFAULT_CONFIG) -> PlayArea:
    """The play area of a BGR frame from the tile faces found on it (corners in frame pixels)."""
    return find_table(image, faces, config).area


@dataclass(frozen=True, eq=False)
class TableSurface:
    """The play area found on a frame and the table's surface it was cut from: `on_table` marks the pixels
    of the working copy (`scale` of the frame) that are table-coloured and joined to the table through
    table-coloured pixels (not opened: the strip of cloth between the last row of tiles and a box beside
    it is table too); `tile_width` in frame pixels."""

    area: PlayArea
    on_table: np.ndarray | None  # None: the area is the whole frame (every face lies on the table)
    scale: float = 1.0
    tile_width: float = 0.0

    def share_around_on_table(self, face: np.ndarray) -> float:
        """The share of the ring around a face (half a tile wide) that lies on the table's surface."""
        if self.on_table is None:
            return 1.0
        quad = np.asarray(face, float) * self.scale
        centre = quad.mean(axis=0)
        width = self.tile_width * self.scale
        size = max(min(_sides(quad)), 1e-6)
        outer = centre + (quad - centre) * (1.0 + 2 * _RING * width / size)
        ring = np.zeros(self.on_table.shape, np.uint8)
        cv2.fillConvexPoly(ring, np.round(outer).astype(np.int32), 1)
        cv2.fillConvexPoly(ring, np.round(quad).astype(np.int32), 0)
        count = int(np.count_nonzero(ring))
        if count == 0:
            return 0.0
        return float(np.count_nonzero(self.on_table[ring > 0])) / count


_LEAST_WEIGHT = 0.05  # a pixel's bare surface weighs less than this in its blur: it is filled from farther out
_RING = 0.5  # tile widths: how far around a face its surroundings are looked at


def work_copy(image: np.ndarray) -> np.ndarray:
    """The small copy of a frame its table's surface is found on (`find_table`)."""
    h, w = image.shape[:2]
    scale = _WORK_SIDE / max(h, w)
    return cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)


def find_table(image: np.ndarray, faces: Sequence[np.ndarray], config: VisionConfig = DEFAULT_CONFIG,
               small: np.ndarray | None = None, doubted: Sequence[np.ndarray] = ()) -> TableSurface:
    """The play area of a BGR frame from the tile faces found on it, and the table's surface around it;
    `small`: the frame's `work_copy` when it was made already; `doubted`: faces found that the classifier
    is unsure of, painted out of the surface as the others on a table in play (a tile's face left on the
    table's edge cuts the table's corner off) but not measured for a tile's width."""
    h, w = image.shape[:2]
    scale = _WORK_SIDE / max(h, w)
    small = work_copy(image) if small is None else small
    sh, sw = small.shape[:2]
    quads = [np.asarray(f, float) * scale for f in faces]
    tile_width = float(np.median([min(_sides(q)) for q in quads])) if quads else 0.04 * _WORK_SIDE
    whole = TableSurface(PlayArea.whole_frame(w, h), None, scale, tile_width / scale)
    clear = not any(_middle(sh, sw, config.play_area_middles[0])[_inside_frame(q.mean(axis=0), sh, sw)] for q in quads)
    # not on a clear table: what is doubted there is no tile of a game, and painting a false face as large as
    # the table fills the table from the floor (lab/decisions/paint_doubted.txt)
    painted = quads if clear else quads + [np.asarray(f, float) * scale for f in doubted]
    surface = _surface(small, painted, tile_width)
    # a clear table's middle of two surfaces is narrowed to the frame's centre; with tiles in the middle
    # the centre may be tiles, painted out, whose colour is not the table's (lab/decisions/area_middles.txt)
    for share in config.play_area_middles if clear else config.play_area_middles[:1]:
        middle = _middle(sh, sw, share)
        centre, spread = _table_colour(surface[middle], config)
        if spread.max() <= config.play_area_max_spread:
            break
    coloured = (_distance(surface, centre, spread) < config.play_area_colour_distance).astype(np.uint8)
    # a bridge narrower than a tile (a box's rim, a lid's border touching the table) is no table
    cut = max(1, round(config.play_area_bridge * tile_width))
    table = cv2.morphologyEx(coloured, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * cut + 1, 2 * cut + 1)))
    count, labels = cv2.connectedComponents(table, connectivity=4)
    if count < 2:
        return whole
    votes = np.bincount(labels[middle & (table > 0)], minlength=count)
    votes[0] = 0
    region = (labels == int(np.argmax(votes))).astype(np.uint8)
    hull = _hull(region).reshape(-1, 2).astype(float)
    hull[:, 0] = np.clip(hull[:, 0], 0, sw)
    hull[:, 1] = np.clip(hull[:, 1], 0, sh)
    if cv2.contourArea(hull.astype(np.float32)) >= config.play_area_whole_frame * sw * sh:
        return whole
    # on a table in play the region's outline decides the corners; a clear table keeps the hull's own simplification
    quad = _quadrilateral(hull, None if clear else region) / scale
    quad[:, 0] = np.clip(quad[:, 0], 0, w)
    quad[:, 1] = np.clip(quad[:, 1], 0, h)
    area = PlayArea(tuple((float(x), float(y)) for x, y in order_corners(quad)))
    # light and shade change the surface's lightness more than its hue: the surface goes on under them
    shaded = _distance(surface, centre, spread * (config.play_area_shade, 1.0, 1.0))
    count, pieces = cv2.connectedComponents((shaded < config.play_area_colour_distance).astype(np.uint8), connectivity=8)
    joined = np.zeros(count, bool)  # the pieces the table's region touches, looked up per pixel
    joined[pieces[region > 0]] = True
    joined[0] = False
    return TableSurface(area, joined[pieces], scale, tile_width / scale)


def _distance(surface: np.ndarray, centre: np.ndarray, spread: np.ndarray) -> np.ndarray:
    """Each pixel's distance from the colour `centre` in units of `spread`: the figures of
    np.sqrt((((surface - centre) / spread) ** 2).sum(axis=2)), worked out in place."""
    scaled = surface - centre
    spread = np.asarray(spread)
    scaled = np.divide(scaled, spread, out=scaled) if np.result_type(scaled, spread) == scaled.dtype else scaled / spread
    np.square(scaled, out=scaled)
    # the channels added in their order, as .sum(axis=2) adds three (a reduction along a short last axis
    # cost half of this function)
    total = scaled[..., 0] + scaled[..., 1]
    total += scaled[..., 2]
    return np.sqrt(total, out=total)


def _hull(region: np.ndarray) -> np.ndarray:
    """cv2.convexHull of a mask's pixels, from the pixels of its outlines alone: the same hull, point
    for point and from the same first point, when they are given in the mask's row order, as its pixels
    are (a table's region holds tens of thousands of pixels, its outline a few hundred)."""
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    points = np.vstack(contours).reshape(-1, 2)
    width = region.shape[1]
    raster = np.unique(points[:, 1].astype(np.int64) * width + points[:, 0])  # row order, each pixel once
    ordered = np.column_stack([raster % width, raster // width]).astype(np.int32)
    return cv2.convexHull(ordered.reshape(-1, 1, 2))


def _table_colour(colours: np.ndarray, config: VisionConfig) -> tuple[np.ndarray, np.ndarray]:
    """The colour of the frame's middle and its spread (robust: median and scaled median deviation)."""
    return _robust(colours.astype(np.float32), config)


def _robust(data: np.ndarray, config: VisionConfig) -> tuple[np.ndarray, np.ndarray]:
    centre = np.median(data, axis=0)
    return centre, np.maximum(np.median(np.abs(data - centre), axis=0) * 1.4826, config.play_area_least_spread)


def _surface(small: np.ndarray, quads: list[np.ndarray], tile_width: float) -> np.ndarray:
    """The frame's surfaces in Lab (L 0-100): tile faces painted out by their surroundings, blurred at
    half a tile's width so that grain, veins and weave become one colour."""
    sh, sw = small.shape[:2]
    tiles = np.zeros((sh, sw), np.uint8)
    for q in quads:
        cv2.fillConvexPoly(tiles, np.round(q).astype(np.int32), 255)
    grow = max(1, round(0.15 * tile_width))
    tiles = cv2.dilate(tiles, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    sigma = max(1.5, 0.5 * tile_width)
    if tiles.any():
        # the faces' pixels weigh nothing: every pixel is the Gaussian mean of the bare surface around it
        # (normalised convolution); a pixel with next to no bare surface near it (deep in a block of faces)
        # is filled from farther out
        bare = (tiles == 0).astype(np.float32)
        weight = _blurred(bare, sigma)
        mean = _blurred(small.astype(np.float32) * bare[..., None], sigma) / np.maximum(weight, 1e-6)[..., None]
        painted = np.clip(mean + 0.5, 0, 255).astype(np.uint8)
        far = (weight < _LEAST_WEIGHT).astype(np.uint8)
        if far.any():
            painted = _filled(painted, far)
    else:
        painted = _blurred(small, sigma)
    lab = cv2.cvtColor(painted, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] *= 100.0 / 255.0
    return lab


def _blurred(image: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of `sigma` pixels, taken on a copy `sigma / 2` times smaller and brought back to size:
    the same surface, where a blur of sixty taps at full size cost more than the rest of the finding."""
    step = max(1, int(sigma // 2))
    if step == 1:
        return cv2.GaussianBlur(image, (0, 0), sigma)
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(1, round(w / step)), max(1, round(h / step))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / step)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _filled(small: np.ndarray, holes: np.ndarray) -> np.ndarray:
    """The pixels under `holes` filled with the mean colour of the pixels around them, taken from ever
    coarser copies of the frame until each hole's copy holds some of its surroundings (a pull-push fill:
    a few resizes where an inpaint walks every hole's pixels one by one)."""
    bare = (holes == 0).astype(np.float32)
    levels = [(small.astype(np.float32) * bare[..., None], bare)]
    while levels[-1][1].min() <= 0 and min(levels[-1][1].shape) > 1:
        colour, weight = levels[-1]
        size = ((weight.shape[1] + 1) // 2, (weight.shape[0] + 1) // 2)
        levels.append((cv2.resize(colour, size, interpolation=cv2.INTER_AREA),
                       cv2.resize(weight, size, interpolation=cv2.INTER_AREA)))
    colour, weight = levels[-1]
    mean = colour.reshape(-1, 3).sum(axis=0) / max(float(weight.sum()), 1e-6)
    fill = np.where(weight[..., None] > 0, colour / np.maximum(weight, 1e-6)[..., None], mean)
    for colour, weight in reversed(levels[:-1]):
        coarse = cv2.resize(fill, (weight.shape[1], weight.shape[0]), interpolation=cv2.INTER_LINEAR)
        fill = np.where(weight[..., None] > 0, colour / np.maximum(weight, 1e-6)[..., None], coarse)
    return np.where(holes[..., None] > 0, np.clip(fill + 0.5, 0, 255), small).astype(np.uint8)


def _middle(h: int, w: int, share: float = 0.5) -> np.ndarray:
    """The frame's middle (the camera looks at the table): a centred box of `share` of its sides."""
    mask = np.zeros((h, w), bool)
    top, left = round(h * (1 - share) / 2), round(w * (1 - share) / 2)
    mask[top: max(top + 1, h - top), left: max(left + 1, w - left)] = True
    return mask


def _inside_frame(point: np.ndarray, h: int, w: int) -> tuple[int, int]:
    """A point's pixel (row, column), kept inside an h x w frame."""
    return min(h - 1, max(0, int(point[1]))), min(w - 1, max(0, int(point[0])))


def _quadrilateral(hull: np.ndarray, region: np.ndarray | None = None) -> np.ndarray:
    """Four of the hull's own points (the table's corners): with the table's `region`, of the hull's outline
    simplified to at most _CORNER_CHOICES points, the four whose quadrilateral matches the region best (their
    overlap over their union), so that a spike of the region towards a box or a lid beside the table does not
    take a corner and cut the table's own corner off; without a region, the hull simplified until four points
    are left; the hull's minimum-area rectangle when no simplification gives four."""
    contour = hull.astype(np.float32).reshape(-1, 1, 2)
    perimeter = cv2.arcLength(contour, True)
    choices = None
    for share in np.linspace(0.01, 0.2, 20):
        simplified = cv2.approxPolyDP(contour, share * perimeter, True).reshape(-1, 2).astype(float)
        if region is not None and choices is None and len(simplified) <= _CORNER_CHOICES:
            choices = simplified
        if len(simplified) <= 4:
            break
    if choices is not None and len(choices) > 4:
        return order_corners(_best_overlap(choices, region))
    if len(simplified) != 4:
        return cv2.boxPoints(cv2.minAreaRect(contour)).astype(float)
    return order_corners(simplified)


_CORNER_CHOICES = 12  # points of the table's outline its four corners are chosen from


def _best_overlap(points: np.ndarray, region: np.ndarray) -> np.ndarray:
    """The four of `points` (in outline order) whose quadrilateral overlaps the mask `region` most over
    their union (the first such four of equals)."""
    inside = int(np.count_nonzero(region))
    canvas = np.zeros(region.shape, np.uint8)
    best, best_score = points[:4], -1.0
    for chosen in itertools.combinations(range(len(points)), 4):
        corners = points[list(chosen)]
        canvas[:] = 0
        cv2.fillConvexPoly(canvas, np.round(corners).astype(np.int32), 1)
        covered = int(np.count_nonzero(canvas))
        common = int(np.count_nonzero(cv2.bitwise_and(canvas, region)))
        score = common / max(covered + inside - common, 1)
        if score > best_score:
            best, best_score = corners, score
    return best


def _sides(q: np.ndarray) -> tuple[float, float]:
    return float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0]))


def _segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    t = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * ab)))


def save_area(area: PlayArea, path, width: int, height: int) -> None:
    """Write a table's play area (`tileref area`): its corners and the frame size they are in."""
    import json
    from pathlib import Path

    data = {"corners": [[round(x, 1), round(y, 1)] for x, y in area.corners], "width": int(width), "height": int(height)}
    Path(path).write_text(json.dumps(data) + "\n", encoding="utf-8")


def load_area(path) -> tuple[PlayArea, tuple[int, int]]:
    """A table's play area file and the frame size it was marked on; AreaError names the file."""
    return _marked_in(_area_file(path), path)


def _area_file(path):
    """The JSON of a play area file; AreaError names the file."""
    import json
    from pathlib import Path

    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise AreaError(f"play area file {str(path)!r} cannot be used: {error}") from None


def _marked_in(data, path) -> tuple[PlayArea, tuple[int, int]]:
    """The marked area and its frame size in a play area file's JSON; AreaError names the file."""
    try:
        width, height = int(data["width"]), int(data["height"])
        area = PlayArea.marked(data["corners"], width, height)
    except (ValueError, KeyError, TypeError) as error:
        raise AreaError(f"play area file {str(path)!r} cannot be used: {error}") from None
    except AreaError as error:
        raise AreaError(f"play area file {str(path)!r}: {error}") from None
    return area, (width, height)


def fit_to_frame(area: PlayArea, marked_on: tuple[int, int], width: int, height: int) -> PlayArea:
    """An area marked on a frame of one size, on a frame of another (the camera's resolution changed)."""
    if marked_on == (width, height):
        return area
    sx, sy = width / marked_on[0], height / marked_on[1]
    return PlayArea(tuple((x * sx, y * sy) for x, y in area.corners), area.found)


LEAST_MARKED_SHARE = 0.05  # of the frame: a smaller quadrilateral is a slip of the hand, not a table
AREA_FOUND = {"found": True}  # a table's area file that says: no area is marked, it is found on each frame


def marked_on_frame(points: Sequence[Sequence[float]], width: int, height: int) -> PlayArea:
    """An area the referee marked on a width x height frame: four corners inside it that make a convex
    four-sided area covering at least LEAST_MARKED_SHARE of the frame; AreaError names what is wrong."""
    if width <= 0 or height <= 0:
        raise AreaError(f"a frame of {width} x {height} pixels has no area to mark")
    area = PlayArea.marked(points, width, height)
    share = cv2.contourArea(area.quad.astype(np.float32)) / float(width * height)
    if share < LEAST_MARKED_SHARE:
        raise AreaError(f"the corners {area.describe()} enclose {share:.1%} of the {width} x {height} frame; "
                        f"a play area covers at least {LEAST_MARKED_SHARE:.0%} of it")
    return area


def save_area_found(path) -> None:
    """Write a table's area file that says the area is found on each frame (the referee's mark cleared)."""
    import json
    from pathlib import Path

    Path(path).write_text(json.dumps(AREA_FOUND) + "\n", encoding="utf-8")


def load_table_area(path) -> tuple[PlayArea, tuple[int, int]] | None:
    """A table's area file: the marked area and the frame size it was marked on, or None when the file
    says the area is found on each frame (`save_area_found`); AreaError names the file."""
    data = _area_file(path)
    return None if data == AREA_FOUND else _marked_in(data, path)
