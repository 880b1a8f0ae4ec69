"""The web app without a browser: pages escape names, actions need the token (401: nothing recorded),
the referee's actions go through the runner and are recorded signed, an arbiter's acceptance of a
table that does not match is said to be exactly that (text, HTML and JSON), and bad `--web` input
exits 2 with one line."""
from __future__ import annotations

import io
import json
import socket
import time

import pytest
from starlette.testclient import TestClient

from controller.adapters.desk import RefereeDesk
from controller.adapters.display import ConsoleDisplay
from controller.table import TableDevices, TableRunner
from controller.cli import main
from controller.game import judging
from controller.game.events import (
    ClockAdjusted, Dealt, RestoreChecked, StartOrderDrawn, TableRead, TurnEnded, TurnStarted, VerdictOverridden,
)
from controller.game.machine import State, apply, fold
from controller.records import Records
from controller.records.reports.turn_data import audit_data
from controller.records.reports.views import audit_html, replay_lines
from controller.web.app import create_app
from controller.web.live import LiveTable
from desk_helpers import StillTimer, attended
from controller.web.server import parse_address
from controller.web.errors import WebAddressError
from table_helpers import table
from web_helpers import with_nonce

EVIL = "<img src=x onerror=alert(1)>"
PLAYERS = (EVIL, "Ben & Co")
NOT_RESTORED = ("a set [R1 R2] that was not on the table",)


def penalty_game(db, *after_verdict) -> int:
    """A game whose first turn lays an invalid set (a penalty), then `after_verdict` events."""
    first = judging.game_created("classic", PLAYERS)
    with Records(db) as records:
        game = records.start_game(first)
        model = fold([first])

        def add(event):
            nonlocal model
            model = apply(model, event)
            records.append(game, event, state=model.state)

        add(StartOrderDrawn((), PLAYERS[0], None))
        add(Dealt(1))
        add(TurnStarted(1, PLAYERS[0], 60, None))
        add(TurnEnded(1, "button", "1", 10))
        after = table(("R1", "R2"))
        add(TableRead("turn", None, None, after.tiles, after.sets, (), ()))
        verdict = judging.judge(model, after)
        assert verdict.outcome == "penalty" and verdict.restore_required
        add(verdict)
        for event in after_verdict:
            add(event(after) if callable(event) else event)
    return game


def accepted(referee=None, note=None, differences=NOT_RESTORED):
    return lambda after: RestoreChecked(None, None, True, differences, after.tiles, after.sets, True, referee, note)


def test_an_arbiters_acceptance_of_a_table_that_does_not_match_is_said_so_everywhere(tmp_path):
    db = tmp_path / "r.sqlite"
    refused = lambda after: RestoreChecked(None, None, False, NOT_RESTORED, after.tiles, after.sets, False)  # noqa: E731
    game = penalty_game(db, refused, accepted("Rita", "the players agreed"))
    with Records(db, create=False) as records:
        text = "\n".join(line for block in replay_lines(records, game) for line in block)
        page = audit_html(records, game, 1)
        data = audit_data(records, game, 1)
    said = "accepted by the arbiter (Rita: the players agreed) although it does NOT match the start of the turn"
    assert said in text and "restore: table matches the start of the turn" not in text
    assert said in page and "matches the start of the turn</figcaption>" not in page
    last = data["restores"][-1]
    assert last["accepted_mismatch"] and last["words"].startswith("accepted by the arbiter (Rita")
    assert last["differences"] == list(NOT_RESTORED) and last["referee"] == "Rita"


def test_acceptances_recorded_before_the_comparison_say_they_were_not_compared(tmp_path):
    db = tmp_path / "r.sqlite"
    game = penalty_game(db, accepted(differences=RestoreChecked.ARBITER_UNCHECKED))
    with Records(db, create=False) as records:
        text = "\n".join(line for block in replay_lines(records, game) for line in block)
        event = records.events(game)[-1]
    assert "accepted by the arbiter as it lay; not compared with the start of the turn" in text
    assert "referee" not in event.payload() and "note" not in event.payload()  # old shape, old hash chain


def test_an_acceptance_of_a_matching_table_says_it_matches(tmp_path):
    db = tmp_path / "r.sqlite"
    game = penalty_game(db, accepted("Rita", "fine", differences=()))
    with Records(db, create=False) as records:
        text = "\n".join(line for block in replay_lines(records, game) for line in block)
    assert "accepted by the arbiter (Rita: fine); the table matches the start of the turn" in text


def test_pages_escape_names_and_codes_and_the_api_matches_the_cli_json(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    game = penalty_game(db, accepted("<script>alert(2)</script>", "<b>why</b>"))
    client = TestClient(create_app(db))
    for path in ("/", f"/games/{game}", f"/games/{game}/turns/1", f"/games/{game}/replay/1"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert EVIL not in page.text and "<script>alert" not in page.text and "<b>why</b>" not in page.text
    assert "&lt;img src=x onerror=alert(1)&gt;" in client.get("/").text
    assert "Ben &amp; Co" in client.get("/").text
    assert client.get("/games/9").status_code == 404
    assert client.get("/table").status_code == 404  # no game runs in `tileref serve`
    capsys.readouterr()
    assert main(["audit", "--db", str(db), "--turn", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == client.get(f"/api/games/{game}/turns/1").json()
    assert main(["replay", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == client.get(f"/api/games/{game}/replay").json()
    assert client.get("/api/games").json()["games"][0]["players"] == list(PLAYERS)


def test_actions_need_the_token_and_each_is_recorded_with_who_and_why(tmp_path):
    db = tmp_path / "r.sqlite"
    game = penalty_game(db)
    desk = RefereeDesk()
    client = TestClient(create_app(db, LiveTable("table", db), desk, token="s3cret"))
    body = {"referee": "Rita", "reason": "the set was accepted at the table"}
    with Records(db, create=False) as records:
        count = len(records.events(game))
    with attended(db, game, desk):
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"X-Tileref-Token": "s3cre"}):
            for action in ("override", "correct", "accept-restore", "pause", "extend", "no-such-action"):
                answer = client.post(f"/api/referee/{action}", json=body, headers=headers)
                assert answer.status_code == 401 and "token" in answer.json()["error"]
        with Records(db, create=False) as records:
            assert len(records.events(game)) == count  # refused: recorded nowhere
        good = {"Authorization": "Bearer s3cret"}
        assert client.post("/api/referee/override", json={"reason": "x"}, headers=with_nonce(client, good)).status_code == 400
        assert client.post("/api/referee/extend", json={**body, "seconds": -3}, headers=with_nonce(client, good)).status_code == 400
        assert client.post("/api/referee/correct", json={**body, "changes": "0 Q7"}, headers=with_nonce(client, good)).status_code == 400
        assert client.post("/api/referee/unknown", json=body, headers=with_nonce(client, good)).status_code == 404
        paused = client.post("/api/referee/pause", json=body, headers=with_nonce(client, good))
        assert paused.status_code == 409 and "no countdown runs" in paused.json()["error"]
        answer = client.post("/api/referee/override", json=body,
                             headers=with_nonce(client, {"X-Tileref-Token": "s3cret"}))
        assert answer.status_code == 200, answer.text
        assert answer.json()["recorded"][0]["kind"] == "verdict-overridden"
        again = client.post("/api/referee/override", json=body, headers=with_nonce(client, good))
        assert again.status_code == 409  # the turn stands now: nothing waits for a restore
    with Records(db, create=False) as records:
        assert records.verify(game).ok  # signed by the store like every event
        events = records.events(game)
        model = fold(events)
    assert len(events) == count + 1
    assert events[-1] == VerdictOverridden(1, EVIL, "legal", "Rita", "the set was accepted at the table")
    assert model.state is State.TURN_READY and model.racks[0] == 12 and model.table.melds == (("R1", "R2"),)


def test_clock_adjustments_follow_the_state_table():
    model = fold([judging.game_created("classic", PLAYERS), StartOrderDrawn((), PLAYERS[0], None), Dealt(1),
                  TurnStarted(1, PLAYERS[0], 60, None)])
    paused = apply(model, ClockAdjusted(1, "pause", 0, "Rita", "a player is ill"))
    assert paused.paused and paused.state is State.TURN_RUNNING
    from controller.game.errors import TransitionError

    for bad, state in ((ClockAdjusted(1, "pause", 0, "Rita", "x"), paused),
                       (ClockAdjusted(1, "resume", 0, "Rita", "x"), model),
                       (ClockAdjusted(1, "extend", 0, "Rita", "x"), model),
                       (ClockAdjusted(2, "extend", 5, "Rita", "x"), model),
                       (ClockAdjusted(1, "extend", 5, "", "x"), model)):
        with pytest.raises(TransitionError):
            apply(state, bad)
    resumed = apply(paused, ClockAdjusted(1, "resume", 0, "Rita", "better"))
    assert not resumed.paused and not apply(resumed, ClockAdjusted(1, "extend", 30, "Rita", "x")).paused
    assert not apply(paused, TurnEnded(1, "button", "1", 3)).paused


@pytest.mark.parametrize("spec", ["", "host:port", "127.0.0.1:70000", "a b:80", "[::1]80"])
def test_a_malformed_web_address_is_refused(spec):
    with pytest.raises(WebAddressError):
        parse_address(spec)


def test_bad_web_input_exits_2_with_one_line(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    penalty_game(db)
    assert parse_address("8080").host == "127.0.0.1" and parse_address(":0").port == 0
    assert main(["serve", "--db", str(db), "--web", "localhost:http"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--web 'localhost:http'" in err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "--db", str(db), "--web", f"127.0.0.1:{port}"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"127.0.0.1:{port}: cannot serve there" in err
    assert main(["demo", "--web", "nowhere:-1", "--out", str(tmp_path / "d")]) == 2
    assert "--web" in capsys.readouterr().err
    assert main(["serve", "--db", str(tmp_path / "missing.sqlite")]) == 2


def _blank_frames(folder):
    import cv2
    import numpy as np

    folder.mkdir()
    cv2.imwrite(str(folder / "0001.png"), np.full((120, 160, 3), 90, np.uint8))
    return folder


@pytest.mark.parametrize("command", ["demo", "play", "clock"])
def test_a_web_port_in_use_is_refused_before_any_game_is_recorded(tmp_path, capsys, command):
    db = tmp_path / "club.sqlite"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        argv = {
            "demo": ["demo", "--out", str(tmp_path / "demo"), "--quiet"],
            "play": ["play", "--camera", str(_blank_frames(tmp_path / "frames")), "--timer", "emulator",
                     "--players", "Ann,Ben", "--db", str(db)],
            "clock": ["clock", "shogi", "--timer", str(tmp_path / "no-box"), "--players", "Ann,Ben",
                      "--minutes", "1", "--db", str(db)],
        }[command]
        assert main([*argv, "--web", address]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--web {address}: cannot serve there" in err, err
    for written in (db, tmp_path / "demo" / "demo.sqlite"):
        assert not written.exists(), f"{written} was written before the port was found in use"


def test_a_doubt_waits_for_the_referee_page_and_its_correction_is_recorded_with_who(tmp_path):
    from controller.adapters.desk import DeskAction, PageReferee, RefereeRequest

    db = tmp_path / "r.sqlite"
    first = judging.game_created("classic", PLAYERS)
    read = table(("R1", "R2", "R3"))
    with Records(db) as records:
        game = records.start_game(first)
        model = fold([first])
        for event in (StartOrderDrawn((), PLAYERS[0], None), Dealt(1), TurnStarted(1, PLAYERS[0], 60, None),
                      TurnEnded(1, "button", "1", 10),
                      TableRead("turn", None, None, read.tiles, read.sets, ((2, ("R3", "R8"), "read R3 at 0.41"),), ())):
            model = apply(model, event)
            records.append(game, event, state=model.state)
        assert model.state is State.REFEREE_CHECK
        desk = RefereeDesk()
        out = io.StringIO()
        devices = TableDevices(None, StillTimer(), None, ConsoleDisplay(out=out), PageReferee(), desk=desk)
        runner = TableRunner(records, game, devices)
        runner.step_referee_check()  # nothing on the desk yet: it waits, says so once
        assert runner.model.state is State.REFEREE_CHECK and "wait for a correction on the referee page" in out.getvalue()
        answer = desk.submit(RefereeRequest(DeskAction.CORRECT, "Rita", "it is an R3", target="table",
                                            changes=((2, "R3"),)))
        runner.step_referee_check()
        assert answer.result(1).recorded[0]["payload"]["referee"] == "Rita"
        assert runner.model.state is State.TURN_JUDGING
        assert records.verify(game).ok


def test_the_serial_timer_pauses_resumes_extends_and_mirrors_the_box():
    from controller.adapters.timer import SerialTimer
    from firmware_bridge.emulator_process import EmulatorProcess

    with EmulatorProcess(clock_rate=10.0) as box:
        timer = SerialTimer(box.port, clock_rate=10.0)
        seen = []
        timer.mirror = seen.append
        try:
            timer.start_turn(1, 60)
            assert seen[-1].running and seen[-1].seconds_left == 60
            timer.wait(0.35)  # ticks of the box reach the mirror
            assert any(r.running and r.seconds_left < 60 for r in seen)
            timer.pause()
            paused = seen[-1]
            assert paused.paused and not paused.running
            timer.wait(0.3)
            assert abs(timer.seconds_left() - paused.seconds_left) <= 1  # held
            timer.resume()
            assert seen[-1].running
            left = timer.seconds_left()
            timer.extend(30)
            assert seen[-1].running and seen[-1].seconds_left >= left + 29
        finally:
            timer.close()


def running_turn(records) -> int:
    """Ann's first turn recorded as started (the runner starts the box's countdown for it)."""
    first = judging.game_created("classic", PLAYERS)
    game = records.start_game(first)
    model = fold([first])
    for event in (StartOrderDrawn((), PLAYERS[0], None), Dealt(1), TurnStarted(1, PLAYERS[0], 60, None)):
        model = apply(model, event)
        records.append(game, event, state=model.state)
    return game


@pytest.mark.parametrize("action, body", [("pause", {}), ("extend", {"seconds": 30})])
def test_a_clock_action_the_box_refuses_is_answered_in_plain_words_and_not_recorded(tmp_path, action, body):
    """The button was pressed (the box stopped Ann's clock) but the runner has not taken the press yet:
    the referee's pause or extra time reaches a box whose countdown no longer runs."""
    from controller.adapters.desk import DeskAction, PageReferee, RefereeRequest
    from controller.adapters.errors import AdapterError
    from controller.adapters.timer import SerialTimer
    from firmware_bridge.emulator_process import EmulatorProcess
    from firmware_bridge.protocol import Phase

    db = tmp_path / "r.sqlite"
    with EmulatorProcess(clock_rate=1.0) as box, Records(db) as records:
        game = running_turn(records)
        timer = SerialTimer(box.port, clock_rate=1.0)
        try:
            out, desk = io.StringIO(), RefereeDesk()
            runner = TableRunner(records, game, TableDevices(None, timer, None, ConsoleDisplay(out=out),
                                                             PageReferee(), desk=desk))
            runner.clock.started_turn = 1  # this process recorded the turn's start
            runner.step_turn_running()  # the box counts Ann's turn
            assert runner.clock.running
            box.press("1")  # Ann presses; her clock stops on the box
            for _ in range(100):
                if timer.driver.state().phase is Phase.HELD:
                    break
                time.sleep(0.02)
            assert timer.driver.state().phase is Phase.HELD
            recorded_before = len(records.events(game))
            answer = desk.submit(RefereeRequest(DeskAction(action), "Rita", "a tile fell", **body))
            runner.desk.attend()
            with pytest.raises(AdapterError) as refused:
                answer.result(1)
            said = str(refused.value)
            assert "its countdown had already stopped" in said and "nothing was recorded" in said, said
            assert not any(protocol in said for protocol in (">", "PAUSE", "*", "not-running", "\\n")), said
            assert len(records.events(game)) == recorded_before
            assert not any(isinstance(e, ClockAdjusted) for e in records.events(game))
            assert "by referee" not in out.getvalue()
            for _ in range(40):  # the press is taken as it was made: Ann's turn ends by her button
                runner.step_turn_running()
                if runner.model.state is not State.TURN_RUNNING:
                    break
            ended = records.events(game)[-1]
            assert isinstance(ended, TurnEnded) and ended.button == "1" and 0 < ended.seconds_left <= 60
            assert records.verify(game).ok
        finally:
            timer.close()
