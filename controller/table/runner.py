"""Runs a table: the pure game model driven by a camera, a timer box and the records.

The loop is: look at the state, do the I/O that state waits for (a button, a settled
frame, a reading), turn what happened into an event, record it (with its photos and
readings, in one transaction, through the game's journal), and only then act on it. So a
process killed at any moment restarts from the records into the same state and simply does
that step again (`tileref play --resume`).

The runner is written against the ports (`ports.py`) and composed of parts, each owning its state
(docs/design/runner.md):

    TableRunner ── journal (the one write path), devices, settings
      ├── eyes     TableEyes        which reading stands (eyes.py, sans I/O)
      ├── looking  Looking          carries out what the eyes decide: watch, reader, photos (looking.py)
      ├── clock    TurnClock        the turn's countdown on the box (turn_clock.py)
      ├── turns    TurnFlow         one step per state of the game (turns.py)
      ├── restore  Restore          restoring a table after a penalty (restoring.py)
      ├── desk     RefereeDeskWork  the referee page's requests, queued while the eyes wait (referee_desk.py)
      └── area     PlayArea         the play area in the record (play_area.py)
"""
from __future__ import annotations

import time
from typing import Callable

from controller.game.events import Event, RefereeCorrection, TimerIncident, TurnJudged
from controller.game.journal import GameJournal
from controller.game.machine import GameModel, State
from controller.messages import named
from controller.records import Photo, Reading, head_digest

from .eyes import TableEyes
from .looking import Looking
from .play_area import PlayArea
from .ports import (
    AdapterError, Incident, NamesPort, PhotoEncoder, SignalKind, TableDevices, TableRecords, TableWatch, TimerSignal,
)
from .referee_desk import RefereeDeskWork
from .restoring import Restore
from .settings import ARBITER, LINK_INCIDENTS, WAIT_SLICE, RunnerSettings
from .turn_clock import TurnClock
from .turns import TurnFlow

Observer = Callable[[GameModel, "Event | None"], None]


class TableRunner:
    def __init__(self, records: TableRecords, game_id: int, devices: TableDevices,
                 settings: RunnerSettings = RunnerSettings(), observer: Observer | None = None) -> None:
        self.records = records
        self.game_id = game_id
        self.devices = devices
        self.settings = settings
        self.observer = observer or (lambda model, event: None)
        records.require_intact(game_id, ring=False)  # the table signs; whether a club trusts it is the readers' word
        # the one write path of the game's events; whoever watches hears of each once it is recorded
        self.journal = GameJournal.resume(records, game_id, observer=self.observer)
        self.eyes = TableEyes(settings.settle.eyes, settings.fusion, read_once=settings.read_once)
        self.looking = Looking(self, self.eyes, *_watch_and_photos(devices, settings))
        # a resumed game starts from the last settled photo in the records, and its readings are steadied
        # against the last table read and judged, as before it
        self.eyes.reference, self.eyes.judged = self.looking.last_settled(), self.looking.last_judged()
        self.clock = TurnClock(devices)
        self.turns = TurnFlow(self)
        self.restore = Restore(self)
        self.desk = RefereeDeskWork(self)
        self.area = PlayArea(self)

    # ------------------------------------------------------------- recording

    @property
    def model(self) -> GameModel:
        return self.journal.model

    @model.setter
    def model(self, model: GameModel) -> None:  # a benchmark poses a game state without recording it
        self.journal.model = model

    def record(self, event: Event, photos: tuple[Photo, ...] = (), readings: tuple[Reading, ...] = ()) -> GameModel:
        before = self.model
        after = self.journal.record(event, photos, readings)  # refused by the machine before anything is written
        if isinstance(event, RefereeCorrection) and before.state is State.REFEREE_CHECK and before.pending:
            self.eyes.answered(event.changes, len(before.pending.tiles))
        return after

    def head(self) -> str:
        """The record's head digest, as the table shows it (the audit pages print the same)."""
        return head_digest(self.records.head(self.game_id)[1])

    def run(self, max_steps: int | None = None) -> GameModel:
        self.observer(self.model, None)  # whoever watches learns where a resumed game stands
        self.start_table()
        if self.model.state is State.RESTORING:  # resumed mid-restore: show the plan again
            verdict = next(e for e in reversed(self.records.events(self.game_id)) if isinstance(e, TurnJudged))
            self.restore.show(verdict)
        steps = 0
        while self.model.state not in (State.FINISHED, State.DISQUALIFIED):
            self.desk.attend()
            if self.model.state in (State.FINISHED, State.DISQUALIFIED):
                break
            STEPS[self.model.state](self)
            steps += 1
            if max_steps is not None and steps >= max_steps:
                break
        return self.model

    def start_table(self) -> None:
        """Before the game's loop: the area it is read in recorded, and a fresh game's clear table settled on,
        or confirmed by the referee with the area found on it (`RunnerSettings.confirm_area`)."""
        self.area.record_area_in_force()
        if not self.area.fresh_table():
            return
        found = self.area.to_confirm() if self.settings.confirm_area else None
        if found is not None:
            self.looking.confirm_clear_table(self.area.confirm_words(found))
        else:
            # the first wait's reference: the clear table, settled on in the area just put in force, so a hand
            # that crosses the table in the first wait is gone once the table looks as it does now
            self.looking.settle()

    def record_incident(self, signal: TimerSignal) -> None:
        # a timer that names no kind (an older adapter) is recorded as the box's own incident
        self.record(TimerIncident(incident=signal.incident or Incident.BOX, detail=signal.detail))
        if signal.incident in LINK_INCIDENTS:  # the table is told why it waits, and on which port
            timer = self.devices.timer
            port = timer.port if isinstance(timer, NamesPort) else "its port"
            self.devices.display.say(f"timer box on {port}: {named('incident', signal.incident)}: {signal.detail}"
                                     + ("; waiting for it to answer again" if signal.incident is Incident.DISCONNECTED
                                        else ""))

    def wait_press(self, prompt: str, buttons: tuple[str, ...] | None = None) -> TimerSignal:
        self.devices.display.say(prompt)
        deadline = None if self.settings.prompt_timeout is None else time.monotonic() + self.settings.prompt_timeout
        while True:
            signal = self.devices.timer.wait(WAIT_SLICE)
            if signal is not None and signal.kind == SignalKind.PRESSED and (buttons is None or signal.button in buttons):
                return signal
            if signal is not None and signal.kind == SignalKind.INCIDENT:
                self.record_incident(signal)
            self.desk.attend()
            if deadline is not None and time.monotonic() > deadline:
                raise AdapterError(f"nobody pressed a button within {self.settings.prompt_timeout} s: {prompt}")

    def arbiter_pressed(self, seconds: float) -> bool:
        """Whether the arbiter's button is pressed within `seconds` (other presses are not for now)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            signal = self.devices.timer.wait(left)
            if signal is not None and signal.kind == SignalKind.PRESSED and signal.button == ARBITER:
                return True
        return False

    def attend_after_game(self, stop) -> None:
        """After the game, while the pages stay up: the referee page may still correct a rack (the game
        is then scored again). Until `stop` (a threading.Event) is set."""
        while not stop.is_set():
            self.desk.attend(WAIT_SLICE)
            if self.model.state is State.SCORING:
                self.turns.step_scoring()

    # ------------------------------------------------------------ the steps

    def step_seating(self) -> None:
        self.turns.step_seating()

    def step_dealing(self) -> None:
        self.turns.step_dealing()

    def step_redeal_window(self) -> None:
        self.turns.step_redeal_window()

    def step_turn_ready(self) -> None:
        self.turns.step_turn_ready()

    def step_turn_running(self) -> None:
        self.turns.step_turn_running()

    def step_turn_reading(self) -> None:
        self.turns.step_turn_reading()

    def step_referee_check(self) -> None:
        self.turns.step_referee_check()

    def step_turn_judging(self) -> None:
        self.turns.step_turn_judging()

    def step_penalty_held(self) -> None:
        self.turns.step_penalty_held()

    def step_restoring(self) -> None:
        self.restore.step()

    def step_revealing(self) -> None:
        self.turns.step_revealing()

    def step_scoring(self) -> None:
        self.turns.step_scoring()


def _watch_and_photos(devices: TableDevices, settings: RunnerSettings) -> tuple[TableWatch, PhotoEncoder]:
    """The devices' own, else the adapters' camera watch and photo encoder around their camera."""
    watch, photos = devices.watch, devices.photos
    if watch is None or photos is None:
        from controller.adapters.photos import FramePhotos
        from controller.adapters.settle import EyesWait

        watch = watch or EyesWait(devices.camera, settings.settle)
        photos = photos or FramePhotos(settings.photo_format, settings.photo_quality)
    return watch, photos


STEPS: dict[State, Callable[[TableRunner], None]] = {
    State.SEATING: TableRunner.step_seating,
    State.DEALING: TableRunner.step_dealing,
    State.REDEAL_WINDOW: TableRunner.step_redeal_window,
    State.TURN_READY: TableRunner.step_turn_ready,
    State.TURN_RUNNING: TableRunner.step_turn_running,
    State.TURN_READING: TableRunner.step_turn_reading,
    State.REFEREE_CHECK: TableRunner.step_referee_check,
    State.TURN_JUDGING: TableRunner.step_turn_judging,
    State.PENALTY_HELD: TableRunner.step_penalty_held,
    State.RESTORING: TableRunner.step_restoring,
    State.REVEALING: TableRunner.step_revealing,
    State.SCORING: TableRunner.step_scoring,
}
