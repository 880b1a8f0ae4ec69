"""A doubt about a tile answered "no tile there": the tile leaves the reading, recorded like any answer."""
from __future__ import annotations

import io

import pytest

from controller.adapters.referee import ConsoleReferee
from controller.game.events import NO_TILE, RefereeCorrection, TableRead, TurnEnded, TurnStarted
from controller.game.machine import GameModel, State, TableState, apply
from controller.web.app import parse_request
from controller.adapters.desk import DeskAction
from game_helpers import table

from test_machine import started_game

TABLE = TableState((("K10", 0.0, 0.0), ("K11", 40.0, 0.0), ("K12", 80.0, 0.0), ("K8", 300.0, 200.0)), ((0, 1, 2), (3,)))
SPECK = ((3, ("K8", "K3"), "read K8 at 0.41"),)


def test_no_tile_there_removes_the_tile_and_keeps_the_other_sets():
    left = TABLE.with_codes(((3, NO_TILE),))
    assert left.melds == (("K10", "K11", "K12"),)
    assert [t[0] for t in left.tiles] == ["K10", "K11", "K12"]


def test_no_tile_there_inside_a_set_renumbers_what_follows():
    left = TABLE.with_codes(((1, NO_TILE), (3, "K9")))
    assert left.melds == (("K10", "K12"), ("K9",))


def test_a_doubt_answered_no_tile_is_judged_without_it():
    model = apply(started_game(), TurnStarted(1, "Ann", 60, None))
    model = apply(model, TurnEnded(1, "button", "1", 3))
    after = table(["K10", "K11", "K12"])
    speck = TableState(after.tiles + (("K8", 500.0, 300.0),), after.sets + ((3,),))
    model = apply(model, TableRead("turn", None, None, speck.tiles, speck.sets, ((3, ("K8",), "unsure"),), ()))
    assert model.state is State.REFEREE_CHECK
    event = RefereeCorrection("table", ((3, NO_TILE),), None, "a dark speck")
    assert event.payload()["changes"] == [[3, NO_TILE]]
    model = apply(model, event)
    assert model.state is State.TURN_JUDGING and model.pending.melds == (("K10", "K11", "K12"),)


@pytest.mark.parametrize("answer", ["none", "no", "-", "NONE"])
def test_the_console_referee_may_answer_no_tile_there(answer):
    out = io.StringIO()
    changes, _ = ConsoleReferee(io.StringIO(answer + "\n"), out).settle_table(GameModel(turn=2), TABLE, SPECK)
    assert changes == ((3, NO_TILE),)
    assert f"'{NO_TILE}' if no tile lies there" in out.getvalue()


def test_the_referee_page_may_answer_no_tile_there():
    request = parse_request(DeskAction.CORRECT, {"referee": "Eve", "reason": "a speck", "changes": "3 none 1 k12"})
    assert request.changes == ((3, NO_TILE), (1, "K12"))
