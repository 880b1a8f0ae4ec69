"""The player registry in the club's database (SQLite file or PostgreSQL), beside the records and the
events: `registry_players` (an ID each) and `registry_names` (every name a player went by, from when;
never updated). Thin: rows in, `registry.Player` values out; every check is in registry.py.
"""
from __future__ import annotations

from datetime import datetime, timezone

from controller.records.engine import Database, open_database
from controller.records.errors import RecordsError
from controller.records.schema.migrations import Migration, migrate
from controller.records.schema.tables import known_tables

from .errors import LeagueError, PlayerNameError
from .registry import NameSpan, Player, check_id, clean_name, find, next_id

SCHEMA = """
CREATE TABLE IF NOT EXISTS registry_players (
    player_id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS registry_names (
    player_id TEXT NOT NULL REFERENCES registry_players(player_id),
    seq INTEGER NOT NULL,
    name TEXT NOT NULL,
    since TEXT NOT NULL,
    PRIMARY KEY (player_id, seq)
)
"""

MIGRATIONS = (Migration(1, "the player registry: an ID each, every name used and since when", SCHEMA, SCHEMA),)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def ensure_schema(db: Database) -> None:
    migrate(db, "registry", MIGRATIONS, lambda d: 0)


def read_players(db: Database) -> tuple[Player, ...]:
    if "registry_players" not in db.tables():
        return ()
    spans: dict[str, list[NameSpan]] = {}
    for player_id, name, since in db.execute(
            "SELECT player_id, name, since FROM registry_names ORDER BY player_id, seq").fetchall():
        spans.setdefault(player_id, []).append(NameSpan(name, since))
    ids = [pid for (pid,) in db.execute("SELECT player_id FROM registry_players ORDER BY created_at, player_id")]
    return tuple(Player(pid, tuple(spans[pid])) for pid in ids if pid in spans)


class Registry:
    """The registry of one club database. Use as a context manager."""

    def __init__(self, path: str, *, read_only: bool = False):
        try:
            self.db = open_database(path, read_only=read_only, what="club database",
                                    known_tables=frozenset() if read_only else known_tables())
            if not read_only:
                ensure_schema(self.db)
        except RecordsError as error:
            raise LeagueError(str(error)) from None
        self.path = self.db.target.shown

    def __enter__(self) -> "Registry":
        return self

    def __exit__(self, *exc) -> None:
        self.db.close()

    def players(self) -> tuple[Player, ...]:
        try:
            return read_players(self.db)
        except RecordsError as error:
            raise LeagueError(str(error)) from None

    def find(self, token: str) -> Player:
        return find(self.players(), token)

    def add(self, name: str, player_id: str | None = None, when: str | None = None) -> Player:
        name, players = clean_name(name), self.players()
        player_id = check_id(player_id) if player_id else next_id(players)
        if any(p.player_id == player_id for p in players):
            raise PlayerNameError(f"player ID {player_id!r} is taken already ({find(players, player_id).name})")
        when = when or _now()
        with self.db.transaction():
            self.db.execute("INSERT INTO registry_players (player_id, created_at) VALUES (?, ?)", (player_id, when))
            self.db.execute("INSERT INTO registry_names (player_id, seq, name, since) VALUES (?, 1, ?, ?)",
                            (player_id, name, when))
        return self.find(player_id)

    def rename(self, token: str, new_name: str, when: str | None = None) -> Player:
        player, new_name = self.find(token), clean_name(new_name)
        if new_name == player.name:
            raise PlayerNameError(f"player {player.player_id} goes by {new_name!r} already")
        with self.db.transaction():
            self.db.execute("INSERT INTO registry_names (player_id, seq, name, since) VALUES (?, ?, ?, ?)",
                            (player.player_id, len(player.names) + 1, new_name, when or _now()))
        return self.find(player.player_id)
