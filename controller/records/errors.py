"""Errors of the records layer. Every message quotes the offending value."""
from __future__ import annotations


class RecordsError(Exception):
    """Base of every error the records raise."""


class RecordsFileError(RecordsError, ValueError):
    """A records file that is missing or not a usable SQLite database."""


class GameNotFoundError(RecordsError, LookupError):
    """A game id (or turn) the records file does not hold."""


class TamperedError(RecordsError):
    """A game whose hash chain does not hold: an event was edited, removed or reordered."""
