"""One storage interface, two engines: SQLite (a file, the default for one table) and PostgreSQL
(a club server, psycopg 3), chosen by `--db`.

`--db` is a plain path or `sqlite:///PATH` (SQLite), or `postgresql://...` / `postgres://...` (the
server). Both engines take the same SQL (`?` placeholders, `INSERT ... ON CONFLICT`, `RETURNING`);
the PostgreSQL engine turns `?` into `%s`. Every statement's rows are fetched at once, so a damaged
file or a lost server shows at the statement, as one of the records layer's errors naming the file
or server (`RecordsFileError` and its subclasses, `ServerUnavailableError`), never as a driver
traceback.
"""
from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Protocol
from urllib.parse import quote, unquote, urlsplit

from .errors import (
    DamagedFileError, DatabaseUrlError, ForeignFileError, ReadOnlyError, RecordsError, RecordsFileError,
    ServerError, ServerUnavailableError,
)

SQLITE = "sqlite"
POSTGRESQL = "postgresql"


@dataclass(frozen=True)
class DbTarget:
    engine: str  # SQLITE | POSTGRESQL
    location: str  # the file's path, or the server's connection URL
    shown: str  # what messages name: the path, or the URL without its password

    @property
    def is_server(self) -> bool:
        return self.engine == POSTGRESQL


def parse_db(text: str | os.PathLike) -> DbTarget:
    """`--db` as given: a path, `sqlite:///path`, or `postgresql://user@host:port/db`."""
    raw = os.fspath(text)
    if not isinstance(raw, str) or not raw.strip():
        raise DatabaseUrlError(f"--db {raw!r}: give a file path, sqlite:///PATH or postgresql://HOST/DB")
    lowered = raw.lower()
    if lowered.startswith(("postgresql://", "postgres://")):
        parts = urlsplit(raw)
        if not parts.hostname and "host=" not in (parts.query or ""):
            raise DatabaseUrlError(f"--db {raw!r}: a PostgreSQL URL needs a host, e.g. postgresql://club-server/tileref")
        shown = raw
        if parts.password:
            shown = raw.replace(":" + parts.password + "@", ":***@", 1)
        return DbTarget(POSTGRESQL, raw, shown)
    if lowered.startswith("sqlite:"):
        rest = raw[len("sqlite:"):]
        if not rest.startswith("///"):
            raise DatabaseUrlError(f"--db {raw!r}: an SQLite URL is sqlite:///relative/path or sqlite:////absolute/path")
        path = unquote(rest[3:])
        if not path:
            raise DatabaseUrlError(f"--db {raw!r}: names no file")
        return DbTarget(SQLITE, path, path)
    scheme = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*)://", raw)
    if scheme:
        scheme = scheme.group(1)
        raise DatabaseUrlError(f"--db {raw!r}: unknown database kind {scheme + '://'!r} "
                               "(a file path, sqlite:///PATH or postgresql://...)")
    return DbTarget(SQLITE, raw, raw)


class Rows(list):
    """A statement's rows, fetched at once (sqlite3's and psycopg's cursor interface, the part used)."""

    rowcount: int = -1

    def fetchone(self):
        return self[0] if self else None

    def fetchall(self):
        return list(self)


class Database(Protocol):
    """What the records and the tournament director need of an engine."""

    engine: str
    target: DbTarget
    read_only: bool

    def execute(self, sql: str, params: Iterable[Any] = ()) -> Rows: ...

    def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None: ...

    def transaction(self) -> contextlib.AbstractContextManager: ...

    def tables(self) -> set[str]: ...

    def columns(self, table: str) -> set[str]: ...

    def lock(self, name: str) -> None: ...

    def close(self) -> None: ...


# ------------------------------------------------------------------------------------- SQLite


def _describe_sqlite_error(error: sqlite3.Error) -> str:
    text = str(error)
    if "malformed" in text or "not a database" in text or "disk image" in text:
        return f"is damaged ({text})"
    return text


class SqliteDatabase:
    """An SQLite file (WAL, `synchronous=NORMAL`), or read-only (`mode=ro`: never written, not even
    its journal mode) for commands that only read."""

    engine = SQLITE

    CHECK_MAX_BYTES = 512 * 2**20  # `check`: files up to this size are checked page by page when opened

    def __init__(self, target: DbTarget, *, read_only: bool = False, create: bool = True, timeout: float = 30.0,
                 what: str = "records file", known_tables: frozenset[str] = frozenset(), check: bool = False) -> None:
        self.target = target
        self.read_only = read_only
        self.what = what
        self.path = Path(target.location)
        self._depth = 0
        shown = repr(str(self.path))
        if self.path.is_dir():
            raise RecordsFileError(f"{what} {shown} is a folder, not a file")
        if not self.path.exists():
            if read_only or not create:
                raise RecordsFileError(f"{what} {shown} does not exist")
            parent = self.path.parent
            if not parent.is_dir():
                raise RecordsFileError(f"{what} {shown}: folder {str(parent)!r} does not exist")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise ReadOnlyError(f"{what} {shown}: folder {str(parent)!r} is read-only, the file cannot be made")
        elif not read_only and not os.access(self.path, os.W_OK):
            raise ReadOnlyError(f"{what} {shown} is read-only (open it with a command that only reads)")
        try:
            if read_only:
                self.raw = self._connect_read_only(timeout)
            else:
                self.raw = sqlite3.connect(self.path, isolation_level=None, timeout=timeout,
                                           check_same_thread=False)
            if known_tables:
                self._refuse_foreign(known_tables)
            if check and self.path.exists() and self.path.stat().st_size <= self.CHECK_MAX_BYTES:
                self._quick_check()
            if not read_only:
                self.raw.execute("PRAGMA journal_mode=WAL")
                self.raw.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL survives a killed process
            self.raw.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as error:
            with contextlib.suppress(Exception):
                self.raw.close()
            raise self._error(error) from None

    def _connect_read_only(self, timeout: float) -> sqlite3.Connection:
        uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
        raw = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=timeout, check_same_thread=False)
        try:
            raw.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return raw
        except sqlite3.OperationalError as error:
            # a WAL file in a folder we cannot write: its shared-memory index cannot be made; nobody
            # can be writing it either, so read it as an immutable file
            raw.close()
            if "readonly" not in str(error) and "unable to open" not in str(error):
                raise
            return sqlite3.connect(f"file:{quote(str(self.path.resolve()))}?mode=ro&immutable=1", uri=True,
                                   isolation_level=None, timeout=timeout, check_same_thread=False)

    def _refuse_foreign(self, known: frozenset[str]) -> None:
        """An SQLite file that holds another program's tables is refused at once, before any write
        (and before waiting on that program's locks)."""
        self.raw.execute("PRAGMA busy_timeout=2000")
        try:
            names = {row[0] for row in self.raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            self.raw.execute("PRAGMA busy_timeout=30000")
        foreign = sorted(n for n in names - known if not n.startswith("sqlite_"))
        if foreign:
            listed = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
            raise ForeignFileError(f"{self.what} {str(self.path)!r} is another program's SQLite file "
                                   f"(tables {listed}); give a new file or a tileref records file")

    def _quick_check(self) -> None:
        """A table about to write for hours: a damaged file is refused now, not mid-game."""
        problems = [row[0] for row in self.raw.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise DamagedFileError(f"{self.what} {str(self.path)!r} is damaged (quick_check: "
                                   f"{'; '.join(problems)[:200]})")

    def _error(self, error: sqlite3.Error) -> RecordsError:
        shown = repr(str(self.path))
        text = str(error)
        if isinstance(error, sqlite3.OperationalError) and "readonly" in text:
            return ReadOnlyError(f"{self.what} {shown} is read-only ({text})")
        if isinstance(error, sqlite3.OperationalError) and "unable to open" in text:
            return RecordsFileError(f"{self.what} {shown} cannot be opened ({text})")
        if isinstance(error, sqlite3.OperationalError) and "locked" in text:
            return RecordsFileError(f"{self.what} {shown} is locked by another program ({text})")
        if isinstance(error, (sqlite3.DatabaseError,)) and ("malformed" in text or "not a database" in text):
            return DamagedFileError(f"{self.what} {shown} is damaged or not an SQLite file ({text})")
        return RecordsFileError(f"{self.what} {shown} is not a usable SQLite file: {text}")

    def execute(self, sql: str, params: Iterable[Any] = ()) -> Rows:
        try:
            cursor = self.raw.execute(sql, tuple(params))
            rows = Rows(cursor.fetchall())
        except sqlite3.Error as error:
            raise self._error(error) from None
        rows.rowcount = cursor.rowcount
        return rows

    def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        try:
            self.raw.executemany(sql, [tuple(r) for r in rows])
        except sqlite3.Error as error:
            raise self._error(error) from None

    def executescript(self, script: str) -> None:
        try:
            self.raw.executescript(script)
        except sqlite3.Error as error:
            raise self._error(error) from None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            with contextlib.suppress(RecordsError):
                self.execute("ROLLBACK")
            raise
        self._depth = 0
        self.execute("COMMIT")

    def tables(self) -> set[str]:
        return {row[0] for row in self.execute("SELECT name FROM sqlite_master WHERE type='table'")}

    def columns(self, table: str) -> set[str]:
        return {row[1] for row in self.execute(f"PRAGMA table_info({table})")}

    def lock(self, name: str) -> None:
        """Inside a transaction: BEGIN IMMEDIATE already holds the file's write lock."""

    def close(self) -> None:
        self.raw.close()


# --------------------------------------------------------------------------------- PostgreSQL


def _pg_sql(sql: str) -> str:
    return sql.replace("%", "%%").replace("?", "%s")


class PostgresDatabase:
    """A PostgreSQL database on a club server (psycopg 3, autocommit outside `transaction()`)."""

    engine = POSTGRESQL

    def __init__(self, target: DbTarget, *, read_only: bool = False, connect_timeout: int = 5,
                 what: str = "records database") -> None:
        self.target = target
        self.read_only = read_only
        self.what = what
        self.connect_timeout = connect_timeout
        self._tx = None
        self._mutex = threading.RLock()
        self.raw = None
        self.connect()

    def connect(self) -> None:
        import psycopg

        if self.raw is not None:
            with contextlib.suppress(Exception):
                self.raw.close()
            self.raw = None
        try:
            self.raw = psycopg.connect(self.target.location, autocommit=True, connect_timeout=self.connect_timeout,
                                       application_name="tileref")
            if self.read_only:
                self.raw.execute("SET default_transaction_read_only = on")
        except psycopg.OperationalError as error:
            raise ServerUnavailableError(f"{self.what} {self.target.shown!r}: cannot reach the server "
                                         f"({_first_line(error)})") from None
        except psycopg.Error as error:
            raise ServerError(f"{self.what} {self.target.shown!r}: {_first_line(error)}") from None
        except (ValueError, TypeError) as error:  # a URL psycopg cannot parse
            raise DatabaseUrlError(f"--db {self.target.shown!r}: {error}") from None

    @property
    def connected(self) -> bool:
        return self.raw is not None and not self.raw.closed and not self.raw.broken

    def _error(self, error) -> RecordsError:
        import psycopg

        if isinstance(error, psycopg.OperationalError) or not self.connected:
            return ServerUnavailableError(f"{self.what} {self.target.shown!r}: lost the server "
                                          f"({_first_line(error)})")
        if isinstance(error, psycopg.errors.ReadOnlySqlTransaction):
            return ReadOnlyError(f"{self.what} {self.target.shown!r} was opened read-only ({_first_line(error)})")
        return ServerError(f"{self.what} {self.target.shown!r}: {_first_line(error)}")

    def execute(self, sql: str, params: Iterable[Any] = ()) -> Rows:
        import psycopg

        if self.raw is None:
            raise ServerUnavailableError(f"{self.what} {self.target.shown!r}: not connected to the server")
        with self._mutex:
            try:
                cursor = self.raw.execute(_pg_sql(sql), tuple(params) or None)
                rows = Rows(cursor.fetchall() if cursor.description is not None else ())
            except psycopg.Error as error:
                raise self._error(error) from None
        rows.rowcount = cursor.rowcount
        return rows

    def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        import psycopg

        rows = [tuple(r) for r in rows]
        if not rows:
            return
        with self._mutex:
            try:
                with self.raw.cursor() as cursor:
                    cursor.executemany(_pg_sql(sql), rows)
            except psycopg.Error as error:
                raise self._error(error) from None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        import psycopg

        if self.raw is None:
            raise ServerUnavailableError(f"{self.what} {self.target.shown!r}: not connected to the server")
        with self._mutex:
            if self._tx is not None:
                yield
                return
            try:
                tx = self.raw.transaction()
                tx.__enter__()
            except psycopg.Error as error:
                raise self._error(error) from None
            self._tx = tx
            try:
                yield
            except BaseException as error:
                self._tx = None
                with contextlib.suppress(Exception):
                    tx.__exit__(type(error), error, error.__traceback__)
                raise
            self._tx = None
            try:
                tx.__exit__(None, None, None)
            except psycopg.Error as error:
                raise self._error(error) from None

    def tables(self) -> set[str]:
        return {row[0] for row in self.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}

    def columns(self, table: str) -> set[str]:
        return {row[0] for row in self.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ?", (table,))}

    def lock(self, name: str) -> None:
        """Inside a transaction: one writer at a time for `name` (migrations), until the commit."""
        self.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (name,))

    def close(self) -> None:
        if self.raw is not None:
            with contextlib.suppress(Exception):
                self.raw.close()


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def open_database(db: str | os.PathLike | DbTarget, *, read_only: bool = False, create: bool = True,
                  what: str = "records file", known_tables: frozenset[str] = frozenset(),
                  check: bool = False) -> Database:
    """The one way every command opens a records or tournament database."""
    target = db if isinstance(db, DbTarget) else parse_db(db)
    if target.is_server:
        return PostgresDatabase(target, read_only=read_only,
                                what=what.replace("file", "database"))
    return SqliteDatabase(target, read_only=read_only, create=create, what=what, known_tables=known_tables,
                          check=check)
