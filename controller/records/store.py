"""The records of every game in one SQLite file (WAL, one transaction per event).

An event is written, with the photos and readings it refers to, before the controller acts
on it; `events(game)` gives the log back to fold. Each game's events form a hash chain:
hash = sha256(previous hash + canonical JSON of the event), so an edited, removed or
reordered row shows in `verify`. A chain anyone can recompute proves little, so each event's
hash and the game's head are also signed with the table's Ed25519 key (`signing.py`), whose
public half the game's first event records. Photos and readings are stored under their own
sha256, which the events quote: `verify` recomputes every one an event (or a fused reading)
names, and checks the verdicts and players tables, which are copies of what the events say
(verification/game_check.py). The tables and their versions are the schema's (schema/).
The wall-clock time of each row is kept beside the chain, not in it (it is not part of what
happened at the table).

Every reader goes through `require_intact` (or `verify`) before it folds a game, so a tampered
record is reported as tampering (TamperedError, exit 3), never as a state-machine error. Whether
the key that signed a game is one of the club's is the keyring's word (keyring.py): `verify` asks
the database's own keyring by default (or another's, e.g. the tournament's), and a signer it does
not trust fails the game like tampering (UntrustedKeyError, exit 3).
"""
from __future__ import annotations

import contextlib
import enum
import time
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from controller.game.events import Event, GameCreated, canonical_json, event_from_payload
from controller.game.errors import EventDataError

from .chain import GENESIS_HASH, Photo, Reading, RecordedEvent, chain_hash, stored_bytes, stored_json, stored_object
from .engine import Database, DbTarget, open_database, parse_db
from .errors import (
    ChainBrokenError, DeliveryConflictError, GameNotFoundError, KeyMismatchError, NoRecordsYetError, RecordsFileError,
    SchemaError, TamperedError,
)
from .keyring import Keyring, UntrustedKeyError
from .schema.migrations import current_version, migrate
from .schema.tables import known_tables
from .schema.versions import MIGRATIONS, SCHEMA_VERSION, detect_version
from .signing import PublicKey, TableKey, default_table_key, event_message, head_message
from .verification.game_check import GameCheck
from .verification.report import ChainReport, Integrity
from .verification.unsigned import SigningEra, signing_era, unsigned_ranges


class Records:
    """The records of a table's or a club's games: one SQLite file (a path or `sqlite:///PATH`, the
    default) or a PostgreSQL database (`postgresql://...`). Use as a context manager or call close().

    `key`: the table key that signs what this process appends (`--key FILE`); without one, the
    per-user default key is loaded (or made) the first time something is signed. Readers never
    need a private key. `read_only`: open for reading only (SQLite `mode=ro`: a read-only file or
    folder is fine, nothing is ever written, not even the journal mode). `create`: make the file and
    its tables when missing (else a missing file or one holding no records is refused). `check`:
    an SQLite file is checked page by page (`PRAGMA quick_check`) as it opens (a table's records,
    before hours of play).
    """

    def __init__(self, path: str | Path | DbTarget, *, create: bool = True, key: TableKey | None = None,
                 read_only: bool = False, database: Database | None = None, check: bool = False) -> None:
        target = path if isinstance(path, DbTarget) else parse_db(path)
        self.target = target
        self.path: Path | str = target.shown if target.is_server else Path(target.location)
        self._key = key
        self._game_keys: dict[int, PublicKey | None] = {}
        self._columns: dict[str, set[str]] = {}
        self._owns_db = database is None
        self.read_only = read_only
        if database is None:
            if not target.is_server and not create and not Path(target.location).exists():
                raise RecordsFileError(f"records file {str(self.path)!r} does not exist")
            database = open_database(target, read_only=read_only, create=create, check=check,
                                     known_tables=frozenset() if read_only else known_tables())
        self.db = database
        try:
            if create and not read_only:
                migrate(self.db, "records", MIGRATIONS, detect_version)
            else:
                version = current_version(self.db, "records", detect_version)
                if version == 0:
                    raise NoRecordsYetError(f"records file {str(self.path)!r} holds no tileref records")
                if version > SCHEMA_VERSION:
                    raise SchemaError(f"records file {str(self.path)!r} is of schema {version}; this tileref knows "
                                      f"up to {SCHEMA_VERSION}: use a newer tileref")
        except BaseException:
            if self._owns_db:
                self.db.close()
            raise

    @classmethod
    def on(cls, database: Database, *, key: TableKey | None = None, read_only: bool = True) -> "Records":
        """The records held by a database opened already (the tournament director's)."""
        return cls(database.target, create=False, key=key, read_only=read_only, database=database)

    def close(self) -> None:
        if self._owns_db:
            self.db.close()

    def __enter__(self) -> "Records":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ----------------------------------------------------------------- schema

    def _table_columns(self, table: str) -> set[str]:
        if table not in self._columns:
            self._columns[table] = self.db.columns(table)
        return self._columns[table]

    def _has_signatures(self) -> bool:
        return "signature" in self._table_columns("events")

    def _has_info(self) -> bool:
        return "game_id" in self._table_columns("game_info")

    def _upgrade(self) -> None:
        """Bring a file opened without `create` (e.g. `correct` on an old record) to the current schema
        before anything is signed into it."""
        migrate(self.db, "records", MIGRATIONS, detect_version)
        self._columns.clear()
        self._current = True

    def _ensure_current(self) -> None:
        """Before a write: an older file is brought forward first (a reading per photo needs schema 4)."""
        if not getattr(self, "_current", False):
            if current_version(self.db, "records", detect_version) < SCHEMA_VERSION:
                self._upgrade()
            self._current = True

    def signed_since(self) -> int | None:
        if "meta" not in self.db.tables():  # a file with no meta table at all
            return None
        row = self.db.execute("SELECT value FROM meta WHERE key='signed_since_game'").fetchone()
        return None if row is None else int(row[0])

    def signature_column(self, table: str) -> str:
        # a file of schema 1 opened only to read keeps its shape: read "no signature"
        column = "signature" if table == "events" else "head_signature"
        return column if self._has_signatures() else "NULL"

    def signing_key(self) -> TableKey:
        if self._key is None:
            self._key = default_table_key()
        return self._key

    # ------------------------------------------------------------------ games

    def new_game(self, variant: str, players: Iterable[str]) -> int:
        with self.db.transaction():
            return self._insert_game(variant, players)

    def _insert_game(self, variant: str, players: Iterable[str], *, game_id: int | None = None,
                     created_at: str | None = None) -> int:
        if game_id is None:
            row = self.db.execute("INSERT INTO games (variant, created_at, head_hash) VALUES (?, ?, ?) RETURNING id",
                                  (variant, created_at or _now(), GENESIS_HASH)).fetchone()
            game_id = int(row[0])
        else:
            self.db.execute("INSERT INTO games (id, variant, created_at, head_hash) VALUES (?, ?, ?, ?)",
                            (game_id, variant, created_at or _now(), GENESIS_HASH))
        self.db.executemany(
            "INSERT INTO players VALUES (?, ?, ?)", [(game_id, seat, name) for seat, name in enumerate(players)]
        )
        return game_id

    def start_game(self, first: GameCreated, *, state: enum.Enum | None = None, table_name: str | None = None,
                   event: str | None = None, tournament_game: str | None = None) -> int:
        """A new game and its first event in one transaction (no game is ever left without events).
        `state`: what the game's machine made of that event (`GameJournal.start`, `ClockJournal.start`).
        `table_name`, `event`, `tournament_game`: where the club board and the tournament director
        find it (game_info)."""
        state_text = state_value(state)
        key = self.signing_key()
        self._ensure_current()
        with self.db.transaction():
            game_id = self._insert_game(first.variant, first.players)
            if table_name or event or tournament_game:
                self._set_info(game_id, table_name=table_name, event=event, tournament_game=tournament_game)
            self._append(game_id, first, (), (), state_text, key)
        return game_id

    def _set_info(self, game_id: int, **fields) -> None:
        if not self._has_info():
            self._upgrade()
        self.db.execute("INSERT INTO game_info (game_id) VALUES (?) ON CONFLICT (game_id) DO NOTHING", (game_id,))
        for name, value in fields.items():
            if value is not None:
                self.db.execute(f"UPDATE game_info SET {name}=? WHERE game_id=?", (value, game_id))

    def info(self, game_id: int) -> dict[str, object]:
        """What game_info says of a game: table_name, event, tournament_game, signed_id (None where unsaid)."""
        names = ("signed_id", "table_name", "event", "tournament_game")
        if not self._has_info():
            return dict.fromkeys(names)
        row = self.db.execute(f"SELECT {', '.join(names)} FROM game_info WHERE game_id=?", (game_id,)).fetchone()
        return dict(zip(names, row)) if row else dict.fromkeys(names)

    def signed_id(self, game_id: int) -> int:
        """The game id its head signature binds: its own, unless it was imported under another id."""
        signed = self.info(game_id)["signed_id"]
        return int(signed) if signed is not None else game_id

    def games(self) -> list[tuple[int, str, str, int]]:
        return [tuple(row) for row in self.db.execute("SELECT id, variant, state, events FROM games ORDER BY id")]

    def game_ids(self) -> list[int]:
        return [int(row[0]) for row in self.db.execute("SELECT id FROM games ORDER BY id")]

    def latest_game(self, *, with_events: bool = False) -> int:
        row = self.db.execute("SELECT max(id) FROM games" + (" WHERE events > 0" if with_events else "")).fetchone()
        if row[0] is None:
            raise GameNotFoundError(f"records file {str(self.path)!r} holds no game"
                                    + (" with events" if with_events else ""))
        return int(row[0])

    def players(self, game_id: int) -> tuple[str, ...]:
        self.game_row(game_id)
        return tuple(r[0] for r in self.db.execute("SELECT name FROM players WHERE game_id=? ORDER BY seat", (game_id,)))

    def game_row(self, game_id: int, *, lock: bool = False) -> tuple:
        row = self.db.execute(
            f"SELECT head_hash, events, {self.signature_column('games')} FROM games WHERE id=?"
            + (" FOR UPDATE" if lock and self.target.is_server else ""), (game_id,)
        ).fetchone()
        if row is None:
            raise GameNotFoundError(f"no game {game_id!r} in records file {str(self.path)!r}")
        head, count, signature = row
        if not isinstance(head, str) or not isinstance(count, int):
            raise TamperedError(self.path, game_id, None, None,
                                f"the game row is unreadable (head {head!r}, event count {count!r})")
        return head, count, signature

    def head(self, game_id: int) -> tuple[int, str]:
        """(events, head hash) as the game row says; `head_digest` of it is what the table shows."""
        head, count, _ = self.game_row(game_id)
        return int(count), head

    def game_key(self, game_id: int) -> PublicKey | None:
        """The table key the game's first event records (None: recorded before signing)."""
        if game_id not in self._game_keys:
            row = self.db.execute("SELECT kind, payload FROM events WHERE game_id=? AND seq=1", (game_id,)).fetchone()
            key = None
            if row is not None and row[0] == GameCreated.kind.value:
                text = stored_object(row[1]).get("table_key")
                key = PublicKey.from_text(text) if text else None
            self._game_keys[game_id] = key
        return self._game_keys[game_id]

    def unsigned_games(self, *, but: int | None = None) -> tuple[tuple[int, int], ...]:
        """The games whose first event records no table key, as id ranges (what a new signed game states)."""
        return unsigned_ranges(self.db, but=but)

    def signing_era(self) -> SigningEra:
        """What this database says of its unsigned games (read once per Records, again after a new game)."""
        if getattr(self, "_era", None) is None:
            self._era = signing_era(self.db, self.signature_column("events"))
        return self._era

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
        state: enum.Enum | None = None,
    ) -> RecordedEvent:
        """Write one event (and what it refers to) in one transaction; returns it chained and signed.

        `state`: the game's state after the event, as its machine derived it (the journals pass it:
        `controller.game.journal`, `controller.clock.journal`); None leaves the game row's as it was.
        The first event of a game gets the table key stamped in; later events are signed only if
        the game recorded a key (a game from before signing stays unsigned to its end)."""
        state_text = state_value(state)
        first = isinstance(event, GameCreated) and self.game_row(game_id)[1] == 0
        key = self.signing_key() if first or self.game_key(game_id) is not None else None
        self._ensure_current()
        with self.db.transaction():
            return self._append(game_id, event, photos, readings, state_text, key)

    def together(self) -> contextlib.AbstractContextManager[None]:
        """Appends inside it go in one transaction: all are written or none (`GameJournal.record_together`)."""
        return self.db.transaction()

    def chain_event(self, game_id: int, event: Event, key: TableKey | None, count: int, head: str
                    ) -> tuple[RecordedEvent, str | None]:
        """The event as it goes on the chain after (count, head): stamped with the key if it is the
        first, hashed, signed; and the head signature after it. Pure but for the signing."""
        seq = count + 1
        if seq == 1 and isinstance(event, GameCreated) and key is not None:
            info = self.info(game_id)
            event = replace(event, table_key=key.public.text, key_id=key.public.fingerprint,
                            table_and_event=(info["table_name"], info["event"], info["tournament_game"]),
                            unsigned_before=self.unsigned_games(but=game_id))
            self._game_keys[game_id] = key.public
            self._era = None
        recorded_key = self.game_key(game_id) if seq > 1 else (key.public if key else None)
        if key is not None and recorded_key is not None:
            self._same_key(game_id, recorded_key, key)
        digest = chain_hash(head, event)
        signed = recorded_key is not None and key is not None
        signature = key.sign(event_message(seq, digest)) if signed else None
        head_signature = key.sign(head_message(self.signed_id(game_id), seq, digest)) if signed else None
        return RecordedEvent(seq, event, head, digest, _now(), signature), head_signature

    def _append(self, game_id: int, event: Event, photos: Iterable[Photo], readings: Iterable[Reading],
                state: str | None, key: TableKey | None) -> RecordedEvent:
        head, count, _ = self.game_row(game_id, lock=True)
        recorded, head_signature = self.chain_event(game_id, event, key, count, head)
        self.store_event(game_id, recorded, photos, readings, state, head_signature)
        return recorded

    def store_event(self, game_id: int, recorded: RecordedEvent, photos: Iterable[Photo],
                    readings: Iterable[Reading], state: str | None, head_signature: str | None) -> None:
        """Write one chained event and what it rests on (inside the caller's transaction)."""
        event = recorded.event
        for photo in photos:
            self.db.execute(
                "INSERT INTO photos VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING",
                (photo.sha256, game_id, photo.mime, photo.width, photo.height, photo.data),
            )
        for reading in readings:
            self.db.execute(
                "INSERT INTO readings VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",  # one row per photo
                (reading.sha256, game_id, reading.photo, canonical_json(reading.reading), reading.elapsed_ms),
            )
        payload = canonical_json(event.payload())
        seq, digest = recorded.seq, recorded.hash
        if self._has_signatures():
            self.db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, event.kind.value, payload, recorded.prev_hash, digest, recorded.recorded_at,
                 recorded.signature),
            )
        else:  # an unsigned game in a file still of schema 1 (`correct` on an old record)
            self.db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, event.kind.value, payload, recorded.prev_hash, digest, recorded.recorded_at),
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

    def deliver(self, game_id: int, recorded: RecordedEvent, photos: Iterable[Photo], readings: Iterable[Reading],
                state: str | None, head_signature: str | None) -> bool:
        """Write an event chained elsewhere (a table's spool): idempotent by its hash. Returns False if
        the game holds it already (delivered before), True if written now; a game whose chain went on
        without it raises DeliveryConflictError."""
        with self.db.transaction():
            head, count, _ = self.game_row(game_id, lock=True)
            if recorded.seq <= count:
                row = self.db.execute("SELECT hash FROM events WHERE game_id=? AND seq=?",
                                      (game_id, recorded.seq)).fetchone()
                if row is not None and row[0] == recorded.hash:
                    return False
                raise DeliveryConflictError(
                    f"game {game_id} in {str(self.path)!r} holds event {recorded.seq} as "
                    f"{(row[0] if row else 'nothing')[:12]!r}, the spool has {recorded.hash[:12]!r}")
            if recorded.seq != count + 1 or recorded.prev_hash != head:
                raise DeliveryConflictError(
                    f"game {game_id} in {str(self.path)!r} is at event {count} (head {head[:12]!r}); spooled "
                    f"event {recorded.seq} follows {recorded.prev_hash[:12]!r}")
            verdict = self.keyring().judge(self.created_hash(game_id), self.game_key(game_id))
            if not verdict.ok:  # the club takes events only from its tables (the spool keeps them meanwhile)
                raise UntrustedKeyError(str(self.path), game_id, f"spooled event {recorded.seq} of game {game_id} in "
                                        f"{str(self.path)!r}", self._recorded_key_quietly(game_id), verdict.text)
            self.store_event(game_id, recorded, photos, readings, state, head_signature)
            return True

    def recorded(self, game_id: int) -> list[RecordedEvent]:
        self.game_row(game_id)
        out = []
        for seq, kind, payload, prev_hash, digest, recorded_at, signature in self.db.execute(
            f"SELECT seq, kind, payload, prev_hash, hash, recorded_at, {self.signature_column('events')} "
            "FROM events WHERE game_id=? ORDER BY seq",
            (game_id,),
        ):
            try:
                event = event_from_payload(kind, stored_object(payload))
            except (EventDataError, ValueError, TypeError) as error:
                raise ChainBrokenError(self.path, game_id, seq, kind, f"cannot be read back: {error}") from None
            out.append(RecordedEvent(seq, event, prev_hash, digest, recorded_at, signature))
        return out

    def events(self, game_id: int) -> list[Event]:
        return [r.event for r in self.recorded(game_id)]

    # ----------------------------------------------------------- verification

    def verify(self, game_id: int, key: PublicKey | None = None, ring: "Keyring | bool" = True) -> ChainReport:
        """Check everything the game's verdicts rest on; the first thing that does not hold fails it.

        `key`: the table's public key (`--key PUB`); the game must record exactly that key. Without
        it, signatures are checked against the key the game records, which a forger who rewrites
        the whole game with a key of his own also controls. `ring`: whose keyring judges the signer
        (True: this database's; a Keyring: another's, e.g. the tournament's; False: none asked)."""
        try:
            report = GameCheck(self, game_id, key).run()
        except TamperedError as error:
            head, count, _ = self.game_row(game_id)
            recorded = self._recorded_key_quietly(game_id)
            return ChainReport(game_id, Integrity.TAMPERED, int(count), head, recorded, error)
        if ring is False:
            return report
        return self.judged(report, self.keyring() if ring is True else ring)

    def judged(self, report: ChainReport, ring: Keyring) -> ChainReport:
        """The report with what `ring` says of the game's signer; a refused signer fails it (exit 3)."""
        verdict = ring.judge(self.created_hash(report.game_id), self.game_key(report.game_id))
        error = None
        if not verdict.ok:
            error = UntrustedKeyError(str(self.path), report.game_id, f"game {report.game_id} in {str(self.path)!r}",
                                      report.key_id, verdict.text)
        return replace(report, trust=verdict, error=error)

    def keyring(self) -> Keyring:
        """The keyring kept in this database (empty if none)."""
        return Keyring(self.db, str(self.path))

    def created_hash(self, game_id: int) -> str:
        """The chain hash of the game's first event: what names the game in every copy of its record."""
        row = self.db.execute("SELECT hash FROM events WHERE game_id=? AND seq=1", (game_id,)).fetchone()
        return row[0] if row else GENESIS_HASH

    def _recorded_key_quietly(self, game_id: int) -> str | None:
        try:
            key = self.game_key(game_id)
        except (ValueError, TypeError, AttributeError):
            return None
        return key.fingerprint if key else None

    def require_intact(self, game_id: int, key: PublicKey | None = None, ring: "Keyring | bool" = True) -> ChainReport:
        """The one check every reader makes before it folds a game: raises the TamperedError found
        (an UntrustedKeyError when the keyring refuses its signer)."""
        report = self.verify(game_id, key, ring)
        if report.error is not None:
            raise report.error
        return report

    # ------------------------------------------------------ photos, readings

    def photo(self, sha: str) -> Photo | None:
        row = self.db.execute("SELECT sha256, mime, width, height, data FROM photos WHERE sha256=?", (sha,)).fetchone()
        return None if row is None else Photo(row[0], row[1], row[2], row[3], stored_bytes(row[4]))

    def reading(self, sha: str, photo: str | None = None) -> Reading | None:
        """The reading `sha` (as read from `photo`, when stored for it: a reading is kept once per photo)."""
        rows = self.db.execute("SELECT sha256, photo, reading, elapsed_ms FROM readings WHERE sha256=?", (sha,)).fetchall()
        rows.sort(key=lambda r: r[1] != photo)
        return None if not rows else Reading(rows[0][0], rows[0][1], stored_json(rows[0][2]), rows[0][3])

    def verdicts(self, game_id: int) -> list[tuple[int, str, str]]:
        """(turn, player, outcome) per verdict; the table is checked against the events by `verify`."""
        return [tuple(r) for r in self.db.execute(
            "SELECT turn, player, outcome FROM verdicts WHERE game_id=? ORDER BY event_seq", (game_id,))]


def state_value(state: enum.Enum | None) -> str | None:
    """The text a game row keeps for a machine's state. Only a machine's own value is taken: a state
    typed by hand could disagree with the events, and nothing would ever notice."""
    if state is None:
        return None
    if not isinstance(state, enum.Enum) or not isinstance(state.value, str):
        raise TypeError(f"a game's state comes from its machine (an enum member), not {state!r}")
    return state.value


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
