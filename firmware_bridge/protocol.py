"""The timer wire protocol, version 1: a pure parser and formatter (no I/O).

One frame is one ASCII line::

    >17 START 2 *3F0A\\n        host to box (a command)
    <42 ACK 17 mode=TURN ... *91C2\\n   box to host (an event or a reply)

direction mark, sequence number (0..65535), verb, arguments, then ` *` and the
CRC-16/CCITT-FALSE of everything before the ` *`, as four upper-case hex digits.
Arguments are percent-encoded so they never hold a space, `*` or `%`.
The full description is in PROTOCOL.md; the C++ firmware implements the same rules.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 160
MAX_SEQ = 0xFFFF
MAX_SHOW_CHARS = 16
SEAT_BUTTONS = ("1", "2", "3", "4")
ARBITER_BUTTON = "A"
BUTTONS = SEAT_BUTTONS + (ARBITER_BUTTON,)


class BridgeError(Exception):
    """Anything that went wrong between us and the timer box."""


class FrameError(BridgeError):
    """A line that is not a well-formed frame."""


class ChecksumError(FrameError):
    """A line whose checksum does not match its content (noise on the wire)."""


class SequenceError(BridgeError):
    """A frame whose sequence number is not the one expected (frames were lost)."""

    def __init__(self, message: str, expected: int, received: int):
        super().__init__(message)
        self.expected = expected
        self.received = received


class StaleFrameError(SequenceError):
    """A frame numbered behind the last one: an old line replayed, or a box that restarted
    its count without its RESET frame reaching us. Only a state query tells which."""


class Direction(enum.Enum):
    COMMAND = ">"  # host to box
    EVENT = "<"  # box to host


class Verb(enum.Enum):
    # commands (host to box)
    HELLO = "HELLO"
    IDENTIFY = "ID"
    CONFIGURE = "CONF"
    START = "START"
    PAUSE = "PAUSE"
    RESUME = "RESUME"
    STOP = "STOP"
    WARN_AT = "WARN"
    BEEP = "BEEP"
    SHOW = "SHOW"
    STATE = "STATE"
    SET_BANK = "BANK"  # optional: a box that takes it says so when asked (HELLO 1 bank=1)
    # events (box to host)
    ACK = "ACK"
    REFUSE = "NAK"
    BUTTON = "BTN"
    TICK = "TICK"
    LOW_TIME = "LOW"
    EXPIRED = "EXP"
    ERROR = "ERR"
    HEARTBEAT = "HB"
    RESET = "RESET"


@dataclass(frozen=True)
class Arity:
    direction: Direction
    least: int
    most: int


# Variants are data: which way each verb travels and how many arguments it takes.
ARITY: dict[Verb, Arity] = {
    Verb.HELLO: Arity(Direction.COMMAND, 1, 2),
    Verb.IDENTIFY: Arity(Direction.COMMAND, 0, 0),
    Verb.CONFIGURE: Arity(Direction.COMMAND, 2, 2),
    Verb.START: Arity(Direction.COMMAND, 1, 1),
    Verb.PAUSE: Arity(Direction.COMMAND, 0, 0),
    Verb.RESUME: Arity(Direction.COMMAND, 0, 0),
    Verb.STOP: Arity(Direction.COMMAND, 0, 0),
    Verb.WARN_AT: Arity(Direction.COMMAND, 1, 1),
    Verb.BEEP: Arity(Direction.COMMAND, 1, 1),
    Verb.SHOW: Arity(Direction.COMMAND, 0, 1),
    Verb.STATE: Arity(Direction.COMMAND, 0, 0),
    Verb.SET_BANK: Arity(Direction.COMMAND, 2, 2),  # seat (DUEL 1..2; seat 0 in SESSION mode), ms left
    Verb.ACK: Arity(Direction.EVENT, 1, 12),
    Verb.REFUSE: Arity(Direction.EVENT, 2, 2),
    # BTN: button, running seat, ms left, then key=value words (boot=, press=) that a reader
    # ignores when it does not know them; a box sends them only to a host that asked (HELLO ids=1).
    Verb.BUTTON: Arity(Direction.EVENT, 3, 12),
    Verb.TICK: Arity(Direction.EVENT, 2, 2),
    Verb.LOW_TIME: Arity(Direction.EVENT, 2, 2),
    Verb.EXPIRED: Arity(Direction.EVENT, 1, 1),
    Verb.ERROR: Arity(Direction.EVENT, 1, 2),
    Verb.HEARTBEAT: Arity(Direction.EVENT, 1, 1),
    Verb.RESET: Arity(Direction.EVENT, 2, 2),
}
VERBS_BY_WORD = {verb.value: verb for verb in Verb}


class Mode(enum.Enum):
    TURN = "TURN"  # a fresh countdown of N seconds for each START (Rummikub turns)
    DUEL = "DUEL"  # two banks of N seconds, the running side's button hands over (shogi, othello)
    SESSION = "SESSION"  # one countdown for the whole session (a mahjong hanchan)


class Phase(enum.Enum):
    IDLE = "IDLE"  # not configured since power-on
    READY = "READY"  # configured, not running
    RUNNING = "RUN"
    PAUSED = "PAUSE"
    HELD = "HELD"  # TURN mode: the player pressed their button, time frozen at the press
    EXPIRED = "EXP"


@dataclass(frozen=True)
class Frame:
    direction: Direction
    seq: int
    verb: Verb
    args: tuple[str, ...] = ()


def quote(line: bytes | str, limit: int = 80) -> str:
    """The offending line as it appears in error messages: quoted, escaped, cut to `limit`."""
    if isinstance(line, (bytes, bytearray)):
        line = bytes(line).decode("ascii", "backslashreplace")
    text = repr(line if len(line) <= limit else line[:limit])
    return text if len(line) <= limit else text + "..."


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF); check value of b'123456789' is 0x29B1."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def _is_plain(code: int) -> bool:
    return 0x21 <= code <= 0x7E and code not in (0x25, 0x2A)  # not '%' nor '*'


def encode_arg(text: str) -> str:
    """Percent-encode one argument; only ASCII can travel (the box has an ASCII display)."""
    try:
        raw = text.encode("ascii")
    except UnicodeEncodeError:
        raise FrameError(f"argument {quote(text)} is not ASCII") from None
    return "".join(chr(b) if _is_plain(b) else f"%{b:02X}" for b in raw)


_ESCAPE = re.compile(r"%([0-9A-F]{2})")


def decode_arg(token: str, line: bytes | str) -> str:
    if any(not _is_plain(ord(c)) and c != "%" for c in token):
        raise FrameError(f"argument {token!r} holds a character that must be escaped, in line {quote(line)}")
    stripped = _ESCAPE.sub("", token)
    if "%" in stripped:
        raise FrameError(f"bad %-escape in argument {token!r}, in line {quote(line)}")
    decoded = _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), token)
    if any(not 0x20 <= ord(c) <= 0x7E for c in decoded):
        raise FrameError(f"argument {token!r} decodes to a control character, in line {quote(line)}")
    return decoded


def format_frame(frame: Frame) -> bytes:
    """The wire bytes of a frame, newline included."""
    arity = ARITY[frame.verb]
    if arity.direction is not frame.direction:
        raise FrameError(f"verb {frame.verb.value} does not travel in direction {frame.direction.value!r}")
    if not arity.least <= len(frame.args) <= arity.most:
        raise FrameError(
            f"verb {frame.verb.value} takes {arity.least}..{arity.most} arguments, got {len(frame.args)}: {frame.args!r}"
        )
    if not 0 <= frame.seq <= MAX_SEQ:
        raise FrameError(f"sequence number {frame.seq} is outside 0..{MAX_SEQ}")
    words = [f"{frame.direction.value}{frame.seq}", frame.verb.value, *map(encode_arg, frame.args)]
    for arg, word in zip(frame.args, words[2:]):
        if not word:
            raise FrameError(f"argument {arg!r} is empty; empty arguments cannot travel")
    body = " ".join(words).encode("ascii")
    line = body + b" *%04X\n" % crc16(body)
    if len(line) > MAX_LINE_BYTES:
        raise FrameError(f"frame {quote(line)} is {len(line)} bytes, more than {MAX_LINE_BYTES}")
    return line


_SEQ = re.compile(r"(0|[1-9][0-9]{0,4})")
_CHECK = re.compile(r"[0-9A-F]{4}")


def parse_frame(line: bytes | str) -> Frame:
    """One frame from one line (trailing CR/LF allowed). Raises FrameError and subclasses."""
    if isinstance(line, str):
        try:
            raw = line.encode("ascii")
        except UnicodeEncodeError:
            raise FrameError(f"non-ASCII character in line {quote(line)}") from None
    else:
        raw = bytes(line)
    raw = raw.rstrip(b"\r\n")
    if not raw:
        raise FrameError("empty line")
    if len(raw) > MAX_LINE_BYTES:
        raise FrameError(f"line of {len(raw)} bytes is longer than {MAX_LINE_BYTES}: {quote(raw)}")
    bad = next((b for b in raw if not 0x20 <= b <= 0x7E), None)
    if bad is not None:
        raise FrameError(f"byte 0x{bad:02X} is not printable ASCII, in line {quote(raw)}")
    text = raw.decode("ascii")
    body, star, check = text.rpartition(" *")
    if not star:
        raise FrameError(f"no ' *CRC' checksum at the end of line {quote(raw)}")
    if not _CHECK.fullmatch(check):
        raise FrameError(f"checksum {check!r} is not four upper-case hex digits, in line {quote(raw)}")
    actual = crc16(body.encode("ascii"))
    if actual != int(check, 16):
        raise ChecksumError(f"checksum says {check} but the content sums to {actual:04X}, in line {quote(raw)}")
    if body[:1] not in ("<", ">"):
        raise FrameError(f"line must start with '<' or '>', got {body[:1]!r}, in line {quote(raw)}")
    direction = Direction(body[0])
    words = body[1:].split(" ")
    if len(words) < 2 or any(not w for w in words):
        raise FrameError(f"expected 'SEQ VERB args' separated by single spaces, in line {quote(raw)}")
    seq_word, verb_word, *arg_words = words
    if not _SEQ.fullmatch(seq_word) or int(seq_word) > MAX_SEQ:
        raise FrameError(f"sequence number {seq_word!r} is not a number in 0..{MAX_SEQ}, in line {quote(raw)}")
    verb = VERBS_BY_WORD.get(verb_word)
    if verb is None:
        raise FrameError(f"unknown verb {verb_word!r} in line {quote(raw)}")
    arity = ARITY[verb]
    if arity.direction is not direction:
        raise FrameError(f"verb {verb_word} cannot travel in direction {direction.value!r}, in line {quote(raw)}")
    if not arity.least <= len(arg_words) <= arity.most:
        raise FrameError(
            f"verb {verb_word} takes {arity.least}..{arity.most} arguments, got {len(arg_words)}, in line {quote(raw)}"
        )
    args = tuple(decode_arg(word, raw) for word in arg_words)
    return Frame(direction, int(seq_word), verb, args)


def next_seq(seq: int) -> int:
    return (seq + 1) & MAX_SEQ


# A number less than half the sequence space behind the last one is an old frame; further
# behind it is taken as ahead (a gap), as with TCP's serial-number arithmetic.
STALE_WINDOW = (MAX_SEQ + 1) // 2


@dataclass
class SequenceTracker:
    """Checks that frames from the box come in order; mutable, one per connection."""

    last: int | None = None

    def check(self, frame: Frame) -> bool:
        """True for a new frame, False for a repeat of the last one (a retried reply).

        A RESET frame restarts the count. Raises SequenceError on a gap, after
        re-synchronising on the received number so one loss is reported once.
        Raises StaleFrameError for a frame behind the last one *without*
        re-synchronising: a replayed old line must not make the next good frame
        look like a gap (see `resync` for a frame known to be new).
        """
        if frame.verb is Verb.RESET or self.last is None:
            self.last = frame.seq
            return True
        if frame.seq == self.last:
            return False
        behind = (self.last - frame.seq) & MAX_SEQ
        if behind < STALE_WINDOW:
            raise StaleFrameError(
                f"sequence number {frame.seq} in {frame.verb.value} frame is {behind} behind the last one "
                f"({self.last}): an old frame replayed, or the box restarted its count",
                next_seq(self.last),
                frame.seq,
            )
        expected = next_seq(self.last)
        self.last = frame.seq
        if frame.seq != expected:
            raise SequenceError(
                f"expected sequence number {expected}, got {frame.seq} in {frame.verb.value} frame "
                f"({(frame.seq - expected) & MAX_SEQ} frame(s) lost)",
                expected,
                frame.seq,
            )
        return True

    def resync(self, seq: int) -> None:
        """Continue counting from `seq`: a frame proven new (the answer to our own fresh command)."""
        self.last = seq


def _int(value: str, key: str, args: tuple[str, ...]) -> int:
    if not re.fullmatch(r"-?[0-9]{1,10}", value):
        raise FrameError(f"{key}={value!r} is not an integer, in arguments {args!r}")
    return int(value)


@dataclass(frozen=True)
class TimerState:
    """What the box says about itself (the key=value arguments of most ACKs)."""

    mode: Mode | None  # None: never configured since power-on
    seconds: int  # configured seconds (per turn, per side, or for the session)
    phase: Phase
    seat: int | None  # the seat whose time runs or last ran
    ms_left: int  # the running (or last running) clock
    warn_at: int  # seconds left at which LOW fires; 0 = off
    boot_id: str  # changes at every power-on: tells a replug from a reboot
    banks: tuple[int, ...] = field(default=())  # DUEL: ms left per seat, seat 1 first
    # Button presses since power-on (`press=`); None from a box that does not count them.
    # A host compares it with the last press it heard to drop replayed BTN lines.
    presses: int | None = None

    @property
    def seconds_left(self) -> int:
        return -(-self.ms_left // 1000)

    def to_args(self) -> tuple[str, ...]:
        args = [
            f"mode={self.mode.value if self.mode else 'NONE'}",
            f"secs={self.seconds}",
            f"phase={self.phase.value}",
            f"seat={self.seat or 0}",
            f"left={self.ms_left}",
            f"warn={self.warn_at}",
            f"boot={self.boot_id}",
        ]
        args += [f"bank{i}={ms}" for i, ms in enumerate(self.banks, start=1)]
        if self.presses is not None:
            args.append(f"press={self.presses}")
        return tuple(args)

    @classmethod
    def from_args(cls, args: tuple[str, ...]) -> TimerState:
        """Reads key=value arguments; unknown keys are ignored so version 1 can grow."""
        pairs: dict[str, str] = {}
        for arg in args:
            key, equals, value = arg.partition("=")
            if equals:
                pairs[key] = value
        missing = [k for k in ("mode", "secs", "phase", "seat", "left", "warn", "boot") if k not in pairs]
        if missing:
            raise FrameError(f"state lacks {', '.join(missing)}, in arguments {args!r}")
        mode_word, phase_word = pairs["mode"], pairs["phase"]
        if mode_word != "NONE" and mode_word not in Mode._value2member_map_:
            raise FrameError(f"unknown mode {mode_word!r}, in arguments {args!r}")
        if phase_word not in Phase._value2member_map_:
            raise FrameError(f"unknown phase {phase_word!r}, in arguments {args!r}")
        banks = []
        while f"bank{len(banks) + 1}" in pairs:
            key = f"bank{len(banks) + 1}"
            banks.append(_int(pairs[key], key, args))
        seat = _int(pairs["seat"], "seat", args)
        return cls(
            mode=None if mode_word == "NONE" else Mode(mode_word),
            seconds=_int(pairs["secs"], "secs", args),
            phase=Phase(phase_word),
            seat=seat or None,
            ms_left=_int(pairs["left"], "left", args),
            warn_at=_int(pairs["warn"], "warn", args),
            boot_id=pairs["boot"],
            banks=tuple(banks),
            presses=_int(pairs["press"], "press", args) if "press" in pairs else None,
        )


@dataclass(frozen=True)
class PressId:
    """What makes a button press unique: the boot it happened in and the box's press counter.

    A BTN line carries it (`boot=ID press=N`) when the host asked with `HELLO 1 ids=1`;
    a line whose counter is not newer than the last one heard from that boot is a replay.
    """

    boot_id: str
    counter: int

    @classmethod
    def from_args(cls, args: tuple[str, ...]) -> PressId | None:
        """The id in a BTN frame's trailing key=value words; None when the box sent none."""
        pairs = dict(a.partition("=")[::2] for a in args[3:] if "=" in a)
        if "boot" not in pairs or "press" not in pairs:
            return None
        return cls(pairs["boot"], _int(pairs["press"], "press", args))

    def to_args(self) -> tuple[str, ...]:
        return (f"boot={self.boot_id}", f"press={self.counter}")


@dataclass(frozen=True)
class DeviceIdentity:
    model: str
    firmware: str
    serial: str
    boot_id: str
    buttons: tuple[str, ...]

    def to_args(self) -> tuple[str, ...]:
        return (
            f"model={self.model}",
            f"fw={self.firmware}",
            f"serial={self.serial}",
            f"boot={self.boot_id}",
            f"buttons={','.join(self.buttons)}",
        )

    @classmethod
    def from_args(cls, args: tuple[str, ...]) -> DeviceIdentity:
        pairs = dict(a.partition("=")[::2] for a in args if "=" in a)
        missing = [k for k in ("model", "fw", "serial", "boot", "buttons") if k not in pairs]
        if missing:
            raise FrameError(f"identity lacks {', '.join(missing)}, in arguments {args!r}")
        return cls(pairs["model"], pairs["fw"], pairs["serial"], pairs["boot"], tuple(pairs["buttons"].split(",")))
