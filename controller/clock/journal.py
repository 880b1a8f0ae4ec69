"""The one write path of a clock game: the machine's facts, appended with the state the machine says.

A clock game's facts come out of its machine (`step` gives the new state and the facts together), so
there is nothing left to refuse here; what the journal adds is that the state the records keep for
the game (`games.state`: the club board, the game lists, an exported record) is derived from the
machine's state, never typed by a caller.
"""
from __future__ import annotations

import enum
from typing import Any, Protocol

from controller.game.events import ClockRecorded, GameCreated

from .machine import ClockFact, ClockState, Fact, Phase


class RecordState(str, enum.Enum):
    """A clock game's state as the records keep it (what every record written so far says)."""

    CLOCK = "clock"  # under way
    FINISHED = "finished"  # its result recorded


def record_state(state: ClockState, fact: Fact) -> RecordState:
    # finished with the fact that carries the result: facts the finishing step gives before it (a
    # flag, the box stopping) are recorded while the game still counts as under way
    return RecordState.FINISHED if state.phase is Phase.FINISHED and fact.what is ClockFact.RESULT else RecordState.CLOCK


class ClockStore(Protocol):
    """What the journal needs of the records (`controller.records.Records` is one)."""

    def start_game(self, first: GameCreated, *, state: RecordState, **info: Any) -> int: ...

    def append(self, game_id: int, event: ClockRecorded, *, state: RecordState) -> Any: ...


class ClockJournal:
    def __init__(self, records: ClockStore, game_no: int) -> None:
        self.records = records
        self.game_no = game_no

    @classmethod
    def start(cls, records: ClockStore, created: GameCreated) -> "ClockJournal":
        return cls(records, records.start_game(created, state=RecordState.CLOCK))

    def record(self, state: ClockState, fact: Fact, ms_left: tuple[tuple[str, int], ...]) -> ClockRecorded:
        """`state`: the machine's state the fact came out with; `ms_left`: the clocks as the box said."""
        event = ClockRecorded(fact.what.value, fact.player, ms_left, fact.detail)
        self.records.append(self.game_no, event, state=record_state(state, fact))
        return event
