"""Sets as they lie on the table: classify an ordered row of tiles as a run, a group or invalid.

`classify(tiles)` returns a `MeldCheck`: the kind, the reason when invalid, the value each
joker takes from its position (`JokerValue`) and the set's points (jokers count as the tile
they stand for). Tiles are read left to right as the camera sees them.

Readings (RuleSet fields, passed in as keyword arguments):
- `descending_runs` (default True): a run may also read high-to-low, because a set laid by the
  player across the table reaches the overhead camera reversed. An ascending reading is
  preferred when both fit (only possible with two jokers, e.g. `[J, J, R5]`).
- `ambiguous_kind` (default RUN): a set that is both a valid run and a valid group (one tile
  and two jokers, e.g. `[R5, J, J]`) is read as this kind; it decides joker values and points.

A group joker stands for the group's number; its colour is one of the colours the group lacks
(`JokerValue.colours`), settled (`JokerValue.colour`) only when exactly one colour is missing.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable

from .tiles import COLOURS, HIGHEST_NUMBER, LOWEST_NUMBER, Colour, Tile

MIN_SET_SIZE = 3
MAX_GROUP_SIZE = len(COLOURS)
MAX_RUN_SIZE = HIGHEST_NUMBER - LOWEST_NUMBER + 1


class MeldKind(enum.Enum):
    RUN = "run"
    GROUP = "group"
    INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class JokerValue:
    """What the joker at `index` (0-based, left to right) stands for."""

    index: int
    number: int
    colour: Colour | None  # None: a group joker whose colour is not settled
    colours: tuple[Colour, ...]  # every colour it may be (one for a run joker)

    @property
    def code(self) -> str:
        """`R4` for a settled joker, `?5` for a group joker of number 5 with open colour."""
        letter = self.colour.letter if self.colour is not None else "?"
        return f"{letter}{self.number}"

    def to_dict(self) -> dict:
        return {
            "index": self.index,
            "stands_for": self.code,
            "colours": [colour.letter for colour in self.colours],
        }


@dataclass(frozen=True, slots=True)
class MeldCheck:
    tiles: tuple[Tile, ...]
    kind: MeldKind
    reason: str | None
    jokers: tuple[JokerValue, ...] = ()
    points: int = 0
    # Runs only: the number at index 0 and the step (+1 ascending, -1 descending).
    run_start: int | None = None
    run_step: int = 1
    # Equal for two lays of the same set (a group in any order, a run either way): the one
    # definition of "the same set" (see `same_set_key`, `set_changes`). Computed once per distinct
    # set because classify() is cached and judging compares many sets.
    identity: tuple = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "identity", self._identity())

    @property
    def is_valid(self) -> bool:
        return self.kind is not MeldKind.INVALID

    @property
    def codes(self) -> list[str]:
        return [tile.code for tile in self.tiles]

    def value_at(self, index: int) -> tuple[Colour | None, int] | None:
        """(colour, number) the tile at `index` stands for; None for an invalid set."""
        tile = self.tiles[index]
        if not tile.is_joker:
            return (tile.colour, tile.number)  # type: ignore[return-value]
        for joker in self.jokers:
            if joker.index == index:
                return (joker.colour, joker.number)
        return None

    def _identity(self) -> tuple:
        if self.kind is MeldKind.RUN:
            values = [(self.run_start or 0) + self.run_step * i for i in range(len(self.tiles))]
            pairs = sorted(zip(values, (tile.is_joker for tile in self.tiles)))
            colour = next(tile.colour for tile in self.tiles if not tile.is_joker)
            return ("run", colour, tuple(pairs))
        if self.kind is MeldKind.GROUP:
            return ("group", tuple(sorted(tile.sort_key for tile in self.tiles)))
        return ("invalid", self.tiles)

    def to_dict(self) -> dict:
        return {
            "tiles": self.codes,
            "kind": self.kind.value,
            "reason": self.reason,
            "jokers": [joker.to_dict() for joker in self.jokers],
            "points": self.points,
        }


def classify(
    tiles: Iterable[Tile],
    *,
    descending_runs: bool = True,
    ambiguous_kind: MeldKind = MeldKind.RUN,
) -> MeldCheck:
    """Classify one set as it lies, left to right."""
    return _classify(tuple(tiles), descending_runs, ambiguous_kind)


def same_set_key(
    tiles: Iterable[Tile],
    *,
    descending_runs: bool = True,
    ambiguous_kind: MeldKind = MeldKind.RUN,
) -> tuple:
    """What makes two lays the same set, as the rule set reads them: equal keys for a group in any
    order and for a run laid either way (where the rule set reads runs both ways), with its jokers
    standing for the same tiles. An invalid set is only the same as itself laid in the same order.

    The one definition every comparison of tables uses: the judge (unchanged sets), the restore
    check, the audit pages and turn data ("gone" and "new")."""
    return classify(tiles, descending_runs=descending_runs, ambiguous_kind=ambiguous_kind).identity


@dataclass(frozen=True, slots=True)
class SetChanges:
    """How the sets of one table differ from another's, by `same_set_key` (each set counted as often
    as it lies). Indices into the tables compared, grouped by set in the order each set first lies."""

    gone: tuple[int, ...]  # sets of `before` that `after` does not hold
    new: tuple[int, ...]  # sets of `after` that `before` did not hold

    @property
    def same(self) -> bool:
        return not self.gone and not self.new


def set_changes(
    before: Iterable[Iterable[Tile]],
    after: Iterable[Iterable[Tile]],
    *,
    descending_runs: bool = True,
    ambiguous_kind: MeldKind = MeldKind.RUN,
) -> SetChanges:
    """The sets gone from `before` and new in `after`: a set laid again in another order is neither."""
    reading = {"descending_runs": descending_runs, "ambiguous_kind": ambiguous_kind}
    keys_before = [same_set_key(tiles, **reading) for tiles in before]
    keys_after = [same_set_key(tiles, **reading) for tiles in after]
    return SetChanges(_unmatched(keys_before, keys_after), _unmatched(keys_after, keys_before))


def _unmatched(keys: list[tuple], others: list[tuple]) -> tuple[int, ...]:
    left: dict[tuple, int] = {}
    for key in others:
        left[key] = left.get(key, 0) + 1
    by_key: dict[tuple, list[int]] = {key: [] for key in keys}  # the order each set first lies in
    for index, key in enumerate(keys):
        if left.get(key, 0) > 0:
            left[key] -= 1
        else:
            by_key[key].append(index)
    return tuple(index for indices in by_key.values() for index in indices)


def is_valid_set(tiles: tuple[Tile, ...], *, descending_runs: bool = True) -> bool:
    """classify(tiles).is_valid without the reasons: the relief search asks this thousands of times."""
    size = len(tiles)
    if size < MIN_SET_SIZE:
        return False
    first = None
    for index, tile in enumerate(tiles):
        if tile.colour is not None:
            first = index
            break
    if first is None:
        return False
    colour, number = tiles[first].colour, tiles[first].number
    if size <= MAX_GROUP_SIZE:
        seen = []
        for tile in tiles:
            if tile.colour is None:
                continue
            if tile.number != number or tile.colour in seen:
                break
            seen.append(tile.colour)
        else:
            return True
    if size > MAX_RUN_SIZE:
        return False
    for step in (1, -1) if descending_runs else (1,):
        start = number - step * first  # type: ignore[operator]
        end = start + step * (size - 1)
        if min(start, end) < LOWEST_NUMBER or max(start, end) > HIGHEST_NUMBER:
            continue
        for index, tile in enumerate(tiles):
            if tile.colour is not None and (tile.colour is not colour or tile.number != start + step * index):
                break
        else:
            return True
    return False


@lru_cache(maxsize=1 << 16)
def _classify(tiles: tuple[Tile, ...], descending_runs: bool, ambiguous_kind: MeldKind) -> MeldCheck:
    if len(tiles) < MIN_SET_SIZE:
        return MeldCheck(tiles, MeldKind.INVALID, f"a set needs at least {MIN_SET_SIZE} tiles, this has {len(tiles)}")
    real = [tile for tile in tiles if not tile.is_joker]
    if not real:
        return MeldCheck(tiles, MeldKind.INVALID, "a set of jokers only has no value")
    as_group, group_reason = _read_group(tiles, real)
    as_run, run_reason = _read_run(tiles, real, descending_runs)
    if as_group is not None and as_run is not None:
        return as_group if ambiguous_kind is MeldKind.GROUP else as_run
    if as_group is not None:
        return as_group
    if as_run is not None:
        return as_run
    same_number = len({tile.number for tile in real}) == 1
    same_colour = len({tile.colour for tile in real}) == 1
    if same_number and not same_colour:
        reason = group_reason
    elif same_colour and not same_number:
        reason = run_reason
    elif same_number and same_colour:
        reason = f"{real[0].code} repeated: a group needs different colours, a run consecutive numbers"
    else:
        reason = "mixes colours and numbers: neither a run (one colour) nor a group (one number)"
    return MeldCheck(tiles, MeldKind.INVALID, reason)


def _read_group(tiles: tuple[Tile, ...], real: list[Tile]) -> tuple[MeldCheck | None, str]:
    number = real[0].number
    if any(tile.number != number for tile in real):
        return None, "a group needs one number"
    if len(tiles) > MAX_GROUP_SIZE:
        return None, f"a group has at most {MAX_GROUP_SIZE} tiles, this has {len(tiles)}"
    colours = [tile.colour for tile in real]
    doubled = sorted({c for c in colours if colours.count(c) > 1}, key=COLOURS.index)
    if doubled:
        codes = ", ".join(f"{c.letter}{number}" for c in doubled)
        return None, f"a group needs different colours, {codes} appears twice"
    missing = tuple(c for c in COLOURS if c not in colours)
    jokers = tuple(
        JokerValue(i, number, missing[0] if len(missing) == 1 else None, missing)  # type: ignore[arg-type]
        for i, tile in enumerate(tiles)
        if tile.is_joker
    )
    return MeldCheck(tiles, MeldKind.GROUP, None, jokers, number * len(tiles)), ""  # type: ignore[operator]


def _read_run(tiles: tuple[Tile, ...], real: list[Tile], descending_runs: bool) -> tuple[MeldCheck | None, str]:
    colour = real[0].colour
    if any(tile.colour != colour for tile in real):
        return None, "a run needs one colour"
    if len(tiles) > MAX_RUN_SIZE:
        return None, f"a run has at most {MAX_RUN_SIZE} tiles, this has {len(tiles)}"
    first_index = next(i for i, tile in enumerate(tiles) if not tile.is_joker)
    first_number: int = tiles[first_index].number  # type: ignore[assignment]
    reasons = []
    for step in (1, -1) if descending_runs else (1,):
        start = first_number - step * first_index
        end = start + step * (len(tiles) - 1)
        broken = next(
            (
                (prev, tile)
                for prev, tile, i in _real_pairs(tiles)
                if tile.number != start + step * i
            ),
            None,
        )
        if broken is not None:
            prev, tile = broken
            reasons.append(f"{prev.code} then {tile.code}: numbers are not consecutive")
            continue
        if min(start, end) < LOWEST_NUMBER or max(start, end) > HIGHEST_NUMBER:
            reasons.append(f"the run would need numbers outside {LOWEST_NUMBER}..{HIGHEST_NUMBER} (13-1 does not wrap)")
            continue
        jokers = tuple(
            JokerValue(i, start + step * i, colour, (colour,))  # type: ignore[arg-type]
            for i, tile in enumerate(tiles)
            if tile.is_joker
        )
        points = sum(start + step * i for i in range(len(tiles)))
        return MeldCheck(tiles, MeldKind.RUN, None, jokers, points, start, step), ""
    return None, reasons[0]


def _real_pairs(tiles: tuple[Tile, ...]):
    """(previous real tile, real tile, index) for each real tile, to name a broken step."""
    previous = None
    for i, tile in enumerate(tiles):
        if tile.is_joker:
            continue
        yield (previous or tile), tile, i
        previous = tile
