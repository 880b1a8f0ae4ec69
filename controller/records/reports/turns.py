"""A recorded game turn by turn: each turn's events and the game before and after it, folded from
the log by the game's own machine (`controller.game.machine.apply`), and what a turn changed on the
table by the rules core's one definition of the same set."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from controller.game.events import TurnStarted
from controller.game.machine import GameModel, apply
from controller.rules.melds import SetChanges, set_changes
from controller.rules.tiles import parse_tiles

from ..chain import RecordedEvent
from ..errors import GameNotFoundError
from ..store import Records


@dataclass(frozen=True)
class TurnRecord:
    turn: int
    player: str
    before: GameModel  # the game as the turn started
    after: GameModel  # the game when the next turn starts (or at the end)
    events: tuple[RecordedEvent, ...]


def turns(records: Records, game_id: int) -> Iterator[TurnRecord]:
    """Each turn with its events and the game before and after it (folded from the log)."""
    return turns_of(records.recorded(game_id))


def turns_of(log: Iterable[RecordedEvent]) -> Iterator[TurnRecord]:
    """Each turn of a game's recorded events, as `turns` (the events may come from a record file)."""
    model = GameModel()
    current: list[RecordedEvent] = []
    start: GameModel | None = None
    for recorded in log:
        event = recorded.event
        if isinstance(event, TurnStarted) and start is not None:
            yield TurnRecord(start.turn + 1, start.player, start, model, tuple(current))
            current = []
            start = None
        if isinstance(event, TurnStarted):
            start = model
        model = apply(model, event)
        if start is not None:
            current.append(recorded)
    if start is not None:
        yield TurnRecord(start.turn + 1, start.player, start, model, tuple(current))


def turn_record(records: Records, game_id: int, turn: int) -> TurnRecord:
    for record in turns(records, game_id):
        if record.turn == turn:
            return record
    raise GameNotFoundError(f"game {game_id} has no turn {turn!r}")


def table_changes(before, after, rules=None) -> SetChanges:
    """The sets (code tuples) gone from `before` and new in `after`, by the rules core's one definition
    of the same set: a run laid again the other way round, or a group in another order, is neither."""
    reading = rules.melds_reading() if rules is not None else {}
    return set_changes([parse_tiles(m) for m in before], [parse_tiles(m) for m in after], **reading)
