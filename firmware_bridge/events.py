"""What the driver tells the controller (`TimerDriver.next_event`).

Each event reports something the box said or something that happened to the link;
the driver never makes up a button press or an expiry. After a gap the driver asks
the box for its state by itself: the answer comes as Reconnected (after Disconnected),
DeviceReset (the box rebooted, announced or not) or StateChecked (after EventsLost or
a stale frame, same boot), so the controller learns the box's real state rather than
guessing from events it may have missed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .protocol import PressId, TimerState


@dataclass(frozen=True)
class ButtonPressed:
    button: str  # "1".."4" seat buttons, "A" arbiter
    running_seat: int | None  # whose clock ran at the press (None: no clock running)
    ms_left: int  # that clock's remaining time at the press, as the box measured it
    received_at: float  # time.monotonic() when the driver read the frame
    press_id: PressId | None = None  # boot id and press counter, from a box that sends them

    @property
    def seat(self) -> int | None:
        """The seat the pressed button belongs to (None for the arbiter button)."""
        return int(self.button) if self.button.isdigit() else None


@dataclass(frozen=True)
class Tick:
    seat: int
    seconds_left: int


@dataclass(frozen=True)
class LowTime:
    """The running clock reached the warn-at threshold (the box also beeps)."""

    seat: int
    seconds_left: int


@dataclass(frozen=True)
class Expired:
    seat: int


@dataclass(frozen=True)
class DeviceReset:
    """The box rebooted (power dip, watchdog, reset button): its clock is gone.

    `last_known` is the driver's last picture of the box before the reset; the box
    is now unconfigured, and the driver has already re-opened the session.
    """

    reason: str
    boot_id: str
    last_known: TimerState | None


@dataclass(frozen=True)
class Disconnected:
    """The link is gone (cable out, port vanished, or silence past the heartbeat limit).

    Commands raise TimerDisconnected until Reconnected arrives.
    """

    reason: str
    last_known: TimerState | None


@dataclass(frozen=True)
class Reconnected:
    """The link is back and the session re-opened; `state` is what the box says now.

    `rebooted` is True when the box powered up in between (its boot id changed):
    then the clock did not survive, whatever it was.
    """

    state: TimerState
    rebooted: bool


@dataclass(frozen=True)
class EventsLost:
    """Frames from the box went missing (sequence gap); query state() if it matters."""

    expected_seq: int
    received_seq: int


@dataclass(frozen=True)
class StateChecked:
    """The box's state, asked for by the driver after frames went missing or came out of order.

    The box did not reboot (same boot id; a reboot is reported as DeviceReset instead).
    `last_known` is the driver's picture before the query: a clock that is HELD or EXP
    here but RUN there means a press or an expiry frame was among the lost ones.
    """

    cause: str  # what made the driver ask: the EventsLost / stale-frame detail
    state: TimerState
    last_known: TimerState | None


@dataclass(frozen=True)
class LinkNoise:
    """A line from the box that was not a valid frame, or an old one; dropped."""

    detail: str


@dataclass(frozen=True)
class ReplayedPress(LinkNoise):
    """A BTN line whose press id is not newer than the last press heard: an old line replayed
    on the wire, dropped (never reported as ButtonPressed)."""

    button: str
    press_id: PressId
    newest: PressId | None  # the last press heard before it


@dataclass(frozen=True)
class DeviceError:
    """The box could not read a line we sent (`checksum`, `frame`, `toolong`); commands retry."""

    code: str


TimerEvent = Union[
    ButtonPressed, Tick, LowTime, Expired, DeviceReset, Disconnected, Reconnected, EventsLost, StateChecked,
    LinkNoise, ReplayedPress, DeviceError,
]
