"""The table a part of the runner belongs to, as the part reaches it: a Protocol, so each part (looking,
the turns, the restore, the referee desk, the play area) names the table without importing the runner
that composes it. `TableRunner` is the one table that keeps it."""
from __future__ import annotations

from typing import Any, Protocol

from controller.game.journal import GameJournal
from controller.game.machine import GameModel

from .eyes import TableEyes
from .ports import TableDevices, TableRecords, TimerSignal
from .settings import RunnerSettings


class Table(Protocol):
    devices: TableDevices
    records: TableRecords
    game_id: int
    settings: RunnerSettings
    journal: GameJournal
    eyes: TableEyes
    # the runner's other parts, named by role: each is a module of this package that names the table
    looking: Any  # controller.table.looking.Looking
    clock: Any  # controller.table.turn_clock.TurnClock
    turns: Any  # controller.table.turns.TurnFlow
    restore: Any  # controller.table.restoring.Restore
    desk: Any  # controller.table.referee_desk.RefereeDeskWork
    area: Any  # controller.table.play_area.PlayArea

    @property
    def model(self) -> GameModel: ...

    def record(self, event, photos=(), readings=()) -> GameModel: ...

    def head(self) -> str: ...

    def wait_press(self, prompt: str, buttons: tuple[str, ...] | None = None) -> TimerSignal: ...

    def record_incident(self, signal: TimerSignal) -> None: ...

    def arbiter_pressed(self, seconds: float) -> bool: ...
