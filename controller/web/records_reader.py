"""Read access to the records file for the web pages: a fresh connection per request, each read in
one snapshot (a live game writes meanwhile), and the verification of a game kept while its head
does not move."""
from __future__ import annotations

import contextlib
import threading
from pathlib import Path

from controller.records import Records
from controller.records.verification.report import ChainReport


class RecordsReader:
    def __init__(self, db: str | Path, key=None) -> None:
        self.db = db
        self.key = key
        self._verified: dict[tuple[int, str], ChainReport] = {}
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def open(self):
        records = Records(self.db, create=False, read_only=True)
        snapshot = getattr(records.db, "engine", None) == "sqlite"
        try:
            if snapshot:
                records.db.execute("BEGIN")  # one snapshot for everything this request reads
            yield records
        finally:
            if snapshot:
                with contextlib.suppress(Exception):
                    records.db.execute("COMMIT")
            records.close()

    def report(self, records: Records, game_id: int) -> ChainReport:
        _, head = records.head(game_id)
        with self._lock:
            known = self._verified.get((game_id, head))
        if known is not None:
            return known
        report = records.require_intact(game_id, self.key)
        with self._lock:
            self._verified[(game_id, head)] = report
        return report
