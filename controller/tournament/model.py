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
    changes: tuple[str, ...] = ()  # the event's history, one line each (amendments, withdrawals...)


@dataclass(frozen=True)
class Disqualification:
    """Seed 003: a table whose tile count no longer matches the start is disqualified,
    every player at it."""

    round: int
    table: int
    players: tuple[str, ...]
    reason: str


class ChangeKind(enum.Enum):
    """What a director may change after the fact; each is one signed entry of the event's history."""

    AMEND = "amend"  # a game's result replaced (or re-entered after a deletion)
    DELETE = "delete-result"  # a game's result taken back: the game is owed again
    WITHDRAW = "withdraw"  # a player leaves between rounds: not drawn again, results stand
    LATE_ENTRY = "late-entry"  # a player joins after the list was made
    SUBSTITUTE = "substitute"  # someone plays one game in a player's seat, for that player


@dataclass(frozen=True)
class Change:
    """One entry of an event's history. `by` names the director's key (fingerprint, and the keyring's
    name for it where one is kept), `at` when it was made (UTC, ISO 8601)."""

    kind: ChangeKind
    reason: str
    game: str = ""  # AMEND, DELETE, SUBSTITUTE
    player: str = ""  # WITHDRAW, LATE_ENTRY, SUBSTITUTE (the player whose seat it is)
    substitute: str = ""  # SUBSTITUTE: who sits in
    result: "Result | None" = None  # AMEND: the result as it now stands
    replaces: str = ""  # AMEND, DELETE: where the result it replaces came from (hand, a table's record...)
    rounds_drawn: int = 0  # how many rounds were drawn when it was made
    by: str = ""
    at: str = ""

    def summary(self) -> str:
        """One line for standings and the history: what changed, by whom, when, why."""
        what = {
            ChangeKind.AMEND: f"{self.game} amended",
            ChangeKind.DELETE: f"{self.game} result deleted",
            ChangeKind.WITHDRAW: f"{self.player} withdrew after round {self.rounds_drawn}",
            ChangeKind.LATE_ENTRY: f"{self.player} entered late (after round {self.rounds_drawn})",
            ChangeKind.SUBSTITUTE: f"{self.substitute} plays {self.game} for {self.player}",
        }[self.kind]
        replaced = f" (it replaced a result from {self.replaces})" if self.replaces else ""
        return f"{what}{replaced} by {self.by or 'unknown key'} at {self.at or '?'}: {self.reason}"


@dataclass(frozen=True)
class Event:
    name: str
    format: str
    settings: object  # the format's own frozen settings dataclass
    players: tuple[str, ...]
    rounds: tuple[Round, ...] = ()
    results: Mapping[str, Result] = field(default_factory=dict)
    disqualifications: tuple[Disqualification, ...] = ()
    history: tuple[Change, ...] = ()  # amendments, deletions, withdrawals, late entries, substitutes

    def withdrawn(self) -> dict[str, Change]:
        return {c.player: c for c in self.history if c.kind is ChangeKind.WITHDRAW}

    def active_players(self) -> tuple[str, ...]:
        """The players a draw may seat: the entry, late entries included, less withdrawals."""
        gone = self.withdrawn()
        return tuple(p for p in self.players if p not in gone)

    def substitutes(self, game: str) -> dict[str, str]:
        """Who sits in for whom in one game: {substitute: player}."""
        return {c.substitute: c.player for c in self.history if c.kind is ChangeKind.SUBSTITUTE and c.game == game}

    def result_changes(self) -> dict[str, Change]:
        """The last amendment or deletion of each game."""
        return {c.game: c for c in self.history if c.kind in (ChangeKind.AMEND, ChangeKind.DELETE)}

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
