"""The values a tournament is made of: rounds, tables, results, standings.

A round is one draw: the tables it seats and the games each table plays. A game is
named `R<round>-T<table>-G<game>` so a referee can read it off a score sheet.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Mapping, Union


class GameKind(enum.Enum):
    RUMMIKUB = "rummikub"
    MAHJONG = "mahjong"
    MATCH = "match"  # two players, one winner (shogi, othello)


GAME_ID = re.compile(r"R(\d+)-T(\d+)-G(\d+)")


def game_id(round_number: int, table_number: int, game_number: int) -> str:
    return f"R{round_number}-T{table_number}-G{game_number}"


@dataclass(frozen=True)
class Table:
    number: int
    seats: tuple[str, ...]  # in seat order: seat 1 / first dealer / first player first
    games: int
    bracket: str = ""  # knockout only: "main" or "losers"


@dataclass(frozen=True)
class DrawEntry:
    """One line of the draw record: who drew what, and what it decided."""

    player: str
    drew: str
    decides: str


@dataclass(frozen=True)
class Round:
    number: int
    name: str
    seed: int
    tables: tuple[Table, ...]
    draw: tuple[DrawEntry, ...]
    # A random order of the round's players, drawn with the round: the last word on
    # any tie the format's own rules leave standing, so no tie is ever decided by the
    # order results happened to be entered.
    lot_order: tuple[str, ...]
    lineup: tuple[str | None, ...] = ()  # knockout only: bracket positions, None = bye

    def game_ids(self) -> tuple[str, ...]:
        return tuple(
            game_id(self.number, table.number, game)
            for table in self.tables
            for game in range(1, table.games + 1)
        )

    def players(self) -> tuple[str, ...]:
        return tuple(player for table in self.tables for player in table.seats)


@dataclass(frozen=True)
class RummikubGameResult:
    """One Rummikub game as the table (or a referee) recorded it."""

    game: str
    scores: Mapping[str, int]
    winner: str


@dataclass(frozen=True)
class HanchanResult:
    """One mahjong hanchan, already scored in points of 0.1 (see `mahjong.score_hanchan`)."""

    game: str
    scores: Mapping[str, Decimal]


@dataclass(frozen=True)
class MatchResult:
    """One two-player match (shogi, othello); `detail` says how it was decided."""

    game: str
    winner: str
    detail: str = ""
    players: tuple[str, ...] = ()  # both players when the entry named them (othello, shogi)


Result = Union[RummikubGameResult, HanchanResult, MatchResult]
Cell = Union[int, Decimal, str]


@dataclass(frozen=True)
class StandingRow:
    place: int | None  # None: not decided yet (a knockout player still in)
    player: str
    values: tuple[Cell, ...]
    note: str = ""


@dataclass(frozen=True)
class StandingsSection:
    title: str
    columns: tuple[str, ...]  # headings of `values`
    rows: tuple[StandingRow, ...]


@dataclass(frozen=True)
class Standings:
    event: str
    format: str
    finished: bool
    sections: tuple[StandingsSection, ...]  # the first is the overall order so far


@dataclass(frozen=True)
class Disqualification:
    """Seed 003: a table whose tile count no longer matches the start is disqualified,
    every player at it."""

    round: int
    table: int
    players: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Event:
    name: str
    format: str
    settings: object  # the format's own frozen settings dataclass
    players: tuple[str, ...]
    rounds: tuple[Round, ...] = ()
    results: Mapping[str, Result] = field(default_factory=dict)
    disqualifications: tuple[Disqualification, ...] = ()

    def disqualified(self) -> dict[str, Disqualification]:
        return {p: d for d in self.disqualifications for p in d.players}

    def is_disqualified_table(self, round_number: int, table_number: int) -> bool:
        return any(d.round == round_number and d.table == table_number for d in self.disqualifications)

    def round(self, number: int) -> Round:
        return self.rounds[number - 1]

    def table_of_game(self, game: str) -> tuple[Round, Table] | None:
        """The round and table a game id names, or None if no draw produced it."""
        match = GAME_ID.fullmatch(game)
        if match is None:
            return None
        round_number, table_number, game_number = map(int, match.groups())
        if game != game_id(round_number, table_number, game_number) or not 1 <= round_number <= len(self.rounds):
            return None
        round_ = self.rounds[round_number - 1]
        for table in round_.tables:
            if table.number == table_number and 1 <= game_number <= table.games:
                return round_, table
        return None

    def missing_games(self, round_number: int) -> tuple[str, ...]:
        """Games still owed a result; a disqualified table owes none."""
        round_ = self.round(round_number)
        return tuple(
            game_id(round_number, table.number, game)
            for table in round_.tables
            if not self.is_disqualified_table(round_number, table.number)
            for game in range(1, table.games + 1)
            if game_id(round_number, table.number, game) not in self.results
        )
