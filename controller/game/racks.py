"""A rack laid open on the table (at the end, or shown for a redeal): the tiles read that are not the table's.

Tiles are told from the table's by position (`rebuild.match_by_position`), then put in reading order,
row by row and left to right, so that a rack laid in rows is recorded in the order it lies.
"""
from __future__ import annotations

from dataclasses import dataclass

from .events import Doubt
from .machine import TableState
from .reading import TableReading
from .rebuild import RebuildSettings, match_by_position, tile_width


@dataclass(frozen=True)
class RackSettings:
    # tile widths per row band when a laid-open rack is put in reading order. A tile is about 1.35
    # widths tall (vision.config.tile_aspect 0.74), so rows laid one under the other lie at least that
    # far apart and each falls in a band of its own, while the tiles of one row, whose centres differ
    # by a pixel or two in height, fall in the same band
    row_band: float = 1.5


@dataclass(frozen=True)
class RackRead:
    codes: tuple[str, ...]  # in reading order
    doubts: tuple[Doubt, ...]  # (index in `codes`, candidate codes, why): read below `RebuildSettings.sure`


def rack_tiles(reading: TableReading, table: TableState, settings: RebuildSettings = RebuildSettings(),
               rack: RackSettings = RackSettings()) -> RackRead:
    """The tiles read that are not the table's: matched by position, what is left over is the rack."""
    width = tile_width(reading)
    matched = match_by_position(reading, table, settings.keep_radius * width)
    left_over = [i for i in range(len(reading.tiles)) if i not in matched]
    left_over.sort(key=lambda i: (round(reading.tiles[i].center[1] / (rack.row_band * width)),
                                  reading.tiles[i].center[0]))
    codes = tuple(reading.tiles[i].code for i in left_over)
    doubts = tuple(
        (n, tuple([reading.tiles[i].code] + [c for c, _ in reading.tiles[i].alternatives]),
         f"read {reading.tiles[i].code} at {reading.tiles[i].confidence:.2f}")
        for n, i in enumerate(left_over) if reading.tiles[i].confidence < settings.sure
    )
    return RackRead(codes, doubts)
