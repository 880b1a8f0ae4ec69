"""The league's database (SQLite file or PostgreSQL) and its pull of each club's signed event logs.

The league keeps, per club, where its database is and the public keys of its directors (given by
each club's secretary out of band, docs/league.md): the league's copy of that club's keyring. A
pull reads each event's log and signed head from the club's database (read-only), checks all of it
with the same reader every tileref command uses (history.read_log: signatures, chain, roster, head)
against those keys, and keeps the entries the league has not got yet. A log that does not extend
what the league holds (an entry rewritten, a log cut short) or does not verify is refused whole and
named; nothing of that event is taken. A club that cannot be reached is named and left for the next
pull. The table and ratings are made from the league's copy alone, each log checked again as read,
so a result counts once however often a club delivers it, and a forged or unsigned one never.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from controller.records.engine import open_database
from controller.records.errors import RecordsError, ServerUnavailableError
from controller.records.keyring import KeyEntry, KeyRole
from controller.records.schema.migrations import Migration, migrate
from controller.records.schema.tables import known_tables
from controller.records.signing import PublicKey
from controller.tournament.errors import HistoryTamperedError
from controller.tournament.history import SignedEntry, SignedHead, read_log, roster_digest
from controller.tournament.log_checks import log_state, signer_check

from .errors import ClubError, LeagueError, LeagueTamperedError
from .ratings import RatedGame, rated_games

SCHEMA = """
CREATE TABLE IF NOT EXISTS league_clubs (
    club TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    added_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS league_club_keys (
    club TEXT NOT NULL REFERENCES league_clubs(club),
    fingerprint TEXT NOT NULL,
    public_key TEXT NOT NULL,
    name TEXT NOT NULL,
    trusted_at TEXT NOT NULL,
    PRIMARY KEY (club, fingerprint)
);
CREATE TABLE IF NOT EXISTS league_events (
    club TEXT NOT NULL REFERENCES league_clubs(club),
    event TEXT NOT NULL,
    format TEXT NOT NULL,
    settings_json TEXT NOT NULL,
    players_json TEXT NOT NULL,
    head_entries INTEGER NOT NULL,
    head_digest TEXT NOT NULL,
    head_key TEXT NOT NULL,
    head_signature TEXT NOT NULL,
    head_at TEXT NOT NULL,
    pulled_at TEXT NOT NULL,
    PRIMARY KEY (club, event)
);
CREATE TABLE IF NOT EXISTS league_entries (
    club TEXT NOT NULL,
    event TEXT NOT NULL,
    seq INTEGER NOT NULL,
    entry_text TEXT NOT NULL,
    director_key TEXT NOT NULL,
    signature TEXT NOT NULL,
    PRIMARY KEY (club, event, seq),
    FOREIGN KEY (club, event) REFERENCES league_events(club, event)
)
"""

MIGRATIONS = (Migration(1, "the league: clubs, their directors' keys, each event's signed log as pulled",
                        SCHEMA, SCHEMA),)


@dataclass(frozen=True)
class ClubLog:
    """One event's log as a club holds it (or the league's copy of it)."""

    club: str
    event: str
    format: str
    settings: dict
    players: tuple[str, ...]
    entries: tuple[SignedEntry, ...]
    head: SignedHead | None


@dataclass(frozen=True)
class PullReport:
    club: str
    taken: tuple[tuple[str, int], ...] = ()  # (event, new entries)
    offline: str = ""  # why the club could not be reached
    refused: tuple[str, ...] = ()  # one line per event whose log does not hold


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _public(text: str, where: str) -> PublicKey:
    try:
        return PublicKey.from_text(text)
    except ValueError as error:
        raise HistoryTamperedError(f"{where}: unreadable key: {error}") from None


def verify(log: ClubLog, ring: list[KeyEntry]):
    """The entries of one club's event log, every one checked against the league's keys for that club."""
    roster = roster_digest(log.format, log.settings, log.players)
    return read_log(log.event, list(log.entries), log.head, roster, signer_check(ring, f"club {log.club!r}"))


def extends(held: ClubLog | None, fresh: ClubLog) -> str:
    """Why the fresh log is not the held one carried on, or "" when it is."""
    if held is None:
        return ""
    if (held.format, held.settings, held.players) != (fresh.format, fresh.settings, fresh.players):
        return "its format, settings or player list differ from the copy the league holds"
    if len(fresh.entries) < len(held.entries):
        return (f"it ends at entry {len(fresh.entries)}, but the league holds it up to entry {len(held.entries)}: "
                "entries were removed")
    for old, new in zip(held.entries, fresh.entries):
        if old != new:
            return f"log entry {old.seq} is not the one the league holds: the log was rewritten"
    return ""


def read_club_logs(db, club: str) -> list[ClubLog]:
    """Every event's log in a club's database (opened read-only)."""
    tables = db.tables()
    if not {"tournament_events", "tournament_history", "tournament_heads"} <= tables:
        return []
    logs = []
    for event_id, name, fmt, settings_json in db.execute(
            "SELECT id, name, format, settings_json FROM tournament_events ORDER BY id").fetchall():
        players = tuple(p for (p,) in db.execute(
            "SELECT name FROM tournament_players WHERE event_id = ? ORDER BY position", (event_id,)).fetchall())
        where = f"club {club!r}, event {name!r}"
        entries = tuple(SignedEntry(seq, text, _public(key, f"{where}, log entry {seq}"), signature)
                        for seq, text, key, signature in db.execute(
                            "SELECT seq, entry_text, director_key, signature FROM tournament_history "
                            "WHERE event_id = ? ORDER BY seq", (event_id,)).fetchall())
        row = db.execute("SELECT entries, digest, director_key, signature, signed_at FROM tournament_heads "
                         "WHERE event_id = ?", (event_id,)).fetchone()
        head = None if row is None else SignedHead(int(row[0]), row[1], _public(row[2], f"{where}, head"), row[3],
                                                   row[4])
        logs.append(ClubLog(club, name, fmt, json.loads(settings_json), players, entries, head))
    return logs


class LeagueStore:
    """The league's database. Use as a context manager."""

    def __init__(self, path: str, *, read_only: bool = False):
        try:
            self.db = open_database(path, read_only=read_only, what="league database",
                                    known_tables=frozenset() if read_only else known_tables())
            if not read_only:
                migrate(self.db, "league", MIGRATIONS, lambda d: 0)
        except RecordsError as error:
            raise LeagueError(str(error)) from None
        self.path = self.db.target.shown

    def __enter__(self) -> "LeagueStore":
        return self

    def __exit__(self, *exc) -> None:
        self.db.close()

    def clubs(self) -> list[tuple[str, str]]:
        if "league_clubs" not in self.db.tables():
            return []
        return [(c, s) for c, s in self.db.execute("SELECT club, source FROM league_clubs ORDER BY club").fetchall()]

    def add_club(self, club: str, source: str, keys: list[tuple[str, PublicKey]]) -> None:
        club = " ".join(club.split())
        if not club:
            raise ClubError("a club's name is empty")
        if any(c == club for c, _ in self.clubs()):
            raise ClubError(f"club {club!r} is in the league already ({self.path})")
        if not keys:
            raise ClubError(f"club {club!r}: give its directors' public keys (--director-key FILE.pub)")
        now = _now()
        with self.db.transaction():
            self.db.execute("INSERT INTO league_clubs (club, source, added_at) VALUES (?, ?, ?)", (club, source, now))
            for name, key in keys:
                self.db.execute("INSERT INTO league_club_keys (club, fingerprint, public_key, name, trusted_at) "
                                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                (club, key.fingerprint, key.text, name, now))

    def ring(self, club: str) -> list[KeyEntry]:
        return [KeyEntry(fp, _public(text, f"club {club!r}, key {fp}"), name, at, None, None, KeyRole.DIRECTOR)
                for fp, text, name, at in self.db.execute(
                    "SELECT fingerprint, public_key, name, trusted_at FROM league_club_keys WHERE club = ? "
                    "ORDER BY fingerprint", (club,)).fetchall()]

    def held(self, club: str) -> dict[str, ClubLog]:
        logs = {}
        for event, fmt, settings_json, players_json, n, digest, key, signature, at in self.db.execute(
                "SELECT event, format, settings_json, players_json, head_entries, head_digest, head_key, "
                "head_signature, head_at FROM league_events WHERE club = ? ORDER BY event", (club,)).fetchall():
            where = f"club {club!r}, event {event!r}"
            entries = tuple(SignedEntry(seq, text, _public(k, f"{where}, log entry {seq}"), sig)
                            for seq, text, k, sig in self.db.execute(
                                "SELECT seq, entry_text, director_key, signature FROM league_entries "
                                "WHERE club = ? AND event = ? ORDER BY seq", (club, event)).fetchall())
            logs[event] = ClubLog(club, event, fmt, json.loads(settings_json), tuple(json.loads(players_json)),
                                  entries, SignedHead(int(n), digest, _public(key, f"{where}, head"), signature, at))
        return logs

    def pull(self, club: str, source: str) -> PullReport:
        """Take what the club's database holds that the league has not got, each log verified."""
        try:
            club_db = open_database(source, read_only=True, what=f"club {club!r} database")
        except ServerUnavailableError as error:
            return PullReport(club, offline=str(error))
        except RecordsError as error:
            return PullReport(club, offline=str(error))
        try:
            logs = read_club_logs(club_db, club)
        except ServerUnavailableError as error:
            return PullReport(club, offline=str(error))
        except RecordsError as error:
            raise LeagueError(f"club {club!r}: {error}") from None
        except HistoryTamperedError as error:
            return PullReport(club, refused=(str(error),))
        finally:
            club_db.close()
        ring, held = self.ring(club), self.held(club)
        taken, refused = [], []
        for log in logs:
            if not log.entries:
                continue  # an event not signed yet: nothing of it counts
            try:
                log_state(log.event, verify(log, ring))
            except HistoryTamperedError as error:
                refused.append(f"club {club!r}: {error}")
                continue
            why = extends(held.get(log.event), log)
            if why:
                refused.append(f"club {club!r}, event {log.event!r}: {why}")
                continue
            have = len(held[log.event].entries) if log.event in held else 0
            if have == len(log.entries):
                continue
            if self._keep(log, have):
                taken.append((log.event, len(log.entries) - have))
        return PullReport(club, tuple(taken), "", tuple(refused))

    def _keep(self, log: ClubLog, have: int) -> bool:
        """Keep the entries after the first `have`; False when another pull took entries meanwhile
        (the next pull compares again)."""
        head = log.head
        with self.db.transaction():
            self.db.lock(f"tileref-league-{log.club}")
            (count,) = self.db.execute("SELECT count(*) FROM league_entries WHERE club = ? AND event = ?",
                                       (log.club, log.event)).fetchone()
            if int(count) != have:
                return False
            if have == 0:
                self.db.execute(
                    "INSERT INTO league_events (club, event, format, settings_json, players_json, head_entries, "
                    "head_digest, head_key, head_signature, head_at, pulled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (log.club, log.event, log.format, json.dumps(log.settings, sort_keys=True),
                     json.dumps(list(log.players), ensure_ascii=False), head.entries, head.digest, head.director.text,
                     head.signature, head.at, _now()))
            else:
                self.db.execute(
                    "UPDATE league_events SET head_entries = ?, head_digest = ?, head_key = ?, head_signature = ?, "
                    "head_at = ?, pulled_at = ? WHERE club = ? AND event = ?",
                    (head.entries, head.digest, head.director.text, head.signature, head.at, _now(), log.club,
                     log.event))
            self.db.executemany(
                "INSERT INTO league_entries (club, event, seq, entry_text, director_key, signature) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(log.club, log.event, e.seq, e.text, e.director.text, e.signature) for e in log.entries[have:]])
        return True

    def games(self) -> list[RatedGame]:
        """Every rated game of every club's event the league holds, each log verified again as read."""
        games: list[RatedGame] = []
        for club, _ in self.clubs():
            ring = self.ring(club)
            for log in self.held(club).values():
                try:
                    entries = verify(log, ring)
                    games.extend(rated_games(club, log.event, entries, log_state(log.event, entries)))
                except HistoryTamperedError as error:
                    raise LeagueTamperedError(f"league database {self.path}: club {club!r}: {error}") from None
        return games
