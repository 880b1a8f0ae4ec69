"""The timer adapter: the firmware bridge's `TimerDriver` as the game flow needs it.

The flow wants few things of the box: a countdown for a seat, to hear when that seat's
button is pressed or the time runs out, a button press at a prompt, and to be told
(never guessed) when the box reset or the cable came out. `open_timer("emulator")`
starts the emulated box as a separate process on a real pty and drives it through
pyserial exactly like a real one.

The adapter keeps its own account of the running seat's time (`TurnAccount`: the box's
word at START, then the host's monotonic clock), so when the box loses its clock (a
reboot, announced or not, or a replug after one) it restores exactly the time the
player has left, not the full turn, and says so as a `clock-restored` incident.
"""
from __future__ import annotations

import collections
import math
import time
from dataclasses import dataclass, replace
from typing import Callable, Protocol

from firmware_bridge import events as box_events
from firmware_bridge.driver import CommandRefused, NoAcknowledgement, TimerDisconnected, TimerDriver
from firmware_bridge.emulator_process import EmulatorProcess
from firmware_bridge.protocol import BridgeError, Mode, Phase, TimerState

from controller.game.events import Incident  # what happened to the box or link; recorded as TimerIncident.incident

from .errors import TimerError, TimerRefusedError
from .signals import SignalKind, TimerSignal  # noqa: F401 - the timer adapter's own words

EMULATOR = "emulator"
# A restore that starts the box later than planned by more than this (box ms) is planned again:
# the player must not gain time because the game loop was busy when the START was due.
RESTORE_SLACK_MS = 150
# How long (host seconds) a wait on the box goes on while no box answers on the port (unplugged,
# powered off, a stopped emulator) before it gives up with a TimerError naming the port.
LINK_GIVE_UP_S = 60.0
# A restore the box could not take (refused, or the session was not back yet) is tried again
# this often (host seconds) for as long as the link is up; a lost link retries on Reconnected.
RESTORE_RETRY_S = 0.5


# A box's reasons for refusing a command (PROTOCOL.md), in the words a referee reads.
REFUSALS = {
    "not-running": "its countdown had already stopped (a button was pressed or the time ran out)",
    "not-paused": "its countdown is not paused",
    "busy": "its countdown is running or paused",
    "not-configured": "no countdown is set on it",
    "expired": "the time has run out",
    "bad-seat": "it has no such seat",
    "bad-args": "it does not take that value",
    "no-session": "it has just restarted and is being set up again",
}


def refusal_words(reason: str) -> str:
    return REFUSALS.get(reason, f"it said {reason!r}")


@dataclass(frozen=True)
class ClockReading:
    """What the box's countdown shows, mirrored to a display (`SerialTimer.mirror`): from the box's
    own signals (its start acknowledgement, ticks, low-time warning, expiry, presses), never made up."""

    seat: int | None  # the running (or last) seat, 1-based
    seconds_left: int | None
    running: bool
    low: bool = False  # the box's low-time warning (LowTime) for this countdown
    expired: bool = False
    paused: bool = False


@dataclass(frozen=True)
class TurnAccount:
    """The controller's own account of a seat's countdown, kept apart from the box.

    Anchored on what the box said (its state in the START acknowledgement, or the time left
    at a press) and then run on the host's monotonic clock, so it survives the box forgetting.
    `rate` is box seconds per host second (the emulator's clock rate; 1 for a real box).
    """

    seat: int
    ms_left: float  # at `since`
    since: float  # time.monotonic()
    running: bool
    rate: float = 1.0

    def left_at(self, now: float) -> float:
        if not self.running:
            return self.ms_left
        return max(0.0, self.ms_left - (now - self.since) * 1000.0 * self.rate)

    def stopped_at(self, now: float, ms_left: float | None = None) -> TurnAccount:
        """Frozen (a press held the clock, or it expired) at `ms_left`, or where it stood at `now`."""
        return replace(self, ms_left=self.left_at(now) if ms_left is None else ms_left, since=now, running=False)


@dataclass(frozen=True)
class PendingStart:
    """A restore waiting for its moment: the box holds `seconds` whole seconds (CONF takes no
    fraction), so START goes out when the account reaches them, at monotonic time `at`.
    `seconds` None: the box did not take the setting; plan again at `at`."""

    seat: int
    seconds: int | None
    at: float
    failed: bool = False  # a failure was reported already: retries stay quiet until one works


def _seconds(ms: float) -> int:
    return max(0, math.ceil(ms / 1000 - 1e-9))


class TurnTimer(Protocol):
    def start_turn(self, seat: int, seconds: int) -> None: ...

    def arm(self, seat: int, seconds: int) -> None:
        """Set a seat's countdown up without starting it: the player starts it with their own button."""
        ...

    def stop(self) -> None: ...

    def show(self, text: str) -> None: ...

    def wait(self, timeout: float) -> TimerSignal | None: ...

    def close(self) -> None: ...


class SerialTimer:
    """A timer box (real or emulated) on a serial port."""

    def __init__(
        self,
        port: str,
        emulator: EmulatorProcess | None = None,
        clock_rate: float = 1.0,
        driver_options: dict | None = None,
        link_give_up: float = LINK_GIVE_UP_S,
    ) -> None:
        if not clock_rate > 0:
            raise TimerError(f"timer clock rate must be > 0, got {clock_rate!r}")
        self.port = port
        self.link_give_up = link_give_up
        self._down_since: float | None = None  # monotonic time the link was found down (None: up)
        self._down_reason = ""
        self.emulator = emulator
        self.clock_rate = clock_rate
        self.driver = TimerDriver(port, **(driver_options or {}))
        self.seat: int | None = None
        self.seconds = 0
        self.account: TurnAccount | None = None  # the running (or last run) seat's time, ours
        self._pending: PendingStart | None = None
        self._queued: collections.deque[TimerSignal] = collections.deque()
        self._text = ""
        self.mirror: Callable[[ClockReading], None] | None = None  # e.g. the web display's countdown
        self._low = False
        try:
            self.driver.open()
        except BridgeError as error:
            if emulator is not None:
                emulator.close()
            raise TimerError(f"timer {port!r}: {error}") from None

    def _command(self, what: str, call, *args):
        """`call`, its failure in plain words: the box's refusal, no answer, or the link gone."""
        try:
            return call(*args)
        except CommandRefused as refused:
            raise TimerRefusedError(f"the box on {self.port!r} would not {what}: {refusal_words(refused.reason)}",
                                    refused.reason) from None
        except NoAcknowledgement:
            raise TimerError(f"the box on {self.port!r} did not answer when told to {what}") from None
        except TimerDisconnected:
            raise TimerError(f"the link to the box on {self.port!r} was lost when telling it to {what}") from None
        except BridgeError as error:
            raise TimerError(f"the box on {self.port!r} could not {what}: {error}") from None

    def start_turn(self, seat: int, seconds: int) -> None:
        self.seat, self.seconds = seat, seconds
        self._forget()
        try:
            self.driver.stop()  # a clock left running (a resumed game, a turn ended by the referee) refuses a new setting
        except BridgeError:
            pass  # a box never configured since power-on has no clock to stop
        self._command(f"set a {seconds} s countdown", self.driver.configure, Mode.TURN, seconds)
        self._start_account(seat)
        self._low = False
        self._show_clock(ClockReading(seat, _seconds(self.account.ms_left), True))

    def _start_account(self, seat: int) -> None:
        sent = time.monotonic()
        state = self._command(f"start seat {seat}'s countdown", self.driver.start, seat)
        # The box started counting between our write and its answer: the middle is within a
        # millisecond or two of the truth, far inside what a player could notice.
        self.account = TurnAccount(seat, float(state.ms_left), (sent + time.monotonic()) / 2, True, self.clock_rate)

    def _show_clock(self, reading: ClockReading) -> None:
        if self.mirror is not None:
            self.mirror(reading)

    def pause(self) -> None:
        """The referee pauses the running countdown (the box holds it; our account stops with it)."""
        account = self.account
        if account is None or not account.running:
            raise TimerError(f"the box on {self.port!r} has no running countdown to pause")
        state = self._command("pause", self.driver.pause)
        self.account = account.stopped_at(time.monotonic(), float(state.ms_left))
        self._pending = None
        self._show_clock(ClockReading(account.seat, _seconds(state.ms_left), False, self._low, paused=True))

    def resume(self) -> None:
        account = self.account
        if account is None or account.running:
            raise TimerError(f"the box on {self.port!r} has no paused countdown to resume")
        sent = time.monotonic()
        state = self._command("resume", self.driver.resume)
        self.account = TurnAccount(account.seat, float(state.ms_left), (sent + time.monotonic()) / 2, True,
                                   self.clock_rate)
        self._show_clock(ClockReading(account.seat, _seconds(state.ms_left), True, self._low))

    def extend(self, seconds: int) -> None:
        """The referee gives the running seat `seconds` more: the box counts on from its time left plus them."""
        account = self.account
        if account is None or not account.running:
            raise TimerError(f"the box on {self.port!r} has no running countdown to extend")
        # held first: a countdown that stopped meanwhile (a press on its way) is refused, not started again
        held = self._command(f"give {seconds} s more", self.driver.pause)
        self.start_turn(account.seat, _seconds(held.ms_left) + seconds)

    def arm(self, seat: int, seconds: int) -> None:
        self.seat, self.seconds = None, seconds  # nothing runs: a reset has no clock to restart
        self._forget()
        try:
            self.driver.stop()
        except BridgeError:
            pass  # a box never configured since power-on has no clock to stop
        self._command(f"set a {seconds} s countdown", self.driver.configure, Mode.TURN, seconds)
        self._low = False
        self._show_clock(ClockReading(seat, seconds, False))

    def _forget(self) -> None:
        """Forget ticks and presses from before this countdown (a press belongs to its turn)."""
        self.account, self._pending = None, None
        self._queued.clear()
        while self.driver.next_event(timeout=0) is not None:
            pass

    def stop(self) -> None:
        account = self.account
        self.account, self._pending = None, None
        self._command("stop", self.driver.stop)
        self._show_clock(ClockReading(account.seat if account else None, None, False))

    def show(self, text: str) -> None:
        self._text = text[:16]
        try:
            self.driver.show(self._text)
        except BridgeError:
            pass  # the display is a courtesy; a missed text must not stop the game

    def seconds_left(self) -> float | None:
        """What the controller's own account says the running seat has left (None: no countdown)."""
        return None if self.account is None else self.account.left_at(time.monotonic()) / 1000

    def wait(self, timeout: float) -> TimerSignal | None:
        """The next signal that matters to the game, or None when `timeout` passes. A TimerError naming
        the port when no box has answered on it for `link_give_up` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            if self._queued:
                return self._queued.popleft()
            now = time.monotonic()
            self._check_link(now)
            if self._pending is not None and now >= self._pending.at:
                self._queued.extend(self._start_pending())
                continue
            remaining = deadline - now
            if remaining <= 0:
                # a poll (timeout 0) still takes what the box has sent already: a press waiting there
                event = self.driver.next_event(timeout=0)
                if event is None:
                    return None
                self._queued.extend(self._signals(event))
                continue
            if self._pending is not None:
                remaining = min(remaining, max(0.0, self._pending.at - now))
            event = self.driver.next_event(timeout=remaining)
            if event is not None:
                self._queued.extend(self._signals(event))

    def _check_link(self, now: float) -> None:
        if self.driver.connected:
            self._down_since = None
            return
        if self._down_since is None:
            self._down_since = now
        elif now - self._down_since > self.link_give_up:
            raise TimerError(f"timer {self.port!r}: no box has answered for {now - self._down_since:.0f} s "
                             f"({self._down_reason or 'link down'}); check the cable, the power and the port, "
                             f"then continue with --resume")

    # -- box events to game signals ----------------------------------------------------
    def _incident(self, incident: Incident, detail: str, **fields) -> TimerSignal:
        # The kind travels apart (recorded as TimerIncident.incident): the detail does not repeat it.
        return TimerSignal(SignalKind.INCIDENT, detail=detail, incident=incident, **fields)

    def _signals(self, event) -> list[TimerSignal]:
        if isinstance(event, box_events.ButtonPressed):
            return [self._pressed(event)]
        if isinstance(event, box_events.Tick):
            self._show_clock(ClockReading(event.seat, event.seconds_left, True, self._low))
            return []
        if isinstance(event, box_events.LowTime):
            self._low = True
            self._show_clock(ClockReading(event.seat, event.seconds_left, True, True))
            return []
        if isinstance(event, box_events.Expired):
            if self.account is not None and self.account.seat == event.seat:
                self.account = self.account.stopped_at(time.monotonic(), 0.0)
            self._show_clock(ClockReading(event.seat, 0, False, self._low, expired=True))
            return [TimerSignal(SignalKind.EXPIRED, None, event.seat, 0)]
        if isinstance(event, box_events.DeviceReset):
            return self._restore(Incident.DEVICE_RESET, f"the box rebooted ({event.reason}, boot {event.boot_id}); "
                                 "its clock was lost")
        if isinstance(event, box_events.Disconnected):
            self._down_reason = event.reason
            return [self._incident(Incident.DISCONNECTED, event.reason)]
        if isinstance(event, box_events.Reconnected):
            if event.rebooted:
                return self._restore(Incident.RECONNECTED, f"the box came back after a reboot (boot "
                                     f"{event.state.boot_id}); its clock was lost")
            return self._reconcile(event.state, Incident.RECONNECTED, "the box came back")
        if isinstance(event, box_events.EventsLost):
            return [self._incident(Incident.FRAMES_LOST, f"frames lost from the box "
                                   f"({event.expected_seq}->{event.received_seq}); asking the box its state")]
        if isinstance(event, box_events.StateChecked):
            return self._reconcile(event.state, None, event.cause)
        if isinstance(event, box_events.ReplayedPress):
            return [self._incident(Incident.LINK_NOISE, event.detail, button=event.button)]
        return []  # ticks, low-time warnings, line noise: nothing for the game

    def _pressed(self, event: box_events.ButtonPressed) -> TimerSignal:
        account = self.account
        ms_left = event.ms_left
        if account is not None and account.running and event.seat == account.seat:
            if event.running_seat != account.seat:
                # The box was not running this seat (a restore waits for its moment): the
                # player's time is what our account says, not what the idle box shows.
                ms_left = round(account.left_at(event.received_at))
                self._pending = None
            self.account = account.stopped_at(event.received_at, ms_left)
            self._show_clock(ClockReading(event.seat, _seconds(ms_left), False, self._low))
        return TimerSignal(SignalKind.PRESSED, event.button, event.seat, _seconds(ms_left))

    def _reconcile(self, state: TimerState, incident: Incident | None, cause: str) -> list[TimerSignal]:
        """Compares the box's state (same boot) with our account after a gap or a replug."""
        account = self.account
        if account is None or not account.running:
            return [self._incident(incident, f"{cause}; no countdown of ours was running")] if incident else []
        if not (state.phase is Phase.RUNNING and state.seat == account.seat):
            # The state may predate what we did since (a handshake reads it before a restore of
            # ours is configured or started): act on the box's word of now, not of then.
            try:
                state = self.driver.state()
            except BridgeError:
                pass
        ours = state.mode is Mode.TURN and state.seat == account.seat
        if ours and state.phase is Phase.RUNNING:
            said = f"{cause}; the clock kept running (box {state.ms_left / 1000:.1f} s, " \
                   f"account {account.left_at(time.monotonic()) / 1000:.1f} s)"
            return [self._incident(incident, said)] if incident else []
        if ours and state.phase is Phase.EXPIRED:
            # The EXP frame was lost but the box's own state says it expired: not invented, recovered.
            self.account = account.stopped_at(time.monotonic(), 0.0)
            return [self._incident(Incident.STATE_RECOVERED, f"{cause}; seat {account.seat}'s expiry frame was "
                                   "lost, the box's state says it expired", seat=account.seat),
                    TimerSignal(SignalKind.EXPIRED, None, account.seat, 0)]
        if ours and state.phase is Phase.HELD:
            # In TURN mode only the running seat's own button holds the clock: its BTN frame was lost.
            self.account = account.stopped_at(time.monotonic(), float(state.ms_left))
            return [self._incident(Incident.STATE_RECOVERED, f"{cause}; seat {account.seat}'s button frame was "
                                   f"lost, the box's state says it was pressed with {state.ms_left} ms left",
                                   seat=account.seat),
                    TimerSignal(SignalKind.PRESSED, str(account.seat), account.seat, _seconds(state.ms_left))]
        pending = self._pending
        if pending is not None and state.phase is Phase.READY and state.seconds == pending.seconds:
            said = f"{cause}; the restore of seat {account.seat} is set and waits for its moment"
            return [self._incident(incident, said)] if incident else []
        return self._restore(incident or Incident.CLOCK_RESTORED,
                             f"{cause}; the box is {state.phase.value} (seat {state.seat or '-'}), its clock was lost")

    # -- restoring the running seat's time ---------------------------------------------
    def _restore(self, what: Incident, detail: str) -> list[TimerSignal]:
        """Give the running seat back exactly the time our account says it has (not the full turn)."""
        account = self.account
        if account is None or not account.running:
            incident = Incident.DEVICE_RESET if what is Incident.CLOCK_RESTORED else what
            return [self._incident(incident, f"{detail}; no countdown of ours was running")]
        planned = self._plan(account)
        if isinstance(planned, TimerSignal):
            return [planned]
        left = account.left_at(time.monotonic())
        tag = "" if what is Incident.CLOCK_RESTORED else f" [{what.value}]"
        signals = [self._incident(
            Incident.CLOCK_RESTORED,
            f"{detail}{tag}; seat {account.seat} restored to {left / 1000:.1f} s from the controller's "
            f"account (the box counts on from {planned.seconds} s)",
            seat=account.seat, seconds_left=_seconds(left),
        )]  # fmt: skip
        if time.monotonic() >= planned.at:
            signals += self._start_pending()
        return signals

    def _plan(self, account: TurnAccount) -> PendingStart | TimerSignal:
        """Configures the box with the account's whole seconds; START is due when the account reaches them."""
        for _ in range(3):  # a command that waited for the link may leave the seconds out of date: again
            now = time.monotonic()
            left = account.left_at(now)
            # At least one second: when the time ran out while the box was away, the box itself
            # expires a second later, so the expiry still comes from the box and is never made up.
            seconds = max(1, int(left // 1000))
            try:
                try:
                    self.driver.stop()
                except BridgeError:
                    pass  # an unconfigured box has no clock to stop
                self.driver.configure(Mode.TURN, seconds)
            except BridgeError as error:
                self._pending = PendingStart(account.seat, None, time.monotonic() + RESTORE_RETRY_S, failed=True)
                return self._incident(Incident.RESTORE_FAILED, f"seat {account.seat}: could not configure "
                                      f"{seconds} s: {error}; trying again", seat=account.seat)
            if account.left_at(time.monotonic()) >= seconds * 1000 - RESTORE_SLACK_MS:
                break
        self._pending = PendingStart(account.seat, seconds, now + max(0.0, left - seconds * 1000) / 1000 / account.rate)
        if self._text:
            self.show(self._text)  # a rebooted box lost its text too
        return self._pending

    def _start_pending(self) -> list[TimerSignal]:
        pending, self._pending = self._pending, None
        account = self.account
        if pending is None or account is None or not account.running or account.seat != pending.seat:
            return []
        if pending.seconds is None:  # the box did not take the setting: try again, without blocking on a dead link
            if not self.driver.connected:
                self._pending = replace(pending, at=time.monotonic() + RESTORE_RETRY_S)
                return []
            planned = self._plan(account)
            if isinstance(planned, TimerSignal):
                return []  # reported at the first failure; the retry is armed again
            left = account.left_at(time.monotonic())
            return [self._incident(Incident.CLOCK_RESTORED, f"seat {account.seat} restored to {left / 1000:.1f} s "
                                   f"from the controller's account on a retry (the box counts on from "
                                   f"{planned.seconds} s)", seat=account.seat, seconds_left=_seconds(left))]
        late = pending.seconds * 1000 - account.left_at(time.monotonic())
        if late > RESTORE_SLACK_MS:
            planned = self._plan(account)  # the loop was busy: configure the seconds due now
            return [planned] if isinstance(planned, TimerSignal) and not pending.failed else []
        try:
            self.driver.start(pending.seat)
        except BridgeError as error:
            self._pending = PendingStart(pending.seat, None, time.monotonic() + RESTORE_RETRY_S, failed=True)
            if pending.failed:
                return []
            return [self._incident(Incident.RESTORE_FAILED, f"seat {pending.seat}: START after the restore failed: "
                                   f"{error}; trying again", seat=pending.seat)]
        return []

    def close(self) -> None:
        try:
            self.driver.close()
        finally:
            if self.emulator is not None:
                self.emulator.close()


def open_timer(spec: str, clock_rate: float = 1.0) -> SerialTimer:
    """A serial port path, or `emulator` for the emulated box on its own pty."""
    if spec == EMULATOR:
        try:
            emulator = EmulatorProcess(clock_rate=clock_rate).start()
        except BridgeError as error:
            raise TimerError(f"the timer emulator did not start: {error}") from None
        return SerialTimer(emulator.port, emulator, clock_rate)
    # A port may be an emulator started elsewhere: its clock rate keeps our account in step.
    return SerialTimer(spec, clock_rate=clock_rate)
