"""A tile that lies exactly as it lay keeps the code it was judged with.

The reader looks at each frame afresh, so glare or noise can turn a tile's code on a frame whose
pixels over that tile are the same as on the last settled table. That table was settled and
judged; a tile whose patch has not changed since (the eyes say which: `vision.eyes_tiles`) is
the same tile, so its code is kept from that table, and the reading says so in a warning (the
audit shows both). Tiles on changed patches are read as the reader reads them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

from .reading import ReadTile, TableReading
from .rebuild import tile_width


@dataclass(frozen=True)
class SettledTile:
    """A tile of the last settled table: where it lay, the code it was judged with, and whether its
    patch of the frame now is unchanged."""

    center: tuple[float, float]
    code: str
    unchanged: bool


def settled_tiles(outlines: Sequence[Sequence[tuple[float, float]]], codes: Sequence[str],
                  unchanged: Sequence[bool]) -> tuple[SettledTile, ...]:
    """The last settled table's tiles from its outlines, codes ("" where not known) and the eyes'
    unchanged flags (one each)."""
    if not (len(outlines) == len(codes) == len(unchanged)):
        raise ValueError(f"settled tiles need one code and one flag per outline, got {len(outlines)} outlines, "
                         f"{len(codes)} codes and {len(unchanged)} flags")
    tiles = []
    for outline, code, same in zip(outlines, codes, unchanged):
        xs, ys = [p[0] for p in outline], [p[1] for p in outline]
        tiles.append(SettledTile((sum(xs) / len(xs), sum(ys) / len(ys)), code, bool(same)))
    return tuple(tiles)


def keep_settled_codes(reading: TableReading, settled: Sequence[SettledTile], radius: float = 0.45) -> TableReading:
    """`reading` with each tile that lies on an unchanged tile of the last settled table (within
    `radius` tile widths of its centre, one to one, nearest first) given that tile's code."""
    steady = [tile for tile in settled if tile.unchanged and tile.code]  # "": its code is not known
    if not steady or not reading.tiles:
        return reading
    reach = radius * tile_width(reading)
    pairs = sorted((math.dist(tile.center, old.center), i, j)
                   for i, tile in enumerate(reading.tiles) for j, old in enumerate(steady)
                   if math.dist(tile.center, old.center) <= reach)
    tiles = list(reading.tiles)
    warnings = list(reading.warnings)
    used_read: set[int] = set()
    used_settled: set[int] = set()
    for _, i, j in pairs:
        if i in used_read or j in used_settled:
            continue
        used_read.add(i)
        used_settled.add(j)
        tile, code = tiles[i], steady[j].code
        if tile.code != code:
            tiles[i] = _with_code(tile, code)
            x, y = tile.center
            warnings.append(f"tile at ({x:.0f}, {y:.0f}) read {tile.code}, kept {code}: it lies as on the last "
                            "settled table")
    if tiles == list(reading.tiles):
        return reading
    return replace(reading, tiles=tuple(tiles), warnings=tuple(warnings))


def _with_code(tile: ReadTile, code: str) -> ReadTile:
    """The tile read as `code`, as sure as it was of the code it read; that code becomes an alternative."""
    others = [(c, p) for c, p in tile.alternatives if c != code]
    return replace(tile, code=code, alternatives=((tile.code, tile.confidence), *others)[: max(1, len(tile.alternatives))])
