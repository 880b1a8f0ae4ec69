"""The referee at the console settles doubts and racks; a scripted referee never makes one up."""
from __future__ import annotations

import io

import pytest

from controller.adapters.referee import ConsoleReferee, RefereeError, ScriptedReferee
from controller.game.machine import GameModel, TableState

TABLE = TableState((("K10", 0.0, 0.0), ("K11", 40.0, 0.0), ("K13", 80.0, 0.0)), ((0, 1, 2),))
DOUBT = ((2, ("K13", "K12"), "read K13 at 0.50; 2 readings make its set valid"),)


def test_the_console_referee_is_asked_again_after_a_bad_code():
    out = io.StringIO()
    referee = ConsoleReferee(io.StringIO("K14\nk12\n"), out)
    changes, note = referee.settle_table(GameModel(turn=3), TABLE, DOUBT)
    assert changes == ((2, "K12"),) and "referee" in note
    assert "K14" in out.getvalue()  # the refused code is named


def test_the_console_referee_accepts_or_corrects_a_rack():
    accept = ConsoleReferee(io.StringIO("\n"), io.StringIO())
    assert accept.check_rack("Ben", ("R1",), 2, ())[0] is None
    correct = ConsoleReferee(io.StringIO("R1 r2\n"), io.StringIO())
    assert correct.check_rack("Ben", ("R1",), 2, ())[0] == ("R1", "R2")


def test_a_closed_console_is_an_error_not_a_guess():
    with pytest.raises(RefereeError, match="input closed"):
        ConsoleReferee(io.StringIO(""), io.StringIO()).settle_table(GameModel(), TABLE, DOUBT)


def test_a_scripted_referee_without_an_answer_stops_the_game():
    with pytest.raises(RefereeError, match="tile 2"):
        ScriptedReferee().settle_table(GameModel(turn=3), TABLE, DOUBT)
    answered = ScriptedReferee(table={"3": {"2": "K12"}})
    assert answered.settle_table(GameModel(turn=3), TABLE, DOUBT)[0] == ((2, "K12"),)
