"""The timer adapter: the firmware bridge's `TimerDriver` as the game flow needs it.

The flow wants few things of the box: a countdown for a seat, to hear when that seat's
button is pressed or the time runs out, a button press at a prompt, and to be told
(never guessed) when the box reset or the cable came out. `open_timer("emulator")`
starts the emulated box as a separate process on a real pty and drives it through
pyserial exactly like a real one.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from firmware_bridge import events as box_events
from firmware_bridge.driver import TimerDriver
from firmware_bridge.emulator_process import EmulatorProcess
from firmware_bridge.protocol import BridgeError, Mode, Phase

from .errors import TimerError

EMULATOR = "emulator"


@dataclass(frozen=True)
class TimerSignal:
    kind: str  # "pressed" | "expired" | "incident"
    button: str | None = None
    seat: int | None = None  # 1-based seat the signal belongs to
    seconds_left: int | None = None
    detail: str = ""


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

    def __init__(self, port: str, emulator: EmulatorProcess | None = None) -> None:
        self.port = port
        self.emulator = emulator
        self.driver = TimerDriver(port)
        self.seat: int | None = None
        self.seconds = 0
        try:
            self.driver.open()
        except BridgeError as error:
            if emulator is not None:
                emulator.close()
            raise TimerError(f"timer {port!r}: {error}") from None

    def _command(self, what: str, call, *args):
        try:
            return call(*args)
        except BridgeError as error:
            raise TimerError(f"timer {self.port!r} refused {what}: {error}") from None

    def start_turn(self, seat: int, seconds: int) -> None:
        self.seat, self.seconds = seat, seconds
        self._drain()
        try:
            self.driver.stop()  # a clock left running (a resumed game, a turn ended by the referee) refuses a new setting
        except BridgeError:
            pass  # a box never configured since power-on has no clock to stop
        self._command("configure", self.driver.configure, Mode.TURN, seconds)
        self._command("start", self.driver.start, seat)

    def arm(self, seat: int, seconds: int) -> None:
        self.seat, self.seconds = None, seconds  # nothing runs: a reset has no clock to restart
        self._drain()
        try:
            self.driver.stop()
        except BridgeError:
            pass  # a box never configured since power-on has no clock to stop
        self._command("configure", self.driver.configure, Mode.TURN, seconds)

    def _drain(self) -> None:
        """Forget ticks and presses from before this countdown (a press belongs to its turn)."""
        while self.driver.next_event(timeout=0) is not None:
            pass

    def stop(self) -> None:
        self._command("stop", self.driver.stop)

    def show(self, text: str) -> None:
        try:
            self.driver.show(text[:16])
        except BridgeError:
            pass  # the display is a courtesy; a missed text must not stop the game

    def wait(self, timeout: float) -> TimerSignal | None:
        """The next signal that matters to the game, or None when `timeout` passes."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            event = self.driver.next_event(timeout=remaining)
            if event is None:
                return None
            signal = self._signal(event)
            if signal is not None:
                return signal

    def _signal(self, event) -> TimerSignal | None:
        if isinstance(event, box_events.ButtonPressed):
            return TimerSignal("pressed", event.button, event.seat, -(-event.ms_left // 1000))
        if isinstance(event, box_events.Expired):
            return TimerSignal("expired", None, event.seat, 0)
        if isinstance(event, box_events.DeviceReset):
            return self._recover("device-reset", f"the box rebooted ({event.reason}); its clock was lost",
                                 event.last_known)
        if isinstance(event, box_events.Disconnected):
            return TimerSignal("incident", detail=f"disconnected: {event.reason}")
        if isinstance(event, box_events.Reconnected):
            if event.rebooted or event.state.phase in (Phase.IDLE, Phase.READY):
                return self._recover("reconnected", "the box came back without its clock", event.state)
            return TimerSignal("incident", detail="reconnected: the clock kept running")
        if isinstance(event, box_events.EventsLost):
            return TimerSignal("incident", detail=f"frames lost from the box ({event.expected_seq}->{event.received_seq})")
        return None  # ticks, low-time warnings, line noise: nothing for the game

    def _recover(self, what: str, detail: str, last_known) -> TimerSignal:
        """Restart the running seat's countdown with the time it had left (or the full turn)."""
        if self.seat is None:
            return TimerSignal("incident", detail=f"{what}: {detail}")
        left = self.seconds
        if last_known is not None and last_known.seat == self.seat and last_known.ms_left > 0:
            left = max(1, -(-last_known.ms_left // 1000))
        try:
            self.driver.configure(Mode.TURN, left)
            self.driver.start(self.seat)
            detail += f"; restarted seat {self.seat} with {left} s"
        except BridgeError as error:
            detail += f"; restart failed: {error}"
        return TimerSignal("incident", seat=self.seat, seconds_left=left, detail=f"{what}: {detail}")

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
        return SerialTimer(emulator.port, emulator)
    return SerialTimer(spec)
