"""Inputs that used to end as a bug (exit 1) or as a success (exit 0), each now exits as the README
says: 2 with one line naming the input and what is wrong, 3 for tampering; and no error line carries
a control byte of a damaged file to the terminal.

Each case runs the command in-process (`controller.cli.main`) on real files."""
from __future__ import annotations

import json
import re
import sqlite3
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller import cli
from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TableRead, TurnEnded, TurnStarted
from controller.game.journal import GameJournal
from controller.records import Reading, Records, reading_sha
from controller.records.signing import new_key_pair
from tests.photo_helpers import tiny_photo

ROOT = Path(__file__).resolve().parents[2]
NOT_WRITABLE = "/sys/tileref-exit-codes"  # refused to every user, root included
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]")
EMPTY = {"tiles": [], "sets": [], "doubts": []}


def run(capsys, monkeypatch, tmp_path, *argv) -> tuple[int, str, str]:
    monkeypatch.setenv("TILEREF_LOG_DIR", str(tmp_path / "logs"))
    capsys.readouterr()
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def one_line(code: int, err: str, expected: int, *needles: str) -> str:
    assert code == expected, f"exit {code}, stderr {err!r}"
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0], f"stderr is not one line: {err!r}"
    assert "internal error" not in err and "Traceback" not in err, err
    assert not CONTROL.search(lines[0]), f"a control character in {lines[0]!r}"
    for needle in needles:
        assert needle in lines[0], f"{needle!r} not named in {lines[0]!r}"
    return lines[0]


@pytest.fixture
def cup(tmp_path) -> Path:
    players = tmp_path / "players.csv"
    players.write_text("name\n" + "".join(f"P{i}\n" for i in range(8)), encoding="utf-8")
    db = tmp_path / "cup.sqlite"
    assert cli.main(["tournament", "create", "Cup", "--format", "kuwana", "--players", str(players),
                     "--db", str(db)]) == 0
    return db


@pytest.mark.parametrize("option, where, named", [
    ("--csv", "nodir/s.csv", "nodir"),
    ("--html", ".", "is a folder"),
    ("--csv", f"{NOT_WRITABLE}/s.csv", NOT_WRITABLE),
], ids=["csv-in-a-missing-folder", "html-on-a-folder", "csv-where-nothing-may-be-written"])
def test_an_export_that_cannot_be_written_is_one_line(cup, tmp_path, capsys, monkeypatch, option, where, named):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, monkeypatch, tmp_path, "tournament", "export", "Cup", option, where, "--db", cup)
    one_line(code, err, 2, option, named)


def test_a_scribbled_tournament_database_is_not_listed_as_none(cup, tmp_path, capsys, monkeypatch):
    """Rows a damaged file gives back without a name (the record header's bytes scribbled over): the
    database is said to be damaged, never listed as "None None"."""
    with sqlite3.connect(cup) as db:
        db.execute("PRAGMA writable_schema=ON")
        (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE name='tournament_events'").fetchone()
        loose = re.sub(r"\bNOT NULL\b", "", sql)
        db.execute("UPDATE sqlite_master SET sql=? WHERE name='tournament_events'", (loose,))
    with sqlite3.connect(cup) as db:
        db.execute("UPDATE tournament_events SET name=NULL, format=NULL")
    code, out, err = run(capsys, monkeypatch, tmp_path, "tournament", "list", "--db", cup)
    assert "None" not in out
    one_line(code, err, 2, str(cup), "damaged")


def test_a_tournament_database_with_damaged_pages_is_one_line_for_a_reader(cup, tmp_path, capsys, monkeypatch):
    data = bytearray(cup.read_bytes())
    for offset in range(4096 + 52, len(data), 97):
        data[offset] = (data[offset] * 31 + 7) % 256
    cup.write_bytes(bytes(data))
    for command in (["list"], ["show", "Cup"], ["history", "Cup"], ["standings", "Cup"]):
        code, out, err = run(capsys, monkeypatch, tmp_path, "tournament", *command, "--db", cup)
        assert "None" not in out
        one_line(code, err, 2, str(cup))


def test_a_jpeg_cut_short_with_its_end_marker_put_back_is_refused(tmp_path, capsys, monkeypatch):
    whole = (ROOT / "tests" / "vision" / "data" / "melds.jpg").read_bytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(whole[: len(whole) // 2] + b"\xff\xd9")  # the end-of-image marker after half the scan
    code, out, err = run(capsys, monkeypatch, tmp_path, "read", cut)
    one_line(code, err, 2, "cut.jpg", "truncated JPEG")
    assert not out
    code, _, err = run(capsys, monkeypatch, tmp_path, "read", ROOT / "tests" / "vision" / "data" / "melds.jpg")
    assert code == 0, err  # the whole photo reads as ever


def test_a_whole_jpeg_with_a_thumbnail_reads(tmp_path, capsys, monkeypatch):
    """A camera's JPEG holds its thumbnail's end marker well before its own: it is whole, and read."""
    image = cv2.imread(str(ROOT / "tests" / "vision" / "data" / "melds.jpg"))
    main_jpeg = cv2.imencode(".jpg", image)[1].tobytes()
    thumbnail = cv2.imencode(".jpg", cv2.resize(image, (160, 90)))[1].tobytes()
    exif = b"Exif\x00\x00" + thumbnail
    photo = tmp_path / "camera.jpg"
    photo.write_bytes(main_jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + main_jpeg[2:])
    code, _, err = run(capsys, monkeypatch, tmp_path, "read", photo)
    assert code == 0, err


def played_record(tmp_path: Path) -> Path:
    """A signed game with one photo, exported as a record file."""
    db = tmp_path / "table.sqlite"
    key = new_key_pair(tmp_path / "keys" / "table.key")
    with Records(db, key=key) as records:
        journal = GameJournal.start(records, judging.game_created("classic", ("Ann", "Ben")))
        journal.record(StartOrderDrawn((), "Ann", None))
        journal.record(Dealt(1))
        photo = tiny_photo("turn 1")
        reading = Reading(reading_sha(EMPTY), photo.sha256, EMPTY, 5.0)
        journal.record(TurnStarted(1, "Ann", 60, None))
        journal.record(TurnEnded(1, "button", "1", 40))
        journal.record(TableRead("turn", photo.sha256, reading.sha256, (), (), (), ()), photos=(photo,),
                       readings=(reading,))
    record = tmp_path / "game.json"
    assert cli.main(["export", "--db", str(db), "--out", str(record)]) == 0
    return record


@pytest.mark.parametrize("field", ["width", "height"])
def test_a_record_whose_photo_claims_2_to_the_62_pixels_is_refused(tmp_path, capsys, monkeypatch, field):
    record = played_record(tmp_path)
    code, _, err = run(capsys, monkeypatch, tmp_path, "verify", "--record", record)
    assert code == 0, err
    document = json.loads(record.read_text(encoding="utf-8"))
    document["photos"][0][field] = 2 ** 62
    record.write_text(json.dumps(document), encoding="utf-8")
    code, _, err = run(capsys, monkeypatch, tmp_path, "verify", "--record", record)
    one_line(code, err, 2, "game.json", f"photos[0].{field}", str(2 ** 62))
    code, _, err = run(capsys, monkeypatch, tmp_path, "import", record, "--db", tmp_path / "club.sqlite")
    one_line(code, err, 2, "game.json", str(2 ** 62))


def test_a_keyring_key_swapped_under_its_fingerprint_is_tampering(tmp_path, capsys, monkeypatch):
    table = new_key_pair(tmp_path / "keys" / "table.key")
    forger = new_key_pair(tmp_path / "keys" / "forger.key")
    db = tmp_path / "club.sqlite"
    with Records(db, key=table) as records:
        GameJournal.start(records, judging.game_created("classic", ("Ann", "Ben")))
    assert cli.main(["key", "trust", f"{table.path}.pub", "--name", "table 1", "--db", str(db)]) == 0
    code, _, err = run(capsys, monkeypatch, tmp_path, "verify", "--db", db)
    assert code == 0, err
    with sqlite3.connect(db) as edit:  # the forger's key, filed under the table key's fingerprint
        edit.execute("UPDATE keyring SET public_key=? WHERE fingerprint=?",
                     (forger.public.text, table.public.fingerprint))
    for argv in (["verify", "--db", db], ["key", "list", "--db", db]):
        code, _, err = run(capsys, monkeypatch, tmp_path, *argv)
        one_line(code, err, 3, str(db), table.public.fingerprint, "TAMPERED")


def test_an_error_line_never_carries_a_damaged_files_control_bytes(tmp_path, capsys, monkeypatch):
    """The bytes of a scribbled row (a terminal's escape, a C1 control, invalid UTF-8) that SQLite
    quotes in its error are written as escapes."""
    db = tmp_path / "table.sqlite"
    with Records(db) as records:
        game = records.start_game(judging.game_created("classic", ("Ann", "Ben")))
        records.append(game, StartOrderDrawn((), "Ann", None))
    with sqlite3.connect(db) as edit:
        edit.execute("UPDATE events SET payload=CAST(? AS TEXT) WHERE seq=1",
                     (b'{"k":"\x1b[2J\x1b]0;owned\x07\xc2\x9b\xff"}',))
    for argv in (["verify", "--db", db], ["replay", "--db", db, "--no-wait"]):
        code, _, err = run(capsys, monkeypatch, tmp_path, *argv)
        assert code in (2, 3), err
        line = one_line(code, err, code, str(db))
        assert "\\x1b" in line, line


def test_one_line_escapes_every_control_character():
    line = cli.one_line("a\x1b[31mred\x00 \x9b \u202e tail\nnext\r\nlast\tend")
    assert line == "a\\x1b[31mred\\x00 \\x9b \\u202e tail next last end"
    assert cli.one_line("Łukasz 漢字 é") == "Łukasz 漢字 é"
