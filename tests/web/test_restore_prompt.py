"""The prompt of a restore says the draw the verdict costs from the moment the verdict is recorded, on
every page (the referee page used to say "Ben draws 0" while the table display said "Time! Ben draws 3":
it was drawn before the restore plan reached the display)."""
from __future__ import annotations

from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TableRead, TurnEnded, TurnStarted
from controller.game.machine import State, apply, fold
from controller.messages import catalogue
from controller.web.live import LiveTable, status_of
from controller.web.prompts import prompt_of
from table_helpers import table

ENGLISH = catalogue("en")


def penalty_restoring(cause: str, variant: str = "classic"):
    model = fold([judging.game_created(variant, ("Ann", "Ben")), StartOrderDrawn((), "Ben", None), Dealt(1),
                  TurnStarted(1, "Ben", 60, None), TurnEnded(1, cause, "2" if cause == "button" else None, 0)])
    after = table(["B1", "B2"])  # an invalid set: a penalty, the table to be put back
    model = apply(model, TableRead("turn", None, None, after.tiles, after.sets, (), ()))
    model = apply(model, judging.judge(model, after))
    assert model.state is State.RESTORING and model.judgement.draw == (3 if variant == "classic" else 1)
    return model




def test_a_timed_out_penalty_says_its_draw_before_the_restore_plan_is_shown():
    state = status_of(penalty_restoring("expired"))  # no "penalty" region data yet: only the game's state
    assert prompt_of(state, ENGLISH)["now"] == "Time! Ben draws 3; restore the table as shown"
    assert prompt_of(status_of(penalty_restoring("button")), ENGLISH)["now"] == "Ben draws 3; restore the table as shown"


def test_every_page_of_the_table_draws_the_same_prompt_from_the_verdict_on():
    live = LiveTable("table", None, "en")
    live.update(("status",), **status_of(penalty_restoring("expired")))
    assert "Time! Ben draws 3" in live.regions()["prompt"] and "draws 0" not in live.regions()["prompt"]


def test_the_japan_restore_screen_shows_the_fifty_points_the_penalty_costs():
    """japan-2017: a penalty costs 50 points and a tile; the restore screen says both while the table is
    put back (the -50 used to appear only afterwards, in the scores)."""
    import io

    from controller.adapters.display import ConsoleDisplay
    from controller.game.events import TurnJudged
    from controller.web.live import WebDisplay

    model = fold([judging.game_created("japan-2017", ("Ann", "Ben")), StartOrderDrawn((), "Ben", None), Dealt(1),
                  TurnStarted(1, "Ben", 60, None), TurnEnded(1, "button", "2", 10)])
    after = table(["B1", "B2"])
    model = apply(model, TableRead("turn", None, None, after.tiles, after.sets, (), ()))
    verdict = judging.judge(model, after)
    assert isinstance(verdict, TurnJudged) and verdict.penalty_points == -50
    model = apply(model, verdict)
    out = io.StringIO()
    live = LiveTable("table", None, "en")
    display = WebDisplay(live, ConsoleDisplay(out=out))
    display.observe(model, verdict)
    display.restore(verdict, None, ".jpg")
    assert "Ben: -50 points for the penalty" in live.regions()["penalty"]
    assert "Ben -50 points" in out.getvalue()
    ja = LiveTable("table", None, "ja")
    WebDisplay(ja).restore(verdict, None, ".jpg")
    assert catalogue("ja").text("penalty.points", player="Ben", points=-50) in ja.regions()["penalty"]
