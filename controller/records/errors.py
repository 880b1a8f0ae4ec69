"""Errors of the records layer. Every message quotes the offending value."""
from __future__ import annotations

from pathlib import Path


class RecordsError(Exception):
    """Base of every error the records raise."""


class RecordsFileError(RecordsError, ValueError):
    """A records file that is missing or not a usable SQLite database."""


class NoRecordsYetError(RecordsFileError):
    """A database that holds no tables' records yet (a tournament's alone, or a new club database)."""


class GameNotFoundError(RecordsError, LookupError):
    """A game id (or turn) the records file does not hold."""


class KeyFileError(RecordsError, ValueError):
    """A key file that is missing, unreadable, not Ed25519, or would be overwritten."""


class KeyMismatchError(RecordsError, ValueError):
    """Writing to a signed game with a key other than the one it records (bad input, not tampering)."""


class TamperedError(RecordsError):
    """A game whose records do not hold: the chain, a signature, a photo or reading it rests on, or a
    table derived from its events. Every reader raises it the same way; the command line exits 3
    (`exit_code`), never 2: tampering is not bad input.

    `seq` and `kind` name the event the problem shows at (None when no event names it, e.g. a
    stored photo no event refers to)."""

    exit_code = 3

    def __init__(self, path: str | Path, game_id: int, seq: int | None, kind: str | None, detail: str) -> None:
        self.path = str(path)
        self.game_id = game_id
        self.seq = seq
        self.kind = kind
        self.detail = detail
        where = "" if seq is None else f" at event {seq}" + (f" ({kind})" if kind else "")
        super().__init__(f"game {game_id} in {self.path!r} TAMPERED{where}: {detail}")


class ChainBrokenError(TamperedError):
    """An event edited, removed, reordered or unreadable, or a head that is not the last event's."""


class SignatureError(TamperedError):
    """An event or head not signed by the game's key: edited and re-hashed, truncated, forged, or
    signed by a key other than the one given with `--key`."""


class EvidenceError(TamperedError):
    """A photo or reading an event rests on is missing or does not hash to what the event says."""


class ProjectionError(TamperedError):
    """A table kept beside the events (verdicts, players) that says something the events do not."""


class DatabaseUrlError(RecordsFileError):
    """A `--db` that is neither a path, `sqlite:///PATH` nor `postgresql://...`."""


class DamagedFileError(RecordsFileError):
    """An SQLite file whose pages are damaged, or a file that is not SQLite at all."""


class ForeignFileError(RecordsFileError):
    """An SQLite file that holds another program's tables: refused before anything is written."""


class ReadOnlyError(RecordsFileError):
    """A file or folder that cannot be written, for a command that writes."""


class SchemaError(RecordsFileError):
    """A database of a newer schema than this tileref knows, or one holding no tileref records."""


class ServerError(RecordsError):
    """The PostgreSQL server refused a statement (not a lost connection)."""


class ServerUnavailableError(ServerError):
    """The PostgreSQL server cannot be reached, or the connection was lost."""


class SpoolError(RecordsError):
    """The local spool of a table that lost the server cannot be read, written or delivered."""


class DeliveryConflictError(SpoolError):
    """A spooled event that the server holds differently: its game's chain went on without it."""


class RecordFormatError(RecordsError, ValueError):
    """An open game record (JSON) that is not one: bad JSON, another format or version, a field missing."""


class ImportConflictError(RecordsError, ValueError):
    """Importing a game record into a database that holds another game in its place."""
