"""What the driver knows of the box and how it answers what the box says, without any I/O.

`BoxProtocol` takes the bytes read from the port (`receive`) and the answers to the driver's own
commands, and gives back what follows from them: the events the controller is told (events.py), the
answer to the command waiting for one (`Answer`), and what the link must do (`CheckState`: ask the
box its state; `Recover`: run the handshake again). It never reads, writes, sleeps or starts a
thread; the thread-based link in driver.py does, and calls it under one lock.

It holds the command numbering and the command awaiting its answer, the sequence check of the
box's frames, the box's last known state and boot id, the newest press heard (a press not newer is
a replay), what the box announced in the handshake (press ids, BANK) and whether the link is up.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Union

from .events import (
    ButtonPressed,
    DeviceError,
    DeviceReset,
    Disconnected,
    EventsLost,
    Expired,
    LinkNoise,
    LowTime,
    Reconnected,
    ReplayedPress,
    StateChecked,
    Tick,
    TimerEvent,
)
from .protocol import (
    PROTOCOL_VERSION,
    BridgeError,
    Direction,
    Frame,
    FrameError,
    Phase,
    PressId,
    SequenceError,
    SequenceTracker,
    StaleFrameError,
    TimerState,
    Verb,
    format_frame,
    next_seq,
    parse_frame,
    quote,
)

MAX_PENDING_BYTES = 4096


@dataclass(frozen=True)
class Answer:
    """The box's ACK or NAK to the command awaiting its answer."""

    frame: Frame


@dataclass(frozen=True)
class CheckState:
    """Ask the box its state (frames went missing, came out of order, or contradict what is known);
    only while the link is up: a handshake under way reads the state anyway."""

    cause: str


@dataclass(frozen=True)
class Recover:
    """Run the handshake again: the box rebooted (`cause` "reset" or "unannounced") or came back ("reconnect")."""

    cause: str
    before: TimerState | None  # the last known state before it


Output = Union[TimerEvent, Answer, CheckState, Recover]


class BoxProtocol:
    def __init__(self) -> None:
        self.connected = False  # the handshake is done and nothing since says the box lost it
        self.last_known: TimerState | None = None  # the latest picture of the box (from answers and events)
        self.boot_id: str | None = None
        self.press_ids = False  # the box tags presses with boot= press= (HELLO ids=1 accepted)
        self.banks = False  # the box takes BANK (its answer to HELLO bank=1 said so); asked at every handshake
        self.newest_press: PressId | None = None  # the last press heard (or counted in a state answer)
        self.pending_seq: int | None = None  # the number of the command awaiting its answer
        self._seq = 0
        self._tracker = SequenceTracker()
        self._buffer = bytearray()
        self._link_down_reported = False

    # -- the driver's commands ----------------------------------------------------
    def command(self, verb: Verb, *args: str) -> bytes:
        """The next command's line; its answer is awaited until `command_done`."""
        self._seq = next_seq(self._seq)
        self.pending_seq = self._seq
        return format_frame(Frame(Direction.COMMAND, self._seq, verb, args))

    def command_done(self) -> None:
        self.pending_seq = None

    def answered(self, reply: Frame, internal: bool) -> list[Output]:
        """Takes in a command's answer: a state it carries is the box's now. A box that refuses a
        command for want of a handshake rebooted and its RESET got lost: recover (not while the
        driver's own handshake or check asks)."""
        if reply.verb is Verb.REFUSE:
            if reply.args[1] == "no-session" and not internal and self.connected:
                return self.recover("unannounced")
            return []
        if reply.args[1:] and reply.args[1].startswith("mode="):
            self.last_known = TimerState.from_args(reply.args[1:])
        return []

    def state_answer(self, reply: Frame) -> TimerState:
        state = TimerState.from_args(reply.args[1:])
        self.last_known = state
        return state

    # -- the handshake ------------------------------------------------------------
    @staticmethod
    def hello(*options: str) -> tuple[str, ...]:
        return (str(PROTOCOL_VERSION), *options)

    @staticmethod
    def check_hello(reply: Frame, port: str) -> None:
        if f"proto={PROTOCOL_VERSION}" not in reply.args:
            raise BridgeError(f"timer on {port!r} answered HELLO with {reply.args!r}, not protocol {PROTOCOL_VERSION}")

    def handshake_state(self, state: TimerState) -> None:
        """Presses the box counted before now are old: a line carrying one of them is a replay."""
        self._count_presses(state, forget=True)

    def opened(self, state: TimerState) -> None:
        self.boot_id = state.boot_id
        self.connected = True

    def recover(self, cause: str, before: TimerState | None = None) -> list[Output]:
        """The link is down until the handshake is run again (no command slips in before it)."""
        self.connected = False
        return [Recover(cause, before if before is not None else self.last_known)]

    def recovered(self, state: TimerState, cause: str, before: TimerState | None) -> list[Output]:
        """The handshake after a reconnect or a reboot is done: says what happened."""
        rebooted = state.boot_id != self.boot_id
        self.boot_id = state.boot_id
        self._link_down_reported = False
        self.connected = True
        if cause == "reconnect":
            return [Reconnected(state, rebooted)]
        if cause == "unannounced":
            return [DeviceReset("unannounced", state.boot_id, before)]
        return []

    def checked(self, state: TimerState, cause: str, before: TimerState | None) -> list[Output]:
        """The answer to a state check (CheckState)."""
        if not self.connected:
            return []  # a RESET frame or a lost link got there first: its recovery reports
        if state.boot_id == self.boot_id:
            self.last_known = state
            self._count_presses(state)  # presses lost in the gap are old now: their lines must not come back as new
            return [StateChecked(cause, state, before)]
        # A new boot id and no RESET frame: the box rebooted and its announcement was lost. The boot id
        # is taken at once, so a late RESET frame of that boot finds the recovery under way.
        self.boot_id = state.boot_id
        return self.recover("unannounced", before)

    def _count_presses(self, state: TimerState, forget: bool = False) -> None:
        newest = self.newest_press
        if state.presses is None:
            if forget:
                self.newest_press = None
        elif newest is None or newest.boot_id != state.boot_id or newest.counter < state.presses:
            self.newest_press = PressId(state.boot_id, state.presses)

    # -- the link -----------------------------------------------------------------
    def link_lost(self, reason: str, closing: bool) -> list[Output]:
        """Disconnected, once per loss (and not for a driver closing down)."""
        was_up = self.connected
        self.connected = False
        if (was_up or not self._link_down_reported) and not closing:
            self._link_down_reported = True
            return [Disconnected(reason, self.last_known)]
        return []

    def reopened(self) -> list[Output]:
        """The port is open again: the box's count starts afresh and the handshake is run again."""
        self._tracker = SequenceTracker()
        self._buffer.clear()
        return self.recover("reconnect")

    # -- what the box says --------------------------------------------------------
    def receive(self, data: bytes, now: float) -> list[Output]:
        """Bytes read from the port at `now` (time.monotonic()): what each whole line means."""
        out: list[Output] = []
        self._buffer += data
        while (end := self._buffer.find(b"\n")) >= 0:
            line = bytes(self._buffer[: end + 1])
            del self._buffer[: end + 1]
            out += self.line(line, now)
        if len(self._buffer) > MAX_PENDING_BYTES:
            out.append(LinkNoise(f"{len(self._buffer)} bytes without a newline dropped: {quote(bytes(self._buffer))}"))
            self._buffer.clear()
        return out

    def line(self, line: bytes, now: float) -> list[Output]:
        out: list[Output] = []
        try:
            frame = self._parse_resynchronising(line, out)
            if frame.direction is not Direction.EVENT:
                raise FrameError(f"a command frame came from the box (echo?): {quote(line)}")
            try:
                if not self._tracker.check(frame):
                    return out  # the repeat of a reply we already have
            except StaleFrameError as stale:
                return out + self._stale(frame, stale, now)
            except SequenceError as gap:
                out += [EventsLost(gap.expected, gap.received), *self._check(str(gap))]
            out += self._dispatch(frame, now)
        except (FrameError, ValueError, IndexError) as error:
            out.append(LinkNoise(str(error)))
        return out

    def _stale(self, frame: Frame, stale: StaleFrameError, now: float) -> list[Output]:
        """A frame numbered behind the last one: a replayed line, or a box that rebooted unseen.

        Only what can be told new is let through: the answer to our pending command (it names
        a number we just used), and a press whose id says so. A TICK, LOW or EXP cannot come
        from a box that rebooted (its clock is not configured again yet), so it is old.
        """
        if frame.verb in (Verb.ACK, Verb.REFUSE) and self.pending_seq is not None and frame.args[0] == str(self.pending_seq):
            self._tracker.resync(frame.seq)
            return self._dispatch(frame, now)
        check = self._check(str(stale))
        if frame.verb is Verb.BUTTON:
            return [*check, *self._dispatch(frame, now)]  # the press id decides; without one, a lost press is worse than a doubtful one
        return [*check, LinkNoise(f"dropped: {stale}")]

    @staticmethod
    def _parse_resynchronising(line: bytes, out: list[Output]) -> Frame:
        try:
            return parse_frame(line)
        except FrameError as error:
            # Noise in front of a good frame: resynchronise on the last start mark.
            start = line.rfind(b"<")
            if start <= 0:
                raise
            try:
                frame = parse_frame(line[start:])
            except FrameError:
                raise error from None
            out.append(LinkNoise(f"dropped {quote(line[:start])} in front of a frame"))
            return frame

    def _dispatch(self, frame: Frame, now: float) -> list[Output]:
        args = frame.args
        verb = frame.verb
        if verb in (Verb.ACK, Verb.REFUSE):
            if self.pending_seq is not None and args[0] == str(self.pending_seq):
                return [Answer(frame)]
        elif verb is Verb.BUTTON:
            return self._button(frame, now)
        elif verb is Verb.TICK:
            seat, seconds = int(args[0]), int(args[1])
            self._note(phase=Phase.RUNNING, seat=seat, ms_left=seconds * 1000)
            return [Tick(seat, seconds)]
        elif verb is Verb.LOW_TIME:
            return [LowTime(int(args[0]), int(args[1]))]
        elif verb is Verb.EXPIRED:
            self._note(phase=Phase.EXPIRED, seat=int(args[0]), ms_left=0)
            return [Expired(int(args[0]))]
        elif verb is Verb.ERROR:
            return [DeviceError(args[0])]
        elif verb is Verb.RESET:
            return self._reset(reason=args[0], boot_id=args[1])
        elif verb is Verb.HEARTBEAT:
            # Its arrival already fed the silence watchdog. An IDLE box that we configured has
            # lost its clock, whatever the sequence numbers say: ask it.
            known = self.last_known
            if args[0] == Phase.IDLE.value and known is not None and known.mode is not None:
                return self._check(f"heartbeat says {args[0]} but the box was configured ({known.mode.value})")
        return []

    def _check(self, cause: str) -> list[Output]:
        if not self.connected:
            return []  # a handshake is under way or due: it reads the state anyway
        return [CheckState(cause)]

    def _button(self, frame: Frame, now: float) -> list[Output]:
        args = frame.args
        press_id = PressId.from_args(args)
        if press_id is not None:
            newest = self.newest_press
            # An old boot's press while the link is settled on another boot is a replay too;
            # during a handshake the boot id may just have changed, so only the counter rules.
            old_boot = self.connected and press_id.boot_id != self.boot_id
            if old_boot or (
                newest is not None and newest.boot_id == press_id.boot_id and press_id.counter <= newest.counter
            ):
                return [ReplayedPress(
                    f"replayed press dropped: button {args[0]} with press id {press_id.boot_id}/{press_id.counter}, "
                    f"the box is at {self.boot_id}/{newest.counter if newest else '?'}",
                    args[0], press_id, newest,
                )]  # fmt: skip
            self.newest_press = press_id
        return [ButtonPressed(args[0], int(args[1]) or None, int(args[2]), now, press_id)]

    def _note(self, **changes: object) -> None:
        if self.last_known is not None:
            self.last_known = replace(self.last_known, **changes)

    def _reset(self, reason: str, boot_id: str) -> list[Output]:
        if boot_id == self.boot_id or not self.connected:
            # Seen during open or reconnect: the handshake in progress reads the new state.
            return []
        self.boot_id = boot_id
        event = DeviceReset(reason, boot_id, self.last_known)
        return [event, *self.recover("reset")]
