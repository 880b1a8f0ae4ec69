"""The records of every game in one SQLite file (WAL, one transaction per event).

An event is written, with the photos and readings it refers to, before the controller acts
on it; `events(game)` gives the log back to fold. Each game's events form a hash chain:
hash = sha256(previous hash + canonical JSON of the event), so an edited, removed or
reordered row shows in `verify`. Photos and readings are stored under their own sha256,
which the events quote, so the chain covers them too. The wall-clock time of each row is
kept beside the chain, not in it (it is not part of what happened at the table).
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from controller.game.events import Event, canonical_json, event_from_payload
from controller.game.errors import EventDataError

from .errors import GameNotFoundError, RecordsFileError, TamperedError

SCHEMA_VERSION = 1
GENESIS_HASH = "0" * 64

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    created_at TEXT NOT NULL,
    head_hash TEXT NOT NULL,
    events INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'new'
);
CREATE TABLE IF NOT EXISTS players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS photos (
    sha256 TEXT PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    mime TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS readings (
    sha256 TEXT PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    photo TEXT REFERENCES photos(sha256),
    reading TEXT NOT NULL,
    elapsed_ms REAL
);
CREATE TABLE IF NOT EXISTS verdicts (
    game_id INTEGER NOT NULL REFERENCES games(id),
    turn INTEGER NOT NULL,
    event_seq INTEGER NOT NULL,
    player TEXT NOT NULL,
    outcome TEXT NOT NULL,
    verdict TEXT NOT NULL,
    PRIMARY KEY (game_id, event_seq)
);
"""


@dataclass(frozen=True)
class Photo:
    sha256: str
    mime: str
    width: int
    height: int
    data: bytes


@dataclass(frozen=True)
class Reading:
    """A raw camera reading as the reader gave it (JSON), kept for audits."""

    sha256: str
    photo: str | None
    reading: dict
    elapsed_ms: float | None


@dataclass(frozen=True)
class RecordedEvent:
    seq: int
    event: Event
    prev_hash: str
    hash: str
    recorded_at: str


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    events: int
    first_bad_seq: int | None
    problem: str


def chain_hash(prev_hash: str, event: Event) -> str:
    return hashlib.sha256((prev_hash + event.canonical_json()).encode("utf-8")).hexdigest()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def reading_sha(reading: dict) -> str:
    return sha256_bytes(canonical_json(reading).encode("utf-8"))


class Records:
    """One SQLite records file. Use as a context manager or call close()."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise RecordsFileError(f"records file {str(self.path)!r} does not exist")
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL survives a killed process
            self.db.execute("PRAGMA foreign_keys=ON")
            if create:
                self.db.executescript(SCHEMA)
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            elif self.db.execute("SELECT count(*) FROM sqlite_master WHERE name IN ('games', 'events')").fetchone()[0] != 2:
                raise RecordsFileError(f"records file {str(self.path)!r} holds no tileref records")
        except sqlite3.DatabaseError as error:
            raise RecordsFileError(f"records file {str(self.path)!r} is not a usable SQLite file: {error}") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Records":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------ games

    def new_game(self, variant: str, players: Iterable[str]) -> int:
        with _transaction(self.db):
            cursor = self.db.execute(
                "INSERT INTO games (variant, created_at, head_hash) VALUES (?, ?, ?)",
                (variant, _now(), GENESIS_HASH),
            )
            game_id = int(cursor.lastrowid)
            self.db.executemany(
                "INSERT INTO players VALUES (?, ?, ?)", [(game_id, seat, name) for seat, name in enumerate(players)]
            )
        return game_id

    def games(self) -> list[tuple[int, str, str, int]]:
        return [tuple(row) for row in self.db.execute("SELECT id, variant, state, events FROM games ORDER BY id")]

    def latest_game(self) -> int:
        row = self.db.execute("SELECT max(id) FROM games").fetchone()
        if row[0] is None:
            raise GameNotFoundError(f"records file {str(self.path)!r} holds no game")
        return int(row[0])

    def players(self, game_id: int) -> tuple[str, ...]:
        self._check_game(game_id)
        return tuple(r[0] for r in self.db.execute("SELECT name FROM players WHERE game_id=? ORDER BY seat", (game_id,)))

    def _check_game(self, game_id: int) -> tuple:
        row = self.db.execute("SELECT head_hash, events FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"no game {game_id!r} in records file {str(self.path)!r}")
        return row

    # ----------------------------------------------------------------- events

    def append(
        self,
        game_id: int,
        event: Event,
        *,
        photos: Iterable[Photo] = (),
        readings: Iterable[Reading] = (),
        state: str | None = None,
    ) -> RecordedEvent:
        """Write one event (and what it refers to) in one transaction; returns it chained."""
        with _transaction(self.db):
            head, count = self._check_game(game_id)
            for photo in photos:
                self.db.execute(
                    "INSERT OR IGNORE INTO photos VALUES (?, ?, ?, ?, ?, ?)",
                    (photo.sha256, game_id, photo.mime, photo.width, photo.height, photo.data),
                )
            for reading in readings:
                self.db.execute(
                    "INSERT OR IGNORE INTO readings VALUES (?, ?, ?, ?, ?)",
                    (reading.sha256, game_id, reading.photo, canonical_json(reading.reading), reading.elapsed_ms),
                )
            seq = count + 1
            digest = chain_hash(head, event)
            recorded_at = _now()
            payload = canonical_json(event.payload())
            self.db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, event.kind.value, payload, head, digest, recorded_at),
            )
            if event.kind.value == "turn-judged":
                data = event.payload()
                self.db.execute(
                    "INSERT INTO verdicts VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, data["turn"], seq, data["player"], data["outcome"], payload),
                )
            self.db.execute(
                "UPDATE games SET head_hash=?, events=?, state=COALESCE(?, state) WHERE id=?",
                (digest, seq, state, game_id),
            )
        return RecordedEvent(seq, event, head, digest, recorded_at)

    def recorded(self, game_id: int) -> list[RecordedEvent]:
        self._check_game(game_id)
        out = []
        for seq, kind, payload, prev_hash, digest, recorded_at in self.db.execute(
            "SELECT seq, kind, payload, prev_hash, hash, recorded_at FROM events WHERE game_id=? ORDER BY seq",
            (game_id,),
        ):
            try:
                event = event_from_payload(kind, json.loads(payload))
            except (EventDataError, json.JSONDecodeError, TypeError) as error:
                raise TamperedError(f"game {game_id} event {seq}: cannot be read back: {error}") from None
            out.append(RecordedEvent(seq, event, prev_hash, digest, recorded_at))
        return out

    def events(self, game_id: int) -> list[Event]:
        return [r.event for r in self.recorded(game_id)]

    def verify(self, game_id: int) -> ChainReport:
        """Recompute the chain; the first event that does not follow from the one before fails it."""
        head, count = self._check_game(game_id)
        prev = GENESIS_HASH
        rows = list(self.db.execute(
            "SELECT seq, kind, payload, prev_hash, hash FROM events WHERE game_id=? ORDER BY seq", (game_id,)))
        for expected_seq, (seq, kind, payload, prev_hash, digest) in enumerate(rows, start=1):
            if seq != expected_seq:
                return ChainReport(False, len(rows), expected_seq, f"event {expected_seq} is missing")
            try:
                event = event_from_payload(kind, json.loads(payload))
            except (EventDataError, json.JSONDecodeError, TypeError) as error:
                return ChainReport(False, len(rows), seq, f"event {seq} cannot be read: {error}")
            if prev_hash != prev or chain_hash(prev, event) != digest:
                return ChainReport(False, len(rows), seq, f"event {seq} ({kind}) does not match its hash")
            prev = digest
        if len(rows) != count or prev != head:
            return ChainReport(False, len(rows), len(rows) + 1, f"the game records {count} events, {len(rows)} found")
        for sha, data in self.db.execute("SELECT sha256, data FROM photos WHERE game_id=?", (game_id,)):
            if sha256_bytes(bytes(data)) != sha:
                return ChainReport(False, len(rows), None, f"photo {sha[:12]} does not match its hash")
        for sha, reading in self.db.execute("SELECT sha256, reading FROM readings WHERE game_id=?", (game_id,)):
            if reading_sha(json.loads(reading)) != sha:
                return ChainReport(False, len(rows), None, f"reading {sha[:12]} does not match its hash")
        return ChainReport(True, len(rows), None, "")

    def require_intact(self, game_id: int) -> None:
        report = self.verify(game_id)
        if not report.ok:
            raise TamperedError(f"game {game_id} in {str(self.path)!r}: {report.problem}")

    # ------------------------------------------------------ photos, readings

    def photo(self, sha: str) -> Photo | None:
        row = self.db.execute("SELECT sha256, mime, width, height, data FROM photos WHERE sha256=?", (sha,)).fetchone()
        return None if row is None else Photo(row[0], row[1], row[2], row[3], bytes(row[4]))

    def reading(self, sha: str) -> Reading | None:
        row = self.db.execute("SELECT sha256, photo, reading, elapsed_ms FROM readings WHERE sha256=?", (sha,)).fetchone()
        return None if row is None else Reading(row[0], row[1], json.loads(row[2]), row[3])

    def verdicts(self, game_id: int) -> list[tuple[int, str, str]]:
        return [tuple(r) for r in self.db.execute(
            "SELECT turn, player, outcome FROM verdicts WHERE game_id=? ORDER BY event_seq", (game_id,))]


class _transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
