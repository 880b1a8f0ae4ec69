"""The driver's protocol state without a port: lines in, events and what the link must do out."""
from __future__ import annotations

import pytest

from firmware_bridge.box_protocol import Answer, BoxProtocol, CheckState, Recover
from firmware_bridge.events import (
    ButtonPressed,
    DeviceReset,
    Disconnected,
    EventsLost,
    LinkNoise,
    Reconnected,
    ReplayedPress,
    StateChecked,
    Tick,
)
from firmware_bridge.protocol import Direction, Frame, Mode, Phase, PressId, TimerState, Verb, format_frame

CONFIGURED = TimerState(Mode.TURN, 60, Phase.HELD, 1, 60_000, 10, "b1", presses=3)


def line(seq: int, verb: Verb, *args: str) -> bytes:
    return format_frame(Frame(Direction.EVENT, seq, verb, args))


@pytest.fixture
def box() -> BoxProtocol:
    box = BoxProtocol()
    box.handshake_state(CONFIGURED)
    box.state_answer(Frame(Direction.EVENT, 1, Verb.ACK, ("1", *CONFIGURED.to_args())))
    box.opened(CONFIGURED)
    assert box.receive(line(1, Verb.HEARTBEAT, "HELD"), 0.0) == []
    return box


def test_a_tick_is_told_and_runs_the_known_clock(box):
    assert box.receive(line(2, Verb.TICK, "2", "41"), 5.0) == [Tick(2, 41)]
    assert (box.last_known.phase, box.last_known.seat, box.last_known.ms_left) == (Phase.RUNNING, 2, 41_000)


def test_a_line_in_two_reads_is_one_frame(box):
    whole = line(2, Verb.TICK, "1", "9")
    assert box.receive(whole[:5], 1.0) == []
    assert box.receive(whole[5:], 1.0) == [Tick(1, 9)]


def test_a_gap_is_told_and_the_box_is_asked_its_state(box):
    out = box.receive(line(5, Verb.TICK, "1", "30"), 1.0)
    assert out[:2] == [EventsLost(2, 5), CheckState(out[1].cause)] and out[2:] == [Tick(1, 30)]
    assert "expected sequence number 2, got 5" in out[1].cause


def test_a_gap_during_a_handshake_asks_nothing(box):
    box.recover("reconnect")
    assert box.receive(line(5, Verb.TICK, "1", "30"), 1.0) == [EventsLost(2, 5), Tick(1, 30)]


def test_the_answer_goes_to_the_command_that_waits_for_it_only(box):
    sent = box.command(Verb.STATE)
    seq = box.pending_seq
    assert sent.startswith(f">{seq} STATE".encode())
    assert box.receive(line(2, Verb.ACK, str(seq + 1), *CONFIGURED.to_args()), 1.0) == []  # not ours
    out = box.receive(line(3, Verb.ACK, str(seq), *CONFIGURED.to_args()), 1.0)
    assert len(out) == 1 and isinstance(out[0], Answer) and out[0].frame.args[0] == str(seq)
    box.command_done()
    assert box.receive(line(4, Verb.ACK, str(seq), *CONFIGURED.to_args()), 1.0) == []  # too late: nobody waits


def test_a_press_is_told_once_and_its_replay_dropped(box):
    press = line(2, Verb.BUTTON, "1", "1", "5000", "boot=b1", "press=4")
    assert box.receive(press, 2.0) == [ButtonPressed("1", 1, 5000, 2.0, PressId("b1", 4))]
    out = box.receive(line(3, Verb.BUTTON, "1", "1", "5000", "boot=b1", "press=4"), 3.0)
    assert len(out) == 1 and isinstance(out[0], ReplayedPress) and out[0].newest == PressId("b1", 4)


def test_a_press_the_box_counted_before_the_handshake_is_a_replay(box):
    out = box.receive(line(2, Verb.BUTTON, "2", "1", "5000", "boot=b1", "press=3"), 2.0)
    assert len(out) == 1 and isinstance(out[0], ReplayedPress)


def test_a_reset_is_told_and_the_link_waits_for_a_new_handshake(box):
    out = box.receive(line(7, Verb.RESET, "watchdog", "b2"), 1.0)
    assert out == [DeviceReset("watchdog", "b2", CONFIGURED), Recover("reset", CONFIGURED)]
    assert not box.connected
    fresh = TimerState(None, 0, Phase.IDLE, None, 0, 0, "b2")
    assert box.recovered(fresh, "reset", CONFIGURED) == [] and box.connected


def test_an_old_tick_is_dropped_and_the_box_asked(box):
    box.receive(line(9, Verb.TICK, "1", "30"), 1.0)
    out = box.receive(line(8, Verb.TICK, "1", "31"), 1.0)
    assert [type(o) for o in out] == [CheckState, LinkNoise] and out[1].detail.startswith("dropped: ")


def test_a_checked_state_of_another_boot_is_a_lost_reset(box):
    rebooted = TimerState(None, 0, Phase.IDLE, None, 0, 0, "b9")
    assert box.checked(rebooted, "gap", CONFIGURED) == [Recover("unannounced", CONFIGURED)]
    assert box.boot_id == "b9" and not box.connected
    assert box.recovered(rebooted, "unannounced", CONFIGURED) == [DeviceReset("unannounced", "b9", CONFIGURED)]


def test_a_checked_state_of_the_same_boot_is_told(box):
    assert box.checked(CONFIGURED, "gap", None) == [StateChecked("gap", CONFIGURED, None)]


def test_a_lost_link_is_told_once_and_a_reopened_one_says_it_is_back(box):
    assert box.link_lost("cable out", closing=False) == [Disconnected("cable out", CONFIGURED)]
    assert box.link_lost("still out", closing=False) == []
    assert box.reopened() == [Recover("reconnect", CONFIGURED)]
    assert box.recovered(CONFIGURED, "reconnect", CONFIGURED) == [Reconnected(CONFIGURED, False)]
    assert box.receive(line(1, Verb.TICK, "1", "20"), 1.0) == [Tick(1, 20)]  # the box's count starts afresh


def test_noise_without_a_newline_is_dropped_past_the_limit(box):
    out = box.receive(b"x" * 5000, 1.0)
    assert len(out) == 1 and isinstance(out[0], LinkNoise) and "5000 bytes without a newline" in out[0].detail
