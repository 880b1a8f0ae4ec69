"""What can go wrong printing for the tables; every one is bad input (exit 2, one line)."""
from __future__ import annotations

from ..errors import TournamentError


class PrintError(TournamentError):
    """Base of the printing errors."""


class PrintTargetError(PrintError):
    """The output file or the kind of printable asked for is not one we write."""


class LiveUrlError(PrintError):
    """The live page address given for the table cards cannot make one address per table."""


class ChromiumMissingError(PrintError):
    """A PDF was asked for and no Chromium is installed to print it."""


class ChromiumFailedError(PrintError):
    """Chromium ran and wrote no PDF."""
