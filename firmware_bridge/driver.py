"""The serial driver for the timer box: pyserial, a reader thread, acks, recovery.

    with TimerDriver("/dev/serial/by-id/usb-tileref-timer") as timer:
        timer.configure(Mode.TURN, 60)
        timer.warn_at(10)
        timer.start(seat=1)
        event = timer.next_event(timeout=1.0)   # ButtonPressed, Tick, Expired, ...

Commands block until the box acknowledges them (retrying the same frame, which
the box answers once and repeats the answer for), return the box's state after
the command, and raise CommandRefused with the box's reason or NoAcknowledgement.
The link looks after itself: when the port vanishes or falls silent past the
heartbeat limit the driver reports Disconnected, re-opens the same path until it
comes back, re-runs the handshake and reports Reconnected(state); a box that
reboots is reported as DeviceReset. After any gap or disorder in the box's sequence
numbers the driver asks the box its state: a new boot id is a reboot whose RESET was
lost (DeviceReset), the same one gives StateChecked. Presses carry the box's boot id
and press counter (asked for with HELLO ids=1), so a replayed BTN line is dropped as
ReplayedPress. Events describe only what the box sent.
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field, replace

import serial

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
    DeviceIdentity,
    Direction,
    Frame,
    FrameError,
    Mode,
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


class TimerUnavailable(BridgeError):
    """The port cannot be opened, or no box answers the handshake on it."""


class PortUnavailable(TimerUnavailable):
    """The port itself cannot be opened (no such device, no permission)."""


class TimerDisconnected(BridgeError):
    """A command was sent while the link is down (wait for Reconnected)."""


class NoAcknowledgement(BridgeError):
    """The box did not answer a command after every retry."""


class InvalidCommand(BridgeError):
    """A command the driver will not even send (an unknown mode, a non-number)."""


class CommandUnsupported(InvalidCommand):
    """A command this box does not take: it did not announce it in the handshake (an older box)."""


class CommandRefused(BridgeError):
    """The box answered NAK; `reason` is its reason word (see PROTOCOL.md)."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


def _number(value: object, name: str) -> str:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidCommand(f"{name} must be a whole number >= 0, got {value!r}")
    return str(value)


@dataclass
class _Pending:
    seq: int
    answered: threading.Event = field(default_factory=threading.Event)
    reply: Frame | None = None
    link_lost: bool = False


class TimerDriver:
    """One timer box on one serial port. Thread-safe; commands are serialised."""

    def __init__(
        self,
        port: str,
        *,
        baudrate: int = 115200,
        ack_timeout: float = 0.25,
        retries: int = 3,
        heartbeat_ms: int = 1000,
        silence_limit: float | None = None,
        reconnect_interval: float = 0.1,
        open_timeout: float = 3.0,
    ):
        self.port = port
        self.baudrate = baudrate
        self.ack_timeout = ack_timeout
        self.retries = retries
        self.heartbeat_ms = heartbeat_ms
        self.silence_limit = silence_limit if silence_limit is not None else max(0.5, 3 * heartbeat_ms / 1000)
        self.reconnect_interval = reconnect_interval
        self.open_timeout = open_timeout
        self._serial: serial.Serial | None = None
        self._write_lock = threading.Lock()
        self._request_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._pending: _Pending | None = None
        self._events: queue.Queue[TimerEvent] = queue.Queue()
        self._connected = threading.Event()
        self._closing = threading.Event()
        self._link_down_reported = False
        self._seq = 0
        self._tracker = SequenceTracker()
        self._last_known: TimerState | None = None
        self._boot_id: str | None = None
        self._thread: threading.Thread | None = None
        self._last_rx = 0.0
        self._press_ids = False  # the box tags presses with boot= press= (HELLO ids=1 accepted)
        self._banks = False  # the box takes BANK (its answer to HELLO bank=1 said so); asked at every handshake
        self._newest_press: PressId | None = None  # the last press heard (or counted in a state reply)
        self._checking = threading.Lock()  # one state check at a time; held while it runs

    # -- lifetime ----------------------------------------------------------------
    def open(self) -> TimerState:
        """Opens the port and runs the handshake; returns the box's state."""
        try:
            self._serial = self._open_port()
        except (serial.SerialException, OSError) as error:
            raise PortUnavailable(f"cannot open timer port {self.port!r}: {error}") from None
        self._last_rx = time.monotonic()
        self._thread = threading.Thread(target=self._link_loop, name=f"timer-link {self.port}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + self.open_timeout
        while True:
            try:
                state = self._handshake()
                break
            except (NoAcknowledgement, TimerDisconnected) as error:
                if time.monotonic() >= deadline:
                    self.close()
                    raise TimerUnavailable(f"no timer box answers on {self.port!r}: {error}") from None
            except BridgeError:
                self.close()
                raise
        self._boot_id = state.boot_id
        self._connected.set()
        return state

    def close(self) -> None:
        self._closing.set()
        port = self._serial
        if port is not None:
            try:
                port.cancel_read()
            except Exception:  # already dead: the thread wakes on its own
                pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._close_port()

    def __enter__(self) -> TimerDriver:
        self.open()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout: float | None = None) -> bool:
        """Blocks until the session is up (after a Reconnected or a reset's recovery)."""
        return self._connected.wait(timeout)

    @property
    def can_set_banks(self) -> bool:
        """The box takes BANK (said so in this session's handshake): a clock's time can be given back
        exactly, each DUEL side its own. Asked again at every handshake: a replaced box may be older."""
        return self._banks

    @property
    def last_known(self) -> TimerState | None:
        """The driver's latest picture of the box (from acks and events)."""
        return self._last_known

    # -- the public commands -----------------------------------------------------
    def identify(self) -> DeviceIdentity:
        return DeviceIdentity.from_args(self._request(Verb.IDENTIFY).args[1:])

    def state(self) -> TimerState:
        return self._state_reply(self._request(Verb.STATE))

    def configure(self, mode: Mode | str, seconds: int) -> TimerState:
        """Sets the clock: Mode.TURN (seconds per turn), DUEL (per side), SESSION (in all)."""
        if not isinstance(mode, Mode):
            if mode not in Mode._value2member_map_:
                raise InvalidCommand(f"unknown timer mode {mode!r}; modes are {', '.join(m.value for m in Mode)}")
            mode = Mode(mode)
        return self._state_reply(self._request(Verb.CONFIGURE, mode.value, _number(seconds, "seconds")))

    def start(self, seat: int) -> TimerState:
        """TURN: a fresh countdown for `seat`. DUEL: `seat`'s bank runs. SESSION: runs on."""
        return self._state_reply(self._request(Verb.START, _number(seat, "seat")))

    def set_bank(self, seat: int, ms: int) -> TimerState:
        """Sets one clock's time left while it does not run: a DUEL side's bank (seat 1 or 2) or the
        SESSION's countdown (seat 0). Raises CommandUnsupported on a box that did not announce BANK."""
        seat_word, ms_word = _number(seat, "seat"), _number(ms, "ms")
        if not self._banks:
            raise CommandUnsupported(f"timer on {self.port!r} does not take BANK (its firmware predates it); "
                                     f"cannot set seat {seat} to {ms} ms")
        return self._state_reply(self._request(Verb.SET_BANK, seat_word, ms_word))

    def pause(self) -> TimerState:
        return self._state_reply(self._request(Verb.PAUSE))

    def resume(self) -> TimerState:
        return self._state_reply(self._request(Verb.RESUME))

    def stop(self) -> TimerState:
        """Stops and resets the clock to its configured time (configuration kept)."""
        return self._state_reply(self._request(Verb.STOP))

    def warn_at(self, seconds: int) -> TimerState:
        """The box beeps and sends LowTime when the running clock reaches `seconds` (0: off)."""
        return self._state_reply(self._request(Verb.WARN_AT, _number(seconds, "seconds")))

    def beep(self, ms: int = 200) -> None:
        self._request(Verb.BEEP, _number(ms, "ms"))

    def show(self, text: str) -> None:
        """Short text on the box's display (16 ASCII characters at most)."""
        self._request(Verb.SHOW, *([text] if text else []))

    def next_event(self, timeout: float | None = None) -> TimerEvent | None:
        """The next event, waiting up to `timeout` seconds (None: forever); None on timeout."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def write_raw(self, data: bytes) -> None:
        """Writes bytes as they are (conformance checks send deliberately broken lines)."""
        self._write(data)

    # -- requests ----------------------------------------------------------------
    def _state_reply(self, reply: Frame) -> TimerState:
        state = TimerState.from_args(reply.args[1:])
        with self._state_lock:
            self._last_known = state
        return state

    def _request(self, verb: Verb, *args: str, internal: bool = False) -> Frame:
        # Wait outside the lock: the recovery thread needs it to bring the link back.
        if not internal and not self._connected.wait(self.ack_timeout * (self.retries + 1)):
            raise TimerDisconnected(f"timer on {self.port!r} is not connected; {verb.value} not sent")
        with self._request_lock:
            self._seq = next_seq(self._seq)
            line = format_frame(Frame(Direction.COMMAND, self._seq, verb, args))
            pending = _Pending(self._seq)
            self._pending = pending
            try:
                for _ in range(self.retries + 1):
                    self._write(line)
                    if pending.answered.wait(self.ack_timeout):
                        break
                else:
                    raise NoAcknowledgement(f"no answer to {quote(line)} after {self.retries + 1} tries")
            finally:
                self._pending = None
        if pending.link_lost or pending.reply is None:
            raise TimerDisconnected(f"link to {self.port!r} lost while waiting for the answer to {quote(line)}")
        reply = pending.reply
        if reply.verb is Verb.REFUSE:
            reason = reply.args[1]
            if reason == "no-session" and not internal and self._connected.is_set():
                self._start_recovery("unannounced")  # the box rebooted and its RESET got lost
            raise CommandRefused(f"timer refused {quote(line)}: {reason}", reason)
        if reply.args[1:] and reply.args[1].startswith("mode="):
            with self._state_lock:
                self._last_known = TimerState.from_args(reply.args[1:])
        return reply

    def _write(self, data: bytes) -> None:
        with self._write_lock:  # the port is taken under the lock that closing it takes
            port = self._serial
            if port is None:
                raise TimerDisconnected(f"timer on {self.port!r} is not connected")
            try:
                port.write(data)
                return
            except (serial.SerialException, OSError) as error:
                failure = error
        self._lose_link(f"write failed: {failure}")  # outside the lock: losing the link closes the port
        raise TimerDisconnected(f"timer on {self.port!r}: write failed: {failure}") from None

    def _handshake(self) -> TimerState:
        reply = self._request(Verb.HELLO, str(PROTOCOL_VERSION), f"hb={self.heartbeat_ms}", internal=True)
        if f"proto={PROTOCOL_VERSION}" not in reply.args:
            raise BridgeError(f"timer on {self.port!r} answered HELLO with {reply.args!r}, not protocol {PROTOCOL_VERSION}")
        # Ask whether the box takes BANK, before ids=1 (every HELLO without ids=1 turns ids off):
        # a box from before BANK refuses the question with bad-args and keeps its session.
        try:
            self._banks = "bank=1" in self._request(Verb.HELLO, str(PROTOCOL_VERSION), "bank=1", internal=True).args
        except CommandRefused as refused:
            if refused.reason != "bad-args":
                raise
            self._banks = False
        # Ask for press ids in a HELLO of its own: a box that predates them refuses the option
        # with bad-args and keeps the session just opened, so old boxes work as before.
        try:
            self._press_ids = "ids=1" in self._request(Verb.HELLO, str(PROTOCOL_VERSION), "ids=1", internal=True).args
        except CommandRefused as refused:
            if refused.reason != "bad-args":
                raise
            self._press_ids = False
        state = self._state_reply(self._request(Verb.STATE, internal=True))
        with self._state_lock:
            # Presses the box counted before now are old: a line carrying one of them is a replay.
            newest = self._newest_press
            if state.presses is None:
                self._newest_press = None
            elif newest is None or newest.boot_id != state.boot_id or newest.counter < state.presses:
                self._newest_press = PressId(state.boot_id, state.presses)
        return state

    # -- the link thread ---------------------------------------------------------
    def _open_port(self) -> serial.Serial:
        # exclusive: a second program on the same box would steal half of its frames
        port = serial.Serial(self.port, self.baudrate, timeout=0.05, write_timeout=1.0, exclusive=True)
        port.reset_input_buffer()  # lines written while nobody listened are stale
        return port

    def _close_port(self) -> None:
        # Under the write lock: a port closed in the middle of pyserial's write made it raise TypeError
        # in the writing thread (its fd gone under select), past the handling of a failed write.
        # A write holds the lock at most write_timeout (1 s).
        with self._write_lock:
            port, self._serial = self._serial, None
            if port is not None:
                try:
                    port.close()
                except (serial.SerialException, OSError):
                    pass

    def _lose_link(self, reason: str) -> None:
        with self._state_lock:
            self._close_port()
            was_up = self._connected.is_set()
            self._connected.clear()
            pending = self._pending
            if pending is not None:
                pending.link_lost = True
                pending.answered.set()
            report = (was_up or not self._link_down_reported) and not self._closing.is_set()
            if report:
                self._link_down_reported = True
                self._events.put(Disconnected(reason, self._last_known))

    def _link_loop(self) -> None:
        buffer = bytearray()
        while not self._closing.is_set():
            port = self._serial
            if port is None:
                if not self._reopen():
                    self._closing.wait(self.reconnect_interval)
                buffer.clear()
                continue
            try:
                data = port.read(port.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError, AttributeError) as error:
                if not self._closing.is_set():
                    self._lose_link(f"read failed: {error}")
                continue
            now = time.monotonic()
            if not data:
                if now - self._last_rx > self.silence_limit and self._serial is port:
                    self._lose_link(f"no frame from the box for {self.silence_limit:.1f} s")
                continue
            self._last_rx = now
            buffer += data
            while (end := buffer.find(b"\n")) >= 0:
                line = bytes(buffer[: end + 1])
                del buffer[: end + 1]
                self._on_line(line, now)
            if len(buffer) > MAX_PENDING_BYTES:
                self._events.put(LinkNoise(f"{len(buffer)} bytes without a newline dropped: {quote(bytes(buffer))}"))
                buffer.clear()

    def _reopen(self) -> bool:
        try:
            port = self._open_port()
        except (serial.SerialException, OSError):
            return False
        self._tracker = SequenceTracker()
        self._last_rx = time.monotonic()
        self._serial = port
        self._start_recovery("reconnect")
        return True

    def _start_recovery(self, cause: str, before: TimerState | None = None) -> None:
        self._connected.clear()  # at once, so no command slips in before the handshake
        before = before if before is not None else self._last_known
        threading.Thread(target=self._recover, args=(cause, before), name="timer-recover", daemon=True).start()

    def _recover(self, cause: str, before: TimerState | None) -> None:
        """Re-opens the session after a reconnect or a reboot and says what happened."""
        try:
            state = self._handshake()
        except BridgeError as error:
            if not self._closing.is_set():
                self._lose_link(f"box did not answer the handshake after {cause}: {error}")
            return
        with self._state_lock:
            rebooted = state.boot_id != self._boot_id
            self._boot_id = state.boot_id
            self._link_down_reported = False
            if cause == "reconnect":
                self._events.put(Reconnected(state, rebooted))
            elif cause == "unannounced":
                self._events.put(DeviceReset("unannounced", state.boot_id, before))
            self._connected.set()

    def _request_check(self, cause: str) -> None:
        """Asks the box its state (on a thread: the reader must keep reading for the answer)."""
        if not self._connected.is_set() or self._closing.is_set():
            return  # a handshake is under way or due: it reads the state anyway
        if not self._checking.acquire(blocking=False):
            return  # one check answers for every gap seen while it runs
        threading.Thread(target=self._check_state, args=(cause,), name="timer-check", daemon=True).start()

    def _check_state(self, cause: str) -> None:
        try:
            before = self._last_known
            try:
                reply = self._request(Verb.STATE, internal=True)
                state = TimerState.from_args(reply.args[1:])
            except BridgeError:
                return  # the link is failing: Disconnected / Reconnected tell the rest
            with self._state_lock:
                if not self._connected.is_set():
                    return  # a RESET frame or a lost link got there first: its recovery reports
                if state.boot_id == self._boot_id:
                    self._last_known = state
                    newest = self._newest_press
                    if state.presses is not None and (
                        newest is None or newest.boot_id != state.boot_id or newest.counter < state.presses
                    ):
                        # presses lost in the gap are old now: their lines must not come back as new
                        self._newest_press = PressId(state.boot_id, state.presses)
                    self._events.put(StateChecked(cause, state, before))
                    return
                # A new boot id and no RESET frame: the box rebooted and its announcement was lost.
                # Under the lock, so a late RESET frame of that boot finds the recovery under way.
                self._boot_id = state.boot_id
                self._start_recovery("unannounced", before)
        finally:
            self._checking.release()

    def _on_line(self, line: bytes, now: float) -> None:
        try:
            frame = self._parse_resynchronising(line)
            if frame.direction is not Direction.EVENT:
                raise FrameError(f"a command frame came from the box (echo?): {quote(line)}")
            try:
                if not self._tracker.check(frame):
                    return  # the repeat of a reply we already have
            except StaleFrameError as stale:
                self._on_stale(frame, stale, now)
                return
            except SequenceError as gap:
                self._events.put(EventsLost(gap.expected, gap.received))
                self._request_check(str(gap))
            self._dispatch(frame, now)
        except (FrameError, ValueError, IndexError) as error:
            self._events.put(LinkNoise(str(error)))

    def _on_stale(self, frame: Frame, stale: StaleFrameError, now: float) -> None:
        """A frame numbered behind the last one: a replayed line, or a box that rebooted unseen.

        Only what can be told new is let through: the answer to our pending command (it names
        a number we just used), and a press whose id says so. A TICK, LOW or EXP cannot come
        from a box that rebooted (its clock is not configured again yet), so it is old.
        """
        pending = self._pending
        if frame.verb in (Verb.ACK, Verb.REFUSE) and pending is not None and frame.args[0] == str(pending.seq):
            self._tracker.resync(frame.seq)
            self._dispatch(frame, now)
            return
        self._request_check(str(stale))
        if frame.verb is Verb.BUTTON:
            self._dispatch(frame, now)  # the press id decides; without one, a lost press is worse than a doubtful one
            return
        self._events.put(LinkNoise(f"dropped: {stale}"))

    def _parse_resynchronising(self, line: bytes) -> Frame:
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
            self._events.put(LinkNoise(f"dropped {quote(line[:start])} in front of a frame"))
            return frame

    def _dispatch(self, frame: Frame, now: float) -> None:
        args = frame.args
        verb = frame.verb
        if verb in (Verb.ACK, Verb.REFUSE):
            pending = self._pending
            if pending is not None and args[0] == str(pending.seq):
                pending.reply = frame
                pending.answered.set()
        elif verb is Verb.BUTTON:
            self._on_button(frame, now)
        elif verb is Verb.TICK:
            seat, seconds = int(args[0]), int(args[1])
            self._note(phase=Phase.RUNNING, seat=seat, ms_left=seconds * 1000)
            self._events.put(Tick(seat, seconds))
        elif verb is Verb.LOW_TIME:
            self._events.put(LowTime(int(args[0]), int(args[1])))
        elif verb is Verb.EXPIRED:
            self._note(phase=Phase.EXPIRED, seat=int(args[0]), ms_left=0)
            self._events.put(Expired(int(args[0])))
        elif verb is Verb.ERROR:
            self._events.put(DeviceError(args[0]))
        elif verb is Verb.RESET:
            self._on_reset(reason=args[0], boot_id=args[1])
        elif verb is Verb.HEARTBEAT:
            # Its arrival already fed the silence watchdog. An IDLE box that we configured has
            # lost its clock, whatever the sequence numbers say: ask it.
            known = self._last_known
            if args[0] == Phase.IDLE.value and known is not None and known.mode is not None:
                self._request_check(f"heartbeat says {args[0]} but the box was configured ({known.mode.value})")

    def _on_button(self, frame: Frame, now: float) -> None:
        args = frame.args
        press_id = PressId.from_args(args)
        if press_id is not None:
            with self._state_lock:
                newest = self._newest_press
                # An old boot's press while the session is settled on another boot is a replay too;
                # during a handshake the boot id may just have changed, so only the counter rules.
                old_boot = self._connected.is_set() and press_id.boot_id != self._boot_id
                if old_boot or (
                    newest is not None and newest.boot_id == press_id.boot_id and press_id.counter <= newest.counter
                ):
                    self._events.put(ReplayedPress(
                        f"replayed press dropped: button {args[0]} with press id {press_id.boot_id}/{press_id.counter}, "
                        f"the box is at {self._boot_id}/{newest.counter if newest else '?'}",
                        args[0], press_id, newest,
                    ))  # fmt: skip
                    return
                self._newest_press = press_id
        self._events.put(ButtonPressed(args[0], int(args[1]) or None, int(args[2]), now, press_id))

    def _note(self, **changes: object) -> None:
        with self._state_lock:
            if self._last_known is not None:
                self._last_known = replace(self._last_known, **changes)

    def _on_reset(self, reason: str, boot_id: str) -> None:
        with self._state_lock:
            if boot_id == self._boot_id or not self._connected.is_set():
                # Seen during open or reconnect: the handshake in progress reads the new state.
                return
            self._boot_id = boot_id
            self._connected.clear()
            self._events.put(DeviceReset(reason, boot_id, self._last_known))
        self._start_recovery("reset")
