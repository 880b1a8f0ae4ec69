"""A rack laid open on the table (at the end, or shown for a redeal): the tiles read that are not the table's.

Tiles are told from the table's by position (`rebuild.match_by_position`), then put in reading order,
row by row and left to right, so that a rack laid in rows is recorded in the order it lies. At the end
the racks are laid open one after another and an earlier rack may be left lying: a rack is then the
tiles laid since the previous rack was read (`lying`: every tile that reading saw, where it lay, with
its code).
"""
from __future__ import annotations

from dataclasses import dataclass

from .events import Doubt
from .machine import TableState
from .reading import TableReading, tile_width
from .rebuild import RebuildSettings, match_by_position


@dataclass(frozen=True)
class RackSettings:
    # tile widths between the heights of two tiles' centres, taken top to bottom, that start a new row
    # when a laid-open rack is put in reading order. A tile is about 1.35 widths tall
    # (vision.config.tile_aspect 0.74), so rows laid one under the other lie at least that far apart,
    # while the tiles of one row, whose centres differ by a pixel or two in height, stay one row
    # wherever they lie in the frame (bands cut at fixed heights split a row that straddled a cut)
    row_gap: float = 0.7


@dataclass(frozen=True)
class RackRead:
    codes: tuple[str, ...]  # in reading order
    doubts: tuple[Doubt, ...]  # (index in `codes`, candidate codes, why): read below `RebuildSettings.sure`


def left_lying(previous: TableReading | None) -> TableState:
    """The tiles the previous rack's reading saw (that rack, and any laid open before it): they may still lie
    on the table when the next rack is laid open."""
    if previous is None:
        return TableState()
    return TableState(tuple((tile.code, tile.center[0], tile.center[1]) for tile in previous.tiles))


def rack_tiles(reading: TableReading, table: TableState, settings: RebuildSettings = RebuildSettings(),
               rack: RackSettings = RackSettings(), lying: TableState = TableState()) -> RackRead:
    """The tiles read that are not the table's: matched by position, what is left over is the rack. A tile
    read where a tile of `lying` lay, with its code, is that tile left lying (a rack laid open before); one
    with another code lies where a rack was cleared away, and is this rack's."""
    width = tile_width(reading)
    matched = match_by_position(reading, table, settings.keep_radius * width)
    left_over = [i for i in range(len(reading.tiles)) if i not in matched]
    if lying.tiles:
        rest = TableReading(tuple(reading.tiles[i] for i in left_over), ())
        still = match_by_position(rest, lying, settings.keep_radius * width)
        left_over = [i for k, i in enumerate(left_over) if still.get(k) != reading.tiles[i].code]
    left_over = _reading_order(reading, left_over, rack.row_gap * width)
    codes = tuple(reading.tiles[i].code for i in left_over)
    doubts = tuple(
        (n, tuple([reading.tiles[i].code] + [c for c, _ in reading.tiles[i].alternatives]),
         f"read {reading.tiles[i].code} at {reading.tiles[i].confidence:.2f}")
        for n, i in enumerate(left_over) if reading.tiles[i].confidence < settings.sure
    )
    return RackRead(codes, doubts)


def _reading_order(reading: TableReading, indices: list[int], row_gap: float) -> list[int]:
    """The tiles at `indices` row by row, each row left to right: top to bottom, a tile more than `row_gap`
    below the one above it starts a row (a recorded rack's order no longer changes with a pixel of a
    tile's height from one frame to the next)."""
    rows: list[list[int]] = []
    above = None
    for i in sorted(indices, key=lambda i: reading.tiles[i].center[1]):
        y = reading.tiles[i].center[1]
        if above is None or y - above > row_gap:
            rows.append([])
        rows[-1].append(i)
        above = y
    return [i for row in rows for i in sorted(row, key=lambda i: reading.tiles[i].center[0])]
