"""Helpers of the referee desk's tests: a runner attending the desk in its own thread."""
from __future__ import annotations

import contextlib
import io
import threading

from controller.adapters.display import ConsoleDisplay
from controller.records import Records
from controller.table import TableDevices, TableRunner


class StillTimer:
    """A timer box that never says anything."""

    def wait(self, timeout):
        return None


@contextlib.contextmanager
def attended(db, game, desk, reader=None):
    """A runner attending the referee desk in its own thread (its records connection is its own),
    reading with `reader`."""
    stop, ready, failures = threading.Event(), threading.Event(), []

    def attend():
        try:
            with Records(db) as records:
                devices = TableDevices(None, StillTimer(), reader, ConsoleDisplay(out=io.StringIO()), None, desk=desk)
                runner = TableRunner(records, game, devices)
                ready.set()
                while not stop.is_set():
                    runner.desk.attend(0.05)
        except BaseException as error:  # reported by the test
            failures.append(error)
            ready.set()

    thread = threading.Thread(target=attend, daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield
    finally:
        stop.set()
        thread.join(10)
        assert not failures, failures
