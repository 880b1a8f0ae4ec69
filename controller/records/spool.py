"""A table that loses the club server keeps playing: its events go to a local spool and are
delivered, in order, when the server is back. Nothing lost, nothing twice.

The table chains and signs every event itself (the hash and signatures never depended on the
server), so an event spooled while the server is away is the very row the server would have
written. `SpooledRecords.append` writes to the server when it can; when the connection fails, the
event (with its photos and readings) goes into the spool, an SQLite file next to the table
(`--spool FILE`, default `tileref-spool.sqlite`), in one local transaction, and the game goes on
from the head the table holds. Before each later event (at most every `retry_s`), the table tries
the server again; once connected it delivers the spool oldest first, each event in one server
transaction that is idempotent by the event's hash (`Records.deliver`): an event the server got
before the connection broke (the commit reached it, the answer did not) is skipped, never written
twice; a spool row is removed only after the server has it. A spool left by a table that stopped
while the server was away is delivered when the table is next started against the server.

A server that keeps a keyring (keyring.py) takes delivery only of games signed by a key it trusts
(or a referee accepted): any other raises UntrustedKeyError and the events stay in the spool.

While offline, the table reads its own game from what it wrote (events, head, the photos of this
session); starting a new game needs the server (it gives the game its id).
"""
from __future__ import annotations

import contextlib
import enum
import json
import sqlite3
import time
from collections import OrderedDict
from pathlib import Path
from typing import Iterable

from controller.game.events import Event, canonical_json, event_from_payload

from .chain import Photo, Reading, RecordedEvent
from .errors import GameNotFoundError, ServerUnavailableError, SpoolError
from .signing import TableKey
from .store import Records, state_value

DEFAULT_SPOOL = "tileref-spool.sqlite"

SPOOL_SCHEMA = """
CREATE TABLE IF NOT EXISTS spooled (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    server TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    signature TEXT,
    head_signature TEXT,
    state TEXT,
    UNIQUE (server, game_id, seq)
);
CREATE TABLE IF NOT EXISTS spooled_photos (
    entry INTEGER NOT NULL REFERENCES spooled(id),
    sha256 TEXT NOT NULL, mime TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL, data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS spooled_readings (
    entry INTEGER NOT NULL REFERENCES spooled(id),
    sha256 TEXT NOT NULL, photo TEXT, reading TEXT NOT NULL, elapsed_ms REAL
);
"""


class Spool:
    """The local SQLite file of events not yet delivered to a server."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise SpoolError(f"spool file {str(self.path)!r} is a folder, not a file")
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")  # what is spooled must survive a power cut
            self.db.executescript(SPOOL_SCHEMA)
        except sqlite3.Error as error:
            raise SpoolError(f"spool file {str(self.path)!r} cannot be used: {error}") from None

    def close(self) -> None:
        self.db.close()

    def put(self, server: str, game_id: int, recorded: RecordedEvent, photos: Iterable[Photo],
            readings: Iterable[Reading], state: str | None, head_signature: str | None) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
            entry = self.db.execute(
                "INSERT INTO spooled (server, game_id, seq, kind, payload, prev_hash, hash, recorded_at, signature, "
                "head_signature, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (server, game_id, recorded.seq, recorded.event.kind.value, canonical_json(recorded.event.payload()),
                 recorded.prev_hash, recorded.hash, recorded.recorded_at, recorded.signature, head_signature,
                 state)).lastrowid
            self.db.executemany("INSERT INTO spooled_photos VALUES (?, ?, ?, ?, ?, ?)",
                                [(entry, p.sha256, p.mime, p.width, p.height, p.data) for p in photos])
            self.db.executemany("INSERT INTO spooled_readings VALUES (?, ?, ?, ?, ?)",
                                [(entry, r.sha256, r.photo, canonical_json(r.reading), r.elapsed_ms)
                                 for r in readings])
            self.db.execute("COMMIT")
        except sqlite3.Error as error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise SpoolError(f"spool file {str(self.path)!r}: cannot keep event {recorded.seq} of game {game_id} "
                             f"({error})") from None

    def pending(self, server: str) -> list[tuple[int, int, RecordedEvent, list[Photo], list[Reading], str | None,
                                                 str | None]]:
        """(entry, game, event, photos, readings, state, head signature), oldest first."""
        out = []
        rows = self.db.execute(
            "SELECT id, game_id, seq, kind, payload, prev_hash, hash, recorded_at, signature, head_signature, state "
            "FROM spooled WHERE server=? ORDER BY id", (server,)).fetchall()
        for entry, game_id, seq, kind, payload, prev, digest, at, signature, head_signature, state in rows:
            event = event_from_payload(kind, json.loads(payload))
            photos = [Photo(*row) for row in self.db.execute(
                "SELECT sha256, mime, width, height, data FROM spooled_photos WHERE entry=?", (entry,))]
            readings = [Reading(row[0], row[1], json.loads(row[2]), row[3]) for row in self.db.execute(
                "SELECT sha256, photo, reading, elapsed_ms FROM spooled_readings WHERE entry=?", (entry,))]
            out.append((entry, game_id, RecordedEvent(seq, event, prev, digest, at, signature), photos, readings,
                        state, head_signature))
        return out

    def remove(self, entry: int) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("DELETE FROM spooled_photos WHERE entry=?", (entry,))
        self.db.execute("DELETE FROM spooled_readings WHERE entry=?", (entry,))
        self.db.execute("DELETE FROM spooled WHERE id=?", (entry,))
        self.db.execute("COMMIT")

    def count(self, server: str | None = None) -> int:
        if server is None:
            return self.db.execute("SELECT count(*) FROM spooled").fetchone()[0]
        return self.db.execute("SELECT count(*) FROM spooled WHERE server=?", (server,)).fetchone()[0]


class SpooledRecords(Records):
    """Records on a club server that keep a game going through a lost connection (see the module)."""

    PHOTOS_KEPT = 128  # photos of this session kept in memory for reads while offline

    def __init__(self, path, *, key: TableKey | None = None, spool: str | Path = DEFAULT_SPOOL,
                 retry_s: float = 1.0, create: bool = True) -> None:
        super().__init__(path, create=create, key=key)
        try:
            self.spool = Spool(spool)
        except BaseException:
            super().close()
            raise
        self.retry_s = retry_s
        self.offline = False
        self._next_try = 0.0
        self._cache: dict[int, list[RecordedEvent]] = {}
        self._photos: OrderedDict[str, Photo] = OrderedDict()
        self._signed_ids: dict[int, int] = {}
        self.spooled_total = 0  # events that went through the spool in this session
        self.delivered_total = 0  # of those, delivered to the server (in this session)
        self.skipped_total = 0  # deliveries the server already had (idempotent by hash)
        self._flush()  # a spool left by an earlier run goes first

    @property
    def server_key(self) -> str:
        return self.target.shown

    def close(self) -> None:
        try:
            if self.offline or self.spool.count(self.server_key):
                try:
                    self._reconnect_and_flush(force=True)
                except ServerUnavailableError:
                    pass  # stays in the spool for the next run
        finally:
            self.spool.close()
            super().close()

    def pending(self) -> int:
        return self.spool.count(self.server_key)

    # --------------------------------------------------------------- delivery

    def _flush(self) -> None:
        for entry, game_id, recorded, photos, readings, state, head_signature in self.spool.pending(self.server_key):
            written = self.deliver(game_id, recorded, photos, readings, state, head_signature)
            self.spool.remove(entry)
            if written:
                self.delivered_total += 1
            else:
                self.skipped_total += 1

    def _reconnect_and_flush(self, force: bool = False) -> bool:
        """Try the server again (at most every retry_s unless forced); True when online and the spool is empty."""
        if not self.offline:
            return True
        now = time.monotonic()
        if not force and now < self._next_try:
            return False
        self._next_try = now + self.retry_s
        try:
            if not self.db.connected:
                self.db.connect()
            self._flush()
        except ServerUnavailableError:
            return False
        self.offline = False
        return True

    def _go_offline(self) -> None:
        self.offline = True
        self._next_try = time.monotonic() + self.retry_s

    # ----------------------------------------------------------------- writes

    def append(self, game_id: int, event: Event, *, photos: Iterable[Photo] = (), readings: Iterable[Reading] = (),
               state: enum.Enum | None = None) -> RecordedEvent:
        photos, readings = list(photos), list(readings)
        for photo in photos:
            self._photos[photo.sha256] = photo
            while len(self._photos) > self.PHOTOS_KEPT:
                self._photos.popitem(last=False)
        if self._reconnect_and_flush():
            try:
                recorded = super().append(game_id, event, photos=photos, readings=readings, state=state)
                self._cached(game_id).append(recorded)
                return recorded
            except ServerUnavailableError:
                self._go_offline()
        events = self._cached(game_id)
        count, head = (events[-1].seq, events[-1].hash) if events else (0, "0" * 64)
        key = self.signing_key() if (count == 0 or self.game_key(game_id) is not None) else None
        recorded, head_signature = self.chain_event(game_id, event, key, count, head)
        self.spool.put(self.server_key, game_id, recorded, photos, readings, state_value(state), head_signature)
        self.spooled_total += 1
        events.append(recorded)
        return recorded

    def together(self) -> contextlib.AbstractContextManager[None]:
        # Each event is delivered or spooled on its own (the server may go between two): no one
        # transaction spans them. What must not be half written (a correction the score refuses) is
        # refused by the machine before the first is written (GameJournal.record_together).
        return contextlib.nullcontext()

    def start_game(self, first, **kwargs) -> int:
        game_id = super().start_game(first, **kwargs)  # needs the server: it gives the id
        self._cache[game_id] = super().recorded(game_id)
        return game_id

    # ------------------------------------------------------------------ reads

    def _cached(self, game_id: int) -> list[RecordedEvent]:
        if game_id not in self._cache:
            if self.offline:
                raise ServerUnavailableError(f"records database {self.server_key!r}: lost the server before "
                                             f"game {game_id} was read")
            self._cache[game_id] = super().recorded(game_id)
        return self._cache[game_id]

    def recorded(self, game_id: int) -> list[RecordedEvent]:
        if not self.offline:
            try:
                if game_id in self._cache and not self.pending():
                    count, _ = super().head(game_id)
                    if count == len(self._cache[game_id]):
                        return list(self._cache[game_id])
                self._cache[game_id] = super().recorded(game_id)
                return list(self._cache[game_id])
            except ServerUnavailableError:
                self._go_offline()
        return list(self._cached(game_id))

    def head(self, game_id: int) -> tuple[int, str]:
        if not self.offline:
            try:
                return super().head(game_id)
            except ServerUnavailableError:
                self._go_offline()
        events = self._cached(game_id)
        if not events:
            raise GameNotFoundError(f"no game {game_id!r} in {self.server_key!r}")
        return events[-1].seq, events[-1].hash

    def game_key(self, game_id: int):
        if game_id in self._game_keys or not self.offline:
            try:
                return super().game_key(game_id)
            except ServerUnavailableError:
                self._go_offline()
        events = self._cached(game_id)
        key = getattr(events[0].event, "table_key", None) if events else None
        from .signing import PublicKey

        self._game_keys[game_id] = PublicKey.from_text(key) if key else None
        return self._game_keys[game_id]

    def signed_id(self, game_id: int) -> int:
        if game_id not in self._signed_ids:
            try:
                self._signed_ids[game_id] = super().signed_id(game_id)
            except ServerUnavailableError:
                self._go_offline()
                return game_id  # a game this table started here: the server gave it this id
        return self._signed_ids[game_id]

    def photo(self, sha: str) -> Photo | None:
        if sha in self._photos:
            return self._photos[sha]
        if not self.offline:
            try:
                return super().photo(sha)
            except ServerUnavailableError:
                self._go_offline()
        return None
