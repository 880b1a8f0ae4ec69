"""Where a highlighted turn happened on its photos: the part of the frame where the turn's tiles
changed (with a margin), and those tiles, for the highlights reel (reel.py).

A frame is 1280x720 or more with the table's tiles small in one part of it; a viewer of the reel
wants the tiles the turn moved. A tile changed when the other table compared has no tile of the
same code within half a tile of where it lies: laid, taken away or moved. Sizes come from the
reading's tile corners (the median tile); positions are the events' tile centres, in the pixels
of the frame the camera took (every photo of a game is from the same camera, the same size).
"""
from __future__ import annotations

from dataclasses import dataclass
from statistics import median
from typing import Any, Iterable, Sequence

from controller.game.events import PlacedTile

MARGIN_TILES = 1.5  # the margin round the changed tiles, in tiles: a set's neighbours stay in view
LEAST_TILES = (8, 4)  # the least a view shows, in tiles across and down: enough of the table round it
FALLBACK_TILE = 0.035  # a tile's side as a share of the frame's width when no reading gives one


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def holds(self, other: Box) -> bool:
        return (self.left <= other.left and self.top <= other.top
                and other.right <= self.right and other.bottom <= self.bottom)


@dataclass(frozen=True)
class MarkedTile:
    code: str
    box: Box


@dataclass(frozen=True)
class Focus:
    """The part of a frame to show (`view`, in the frame's pixels) and the tiles to mark in it."""

    frame_width: int
    frame_height: int
    view: Box
    marks: tuple[MarkedTile, ...]


@dataclass(frozen=True)
class Frame:
    """A frame's size and the size of a tile on it."""

    width: int
    height: int
    tile_width: float
    tile_height: float


def frame_of(reading: dict[str, Any] | None) -> Frame | None:
    """The frame a stored reading was read from, with its median tile; None without a frame size."""
    if not isinstance(reading, dict):
        return None
    width, height = reading.get("width"), reading.get("height")
    if not (isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0):
        return None
    sides = [_sides(tile.get("corners")) for tile in reading.get("tiles") or () if isinstance(tile, dict)]
    sides = [side for side in sides if side is not None]
    if sides:
        return Frame(width, height, median(w for w, _ in sides), median(h for _, h in sides))
    side = width * FALLBACK_TILE
    return Frame(width, height, side, side * 1.35)


def changed(here: Sequence[PlacedTile], other: Sequence[PlacedTile], frame: Frame) -> list[PlacedTile]:
    """The tiles of `here` with no tile of the same code near them in `other` (one-to-one)."""
    reach = min(frame.tile_width, frame.tile_height) / 2
    left = list(other)
    out = []
    for tile in here:
        near = [t for t in left if t.code == tile.code
                and abs(t.x - tile.x) <= reach and abs(t.y - tile.y) <= reach]
        if near:
            left.remove(min(near, key=lambda t: (t.x - tile.x) ** 2 + (t.y - tile.y) ** 2))
        else:
            out.append(tile)
    return out


def tile_box(tile: PlacedTile, frame: Frame) -> Box:
    return Box(tile.x - frame.tile_width / 2, tile.y - frame.tile_height / 2,
               tile.x + frame.tile_width / 2, tile.y + frame.tile_height / 2)


def view_round(tiles: Iterable[PlacedTile], frame: Frame) -> Box:
    """The part of the frame round `tiles` with a margin, at least LEAST_TILES big, inside the frame
    (moved in rather than cut where it would cross an edge); the whole frame when there are none."""
    boxes = [tile_box(tile, frame) for tile in tiles]
    if not boxes:
        return Box(0, 0, frame.width, frame.height)
    dx, dy = frame.tile_width * MARGIN_TILES, frame.tile_height * MARGIN_TILES
    left, right = _span(min(b.left for b in boxes) - dx, max(b.right for b in boxes) + dx,
                        frame.tile_width * LEAST_TILES[0], frame.width)
    top, bottom = _span(min(b.top for b in boxes) - dy, max(b.bottom for b in boxes) + dy,
                        frame.tile_height * LEAST_TILES[1], frame.height)
    return Box(round(left, 1), round(top, 1), round(right, 1), round(bottom, 1))


def focus(tiles_changed: Sequence[PlacedTile], marked: Sequence[PlacedTile], frame: Frame) -> Focus:
    """The view round every tile the turn changed (on any of its photos), marking `marked` in it."""
    return Focus(frame.width, frame.height, view_round(tiles_changed, frame),
                 tuple(MarkedTile(tile.code, tile_box(tile, frame)) for tile in marked))


def _span(low: float, high: float, least: float, size: int) -> tuple[float, float]:
    if high - low < least:
        grow = (least - (high - low)) / 2
        low, high = low - grow, high + grow
    if high - low >= size:
        return 0.0, float(size)
    if low < 0:
        low, high = 0.0, high - low
    if high > size:
        low, high = low - (high - size), float(size)
    return low, high


def _sides(corners: Any) -> tuple[float, float] | None:
    try:
        xs = [float(x) for x, _ in corners]
        ys = [float(y) for _, y in corners]
    except (TypeError, ValueError):
        return None
    if len(xs) != 4 or max(xs) <= min(xs) or max(ys) <= min(ys):
        return None
    return max(xs) - min(xs), max(ys) - min(ys)
