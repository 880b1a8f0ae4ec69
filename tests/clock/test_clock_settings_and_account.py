"""Settings from the event's format (which round is the final, which hanchan has a limit), the
othello per-side reading, and the pure account of the box's clocks that a rebooted box is given back."""
from __future__ import annotations

import pytest

from controller.clock import (
    BoxAccount, BoxAction, ClockGame, ClockRunning, FlagFell, Reading, default_rules, locate, override, start,
    step,
)
from controller.tournament import TournamentStore
from controller.tournament.errors import GameNotDrawnError
from firmware_bridge.protocol import Mode, Phase as BoxPhase, TimerState

from clock_helpers import make_event


def load(db, name):
    with TournamentStore(db) as store:
        return store.load(name)


@pytest.mark.parametrize("game, players, seconds", [
    ("shogi", ["A", "B", "C", "D"], 30 * 60),
    ("shogi", ["A", "B"], 35 * 60),
    ("othello", ["A", "B", "C", "D"], 30 * 60),
    ("othello", ["A", "B"], 40 * 60),
], ids=["shogi-first-round", "shogi-final", "othello-first-round", "othello-final"])
def test_a_knockouts_final_gets_the_longer_time(tmp_path, game, players, seconds):
    db = tmp_path / "t.sqlite"
    make_event(tmp_path, db, "ko", "knockout", players, f"game={game}")
    ref = locate(load(db, "ko"), ClockGame(game), 1, 1)
    assert ref.rules.seconds == seconds and ref.game == "R1-T1-G1" and len(ref.seats) == 2


@pytest.mark.parametrize("fmt, settings, seconds", [
    ("ron-cup", (), 60 * 60), ("health-mahjong", ("hanchan=1",), 50 * 60),
], ids=["ron-cup-qualifier", "health-mahjong"])
def test_a_mahjong_events_hanchan_gets_its_session_limit(tmp_path, fmt, settings, seconds):
    db = tmp_path / "t.sqlite"
    make_event(tmp_path, db, "mj", fmt, [f"P{i}" for i in range(16 if fmt == "ron-cup" else 4)], *settings)
    ref = locate(load(db, "mj"), ClockGame.MAHJONG, 1, 1)
    assert ref.rules.seconds == seconds and ref.rules.reading is Reading.PER_GAME and len(ref.seats) == 4


def test_a_game_not_drawn_is_refused_naming_it(tmp_path):
    db = tmp_path / "t.sqlite"
    make_event(tmp_path, db, "ko", "knockout", ["A", "B", "C", "D"], "game=shogi")
    with pytest.raises(GameNotDrawnError, match="R2-T1-G1"):
        locate(load(db, "ko"), ClockGame.SHOGI, 2, 1)


def test_othello_read_per_side_runs_a_duel_and_the_flag_loses():
    rules = override(default_rules(ClockGame.OTHELLO), reading="per-side")
    first = start(rules, "R1-T1-G1", ("Ann", "Ben"))
    assert (first.commands[0].mode, first.commands[1].seat) == ("DUEL", 1)
    result = step(first.state, FlagFell(2)).result
    assert result.winner == "Ann" and "flag fell" in result.detail


# -- the account -------------------------------------------------------------------------------
def state(mode, phase, seat, left, banks=()):
    return TimerState(mode, 60, phase, seat, left, 0, "b00f", banks)


SHOGI = override(default_rules(ClockGame.SHOGI), seconds=60)
MAHJONG = override(default_rules(ClockGame.MAHJONG), seconds=600)


def test_the_account_follows_the_box_word_presses_and_ticks():
    account = BoxAccount.for_rules(SHOGI).seen(state(Mode.DUEL, BoxPhase.RUNNING, 1, 60000, (60000, 60000)))
    account = account.ticked(1, 58)  # sente's clock just reached 58 s
    account = account.pressed("1", 1, 57400)  # sente hands over at 57.4 s
    assert (account.left, account.seat) == ((57400, 60000), 2)
    account = account.ticked(2, 60).ticked(2, 59)  # the first tick of a run is rounded up: never up
    assert account.left == (57400, 59000)
    assert account.pressed("A", 2, 58800).seat == 2  # the arbiter's button hands nothing over
    idle = TimerState(None, 0, BoxPhase.IDLE, None, 0, 0, "new1", ())
    assert account.seen(idle) == account  # a rebooted box's state is not this game's


def test_the_restore_gives_each_bank_and_the_side_to_move_back():
    account = BoxAccount.for_rules(SHOGI).seen(state(Mode.DUEL, BoxPhase.PAUSED, 2, 41000, (57400, 41000)))
    commands = account.restore_commands()
    assert [(c.action, c.seat, c.ms) for c in commands] == [
        (BoxAction.CONFIGURE, 0, 0), (BoxAction.BANK, 1, 57400), (BoxAction.BANK, 2, 41000),
        (BoxAction.START, 2, 0), (BoxAction.PAUSE, 0, 0)]
    assert (commands[0].mode, commands[0].seconds) == ("DUEL", 60)


def test_a_session_restore_sets_the_session_and_an_expired_one_gives_nothing():
    account = BoxAccount.for_rules(MAHJONG).seen(state(Mode.SESSION, BoxPhase.RUNNING, None, 600000)).ticked(0, 432)
    assert [(c.action, c.seat, c.ms) for c in account.restore_commands()][1:] == [
        (BoxAction.BANK, 0, 432000), (BoxAction.START, 0, 0)]
    assert account.times(("A", "B", "C", "D")) == (("session", 432000),)
    assert account.expired(0).restore_commands() == ()
    assert BoxAccount.for_rules(override(MAHJONG, no_limit=True)) is None  # no box clock, nothing to restore
    assert BoxAccount.for_rules(SHOGI).clock is ClockRunning.NOT_STARTED
    assert BoxAccount.for_rules(SHOGI).restore_commands() == ()
