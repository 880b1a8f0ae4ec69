"""Records files: every command opens records and tournament databases one way, through
the storage interface; a damaged, foreign, read-only or misplaced file is one line (exit 2) naming
the file and what is wrong, never a traceback; reading a record never needs write access."""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from controller.cli import main
from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TurnEnded, TurnStarted
from controller.records import Records
from controller.tournament import TournamentStore
from controller.tournament.errors import StorageError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def record(tmp_path) -> Path:
    """A small signed record: one game, a turn, checkpointed into the main file (no -wal left)."""
    path = tmp_path / "games.sqlite"
    with Records(path) as records:
        game = records.start_game(judging.game_created("classic", ("Ann", "Ben")))
        for event in (StartOrderDrawn((("Ann", "K9"),), "Ann", None), Dealt(1), TurnStarted(1, "Ann", 60, None),
                      TurnEnded(1, "button", "1", 42)):
            records.append(game, event)
        records.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def one_line_exit_2(capsys, code, *needles):
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for needle in needles:
        assert needle in err, err
    return err


def scribble(path: Path) -> None:
    """Damage the file's pages past the header (as a bad disk or a stray write would)."""
    data = bytearray(path.read_bytes())
    page = 4096 if len(data) > 8192 else 1024
    for offset in range(page, len(data), 97):
        data[offset] = (data[offset] * 31 + 7) % 256
    path.write_bytes(bytes(data))


READERS = [
    ["replay", "--no-wait"],
    ["audit", "--turn", "1"],
    ["verify"],
    ["export"],
    ["correct", "--rack", "Ann", "--tiles", "R1"],
]


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_damaged_records_file_is_one_line_for_every_reader(record, tmp_path, capsys, command):
    scribble(record)
    code = main([*command, "--db", str(record)] + (["--out", str(tmp_path / "a.html")] if command[0] == "audit"
                                                    else []))
    err = capsys.readouterr().err
    assert code in (2, 3) and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert str(record) in err


def test_import_play_of_a_damaged_file_is_one_line(record, tmp_path, capsys):
    scribble(record)
    code = main(["tournament", "import-play", "Cup", "--game", "R1-T1-G1", "--play-db", str(record),
                 "--play-game", "1", "--db", str(tmp_path / "t.sqlite")])
    err = capsys.readouterr().err
    assert code in (2, 3) and "Traceback" not in err and str(record) in err, err


@pytest.mark.parametrize("command", READERS[:4], ids=lambda c: c[0])
def test_a_payload_stored_as_a_blob_is_reported_not_a_traceback(record, tmp_path, capsys, command):
    db = sqlite3.connect(record)
    db.execute("UPDATE events SET payload = CAST(payload AS BLOB) WHERE seq = 3")
    db.commit()
    db.close()
    code = main([*command, "--db", str(record)] + (["--out", str(tmp_path / "a.html")] if command[0] == "audit"
                                                    else []))
    captured = capsys.readouterr()
    text = captured.err + captured.out
    assert code == 3 and "Traceback" not in text
    assert "TAMPERED at event 3" in text and "stored as bytes, not as JSON text" in text


def test_a_records_file_of_another_program_is_refused_at_once(tmp_path, capsys):
    other = tmp_path / "places.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    db.commit()
    db.close()
    code = main(["play", "--camera", str(tmp_path), "--timer", "emulator", "--players", "Ann,Ben",
                 "--db", str(other)])
    one_line_exit_2(capsys, code, "another program's SQLite file", "moz_places", str(other))
    holder = sqlite3.connect(other, isolation_level=None)  # the other program, running: holding its lock
    holder.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        code = main(["play", "--camera", str(tmp_path), "--timer", "emulator", "--players", "Ann,Ben",
                     "--db", str(other)])
        one_line_exit_2(capsys, code, "locked by another program", str(other))
        assert time.monotonic() - started < 10  # not 60 s
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with pytest.raises(StorageError, match="another program's SQLite file"):
        TournamentStore(other)
    assert {r[0] for r in sqlite3.connect(other).execute("SELECT name FROM sqlite_master")} == {"moz_places"}


def test_play_on_a_damaged_file_is_one_line(record, tmp_path, capsys):
    scribble(record)
    code = main(["play", "--camera", str(frames(tmp_path)), "--timer", "emulator", "--players", "Ann,Ben",
                 "--db", str(record)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and str(record) in err, err


def frames(tmp_path: Path) -> Path:
    import cv2

    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0001.png"), np.full((120, 160, 3), 90, np.uint8))
    return folder


def test_resume_on_a_damaged_file_is_one_line(record, tmp_path, capsys):
    scribble(record)
    code = main(["play", "--camera", str(frames(tmp_path)), "--timer", "emulator", "--db", str(record), "--resume"])
    err = capsys.readouterr().err
    assert code in (2, 3) and "Traceback" not in err and str(record) in err, err


def test_a_game_saved_with_no_events_does_not_break_resume(record, tmp_path, capsys):
    with Records(record) as records:
        empty = records.new_game("classic", ("Cat", "Dan"))  # a game row, never started
        assert records.latest_game() == empty
    # resume picks the last game that was started; naming the empty one is one line
    code = main(["play", "--camera", str(frames(tmp_path)), "--timer", "emulator", "--db", str(record),
                 "--resume", "--game", str(empty)])
    one_line_exit_2(capsys, code, f"game {empty}", "holds no events")
    with Records(record) as records:
        assert records.latest_game(with_events=True) == 1


@pytest.mark.parametrize("where", ["folder", "missing-folder"])
def test_every_tournament_command_on_a_folder_is_one_line(tmp_path, capsys, where):
    db = tmp_path if where == "folder" else tmp_path / "nowhere" / "t.sqlite"
    players = tmp_path / "p.csv"
    players.write_text("name\nA\nB\nC\nD\nE\nF\nG\nH\n")
    for command in (["list"], ["create", "Cup", "--format", "kuwana", "--players", str(players)], ["show", "Cup"],
                    ["draw", "Cup"], ["standings", "Cup"], ["result", "Cup", "R1-T1-G1", "--score", "A=1"],
                    ["disqualify", "Cup", "--round", "1", "--table", "1", "--reason", "x"],
                    ["export", "Cup", "--csv", str(tmp_path / "x.csv")]):
        code = main(["tournament", *command, "--db", str(db)])
        one_line_exit_2(capsys, code, "folder")


def test_a_tournament_db_that_is_not_sqlite_is_one_line(tmp_path, capsys):
    text = tmp_path / "notes.txt"
    text.write_text("not a database, " * 500)
    one_line_exit_2(capsys, main(["tournament", "list", "--db", str(text)]), str(text), "not an SQLite file")
    one_line_exit_2(capsys, main(["replay", "--db", str(text), "--no-wait"]), str(text))


def test_an_unknown_db_kind_is_one_line(tmp_path, capsys):
    one_line_exit_2(capsys, main(["tournament", "list", "--db", "mysql://x/y"]), "unknown database kind")
    one_line_exit_2(capsys, main(["verify", "--db", "mysql://x/y"]), "unknown database kind")


# ---------------------------------------------------------------- read-only files and folders


def _read_only(path: Path, on: bool) -> None:
    """A file or folder nobody may write: as root (CI) permissions do not stop writes, the immutable
    attribute does (`chattr +i`); otherwise plain permissions."""
    if os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot make {path} read-only as root: {done.stderr.strip()}")
    else:
        os.chmod(path, (0o555 if path.is_dir() else 0o444) if on else (0o755 if path.is_dir() else 0o644))


@pytest.fixture
def read_only_record(record, tmp_path):
    if os.geteuid() == 0 and shutil.which("chattr") is None:
        pytest.skip("root without chattr: no way to make a file read-only")
    folder = tmp_path / "read-only"
    folder.mkdir()
    copy = folder / "games.sqlite"
    shutil.copy(record, copy)
    _read_only(copy, True)
    _read_only(folder, True)
    yield copy
    _read_only(folder, False)
    _read_only(copy, False)


def test_a_read_only_record_can_be_replayed_verified_audited_and_exported(read_only_record, tmp_path, capsys):
    folder = read_only_record.parent
    before = sorted(p.name for p in folder.iterdir())
    for args in (["replay", "--db", str(read_only_record), "--no-wait"], ["verify", "--db", str(read_only_record)],
                 ["audit", "--db", str(read_only_record), "--turn", "1", "--out", str(tmp_path / "a.html")],
                 ["export", "--db", str(read_only_record), "--out", str(tmp_path / "g.json")]):
        code = main(args)
        assert code == 0, (args, capsys.readouterr().err)
    assert sorted(p.name for p in folder.iterdir()) == before  # no -wal, no -shm: nothing written


def test_writing_to_a_read_only_file_or_folder_is_one_line(read_only_record, tmp_path, capsys):
    folder = read_only_record.parent
    code = main(["play", "--camera", str(tmp_path), "--timer", "emulator", "--players", "Ann,Ben",
                 "--db", str(folder / "new.sqlite")])
    one_line_exit_2(capsys, code, "read-only", str(folder))
    code = main(["correct", "--db", str(read_only_record), "--rack", "Ann", "--tiles", "R1"])
    one_line_exit_2(capsys, code, "read-only", str(read_only_record))


def test_a_read_only_record_is_served(read_only_record):
    folder = read_only_record.parent
    before = sorted(p.name for p in folder.iterdir())
    serve = subprocess.Popen([sys.executable, "-m", "controller.cli", "serve", "--db", str(read_only_record),
                              "--web", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=ROOT)
    try:
        line = serve.stdout.readline()  # the address, or nothing when it exits
        assert "serving the records" in line, (line, serve.poll() is not None and serve.stderr.read())
        url = line.split(" at ", 1)[1].split()[0].rstrip("/")
        import httpx

        assert httpx.get(f"{url}/", timeout=10).status_code == 200
        game = httpx.get(f"{url}/api/games/1", timeout=10)
        assert game.status_code == 200 and game.json()["chain"]["status"] == "intact", game.text[:300]
    finally:
        serve.kill()
        serve.wait(10)
    assert sorted(p.name for p in folder.iterdir()) == before


@pytest.fixture
def read_only_tournament(tmp_path, capsys):
    if os.geteuid() == 0 and shutil.which("chattr") is None:
        pytest.skip("root without chattr: no way to make a file read-only")
    players = tmp_path / "p.csv"
    players.write_text("name\nA\nB\nC\nD\nE\nF\nG\nH\n")
    folder = tmp_path / "read-only"
    folder.mkdir()
    db = folder / "cup.sqlite"
    assert main(["tournament", "create", "Cup", "--format", "kuwana", "--players", str(players), "--db", str(db)]) == 0
    assert main(["tournament", "draw", "Cup", "--seed", "3", "--db", str(db)]) == 0
    assert main(["tournament", "result", "Cup", "R1-T1-G1", "--score", "A=10", "--score", "B=-10",
                 "--score", "C=0", "--score", "D=0", "--winner", "A", "--db", str(db)]) in (0, 2)
    with TournamentStore(db) as store:
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    capsys.readouterr()
    _read_only(db, True)
    _read_only(folder, True)
    yield db
    _read_only(folder, False)
    _read_only(db, False)


def test_a_read_only_tournament_database_is_read_by_every_command_that_only_reads(read_only_tournament, tmp_path,
                                                                                   capsys):
    db = read_only_tournament
    before = sorted(p.name for p in db.parent.iterdir())
    for command in (["show", "Cup"], ["history", "Cup"], ["list"], ["standings", "Cup"],
                    ["export", "Cup", "--csv", str(tmp_path / "s.csv"), "--html", str(tmp_path / "s.html")],
                    ["show", "Cup", "--json"]):
        code = main(["tournament", *command, "--db", str(db)])
        assert code == 0, (command, capsys.readouterr().err)
    assert "Cup\tkuwana" in capsys.readouterr().out
    assert sorted(p.name for p in db.parent.iterdir()) == before  # nothing written beside it
    # a command that writes says so on one line
    one_line_exit_2(capsys, main(["tournament", "draw", "Cup", "--db", str(db)]), "read-only", str(db))
