"""Errors of the game layer. Every message quotes the offending value."""
from __future__ import annotations


class GameError(Exception):
    """Base of every error the game flow raises."""


class TransitionError(GameError):
    """An event that does not fit the state the game is in."""

    def __init__(self, state: object, event: object, detail: str = "") -> None:
        self.state = state
        self.event = event
        state_name = getattr(state, "value", state)
        event_name = getattr(event, "value", event)
        message = f"event {event_name!r} cannot happen in state {state_name!r}"
        if detail:
            message += f": {detail}"
        super().__init__(message)


class EventDataError(GameError, ValueError):
    """An event whose payload is malformed (unknown kind, missing or extra field)."""


class GameSetupError(GameError, ValueError):
    """Bad game settings: player list, variant, seconds per turn."""


class GameNotScoredError(GameError):
    """Every rack is laid open, but the rules refuse to score them as they stand (a tile more often than
    the set holds it): the referee corrects the racks (`tileref correct`)."""
