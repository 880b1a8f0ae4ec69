"""The timer box itself, as a pure state machine (no I/O, time is passed in).

The emulator wraps it in a pseudo-terminal; the C++ firmware (firmware/) implements
the same machine, and a test feeds both the same script and compares their output
byte for byte. Bytes in, frames out: `feed`, `press` and `poll` return the lines the
box would write to its serial port.
"""
from __future__ import annotations

from dataclasses import dataclass

from .protocol import (
    ARBITER_BUTTON,
    BUTTONS,
    MAX_LINE_BYTES,
    MAX_SHOW_CHARS,
    PROTOCOL_VERSION,
    ChecksumError,
    PressId,
    DeviceIdentity,
    Direction,
    Frame,
    FrameError,
    Mode,
    Phase,
    TimerState,
    Verb,
    format_frame,
    next_seq,
    parse_frame,
)

MAX_SECONDS = 86_400
MAX_BANK_MS = MAX_SECONDS * 1000
MAX_BEEP_MS = 5_000
DEFAULT_HEARTBEAT_MS = 1_000
HEARTBEAT_RANGE_MS = (50, 60_000)
SEATS_BY_MODE = {Mode.TURN: (1, 2, 3, 4), Mode.DUEL: (1, 2), Mode.SESSION: (0, 1, 2, 3, 4)}
# The clocks BANK can set: a DUEL side's bank, the SESSION's one countdown (seat 0); a TURN has none
# (each START gives a fresh turn).
BANK_SEATS = {Mode.TURN: (), Mode.DUEL: (1, 2), Mode.SESSION: (0,)}
# Commands a box answers before the HELLO handshake; the rest are refused with `no-session`,
# which is how a host learns that a box rebooted even if the RESET frame was lost.
SESSIONLESS = (Verb.HELLO, Verb.IDENTIFY, Verb.STATE)


class Refusal(Exception):
    """A command the box refuses; the argument is the reason word sent in NAK."""


@dataclass(frozen=True)
class DeviceSettings:
    model: str = "tileref-emu"
    firmware: str = "1.0"
    serial: str = "EMU-0001"
    clock_rate: float = 1.0  # device seconds per real second; > 1 makes tests fast
    press_ids: bool = True  # False: a box from before press ids (HELLO ids= refused with bad-args)
    banks: bool = True  # False: a box from before BANK (HELLO bank= refused, BANK an unknown verb)


def _parse_int(text: str, low: int, high: int, reason: str = "bad-args") -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise Refusal(reason)
    return int(text)


class DeviceModel:
    def __init__(self, boot_id: str, now_ms: int, settings: DeviceSettings = DeviceSettings(), reset_reason: str = "power"):
        self.settings = settings
        self.boot_id = boot_id
        self._seq = 0
        self._buffer = bytearray()
        self._overflow = False
        self.session = False
        self.heartbeat_ms = DEFAULT_HEARTBEAT_MS
        self._next_heartbeat = now_ms + self.heartbeat_ms
        self.mode: Mode | None = None
        self.seconds = 0
        self.phase = Phase.IDLE
        self.seat = 0
        self._left_ms = 0  # remaining when the clock last started or stopped
        self._run_since = 0
        self.banks: list[int] = []
        self.warn_at = 0
        self._warned: set[int] = set()
        self._shown_second: int | None = None
        self._last_command: tuple[bytes, bytes] | None = None  # (line, reply) for retries
        self.text = ""
        self.beep_until = 0
        self.presses = 0  # every press since power-on, sent as press= so a host can spot a replayed BTN line
        self.press_ids = False  # BTN carries boot= and press=: only for a host that asked (HELLO 1 ids=1)
        self._boot_lines = [self._emit(Verb.RESET, reset_reason, boot_id)]

    # -- output ------------------------------------------------------------------
    def boot_lines(self) -> list[bytes]:
        """The RESET frame sent at power-on (once)."""
        lines, self._boot_lines = self._boot_lines, []
        return lines

    def _emit(self, verb: Verb, *args: str) -> bytes:
        line = format_frame(Frame(Direction.EVENT, self._seq, verb, tuple(args)))
        self._seq = next_seq(self._seq)
        return line

    # -- clock -------------------------------------------------------------------
    def ms_left(self, now_ms: int) -> int:
        if self.phase is not Phase.RUNNING:
            return self._left_ms
        elapsed = int((now_ms - self._run_since) * self.settings.clock_rate)
        return max(0, self._left_ms - elapsed)

    def state(self, now_ms: int) -> TimerState:
        banks = list(self.banks)
        if self.mode is Mode.DUEL and self.phase is Phase.RUNNING:
            banks[self.seat - 1] = self.ms_left(now_ms)
        return TimerState(
            self.mode, self.seconds, self.phase, self.seat or None, self.ms_left(now_ms), self.warn_at, self.boot_id,
            tuple(banks), presses=self.presses,
        )

    def _freeze(self, now_ms: int) -> int:
        left = self.ms_left(now_ms)
        self._left_ms = left
        if self.mode is Mode.DUEL and self.seat:
            self.banks[self.seat - 1] = left
        return left

    def _run(self, seat: int, left_ms: int, now_ms: int) -> None:
        self.seat, self._left_ms, self._run_since = seat, left_ms, now_ms
        self.phase = Phase.RUNNING
        self._shown_second = None

    def poll(self, now_ms: int) -> list[bytes]:
        out: list[bytes] = []
        if self.phase is Phase.RUNNING:
            left = self.ms_left(now_ms)
            if left <= 0:
                self._freeze(now_ms)
                self.phase = Phase.EXPIRED
                self.beep_until = now_ms + 1000
                out.append(self._emit(Verb.EXPIRED, str(self.seat)))
            else:
                second = -(-left // 1000)
                if second != self._shown_second:
                    self._shown_second = second
                    out.append(self._emit(Verb.TICK, str(self.seat), str(second)))
                    if self.warn_at and second <= self.warn_at and self.seat not in self._warned:
                        self._warned.add(self.seat)
                        self.beep_until = now_ms + 200
                        out.append(self._emit(Verb.LOW_TIME, str(self.seat), str(second)))
        if now_ms >= self._next_heartbeat:
            self._next_heartbeat = now_ms + self.heartbeat_ms
            out.append(self._emit(Verb.HEARTBEAT, self.phase.value))
        return out

    def next_wakeup(self, now_ms: int) -> int:
        """The real time (ms) by which `poll` must run again."""
        wake = self._next_heartbeat
        if self.phase is Phase.RUNNING:
            left = self.ms_left(now_ms)
            to_boundary = left - (-(-left // 1000) - 1) * 1000 if left > 0 else 0
            rate = self.settings.clock_rate
            wake = min(wake, now_ms + max(1, -int(-to_boundary // rate)))
        return wake

    # -- buttons -----------------------------------------------------------------
    def press(self, button: str, now_ms: int) -> list[bytes]:
        if button not in BUTTONS:
            return []
        running = self.phase is Phase.RUNNING
        left = self.ms_left(now_ms)
        self.presses += 1
        ids = PressId(self.boot_id, self.presses).to_args() if self.press_ids else ()
        out = [self._emit(Verb.BUTTON, button, str(self.seat if running else 0), str(left), *ids)]
        if running and button != ARBITER_BUTTON and int(button) == self.seat:
            if self.mode is Mode.TURN:
                self._freeze(now_ms)
                self.phase = Phase.HELD
            elif self.mode is Mode.DUEL:
                self._freeze(now_ms)
                other = 3 - self.seat
                self._run(other, self.banks[other - 1], now_ms)
        return out + self.poll(now_ms)

    # -- serial input ------------------------------------------------------------
    def feed(self, data: bytes, now_ms: int) -> list[bytes]:
        """Bytes from the serial port; answers every complete line."""
        out: list[bytes] = []
        for byte in data:
            if byte == 0x0A:
                if self._overflow:
                    out.append(self._emit(Verb.ERROR, "toolong"))
                elif self._buffer:
                    out += self.receive(bytes(self._buffer), now_ms)
                self._buffer.clear()
                self._overflow = False
            elif len(self._buffer) >= MAX_LINE_BYTES:
                self._overflow = True
            else:
                self._buffer.append(byte)
        return out

    def receive(self, line: bytes, now_ms: int) -> list[bytes]:
        line = line.rstrip(b"\r\n")
        if self._last_command and self._last_command[0] == line:
            return [self._last_command[1]]  # a retry: same answer, not done twice
        try:
            frame = parse_frame(line)
        except ChecksumError:
            return [self._emit(Verb.ERROR, "checksum")]
        except FrameError:
            return [self._emit(Verb.ERROR, "frame")]
        if frame.direction is not Direction.COMMAND or (frame.verb is Verb.SET_BANK and not self.settings.banks):
            return [self._emit(Verb.ERROR, "frame")]  # a box from before BANK does not know the verb
        try:
            if not self.session and frame.verb not in SESSIONLESS:
                raise Refusal("no-session")
            args = self._COMMANDS[frame.verb](self, frame.args, now_ms)
            reply = self._emit(Verb.ACK, str(frame.seq), *args)
        except Refusal as refusal:
            reply = self._emit(Verb.REFUSE, str(frame.seq), str(refusal))
        self._last_command = (line, reply)
        return [reply] + self.poll(now_ms)

    # -- commands ----------------------------------------------------------------
    def _hello(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        if args[0] != str(PROTOCOL_VERSION):
            raise Refusal("version")
        # One option per HELLO, so a host can probe `ids=1` on a box that predates it: an old
        # box refuses it with bad-args and keeps the session the `hb=` HELLO opened.
        press_ids = False  # any other HELLO turns ids off: a version 1.0 host cannot read them
        extra: tuple[str, ...] = ()
        if len(args) > 1:
            key, _, value = args[1].partition("=")
            if key == "hb":
                heartbeat_ms = _parse_int(value, *HEARTBEAT_RANGE_MS)
            elif key == "ids" and self.settings.press_ids:
                press_ids = _parse_int(value, 0, 1) == 1
                heartbeat_ms = self.heartbeat_ms  # kept: this HELLO only adds an option
            elif key == "bank" and self.settings.banks:
                # A question, not a switch: the answer names BANK, which the box takes in any session.
                _parse_int(value, 1, 1)
                heartbeat_ms, extra = self.heartbeat_ms, ("bank=1",)
            else:
                raise Refusal("bad-args")
            self.heartbeat_ms = heartbeat_ms
        self.press_ids = press_ids
        self.session = True
        self._next_heartbeat = now_ms + self.heartbeat_ms
        return (f"proto={PROTOCOL_VERSION}", f"hb={self.heartbeat_ms}", f"ids={int(press_ids)}", *extra)

    def _identify(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        s = self.settings
        return DeviceIdentity(s.model, s.firmware, s.serial, self.boot_id, BUTTONS).to_args()

    def _state(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        return self.state(now_ms).to_args()

    def _configure(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        if args[0] not in Mode._value2member_map_:
            raise Refusal("bad-args")
        seconds = _parse_int(args[1], 1, MAX_SECONDS)
        if self.phase in (Phase.RUNNING, Phase.PAUSED):
            raise Refusal("busy")
        self.mode, self.seconds = Mode(args[0]), seconds
        self._reset_clock()
        return self._state(args, now_ms)

    def _reset_clock(self) -> None:
        self.phase, self.seat, self._left_ms = Phase.READY, 0, self.seconds * 1000
        self.banks = [self.seconds * 1000] * 2 if self.mode is Mode.DUEL else []
        self._warned.clear()
        self._shown_second = None

    def _require_mode(self) -> Mode:
        if self.mode is None:
            raise Refusal("not-configured")
        return self.mode

    def _start(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        mode = self._require_mode()
        if not args[0].isdigit() or int(args[0]) not in SEATS_BY_MODE[mode]:
            raise Refusal("bad-seat")
        seat = int(args[0])
        if mode is Mode.TURN:
            self._warned.clear()
            self._run(seat, self.seconds * 1000, now_ms)
        else:
            if self.phase is Phase.EXPIRED:
                raise Refusal("expired")
            left = self._freeze(now_ms) if self.phase is Phase.RUNNING else self._left_ms
            self._run(seat, self.banks[seat - 1] if mode is Mode.DUEL else left, now_ms)
        return self._state(args, now_ms)

    def _set_bank(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        """Sets one clock's time left without running it: how a host gives a rebooted box back
        two different DUEL banks (CONF sets both to the same seconds) or a session's exact time."""
        mode = self._require_mode()
        if not args[0].isdigit() or int(args[0]) not in BANK_SEATS[mode]:
            raise Refusal("bad-seat")
        seat, ms = int(args[0]), _parse_int(args[1], 1, MAX_BANK_MS)
        if self.phase is Phase.RUNNING:
            raise Refusal("busy")
        if self.phase is Phase.EXPIRED:
            raise Refusal("expired")
        if mode is Mode.DUEL:
            self.banks[seat - 1] = ms
            if self.seat == seat:
                self._left_ms = ms  # the paused side: RESUME counts on from here
        else:
            self._left_ms = ms
        return self._state(args, now_ms)

    def _pause(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        if self.phase is not Phase.RUNNING:
            raise Refusal("not-running")
        self._freeze(now_ms)
        self.phase = Phase.PAUSED
        return self._state(args, now_ms)

    def _resume(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        if self.phase is not Phase.PAUSED:
            raise Refusal("not-paused")
        self.phase, self._run_since = Phase.RUNNING, now_ms
        return self._state(args, now_ms)

    def _stop(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        self._require_mode()
        self._reset_clock()
        return self._state(args, now_ms)

    def _warn_at(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        self.warn_at = _parse_int(args[0], 0, MAX_SECONDS)
        self._warned.clear()
        return self._state(args, now_ms)

    def _beep(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        self.beep_until = now_ms + _parse_int(args[0], 1, MAX_BEEP_MS)
        return ()

    def _show(self, args: tuple[str, ...], now_ms: int) -> tuple[str, ...]:
        text = args[0] if args else ""
        if len(text) > MAX_SHOW_CHARS:
            raise Refusal("too-long")
        self.text = text
        return ()

    _COMMANDS = {
        Verb.HELLO: _hello,
        Verb.IDENTIFY: _identify,
        Verb.STATE: _state,
        Verb.CONFIGURE: _configure,
        Verb.START: _start,
        Verb.PAUSE: _pause,
        Verb.RESUME: _resume,
        Verb.STOP: _stop,
        Verb.WARN_AT: _warn_at,
        Verb.BEEP: _beep,
        Verb.SHOW: _show,
        Verb.SET_BANK: _set_bank,
    }

    def display(self, now_ms: int) -> str:
        """One line for a terminal: what the box's display and buzzer would show."""
        left = self.ms_left(now_ms)
        minutes, seconds = divmod(-(-left // 1000), 60)
        mode = self.mode.value if self.mode else "----"
        seat = f"seat {self.seat}" if self.seat else "seat -"
        parts = [f"{mode:7} {seat}  {minutes:3d}:{seconds:02d}  {self.phase.value:5}"]
        if self.mode is Mode.DUEL:
            parts.append(" ".join(f"[{i}] {-(-ms // 1000)}s" for i, ms in enumerate(self.state(now_ms).banks, 1)))
        parts.append(f"'{self.text}'")
        if now_ms < self.beep_until:
            parts.append("BEEP")
        return "  ".join(parts)
