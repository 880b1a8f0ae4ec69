"""Runs a table: the pure game model driven by a camera, a timer box and the records.

The loop is: look at the state, do the I/O that state waits for (a button, a settled
frame, a reading), turn what happened into an event, record it (with its photos and
readings, in one transaction, through the game's journal), and only then act on it. So a
process killed at any moment restarts from the records into the same state and simply does
that step again (`tileref play --resume`).

The runner is written against the ports (`ports.py`); its parts, by concept: looking at the
table (`looking.py`), the turn flow (`turns.py`), restoring a table (`restoring.py`), the
referee page's requests (`referee_desk.py`) and the play area in the record (`play_area.py`).
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable

from controller.game.events import Event, Incident, RefereeCorrection, TimerIncident, TurnJudged
from controller.game.journal import GameJournal
from controller.game.machine import GameModel, State
from controller.messages import named
from controller.records import Photo, Reading, head_digest

from .eyes import TableEyes
from .looking import Looking
from .play_area import AreaWork
from .ports import (
    AdapterError, Incident, PhotoEncoder, SignalKind, TableDevices, TableRecords, TableWatch, TimerSignal,
)
from .referee_desk import DeskWork
from .restoring import Restoring
from .settings import ARBITER, LINK_INCIDENTS, WAIT_SLICE, RunnerSettings
from .turns import TurnFlow

if TYPE_CHECKING:
    from vision.eyes_values import Reference

Observer = Callable[[GameModel, "Event | None"], None]


class TableRunner(Looking, TurnFlow, Restoring, DeskWork, AreaWork):
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
        self.watch, self.photos = _watch_and_photos(devices, settings)
        # the last settled table (its frame and the tiles read on it): what the eyes compare with; a
        # resumed game starts from the last settled photo in the records
        # which reading stands; a resumed game starts from the last settled photo in the records, and the
        # readings after a resume are steadied as before it
        self.eyes = TableEyes(settings.settle.eyes, settings.fusion)
        self.eyes.reference, self.eyes.judged = self.last_settled(), self.last_judged()
        self.table_accepted = False  # the referee page accepted the table the eyes asked about
        self.timer_turn: int | None = None  # the turn whose countdown this process set up (armed or started)
        self.clock_running = False  # the countdown of `timer_turn` runs (not merely armed)
        self.start_clock_for: int | None = None  # a turn whose player already pressed to start the clock
        self.started_turn: int | None = None  # the turn this process recorded as started
        self.pressed_at: float | None = None
        self.last_restore_differences: tuple[str, ...] | None = None
        self.timings: list[dict] = []
        self.doubts_announced: int | None = None  # the turn whose doubts were said to wait for the referee page
        self.held_announced = False  # the held penalty was said to wait for the referee
        self.rack_reading = None  # the reading the last rack laid open was read from (racks left lying)
        self.rack_announced: str | None = None  # the rack said to wait for the referee page

    @property
    def reference(self) -> Reference | None:
        """The last settled table: what the eyes compare with (`TableEyes.reference`)."""
        return self.eyes.reference

    @reference.setter
    def reference(self, reference: Reference | None) -> None:
        self.eyes.reference = reference

    @property
    def judged(self) -> Reference | None:
        """The last table read and judged: what each frame's reading is steadied against (`TableEyes.judged`)."""
        return self.eyes.judged

    @judged.setter
    def judged(self, judged: Reference | None) -> None:
        self.eyes.judged = judged

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
        self.record_area_in_force()
        if self.fresh_table():
            # the first wait's reference: the clear table, settled on in the area just put in force, so a hand
            # that crosses the table in the first wait is gone once the table looks as it does now
            self.settle()
        if self.model.state is State.RESTORING:  # resumed mid-restore: show the plan again
            verdict = next(e for e in reversed(self.records.events(self.game_id)) if isinstance(e, TurnJudged))
            self.show_restore(verdict)
        steps = 0
        while self.model.state not in (State.FINISHED, State.DISQUALIFIED):
            self.attend_desk()
            if self.model.state in (State.FINISHED, State.DISQUALIFIED):
                break
            STEPS[self.model.state](self)
            steps += 1
            if max_steps is not None and steps >= max_steps:
                break
        return self.model

    def record_incident(self, signal: TimerSignal) -> None:
        # a timer that names no kind (an older adapter) is recorded as the box's own incident
        self.record(TimerIncident(incident=signal.incident or Incident.BOX, detail=signal.detail))
        if signal.incident in LINK_INCIDENTS:  # the table is told why it waits, and on which port
            timer = self.devices.timer  # a wrapper (the demo's RecordedTimer) names its timer's port
            port = getattr(timer, "port", None) or getattr(getattr(timer, "timer", None), "port", "its port")
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
            self.attend_desk()
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
