"""japan-2017: each player starts their own clock. The table display and the start-up help say that the
first press starts the clock (they used to say "lay your tiles and press" over a clock that did not run,
and "a seat's button ends that seat's turn")."""
from __future__ import annotations

from controller.adapters.keys import how_to_press
from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TurnStarted
from controller.game.machine import fold
from controller.messages import LANGUAGES, catalogue
from controller.web.live import LiveTable, status_of
from controller.web.prompts import prompt_of

ENGLISH = catalogue("en")
ARMED = {"seat": 2, "player": "Ben", "seconds_left": 60, "running": False, "low": False, "expired": False,
         "paused": False, "turn_seconds": 60}


def running_turn(variant: str):
    return fold([judging.game_created(variant, ("Ann", "Ben")), StartOrderDrawn((), "Ben", None), Dealt(1),
                 TurnStarted(1, "Ben", 60, None)])


def test_while_the_clock_waits_for_its_players_press_the_display_says_to_start_it():
    state = {**status_of(running_turn("japan-2017")), "clock": ARMED}
    assert state["own_clock"]
    assert prompt_of(state, ENGLISH)["now"] == ENGLISH.text("prompt.turn-armed", player="Ben")
    assert "start your clock" in prompt_of(state, ENGLISH)["now"]
    for language in LANGUAGES:
        assert prompt_of(state, catalogue(language))["now"] == catalogue(language).text("prompt.turn-armed", player="Ben")
    running = {**state, "clock": {**ARMED, "running": True, "seconds_left": 57}}
    assert prompt_of(running, ENGLISH)["now"] == "Ben: lay your tiles and press"


def test_classic_starts_the_clock_with_the_turn_and_says_nothing_of_starting_it():
    state = {**status_of(running_turn("classic")), "clock": ARMED}
    assert not state["own_clock"]
    assert prompt_of(state, ENGLISH)["now"] == "Ben: lay your tiles and press"


def test_the_prompt_on_the_page_follows_the_clock():
    live = LiveTable("table", None, "en")
    live.update(("status",), **status_of(running_turn("japan-2017")))
    live.update(("clock",), clock=ARMED)
    assert "start your clock" in live.regions()["prompt"]
    live.update(("clock",), clock={**ARMED, "running": True})
    assert "lay your tiles and press" in live.regions()["prompt"]


def test_the_start_up_help_says_what_a_press_does_where_players_start_their_clocks():
    japan = how_to_press(("Ann", "Ben"), own_clock=True)
    assert "first press in its turn starts that seat's clock" in japan and "ends that seat's turn" not in japan
    assert "a seat's button ends that seat's turn" in how_to_press(("Ann", "Ben"))
