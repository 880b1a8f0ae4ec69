"""Errors of the rules core. Every message quotes the offending value."""


class RulesError(Exception):
    """Base of every error the rules core raises on bad input."""


class TileCodeError(RulesError, ValueError):
    """A tile code that is not in the project's notation (`R5`, `K13`, `J`)."""


class TileCountError(RulesError, ValueError):
    """More copies of a tile than the 106-tile set holds (two of each, two jokers)."""
