"""Bad input to the clock (exit 2 with one line naming it)."""


class ClockError(Exception):
    """A `tileref clock` run cannot go on: bad option, event, timer or input."""


class ClockInputError(ClockError):
    """A value the director gave (option or input line) is not one the clock takes."""
