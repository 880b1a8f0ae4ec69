"""What every format shares: settings read from text, the round builder, result checks
by kind of game, and the tallies standings are sorted from.

A format is a small class of pure functions over an `Event`; it never reads a file,
a clock or a global random state: the event module hands it a `random.Random(seed)`.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Callable, ClassVar, Iterable, Mapping, Sequence

from ..draws import lot_order
from ..errors import FormatError, PlayerListError, ScoreError
from ..mahjong import MahjongScoring, tenths
from ..model import (
    DrawEntry,
    Event,
    GameKind,
    HanchanResult,
    MatchResult,
    Result,
    Round,
    RummikubGameResult,
    Standings,
    Table,
)


class EventFormat:
    name: ClassVar[str]
    game_kind: ClassVar[GameKind]
    variant: ClassVar[str | None] = None  # the rule set (controller/rules/variants.py) its tables play by
    settings_type: ClassVar[type]
    summary: ClassVar[str]
    table_disqualification: ClassVar[bool] = False

    def check_players(self, players: Sequence[str], settings: object) -> None:
        raise NotImplementedError

    def check_entry(self, players: Sequence[str], settings: object) -> None:
        """The players left to draw the first round from (after withdrawals and late entries)."""
        self.check_players(players, settings)

    def round_count(self, event: Event) -> int:
        """How many rounds the whole event has (knockout: depends on the entry)."""
        raise NotImplementedError

    def late_entry_rounds(self, event: Event) -> int:
        """A late entry is taken while at most this many rounds are drawn (0: before the first draw)."""
        return 0

    def plan_round(self, event: Event, number: int, rng: random.Random) -> "RoundPlan":
        raise NotImplementedError

    def check_scores(self, event: Event, table: Table, result: Result) -> None:
        """Format-specific arithmetic of one result; names are checked before this."""

    def standings(self, event: Event) -> Standings:
        raise NotImplementedError


@dataclass(frozen=True)
class RoundPlan:
    name: str
    tables: tuple[Table, ...]
    draw: tuple[DrawEntry, ...]
    lineup: tuple[str | None, ...] = ()


def build_round(number: int, seed: int, plan: RoundPlan, rng: random.Random) -> Round:
    players = [p for table in plan.tables for p in table.seats] or [
        p for p in plan.lineup if p is not None
    ]
    order, lots = lot_order(players, rng)
    return Round(
        number=number,
        name=plan.name,
        seed=seed,
        tables=plan.tables,
        draw=plan.draw + tuple(lots),
        lot_order=order,
        lineup=plan.lineup,
    )


# --- settings -----------------------------------------------------------------------

MAX_SETTING = 1000  # a whole-number setting counts games, players or rounds: never more than this


def _parse_value(name: str, default: object, raw: object, choices: Mapping[str, tuple[str, ...]]):
    try:
        if isinstance(default, bool):
            text = str(raw).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if isinstance(default, int):
            if isinstance(raw, bool):
                raise ValueError
            value = int(str(raw).strip())
            if not -MAX_SETTING <= value <= MAX_SETTING:
                raise FormatError(f"setting {name}={value}: expected at most {MAX_SETTING} (games, players, rounds)")
            return value
        if isinstance(default, str):
            text = str(raw).strip()
            if name in choices and text not in choices[name]:
                raise FormatError(
                    f"setting {name}={text!r}: expected one of {', '.join(choices[name])}"
                )
            return text
        if isinstance(default, tuple):
            items = list(raw) if isinstance(raw, (list, tuple)) else [
                part.strip() for part in str(raw).split(",") if part.strip()
            ]
            if default and isinstance(default[0], Decimal):
                values = tuple(Decimal(str(item)) for item in items)
                for value in values:
                    tenths(value, f"setting {name}")
                return values
            return tuple(str(item) for item in items)
    except FormatError:
        raise
    except (ValueError, ArithmeticError, ScoreError):
        pass
    raise FormatError(f"setting {name}={raw!r} is not a valid {type(default).__name__}")


def parse_settings(settings_type: type, values: Mapping[str, object]):
    fields = {f.name: f for f in dataclasses.fields(settings_type)}
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise FormatError(
            f"unknown setting(s) {', '.join(map(repr, unknown))}; "
            f"this format has {', '.join(sorted(fields)) or 'none'}"
        )
    defaults = settings_type()
    choices = getattr(settings_type, "CHOICES", {})
    parsed = {
        name: _parse_value(name, getattr(defaults, name), raw, choices)
        for name, raw in values.items()
    }
    settings = dataclasses.replace(defaults, **parsed)
    check = getattr(settings, "check", None)
    if check is not None:
        check()
    return settings


def settings_as_json(settings: object) -> dict[str, object]:
    out: dict[str, object] = {}
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        if isinstance(value, tuple):
            value = [str(v) if isinstance(v, Decimal) else v for v in value]
        out[f.name] = value
    return out


def need_positive(settings: object, *names: str) -> None:
    for name in names:
        if getattr(settings, name) < 1:
            raise FormatError(f"setting {name}={getattr(settings, name)} must be at least 1")


# --- players ----------------------------------------------------------------------------

def check_count(format_name: str, players: Sequence[str], allowed: Callable[[int], bool], rule: str):
    if not allowed(len(players)):
        raise PlayerListError(f"{format_name} needs {rule}; the list has {len(players)}")


# --- results by kind of game ----------------------------------------------------------

def check_rummikub_world(result: RummikubGameResult) -> None:
    """Seed 003 small points: losers score minus their racks, the winner plus their sum."""
    losers = {n: s for n, s in result.scores.items() if n != result.winner}
    for name, score in losers.items():
        if score > 0:
            raise ScoreError(f"{result.game}: loser {name!r} scores {score}, above zero")
    if result.scores[result.winner] != -sum(losers.values()):
        raise ScoreError(
            f"{result.game}: winner {result.winner!r} scores {result.scores[result.winner]} "
            f"but the losers' racks add up to {-sum(losers.values())}"
        )


def check_rummikub_japan(result: RummikubGameResult, win_points: int = 100, penalty: int = 50) -> None:
    """Seed 000: the winner takes 100 (less any -50 penalties of their own: penalties
    are never passed to the winner); losers score minus their racks and penalties."""
    for name, score in result.scores.items():
        if name != result.winner and score > 0:
            raise ScoreError(f"{result.game}: loser {name!r} scores {score}, above zero")
    won = result.scores[result.winner]
    if won > win_points or (win_points - won) % penalty:
        raise ScoreError(
            f"{result.game}: winner {result.winner!r} scores {won}; a win is worth "
            f"{win_points}, less {penalty} per penalty"
        )


def check_hanchan_sum(result: HanchanResult, scoring: MahjongScoring) -> None:
    """Hanchan scores add up to the rank points plus the start-return difference, less
    whole chombo penalties (riichi sticks cancel out: they leave the hands and go to the top)."""
    total = sum(tenths(v, f"{result.game}: score") for v in result.scores.values())
    base = sum(tenths(v, "rank points") for v in scoring.rank_points) + 4 * (
        (scoring.start_points - scoring.return_points) // 100
    )
    penalty = tenths(scoring.chombo_penalty, "chombo penalty")
    gap = total - base
    if gap == 0 or (penalty and gap * penalty > 0 and gap % penalty == 0):
        return
    raise ScoreError(
        f"{result.game}: scores add up to {Decimal(total).scaleb(-1)}, expected "
        f"{Decimal(base).scaleb(-1)}"
        + (f" less a multiple of {-scoring.chombo_penalty} for chombo" if penalty else "")
    )


RESULT_TYPES: dict[GameKind, type] = {
    GameKind.RUMMIKUB: RummikubGameResult,
    GameKind.MAHJONG: HanchanResult,
    GameKind.MATCH: MatchResult,
}


# --- tallies ----------------------------------------------------------------------------

@dataclass
class RummikubTally:
    games: int = 0
    wins: int = 0
    points: int = 0


def rummikub_tally(event: Event, rounds: Iterable[int]) -> dict[str, RummikubTally]:
    tally: dict[str, RummikubTally] = {}
    for number in rounds:
        round_ = event.round(number)
        for player in round_.players():
            tally.setdefault(player, RummikubTally())
        for game in round_.game_ids():
            result = event.results.get(game)
            if result is None:
                continue
            for name, score in result.scores.items():
                entry = tally[name]
                entry.games += 1
                entry.points += score
                entry.wins += name == result.winner
    return tally


def lot_rank(round_: Round) -> dict[str, int]:
    return {player: index for index, player in enumerate(round_.lot_order)}


def lot_rank_over(event: Event, rounds: Sequence[int]) -> dict[str, tuple[int, int]]:
    """The latest round's lot decides; a player who missed it (disqualified) falls back
    to the lot of the last round they played."""
    ranks: dict[str, tuple[int, int]] = {}
    for age, number in enumerate(reversed(rounds)):
        for index, player in enumerate(event.round(number).lot_order):
            ranks.setdefault(player, (age, index))
    return ranks


def hanchan_places(event: Event, round_number: int) -> dict[str, int]:
    """Place of each player at their table in one hanchan: 1 + those scoring more."""
    places: dict[str, int] = {}
    round_ = event.round(round_number)
    for game in round_.game_ids():
        result = event.results.get(game)
        if result is None:
            continue
        for name, score in result.scores.items():
            places[name] = 1 + sum(other > score for other in result.scores.values())
    return places


def hanchan_totals(event: Event, rounds: Iterable[int]) -> dict[str, Decimal]:
    totals: dict[str, Decimal] = {}
    for number in rounds:
        round_ = event.round(number)
        for player in round_.players():
            totals.setdefault(player, Decimal("0.0"))
        for game in round_.game_ids():
            result = event.results.get(game)
            if result is not None:
                for name, score in result.scores.items():
                    totals[name] += score
    return totals


def round_complete(event: Event, number: int) -> bool:
    return number <= len(event.rounds) and not event.missing_games(number)
