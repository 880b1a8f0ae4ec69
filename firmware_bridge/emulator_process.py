"""Runs the emulated timer box as a separate process, for tests and demos.

    with EmulatorProcess(clock_rate=20) as box:
        with TimerDriver(box.port) as timer:
            ...
            box.press("1")          # a player hits seat button 1
            box.reset()             # the box's microcontroller reboots mid-turn
            box.kill(); box.restart()  # unplugged, plugged back (new process, new pty)
            box.drop("TICK"); box.replay("BTN"); box.unplug(0.5)   # line faults

`port` is a stable symlink (in a private temporary directory unless `link` is
given) that always names the current pty, the way /dev/serial/by-id/... names a
real USB box whatever /dev/ttyACMn it gets; `kill()` removes it, as udev does on
unplug. The control channel is the child's stdin (lines `press B`, `reset R`,
`noise HEX`, `hang S`, `drop [VERB] [N]`, `replay [VERB]`, `unplug S`, `quit`); the child
exits when its stdin closes, so no orphan outlives a test.
"""
from __future__ import annotations

import os
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .protocol import ARITY, BUTTONS, VERBS_BY_WORD, BridgeError, Direction, Verb


class EmulatorError(BridgeError):
    """The emulator process did not start or is not running, or a control call was nonsense."""


def _direction(verb: Verb) -> Direction:
    return ARITY[verb].direction


class EmulatorProcess:
    def __init__(
        self,
        link: str | os.PathLike[str] | None = None,
        *,
        clock_rate: float = 1.0,
        serial: str = "EMU-0001",
        start_timeout: float = 10.0,
        press_ids: bool = True,
        banks: bool = True,
    ):
        self._own_dir = None if link is not None else tempfile.TemporaryDirectory(prefix="tileref-timer-")
        self.link = Path(link) if link is not None else Path(self._own_dir.name) / "tileref-timer"
        self.clock_rate = clock_rate
        self.serial = serial
        self.press_ids = press_ids  # False: an older box that does not tag presses
        self.banks = banks  # False: an older box that cannot be given its clocks' times (no BANK)
        self.start_timeout = start_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self.pty_path: str | None = None

    @property
    def port(self) -> str:
        """The stable path a driver opens (a symlink to the current pty)."""
        return str(self.link)

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> EmulatorProcess:
        if self.running:
            raise EmulatorError("the emulator is already running")
        command = [
            sys.executable, "-m", "firmware_bridge.emulator",
            "--control", "stdin", "--link", str(self.link),
            "--clock-rate", repr(self.clock_rate), "--serial", self.serial,
            *([] if self.press_ids else ["--no-press-ids"]),
            *([] if self.banks else ["--no-bank"]),
        ]  # fmt: skip
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._process = process
        deadline = time.monotonic() + self.start_timeout
        output = b""
        while b"LINK " not in output or not output.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or process.poll() is not None:
                self.kill()
                raise EmulatorError(f"emulator did not announce its port within {self.start_timeout} s: {output!r}")
            readable, _, _ = select.select([process.stdout], [], [], remaining)
            if readable:
                output += os.read(process.stdout.fileno(), 4096)
        for line in output.decode("ascii").splitlines():
            if line.startswith("PORT "):
                self.pty_path = line[5:]
        return self

    def _send(self, line: str) -> None:
        if not self.running:
            raise EmulatorError(f"cannot send {line!r}: the emulator is not running")
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.write(line.encode("ascii") + b"\n")
        self._process.stdin.flush()

    def press(self, button: str) -> None:
        """A press of a box button: '1'..'4' (seats) or 'A' (arbiter)."""
        if button not in BUTTONS:
            raise EmulatorError(f"unknown button {button!r}; the box has {', '.join(BUTTONS)}")
        self._send(f"press {button}")

    def reset(self, reason: str = "power", *, announce: bool = True) -> None:
        """The box's microcontroller restarts (clock lost); the serial link stays.

        announce=False: the box's RESET frame is lost on the wire, so the driver can
        only find out from the box refusing its next command (`no-session`).
        """
        if not reason.isidentifier():
            raise EmulatorError(f"reset reason {reason!r} must be one word")
        self._send(f"reset {reason}" + ("" if announce else " quiet"))

    def send_noise(self, data: bytes) -> None:
        """Raw bytes from the box to the host that are not a frame (a garbled or cut line)."""
        self._send(f"noise {data.hex()}")

    def hang(self, seconds: float) -> None:
        """The box stops answering and sending heartbeats for `seconds` (the pty stays)."""
        self._send(f"hang {seconds}")

    def drop(self, verb: str | None = None, count: int = 1) -> None:
        """The next `count` frames the box sends (of `verb`, e.g. "TICK", or of any verb) are lost on the wire.

        The box counts them all the same, so the host sees a gap in the sequence numbers.
        """
        self._check_event_verb(verb)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise EmulatorError(f"drop count must be a whole number >= 1, got {count!r}")
        self._send(" ".join(["drop", *([verb] if verb else []), str(count)]))

    def replay(self, verb: str = "BTN") -> None:
        """The last frame of `verb` the box sent appears on the wire again, byte for byte."""
        self._check_event_verb(verb)
        self._send(f"replay {verb}")

    def unplug(self, seconds: float) -> None:
        """The cable is out for `seconds` while the box keeps its power: the pty and the link go,
        the clock runs on, frames sent meanwhile are lost; then a new pty behind the same link."""
        if not 0 < seconds <= 600:
            raise EmulatorError(f"unplug time must be in (0, 600] seconds, got {seconds!r}")
        self._send(f"unplug {seconds}")

    @staticmethod
    def _check_event_verb(verb: str | None) -> None:
        if verb is None:
            return
        known = VERBS_BY_WORD.get(verb)
        if known is None or _direction(known) is not Direction.EVENT:
            raise EmulatorError(f"{verb!r} is not a frame the box sends; box verbs are "
                                f"{', '.join(v.value for v in Verb if _direction(v) is Direction.EVENT)}")

    def kill(self) -> None:
        """Yanks the cable: the process dies at once, the pty vanishes, the link goes."""
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            self._process.wait()
            for stream in (self._process.stdin, self._process.stdout):
                if stream is not None:
                    stream.close()
            self._process = None
        if self.link.is_symlink():
            self.link.unlink()

    def restart(self) -> EmulatorProcess:
        """Plugs a box back in: a new process, a new pty behind the same `port` link."""
        self.kill()
        return self.start()

    def close(self) -> None:
        if self.running:
            try:
                self._send("quit")
                assert self._process is not None
                self._process.wait(timeout=2)
            except (subprocess.TimeoutExpired, OSError, EmulatorError):
                pass
        self.kill()
        if self._own_dir is not None:
            self._own_dir.cleanup()

    def __enter__(self) -> EmulatorProcess:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()
