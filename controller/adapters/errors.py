"""Errors of the adapters (camera, timer, reader). Every message quotes the offending value."""
from __future__ import annotations

from controller.game.errors import GameError


class AdapterError(GameError):
    """Base of what a camera, timer or reader adapter raises."""


class CameraError(AdapterError, ValueError):
    """A camera source that cannot be opened or stopped giving frames."""


class TimerError(AdapterError, ValueError):
    """A timer port that cannot be opened, or a box that refuses a command."""


class TimerRefusedError(TimerError):
    """The box answered a command with a refusal; `reason` is its word for why (PROTOCOL.md), the
    message says it in plain words."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class ReaderError(AdapterError):
    """The photo reader failed on a frame."""
