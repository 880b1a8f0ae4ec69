"""A child process's standard output read line by line on a thread, for tests that wait on what it says."""
from __future__ import annotations

import queue
import subprocess
import threading
import time
from typing import Callable, TypeVar

T = TypeVar("T")


class LineReader:
    """Lines of `process.stdout` as they come; `seen` keeps every line taken so far."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.process = process
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next_matching(self, test: Callable[[str], T], timeout: float) -> T | None:
        """The first truthy `test(line)` of the lines still to come, or None when the wait or the output ends."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            self.seen.append(line)
            if (found := test(line)):
                return found
        return None

    def stderr(self) -> str:
        if self.process.poll() is None:
            return "(still running)"
        return self.process.stderr.read()
