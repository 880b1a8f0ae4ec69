"""`play --camera FILE`: a photo that is no image, or a file no frame of which decodes, is refused at once
(exit 2, one line naming it, no FFmpeg chatter), before a game is recorded; it used to wait at seating."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["notaphoto.jpg", "notavideo.mp4"])
def test_a_camera_file_that_does_not_decode_is_refused_before_a_game_is_recorded(tmp_path, name):
    (tmp_path / name).write_text("this is not a photo\n")
    env = {**os.environ, "TILEREF_LOG_DIR": str(tmp_path / "logs"), "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--camera", name, "--timer", "emulator",
                               "--players", "Ann,Ben", "--db", "club.sqlite"], cwd=tmp_path, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"play --camera {name} hung")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip("\n").split("\n")
    assert len(lines) == 1 and name in lines[0], done.stderr
    assert "JPEG" not in done.stdout + done.stderr and "Traceback" not in done.stdout + done.stderr
    db = tmp_path / "club.sqlite"
    if db.exists():  # the records may be opened before the camera; no game is in them
        with sqlite3.connect(db) as records:
            assert records.execute("SELECT count(*) FROM games").fetchone()[0] == 0
