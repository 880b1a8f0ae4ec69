"""The seeds' rules that need the table, each applied by the game flow.

Machine level (pure folds of events) for the accounting, and through the runner with the real
reader, scripted camera scenes and the emulated timer box on a pty for japan-2017's timer rules
and the invalid set noticed before the next turn. The world game that cannot be restored is in
test_end_to_end.py (the bundled `world-game`)."""
from __future__ import annotations

import dataclasses

import pytest

from controller.adapters.display import ConsoleDisplay
from controller.adapters.reader import VisionReader
from controller.demo.recorded_game import GameScript, RecordedTable, RecordedTimer
from controller.adapters.referee import ScriptedReferee
from controller.table import STEPS, RunnerSettings, TableDevices, TableRunner
from controller.adapters.timer import open_timer
from controller.game import judging
from controller.game.errors import TransitionError
from controller.game.events import (
    DealAccepted, Dealt, RedealClaimed, RefereeCorrection, RestoreChecked, StartOrderDrawn, TableRead, TurnEnded,
    TurnJudged, TurnStarted,
)
from controller.game.machine import TILES_IN_GAME, State, TableState, apply, fold
from controller.records import Records
from controller.rules.variants import CLASSIC
from game_helpers import play_command, table, wait_for


PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def started_game(variant="classic"):
    model = fold([judging.game_created(variant, PLAYERS), StartOrderDrawn((), "Ann", None), Dealt(1)])
    return apply(model, DealAccepted(1)) if model.state is State.REDEAL_WINDOW else model


def play_turn(model, after: TableState, cause="button"):
    model = apply(model, TurnStarted(model.turn + 1, model.player, 60, None))
    model = apply(model, TurnEnded(model.turn, cause, str(model.current + 1) if cause == "button" else None, 10))
    model = apply(model, TableRead("turn", None, None, after.tiles, after.sets, (), ()))
    verdict = judging.judge(model, after)
    return apply(model, verdict), verdict


def failed_turn(variant: str):
    """Ann opened with K10 K11 K12; Ben's turn fails with B1 B2 left loose."""
    model, _ = play_turn(started_game(variant), table(["K10", "K11", "K12"]))
    model, verdict = play_turn(model, table(["K10", "K11", "K12"], ["B1", "B2"]), cause="expired")
    assert verdict.outcome == "penalty" and model.state is State.RESTORING
    return model


@pytest.mark.parametrize(
    "variant, to_pool, rack, pool",
    [
        # 002: the tiles left over (B1 B2) go to the end of the pool; the penalty draw is 3
        pytest.param("classic", ("B1", "B2"), 14 - 2 + 3, 50 + 2 - 3, id="classic/002-unrestorable-tiles-to-end-of-pool"),
        # 000: the offender takes the tiles that cannot be restored; draw 1
        pytest.param("japan-2017", (), 14 + 1, 50 - 1, id="japan-2017/000-unrestorable-tiles-offender-takes"),
        # 003: the offender takes every tile not in a valid set; draw 1
        pytest.param("world", (), 14 + 1, 50 - 1, id="world/003-unrestorable-offender-takes-loose"),
    ],
)
def test_a_table_that_cannot_be_restored_is_settled_by_the_rule_set(variant, to_pool, rack, pool):
    model = failed_turn(variant)
    now = table(["K10", "K11", "K12"], ["B1", "B2"])
    given_up = judging.unrestorable(model, now, None, None)
    model = apply(model, given_up)
    assert model.state is State.RESTORING and given_up.kept == (("K10", "K11", "K12"),)
    assert given_up.to_pool == to_pool and sorted(given_up.to_offender + given_up.to_pool) == ["B1", "B2"]
    kept = table(["K10", "K11", "K12"])
    assert not judging.restore_check(model, now)[0] and judging.restore_check(model, kept)[0]
    model = apply(model, RestoreChecked(None, None, True, (), kept.tiles, kept.sets, False))
    assert model.state is State.TURN_READY and model.rack_of("Ben") == rack and model.pool == pool
    assert model.tiles_counted == TILES_IN_GAME and model.penalties[1] == 1


def test_giving_up_is_only_for_a_failed_turn_and_once():
    model = failed_turn("world")
    now = table(["K10", "K11", "K12"], ["B1", "B2"])
    model = apply(model, judging.unrestorable(model, now, None, None))
    with pytest.raises(TransitionError, match="once"):
        apply(model, judging.unrestorable(model, now, None, None))


def test_japan_2017_000_invalid_set_noticed_after_the_next_turn_started_stands():
    model, _ = play_turn(started_game("japan-2017"), table(["K10", "K11", "K12"]))
    model = apply(model, TurnStarted(2, "Ben", 60, None))
    model = apply(model, RefereeCorrection("table", ((1, "K12"),), None, "noticed late"))
    assert model.state is State.TURN_RUNNING and model.table.melds == (("K10", "K12", "K12"),)
    # it stands: Ben leaves it as it is and plays elsewhere
    model = apply(model, TurnEnded(2, "button", "2", 10))
    after = table(["K10", "K12", "K12"], ["O11", "R11", "B11"])
    model = apply(model, TableRead("turn", None, None, after.tiles, after.sets, (), ()))
    assert judging.judge(model, after).outcome == "legal"


@pytest.mark.parametrize("variant", ["classic", "world", "japan-2017"])
def test_invalid_set_noticed_before_the_next_turn_judges_the_turn_again(variant):
    model, verdict = play_turn(started_game(variant), table(["K10", "K11", "K12"]))
    assert verdict.outcome == "legal" and model.rack_of("Ann") == 11
    again = apply(model, RefereeCorrection("table", ((1, "K12"),), None, "that is a K12"))
    assert again.state is State.TURN_JUDGING and again.player == "Ann" and again.rack_of("Ann") == 14
    verdict = judging.judge(again, again.pending)
    assert verdict.outcome == "penalty" and "invalid-set" in dict(verdict.violations)


def test_a_rule_set_whose_late_invalid_sets_stand_never_judges_again():
    stands = dataclasses.replace(CLASSIC, name="club-stands", late_invalid_set=type(CLASSIC.late_invalid_set)("stands"))
    model = fold([judging.game_created(stands, PLAYERS), StartOrderDrawn((), "Ann", None), Dealt(1)])
    model, _ = play_turn(model, table(["K10", "K11", "K12"]))
    model = apply(model, RefereeCorrection("table", ((1, "K12"),), None, "noticed"))
    assert model.state is State.TURN_READY and model.table.melds == (("K10", "K12", "K12"),)


def test_world_003_redeal_only_right_after_the_deal_and_by_anyone():
    model = fold([judging.game_created("world", PLAYERS), StartOrderDrawn((), "Ann", None), Dealt(1)])
    assert model.state is State.REDEAL_WINDOW
    refused = apply(model, RedealClaimed("Cat", ("R1", "R1"), False, "one double"))
    assert refused.state is State.REDEAL_WINDOW
    granted = apply(refused, RedealClaimed("Cat", ("R1", "R1", "B4", "B4", "K13", "K13"), True, "three"))
    assert granted.state is State.DEALING and granted.current == 0  # the same player starts
    playing = apply(apply(granted, Dealt(2)), DealAccepted(2))
    assert playing.state is State.TURN_READY
    with pytest.raises(TransitionError, match="right after the deal"):
        apply(apply(playing, TurnStarted(1, "Ann", 40, None)), RedealClaimed("Ann", (), True, ""))


def test_classic_002_has_no_redeal_and_no_timer_skip():
    model = apply(started_game("classic"), TurnStarted(1, "Ann", 60, None))
    with pytest.raises(TransitionError, match="no redeal"):
        apply(model, RedealClaimed("Ann", (), True, ""))
    with pytest.raises(TransitionError, match="skip the timer"):
        apply(model, TurnEnded(1, "skipped", "2", None))


def test_a_resumed_game_judges_by_the_rule_set_it_recorded_not_the_code_defaults(tmp_path):
    """The game recorded a 'classic' whose initial meld is 40: folded back from the records file (as
    --resume does), Ann's 33 is too low although the code's classic would take it."""
    recorded = dataclasses.replace(CLASSIC, initial_meld_points=40)
    with Records(tmp_path / "g.sqlite") as records:
        game = records.new_game("classic", PLAYERS)
        for event in (judging.game_created(recorded, PLAYERS), StartOrderDrawn((), "Ann", None), Dealt(1)):
            records.append(game, event)
        model = fold(records.events(game))
    assert model.rules.initial_meld_points == 40 and judging.ruleset_of(model) == recorded
    _, verdict = play_turn(model, table(["K10", "K11", "K12"]))
    assert verdict.outcome == "penalty" and "initial-meld-under-minimum" in dict(verdict.violations)


# --- through the runner: the emulated box, scripted scenes, the real reader ------------------------

JAPAN = {
    "variant": "japan-2017", "players": ["Ann", "Ben"], "starter": "Ann", "clock_rate": 30,
    "layout": {"width": 1280, "height": 720, "tile_width": 40, "seed": 7},
    "referee": {"notices": {"4": [["R12", "O12"]]}},
    "turns": [
        {"player": "Ann", "action": "press", "expect": "legal", "table": [{"at": [0, 0], "tiles": ["K10", "K11", "K12"]}]},
        # 000 タイマーの省略: an immediate draw, ended by the next player starting their own clock
        {"player": "Ben", "action": "skip", "expect": "draw", "table": [{"at": [0, 0], "tiles": ["K10", "K11", "K12"]}]},
        # 000: after the alarm no tile may leave the rack; B12 laid after it goes back and does not count
        {"player": "Ann", "action": "expire", "expect": "legal",
         "table": [{"at": [0, 0], "tiles": ["K10", "K11", "K12"]}, {"at": [0, 5], "tiles": ["B9", "B10", "B11"]}],
         "after_alarm": [{"at": [0, 0], "tiles": ["K10", "K11", "K12"]},
                         {"at": [0, 5], "tiles": ["B9", "B10", "B11", "B12"]}]},
        # 000 イレギュラーなケース: the referee says the R12 is an O12 before Ann's turn starts: a penalty
        {"player": "Ben", "action": "press", "expect": "penalty", "notice": "before-next-turn",
         "table": [{"at": [0, 0], "tiles": ["K10", "K11", "K12"]}, {"at": [0, 5], "tiles": ["B9", "B10", "B11"]},
                   {"at": [1, 0], "tiles": ["O12", "R12", "B12"]}]},
    ],
}


@pytest.fixture(scope="module")
def japan_game(tmp_path_factory):
    script = GameScript.from_dict(JAPAN)
    path = tmp_path_factory.mktemp("japan") / "japan.sqlite"
    records = Records(path)
    game = records.new_game("japan-2017", script.players)
    records.append(game, judging.game_created("japan-2017", script.players))
    timer = open_timer("emulator", script.clock_rate)
    table_world = RecordedTable(script, timer.emulator.press)
    runner = None
    devices = TableDevices(table_world, RecordedTimer(timer, table_world, lambda: runner.model), VisionReader(),
                           ConsoleDisplay(quiet=True), ScriptedReferee(**script.referee))
    try:
        runner = TableRunner(records, game, devices, RunnerSettings(starter=script.starter),
                             observer=table_world.observe)
        table_world.observe(runner.model, None)
        for _ in range(400):  # a misread must fail the test, not hang it
            model = runner.model
            if model.turn == 5 or model.state is State.FINISHED:
                break
            STEPS[model.state](runner)
    finally:
        timer.close()
    yield records.events(game), runner.model
    records.close()


def test_japan_2017_000_timer_skipped_for_an_immediate_draw(japan_game):
    events, _ = japan_game
    ended = {e.turn: e for e in events if isinstance(e, TurnEnded)}
    assert ended[2].cause == "skipped" and ended[2].button == "1"  # Ann started her own clock
    verdict = next(e for e in events if isinstance(e, TurnJudged) and e.turn == 2)
    assert verdict.outcome == "draw" and "timer-skipped" not in dict(verdict.violations)
    assert ended[1].cause == "button" and ended[3].cause == "expired"


def test_japan_2017_000_alarm_locks_the_rack(japan_game):
    events, _ = japan_game
    alarm = next(e for e in events if isinstance(e, TableRead) and e.purpose == "alarm")
    assert sorted(TableState(alarm.tiles, alarm.sets).melds) == [("B9", "B10", "B11"), ("K10", "K11", "K12")]
    verdict = next(e for e in events if isinstance(e, TurnJudged) and e.turn == 3)
    assert verdict.outcome == "legal" and sorted(verdict.played) == ["B10", "B11", "B9"]
    assert verdict.restore_required and verdict.restore_to_rack == ("B12",)
    assert [rule for rule, _ in verdict.violations] == ["laid-after-alarm"]


def test_japan_2017_000_invalid_set_noticed_before_the_next_turn_is_a_penalty(japan_game):
    events, model = japan_game
    verdicts = [e for e in events if isinstance(e, TurnJudged) and e.turn == 4]
    assert [v.outcome for v in verdicts] == ["legal", "penalty"]
    assert "invalid-set" in dict(verdicts[1].violations) and verdicts[1].penalty_points == -50
    correction = next(e for e in events if isinstance(e, RefereeCorrection))
    assert events.index(verdicts[0]) < events.index(correction) < events.index(verdicts[1])
    assert model.rack_of("Ann") == 8 and model.rack_of("Ben") == 14 + 1 + 1  # a draw, then the penalty's 1
    assert model.penalty_points == (0, -50) and model.tiles_counted == TILES_IN_GAME


# --- tileref play --rules club.toml ----------------------------------------------------------------


def test_play_plays_a_clubs_own_rule_set_and_records_it_whole(tmp_path):
    """`--rules club.toml`: a club whose initial meld is 40 (extends classic): Ann's 33 is a penalty."""
    import signal
    import subprocess
    import time

    import cv2

    from controller.demo.scene import Scene, SceneLayout, SceneRenderer
    from firmware_bridge.emulator_process import EmulatorProcess

    club = tmp_path / "club.toml"
    club.write_text('name = "club-40"\nextends = "classic"\ninitial_meld_points = 40\nseconds_per_turn = 90\n')
    frames = tmp_path / "frames"
    frames.mkdir()
    renderer = SceneRenderer(SceneLayout(seed=5))
    cv2.imwrite(str(frames / "0001.png"), renderer.render(Scene.of([{"tiles": ["K10", "K11", "K12"], "at": [0, 0]}])))
    db = tmp_path / "club.sqlite"
    with EmulatorProcess(clock_rate=5) as box:
        player = subprocess.Popen(play_command(frames, box.port, db, "--rules", str(club)), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            wait_for(db, lambda ev: fold(ev).state is State.DEALING)
            box.press("A")  # dealt
            wait_for(db, lambda ev: fold(ev).state is State.TURN_RUNNING)
            time.sleep(1.0)  # the turn is recorded first, then the clock starts
            box.press("1")
            events = wait_for(db, lambda ev: any(isinstance(e, TurnJudged) for e in ev))
        finally:
            player.send_signal(signal.SIGINT)
            output = player.communicate(timeout=30)[0].decode()
    created = events[0]
    assert created.variant == "club-40" and created.turn_seconds == 90, output
    assert dict(created.ruleset)["initial_meld_points"] == 40
    verdict = next(e for e in events if isinstance(e, TurnJudged))
    assert verdict.outcome == "penalty" and "initial-meld-under-minimum" in dict(verdict.violations), output
