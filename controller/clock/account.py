"""The clock's own account of the box's clocks, so a box that reboots can be given them back.

Pure: built only from the box's word (the state in every acknowledgement, the ms left in a
press, the whole seconds of a tick, an expiry), never from the host's clock, so it needs no
clock rate and invents no time. A tick says the running clock just reached N whole seconds,
so the running side's time is known to within the tick in flight; the time the box was away
(rebooting, unplugged) is not charged to anyone. `restore_commands` turns the account into
the box commands that set a rebooted box back: `CONF`, one `BANK` per clock, `START` of the
side to move (`PAUSE` again when the clock was paused).
"""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass

from firmware_bridge.protocol import Mode, Phase, TimerState

from .machine import BoxAction, BoxCommand
from .rules import ClockRules, Reading


class ClockRunning(str, enum.Enum):
    """Where the box's clock of this game stands, as far as the box last said."""

    NOT_STARTED = "not-started"
    RUNNING = "running"
    PAUSED = "paused"
    EXPIRED = "expired"


_FROM_BOX = {Phase.RUNNING: ClockRunning.RUNNING, Phase.PAUSED: ClockRunning.PAUSED,
             Phase.EXPIRED: ClockRunning.EXPIRED, Phase.READY: ClockRunning.NOT_STARTED}


@dataclass(frozen=True)
class BoxAccount:
    rules: ClockRules
    left: tuple[int, ...]  # ms: DUEL (box seat 1, box seat 2); SESSION (the session,)
    seat: int | None = None  # DUEL: the side whose bank runs (or is paused); SESSION: 0; None: none yet
    clock: ClockRunning = ClockRunning.NOT_STARTED

    @classmethod
    def for_rules(cls, rules: ClockRules) -> BoxAccount | None:
        """None when the game runs without a box clock (a mahjong session with no limit)."""
        if rules.seconds is None:
            return None
        clocks = 2 if rules.reading is Reading.PER_SIDE else 1
        return cls(rules, (rules.seconds * 1000,) * clocks)

    @property
    def mode(self) -> Mode:
        return Mode(self.rules.box_mode)

    def seen(self, state: TimerState) -> BoxAccount:
        """The box's whole state (a command's answer, a state query). A state of another mode is
        not ours: an unconfigured box after a reboot says nothing about this game's times."""
        if state.mode is not self.mode or state.phase not in _FROM_BOX:
            return self
        if self.mode is Mode.DUEL:
            left = tuple(state.banks[:2]) if len(state.banks) >= 2 else self.left
            seat = state.seat if state.seat in (1, 2) else None
        else:
            left, seat = (state.ms_left,), 0
        clock = _FROM_BOX[state.phase]
        return dataclasses.replace(self, left=left, seat=None if clock is ClockRunning.NOT_STARTED else seat,
                                   clock=clock)

    def pressed(self, button: str, running_seat: int | None, ms_left: int) -> BoxAccount:
        """A press: the box measured the running clock; in DUEL the running side's own button hands over."""
        # SESSION runs as seat 0, which a press reports as "nothing running" (a rebooted box says the
        # same): its ticks and answers keep the account there, never a press.
        if self.mode is not Mode.DUEL or running_seat not in (1, 2) or self.clock is not ClockRunning.RUNNING:
            return self
        left = self._with(running_seat, ms_left)
        seat = 3 - running_seat if button == str(running_seat) else running_seat
        return dataclasses.replace(self, left=left, seat=seat)

    def ticked(self, seat: int, seconds_left: int) -> BoxAccount:
        """A tick: the running clock just reached `seconds_left` whole seconds (the first tick of a
        run is rounded up, so the account only ever goes down on a tick)."""
        if self.clock is not ClockRunning.RUNNING:
            return self
        if self.mode is Mode.SESSION:
            return dataclasses.replace(self, left=(min(self.left[0], seconds_left * 1000),))
        if seat not in (1, 2):
            return self
        return dataclasses.replace(self, left=self._with(seat, min(self.left[seat - 1], seconds_left * 1000)), seat=seat)

    def expired(self, seat: int) -> BoxAccount:
        left = (0,) if self.mode is Mode.SESSION else (self._with(seat, 0) if seat in (1, 2) else self.left)
        return dataclasses.replace(self, left=left, clock=ClockRunning.EXPIRED)

    def _with(self, seat: int, ms: int) -> tuple[int, ...]:
        return tuple(ms if i == seat - 1 else old for i, old in enumerate(self.left))

    def times(self, seats: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
        """As recorded with a fact: each side's name and ms (DUEL), or ("session", ms)."""
        if self.mode is Mode.DUEL:
            return tuple(zip(seats[:2], self.left))
        return (("session", self.left[0]),)

    @property
    def restorable(self) -> bool:
        """A clock that ran (or was paused) with time left: what a rebooted box must be given back."""
        return self.clock in (ClockRunning.RUNNING, ClockRunning.PAUSED) and self.seat is not None

    def restore_commands(self) -> tuple[BoxCommand, ...]:
        """Sets a rebooted box back to this account: the configured time (so `secs=` stays the rule),
        each clock's time left (at least 1 ms: BANK takes no zero; an empty clock expires at once),
        then the side to move runs, and is paused again if it was."""
        if not self.restorable:
            return ()
        seats = (1, 2) if self.mode is Mode.DUEL else (0,)
        commands = [BoxCommand(BoxAction.CONFIGURE, mode=self.mode.value, seconds=self.rules.seconds or 0)]
        commands += [BoxCommand(BoxAction.BANK, seat, ms=max(1, ms)) for seat, ms in zip(seats, self.left)]
        commands.append(BoxCommand(BoxAction.START, self.seat or 0))
        if self.clock is ClockRunning.PAUSED:
            commands.append(BoxCommand(BoxAction.PAUSE))
        return tuple(commands)
