"""The open game record (docs/record-format.md): export, import, verification from the file
alone; the tournament director taking results straight from the club database; the club board."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from controller.cli import main
from controller.records import Records
from controller.records.record_file import FORMAT, VERSION

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture(scope="module")
def demo_record(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("record-demo")
    assert main(["demo", "--out", str(out), "--quiet"]) == 0
    return out / "demo.sqlite"


@pytest.fixture(scope="module")
def exported(demo_record, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("record-export") / "game.json"
    assert main(["export", "--db", str(demo_record), "--game", "1", "--out", str(out)]) == 0
    return out


def test_export_import_export_is_byte_identical(exported, tmp_path, capsys):
    db = tmp_path / "imported.sqlite"
    assert main(["import", str(exported), "--db", str(db)]) == 0
    assert "imported: intact, signed by table key" in capsys.readouterr().out
    capsys.readouterr()
    assert main(["export", "--db", str(db), "--game", "1"]) == 0  # to standard output
    again = capsys.readouterr().out
    assert again.encode("utf-8") == exported.read_bytes()
    assert main(["import", str(exported), "--db", str(db)]) == 0  # a second time: nothing written
    assert "already there (nothing written)" in capsys.readouterr().out
    with Records(db, create=False, read_only=True) as records:
        assert records.game_ids() == [1]


def test_the_record_holds_what_a_reader_needs(exported):
    doc = json.loads(exported.read_text())
    assert doc["format"] == FORMAT and doc["version"] == VERSION
    assert doc["players"] == ["Ann", "Ben", "Cat", "Dan"] and doc["rules"]["name"] == "classic"
    assert doc["head"]["events"] == len(doc["events"]) and doc["head"]["hash"] == doc["events"][-1]["hash"]
    assert doc["table_key"]["id"] == doc["events"][0]["payload"]["key_id"]
    penalty = next(t for t in doc["turns"] if any(v["outcome"] == "penalty" for v in t["verdicts"]))
    assert penalty["table_before"] and penalty["photos"] and penalty["clock"]["seconds"] > 0
    assert doc["result"]["winner"] == "Cat"
    # canonical: sorted keys, no spaces, one final newline
    text = exported.read_text()
    assert text.endswith("}\n") and ", " not in text[:200] and text == json.dumps(
        doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def test_the_record_verifies_from_the_file_alone(exported, capsys):
    assert main(["verify", "--record", str(exported)]) == 0
    assert "intact, signed by table key" in capsys.readouterr().out


@pytest.fixture(scope="module")
def two_demos(demo_record, tmp_path_factory) -> Path:
    # the second demo in the same folder photographs the same scenes: its readings rest on photos
    # (and its fused readings on readings) first stored with game 1
    folder = tmp_path_factory.mktemp("two-demos") / "demo"
    shutil.copytree(demo_record.parent, folder)
    assert main(["demo", "--out", str(folder), "--quiet"]) == 0
    return folder / "demo.sqlite"


@pytest.mark.parametrize("which", [["--game", "2"], []], ids=["game-2", "last-game"])
def test_a_game_sharing_photos_with_an_earlier_game_exports_whole(two_demos, tmp_path, capsys, which):
    with Records(two_demos, create=False, read_only=True) as records:
        assert records.game_ids() == [1, 2]
        owned_by_game_2 = records.db.execute("SELECT count(*) FROM photos WHERE game_id = 2").fetchone()[0]
    out = tmp_path / "g2.json"
    assert main(["export", "--db", str(two_demos), *which, "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["game"]["id"] == 2
    carried = {p["sha256"] for p in doc["photos"]}
    named = {r["photo"] for r in doc["readings"] if r["photo"]} | {
        e["payload"]["photo"] for e in doc["events"] if e["payload"].get("photo")}
    assert named <= carried and len(carried) > owned_by_game_2
    assert main(["verify", "--record", str(out)]) == 0
    assert main(["import", str(out), "--db", str(tmp_path / "i.sqlite")]) == 0
    assert "imported: intact" in capsys.readouterr().out


def edited(exported: Path, tmp_path: Path, change) -> Path:
    doc = json.loads(exported.read_text())
    change(doc)
    out = tmp_path / "edited.json"
    out.write_text(json.dumps(doc))
    return out


def test_an_edited_turn_fails_naming_the_turn(exported, tmp_path, capsys):
    def verdict_made_legal(doc):
        turn = next(t for t in doc["turns"] if t["turn"] == 6)
        turn["verdicts"][0]["outcome"] = "legal"

    path = edited(exported, tmp_path, verdict_made_legal)
    assert main(["verify", "--record", str(path)]) == 3
    assert "TAMPERED at turn 6: the record's turn 6 is not what the events say" in capsys.readouterr().err
    db = tmp_path / "x.sqlite"
    assert main(["import", str(path), "--db", str(db)]) == 3
    assert "TAMPERED at turn 6" in capsys.readouterr().err and not db.exists()


def test_an_edited_event_fails_naming_its_turn_and_event(exported, tmp_path, capsys):
    def event_made_legal(doc):
        event = next(e for e in doc["events"] if e["kind"] == "turn-judged" and e["payload"]["turn"] == 6)
        event["payload"]["outcome"] = "legal"

    path = edited(exported, tmp_path, event_made_legal)
    assert main(["verify", "--record", str(path)]) == 3
    err = capsys.readouterr().err
    assert "TAMPERED at turn 6, event 27 (turn-judged): does not hash to its recorded hash" in err


def test_a_swapped_photo_in_the_record_fails(exported, tmp_path, capsys):
    def swap(doc):  # another photo's bytes (an image still): only its hash tells
        doc["photos"][0]["data"] = doc["photos"][1]["data"]

    assert main(["verify", "--record", str(edited(exported, tmp_path, swap))]) == 3
    assert "holds other bytes" in capsys.readouterr().err or "does not hash to its name" in capsys.readouterr().err


@pytest.mark.parametrize("text,message", [
    ("not json", "is not JSON"),
    ('{"format": "pgn"}', "is not a tileref-game-record document"),
    ('{"format": "tileref-game-record", "version": 99}', "is of version 99"),
    ('{"format": "tileref-game-record", "version": 1, "game": {}}', "'head' is missing"),
])
def test_a_file_that_is_no_record_is_bad_input(tmp_path, capsys, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert main(["verify", "--record", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_import_into_postgresql_and_export_back_identical(exported, postgres_url, capsys):
    assert main(["import", str(exported), "--db", postgres_url]) == 0
    capsys.readouterr()
    assert main(["export", "--db", postgres_url, "--game", "1"]) == 0
    assert capsys.readouterr().out.encode("utf-8") == exported.read_bytes()
    assert main(["verify", "--db", postgres_url]) == 0


# ----------------------------------------------------------- tournament director, club board


def kuwana_event(db: str, tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text("name\n" + "".join(f"{p}\n" for p in PLAYERS), encoding="utf-8")
    assert main(["tournament", "create", "Cup", "--format", "kuwana", "--players", str(players), "--db", db]) == 0
    assert main(["tournament", "draw", "Cup", "--seed", "6", "--db", db]) == 0  # R1 T2 seats the demo's four


def test_the_director_takes_a_played_game_straight_from_the_database(postgres_url, tmp_path, capsys):
    from argparse import Namespace

    from controller.game.events import GameScored
    from controller.game.judging import game_created
    from controller.tournament.table_seats import tournament_seats
    from controller.tournament import TournamentStore

    from controller.records.signing import default_table_key, new_key_pair, public_path

    kuwana_event(postgres_url, tmp_path)
    # the club trusts its table's key: only then does a played game count (docs/trust.md); and the
    # director's (this user's key signed the draw)
    table = new_key_pair(tmp_path / "table1.key")
    assert main(["key", "trust", str(public_path(table.path)), "--name", "table 1", "--db", postgres_url]) == 0
    assert main(["key", "trust", str(public_path(default_table_key().path)), "--name", "director", "--role",
                 "director", "--db", postgres_url]) == 0
    # what `tileref play --db URL --event Cup --stage 1 --table 1` does: the draw names the players
    link = tournament_seats(Namespace(db=postgres_url, event="Cup", stage=1, table=1, game_number=1, players=None))
    assert link.game == "R1-T1-G1" and len(link.seats) == 4
    seats = link.seats
    with Records(postgres_url, key=table) as records:
        game = records.start_game(game_created("japan-2017", seats), event=link.event, tournament_game=link.game,
                                  table_name="table 1")
        with TournamentStore(postgres_url) as store:
            assert "R1-T1-G1" not in store.load("Cup").results  # still being played
        for scores in ({seats[0]: 100, seats[1]: -10, seats[2]: -20, seats[3]: -30},
                       {seats[0]: 100, seats[1]: -12, seats[2]: -20, seats[3]: -30}):  # a referee's correction
            records.append(game, GameScored("empty-rack", seats[0], tuple(scores.items()), None))
    with TournamentStore(postgres_url) as store:
        result = store.load("Cup").results["R1-T1-G1"]
        assert result.winner == seats[0] and dict(result.scores)[seats[1]] == -12
        assert store.sources("Cup")["R1-T1-G1"] == f"tileref play, records game {game}"
    capsys.readouterr()
    assert main(["tournament", "standings", "Cup", "--db", postgres_url]) == 0
    assert seats[0] in capsys.readouterr().out
    # a hand result for the same game is a second result; the game cannot be drawn twice either
    scores = [f"{seats[0]}=100", f"{seats[1]}=-12", f"{seats[2]}=-20", f"{seats[3]}=-30"]
    assert main(["tournament", "result", "Cup", "R1-T1-G1", *[x for s in scores for x in ("--score", s)],
                 "--winner", seats[0], "--db", postgres_url]) == 2
    assert "already" in capsys.readouterr().err


def test_the_club_board_lists_every_table_live(exported, tmp_path):
    from starlette.testclient import TestClient

    from controller.game import judging
    from controller.game.events import Dealt, StartOrderDrawn, TurnStarted
    from controller.game.machine import State
    from controller.web.club import create_app

    db = tmp_path / "club.sqlite"
    assert main(["import", str(exported), "--db", str(db)]) == 0
    with Records(db) as records:
        game = records.start_game(judging.game_created("classic", ("Zoë", "<b>Yan</b>", "Xi")), table_name="table 7")
        records.append(game, StartOrderDrawn((), "Zoë", None))
        records.append(game, Dealt(1), state=State.TURN_READY)
        records.append(game, TurnStarted(1, "Zoë", 60, None), state=State.TURN_RUNNING)
    client = TestClient(create_app(str(db)))
    page = client.get("/")
    assert page.status_code == 200
    assert "table 7" in page.text and 'href="/games/2"' in page.text and "Zoë" in page.text
    assert "&lt;b&gt;Yan&lt;/b&gt;" in page.text and "<b>Yan</b>" not in page.text  # escaped
    data = client.get("/api/tables").json()
    live = next(t for t in data["tables"] if t["game_id"] == game)
    assert live["player"] == "Zoë" and live["state"] == "turn-running" and 0 < live["seconds_left"] <= 60
    finished = next(t for t in data["tables"] if t["game_id"] == 1)
    assert finished["state"] == "finished" and finished["last_verdict"].startswith("turn 11 Cat")
    assert client.get("/static/club.js").status_code == 200


def test_the_club_boards_table_links_open_the_games_pages(exported, tmp_path):
    import re

    from starlette.testclient import TestClient

    from controller.game import judging
    from controller.game.events import Dealt, StartOrderDrawn
    from controller.game.machine import State
    from controller.web.club import create_app

    db = tmp_path / "club.sqlite"
    assert main(["import", str(exported), "--db", str(db)]) == 0
    with Records(db) as records:
        game = records.start_game(judging.game_created("classic", ("Zoë", "Yan", "Xi")), table_name="table 7")
        records.append(game, StartOrderDrawn((), "Zoë", None))
        records.append(game, Dealt(1), state=State.TURN_READY)
    client = TestClient(create_app(str(db)))
    board = client.get("/").text
    links = dict(re.findall(r'<a class="link" href="([^"]+)">([^<]+)</a>', board))
    assert sorted(links.values()) == ["game 1", "table 7"]
    for link, table in links.items():
        game_page = client.get(link)
        assert game_page.status_code == 200, (table, link)
        assert "Players:" in game_page.text and ("Zoë" in game_page.text) == (table == "table 7")
    finished = client.get("/games/1").text
    turn_link = re.search(r'href="(/games/1/turns/\d+)"', finished).group(1)
    assert client.get(turn_link).status_code == 200
    assert client.get("/games/1/replay").status_code == 200
    live_rows = client.get("/api/tables").json()["tables"]
    assert all(client.get(row["link"]).status_code == 200 for row in live_rows)
    assert client.get("/games/99").status_code == 404
