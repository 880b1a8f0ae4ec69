"""The one write path of a table's game: record an event = apply it to the game machine, then append it.

The machine refuses an event that does not fit (`TransitionError`, `EventDataError`) before anything
is written, and the state the records keep for the game (`games.state`, what the club board and the
game lists show) is always the one the machine derived, never a caller's word. Every writer of a
Rummikub game goes through here: the table's runner, `play`/`demo` starting a game, `correct`.
"""
from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Callable, Iterable, Protocol, Sequence

from . import judging
from .events import Event, GameCreated, GameScored
from .machine import GameModel, State, apply, fold

Observer = Callable[[GameModel, Event], None]


class EventStore(Protocol):
    """What the journal needs of the records (`controller.records.Records` is one)."""

    def start_game(self, first: GameCreated, *, state: State, **info: Any) -> int: ...

    def append(self, game_id: int, event: Event, *, photos: Iterable[Any] = (), readings: Iterable[Any] = (),
               state: State) -> Any: ...

    def events(self, game_id: int) -> list[Event]: ...

    def together(self) -> AbstractContextManager[None]: ...


class GameJournal:
    """A game's events as recorded, and the model they fold to (kept in step with the records)."""

    def __init__(self, records: EventStore, game_id: int, model: GameModel, observer: Observer | None = None) -> None:
        self.records = records
        self.game_id = game_id
        self.model = model
        self.observer = observer  # told of each event once it is recorded (the display, the demo's table)

    @classmethod
    def start(cls, records: EventStore, first: GameCreated, **info: Any) -> "GameJournal":
        """A new game from its `game-created` (refused by the machine before a game row exists).
        `info`: where the club board and the tournament director find it (`Records.start_game`)."""
        model = apply(GameModel(), first)
        return cls(records, records.start_game(first, state=model.state, **info), model)

    @classmethod
    def resume(cls, records: EventStore, game_id: int, observer: Observer | None = None) -> "GameJournal":
        """A game recorded already (the caller has checked its chain: `Records.require_intact`)."""
        return cls(records, game_id, fold(records.events(game_id)), observer)

    def record(self, event: Event, photos: Sequence[Any] = (), readings: Sequence[Any] = ()) -> GameModel:
        """Apply, then append with its photos and readings (one transaction); the model after it."""
        after = apply(self.model, event)  # a bad event is refused before anything is written
        self.records.append(self.game_id, event, photos=photos, readings=readings, state=after.state)
        self.model = after
        if self.observer is not None:
            self.observer(after, event)
        return after

    def record_together(self, events: Sequence[Event]) -> GameModel:
        """Several events that stand or fall together (a correction and the score it leads to): all
        are applied first, so one refused leaves the records as they were; then all are appended, in
        one transaction (a club server's spool delivers them one by one)."""
        models = []
        model = self.model
        for event in events:
            model = apply(model, event)
            models.append(model)
        with self.records.together():
            for event, after in zip(events, models):
                self.records.append(self.game_id, event, state=after.state)
        self.model = model
        if self.observer is not None:
            for event, after in zip(events, models):
                self.observer(after, event)
        return model

    def record_scored(self, *events: Event) -> GameScored | None:
        """Record `events` (racks corrected: one or several at once); when they leave the game to be scored
        (racks corrected after the end), the score goes with them, all or none: a correction whose score
        the rules refuse records nothing and the game stays as it was. The score, if one was recorded."""
        after = self.model
        for event in events:
            after = apply(after, event)
        if after.state is not State.SCORING:
            self.record_together(events)
            return None
        scored = judging.score(after)
        self.record_together((*events, scored))
        return scored
