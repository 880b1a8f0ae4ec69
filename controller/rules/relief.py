"""The japan-2017 relief: "no penalty if one straight movement turns the table valid".

Reading (RuleSet.relief_one_straight_movement): one straight movement moves ONE contiguous
block of tiles (as they lie in one set) from that place to ONE other place: elsewhere in the
same set, into another set at any position, or out as a new set. Taking a block from the
middle of a set leaves its left and right parts as two sets, because that is how they then lie.

Only the source and the target set change, so a table with more than two unacceptable sets
has no relief; the search tries those sets first and stops at the first move the caller
accepts (`table_ok`, usually "the turn would be legal on this table").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from .table import Table
from .tiles import Tile

Sets = tuple[tuple[Tile, ...], ...]


@dataclass(frozen=True, slots=True)
class StraightMove:
    source: int  # index of the set the block leaves (in the table before the move)
    start: int  # block = tiles[start:stop] of that set
    stop: int
    target: int | None  # index of the set receiving it; None = laid as a new set
    position: int  # where the block goes in the target (for the same set: after removal)
    tiles: tuple[Tile, ...]
    table: Table  # the table after the move

    def describe(self) -> str:
        block = " ".join(tile.code for tile in self.tiles)
        where = (
            "as a new set"
            if self.target is None
            else ("elsewhere in the same set" if self.target == self.source else f"into set {self.target + 1}")
        )
        return f"move [{block}] from set {self.source + 1} {where}"

    def to_dict(self) -> dict:
        return {
            "move": [tile.code for tile in self.tiles],
            "from_set": self.source,
            "to_set": self.target,
            "position": self.position,
            "description": self.describe(),
            "table": self.table.codes(),
        }


def apply_move(sets: Sets, source: int, start: int, stop: int, target: int | None, position: int) -> Sets:
    """The sets after moving sets[source][start:stop] to (target, position)."""
    tiles = sets[source]
    block = tiles[start:stop]
    if target == source:
        rest = tiles[:start] + tiles[stop:]
        return sets[:source] + (rest[:position] + block + rest[position:],) + sets[source + 1 :]
    result: list[tuple[Tile, ...]] = []
    for index, other in enumerate(sets):
        if index == source:
            result.extend(piece for piece in (tiles[:start], tiles[stop:]) if piece)
        elif index == target:
            result.append(other[:position] + block + other[position:])
        else:
            result.append(other)
    if target is None:
        result.append(block)
    return tuple(result)


def find_straight_move(
    table: Table,
    set_ok: Callable[[int, tuple[Tile, ...]], bool],
    piece_ok: Callable[[tuple[Tile, ...]], bool],
    table_ok: Callable[[Table], bool],
) -> StraightMove | None:
    """First single block move after which `table_ok` accepts the table, or None.

    set_ok(index, tiles): is the untouched set at `index` acceptable as it lies;
    piece_ok(tiles): is a set that the move changed or created acceptable (a valid set).
    """
    sets = table.sets
    bad = [index for index, tiles in enumerate(sets) if not set_ok(index, tiles)]
    if not bad or len(bad) > 2:
        return None
    for move in _candidates(sets, bad, piece_ok):
        moved = Table(apply_move(sets, *move))
        if table_ok(moved):
            source, start, stop, target, position = move
            return StraightMove(source, start, stop, target, position, sets[source][start:stop], moved)
    return None


def _faces(tiles: tuple[Tile, ...]) -> tuple[frozenset, frozenset]:
    real = [tile for tile in tiles if not tile.is_joker]
    return frozenset(tile.colour for tile in real), frozenset(tile.number for tile in real)


def _may_join(a: tuple[frozenset, frozenset], b: tuple[frozenset, frozenset]) -> bool:
    """Necessary for any valid set, whatever the reading: one colour or one number among real tiles."""
    return len(a[0] | b[0]) <= 1 or len(a[1] | b[1]) <= 1


def _blocks(size: int) -> Iterator[tuple[int, int]]:
    """Every contiguous block, smallest first: a single misplaced tile is the usual slip."""
    for length in range(1, size + 1):
        for start in range(size - length + 1):
            yield start, start + length


def _candidates(sets: Sets, bad: list[int], piece_ok) -> Iterator[tuple[int, int, int, int | None, int]]:
    single = bad[0] if len(bad) == 1 else None
    sources = bad if single is None else [single] + [i for i in range(len(sets)) if i != single]
    faces = [_faces(tiles) for tiles in sets]
    for source in sources:
        tiles = sets[source]
        size = len(tiles)
        reorder = source == single and _may_join(faces[source], faces[source])
        for start, stop in _blocks(size):
            block = tiles[start:stop]
            if reorder:
                rest = tiles[:start] + tiles[stop:]
                for position in range(len(rest) + 1):
                    if position != start and piece_ok(rest[:position] + block + rest[position:]):
                        yield (source, start, stop, source, position)
            left, right = tiles[:start], tiles[stop:]
            if (left and not piece_ok(left)) or (right and not piece_ok(right)):
                continue
            if single is None:
                targets = [other for other in bad if other != source]
            elif source == single:
                targets = [other for other in range(len(sets)) if other != source]
            else:
                targets = [single]
            block_faces = _faces(block)
            for target in targets:
                if not _may_join(faces[target], block_faces):
                    continue
                receiving = sets[target]
                for position in range(len(receiving) + 1):
                    if piece_ok(receiving[:position] + block + receiving[position:]):
                        yield (source, start, stop, target, position)
            if source == single and piece_ok(block):
                yield (source, start, stop, None, 0)
