"""Where the table lies exactly as it lay, the reading says what the last settled table said.

The reader looks at each frame afresh, so glare or noise can turn a tile's code, lose a tile or
see one on bare wood, on a frame whose pixels there are the same as on the last settled table.
That table was read and judged, and a turn can neither take a tile off the table nor lay one
without changing the pixels where it lies. So, on each frame's reading, where the patch is
unchanged since that table (the eyes say which: `vision.eyes_tiles.unchanged_tiles`):

- a tile read on a settled tile keeps the code it was judged with;
- a settled tile the reader missed is put back, with its settled outline and code;
- a tile read where the settled table showed bare table is taken out.

Each says so in a warning (the audit shows both photos). A tile laid down or taken away changes
its patch, so it is read as the reader reads it; so is anything on a changed patch.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from .reading import SAME_TILE_RADIUS, ReadTile, TableReading, tile_width
from .rebuild import nearest_pairs

PUT_BACK_CONFIDENCE = 1.0  # a put-back tile's patch is the judged tile's, pixel for pixel, and so is its code
KEPT_CODE, PUT_BACK, TAKEN_OUT = ", kept ", ", put back: ", ", taken out: "  # in the warnings (the bench counts them)


@dataclass(frozen=True)
class JudgedTile:
    """A tile of the last table read and judged: where it lay, the code it was judged with, and whether
    its patch of the frame now is unchanged."""

    center: tuple[float, float]
    code: str
    unchanged: bool
    outline: tuple[tuple[float, float], ...] = ()


def judged_tiles(outlines: Sequence[Sequence[tuple[float, float]]], codes: Sequence[str],
                  unchanged: Sequence[bool]) -> tuple[JudgedTile, ...]:
    """The last settled table's tiles from its outlines, codes ("" where not known) and the eyes'
    unchanged flags (one each)."""
    if not (len(outlines) == len(codes) == len(unchanged)):
        raise ValueError(f"settled tiles need one code and one flag per outline, got {len(outlines)} outlines, "
                         f"{len(codes)} codes and {len(unchanged)} flags")
    tiles = []
    for outline, code, same in zip(outlines, codes, unchanged):
        xs, ys = [p[0] for p in outline], [p[1] for p in outline]
        tiles.append(JudgedTile((sum(xs) / len(xs), sum(ys) / len(ys)), code, bool(same),
                                 tuple((float(x), float(y)) for x, y in outline)))
    return tuple(tiles)


def steady_reading(reading: TableReading, settled: Sequence[JudgedTile], read_unchanged: Sequence[bool] = (),
                   radius: float = SAME_TILE_RADIUS) -> TableReading:
    """`reading` made to agree with the last settled table wherever its patch is unchanged.

    Read tiles and settled tiles are matched by position (within `radius` tile widths, one to one,
    nearest first). A read tile on an unchanged settled tile of known code takes that code; an
    unchanged settled tile of known code that no read tile lies on is put back; a read tile that
    matches no settled tile, lies inside no settled outline and whose own patch is unchanged
    (`read_unchanged`, one flag per read tile; empty: not known, nothing is taken out) lay on bare
    table then and is taken out."""
    if not settled:
        return reading
    if read_unchanged and len(read_unchanged) != len(reading.tiles):
        raise ValueError(f"steadying needs one unchanged flag per read tile, got {len(read_unchanged)} flags "
                         f"for {len(reading.tiles)} tiles")
    matched = nearest_pairs([tile.center for tile in reading.tiles], [old.center for old in settled],
                            radius * tile_width(reading))
    used_settled = set(matched.values())
    tiles = list(reading.tiles)
    warnings = list(reading.warnings)
    for i, j in sorted(matched.items()):
        tile, old = tiles[i], settled[j]
        if old.unchanged and old.code and tile.code != old.code:
            tiles[i] = _with_code(tile, old.code)
            warnings.append(f"tile at {_at(tile.center)} read {tile.code}{KEPT_CODE}{old.code}: it lies as on the "
                            "last settled table")
    dropped = {i for i, tile in enumerate(reading.tiles)
               if read_unchanged and read_unchanged[i] and i not in matched
               and not any(_inside(tile.center, old.outline) for old in settled)}
    for i in sorted(dropped):
        tile = reading.tiles[i]
        warnings.append(f"tile at {_at(tile.center)} read {tile.code}{TAKEN_OUT}bare table lies there as on the "
                        "last settled table")
    put_back = []
    for j, old in enumerate(settled):
        if (j in used_settled or not old.unchanged or not old.code or len(old.outline) < 3
                or any(_inside(tile.center, old.outline) for i, tile in enumerate(reading.tiles) if i not in dropped)):
            continue
        put_back.append(ReadTile(old.code, PUT_BACK_CONFIDENCE, old.center, old.outline))
        warnings.append(f"tile {old.code} at {_at(old.center)} not read{PUT_BACK}it lies as on the last settled "
                        "table")
    if tiles == list(reading.tiles) and not dropped and not put_back:
        return reading
    kept = [i for i in range(len(tiles)) if i not in dropped]
    index_of = {i: n for n, i in enumerate(kept)}
    sets = tuple(s for s in (tuple(index_of[i] for i in members if i in index_of) for members in reading.sets) if s)
    # a put-back tile lies in no set: rebuilding joins it to its set when all of that set lies as it lay
    return replace(reading, tiles=tuple(tiles[i] for i in kept) + tuple(put_back), sets=sets, warnings=tuple(warnings))


def _with_code(tile: ReadTile, code: str) -> ReadTile:
    """The tile read as `code`, as sure as it was of the code it read; that code becomes an alternative."""
    others = [(c, p) for c, p in tile.alternatives if c != code]
    return replace(tile, code=code, alternatives=((tile.code, tile.confidence), *others)[: max(1, len(tile.alternatives))])


def _at(point: tuple[float, float]) -> str:
    return f"({point[0]:.0f}, {point[1]:.0f})"


def _inside(point: tuple[float, float], outline: Sequence[tuple[float, float]]) -> bool:
    """Whether `point` lies inside the polygon `outline` (even-odd rule; fewer than three corners: never)."""
    if len(outline) < 3:
        return False
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(outline, (*outline[1:], outline[0])):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside
