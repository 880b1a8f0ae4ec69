"""`tileref audit` and the web pages on a `tileref clock` game: its facts, readably, verified
first (a tampered clock game is refused, never shown), instead of failing on a game without turns."""
from __future__ import annotations

import json
import sqlite3

import pytest
from starlette.testclient import TestClient

from controller.cli import main
from controller.clock import ClockGame, default_rules
from controller.clock.journal import RecordState
from controller.game.events import ClockRecorded, GameCreated
from controller.messages import named
from controller.records import Records
from controller.records.signing import table_key
from controller.web.app import create_app

EVIL = "<script>alert(1)</script>"
FACTS = (
    ("started", None, (("Ann", 1800000), ("Ben", 1800000)), "shogi R1-T1-G1: 1800 s per-side; Ann moves first"),
    ("pressed", "Ann", (("Ann", 1790250),), "button 1: Ann hands over to Ben"),
    ("box", None, (("Ann", 1790250), ("Ben", 1700000)), "DeviceReset: the box rebooted"),
    ("restored", "Ben", (("Ann", 1790250), ("Ben", 1700000)), "after DeviceReset: the box counts on, Ben to move"),
    ("flag-fell", "Ben", (("Ben", 0),), "Ben's flag fell (gote): Ann wins on time"),
    ("result", "Ann", (), "shogi Ann (sente) v Ben: sente wins on time"),
)


def clock_game(db, facts=FACTS, players=("Ann", "Ben")) -> int:
    """A clock game recorded the way `tileref clock` records one (rules, event and drawn game, facts)."""
    rules = default_rules(ClockGame.SHOGI)
    with Records(db, key=table_key(None)) as records:
        game = records.start_game(GameCreated(
            variant="clock-shogi", players=players, turn_seconds=rules.seconds,
            ruleset=(*rules.pairs(), ("event", "shogi"), ("game", "R1-T1-G1"))), state=RecordState.CLOCK)
        for what, player, ms_left, detail in facts:
            records.append(game, ClockRecorded(what, player, ms_left, detail),
                           state=RecordState.FINISHED if what == "result" else RecordState.CLOCK)
    return game


def test_audit_prints_a_clock_games_facts_one_a_line_after_verifying_it(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    clock_game(db)
    capsys.readouterr()
    assert main(["audit", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("game 1: clock-shogi, hash chain intact, signed by table key")
    assert lines[1] == "players Ann, Ben; event shogi, game R1-T1-G1"
    assert "seconds 1800" in lines[2] and "sudden death" in lines[2]
    facts = lines[3:-1]
    # each fact in words ("clock given back", not its name "restored")
    assert len(facts) == len(FACTS) and all(line.split(" ", 3)[3].startswith(named("clockfact", fact[0]))
                                            for line, fact in zip(facts, FACTS)), facts
    assert facts[1] == "  #3 pressed Ann (Ann 29:50) button 1: Ann hands over to Ben"
    assert facts[3] == ("  #5 clock given back Ben (Ann 29:50, Ben 28:20) after DeviceReset: the box counts on, "
                        "Ben to move")
    assert lines[-1] == "result: shogi Ann (sente) v Ben: sente wins on time"


def test_audit_json_of_a_clock_game_is_the_web_apis_and_out_writes_a_page(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    game = clock_game(db, players=("Ann", EVIL))
    capsys.readouterr()
    assert main(["audit", "--db", str(db), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "clock" and data["clock_game"] == "shogi" and data["chain"]["status"] == "intact"
    assert data["event"] == "shogi" and data["drawn_game"] == "R1-T1-G1"
    assert [f["what"] for f in data["facts"]] == [f[0] for f in FACTS]
    assert data["facts"][3]["times"] == [{"name": "Ann", "ms": 1790250, "shown": "29:50"},
                                         {"name": "Ben", "ms": 1700000, "shown": "28:20"}]
    assert data["result"] == FACTS[-1][3]
    client = TestClient(create_app(db))
    assert client.get(f"/api/games/{game}").json() == data
    assert client.get(f"/api/games/{game}/turns/1").json() == data  # no turns: the game's facts
    out = tmp_path / "audit.html"
    assert main(["audit", "--db", str(db), "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "restored" in page and "28:20" in page and EVIL not in page and "&lt;script&gt;" in page


@pytest.mark.parametrize("path", ["/games/{g}", "/games/{g}/turns/1", "/games/{g}/replay"],
                         ids=["game-page", "audit-page", "replay-page"])
def test_the_web_pages_show_a_clock_games_facts(tmp_path, path):
    db = tmp_path / "r.sqlite"
    game = clock_game(db, players=("Ann", EVIL))
    page = TestClient(create_app(db)).get(path.format(g=game))
    assert page.status_code == 200
    assert EVIL not in page.text and "&lt;script&gt;" in page.text
    for what, _, _, detail in FACTS:  # each fact in words, never by its name ("flag fell", not flag-fell)
        assert named("clockfact", what) in page.text and detail.replace("'", "&#39;") in page.text
    assert "intact" in page.text


def test_the_replay_api_of_a_clock_game_has_the_replay_lines(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    game = clock_game(db)
    data = TestClient(create_app(db)).get(f"/api/games/{game}/replay").json()
    assert len(data["steps"]) == 1 and data["steps"][0]["turn"] is None
    capsys.readouterr()
    assert main(["replay", "--db", str(db), "--no-wait"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == data["steps"][0]["lines"]


def test_a_tampered_clock_game_is_refused_by_audit_and_the_pages(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    game = clock_game(db)
    with sqlite3.connect(db) as connection:  # the restored time made larger after the fact
        connection.execute("UPDATE events SET payload = replace(payload, '1700000', '1790000') WHERE seq = 5")
    capsys.readouterr()
    assert main(["audit", "--db", str(db)]) == 3
    assert capsys.readouterr().err.count("\n") == 1
    client = TestClient(create_app(db))
    assert client.get(f"/games/{game}").status_code == 409
    assert client.get(f"/api/games/{game}").status_code == 409


def test_audit_with_a_turn_on_a_clock_game_exits_2_naming_it(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    clock_game(db)
    capsys.readouterr()
    assert main(["audit", "--db", str(db), "--turn", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--turn 2" in err and "clock game" in err
