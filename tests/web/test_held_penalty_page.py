"""The referee page of a penalty held for the referee: both photos (the tiles seen nowhere ringed on the
photo of the turn's start), the two answers; the display says the turn waits; an answer posted with the
token is carried out by the runner, recorded with who, and shown on the audit page."""
from __future__ import annotations

import io
import re
import threading

import numpy as np
from starlette.testclient import TestClient

from controller.adapters.desk import PageReferee, RefereeDesk
from controller.adapters.display import ConsoleDisplay
from controller.adapters.photos import FramePhotos
from controller.game import judging
from controller.game.events import (
    Dealt, HeldAnswer, HeldPenaltyAnswered, StartOrderDrawn, TableRead, TurnEnded, TurnStarted,
)
from controller.game.machine import State, apply, fold
from controller.records import Records
from controller.table import TableDevices, TableRunner
from controller.web.app import create_app
from controller.web.live import LiveTable, WebDisplay
from table_helpers import table
from web_helpers import with_nonce

TOKEN = {"Authorization": "Bearer s3cret"}


def held_game(db) -> tuple[int, str, str]:
    """Ann opened with K10-K13; Ben's table lacks K13: the penalty is held. The two photos' names."""
    photos = FramePhotos(".png")
    before = photos.photo(np.full((60, 260, 3), 90, np.uint8))
    now = photos.photo(np.full((60, 260, 3), 160, np.uint8))
    first = judging.game_created("classic", ("Ann", "Ben"))
    with Records(db) as records:
        game = records.start_game(first)
        model = fold([first])

        def add(event, *shown):
            nonlocal model
            model = apply(model, event)
            records.append(game, event, photos=shown, state=model.state)

        opened, lacking = table(("K10", "K11", "K12", "K13")), table(("K10", "K11", "K12"))
        for event in (StartOrderDrawn((), "Ann", None), Dealt(1), TurnStarted(1, "Ann", 60, None),
                      TurnEnded(1, "button", "1", 30), TableRead("turn", None, None, opened.tiles, opened.sets, (), ())):
            add(event)
        add(judging.judge(model, model.pending))
        add(TurnStarted(2, "Ben", 60, before.sha256), before)
        add(TurnEnded(2, "button", "2", 20))
        add(TableRead("turn", now.sha256, None, lacking.tiles, lacking.sets, (), ()), now)
        held = judging.held_penalty(model, judging.judge(model, model.pending))
        assert held is not None
        add(held)
    return game, before.sha256, now.sha256


def test_the_referee_page_shows_both_photos_and_its_answer_is_recorded_with_who(tmp_path):
    db = tmp_path / "held.sqlite"
    game, before, now = held_game(db)
    live = LiveTable("table", db)
    display = WebDisplay(live)
    desk = RefereeDesk()
    stop, ready, failures = threading.Event(), threading.Event(), []

    def attend():  # the runner's thread: the one write path
        try:
            with Records(db) as records:
                devices = TableDevices(None, None, None, ConsoleDisplay(out=io.StringIO()), PageReferee(), desk=desk)
                runner = TableRunner(records, game, devices, observer=display.observe)
                runner.observer(runner.model, None)  # a resumed game shows where it stands
                ready.set()
                while not stop.is_set():  # the held turn's step, then the desk alone (nothing judged here)
                    if runner.model.state is State.PENALTY_HELD:
                        runner.step_penalty_held()
                    else:
                        runner.desk.attend(0.05)
        except BaseException as error:  # reported by the test
            failures.append(error)
        finally:
            ready.set()

    thread = threading.Thread(target=attend, daemon=True)
    thread.start()
    try:
        assert ready.wait(10) and not failures, failures
        client = TestClient(create_app(db, live, desk, token="s3cret"))
        page = client.get("/referee").text
        held = page[page.index('id="held-penalty"'):]
        assert f'/photos/{before}' in held and f'/photos/{now}' in held
        assert re.search(r'<polygon class="vanished"[^>]*><title>K13</title>', held)
        assert 'data-action="confirm-penalty"' in page and 'data-action="tiles-there"' in page
        assert "<script>" not in page and "onclick" not in page
        assert "turn waits for the referee" in client.get("/table").text
        body = {"referee": "Rita", "reason": "the tile went back to the rack"}
        assert client.post("/api/referee/confirm-penalty", json=body).status_code == 401
        assert client.post("/api/referee/tiles-there", json={**body, "changes": "2"}, headers=with_nonce(client, TOKEN)).status_code == 400
        answer = client.post("/api/referee/confirm-penalty", json=body, headers=with_nonce(client, TOKEN))
        assert answer.status_code == 200, answer.text
        assert answer.json()["recorded"][0]["kind"] == "held-penalty-answered"
        assert "Rita confirmed the penalty" in answer.json()["words"]
        again = client.post("/api/referee/tiles-there", json=body, headers=with_nonce(client, TOKEN))
        assert again.status_code == 409  # nothing is held any more
    finally:
        stop.set()
        thread.join(10)
    assert not failures, failures
    with Records(db, create=False) as records:
        assert records.verify(game).ok
        last = records.events(game)[-1]
        assert isinstance(last, HeldPenaltyAnswered) and last.answer is HeldAnswer.CONFIRMED
        assert (last.referee, last.reason, last.turn) == ("Rita", "the tile went back to the rack", 2)
        assert fold(records.events(game)).state is State.TURN_JUDGING
    assert live.snapshot()["held"] is None
    audit = TestClient(create_app(db)).get(f"/games/{game}/turns/2").text
    assert "referee Rita confirms the penalty" in audit and f"/photos/{before}" in audit
