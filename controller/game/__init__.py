"""The game flow, pure: events in, game state out (no camera, serial port or database here).

`machine` holds the state table (state x event -> handler) and the fold, `events` the recorded
facts, `rebuild` turns a camera reading into a table using what is already known, and
`judging` asks the rules core one question at a time.
"""
from .errors import EventDataError, GameError, GameSetupError, TransitionError
from .machine import TILES_IN_GAME, TRANSITIONS, GameModel, State, TableState, apply, expected_events, fold

__all__ = [
    "EventDataError", "GameError", "GameModel", "GameSetupError", "State", "TILES_IN_GAME", "TRANSITIONS",
    "TableState", "TransitionError", "apply", "expected_events", "fold",
]
