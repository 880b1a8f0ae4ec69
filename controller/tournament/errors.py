"""Errors of the tournament director. Every message quotes the offending value.

One base, `TournamentError`; the command line treats every subclass as bad input.
"""


class TournamentError(Exception):
    """Base of every error the tournament director raises on bad input."""


class FormatError(TournamentError, ValueError):
    """An unknown format, or a setting the format does not have or cannot take."""


class PlayerListError(TournamentError, ValueError):
    """A player list the format cannot run: wrong count, duplicate or empty names."""


class UnknownPlayerError(TournamentError, KeyError):
    """A name that is not entered in the event, or not seated at that table."""

    def __str__(self) -> str:  # KeyError would quote the whole message again
        return str(self.args[0]) if self.args else ""


class GameNotDrawnError(TournamentError, KeyError):
    """A result for a game that no draw has produced."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class DuplicateResultError(TournamentError, ValueError):
    """A second result for a game that already has one."""


class ScoreError(TournamentError, ValueError):
    """A score that does not add up under the event's scoring rules."""


class RoundNotCompleteError(TournamentError, ValueError):
    """Drawing the next round before every game of the current one has a result."""


class DisqualifiedError(TournamentError, ValueError):
    """A result for a disqualified table, or a disqualification the format has not got."""


class EventFinishedError(TournamentError, ValueError):
    """Drawing a round after the last one."""


class EventNotFoundError(TournamentError, LookupError):
    """No event of that name in the database."""


class EventExistsError(TournamentError, ValueError):
    """Creating an event under a name already taken."""


class InputFileError(TournamentError, ValueError):
    """A players, results or hanchan file that cannot be read as documented."""


class StorageError(TournamentError, ValueError):
    """A tournament database that cannot be opened or read: a folder, a missing folder, a damaged or
    foreign file, an unreachable server. The message names it and says what is wrong."""


class ChangeError(TournamentError, ValueError):
    """An amendment, deletion, withdrawal, late entry or substitute the event cannot take now."""


class HistoryTamperedError(TournamentError):
    """An entry of an event's history whose signature or chain does not hold: refused like a
    tampered game record (exit 3), naming the entry."""

    exit_code = 3
