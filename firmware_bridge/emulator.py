"""The timer box emulated behind a real pseudo-terminal.

    python -m firmware_bridge.emulator [--link PATH] [--clock-rate X] [--control keys|stdin]

The first line on stdout is `PORT <pty path>` (and `LINK <path>` when --link is
given: a symlink that always names the current pty, like /dev/serial/by-id for a
real USB box; it is replaced atomically at start-up and removed at exit).

Control: `keys` (an interactive terminal) reads single keys: 1-4 are the seat
buttons, a the arbiter button, r a power reset, q quits; the countdown is redrawn
on one line. `stdin` (for scripts, see EmulatorProcess) reads lines:
`press BUTTON`, `reset [REASON [quiet]]` (quiet: the RESET frame is lost), `noise HEX` (raw bytes onto the wire),
`hang SECONDS` (stop serving, as a hung microcontroller), `quit`, and the line faults:
`drop [VERB] [COUNT]` (the next COUNT frames, of VERB or any, are lost on the wire),
`replay [VERB]` (the last frame of VERB, default BTN, is sent again as it was),
`unplug SECONDS` (the cable is out: the pty goes, the box keeps its power and clock, then a
new pty comes behind the same --link).
"""
from __future__ import annotations

import argparse
import errno
import os
import secrets
import select
import signal
import sys
import termios
import threading
import time
import tty
from dataclasses import dataclass
from pathlib import Path

from .device_model import DeviceModel, DeviceSettings
from .protocol import BridgeError



def _now_ms() -> int:
    return time.monotonic_ns() // 1_000_000


@dataclass(frozen=True)
class Drop:
    """Frames still to be lost on the wire: `count` more of `verb` (None: of any verb)."""

    verb: str | None
    count: int


def _verb_of(line: bytes) -> str:
    words = line.split(b" ", 2)
    return words[1].decode("ascii", "replace") if len(words) > 1 else ""


class PtyBox:
    """A DeviceModel wired to the master side of a pty."""

    def __init__(self, settings: DeviceSettings, link: Path | None):
        self.settings = settings
        self.link = link
        self.master: int | None = None
        self._plug()
        self._drop: Drop | None = None
        self._last_by_verb: dict[str, bytes] = {}
        self.replug_at: float | None = None  # time.monotonic() when an unplugged cable comes back
        self.model = self._boot("power")

    def _plug(self) -> None:
        master, slave = os.openpty()
        # Raw at once: otherwise the line discipline echoes our own frames back to us.
        tty.setraw(slave, termios.TCSANOW)
        self._slave = slave  # held open so the master never reads EIO while no host is attached
        self.pty_path = os.ttyname(slave)
        os.set_blocking(master, False)
        self.master = master
        if self.link is not None:
            temporary = self.link.with_name(f".{self.link.name}.{os.getpid()}")
            try:
                temporary.unlink(missing_ok=True)
                os.symlink(self.pty_path, temporary)
                os.replace(temporary, self.link)
            except OSError as error:
                try:
                    temporary.unlink(missing_ok=True)
                except OSError:
                    pass
                self._close_pty()
                raise BridgeError(f"--link {str(self.link)!r}: cannot make the link there: "
                                  f"{error.strerror or error}") from None

    def _unplug_port(self) -> None:
        if self.master is None:
            return
        if self.link is not None and self.link.is_symlink() and os.readlink(self.link) == self.pty_path:
            self.link.unlink()  # as udev removes /dev/serial/by-id/... when the cable goes
        self._close_pty()

    def _close_pty(self) -> None:
        if self.master is not None:
            os.close(self.master)
            os.close(self._slave)
        self.master = None

    def unplug(self, seconds: float) -> None:
        """The cable is out for `seconds`: the host's port vanishes, the box runs on (own power)."""
        self._unplug_port()
        self.replug_at = time.monotonic() + seconds

    def drop(self, verb: str | None, count: int) -> None:
        """The next `count` frames (of `verb`, or any) the box sends are lost on the wire."""
        self._drop = Drop(verb, count)

    def replay(self, verb: str) -> None:
        """The last frame of `verb` appears on the wire again, byte for byte (a line replayed)."""
        line = self._last_by_verb.get(verb)
        if line is not None:
            self._write_wire(line)

    def _boot(self, reason: str, announce: bool = True) -> DeviceModel:
        model = DeviceModel(secrets.token_hex(4), _now_ms(), self.settings, reset_reason=reason)
        lines = model.boot_lines()
        if announce:
            self._write(lines)
        return model

    def reset(self, reason: str = "power", announce: bool = True) -> None:
        """The microcontroller restarts; the USB-serial link stays (as with a separate USB chip).

        announce=False loses the RESET frame on the wire, as noise might.
        """
        self.model = self._boot(reason, announce)

    def _write(self, lines: list[bytes]) -> None:
        for line in lines:
            verb = _verb_of(line)
            self._last_by_verb[verb] = line
            drop = self._drop
            if drop is not None and drop.verb in (None, verb):
                self._drop = Drop(drop.verb, drop.count - 1) if drop.count > 1 else None
                continue  # lost on the wire: the box counted it, the host never sees it
            self._write_wire(line)

    def _write_wire(self, line: bytes) -> None:
        if self.master is None:
            return  # the cable is out: what the box sends goes nowhere
        try:
            os.write(self.master, line)
        except OSError as error:
            # Nobody reads and the buffer is full: a UART without a listener drops bytes too.
            if error.errno not in (errno.EAGAIN, errno.EIO):
                raise

    def write_raw(self, data: bytes) -> None:
        """Bytes on the wire that are not a frame (noise, a cut line)."""
        self._write_wire(data)

    def discard_input(self) -> None:
        """Drops what arrived while hung (a real UART buffer would have overflowed)."""
        while self.master is not None:
            try:
                if not os.read(self.master, 4096):
                    return
            except OSError:
                return

    def press(self, button: str) -> None:
        self._write(self.model.press(button, _now_ms()))

    def on_readable(self) -> None:
        if self.master is None:
            return
        try:
            data = os.read(self.master, 4096)
        except OSError as error:
            if error.errno in (errno.EAGAIN, errno.EIO):
                return
            raise
        self._write(self.model.feed(data, _now_ms()))

    def poll(self) -> float:
        """Runs the clock (and plugs the cable back when due); returns seconds until the next call."""
        if self.replug_at is not None and time.monotonic() >= self.replug_at:
            self.replug_at = None
            self._plug()
        now = _now_ms()
        self._write(self.model.poll(now))
        wait = max(0.0, (self.model.next_wakeup(now) - _now_ms()) / 1000)
        if self.replug_at is not None:
            wait = min(wait, max(0.0, self.replug_at - time.monotonic()))
        return wait

    def close(self) -> None:
        self.replug_at = None
        self._unplug_port()


def _stdin_command(box: PtyBox, line: str) -> bool:
    words = line.split()
    if not words:
        return True
    if words[0] == "press" and len(words) == 2:
        box.press(words[1])
    elif words[0] == "reset":
        box.reset(words[1] if len(words) > 1 else "power", announce="quiet" not in words[2:])
    elif words[0] == "noise" and len(words) == 2:
        box.write_raw(bytes.fromhex(words[1]))
    elif words[0] == "hang" and len(words) == 2:
        time.sleep(float(words[1]))  # a hung microcontroller: no heartbeat, no answers
        box.discard_input()
    elif words[0] == "drop" and len(words) <= 3:
        verb = words[1] if len(words) > 1 and not words[1].isdigit() else None
        count = int(words[-1]) if len(words) > 1 and words[-1].isdigit() else 1
        box.drop(verb, count)
    elif words[0] == "replay" and len(words) <= 2:
        box.replay(words[1] if len(words) == 2 else "BTN")
    elif words[0] == "unplug" and len(words) == 2:
        box.unplug(float(words[1]))
    elif words[0] == "quit":
        return False
    else:
        print(f"emulator: unknown control line {line.strip()!r}", file=sys.stderr, flush=True)
    return True


def run(settings: DeviceSettings, link: Path | None, control: str) -> int:
    box = PtyBox(settings, link)
    print(f"PORT {box.pty_path}", flush=True)
    if link is not None:
        print(f"LINK {link}", flush=True)
    interactive = control == "keys"
    saved = None
    # keys: from the terminal when this process has it; a closed or redirected stdin (started in
    # the background or by a service) is read until it ends and the port is served on
    background = interactive and _background_terminal()
    stdin_open = not background
    if background:
        print("keys: not read (running in the background of a terminal); the port is served", flush=True)
    elif interactive and sys.stdin.isatty():
        saved = termios.tcgetattr(sys.stdin)
        tty.setcbreak(sys.stdin)
        print("keys: 1-4 seat buttons, a arbiter, r reset, q quit", flush=True)
    draw = interactive and sys.stdout.isatty() and not background
    stdin_buffer = b""
    last_drawn = ""
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if main_thread else None  # the link goes on the way out
    try:
        while True:
            wait = box.poll()
            if draw:
                drawn = box.model.display(_now_ms())
                if drawn != last_drawn:
                    sys.stdout.write("\r" + drawn.ljust(len(last_drawn)))
                    sys.stdout.flush()
                    last_drawn = drawn
                wait = min(wait, 0.1)
            watched = [fd for fd in (box.master, sys.stdin if stdin_open else None) if fd is not None]
            readable, _, _ = select.select(watched, [], [], wait)
            if box.master is not None and box.master in readable:
                box.on_readable()
            if stdin_open and sys.stdin in readable:
                try:
                    chunk = os.read(sys.stdin.fileno(), 1024)
                except OSError:  # not readable at all (nohup's stdin): as closed
                    chunk = b""
                if not chunk:
                    if interactive:
                        stdin_open = False  # stdin closed: keep serving the port (stop Ctrl-C or SIGTERM)
                        continue
                    return 0  # the controlling process went away
                if interactive:
                    for key in chunk.decode("ascii", "replace"):
                        if key in ("1", "2", "3", "4"):
                            box.press(key)
                        elif key in ("a", "A"):
                            box.press("A")
                        elif key == "r":
                            box.reset()
                        elif key == "q":
                            return 0
                else:
                    stdin_buffer += chunk
                    while b"\n" in stdin_buffer:
                        line, stdin_buffer = stdin_buffer.split(b"\n", 1)
                        if not _stdin_command(box, line.decode("ascii", "replace")):
                            return 0
    except (KeyboardInterrupt, SystemExit):
        return 0
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
        if saved is not None:
            termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved)
            print()
        box.close()


def _background_terminal() -> bool:
    """stdin is a terminal whose foreground is another process group (`tileref timer-emulator &`):
    touching it would stop this process (SIGTTIN/SIGTTOU)."""
    try:
        return sys.stdin.isatty() and os.tcgetpgrp(sys.stdin.fileno()) != os.getpgrp()
    except (OSError, ValueError, AttributeError):
        return False


def _terminated(signum, frame) -> None:
    raise SystemExit(0)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--link", type=Path, help="keep a symlink at this path naming the current pty")
    parser.add_argument(
        "--clock-rate", type=float, default=1.0, help="device seconds per real second (e.g. 20 for fast tests)"
    )
    parser.add_argument("--control", choices=("keys", "stdin"), default="keys", help="keys (terminal) or stdin lines")
    parser.add_argument("--serial", default="EMU-0001", help="serial number the box reports")
    parser.add_argument(
        "--no-press-ids", action="store_true", help="behave as firmware from before press ids (refuse HELLO ids=)"
    )
    parser.add_argument(
        "--no-bank", action="store_true", help="behave as firmware from before BANK (refuse HELLO bank=, no BANK verb)"
    )


def check_arguments(args: argparse.Namespace) -> None:
    if not 0.01 <= args.clock_rate <= 1000:
        raise BridgeError(f"--clock-rate {args.clock_rate} is outside 0.01..1000")
    if args.link is not None:
        link = args.link
        if link.is_dir() and not link.is_symlink():
            raise BridgeError(f"--link {str(link)!r} is a directory; name a link in it, e.g. {str(link / 'timer')!r}")
        if link.exists() and not link.is_symlink():
            raise BridgeError(f"--link {str(link)!r} is a file; the link would replace it (name a new path)")
        if not link.parent.is_dir():
            raise BridgeError(f"--link {str(link)!r}: directory {str(link.parent)!r} does not exist")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.emulator", description=__doc__.split("\n")[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        check_arguments(args)
    except BridgeError as error:
        print(f"emulator: {error}", file=sys.stderr)
        return 2
    settings = DeviceSettings(serial=args.serial, clock_rate=args.clock_rate, press_ids=not args.no_press_ids,
                              banks=not args.no_bank)
    try:
        return run(settings, args.link, args.control)
    except BridgeError as error:
        print(f"emulator: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
