"""A process killed (SIGKILL) in the middle of a turn resumes the same game with nothing lost.

The demo game runs as a separate process; the test watches the records file and kills the
whole process group (the controller and its emulated timer box) the moment a given event is
written, i.e. mid-turn, then runs `tileref demo --resume`. Done three times: while the table
is being read (after the button press), while a penalty's restore is awaited, and while the
clock runs (the resumed process must restart the countdown and say so). The finished game
must be the golden game.
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from controller.game.events import TimerIncident
from controller.records import Records
from controller.records.reports.views import semantic_log

GOLDEN = Path(__file__).with_name("golden") / "demo-events.json"


def demo_process(out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "demo", "--out", str(out), "--quiet", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )


def kill_when(process: subprocess.Popen, db: Path, kind: str, turn: int, timeout: float = 120) -> list[tuple]:
    """SIGKILL the process group as soon as event `kind` of `turn` is in the records; the rows seen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stdout.read().decode()
        if db.exists():
            try:
                con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
                rows = con.execute("SELECT seq, kind, payload, hash FROM events ORDER BY seq").fetchall()
                con.close()
            except sqlite3.OperationalError:
                rows = []
            if any(k == kind and json.loads(p).get("turn") == turn for _, k, p, _ in rows):
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                return rows
        time.sleep(0.005)
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError(f"no {kind} for turn {turn} within {timeout} s")


def test_killed_mid_turn_three_times_the_game_resumes_and_ends_as_the_golden_game(tmp_path):
    out = tmp_path / "demo"
    db = out / "demo.sqlite"

    seen_first = kill_when(demo_process(out), db, "turn-ended", 3)
    seen_second = kill_when(demo_process(out, "--resume"), db, "turn-judged", 6)  # the penalty: restoring
    seen_third = kill_when(demo_process(out, "--resume"), db, "turn-started", 7)
    final = demo_process(out, "--resume")
    output = final.communicate(timeout=180)[0].decode()
    assert final.returncode == 0, output

    with Records(db, create=False) as records:
        assert records.games() and len(records.games()) == 1  # resumed, never a second game
        game = records.latest_game()
        assert records.verify(game).ok
        recorded = records.recorded(game)
        # nothing written before a kill was lost or changed
        for seen in (seen_first, seen_second, seen_third):
            for seq, kind, payload, digest in seen:
                assert recorded[seq - 1].hash == digest
        events = [r.event for r in recorded]
    restarts = [e for e in events if isinstance(e, TimerIncident) and e.incident == "restarted-after-resume"]
    assert len(restarts) == 1 and "turn 7" in restarts[0].detail
    assert semantic_log(events) == json.loads(GOLDEN.read_text())
