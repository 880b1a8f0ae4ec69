"""`tileref clock` waits for a box whose link went: it says what it waits for and on which port, takes
the box back when it answers again, and gives up naming the port once it has waited LINK_GIVE_UP_S."""
from __future__ import annotations

import io

import pytest

from controller.clock import ClockError, ClockGame, default_rules, start
from controller.clock.journal import ClockJournal
from controller.commands.clock import LINK_GIVE_UP_S, ClockRun
from controller.game.events import GameCreated
from controller.records import Records
from firmware_bridge import events as box
from firmware_bridge.protocol import Mode, Phase, TimerState

PORT = "/dev/ttyACM9"


class UnpluggedDriver:
    """The box as the clock sees it after `open()`: only its link comes and goes."""

    port = PORT
    connected = True


def clock_run(tmp_path):
    rules = default_rules(ClockGame.SHOGI)
    first = start(rules, "", ("Ann", "Ben"))
    records = Records(tmp_path / "clock.sqlite")
    journal = ClockJournal.start(records, GameCreated(variant="clock-shogi", players=("Ann", "Ben"),
                                                      turn_seconds=rules.seconds or 0, ruleset=rules.pairs()))
    out = io.StringIO()
    return ClockRun(UnpluggedDriver(), journal, first.state, out=out), records, out


def test_a_box_gone_past_the_limit_ends_the_clock_naming_the_port(tmp_path, monkeypatch):
    run, records, out = clock_run(tmp_path)
    now = 1000.0
    monkeypatch.setattr("controller.commands.clock.time.monotonic", lambda: now)
    run.driver.connected = False
    run.box_event(box.Disconnected("no frame from the box for 3.0 s", None))
    assert f"waiting for the timer box on {PORT!r} to answer again (giving up after 60 s" in out.getvalue()
    run.housekeeping()  # just gone: it waits
    now += LINK_GIVE_UP_S - 1
    run.housekeeping()
    now += 2
    with pytest.raises(ClockError, match=f"timer {PORT!r}: no box has answered for 61 s") as raised:
        run.housekeeping()
    assert "no frame from the box" in str(raised.value)
    with records:
        facts = [e.detail for e in records.events(run.journal.game_no)[1:]]
        state = records.games()[-1][2]
    assert facts[-1].startswith(f"gave up waiting for the box on {PORT}") and state == "clock"


def test_a_box_back_within_the_limit_carries_on(tmp_path, monkeypatch):
    run, records, out = clock_run(tmp_path)
    now = 1000.0
    monkeypatch.setattr("controller.commands.clock.time.monotonic", lambda: now)
    run.driver.connected = False
    run.box_event(box.Disconnected("cable out", None))
    now += LINK_GIVE_UP_S - 5
    run.housekeeping()
    run.driver.connected = True
    back = TimerState(Mode.DUEL, 600, Phase.IDLE, None, 0, 0, "boot-1")
    run.box_event(box.Reconnected(back, rebooted=False))
    now += LINK_GIVE_UP_S * 3
    run.housekeeping()  # the link is up: nothing to give up on
    assert f"timer box on {PORT!r} answers again" in out.getvalue()
    records.close()
