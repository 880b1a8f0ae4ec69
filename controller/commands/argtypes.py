"""Option types shared by the commands: a whole number in a range, refused by argparse on one line.

`type=int` alone takes -5 as a game id and 10**30 as a seed (which SQLite cannot hold);
these say what range is meant, and the command line reports the option and the value.
"""
from __future__ import annotations

import argparse
from typing import Callable

SQLITE_MAX = 2**63 - 1  # the largest INTEGER SQLite stores
BOX_MAX_SECONDS = 86_400  # the longest countdown the timer box takes (PROTOCOL.md, CONF)
MAX_WATCH_DELAY = 3600  # the longest the spectator feed stays behind the table (docs/broadcast.md)


def whole(low: int, high: int, what: str = "a whole number") -> Callable[[str], int]:
    """An argparse type: a decimal whole number in low..high (ASCII digits, an optional sign)."""

    def parse(text: str) -> int:
        digits = text.strip().removeprefix("-").removeprefix("+")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 20:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not {what}")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is outside {low}..{high}")
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


def _shown(text: str, limit: int = 40) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else f"{shown[:limit - 3]}... ({len(text)} characters)"


GAME_ID = whole(1, SQLITE_MAX, "a game id (a whole number from 1)")
COUNT = whole(1, 1_000_000, "a whole number from 1")
SEED = whole(0, SQLITE_MAX, "a whole number from 0")
TURN_SECONDS = whole(1, BOX_MAX_SECONDS, "a number of seconds")
WATCH_DELAY = whole(0, MAX_WATCH_DELAY, "a number of seconds")


def old_spelling(new: str, what: str):
    """An argparse action for an option's old spelling: it still works, with a one-line warning on
    standard error naming the spelling to use (`--key` -> `--signing-key`)."""
    import argparse
    import sys

    class OldSpelling(argparse._StoreAction):
        def __call__(self, parser, namespace, values, option_string=None):
            print(f"{parser.prog}: {option_string} is the old spelling here: use {new} ({what})", file=sys.stderr,
                  flush=True)
            super().__call__(parser, namespace, values, option_string)

    return OldSpelling
