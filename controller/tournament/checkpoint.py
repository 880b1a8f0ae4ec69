"""The heads of the events' logs as this machine last saw them.

The signed head in the database shows a log cut short, unless whoever cut it also put back an older
head, signed when the log was shorter. So every machine that reads or writes an event keeps, outside
the database, the longest log it verified: its length and last hash, per database and event
(`tournament-heads.json` beside this user's table key, docs/trust.md). A log shorter than that, or
one whose entry at that place is another, is refused on this machine.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from controller.records.signing import default_key_path

from .errors import HistoryTamperedError

FILE_NAME = "tournament-heads.json"


@dataclass(frozen=True)
class SeenHead:
    entries: int
    digest: str
    at: str


def heads_path() -> Path:
    return default_key_path().parent / FILE_NAME


def _place(database: str) -> str:
    """A database as one machine names it: an SQLite file by its absolute path, a server by its URL."""
    if "://" in database and not database.startswith("sqlite:"):
        return database
    path = database.removeprefix("sqlite:///") if database.startswith("sqlite:") else database
    return str(Path(path.strip("'\"")).resolve())


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        raise HistoryTamperedError(f"the heads this machine saw, {str(path)!r}, cannot be read ({error}); "
                                   "a club keeps that file: put back its copy") from None
    return data if isinstance(data, dict) else {}


def compare_and_keep(database: str, event_name: str, digests: list[str], at: str) -> None:
    """Refuse a log that ends before, or differs from, the head this machine saw; then keep the
    longer one. `digests`: the hash of each entry, in order (verified)."""
    path = heads_path()
    heads = _read(path)
    key = f"{_place(database)}\t{event_name}"
    seen = heads.get(key)
    if isinstance(seen, dict):
        entries, digest = int(seen.get("entries", 0)), str(seen.get("digest", ""))
        where = f"event {event_name!r}"
        replaced = (f"; if the database was replaced on purpose (a backup put back, a new file), remove the "
                    f"event's line from {str(path)!r}")
        if entries > len(digests):
            raise HistoryTamperedError(
                f"{where}: the log ends at entry {len(digests)}, but this machine saw it at entry {entries} "
                f"(head {digest[:16]}, {seen.get('at', '?')}): entries were removed{replaced}")
        if entries and digests[entries - 1] != digest:
            raise HistoryTamperedError(
                f"{where}, log entry {entries}: it is not the entry this machine saw there (head {digest[:16]}, "
                f"{seen.get('at', '?')}): the log was rewritten{replaced}")
        if entries == len(digests):
            return
    if not digests:
        return
    heads[key] = {"entries": len(digests), "digest": digests[-1], "at": at}
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".heads-")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(heads, out, ensure_ascii=False, indent=1, sort_keys=True)
        os.replace(temporary, path)
    except OSError:
        pass  # a machine that cannot keep the file still checks against the database's signed head
