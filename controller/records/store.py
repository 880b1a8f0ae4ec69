"""The records of every game in one SQLite file (WAL, one transaction per event).

An event is written, with the photos and readings it refers to, before the controller acts
on it; `events(game)` gives the log back to fold. Each game's events form a hash chain:
hash = sha256(previous hash + canonical JSON of the event), so an edited, removed or
reordered row shows in `verify`. A chain anyone can recompute proves little, so each event's
hash and the game's head are also signed with the table's Ed25519 key (`signing.py`), whose
public half the game's first event records. Photos and readings are stored under their own
sha256, which the events quote: `verify` recomputes every one an event (or a fused reading)
names, and checks the verdicts and players tables, which are copies of what the events say.
The wall-clock time of each row is kept beside the chain, not in it (it is not part of what
happened at the table).

Every reader goes through `require_intact` (or `verify`) before it folds a game, so a tampered
record is reported as tampering (TamperedError, exit 3), never as a state-machine error.
"""
from __future__ import annotations

import enum
import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable

from controller.game.events import Event, GameCreated, canonical_json, event_from_payload
from controller.game.errors import EventDataError

from .errors import (
    ChainBrokenError, EvidenceError, GameNotFoundError, KeyMismatchError, ProjectionError, RecordsFileError,
    SignatureError, TamperedError,
)
from .signing import PublicKey, TableKey, default_table_key, event_message, head_message

# 2: events are signed (events.signature, games.head_signature) and meta `signed_since_game` says
# from which game on every game of the file must be signed (older ones were recorded before signing).
SCHEMA_VERSION = 2
GENESIS_HASH = "0" * 64
HEAD_DIGEST_HEX = 12  # the head's short digest shown at the table and on audit pages

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    created_at TEXT NOT NULL,
    head_hash TEXT NOT NULL,
    events INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'new',
    head_signature TEXT
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
    signature TEXT,
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
    signature: str | None = None


class Integrity(str, enum.Enum):
    INTACT = "intact"  # chain, signatures, evidence and derived tables all hold
    UNSIGNED = "unsigned (recorded before signing)"  # an old game: chain and evidence hold, no key to check
    TAMPERED = "TAMPERED"


@dataclass(frozen=True)
class ChainReport:
    """What `verify` found for one game. `ok`: the game can be read (intact, or unsigned and old)."""

    game_id: int
    status: Integrity
    events: int
    head: str  # the head hash (the last event's)
    key_id: str | None  # fingerprint of the table key the game records (None: unsigned)
    error: TamperedError | None = None

    @property
    def ok(self) -> bool:
        return self.status is not Integrity.TAMPERED

    @property
    def first_bad_seq(self) -> int | None:
        return self.error.seq if self.error is not None else None

    @property
    def problem(self) -> str:
        return str(self.error) if self.error is not None else ""

    @property
    def head_digest(self) -> str:
        return self.head[:HEAD_DIGEST_HEX]

    def summary(self) -> str:
        """One line: `intact, signed by table key 0123abcd89ef4567, 57 events, head 1a2b3c4d5e6f`."""
        if self.error is not None:
            return str(self.error)
        if self.status is Integrity.INTACT:
            return f"intact, signed by table key {self.key_id}, {self.events} events, head {self.head_digest}"
        return f"intact but {self.status.value}, {self.events} events, head {self.head_digest}"


def chain_hash(prev_hash: str, event: Event) -> str:
    return hashlib.sha256((prev_hash + event.canonical_json()).encode("utf-8")).hexdigest()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def reading_sha(reading: dict) -> str:
    return sha256_bytes(canonical_json(reading).encode("utf-8"))


def head_digest(digest: str) -> str:
    return digest[:HEAD_DIGEST_HEX]


class Records:
    """One SQLite records file. Use as a context manager or call close().

    `key`: the table key that signs what this process appends (`--key FILE`); without one, the
    per-user default key is loaded (or made) the first time something is signed. Readers never
    need a private key."""

    def __init__(self, path: str | Path, *, create: bool = True, key: TableKey | None = None) -> None:
        self.path = Path(path)
        self._key = key
        self._game_keys: dict[int, PublicKey | None] = {}
        if not create and not self.path.exists():
            raise RecordsFileError(f"records file {str(self.path)!r} does not exist")
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL survives a killed process
            self.db.execute("PRAGMA foreign_keys=ON")
            if create:
                self.db.executescript(SCHEMA)
                self._upgrade()
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

    # ----------------------------------------------------------------- schema

    def _has_signatures(self) -> bool:
        return any(row[1] == "signature" for row in self.db.execute("PRAGMA table_info(events)"))

    def _upgrade(self) -> None:
        """Bring a file written before signing to schema 2, keeping its rows as they are. Its games
        stay unsigned (their chain never had a key); every game created from now on is signed, and
        `signed_since_game` says so, so stripping a later game's signatures does not pass as old."""
        if self._has_signatures() and self._signed_since() is not None:
            return  # already schema 2: opening a file must not write to it
        with _transaction(self.db):
            if not self._has_signatures():
                self.db.execute("ALTER TABLE events ADD COLUMN signature TEXT")
                self.db.execute("ALTER TABLE games ADD COLUMN head_signature TEXT")
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('signed_since_game', "
                            "(SELECT CAST(coalesce(max(id), 0) + 1 AS TEXT) FROM games))")
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))

    def _signed_since(self) -> int | None:
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key='signed_since_game'").fetchone()
        except sqlite3.OperationalError:  # a file with no meta table at all
            return None
        return None if row is None else int(row[0])

    def _signature_column(self, table: str) -> str:
        # a file of schema 1 opened only to read keeps its shape: read "no signature"
        column = "signature" if table == "events" else "head_signature"
        return column if self._has_signatures() else "NULL"

    def signing_key(self) -> TableKey:
        if self._key is None:
            self._key = default_table_key()
        return self._key

    # ------------------------------------------------------------------ games

    def new_game(self, variant: str, players: Iterable[str]) -> int:
        with _transaction(self.db):
            return self._insert_game(variant, players)

    def _insert_game(self, variant: str, players: Iterable[str]) -> int:
        cursor = self.db.execute(
            "INSERT INTO games (variant, created_at, head_hash) VALUES (?, ?, ?)",
            (variant, _now(), GENESIS_HASH),
        )
        game_id = int(cursor.lastrowid)
        self.db.executemany(
            "INSERT INTO players VALUES (?, ?, ?)", [(game_id, seat, name) for seat, name in enumerate(players)]
        )
        return game_id

    def start_game(self, first: GameCreated, *, state: str | None = "seating") -> int:
        """A new game and its first event in one transaction (no game is ever left without events)."""
        key = self.signing_key()
        if not self._has_signatures():
            self._upgrade()
        with _transaction(self.db):
            game_id = self._insert_game(first.variant, first.players)
            self._append(game_id, first, (), (), state, key)
        return game_id

    def games(self) -> list[tuple[int, str, str, int]]:
        return [tuple(row) for row in self.db.execute("SELECT id, variant, state, events FROM games ORDER BY id")]

    def game_ids(self) -> list[int]:
        return [int(row[0]) for row in self.db.execute("SELECT id FROM games ORDER BY id")]

    def latest_game(self) -> int:
        row = self.db.execute("SELECT max(id) FROM games").fetchone()
        if row[0] is None:
            raise GameNotFoundError(f"records file {str(self.path)!r} holds no game")
        return int(row[0])

    def players(self, game_id: int) -> tuple[str, ...]:
        self._check_game(game_id)
        return tuple(r[0] for r in self.db.execute("SELECT name FROM players WHERE game_id=? ORDER BY seat", (game_id,)))

    def _check_game(self, game_id: int) -> tuple:
        row = self.db.execute(
            f"SELECT head_hash, events, {self._signature_column('games')} FROM games WHERE id=?", (game_id,)
        ).fetchone()
        if row is None:
            raise GameNotFoundError(f"no game {game_id!r} in records file {str(self.path)!r}")
        return row

    def head(self, game_id: int) -> tuple[int, str]:
        """(events, head hash) as the game row says; `head_digest` of it is what the table shows."""
        head, count, _ = self._check_game(game_id)
        return int(count), head

    def game_key(self, game_id: int) -> PublicKey | None:
        """The table key the game's first event records (None: recorded before signing)."""
        if game_id not in self._game_keys:
            row = self.db.execute("SELECT kind, payload FROM events WHERE game_id=? AND seq=1", (game_id,)).fetchone()
            key = None
            if row is not None and row[0] == GameCreated.kind.value:
                text = json.loads(row[1]).get("table_key")
                key = PublicKey.from_text(text) if text else None
            self._game_keys[game_id] = key
        return self._game_keys[game_id]

    def check_signer(self, game_id: int) -> None:
        """Before writing to a signed game (`play --resume`, `correct`): the key in use must be its key."""
        recorded = self.game_key(game_id)
        if recorded is not None:
            self._same_key(game_id, recorded, self.signing_key())

    def _same_key(self, game_id: int, recorded: PublicKey, key: TableKey) -> None:
        if recorded != key.public:
            raise KeyMismatchError(
                f"game {game_id} in {str(self.path)!r} is signed by table key {recorded.fingerprint}; the key "
                f"{str(key.path or '(given)')!r} is {key.public.fingerprint}: give the table's key with --key")

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
        """Write one event (and what it refers to) in one transaction; returns it chained and signed.

        The first event of a game gets the table key stamped in; later events are signed only if
        the game recorded a key (a game from before signing stays unsigned to its end)."""
        first = isinstance(event, GameCreated) and self._check_game(game_id)[1] == 0
        key = self.signing_key() if first or self.game_key(game_id) is not None else None
        if key is not None and not self._has_signatures():
            self._upgrade()
        with _transaction(self.db):
            return self._append(game_id, event, photos, readings, state, key)

    def _append(self, game_id: int, event: Event, photos: Iterable[Photo], readings: Iterable[Reading],
                state: str | None, key: TableKey | None) -> RecordedEvent:
        head, count, _ = self._check_game(game_id)
        seq = count + 1
        if seq == 1 and isinstance(event, GameCreated) and key is not None:
            event = replace(event, table_key=key.public.text, key_id=key.public.fingerprint)
            self._game_keys[game_id] = key.public
        recorded_key = self.game_key(game_id) if seq > 1 else (key.public if key else None)
        if key is not None and recorded_key is not None:
            self._same_key(game_id, recorded_key, key)
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
        digest = chain_hash(head, event)
        recorded_at = _now()
        payload = canonical_json(event.payload())
        signature = key.sign(event_message(seq, digest)) if recorded_key is not None else None
        head_signature = key.sign(head_message(game_id, seq, digest)) if recorded_key is not None else None
        if self._has_signatures():
            self.db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, event.kind.value, payload, head, digest, recorded_at, signature),
            )
        else:  # an unsigned game in a file still of schema 1 (`correct` on an old record)
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
        if self._has_signatures():
            self.db.execute("UPDATE games SET head_signature=? WHERE id=?", (head_signature, game_id))
        return RecordedEvent(seq, event, head, digest, recorded_at, signature)

    def recorded(self, game_id: int) -> list[RecordedEvent]:
        self._check_game(game_id)
        out = []
        for seq, kind, payload, prev_hash, digest, recorded_at, signature in self.db.execute(
            f"SELECT seq, kind, payload, prev_hash, hash, recorded_at, {self._signature_column('events')} "
            "FROM events WHERE game_id=? ORDER BY seq",
            (game_id,),
        ):
            try:
                event = event_from_payload(kind, json.loads(payload))
            except (EventDataError, json.JSONDecodeError, TypeError) as error:
                raise ChainBrokenError(self.path, game_id, seq, kind, f"cannot be read back: {error}") from None
            out.append(RecordedEvent(seq, event, prev_hash, digest, recorded_at, signature))
        return out

    def events(self, game_id: int) -> list[Event]:
        return [r.event for r in self.recorded(game_id)]

    # ----------------------------------------------------------- verification

    def verify(self, game_id: int, key: PublicKey | None = None) -> ChainReport:
        """Check everything the game's verdicts rest on; the first thing that does not hold fails it.

        `key`: the table's public key (`--key PUB`); the game must record exactly that key. Without
        it, signatures are checked against the key the game records, which a forger who rewrites
        the whole game with a key of his own also controls."""
        try:
            return _Verification(self, game_id, key).run()
        except TamperedError as error:
            head, count, _ = self._check_game(game_id)
            recorded = self._recorded_key_quietly(game_id)
            return ChainReport(game_id, Integrity.TAMPERED, int(count), head, recorded, error)

    def _recorded_key_quietly(self, game_id: int) -> str | None:
        try:
            key = self.game_key(game_id)
        except (ValueError, json.JSONDecodeError, AttributeError):
            return None
        return key.fingerprint if key else None

    def require_intact(self, game_id: int, key: PublicKey | None = None) -> ChainReport:
        """The one check every reader makes before it folds a game: raises the TamperedError found."""
        report = self.verify(game_id, key)
        if report.error is not None:
            raise report.error
        return report

    # ------------------------------------------------------ photos, readings

    def photo(self, sha: str) -> Photo | None:
        row = self.db.execute("SELECT sha256, mime, width, height, data FROM photos WHERE sha256=?", (sha,)).fetchone()
        return None if row is None else Photo(row[0], row[1], row[2], row[3], bytes(row[4]))

    def reading(self, sha: str) -> Reading | None:
        row = self.db.execute("SELECT sha256, photo, reading, elapsed_ms FROM readings WHERE sha256=?", (sha,)).fetchone()
        return None if row is None else Reading(row[0], row[1], json.loads(row[2]), row[3])

    def verdicts(self, game_id: int) -> list[tuple[int, str, str]]:
        """(turn, player, outcome) per verdict; the table is checked against the events by `verify`."""
        return [tuple(r) for r in self.db.execute(
            "SELECT turn, player, outcome FROM verdicts WHERE game_id=? ORDER BY event_seq", (game_id,))]


class _Verification:
    """One run of `Records.verify`: raises the first TamperedError it finds, else returns the report."""

    def __init__(self, records: Records, game_id: int, expected: PublicKey | None) -> None:
        self.records = records
        self.db = records.db
        self.game_id = game_id
        self.expected = expected
        self.photos_ok: set[str] = set()
        self.readings_ok: dict[str, Reading] = {}

    def fail(self, error: type[TamperedError], seq: int | None, kind: str | None, detail: str):
        raise error(self.records.path, self.game_id, seq, kind, detail)

    def run(self) -> ChainReport:
        head, count, head_signature = self.records._check_game(self.game_id)
        events, key = self.chain()
        self.head(events, int(count), head, head_signature, key)
        self.evidence(events)
        self.projections(events)
        self.stored_rows()
        status = Integrity.INTACT if key is not None else Integrity.UNSIGNED
        return ChainReport(self.game_id, status, len(events), head, key.fingerprint if key else None)

    # the events, their chain and their signatures
    def chain(self) -> tuple[list[tuple[int, str, Event]], PublicKey | None]:
        rows = list(self.db.execute(
            f"SELECT seq, kind, payload, prev_hash, hash, {self.records._signature_column('events')} "
            "FROM events WHERE game_id=? ORDER BY seq", (self.game_id,)))
        prev = GENESIS_HASH
        key: PublicKey | None = None
        events: list[tuple[int, str, Event]] = []
        for expected_seq, (seq, kind, payload, prev_hash, digest, signature) in enumerate(rows, start=1):
            if seq != expected_seq:
                self.fail(ChainBrokenError, expected_seq, None,
                          f"event {expected_seq} is missing: the next row is event {seq} ({kind})")
            try:
                event = event_from_payload(kind, json.loads(payload))
            except (EventDataError, json.JSONDecodeError, TypeError) as error:
                self.fail(ChainBrokenError, seq, kind, f"cannot be read: {error}")
            if prev_hash != prev:
                self.fail(ChainBrokenError, seq, kind,
                          f"does not follow event {seq - 1}: it names previous hash {prev_hash[:12]!r}, "
                          f"event {seq - 1} hashes to {prev[:12]!r} (an event removed, inserted or moved)")
            if chain_hash(prev, event) != digest:
                self.fail(ChainBrokenError, seq, kind,
                          f"does not hash to its recorded hash {digest[:12]!r}: the event was edited")
            if seq == 1:
                key = self.first_event(event, kind)
            if key is not None and not key.verifies(signature, event_message(seq, digest)):
                self.fail(SignatureError, seq, kind,
                          (f"signature {signature[:16]!r}" if signature else "no signature")
                          + f" does not verify with the game's table key {key.fingerprint} "
                          "(edited and re-hashed, or added by someone without the key)")
            if key is None and signature:
                self.fail(SignatureError, seq, kind,
                          f"carries signature {signature[:16]!r} but the game records no table key (key removed?)")
            prev = digest
            events.append((seq, kind, event))
        return events, key

    def first_event(self, event: Event, kind: str) -> PublicKey | None:
        if not isinstance(event, GameCreated):
            self.fail(ChainBrokenError, 1, kind, "a game's first event must be game-created")
        key = None
        if event.table_key is not None:
            try:
                key = PublicKey.from_text(event.table_key)
            except ValueError as error:
                self.fail(SignatureError, 1, kind, f"the recorded table key is not an Ed25519 key: {error}")
            if event.key_id != key.fingerprint:
                self.fail(SignatureError, 1, kind, f"the recorded key id {event.key_id!r} is not the fingerprint "
                                                   f"{key.fingerprint!r} of the recorded table key")
        if self.expected is not None:
            if key is None:
                self.fail(SignatureError, 1, kind, "unsigned (recorded before signing): it cannot be checked "
                                                   f"against the given key {self.expected.fingerprint}")
            if key != self.expected:
                self.fail(SignatureError, 1, kind, f"signed by table key {key.fingerprint}, not by the given key "
                                                   f"{self.expected.fingerprint}")
        since = self.records._signed_since()
        if key is None and since is not None and self.game_id >= since:
            self.fail(SignatureError, 1, kind, f"records no table key, but every game of this file from game "
                                               f"{since} on was signed (the key and signatures removed?)")
        return key

    def head(self, events, count: int, head: str, head_signature: str | None, key: PublicKey | None) -> None:
        last_seq, last_kind = (events[-1][0], events[-1][1]) if events else (None, None)
        last_hash = self.db.execute("SELECT hash FROM events WHERE game_id=? AND seq=?",
                                    (self.game_id, last_seq)).fetchone() if events else None
        last = last_hash[0] if last_hash else GENESIS_HASH
        since = self.records._signed_since()
        if not events and (count or (since is not None and self.game_id >= since)):
            # games are created with their first event in one transaction (`start_game`)
            self.fail(ChainBrokenError, None, None, f"the game holds no events (its head says {count})")
        if len(events) != count:
            self.fail(ChainBrokenError, last_seq, last_kind,
                      f"the game's head says {count} events, {len(events)} are recorded "
                      + ("(events after this one removed?)" if len(events) < count else "(events added?)"))
        if last != head:
            self.fail(ChainBrokenError, last_seq, last_kind,
                      f"the game's head hash {head[:12]!r} is not the last event's hash {last[:12]!r}")
        if key is not None and not key.verifies(head_signature, head_message(self.game_id, count, head)):
            self.fail(SignatureError, last_seq, last_kind,
                      f"the head ({count} events ending here, {head[:12]!r}) is not signed by the table key "
                      f"{key.fingerprint}: events after it removed and the head moved back, or events added")

    # the photos and readings the events rest on
    def evidence(self, events) -> None:
        for seq, kind, event in events:
            data = event.payload()
            photo_sha, read_sha = data.get("photo"), data.get("reading")
            if photo_sha:
                self.photo(photo_sha, seq, kind, "the photo the event names")
            if read_sha:
                reading = self.reading(read_sha, seq, kind, "the reading the event names")
                if photo_sha and reading.photo and reading.photo != photo_sha:
                    self.fail(EvidenceError, seq, kind, f"reading {read_sha[:12]!r} says it was read from photo "
                                                        f"{reading.photo[:12]!r}, the event names photo {photo_sha[:12]!r}")
                for source in reading.reading.get("fused_from", ()) if isinstance(reading.reading, dict) else ():
                    self.reading(source, seq, kind, f"a reading that reading {read_sha[:12]!r} was fused from")

    def photo(self, sha: str, seq: int | None, kind: str | None, what: str) -> None:
        if sha in self.photos_ok:
            return
        row = self.db.execute("SELECT data FROM photos WHERE sha256=?", (sha,)).fetchone()
        if row is None:
            self.fail(EvidenceError, seq, kind, f"{what}, {sha[:12]!r}, is missing from the photos")
        actual = sha256_bytes(bytes(row[0]))
        if actual != sha:
            self.fail(EvidenceError, seq, kind, f"{what}, {sha[:12]!r}, holds other bytes (they hash to "
                                                f"{actual[:12]!r}): the photo was swapped or edited")
        self.photos_ok.add(sha)

    def reading(self, sha: str, seq: int | None, kind: str | None, what: str) -> Reading:
        if sha in self.readings_ok:
            return self.readings_ok[sha]
        row = self.db.execute("SELECT photo, reading, elapsed_ms FROM readings WHERE sha256=?", (sha,)).fetchone()
        if row is None:
            self.fail(EvidenceError, seq, kind, f"{what}, {sha[:12]!r}, is missing from the readings")
        try:
            actual = reading_sha(json.loads(row[1]))
        except (json.JSONDecodeError, ValueError):
            actual = sha256_bytes(str(row[1]).encode("utf-8"))
        if actual != sha:
            self.fail(EvidenceError, seq, kind, f"{what}, {sha[:12]!r}, holds another reading (it hashes to "
                                                f"{actual[:12]!r}): the reading was edited")
        reading = Reading(sha, row[0], json.loads(row[1]), row[2])
        if reading.photo:
            self.photo(reading.photo, seq, kind, f"the photo reading {sha[:12]!r} was read from")
        self.readings_ok[sha] = reading
        return reading

    # the tables that copy what the events say
    def projections(self, events) -> None:
        judged = {seq: event for seq, kind, event in events if kind == "turn-judged"}
        rows = {row[0]: row[1:] for row in self.db.execute(
            "SELECT event_seq, turn, player, outcome, verdict FROM verdicts WHERE game_id=?", (self.game_id,))}
        for seq, event in judged.items():
            data = event.payload()
            expected = (data["turn"], data["player"], data["outcome"], canonical_json(data))
            if seq not in rows:
                self.fail(ProjectionError, seq, "turn-judged",
                          f"the verdicts table has no row for this verdict (turn {data['turn']}, {data['outcome']})")
            if tuple(rows[seq]) != expected:
                turn, player, outcome, _ = rows[seq]
                self.fail(ProjectionError, seq, "turn-judged",
                          f"the verdicts table says turn {turn} {player!r} {outcome!r}, the event says turn "
                          f"{data['turn']} {data['player']!r} {data['outcome']!r}"
                          + ("" if (turn, player, outcome) != expected[:3] else " (its verdict JSON differs)"))
        for seq in sorted(set(rows) - set(judged)):
            turn, player, outcome, _ = rows[seq]
            kind = next((k for s, k, _ in events if s == seq), None)
            self.fail(ProjectionError, seq, kind, f"the verdicts table holds a verdict (turn {turn} {player!r} "
                                                  f"{outcome!r}) that no turn-judged event gave")
        if events:
            created = events[0][2]
            players = tuple(r[0] for r in self.db.execute(
                "SELECT name FROM players WHERE game_id=? ORDER BY seat", (self.game_id,)))
            if players != tuple(created.players):
                self.fail(ProjectionError, 1, events[0][1], f"the players table says {list(players)!r}, the game "
                                                           f"was created for {list(created.players)!r}")

    # every photo and reading stored with the game, whether an event names it or not
    def stored_rows(self) -> None:
        for sha, data in self.db.execute("SELECT sha256, data FROM photos WHERE game_id=?", (self.game_id,)):
            if sha not in self.photos_ok and sha256_bytes(bytes(data)) != sha:
                self.fail(EvidenceError, None, None, f"stored photo {sha[:12]!r} does not hash to its name")
        for (sha,) in self.db.execute("SELECT sha256 FROM readings WHERE game_id=?", (self.game_id,)):
            self.reading(sha, None, None, "a stored reading")


class _transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
