"""Errors of the player registry, the ratings and the league. Every message quotes the offending value.

One base, `LeagueError` (bad input, exit 2); a club's log or result that does not hold is
`LeagueTamperedError` (exit 3), naming the club, the event and the entry.
"""


class LeagueError(Exception):
    """Base of every error of the registry, the ratings, the league and the published site."""


class PlayerNotFoundError(LeagueError, LookupError):
    """No player of that ID or name in the registry."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class AmbiguousPlayerError(LeagueError, ValueError):
    """A name that more than one registered player goes by; the message lists the candidates."""


class PlayerNameError(LeagueError, ValueError):
    """An empty or over-long name, an ID already taken, a rename to the same name."""


class ClubError(LeagueError, ValueError):
    """A club the league does not know, or knows already; a key file that cannot be read."""


class SiteError(LeagueError, ValueError):
    """A folder the site cannot be written to."""


class LeagueTamperedError(LeagueError):
    """A club's log, entry or result that does not verify against the club's keyring as the league
    keeps it: never counted (exit 3)."""

    exit_code = 3
