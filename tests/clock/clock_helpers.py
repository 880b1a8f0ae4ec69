"""Runs `tileref clock` as its own process against the emulated box on a real pty."""
from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time

from controller.cli import main

FAST = 20.0  # box seconds per real second


def make_event(tmp_path, db, name, fmt, players, *settings, seed=1):
    csv = tmp_path / f"{name}.csv"
    csv.write_text("name\n" + "".join(f"{p}\n" for p in players), encoding="utf-8")
    extra = [a for s in settings for a in ("--set", s)]
    assert main(["tournament", "create", name, "--format", fmt, "--players", str(csv), "--db", str(db), *extra]) == 0
    assert main(["tournament", "draw", name, "--seed", str(seed), "--db", str(db), "--quiet"]) == 0


class ClockProcess:
    def __init__(self, *args: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "clock", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, prefix: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if line.startswith(prefix):
                return line
        raise AssertionError(f"no line starting {prefix!r}; saw {self.seen}; stderr {self.stderr_now()}")

    def stderr_now(self) -> str:
        if self.process.poll() is None:
            return "(still running)"
        return self.process.stderr.read()

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def finish(self, timeout: float = 10.0) -> tuple[int, str]:
        self.process.stdin.close()
        code = self.process.wait(timeout)
        return code, self.process.stderr.read()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
