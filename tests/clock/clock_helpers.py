"""Runs `tileref clock` as its own process against the emulated box on a real pty."""
from __future__ import annotations

import subprocess
import sys

from pathlib import Path

from controller.cli import main
from controller.records import Records
from controller.records.keyring import KeyRole
from controller.records.signing import default_table_key, load_table_key, new_key_pair
from process_lines import LineReader

FAST = 20.0  # box seconds per real second


def director_key_path(db) -> Path:
    """The director's key of the event made beside `db` (make_event): it signs the results the clock enters."""
    return Path(db).with_name("director.key")


def make_event(tmp_path, db, name, fmt, players, *settings, seed=1, trust_table=True):
    """An event drawn into `db`, its log signed by a director's key the database's keyring trusts
    (director_key_path). `trust_table`: the keyring trusts this table's key too (a clock game for an
    event is played only then)."""
    csv = tmp_path / f"{name}.csv"
    csv.write_text("name\n" + "".join(f"{p}\n" for p in players), encoding="utf-8")
    extra = [a for s in settings for a in ("--set", s)]
    assert main(["tournament", "create", name, "--format", fmt, "--players", str(csv), "--db", str(db), *extra]) == 0
    director = director_key_path(db)
    if not director.exists():
        new_key_pair(director)
    with Records(db) as records:
        ring = records.keyring()
        if ring.entry(load_table_key(director).public.fingerprint) is None:
            ring.trust(load_table_key(director).public, "director", KeyRole.DIRECTOR)
        if trust_table and ring.entry(default_table_key().public.fingerprint) is None:
            ring.trust(default_table_key().public, "table 1")
    assert main(["tournament", "draw", name, "--seed", str(seed), "--db", str(db), "--quiet",
                 "--director-key", str(director)]) == 0


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
