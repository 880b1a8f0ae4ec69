"""An honest record always verifies: two photos read alike (the empty table read twice, as after two
draws before anyone opens) each keep their reading, in one game and across games of one database,
on both engines; and a file written before readings were kept per photo verifies too."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from controller.cli import main
from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TableRead, TurnEnded, TurnJudged, TurnStarted
from controller.game.journal import GameJournal
from controller.records import Photo, Reading, Records, reading_sha
from controller.records.engine import POSTGRESQL, SQLITE
from controller.records.record_file import dumps, export_record, import_record, verify_record
from controller.records.schema.versions import SCHEMA_VERSION
from tests.photo_helpers import tiny_photo

PLAYERS = ("Ann", "Ben")
EMPTY_TABLE = {"tiles": [], "sets": [], "doubts": []}  # what the reader gives for an empty table, every time


@pytest.fixture(params=[SQLITE, POSTGRESQL])
def db_url(request, tmp_path):
    if request.param == SQLITE:
        return str(tmp_path / "club.sqlite")
    return request.getfixturevalue("postgres_url")


def photo_of(label: str) -> Photo:
    return tiny_photo(label)


def two_draws(records: Records, label: str) -> int:
    """A game whose first two turns are draws: the empty table photographed twice (two photos, one
    reading), each turn's read naming its own photo and the same reading."""
    journal = GameJournal.start(records, judging.game_created("classic", PLAYERS))
    journal.record(StartOrderDrawn((), "Ann", None))
    journal.record(Dealt(1))
    for turn, player in ((1, "Ann"), (2, "Ben")):
        start = photo_of(f"{label} turn {turn} start")
        end = photo_of(f"{label} turn {turn} end")
        reading = Reading(reading_sha(EMPTY_TABLE), end.sha256, EMPTY_TABLE, 12.0)
        journal.record(TurnStarted(turn, player, 60, start.sha256), photos=(start,))
        journal.record(TurnEnded(turn, "button", str(turn), 40))
        journal.record(TableRead("turn", end.sha256, reading.sha256, (), (), (), ()), photos=(end,),
                       readings=(reading,))
        journal.record(TurnJudged(turn, player, "draw", (), (), (), 1, 0, False, False, (), ()))
    return journal.game_id


def test_two_photos_read_alike_in_one_game_and_in_two_games_verify(db_url):
    with Records(db_url) as records:
        first = two_draws(records, "first")
        second = two_draws(records, "second")
        for game in (first, second):
            report = records.verify(game)
            assert report.ok, report.problem
        # each photo keeps the reading read from it
        rows = records.db.execute("SELECT photo FROM readings WHERE sha256=?", (reading_sha(EMPTY_TABLE),)).fetchall()
        assert len(rows) == 4
        document = export_record(records, second)
    assert len(document["readings"]) == 2 and verify_record(document).report.ok


def test_the_cli_readers_accept_the_game(tmp_path, capsys):
    db = tmp_path / "table.sqlite"
    with Records(db) as records:
        two_draws(records, "one")
        game = two_draws(records, "two")
    assert main(["verify", "--db", str(db)]) == 0, capsys.readouterr().out
    assert "2 game(s), all hold" in capsys.readouterr().out
    assert main(["replay", "--db", str(db), "--game", str(game), "--no-wait"]) == 0, capsys.readouterr()
    assert main(["audit", "--db", str(db), "--game", str(game), "--turn", "2", "--out", str(tmp_path / "a.html")]) == 0
    assert main(["export", "--db", str(db), "--game", str(game), "--out", str(tmp_path / "g.json")]) == 0
    assert main(["verify", "--record", str(tmp_path / "g.json")]) == 0
    assert main(["import", str(tmp_path / "g.json"), "--db", str(tmp_path / "club.sqlite")]) == 0
    from starlette.testclient import TestClient

    from controller.web.app import create_app

    client = TestClient(create_app(db))  # `tileref serve`
    assert client.get(f"/games/{game}/turns/2").status_code == 200


def old_shape(path: Path) -> None:
    """The file as tileref wrote it before readings were kept per photo: one row per reading
    (the first photo's), schema 3."""
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE old_readings (sha256 TEXT PRIMARY KEY, game_id INTEGER NOT NULL, photo TEXT,
                                   reading TEXT NOT NULL, elapsed_ms REAL);
        INSERT OR IGNORE INTO old_readings SELECT sha256, game_id, photo, reading, elapsed_ms FROM readings
            ORDER BY rowid;
        DROP TABLE readings;
        ALTER TABLE old_readings RENAME TO readings;
        DROP TABLE keyring; DROP TABLE key_acceptances;
        DELETE FROM schema_version WHERE version = 4;
        UPDATE meta SET value = '3' WHERE key = 'schema_version';
    """)
    db.commit()
    db.close()


def test_a_file_written_before_readings_per_photo_verifies_and_is_migrated(tmp_path, capsys):
    db = tmp_path / "old.sqlite"
    with Records(db) as records:
        first = two_draws(records, "one")
        second = two_draws(records, "two")
    old_shape(db)
    assert sqlite3.connect(db).execute("SELECT count(*) FROM readings").fetchone()[0] == 1
    assert main(["verify", "--db", str(db)]) == 0, capsys.readouterr().out  # read as it is
    assert main(["export", "--db", str(db), "--game", str(second), "--out", str(tmp_path / "g.json")]) == 0
    document = json.loads((tmp_path / "g.json").read_text())
    assert {r["photo"] for r in document["readings"]} == {e["payload"]["photo"] for e in document["events"]
                                                          if e["kind"] == "table-read"}
    with Records(db) as records:  # opened to write: brought to the current schema, rows kept, every game holds
        assert records.db.execute("SELECT max(version) FROM schema_version").fetchone()[0] == SCHEMA_VERSION
        assert all(records.verify(game).ok for game in (first, second))
        again = two_draws(records, "three")
        assert records.verify(again).ok


def test_an_old_record_file_with_one_row_for_two_photos_verifies(tmp_path):
    with Records(tmp_path / "t.sqlite") as records:
        game = two_draws(records, "one")
        document = export_record(records, game)
    first_photo = document["readings"][0]["photo"]
    document["readings"] = [r for r in document["readings"] if r["photo"] == first_photo]  # as old exports were
    assert verify_record(json.loads(dumps(document))).report.ok
    with Records(tmp_path / "club.sqlite") as club:
        imported, written = import_record(club, document)
        assert written and club.verify(imported).ok


def test_a_reading_moved_to_a_photo_no_event_reads_it_from_is_still_caught(tmp_path):
    with Records(tmp_path / "t.sqlite") as records:
        game = two_draws(records, "one")
        other = records.db.execute("SELECT sha256 FROM photos WHERE sha256 NOT IN (SELECT photo FROM readings) "
                                   "LIMIT 1").fetchone()[0]
        records.db.execute("DELETE FROM readings WHERE rowid > (SELECT min(rowid) FROM readings)")
        records.db.execute("UPDATE readings SET photo=?", (other,))
        report = records.verify(game)
    assert not report.ok and "says it was read from photo" in report.problem
