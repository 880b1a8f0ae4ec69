"""Exact arrangement solver: lay tiles out as valid runs and groups.

Answers, exactly and in well under a millisecond for a whole table:
- `can_partition`: does every tile (jokers included) fit into valid sets?
- `best_partition`: the best part that does (most tiles, or most points) and the rest;
- `max_meld_points`: the most points a rack could lay on its own (the initial meld);
- `best_move`: the classic best move, keeping every table tile in a set and laying as
  many rack tiles (or points) as possible.

Rules applied (RULES.md): a group is 3 or 4 tiles of one number in distinct colours; a
run is 3 or more consecutive numbers of one colour, 1 lowest, no wrap from 13 to 1. A
joker stands for any tile, even one whose two real copies are already laid, and is
worth the number it stands for. Every set holds at least one real tile; with at most
two jokers in the game and sets of at least 3 tiles that holds by itself.

The search is the per-number dynamic programme of van Rijn, Takes and Vis (2016), see
solver_states and docs/solver.md.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable

from .solver_layout import lay_out
from .solver_search import Counts, Laying, best_laying, can_lay_all
from .tiles import (
    COLOURS,
    COPIES_PER_TILE,
    HIGHEST_NUMBER,
    JOKER_COUNT,
    Tile,
    check_tile_counts,
    parse_tile,
)

__all__ = [
    "Arrangement",
    "Objective",
    "best_move",
    "best_partition",
    "can_partition",
    "max_meld_points",
    "reaches_meld_points",
]


class Objective(enum.Enum):
    """What "best" means. Ties are broken by the other measure (then arbitrarily)."""

    TILES = "tiles"
    POINTS = "points"


# Value of one laid tile of each number, so that one integer orders layings by the
# objective first and the other measure second: at most 106 tiles and 1,378 points.
_UNIT_VALUES = {
    Objective.TILES: tuple(2000 + number for number in range(HIGHEST_NUMBER + 1)),
    Objective.POINTS: tuple(200 * number + 1 for number in range(HIGHEST_NUMBER + 1)),
}
_POINT_VALUES = tuple(range(HIGHEST_NUMBER + 1))
_NO_TILES: Counts = ((0,) * len(COLOURS),) * (HIGHEST_NUMBER + 3)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Tiles laid out as valid sets, and what was left over.

    `sets` are laid out in order: runs ascending, groups by colour, a joker at the
    place of the tile it stands for; `joker_values[i]` lists, in order, the tiles the
    jokers of `sets[i]` stand for (a group's joker takes a colour missing from it).
    `tile_count` and `points` measure all of `sets` (a joker counts the number it
    stands for). `played` are the tiles that were free to lay and were laid (for
    `best_partition` the laid tiles, for `best_move` the rack tiles moved to the
    table) and `played_points` their points; `complete` means nothing is left over."""

    sets: tuple[tuple[Tile, ...], ...]
    joker_values: tuple[tuple[Tile, ...], ...]
    leftover: tuple[Tile, ...]
    complete: bool
    tile_count: int
    points: int
    played: tuple[Tile, ...] = ()
    played_points: int = 0

    def __str__(self) -> str:
        laid = " ".join(
            "[" + " ".join(_describe(tile, values) for tile, values in _with_values(tiles, jokers)) + "]"
            for tiles, jokers in zip(self.sets, self.joker_values)
        )
        if self.leftover:
            left = " ".join(tile.code for tile in self.leftover)
            return f"{laid or '(nothing laid)'} left over: {left}"
        return laid or "(nothing laid)"


def can_partition(tiles: Iterable[Tile | str]) -> bool:
    """Whether all of `tiles` can be laid out as valid sets at once (an empty table can)."""
    counts, jokers = _counts(_as_tiles(tiles), "tiles")
    return can_lay_all(counts, jokers)


def best_partition(
    tiles: Iterable[Tile | str], objective: Objective = Objective.TILES
) -> Arrangement:
    """The best subset of `tiles` laid out as valid sets, and the leftover."""
    given = _as_tiles(tiles)
    counts, jokers = _counts(given, "tiles")
    laying = _best_high_first(counts, jokers, _UNIT_VALUES[_objective(objective)], True)
    return _arrangement(laying, required=(), optional=given)


def max_meld_points(tiles: Iterable[Tile | str]) -> int:
    """The most points that disjoint valid sets from `tiles` can make (jokers count the
    number they stand for): could this rack have made an initial meld of 30?"""
    counts, jokers = _counts(_as_tiles(tiles), "tiles")
    return _best_high_first(counts, jokers, _POINT_VALUES, False).value


def reaches_meld_points(tiles: Iterable[Tile | str], points: int) -> bool:
    """Exact yes/no: do disjoint valid sets from `tiles` make at least `points`?

    The same search as max_meld_points, but it stops at the first laying that is
    enough and cuts every branch that cannot reach it, so it never has to prove a
    maximum (the slow part on racks with both jokers)."""
    if points <= 0:
        return True
    counts, jokers = _counts(_as_tiles(tiles), "tiles")
    return _best_high_first(counts, jokers, _POINT_VALUES, False, enough=points) is not None


def _best_high_first(
    counts: Counts, jokers: int, unit_values: tuple[int, ...], keep_choices: bool, enough: int | None = None
) -> Laying | None:
    """best_laying with nothing required, walking the numbers from 13 down to 1.

    Runs read the same both ways, so the walk may go either way; high numbers first
    finds the valuable layings first and then the bound on what low numbers could add
    cuts far more. (With required and optional jokers the upward walk is kept: it
    values the optional jokers by where they lie, see best_laying.)"""
    flipped = (counts[0], *reversed(counts[1 : HIGHEST_NUMBER + 1]), *counts[HIGHEST_NUMBER + 1 :])
    flipped_units = (unit_values[0], *reversed(unit_values[1 : HIGHEST_NUMBER + 1]))
    laying = best_laying(
        _NO_TILES, flipped, 0, jokers, flipped_units, keep_choices, jokers_early=True, enough=enough
    )
    if laying is None:
        # With nothing required a laying always exists (lay nothing), unless `enough` asked for more.
        assert enough is not None
        return None
    # The same run copies per number, read upward, are laid out just as well by the
    # upward layout: its choice of next state is the dominant one at every number.
    return Laying(laying.value, laying.jokers_laid, tuple(reversed(laying.choices)))


def best_move(
    rack: Iterable[Tile | str],
    table_tiles: Iterable[Tile | str],
    objective: Objective = Objective.TILES,
) -> Arrangement | None:
    """The classic best move: every table tile stays in some set and as many rack tiles
    (or rack points) as possible join them. The whole new table is returned; `played`
    are the rack tiles laid and `leftover` the rack tiles kept. None when the table
    tiles cannot be laid out as valid sets even with help from the rack."""
    rack_tiles = _as_tiles(rack)
    table = _as_tiles(table_tiles)
    _counts(rack_tiles + table, "rack and table together")
    table_codes, table_jokers = _counts(table, "table")
    rack_codes, rack_jokers = _counts(rack_tiles, "rack")
    laying = best_laying(
        table_codes, rack_codes, table_jokers, rack_jokers, _UNIT_VALUES[_objective(objective)]
    )
    if laying is None:
        return None
    return _arrangement(laying, required=table, optional=rack_tiles)


def _objective(objective: object) -> Objective:
    if not isinstance(objective, Objective):
        raise TypeError(f"objective must be Objective.TILES or Objective.POINTS, got {objective!r}")
    return objective


def _as_tiles(tiles: Iterable[Tile | str]) -> tuple[Tile, ...]:
    if isinstance(tiles, (str, Tile)):
        raise TypeError(f"expected a collection of tiles, got a single {tiles!r}")
    return tuple(tile if isinstance(tile, Tile) else parse_tile(tile) for tile in tiles)


# (number, colour index) of every tile face; None for the joker.
_SLOT = {Tile(colour, number): (number, index) for index, colour in enumerate(COLOURS)
         for number in range(1, HIGHEST_NUMBER + 1)}


def _counts(tiles: tuple[Tile, ...], where: str) -> tuple[Counts, int]:
    """`counts[number][colour]` for numbers 0..15 (see solver_search) and the jokers."""
    grid = [[0] * len(COLOURS) for _ in range(HIGHEST_NUMBER + 3)]
    jokers = 0
    slot_of = _SLOT
    for tile in tiles:
        slot = slot_of.get(tile)
        if slot is None:
            jokers += 1
        else:
            grid[slot[0]][slot[1]] += 1
    if jokers > JOKER_COUNT or any(count > COPIES_PER_TILE for row in grid for count in row):
        check_tile_counts(tiles, where)  # raises, naming the tile
    return tuple(tuple(row) for row in grid), jokers


def _arrangement(
    laying: Laying, required: tuple[Tile, ...], optional: tuple[Tile, ...]
) -> Arrangement:
    laid_sets = lay_out(laying.choices)
    laid_sets.sort(key=lambda placed: (placed[0][1].number, placed[0][1].sort_key, len(placed)))
    sets = tuple(tuple(tile for tile, _ in placed) for placed in laid_sets)
    joker_values = tuple(
        tuple(stands_for for tile, stands_for in placed if tile.is_joker) for placed in laid_sets
    )
    laid_faces = [tile for placed in laid_sets for tile, _ in placed]
    points = sum(stands_for.number for placed in laid_sets for _, stands_for in placed)

    # What was free to lay and was laid: everything laid minus the required tiles.
    remaining = _multiset(laid_faces)
    for tile in required:
        remaining[tile] -= 1
    played: list[Tile] = []
    leftover: list[Tile] = []
    for tile in optional:
        if remaining.get(tile, 0) > 0:
            remaining[tile] -= 1
            played.append(tile)
        else:
            leftover.append(tile)
    # The optional jokers are the ones standing for the highest numbers (jokers are
    # interchangeable, and the programme valued them that way).
    played_jokers = sum(1 for tile in played if tile.is_joker)
    joker_numbers = sorted(
        (stands_for.number for placed in laid_sets for tile, stands_for in placed if tile.is_joker),
        reverse=True,
    )
    played_points = sum(tile.number for tile in played if not tile.is_joker) + sum(
        joker_numbers[:played_jokers]
    )
    return Arrangement(
        sets=sets,
        joker_values=joker_values,
        leftover=tuple(sorted(leftover, key=lambda tile: tile.sort_key)),
        complete=not leftover,
        tile_count=len(laid_faces),
        points=points,
        played=tuple(sorted(played, key=lambda tile: tile.sort_key)),
        played_points=played_points,
    )


def _multiset(tiles: Iterable[Tile]) -> dict[Tile, int]:
    counts: dict[Tile, int] = {}
    for tile in tiles:
        counts[tile] = counts.get(tile, 0) + 1
    return counts


def _with_values(tiles: tuple[Tile, ...], jokers: tuple[Tile, ...]) -> Iterable[tuple[Tile, Tile | None]]:
    stands_for = iter(jokers)
    for tile in tiles:
        yield tile, (next(stands_for) if tile.is_joker else None)


def _describe(tile: Tile, stands_for: Tile | None) -> str:
    return f"J={stands_for.code}" if stands_for is not None else tile.code

