"""Runs `tileref clock` as its own process against the emulated box on a real pty."""
from __future__ import annotations

import subprocess
import sys

from controller.cli import main
from process_lines import LineReader

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
        self.reader = LineReader(self.process)
        self.seen = self.reader.seen

    def expect(self, prefix: str, timeout: float = 10.0) -> str:
        found = self.reader.next_matching(lambda line: line if line.startswith(prefix) else None, timeout)
        if found is None:
            raise AssertionError(f"no line starting {prefix!r}; saw {self.seen}; stderr {self.stderr_now()}")
        return found

    def stderr_now(self) -> str:
        return self.reader.stderr()

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
