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

What each line means and what the driver knows of the box is `BoxProtocol` (box_protocol.py,
no I/O); this module is the link around it: the port, the reading thread, the command that waits
for its answer, and the threads that re-run the handshake or ask the box its state.
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field

import serial

from .box_protocol import Answer, BoxProtocol, CheckState, Output, Recover
from .events import TimerEvent
from .protocol import BridgeError, DeviceIdentity, Frame, Mode, TimerState, Verb, quote

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
        self._box = BoxProtocol()  # touched only under _lock
        # _lock keeps the protocol state and the events' order; re-entrant: acting on its outputs
        # (a recovery) takes it again. Order of taking: _request_lock, then _lock, then _write_lock.
        self._lock = threading.RLock()
        self._write_lock = threading.Lock()
        self._request_lock = threading.Lock()
        self._pending: _Pending | None = None
        self._events: queue.Queue[TimerEvent] = queue.Queue()
        self._connected = threading.Event()  # mirrors the protocol's `connected`, for waiting on it
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_rx = 0.0
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
        with self._lock:
            self._box.opened(state)
            self._mirror_connected()
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
        return self._box.banks

    @property
    def last_known(self) -> TimerState | None:
        """The driver's latest picture of the box (from acks and events)."""
        return self._box.last_known

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
        if not self._box.banks:
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
        with self._lock:
            return self._box.state_answer(reply)

    def _request(self, verb: Verb, *args: str, internal: bool = False) -> Frame:
        # Wait outside the lock: the recovery thread needs it to bring the link back.
        if not internal and not self._connected.wait(self.ack_timeout * (self.retries + 1)):
            raise TimerDisconnected(f"timer on {self.port!r} is not connected; {verb.value} not sent")
        with self._request_lock:
            with self._lock:
                line = self._box.command(verb, *args)
                pending = _Pending(self._box.pending_seq)
                self._pending = pending
            try:
                for _ in range(self.retries + 1):
                    self._write(line)
                    if pending.answered.wait(self.ack_timeout):
                        break
                else:
                    raise NoAcknowledgement(f"no answer to {quote(line)} after {self.retries + 1} tries")
            finally:
                with self._lock:
                    self._box.command_done()
                    self._pending = None
        if pending.link_lost or pending.reply is None:
            raise TimerDisconnected(f"link to {self.port!r} lost while waiting for the answer to {quote(line)}")
        reply = pending.reply
        with self._lock:
            self._act(self._box.answered(reply, internal))
        if reply.verb is Verb.REFUSE:
            reason = reply.args[1]
            raise CommandRefused(f"timer refused {quote(line)}: {reason}", reason)
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
        box = self._box
        box.check_hello(self._request(Verb.HELLO, *box.hello(f"hb={self.heartbeat_ms}"), internal=True), self.port)
        # Ask whether the box takes BANK, before ids=1 (every HELLO without ids=1 turns ids off):
        # a box from before BANK refuses the question with bad-args and keeps its session.
        banks = self._option("bank=1")
        with self._lock:
            box.banks = banks
        # Ask for press ids in a HELLO of its own: a box that predates them refuses the option
        # with bad-args and keeps the session just opened, so old boxes work as before.
        press_ids = self._option("ids=1")
        with self._lock:
            box.press_ids = press_ids
        state = self._state_reply(self._request(Verb.STATE, internal=True))
        with self._lock:
            box.handshake_state(state)
        return state

    def _option(self, option: str) -> bool:
        """Whether the box takes a HELLO option (an older box refuses it with bad-args)."""
        try:
            return option in self._request(Verb.HELLO, *self._box.hello(option), internal=True).args
        except CommandRefused as refused:
            if refused.reason != "bad-args":
                raise
            return False

    # -- acting on what the protocol says ------------------------------------------
    def _mirror_connected(self) -> None:
        if self._box.connected:
            self._connected.set()
        else:
            self._connected.clear()

    def _act(self, outputs: list[Output]) -> None:
        """Under _lock: the events queued in order, the answer handed to its command, the checks
        and recoveries started."""
        self._mirror_connected()
        for output in outputs:
            if isinstance(output, Answer):
                pending = self._pending
                if pending is not None and pending.seq == self._box.pending_seq:
                    pending.reply = output.frame
                    pending.answered.set()
            elif isinstance(output, CheckState):
                self._request_check(output.cause)
            elif isinstance(output, Recover):
                threading.Thread(target=self._recover, args=(output.cause, output.before), name="timer-recover",
                                 daemon=True).start()
            else:
                self._events.put(output)

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
        with self._lock:
            self._close_port()
            outputs = self._box.link_lost(reason, self._closing.is_set())
            pending = self._pending
            if pending is not None:
                pending.link_lost = True
                pending.answered.set()
            self._act(outputs)

    def _link_loop(self) -> None:
        while not self._closing.is_set():
            port = self._serial
            if port is None:
                if not self._reopen():
                    self._closing.wait(self.reconnect_interval)
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
            with self._lock:
                self._act(self._box.receive(data, now))

    def _reopen(self) -> bool:
        try:
            port = self._open_port()
        except (serial.SerialException, OSError):
            return False
        self._last_rx = time.monotonic()
        with self._lock:
            self._serial = port
            self._act(self._box.reopened())
        return True

    def _recover(self, cause: str, before: TimerState | None) -> None:
        """Re-opens the session after a reconnect or a reboot and says what happened."""
        try:
            state = self._handshake()
        except BridgeError as error:
            if not self._closing.is_set():
                self._lose_link(f"box did not answer the handshake after {cause}: {error}")
            return
        with self._lock:
            self._act(self._box.recovered(state, cause, before))

    def _request_check(self, cause: str) -> None:
        """Asks the box its state (on a thread: the reader must keep reading for the answer)."""
        if self._closing.is_set():
            return
        if not self._checking.acquire(blocking=False):
            return  # one check answers for every gap seen while it runs
        threading.Thread(target=self._check_state, args=(cause,), name="timer-check", daemon=True).start()

    def _check_state(self, cause: str) -> None:
        try:
            before = self._box.last_known
            try:
                reply = self._request(Verb.STATE, internal=True)
                state = TimerState.from_args(reply.args[1:])
            except BridgeError:
                return  # the link is failing: Disconnected / Reconnected tell the rest
            with self._lock:
                self._act(self._box.checked(state, cause, before))
        finally:
            self._checking.release()
