"""Versioned migrations: the same schema on SQLite and PostgreSQL, one numbered step at a time.

Each component (`records`, `tournament`) has its steps; `schema_version` holds one row per step
applied (component, version, name, when). A file written before this table existed is recognised
by its shape (`detect`) and its steps are recorded as applied, so an old file is brought forward
exactly as before (schema 1 files get their signature columns; nothing else changes).

A database already at the newest version is not written to when it is opened; a database of a
newer version than this tileref knows is refused (SchemaError) rather than misread.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from ..engine import POSTGRESQL, Database
from ..errors import SchemaError

Step = Callable[[Database], None]


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sqlite: str | Step
    postgresql: str | Step


SCHEMA_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    component TEXT NOT NULL,
    version INTEGER NOT NULL,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL,
    PRIMARY KEY (component, version)
)"""


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _run(db: Database, step: str | Step) -> None:
    if callable(step):
        step(db)
        return
    for statement in _statements(step):
        db.execute(statement)


def recorded_version(db: Database, component: str) -> int | None:
    if "schema_version" not in db.tables():
        return None
    row = db.execute("SELECT max(version) FROM schema_version WHERE component = ?", (component,)).fetchone()
    return None if row is None or row[0] is None else int(row[0])


def current_version(db: Database, component: str, detect: Callable[[Database], int]) -> int:
    version = recorded_version(db, component)
    return detect(db) if version is None else version


def migrate(db: Database, component: str, steps: tuple[Migration, ...], detect: Callable[[Database], int]) -> int:
    """Apply the steps the database has not had; returns the version it is at."""
    latest = steps[-1].version
    version = current_version(db, component, detect)
    if version > latest:
        raise SchemaError(f"{db.target.shown!r} holds {component} of schema {version}; this tileref knows up to "
                          f"{latest}: use a newer tileref")
    if version == latest and recorded_version(db, component) == latest:
        return latest  # up to date: opening must not write
    with db.transaction():
        db.lock(f"tileref-migrate-{component}")
        db.execute(SCHEMA_VERSION_TABLE)
        version = current_version(db, component, detect)  # again, under the lock: another table may have run them
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        for step in steps:
            if step.version > version:
                _run(db, step.postgresql if db.engine == POSTGRESQL else step.sqlite)
            db.execute("INSERT INTO schema_version (component, version, name, applied_at) VALUES (?, ?, ?, ?) "
                       "ON CONFLICT (component, version) DO NOTHING", (component, step.version, step.name, now))
    return latest
