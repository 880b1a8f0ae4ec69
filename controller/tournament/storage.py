"""SQLite adapter around the pure event core.

The tables live in the same file as the game records (default `tileref.sqlite`), each
prefixed `tournament_`. Every write first replays the change through the pure core
(`event.py`), which refuses bad input before anything is written, and then commits in
one transaction: a refused batch leaves the database exactly as it was.
"""
from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Iterable

from .errors import EventExistsError, EventNotFoundError
from .event import disqualify_table, draw_next_round, enter_results
from .formats import get_format
from .formats.base import parse_settings, settings_as_json
from .model import (
    Disqualification,
    DrawEntry,
    Event,
    HanchanResult,
    MatchResult,
    Result,
    Round,
    RummikubGameResult,
    Table,
)

DEFAULT_DB = "tileref.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    format TEXT NOT NULL,
    settings_json TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_players (
    event_id INTEGER NOT NULL REFERENCES tournament_events(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (event_id, position),
    UNIQUE (event_id, name)
);
CREATE TABLE IF NOT EXISTS tournament_rounds (
    event_id INTEGER NOT NULL REFERENCES tournament_events(id),
    number INTEGER NOT NULL,
    name TEXT NOT NULL,
    seed INTEGER NOT NULL,
    tables_json TEXT NOT NULL,
    lot_order_json TEXT NOT NULL,
    lineup_json TEXT NOT NULL,
    drawn_at TEXT NOT NULL,
    PRIMARY KEY (event_id, number)
);
CREATE TABLE IF NOT EXISTS tournament_draws (
    event_id INTEGER NOT NULL REFERENCES tournament_events(id),
    round INTEGER NOT NULL,
    line INTEGER NOT NULL,
    player TEXT NOT NULL,
    drew TEXT NOT NULL,
    decides TEXT NOT NULL,
    PRIMARY KEY (event_id, round, line)
);
CREATE TABLE IF NOT EXISTS tournament_disqualifications (
    event_id INTEGER NOT NULL REFERENCES tournament_events(id),
    round INTEGER NOT NULL,
    table_number INTEGER NOT NULL,
    reason TEXT NOT NULL,
    entered_at TEXT NOT NULL,
    PRIMARY KEY (event_id, round, table_number)
);
CREATE TABLE IF NOT EXISTS tournament_results (
    event_id INTEGER NOT NULL REFERENCES tournament_events(id),
    game TEXT NOT NULL,
    result_json TEXT NOT NULL,
    source TEXT NOT NULL,
    entered_at TEXT NOT NULL,
    PRIMARY KEY (event_id, game)
);
"""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def result_to_json(result: Result) -> str:
    if isinstance(result, RummikubGameResult):
        data = {"kind": "rummikub", "scores": dict(result.scores), "winner": result.winner}
    elif isinstance(result, HanchanResult):
        data = {"kind": "hanchan", "scores": {k: str(v) for k, v in result.scores.items()}}
    else:
        data = {"kind": "match", "winner": result.winner, "detail": result.detail,
                "players": list(result.players)}
    return json.dumps(data, ensure_ascii=False)


def result_from_json(game: str, text: str) -> Result:
    data = json.loads(text)
    if data["kind"] == "rummikub":
        return RummikubGameResult(game, data["scores"], data["winner"])
    if data["kind"] == "hanchan":
        return HanchanResult(game, {k: Decimal(v) for k, v in data["scores"].items()})
    return MatchResult(game, data["winner"], data.get("detail", ""), tuple(data.get("players", ())))


class TournamentStore:
    """Events in one SQLite file. Use as a context manager or call `close()`."""

    def __init__(self, path: str | Path = DEFAULT_DB):
        self.path = str(path)
        self.connection = sqlite3.connect(self.path)
        self.connection.execute("PRAGMA foreign_keys = ON")
        with self.connection:
            self.connection.executescript(SCHEMA)

    def __enter__(self) -> "TournamentStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.connection.close()

    # --- reading --------------------------------------------------------------------

    def event_names(self) -> list[tuple[str, str]]:
        rows = self.connection.execute("SELECT name, format FROM tournament_events ORDER BY id")
        return [(name, fmt) for name, fmt in rows]

    def _event_id(self, name: str) -> int:
        row = self.connection.execute(
            "SELECT id FROM tournament_events WHERE name = ?", (name,)
        ).fetchone()
        if row is None:
            known = ", ".join(repr(n) for n, _ in self.event_names()) or "none"
            raise EventNotFoundError(f"no event {name!r} in {self.path} (events: {known})")
        return row[0]

    def load(self, name: str) -> Event:
        event_id = self._event_id(name)
        c = self.connection
        fmt, settings_json = c.execute(
            "SELECT format, settings_json FROM tournament_events WHERE id = ?", (event_id,)
        ).fetchone()
        settings = parse_settings(get_format(fmt).settings_type, json.loads(settings_json))
        players = tuple(
            p for (p,) in c.execute(
                "SELECT name FROM tournament_players WHERE event_id = ? ORDER BY position", (event_id,)
            )
        )
        rounds = []
        for number, round_name, seed, tables_json, lots_json, lineup_json in c.execute(
            "SELECT number, name, seed, tables_json, lot_order_json, lineup_json "
            "FROM tournament_rounds WHERE event_id = ? ORDER BY number", (event_id,)
        ).fetchall():
            draw = tuple(
                DrawEntry(player, drew, decides)
                for player, drew, decides in c.execute(
                    "SELECT player, drew, decides FROM tournament_draws "
                    "WHERE event_id = ? AND round = ? ORDER BY line", (event_id, number)
                )
            )
            tables = tuple(
                Table(t["number"], tuple(t["seats"]), t["games"], t.get("bracket", ""))
                for t in json.loads(tables_json)
            )
            rounds.append(Round(number, round_name, seed, tables, draw,
                                tuple(json.loads(lots_json)), tuple(json.loads(lineup_json))))
        results = {
            game: result_from_json(game, text)
            for game, text in c.execute(
                "SELECT game, result_json FROM tournament_results WHERE event_id = ?", (event_id,)
            )
        }
        disqualifications = tuple(
            Disqualification(r, t, rounds[r - 1].tables[t - 1].seats, reason)
            for r, t, reason in c.execute(
                "SELECT round, table_number, reason FROM tournament_disqualifications "
                "WHERE event_id = ? ORDER BY entered_at, round, table_number", (event_id,)
            )
        )
        return Event(name, fmt, settings, players, tuple(rounds), results, disqualifications)

    def sources(self, name: str) -> dict[str, str]:
        event_id = self._event_id(name)
        return dict(self.connection.execute(
            "SELECT game, source FROM tournament_results WHERE event_id = ?", (event_id,)
        ))

    # --- writing --------------------------------------------------------------------

    def create(self, event: Event) -> None:
        c = self.connection
        if c.execute("SELECT 1 FROM tournament_events WHERE name = ?", (event.name,)).fetchone():
            raise EventExistsError(f"an event named {event.name!r} already exists in {self.path}")
        with c:
            cursor = c.execute(
                "INSERT INTO tournament_events (name, format, settings_json, created_at) VALUES (?, ?, ?, ?)",
                (event.name, event.format, json.dumps(settings_as_json(event.settings)), _now()),
            )
            c.executemany(
                "INSERT INTO tournament_players (event_id, position, name) VALUES (?, ?, ?)",
                [(cursor.lastrowid, i, p) for i, p in enumerate(event.players, start=1)],
            )

    def draw_next(self, name: str, seed: int) -> Round:
        event = draw_next_round(self.load(name), seed)
        new_round = event.rounds[-1]
        event_id = self._event_id(name)
        tables = [
            {"number": t.number, "seats": list(t.seats), "games": t.games, "bracket": t.bracket}
            for t in new_round.tables
        ]
        with self.connection as c:
            c.execute(
                "INSERT INTO tournament_rounds (event_id, number, name, seed, tables_json, "
                "lot_order_json, lineup_json, drawn_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (event_id, new_round.number, new_round.name, seed, json.dumps(tables),
                 json.dumps(list(new_round.lot_order)), json.dumps(list(new_round.lineup)), _now()),
            )
            c.executemany(
                "INSERT INTO tournament_draws (event_id, round, line, player, drew, decides) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(event_id, new_round.number, i, d.player, d.drew, d.decides)
                 for i, d in enumerate(new_round.draw, start=1)],
            )
        return new_round

    def add_results(self, name: str, results: Iterable[Result], source: str) -> Event:
        results = list(results)
        event = enter_results(self.load(name), results)  # raises before any write
        event_id = self._event_id(name)
        with self.connection as c:
            c.executemany(
                "INSERT INTO tournament_results (event_id, game, result_json, source, entered_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [(event_id, r.game, result_to_json(r), source, _now()) for r in results],
            )
        return event

    def disqualify(self, name: str, round_number: int, table_number: int, reason: str) -> Event:
        event = disqualify_table(self.load(name), round_number, table_number, reason)
        with self.connection as c:
            c.execute(
                "INSERT INTO tournament_disqualifications (event_id, round, table_number, reason, entered_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (self._event_id(name), round_number, table_number, reason.strip(), _now()),
            )
        return event
