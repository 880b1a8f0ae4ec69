"""The pure clock: settings from the seeds, overrides, and the state machine's verdicts."""
from decimal import Decimal

import pytest

from controller.clock import (
    BoxAction, ClockFact, ClockGame, ClockInputError, Entered, FlagFell, Phase, Pressed, Reading, Scoring,
    default_rules, override, start, step,
)


@pytest.mark.parametrize("game, final, minutes, reading", [
    (ClockGame.SHOGI, False, 30, Reading.PER_SIDE),
    (ClockGame.SHOGI, True, 35, Reading.PER_SIDE),
    (ClockGame.OTHELLO, False, 30, Reading.PER_GAME),
    (ClockGame.OTHELLO, True, 40, Reading.PER_GAME),
], ids=["shogi", "shogi-final", "othello", "othello-final"])
def test_board_games_take_the_seed_times(game, final, minutes, reading):
    rules = default_rules(game, final=final)
    assert (rules.seconds, rules.reading) == (minutes * 60, reading)


@pytest.mark.parametrize("scoring, limited, seconds", [
    (Scoring.RON_CUP, True, 3600), (Scoring.RON_CUP, False, None), (Scoring.HEALTH_MAHJONG, True, 3000),
], ids=["ron-cup-qualifier", "ron-cup-final-no-limit", "health-mahjong"])
def test_mahjong_sessions_take_the_seed_limits(scoring, limited, seconds):
    assert default_rules(ClockGame.MAHJONG, scoring=scoring, limited=limited).seconds == seconds


def test_overrides_replace_the_time_and_the_othello_reading():
    rules = override(default_rules(ClockGame.OTHELLO), minutes=25, reading="per-side")
    assert (rules.seconds, rules.reading, rules.flag_loses) == (1500, Reading.PER_SIDE, True)
    assert "overridden" in rules.source


@pytest.mark.parametrize("kwargs, names", [
    ({"seconds": 0}, "--seconds"), ({"minutes": 1, "seconds": 5}, "--minutes and --seconds"),
    ({"reading": "per-move"}, "--reading"), ({"no_limit": True}, "--no-limit"),
], ids=["zero-seconds", "two-times", "unknown-reading", "no-limit-on-shogi"])
def test_bad_overrides_name_the_option(kwargs, names):
    with pytest.raises(ClockInputError, match=names):
        override(default_rules(ClockGame.SHOGI), **kwargs)


def shogi(seconds=1800):
    return start(override(default_rules(ClockGame.SHOGI), seconds=seconds), "R1-T1-G1", ("Ann", "Ben"))


def test_shogi_starts_a_duel_with_sentes_clock():
    first = shogi()
    assert [c.action for c in first.commands] == [BoxAction.CONFIGURE, BoxAction.START]
    assert (first.commands[0].mode, first.commands[1].seat) == ("DUEL", 1)


def test_shogi_flag_fall_loses():
    result = step(shogi().state, FlagFell(1)).result
    assert result.winner == "Ben" and result.detail.endswith("on time")


def test_shogi_repetition_swaps_colours_and_starts_the_new_sente_on_its_own_bank():
    after = step(shogi().state, Entered("repetition"))
    assert after.state.first == "Ben" and after.state.outcomes == ("repetition",)
    assert [f.what for f in after.facts] == [ClockFact.REPETITION, ClockFact.REPLAY_STARTED]
    assert [(c.action, c.seat) for c in after.commands] == [(BoxAction.START, 2)]
    # Ann's flag falls in the replay, where she is gote: Ben wins
    result = step(after.state, FlagFell(1)).result
    assert result.winner == "Ben" and "repetition" in result.detail


def test_arbiter_button_pauses_and_resumes():
    paused = step(shogi().state, Pressed("A", 1, 5000))
    assert paused.state.phase is Phase.PAUSED and paused.commands[0].action is BoxAction.PAUSE
    resumed = step(paused.state, Pressed("A", None, 5000))
    assert resumed.state.phase is Phase.RUNNING and resumed.commands[0].action is BoxAction.RESUME


def test_othello_per_game_time_up_then_the_discs_decide_with_empties_split():
    state = start(default_rules(ClockGame.OTHELLO), "R1-T1-G1", ("Ann", "Ben")).state
    counting = step(state, FlagFell(0))
    assert counting.state.phase is Phase.COUNTING and counting.result is None
    result = step(counting.state, Entered("discs 30 28")).result
    assert result.winner == "Ann" and "33 - 31" in result.detail


def test_mahjong_session_end_makes_the_hand_in_progress_the_last():
    rules = default_rules(ClockGame.MAHJONG, scoring=Scoring.HEALTH_MAHJONG, rank_points=("20", "10", "-10", "-20"))
    state = start(rules, "R1-T1-G1", ("A", "B", "C", "D")).state
    last = step(state, FlagFell(0))
    assert last.state.phase is Phase.LAST_HAND and last.facts[0].what is ClockFact.SESSION_ENDED
    result = step(last.state, Entered("points A=45000 B=35000 C=25000 D=15000")).result
    assert result.scores == {"A": Decimal("35.0"), "B": Decimal("15.0"), "C": Decimal("-15.0"), "D": Decimal("-35.0")}


@pytest.mark.parametrize("line, names", [
    ("discs 70 2", "exceed 64"), ("discs x 2", "'x'"), ("win Cid", "'Cid'"), ("resign", "'resign'"),
], ids=["othello-over-64", "othello-not-a-number", "shogi-unknown-winner", "unknown-verb"])
def test_bad_lines_name_the_input(line, names):
    game = ClockGame.OTHELLO if line.startswith("discs") else ClockGame.SHOGI
    state = start(default_rules(game), "R1-T1-G1", ("Ann", "Ben")).state
    with pytest.raises(ClockInputError, match=names):
        step(state, Entered(line))


def test_mahjong_points_must_add_up():
    state = start(default_rules(ClockGame.MAHJONG), "", ("A", "B", "C", "D")).state
    with pytest.raises(ClockInputError, match="do not add up"):
        step(state, Entered("points A=25000 B=25000 C=25000 D=24000"))
