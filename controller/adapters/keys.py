"""`tileref play --timer emulator`: the emulated box's buttons, typed in play's own terminal.

The emulator `play` starts runs as a child process with no terminal of its own, so nobody could
press its buttons. Here a line `1`..`4` (a seat) or `a` (the arbiter) typed at play's prompt is a
press of that button, with or without `--web`; while the console referee is asked something, lines
are the referee's answers (ConsoleReferee reads them through `readline`; with `--web` the referee
answers on the page and every line is a press).
"""
from __future__ import annotations

import queue
import sys
import threading
from typing import Callable, TextIO

from firmware_bridge.protocol import BridgeError

BUTTONS = {"1": "1", "2": "2", "3": "3", "4": "4", "a": "A", "A": "A"}
HOW = "type 1-4 (a seat's button) or a (the arbiter's), then Enter"


def how_to_press(players: tuple[str, ...] | list[str], own_clock: bool = False) -> str:
    """Which key is whose button: "type 1 (Ann's button), 2 (Ben's) or a (the arbiter's), then Enter", and
    what a seat's button does (`own_clock`: japan-2017, where each player starts their own clock)."""
    if not players:
        return HOW
    seats = [f"{n} ({name}'s button)" if n == 1 else f"{n} ({name}'s)" for n, name in enumerate(players, 1)]
    what = ("a seat's first press in its turn starts that seat's clock and the next press ends the turn; a draw "
            "or a single tile may skip the clock: the next seat's press ends the turn and starts that seat's clock"
            if own_clock else "a seat's button ends that seat's turn")
    return (f"type {', '.join(seats)} or a (the arbiter's: the start draw laid out, the tiles dealt, a rack laid "
            f"open), then Enter; {what}")


class EmulatorKeys:
    def __init__(self, press: Callable[[str], None], stdin: TextIO | None = None, out: TextIO | None = None,
                 how: str = HOW) -> None:
        self.press = press
        self.how = how
        self.stdin = stdin or sys.stdin
        self.out = out or sys.stdout
        self._answers: queue.Queue[str] = queue.Queue()
        self._asking = threading.Event()
        threading.Thread(target=self._read, name="emulator-keys", daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.stdin:
                word = line.strip()
                if self._asking.is_set():
                    self._answers.put(line)
                elif word in BUTTONS:
                    try:
                        self.press(BUTTONS[word])
                    except (BridgeError, OSError) as error:  # the box went away: say so, keep reading
                        print(f"timer emulator: button {word} not pressed: {error}", file=self.out, flush=True)
                elif word:
                    print(f"timer emulator: {word!r} is no button; {self.how}", file=self.out, flush=True)
        except (OSError, ValueError):  # no terminal (a service, a test's captured stdin)
            pass
        self._answers.put("")  # the end of input: a referee waiting for an answer is told

    def readline(self) -> str:
        """The referee's next answer (ConsoleReferee reads its stdin this way); "" at the end of input."""
        self._asking.set()
        try:
            return self._answers.get()
        finally:
            self._asking.clear()
