"""Errors of the rules core. Every message quotes the offending value."""


class RulesError(Exception):
    """Base of every error the rules core raises on bad input."""


class TileCodeError(RulesError, ValueError):
    """A tile code that is not in the project's notation (`R5`, `K13`, `J`)."""


class TileCountError(RulesError, ValueError):
    """More copies of a tile than the 106-tile set holds (two of each, two jokers)."""


class SetShapeError(RulesError, ValueError):
    """A table or set that is not a list of tile lists (e.g. `"sets": "R5"`)."""


class RuleSetError(RulesError, ValueError):
    """An unknown variant name, or a club rule file with an unknown or ill-typed field."""


class GameRecordError(RulesError, ValueError):
    """A finished game that cannot be scored as given (unknown player, winner with tiles...)."""


class StartDrawError(RulesError, ValueError):
    """Start-order draws that cannot decide an order (missing player, unresolved tie)."""


class InputFileError(RulesError, ValueError):
    """A JSON or TOML file the command line could not read: missing, unreadable or malformed."""
