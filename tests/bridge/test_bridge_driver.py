"""The driver against the emulated box: a separate process, a real pty, real pyserial."""
from __future__ import annotations

import os
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridge_helpers import FAST, wait_for
from firmware_bridge.driver import (
    CommandRefused,
    InvalidCommand,
    NoAcknowledgement,
    PortUnavailable,
    TimerDisconnected,
    TimerDriver,
    TimerUnavailable,
)
from firmware_bridge.emulator_process import EmulatorProcess
from firmware_bridge.events import (
    ButtonPressed,
    DeviceReset,
    Disconnected,
    Expired,
    LinkNoise,
    LowTime,
    Reconnected,
    Tick,
)
from firmware_bridge.protocol import Mode, Phase


def test_handshake_identifies_the_box(box, timer):
    identity = timer.identify()
    assert identity.model == "tileref-emu"
    assert identity.buttons == ("1", "2", "3", "4", "A")
    assert timer.state().boot_id == identity.boot_id
    assert os.path.realpath(box.port) == box.pty_path


def test_a_turn_ends_with_the_players_button(box, timer):
    timer.configure(Mode.TURN, 60)
    state = timer.start(seat=3)
    assert (state.phase, state.seat, state.ms_left) == (Phase.RUNNING, 3, 60_000)
    # the first tick comes as the clock starts; press once the turn's time has visibly run
    wait_for(timer, Tick, accept=lambda e: e.seat == 3 and e.seconds_left < 60)
    box.press("3")
    pressed, _ = wait_for(timer, ButtonPressed)
    assert (pressed.button, pressed.seat, pressed.running_seat) == ("3", 3, 3)
    assert 0 < pressed.ms_left < 60_000
    held = timer.state()
    assert held.phase is Phase.HELD and held.ms_left == pressed.ms_left


def test_a_turn_expires_with_a_warning_first(timer):
    timer.configure(Mode.TURN, 3)
    timer.warn_at(1)
    timer.start(seat=1)
    expired, seen = wait_for(timer, Expired, timeout=3 / FAST + 2)
    assert expired.seat == 1
    ticks = [e.seconds_left for e in seen if isinstance(e, Tick)]
    assert ticks == [3, 2, 1]
    assert [e for e in seen if isinstance(e, LowTime)] == [LowTime(1, 1)]
    assert timer.state().phase is Phase.EXPIRED


def test_the_arbiter_button_is_reported_and_changes_nothing(box, timer):
    timer.configure(Mode.TURN, 600)
    timer.start(seat=2)
    box.press("A")
    pressed, _ = wait_for(timer, ButtonPressed)
    assert (pressed.button, pressed.seat, pressed.running_seat) == ("A", None, 2)
    assert timer.state().phase is Phase.RUNNING


def test_pause_holds_the_clock_and_resume_continues(timer):
    timer.configure(Mode.TURN, 60)
    timer.start(seat=1)
    paused = timer.pause()
    time.sleep(0.2)  # four device seconds
    assert timer.state().ms_left == paused.ms_left
    resumed = timer.resume()
    assert resumed.phase is Phase.RUNNING and resumed.ms_left == paused.ms_left
    with pytest.raises(CommandRefused, match="not-paused") as refused:
        timer.resume()
    assert refused.value.reason == "not-paused"


def test_duel_clock_hands_over_on_the_running_sides_button(box, timer):
    timer.configure(Mode.DUEL, 1800)
    timer.start(seat=1)
    # the first tick comes as the clock starts; press once seat 1's time has visibly run
    wait_for(timer, Tick, accept=lambda e: e.seat == 1 and e.seconds_left < 1800)
    box.press("1")
    wait_for(timer, ButtonPressed)
    wait_for(timer, Tick, accept=lambda e: e.seat == 2)
    state = timer.state()
    assert state.seat == 2 and state.banks[0] < 1_800_000 and state.banks[1] <= 1_800_000


def test_refusals_carry_the_boxs_reason(timer):
    with pytest.raises(CommandRefused, match="not-configured"):
        timer.start(seat=1)
    timer.configure(Mode.SESSION, 3600)
    with pytest.raises(CommandRefused, match="bad-seat"):
        timer.start(seat=7)
    with pytest.raises(CommandRefused, match="too-long"):
        timer.show("x" * 17)
    timer.show("Table 4")
    timer.beep(100)


def test_unplug_and_replug_is_reported_and_nothing_is_invented(box, timer):
    timer.configure(Mode.TURN, 600)
    timer.start(seat=2)
    box.kill()
    disconnected, _ = wait_for(timer, Disconnected)
    assert disconnected.last_known.phase is Phase.RUNNING and disconnected.last_known.seat == 2
    with pytest.raises(TimerDisconnected):
        timer.start(seat=3)
    box.restart()
    reconnected, seen = wait_for(timer, Reconnected, timeout=5)
    assert reconnected.rebooted  # a new process is a box that powered up again
    assert reconnected.state.phase is Phase.IDLE and reconnected.state.mode is None
    assert not [e for e in seen if isinstance(e, (ButtonPressed, Expired))]
    timer.configure(Mode.TURN, 60)
    assert timer.start(seat=3).seat == 3


def test_a_box_reset_mid_turn_is_reported_with_what_was_running(box, timer):
    timer.configure(Mode.TURN, 600)
    timer.start(seat=4)
    wait_for(timer, Tick)
    box.reset("watchdog")
    reset, seen = wait_for(timer, DeviceReset)
    assert reset.reason == "watchdog"
    assert reset.last_known.seat == 4 and reset.last_known.phase is Phase.RUNNING
    assert not [e for e in seen if isinstance(e, (ButtonPressed, Expired))]
    deadline = time.monotonic() + 2
    while not timer.connected and time.monotonic() < deadline:
        time.sleep(0.01)
    state = timer.state()  # the driver re-opened the session by itself
    assert state.phase is Phase.IDLE and state.boot_id == reset.boot_id
    timer.configure(Mode.TURN, 600)
    assert timer.start(seat=4).phase is Phase.RUNNING


def test_garbled_and_cut_lines_from_the_box_never_stop_the_driver(box, timer):
    timer.configure(Mode.TURN, 600)
    box.send_noise(b"\x00\xffgarbage\n")
    box.send_noise(b"<12 TICK 1 5")  # a cut line: the next frame is glued to it
    box.press("2")
    pressed, seen = wait_for(timer, ButtonPressed)
    assert pressed.button == "2"
    noise = [e for e in seen if isinstance(e, LinkNoise)]
    assert len(noise) == 2 and "not printable" in noise[0].detail
    assert timer.state().mode is Mode.TURN


def test_a_silent_box_is_reported_then_recovered_without_a_reboot(box, timer):
    timer.configure(Mode.TURN, 600)
    box.hang(0.8)  # the silence limit is 3 heartbeats of 100 ms
    disconnected, _ = wait_for(timer, Disconnected)
    assert "no frame from the box" in disconnected.reason
    reconnected, _ = wait_for(timer, Reconnected, timeout=5)
    assert not reconnected.rebooted and reconnected.state.mode is Mode.TURN


def test_opening_a_missing_port_is_a_clear_error(tmp_path):
    with pytest.raises(PortUnavailable, match="cannot open timer port"):
        TimerDriver(str(tmp_path / "no-such-box")).open()


def test_a_port_where_nothing_answers_is_unavailable():
    controller, device = os.openpty()
    try:
        driver = TimerDriver(os.ttyname(device), ack_timeout=0.05, retries=1, open_timeout=0.3)
        with pytest.raises(TimerUnavailable, match="no timer box answers"):
            driver.open()
    finally:
        os.close(controller)
        os.close(device)


def test_a_reset_whose_announcement_was_lost_is_found_by_the_next_command(box, timer):
    timer.configure(Mode.TURN, 600)
    timer.start(seat=1)
    box.reset("power", announce=False)
    time.sleep(0.1)
    with pytest.raises(CommandRefused, match="no-session"):
        timer.pause()
    reset, seen = wait_for(timer, DeviceReset)
    assert reset.reason == "unannounced" and reset.last_known.seat == 1
    assert not [e for e in seen if isinstance(e, (ButtonPressed, Expired))]
    assert timer.wait_connected(2.0)
    assert timer.state().boot_id == reset.boot_id and timer.state().phase is Phase.IDLE


def test_a_second_program_on_the_same_box_is_refused_clearly(box, timer):
    with pytest.raises(PortUnavailable, match="exclusively lock"):
        TimerDriver(box.port).open()
    assert timer.state().boot_id  # the first driver is unharmed


@pytest.fixture(scope="module")
def shared_timer():
    with EmulatorProcess(clock_rate=FAST) as process:
        with TimerDriver(process.port, heartbeat_ms=100, ack_timeout=0.2) as driver:
            yield process, driver


@given(noise=st.binary(max_size=80))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_noise_from_the_box_is_reported_and_the_next_press_still_arrives(shared_timer, noise):
    box, timer = shared_timer
    while timer.next_event(0) is not None:
        pass
    box.send_noise(noise + b"\n")
    box.press("A")
    pressed, seen = wait_for(timer, ButtonPressed)
    assert pressed.button == "A"
    assert not [e for e in seen if isinstance(e, (Expired, Disconnected))]
    assert timer.connected


def test_nonsense_arguments_are_refused_before_they_reach_the_wire(timer):
    with pytest.raises(InvalidCommand, match="unknown timer mode 'BLITZ'"):
        timer.configure("BLITZ", 60)
    with pytest.raises(InvalidCommand, match="seat must be a whole number >= 0, got '1'"):
        timer.start("1")
    assert timer.configure("DUEL", 1800).mode is Mode.DUEL


def test_a_lost_command_is_retried_and_done_once(box, timer):
    timer.configure(Mode.TURN, 600)
    timer.start(seat=1)
    box.hang(0.35)  # the box drops what arrives meanwhile, like an overrun UART
    time.sleep(0.05)
    started = time.monotonic()
    paused = timer.pause()  # first tries are lost; a retry after the hang gets through
    assert time.monotonic() - started >= 0.25
    assert paused.phase is Phase.PAUSED
    assert timer.state().phase is Phase.PAUSED


def test_a_box_that_never_answers_gives_no_acknowledgement(box):
    with TimerDriver(box.port, ack_timeout=0.1, retries=2, silence_limit=10) as patient:
        box.hang(1.0)
        time.sleep(0.05)
        with pytest.raises(NoAcknowledgement, match=r"no answer to '>\d+ STATE \*[0-9A-F]{4}\\n' after 3 tries"):
            patient.state()


def test_closing_waits_for_a_write_under_way_and_a_later_command_is_a_clear_error(box, timer):
    """A port closed in the middle of pyserial's write made the writing thread die with a TypeError
    (seen on CI, a state check racing the close); closing now waits for the write to end."""
    port = timer._serial
    order, entered = [], threading.Event()
    real_write, real_close = port.write, port.close

    def slow_write(data):
        order.append("write begins")
        entered.set()
        time.sleep(0.3)
        order.append("write ends")
        return real_write(data)

    def close():
        order.append("port closed")
        real_close()

    port.write, port.close = slow_write, close
    outcome = []
    asking = threading.Thread(target=lambda: outcome.append(_state_or_error(timer)))
    asking.start()
    assert entered.wait(2)
    timer.close()
    asking.join(3)
    assert order[:3] == ["write begins", "write ends", "port closed"]
    assert not asking.is_alive() and isinstance(outcome[0], TimerDisconnected | NoAcknowledgement)
    with pytest.raises(TimerDisconnected, match="not connected"):
        timer.state()


def _state_or_error(timer):
    try:
        return timer.state()
    except (TimerDisconnected, NoAcknowledgement) as error:
        return error
