"""Score a finished game under a RuleSet.

    record = GameRecord.from_dict({...})      # or build GameRecord directly
    result = score_game(record, WORLD)       # -> GameScore(winner, scores, wins)

Ends: `empty-rack` (the winner laid their last tile) or `pool-out`. Rack values count a joker
as RuleSet.joker_rack_value. Per variant (all RuleSet fields):
- losers score minus their rack; after a pool-out minus (own rack - winner's rack)
  (`pool_out_loss`);
- the winner scores `winner_bonus` plus, when `winner_collects_losses`, the sum of what the
  losers lost (world: their -100/-200 included, a reading);
- every penalty costs `penalty_points`, the winner included, and is never collected by anyone;
- ties for the lowest rack go to the seat nearest the starter (`tie_break`);
- world: a loser who never opened scores `unopened_points` (-100), or
  `unopened_could_open_points` (-200) when the rack shown at the end could have made an
  initial meld (exact search, `solver.max_meld_points`), instead of minus the rack;
  `big_points` gives the winner 1 win and everyone else 0.
"""
from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from .errors import GameRecordError
from .tiles import COLOURS, HIGHEST_NUMBER, LOWEST_NUMBER, Tile, check_tile_counts, parse_tiles
from .variants import PoolOutLoss, RuleSet, TieBreak, get_ruleset


MIN_PLAYERS, MAX_PLAYERS = 2, 4  # a Rummikub game (the set of 106 tiles)


class GameEnd(enum.StrEnum):
    # a str enum: the game records its value (game-scored events); never remove or rename one
    EMPTY_RACK = "empty-rack"
    POOL_OUT = "pool-out"


@dataclass(frozen=True)
class GameRecord:
    players: tuple[str, ...]  # seat order, clockwise
    starter: str
    end: GameEnd
    winner: str | None  # required for empty-rack; for pool-out computed (and checked if given)
    racks: Mapping[str, tuple[Tile, ...]]
    opened: Mapping[str, bool]
    penalties: Mapping[str, int]

    def __post_init__(self) -> None:
        players = self.players
        if not all(isinstance(p, str) and p for p in players) or len(set(players)) != len(players):
            raise GameRecordError(f"players must be distinct non-empty names, got {list(players)!r}")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise GameRecordError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}: "
                                  f"{list(players)!r}")
        if self.starter not in players:
            raise GameRecordError(f"starter {self.starter!r} is not one of the players {list(players)!r}")
        for what, mapping in (("racks", self.racks), ("opened", self.opened), ("penalties", self.penalties)):
            unknown = [name for name in mapping if name not in players]
            if unknown:
                raise GameRecordError(f"{what}: {unknown[0]!r} is not one of the players {list(players)!r}")
        for name, count in self.penalties.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise GameRecordError(f"penalties: {name!r} has {count!r}; expected a count of 0 or more")
        for name, flag in self.opened.items():
            if not isinstance(flag, bool):
                raise GameRecordError(f"opened: {name!r} has {flag!r}; expected true or false")
        missing = [name for name in players if name not in self.racks and name != self.winner]
        if missing:
            raise GameRecordError(f"racks: no rack given for {missing[0]!r}")
        if self.winner is not None and self.winner not in players:
            raise GameRecordError(f"winner {self.winner!r} is not one of the players {list(players)!r}")
        if self.end is GameEnd.EMPTY_RACK:
            if self.winner is None:
                raise GameRecordError("an empty-rack end needs the winner's name")
            if self.racks.get(self.winner):
                shown = " ".join(t.code for t in self.racks[self.winner])
                raise GameRecordError(f"winner {self.winner!r} still holds tiles ({shown}) at an empty-rack end")
        check_tile_counts((tile for rack in self.racks.values() for tile in rack), "racks")

    def rack(self, name: str) -> tuple[Tile, ...]:
        return tuple(self.racks.get(name, ()))

    @classmethod
    def from_dict(cls, data: Mapping) -> "GameRecord":
        """From the JSON shape of `tileref score` (the variant key is read by the caller)."""
        if not isinstance(data, Mapping):
            raise GameRecordError(f"a game record must be an object, got {data!r}")
        try:
            end = GameEnd(data.get("end"))
        except ValueError:
            raise GameRecordError(f"end {data.get('end')!r} must be 'empty-rack' or 'pool-out'") from None
        players = data.get("players")
        if not isinstance(players, list):
            raise GameRecordError(f"players must be a list of names, got {players!r}")
        racks = data.get("racks", {})
        if not isinstance(racks, Mapping) or not all(isinstance(r, list) for r in racks.values()):
            raise GameRecordError(f"racks must map each player to a list of tile codes, got {racks!r}")
        for key in ("opened", "penalties"):
            if not isinstance(data.get(key, {}), Mapping):
                raise GameRecordError(f"{key} must map player names to values, got {data.get(key)!r}")
        return cls(
            players=tuple(players),
            starter=data.get("starter"),  # type: ignore[arg-type]
            end=end,
            winner=data.get("winner"),
            racks={name: parse_tiles(codes) for name, codes in racks.items()},
            opened=dict(data.get("opened", {})),
            penalties=dict(data.get("penalties", {})),
        )


@dataclass(frozen=True)
class GameScore:
    winner: str
    scores: dict[str, int]
    wins: dict[str, int] | None  # big points, world only
    rack_values: dict[str, int]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        data: dict = {"winner": self.winner, "scores": dict(self.scores)}
        if self.wins is not None:
            data["wins"] = dict(self.wins)
        return data


def rack_value(tiles: Iterable[Tile], ruleset: RuleSet) -> int:
    return sum(ruleset.joker_rack_value if tile.is_joker else tile.number for tile in tiles)  # type: ignore[misc]


def seats_from_starter(players: tuple[str, ...], starter: str) -> tuple[str, ...]:
    """Players clockwise beginning with the starter: nearest the starter first."""
    first = players.index(starter)
    return players[first:] + players[:first]


def could_have_opened(rack: Iterable[Tile], ruleset: RuleSet) -> bool:
    """Exact: do disjoint valid sets from this rack reach the initial-meld minimum?

    Sets found greedily (no jokers) are a proof when they reach the minimum; only otherwise
    does the exact yes/no search (`solver.reaches_meld_points`, jokers included) decide.
    """
    tiles = tuple(rack)
    if greedy_meld_points(tiles, ruleset.initial_meld_points) >= ruleset.initial_meld_points:
        return True
    from . import solver

    return solver.reaches_meld_points(tiles, ruleset.initial_meld_points)


def greedy_meld_points(tiles: Iterable[Tile], enough: int | None = None) -> int:
    """Points of disjoint valid sets picked greedily (jokers unused): a lower bound of the best."""
    counts = Counter(tile for tile in tiles if not tile.is_joker)
    total = 0
    while enough is None or total < enough:
        best: tuple[int, list[Tile]] = (0, [])
        for colour in COLOURS:
            row: list[Tile] = []
            for number in range(LOWEST_NUMBER, HIGHEST_NUMBER + 2):
                tile = Tile(colour, number) if number <= HIGHEST_NUMBER else None
                if tile is not None and counts[tile]:
                    row.append(tile)
                    continue
                if len(row) >= 3:
                    value = sum(t.number for t in row)  # type: ignore[misc]
                    best = max(best, (value, row), key=lambda item: item[0])
                row = []
        for number in range(LOWEST_NUMBER, HIGHEST_NUMBER + 1):
            group = [Tile(colour, number) for colour in COLOURS if counts[Tile(colour, number)]]
            if len(group) >= 3 and number * len(group) > best[0]:
                best = (number * len(group), group)
        if not best[1]:
            break
        counts -= Counter(best[1])
        total += best[0]
    return total


def score_game(
    record: GameRecord,
    ruleset: RuleSet | str,
    could_open: Callable[[tuple[Tile, ...], RuleSet], bool] = could_have_opened,
) -> GameScore:
    ruleset = get_ruleset(ruleset)
    values = {name: rack_value(record.rack(name), ruleset) for name in record.players}
    winner = _winner(record, ruleset, values)
    notes: list[str] = []
    unopened_rule = ruleset.unopened_points is not None and (
        record.end is GameEnd.EMPTY_RACK or ruleset.unopened_rule_on_pool_out
    )
    losses: dict[str, int] = {}
    for name in record.players:
        if name == winner:
            continue
        if unopened_rule and not record.opened.get(name, True):
            if ruleset.unopened_could_open_points is not None and could_open(record.rack(name), ruleset):
                losses[name] = -ruleset.unopened_could_open_points
                notes.append(f"{name} never opened though the rack could have: {ruleset.unopened_could_open_points}")
            else:
                losses[name] = -ruleset.unopened_points  # type: ignore[operator]
                notes.append(f"{name} never opened: {ruleset.unopened_points}")
        elif record.end is GameEnd.POOL_OUT and ruleset.pool_out_loss is PoolOutLoss.DIFFERENCE_TO_WINNER:
            losses[name] = values[name] - values[winner]
        else:
            losses[name] = values[name]
    scores = {}
    for name in record.players:
        if name == winner:
            score = ruleset.winner_bonus + (sum(losses.values()) if ruleset.winner_collects_losses else 0)
        else:
            score = -losses[name]
        scores[name] = score - ruleset.penalty_points * record.penalties.get(name, 0)
    wins = {name: int(name == winner) for name in record.players} if ruleset.big_points else None
    return GameScore(winner, scores, wins, values, tuple(notes))


def _winner(record: GameRecord, ruleset: RuleSet, values: dict[str, int]) -> str:
    if record.end is GameEnd.EMPTY_RACK:
        return record.winner  # type: ignore[return-value]
    order = (
        seats_from_starter(record.players, record.starter)
        if ruleset.tie_break is TieBreak.NEAREST_STARTER
        else record.players
    )
    lowest = min(values.values())
    winner = next(name for name in order if values[name] == lowest)
    if record.winner is not None and record.winner != winner:
        raise GameRecordError(
            f"winner {record.winner!r} does not hold the lowest rack after the pool ran out; {winner!r} does ({lowest})"
        )
    return winner
