"""Runs a table: the pure game model driven by a camera, a timer box and the records.

The loop is: look at the state, do the I/O that state waits for (a button, a settled
frame, a reading), turn what happened into an event, record it (with its photos and
readings, in one transaction), and only then act on it. So a process killed at any
moment restarts from the records into the same state and simply does that step again
(`tileref play --resume`).
"""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from controller.game import judging
from controller.game.errors import GameError
from controller.game.events import (
    ClockAdjusted, ClockAdjustment, CountAlert, DealAccepted, Dealt, Event, Override, RackRevealed, RefereeCorrection,
    RestoreChecked, StartOrderDrawn, TableRead, TimerIncident, TurnEnded, TurnJudged, TurnStarted, VerdictOverridden,
)
from controller.game.fusion import FusionSettings, fuse
from controller.game.machine import TILES_IN_GAME, GameModel, State, TableState, apply, fold
from controller.game.reading import TableReading
from controller.game.rebuild import RebuildSettings, Rebuilt, match_by_position, rebuild, tile_width
from controller.records import Photo, Reading, Records, head_digest, reading_sha, sha256_bytes
from controller.rules.errors import RulesError
from controller.rules.variants import RedealWhen, StartBy

from .camera import FrameSource
from .desk import DeskAction, DeskAnswer, DeskError, RefereeDesk, RefereeRequest
from .display import Display
from .errors import AdapterError
from .reader import TableReader
from .referee import Referee
from .settle import SettleSettings, Settled, frame_difference, read_frame, wait_until_settled
from .timer import Incident, SignalKind, TimerSignal, TurnTimer

Observer = Callable[[GameModel, "Event | None"], None]
ARBITER = "A"
WAIT_SLICE = 0.25  # seconds: how long one wait for the timer box lasts before looking again
NOTICE_WINDOW = 0.05  # seconds the still table waits for the arbiter's button before the next turn starts
LOOK_RESTARTS = 2  # times a look starts over because the table was touched between its frames
# incidents said at the table as well as recorded: the box stopped answering, or answers again
LINK_INCIDENTS = (Incident.DISCONNECTED, Incident.RECONNECTED)


@dataclass
class TableDevices:
    camera: FrameSource
    timer: TurnTimer
    reader: TableReader
    display: Display
    referee: Referee
    desk: RefereeDesk | None = None  # the referee page's requests (`play --web`), carried out by the runner


@dataclass(frozen=True)
class Look:
    """What the runner saw of a still table: the fused reading and everything it came from."""

    reading: TableReading  # fused from the frames read
    photo: Photo  # of the frame whose sets the fused reading keeps
    raw: Reading  # the fused reading as recorded (it names the readings it was fused from)
    photos: tuple[Photo, ...]  # every frame read
    raws: tuple[Reading, ...]  # every frame's reading, then the fused one

    @property
    def frames(self) -> int:
        return len(self.photos)


@dataclass(frozen=True)
class RunnerSettings:
    settle: SettleSettings = SettleSettings()
    rebuild: RebuildSettings = RebuildSettings()
    photo_format: str = ".jpg"
    photo_quality: int = 85
    prompt_timeout: float | None = None  # seconds to wait for a button at a prompt (None: forever)
    # frames of the still table read and fused into one reading: two, and more up to this many
    # while they disagree (a code or a tile), so that a flicker in one frame never reaches the judge
    fusion_frames: int = 3
    fusion: FusionSettings = FusionSettings()
    starter: str | None = None  # skip the start draw: this player starts


class TableRunner:
    def __init__(self, records: Records, game_id: int, devices: TableDevices,
                 settings: RunnerSettings = RunnerSettings(), observer: Observer | None = None) -> None:
        self.records = records
        self.game_id = game_id
        self.devices = devices
        self.settings = settings
        self.observer = observer or (lambda model, event: None)
        records.require_intact(game_id)
        self.model = fold(records.events(game_id))
        self.reference: np.ndarray | None = None  # the last settled frame (to tell a hand from the table)
        self.timer_turn: int | None = None  # the turn whose countdown this process set up (armed or started)
        self.clock_running = False  # the countdown of `timer_turn` runs (not merely armed)
        self.start_clock_for: int | None = None  # a turn whose player already pressed to start the clock
        self.started_turn: int | None = None  # the turn this process recorded as started
        self.pressed_at: float | None = None
        self.last_restore_differences: tuple[str, ...] | None = None
        self.timings: list[dict] = []
        self.doubts_announced: int | None = None  # the turn whose doubts were said to wait for the referee page

    # ------------------------------------------------------------- recording

    def record(self, event: Event, photos: tuple[Photo, ...] = (), readings: tuple[Reading, ...] = ()) -> GameModel:
        after = apply(self.model, event)  # a bad event is refused before anything is written
        self.records.append(self.game_id, event, photos=photos, readings=readings, state=after.state.value)
        self.model = after
        self.observer(self.model, event)
        return after

    def head(self) -> str:
        """The record's head digest, as the table shows it (the audit pages print the same)."""
        return head_digest(self.records.head(self.game_id)[1])

    def photo(self, frame: np.ndarray) -> Photo:
        params = [cv2.IMWRITE_JPEG_QUALITY, self.settings.photo_quality] if self.settings.photo_format == ".jpg" else []
        ok, buffer = cv2.imencode(self.settings.photo_format, frame, params)
        if not ok:
            raise AdapterError(f"cannot encode a frame as {self.settings.photo_format!r}")
        data = buffer.tobytes()
        mime = "image/jpeg" if self.settings.photo_format == ".jpg" else "image/png"
        return Photo(sha256_bytes(data), mime, int(frame.shape[1]), int(frame.shape[0]), data)

    # ------------------------------------------------------------------- run

    def run(self, max_steps: int | None = None) -> GameModel:
        self.observer(self.model, None)  # whoever watches learns where a resumed game stands
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

    # ------------------------------------------------------------ I/O helpers

    def record_incident(self, signal: TimerSignal) -> None:
        # a timer that names no kind (an older adapter) is recorded as the box's own incident
        self.record(TimerIncident(incident=signal.incident.value if signal.incident else "box", detail=signal.detail))
        if signal.incident in LINK_INCIDENTS:  # the table is told why it waits, and on which port
            timer = self.devices.timer  # a wrapper (the demo's RecordedTimer) names its timer's port
            port = getattr(timer, "port", None) or getattr(getattr(timer, "timer", None), "port", "its port")
            self.devices.display.say(f"timer box on {port}: {signal.incident.value}: {signal.detail}"
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

    def settle(self) -> Settled:
        settled = wait_until_settled(self.devices.camera, self.reference, self.settings.settle,
                                     on_wait=self.devices.display.waiting)
        self.reference = settled.frame
        return settled

    def read(self, frame: np.ndarray) -> tuple[TableReading, Photo, Reading]:
        photo = self.photo(frame)
        started = time.perf_counter()
        reading = self.devices.reader.read(frame)
        elapsed = (time.perf_counter() - started) * 1000
        raw = reading.to_json()
        return reading, photo, Reading(reading_sha(raw), photo.sha256, raw, round(elapsed, 1))

    def look_at(self, frame: np.ndarray) -> Look:
        """Read the settled frame and the next ones (the table is still) and fuse the readings: two
        frames, and one more while they disagree, up to `fusion_frames`. Every frame read is kept.

        A next frame that differs from the settled one means the table was touched again after it
        settled: what was read may be stale, so the look waits for the table and starts over."""
        photos: list[Photo] = []
        raws: list[Reading] = []
        readings: list[TableReading] = []  # of the current still table
        still = frame
        restarts = 0
        least = min(2, self.settings.fusion_frames)
        while True:
            reading, photo, raw = self.read(frame)
            readings.append(reading)
            photos.append(photo)
            raws.append(raw)
            fusion = fuse(readings, self.settings.fusion)
            if len(readings) >= least and (fusion.agree or len(readings) >= self.settings.fusion_frames):
                break
            frame = read_frame(self.devices.camera, self.settings.settle)
            if restarts < LOOK_RESTARTS and frame_difference(frame, still) > self.settings.settle.still_level:
                restarts += 1
                frame = self.settle().frame
                still, readings = frame, []
        fused_from = raws[len(raws) - len(readings):]
        photo = photos[len(photos) - len(readings) + fusion.anchor]
        if len(fused_from) == 1:
            return Look(fusion.reading, photo, fused_from[0], tuple(photos), tuple(raws))
        data = fusion.reading.to_json()
        data["fused_from"] = [raw.sha256 for raw in fused_from]
        elapsed = round(sum(raw.elapsed_ms or 0.0 for raw in fused_from), 1)
        fused = Reading(reading_sha(data), photo.sha256, data, elapsed)
        return Look(fusion.reading, photo, fused, tuple(photos), tuple(raws) + (fused,))

    # ------------------------------------------------------------------ steps

    def step_seating(self) -> None:
        model = self.model
        if self.settings.starter is not None:
            self.record(StartOrderDrawn(draws=(), starter=self.settings.starter, photo=None))
            return
        if judging.ruleset_of(model).start_by is StartBy.LOT:  # world: the youngest (--starter) or drawn by lot
            after = self.record(judging.starter_by_lot(model, secrets.randbelow(len(model.players))))
            self.devices.display.say(f"start: drawn by lot, {after.starter} starts")
            return
        due = judging.who_draws_next(model)
        self.wait_press(f"start order: {', '.join(due)} each draw a tile and lay them left to right in that "
                        f"order; then press a button")
        seen = self.look_at(self.settle().frame)
        reading = seen.reading
        if len(reading.tiles) != len(due):
            self.devices.display.say(f"start order: {len(reading.tiles)} tiles seen, {len(due)} expected; lay them again")
            return
        order = sorted(range(len(reading.tiles)), key=lambda i: reading.tiles[i].center[0])
        draws = tuple((name, reading.tiles[i].code) for name, i in zip(due, order))
        self.record(judging.start_draw(model, draws, seen.photo.sha256), photos=seen.photos, readings=seen.raws)

    def step_dealing(self) -> None:
        self.wait_press(f"deal 14 tiles to each of {', '.join(self.model.players)}; press a button when dealt")
        self.record(Dealt(deal=self.model.deal + 1))

    def step_redeal_window(self) -> None:
        """world: right after the deal anyone with enough doubled tiles may ask for a redeal for everyone."""
        model = self.model
        signal = self.wait_press("redeal? a player dealt three doubled tiles presses their seat button and lays "
                                 "them open; the arbiter's button starts play")
        if signal.button == ARBITER or signal.seat is None or not 1 <= signal.seat <= len(model.players):
            self.record(DealAccepted(deal=model.deal))
            return
        self.claim_redeal(model.players[signal.seat - 1])

    def step_turn_ready(self) -> None:
        model = self.model
        if model.tiles_counted != TILES_IN_GAME and model.alert_turn != model.turn:
            self.record(CountAlert(turn=model.turn, table=model.table.tile_count, racks=sum(model.racks),
                                   pool=model.pool, expected=TILES_IN_GAME,
                                   disqualified=model.count_mismatch_disqualifies))
            self.devices.display.say(f"ALERT: table {model.table.tile_count} + racks {sum(model.racks)} + pool "
                                     f"{model.pool} is not {TILES_IN_GAME}")
            return
        frame = self.settle().frame
        if self.arbiter_pressed(NOTICE_WINDOW):
            self.notice_invalid_set()  # before the next turn starts: the last turn may be judged again
            return
        photo = self.photo(frame)
        turn = model.turn + 1
        self.record(TurnStarted(turn=turn, player=model.player, seconds=model.turn_seconds, photo=photo.sha256),
                    photos=(photo,))
        self.started_turn = turn

    def step_turn_running(self) -> None:
        model = self.model
        rules = judging.ruleset_of(model)
        seat = model.current + 1
        if self.timer_turn != model.turn:
            if self.started_turn != model.turn:  # the turn began in a process that is gone
                self.record(TimerIncident(incident="restarted-after-resume",
                                          detail=f"turn {model.turn}: the countdown starts again for seat {seat}"))
            self.timer_turn = model.turn
            if rules.timer_skip_for_simple_turns and self.start_clock_for != model.turn:
                # japan-2017: each player starts their own clock, so a simple turn may skip it (000)
                self.devices.timer.arm(seat, model.turn_seconds)
                self.clock_running = False
                self.devices.timer.show(f"{model.player[:10]} {seat}=go")
            else:
                self.start_clock(seat)
        signal = self.devices.timer.wait(WAIT_SLICE)
        if signal is None:
            return
        next_seat = (model.current + 1) % len(model.players) + 1
        if signal.kind == SignalKind.INCIDENT:
            self.record_incident(signal)
        elif signal.kind == SignalKind.EXPIRED:
            self.pressed_at = time.perf_counter()
            self.record(TurnEnded(turn=model.turn, cause="expired", button=None, seconds_left=0))
        elif signal.kind == SignalKind.PRESSED and signal.seat == seat and not self.clock_running:
            self.start_clock(seat)
        elif signal.kind == SignalKind.PRESSED and signal.seat == seat:
            self.pressed_at = time.perf_counter()
            self.record(TurnEnded(turn=model.turn, cause="button", button=signal.button,
                                  seconds_left=signal.seconds_left))
        elif signal.kind == SignalKind.PRESSED and signal.seat == next_seat and not self.clock_running:
            # the next player starts their own clock: this turn ended without one (a draw or one tile)
            self.pressed_at = time.perf_counter()
            self.record(TurnEnded(turn=model.turn, cause="skipped", button=signal.button, seconds_left=None))
            self.start_clock_for = model.turn + 1
        elif signal.kind == SignalKind.PRESSED and signal.button == ARBITER and model.first_turn and self._redeal_allowed():
            self.claim_redeal(model.player)
        elif signal.kind == SignalKind.PRESSED and signal.button == ARBITER:
            self.notice_invalid_set()  # after the turn started: a set noticed now stands
        else:
            self.devices.display.say(f"button {signal.button} ignored: it is {model.player}'s turn (seat {seat})")

    def start_clock(self, seat: int) -> None:
        self.devices.timer.start_turn(seat, self.model.turn_seconds)
        self.clock_running = True
        self.devices.timer.show(f"{self.model.player[:10]} {self.model.turn}")

    def _redeal_allowed(self) -> bool:
        return judging.ruleset_of(self.model).redeal_when is RedealWhen.OWN_FIRST_TURN

    def claim_redeal(self, player: str) -> None:
        """The player shows the doubled tiles on the table: the camera reads what is new."""
        seen = self.look_at(self.settle().frame)
        shown, _ = _rack_tiles(seen.reading, self.model.table, self.settings.rebuild)
        event = judging.redeal_claim(self.model, shown, player)
        self.record(event, photos=seen.photos, readings=seen.raws)
        self.devices.display.say(f"redeal {'granted' if event.granted else 'refused'}: {event.reason}")
        if event.granted and self.timer_turn is not None:
            self.devices.timer.stop()
            self.timer_turn = None
            self.clock_running = False

    def arbiter_pressed(self, seconds: float) -> bool:
        """Whether the arbiter's button is pressed within `seconds` (other presses are not for now)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            signal = self.devices.timer.wait(left)
            if signal is not None and signal.kind == SignalKind.PRESSED and signal.button == ARBITER:
                return True
        return False

    def notice_invalid_set(self) -> None:
        """Someone noticed an invalid set the verdict missed: the referee says what the table really holds."""
        model = self.model
        changes, note = self.devices.referee.notice_table(model, model.table)
        if not changes:
            self.devices.display.say("arbiter: nothing to correct on the table")
            return
        after = self.record(RefereeCorrection(target="table", changes=tuple(changes), rack=None, note=note))
        if after.state is State.TURN_JUDGING:
            self.devices.display.say(f"noticed before the next turn started: turn {after.turn} is judged again")
        else:
            self.devices.display.say("noticed after the next turn started: the set stands; whoever adds to it or "
                                     "rearranges it must make it valid")

    def look(self, frame: np.ndarray, before: TableState) -> tuple[Look, Rebuilt]:
        """The still table's fused reading, rebuilt on the table before."""
        seen = self.look_at(frame)
        melds_reading = judging.ruleset_of(self.model).melds_reading()
        return seen, rebuild(seen.reading, before, self.settings.rebuild, melds_reading)

    def step_turn_reading(self) -> None:
        model = self.model
        if model.ended_by == "expired" and model.at_alarm is None and judging.ruleset_of(model).rack_locked_after_alarm:
            self.read_at_alarm()
            return
        started = time.perf_counter()
        settled = self.settle()
        seen, rebuilt = self.look(settled.frame, self.model.table)
        self.record(TableRead(purpose="turn", photo=seen.photo.sha256, reading=seen.raw.sha256,
                              tiles=rebuilt.table.tiles, sets=rebuilt.table.sets, doubts=rebuilt.doubts,
                              settled=rebuilt.settled),
                    photos=seen.photos, readings=seen.raws)
        self.timings.append({"turn": self.model.turn, "frames": settled.frames, "settle_ms": settled.seconds * 1000,
                             "reads": seen.frames, "read_ms": seen.raw.elapsed_ms,
                             "reading_step_ms": (time.perf_counter() - started) * 1000})

    def read_at_alarm(self) -> None:
        """japan-2017: after the alarm no tile may leave the rack. The first still, clear table after the
        alarm is the table at the alarm; tiles that appear later go back and do not count."""
        seen, rebuilt = self.look(self.settle().frame, self.model.table)
        self.record(TableRead(purpose="alarm", photo=seen.photo.sha256, reading=seen.raw.sha256,
                              tiles=rebuilt.table.tiles, sets=rebuilt.table.sets, doubts=rebuilt.doubts,
                              settled=rebuilt.settled),
                    photos=seen.photos, readings=seen.raws)

    def step_referee_check(self) -> None:
        model = self.model
        assert model.pending is not None
        if self.devices.desk is not None and getattr(self.devices.referee, "on_page", False):
            if self.doubts_announced != model.turn:  # the referee answers on the page: `correct` the table
                self.doubts_announced = model.turn
                self.devices.display.say(f"referee: {len(model.pending_doubts)} doubtful tile(s) of turn {model.turn} "
                                         "wait for a correction on the referee page")
            self.attend_desk(WAIT_SLICE)
            return
        changes, note = self.devices.referee.settle_table(model, model.pending, model.pending_doubts)
        self.record(RefereeCorrection(target="table", changes=tuple(changes), rack=None, note=note))

    def step_turn_judging(self) -> None:
        model = self.model
        assert model.pending is not None
        event = judging.judge(model, model.pending)
        self.record(event)
        if self.pressed_at is not None and self.timings:
            self.timings[-1]["press_to_verdict_ms"] = (time.perf_counter() - self.pressed_at) * 1000
            self.pressed_at = None
        self.devices.display.verdict(event, self.head())
        if event.restore_required:
            self.show_restore(event)
        self.timer_turn = None
        self.clock_running = False

    def show_restore(self, event: TurnJudged) -> None:
        photo = self.records.photo(self.model.turn_photo) if self.model.turn_photo else None
        suffix = ".jpg" if photo is not None and photo.mime == "image/jpeg" else ".png"
        self.devices.display.restore(event, photo.data if photo else None, suffix)
        self.devices.timer.show("RESTORE TABLE")

    def step_restoring(self) -> None:
        """Read the table each time it settles after a change, until it shows the sets it must (the table
        before the turn, or what stays of one that could not be restored). The arbiter's button gives up
        restoring a failed turn's table (the rule set settles it), or accepts the table as it lies."""
        model = self.model
        settled = self.settle_after_change()
        if settled is _LEFT_STATE:
            return  # the referee page ended the restore (accepted, overridden)
        if settled is None:
            frame = self.reference if self.reference is not None else read_frame(self.devices.camera,
                                                                                  self.settings.settle)
            seen, rebuilt = self.look(frame, model.table)
            judgement = model.judgement
            if judgement is not None and judgement.penalty and judgement.settlement is None:
                self.give_up_restore(seen, rebuilt)
                return
            self.accept_restore(seen, rebuilt)
            return
        seen, rebuilt = self.look(settled.frame, model.table)
        matches, differences = judging.restore_check(model, rebuilt.table)
        if not matches and differences == self.last_restore_differences:
            return  # the same wrong table again: nothing new to record
        self.last_restore_differences = None if matches else differences
        self.record(RestoreChecked(photo=seen.photo.sha256, reading=seen.raw.sha256, matches=matches,
                                   differences=differences, tiles=rebuilt.table.tiles, sets=rebuilt.table.sets,
                                   by_referee=False),
                    photos=seen.photos, readings=seen.raws)
        if matches:
            self.devices.display.say("    table restored")
        else:
            self.devices.display.say("    not restored yet: " + "; ".join(differences))

    def accept_restore(self, seen: Look, rebuilt: Rebuilt, referee: str | None = None, note: str | None = None) -> None:
        """The arbiter accepts the table as it lies: compared with what it had to show, and recorded so
        (`differences` empty: it matches; else how it does not)."""
        matches, differences = judging.restore_check(self.model, rebuilt.table)
        self.record(RestoreChecked(photo=seen.photo.sha256, reading=seen.raw.sha256, matches=True,
                                   differences=() if matches else tuple(differences), tiles=rebuilt.table.tiles,
                                   sets=rebuilt.table.sets, by_referee=True, referee=referee, note=note),
                    photos=seen.photos, readings=seen.raws)
        self.last_restore_differences = None
        self.devices.display.say("    table accepted by the arbiter" + (
            "; it matches the start of the turn" if matches else " although it does not match: " + "; ".join(differences)))

    def give_up_restore(self, seen: Look, rebuilt: Rebuilt) -> None:
        event = judging.unrestorable(self.model, rebuilt.table, seen.photo.sha256, seen.raw.sha256)
        self.record(event, photos=seen.photos, readings=seen.raws)
        self.last_restore_differences = None
        self.devices.display.unrestorable(event)

    def settle_after_change(self):
        """After a refused restore, wait for the table to change before reading it again. None: the
        arbiter's button; _LEFT_STATE: the referee page ended the restore meanwhile."""
        if self.last_restore_differences is None:
            return self.settle()
        reference = self.reference
        while True:
            signal = self.devices.timer.wait(0.01)
            if signal is not None and signal.kind == SignalKind.PRESSED and signal.button == ARBITER:
                return None
            if self.attend_desk() and self.model.state is not State.RESTORING:
                return _LEFT_STATE
            frame = read_frame(self.devices.camera, self.settings.settle)
            if reference is None or frame_difference(frame, reference) > self.settings.settle.still_level:
                return self.settle()

    # ----------------------------------------------------------- referee desk

    def attend_desk(self, timeout: float = 0.0) -> bool:
        """Carry out what the referee page asked (here, in the runner's thread: the one write path).
        Each request is answered with what was recorded, or with why it was refused (nothing recorded)."""
        desk = self.devices.desk
        if desk is None:
            if timeout > 0:
                time.sleep(timeout)
            return False
        item = desk.take(timeout)
        handled = False
        while item is not None:
            request, future = item
            if not future.set_running_or_notify_cancel():  # the page gave up waiting: not carried out
                item = desk.take()
                continue
            try:
                answer = self.carry_out(request)
            except (GameError, RulesError, AdapterError) as error:
                future.set_exception(error)
            else:
                future.set_result(answer)
            handled = True
            item = desk.take()
        return handled

    def carry_out(self, request: RefereeRequest) -> DeskAnswer:
        model = self.model
        first = model.events
        if request.action is DeskAction.CORRECT:
            said = self._desk_correct(request)
        elif request.action is DeskAction.ACCEPT_RESTORE:
            if model.state is not State.RESTORING:
                raise DeskError(f"no restore is under way (the game is {model.state.value})")
            seen, rebuilt = self.look(self.settle().frame, self.model.table)
            self.accept_restore(seen, rebuilt, request.referee, request.reason)
            said = f"restore accepted by referee {request.referee}"
        elif request.action is DeskAction.OVERRIDE:
            judgement = model.judgement
            if model.state is not State.RESTORING or judgement is None:
                raise DeskError(f"no verdict waits for its restore (the game is {model.state.value}): "
                                "only a penalty being restored can be overridden")
            self.record(VerdictOverridden(turn=model.turn, player=model.players[judgement.player_index],
                                          outcome=request.outcome or Override.LEGAL.value, referee=request.referee,
                                          reason=request.reason))
            self.last_restore_differences = None
            said = f"turn {model.turn}: verdict overridden by referee {request.referee}: the turn stands"
        else:
            said = self._desk_clock(request)
        self.devices.display.say(f"    {said} ({request.reason})")
        events = self.records.recorded(self.game_id)[first:]
        return DeskAnswer(tuple({"seq": r.seq, "kind": r.event.kind.value, "payload": r.event.payload()}
                                for r in events), said)

    def _desk_correct(self, request: RefereeRequest) -> str:
        target = request.target or "table"
        if target == "table":
            if not request.changes:
                raise DeskError("a table correction names tiles: 'index code' pairs")
            event = RefereeCorrection(target="table", changes=tuple(request.changes), rack=None, note=request.reason,
                                      referee=request.referee)
        else:
            if request.rack is None:
                raise DeskError("a rack correction gives the rack's codes")
            event = RefereeCorrection(target=target, changes=(), rack=tuple(request.rack), note=request.reason,
                                      referee=request.referee)
        before = self.model.state
        after = self.record(event)
        what = "the table read" if target == "table" else f"{target.removeprefix('rack:')}'s rack"
        said = f"referee {request.referee} corrected {what}"
        if before is State.TURN_READY and after.state is State.TURN_JUDGING:
            said += f"; turn {after.turn} is judged again"
        elif after.state is State.SCORING:
            said += "; the game is scored again"
        return said

    def _desk_clock(self, request: RefereeRequest) -> str:
        model = self.model
        if model.state is not State.TURN_RUNNING or not self.clock_running:
            raise DeskError(f"no countdown runs (the game is {model.state.value})")
        if request.action is DeskAction.PAUSE:
            action = ClockAdjustment.RESUME if request.resume else ClockAdjustment.PAUSE
        else:
            action = ClockAdjustment.EXTEND
        timer = self.devices.timer
        if not callable(getattr(timer, action.value, None)):
            raise DeskError(f"this timer cannot {action.value}")
        self.record(ClockAdjusted(turn=model.turn, action=action.value,
                                  seconds=request.seconds if action is ClockAdjustment.EXTEND else 0,
                                  referee=request.referee, reason=request.reason))
        if action is ClockAdjustment.EXTEND:
            timer.extend(request.seconds)
            return f"turn {model.turn}: {request.seconds} s more, given by referee {request.referee}"
        getattr(timer, action.value)()
        return f"turn {model.turn}: clock {'paused' if action is ClockAdjustment.PAUSE else 'resumed'} by referee " \
               f"{request.referee}"

    def attend_after_game(self, stop) -> None:
        """After the game, while the pages stay up: the referee page may still correct a rack (the game
        is then scored again). Until `stop` (a threading.Event) is set."""
        while not stop.is_set():
            self.attend_desk(WAIT_SLICE)
            if self.model.state is State.SCORING:
                self.step_scoring()

    def step_revealing(self) -> None:
        model = self.model
        player = model.to_reveal()[0]
        self.wait_press(f"game over: {player}, lay your rack open on the table (away from the sets), "
                        f"then press a button")
        seen = self.look_at(self.settle().frame)
        rack_codes, doubts = _rack_tiles(seen.reading, model.table, self.settings.rebuild)
        expected = model.rack_of(player)
        self.record(RackRevealed(player=player, codes=rack_codes, expected=expected, photo=seen.photo.sha256,
                                 reading=seen.raw.sha256, doubts=doubts), photos=seen.photos, readings=seen.raws)
        if doubts or len(rack_codes) != expected:
            codes, note = self.devices.referee.check_rack(player, rack_codes, expected, doubts)
            if codes is not None:
                self.record(RefereeCorrection(target=f"rack:{player}", changes=(), rack=tuple(codes), note=note))

    def step_scoring(self) -> None:
        event = judging.score(self.model)
        self.record(event)
        self.devices.display.scores(event, self.head())


_LEFT_STATE = object()  # settle_after_change: the referee page ended the restore while it waited

STEPS: dict[State, Callable[[TableRunner], None]] = {
    State.SEATING: TableRunner.step_seating,
    State.DEALING: TableRunner.step_dealing,
    State.REDEAL_WINDOW: TableRunner.step_redeal_window,
    State.TURN_READY: TableRunner.step_turn_ready,
    State.TURN_RUNNING: TableRunner.step_turn_running,
    State.TURN_READING: TableRunner.step_turn_reading,
    State.REFEREE_CHECK: TableRunner.step_referee_check,
    State.TURN_JUDGING: TableRunner.step_turn_judging,
    State.RESTORING: TableRunner.step_restoring,
    State.REVEALING: TableRunner.step_revealing,
    State.SCORING: TableRunner.step_scoring,
}


def _rack_tiles(reading: TableReading, table: TableState, settings: RebuildSettings):
    """The tiles read that are not the table's: matched by position, what is left over is the rack."""
    width = tile_width(reading)
    matched = match_by_position(reading, table, settings.keep_radius * width)
    rack = [i for i in range(len(reading.tiles)) if i not in matched]
    # in rows, left to right (a row's tiles differ by a pixel or two in height)
    rack.sort(key=lambda i: (round(reading.tiles[i].center[1] / (1.5 * width)), reading.tiles[i].center[0]))
    codes = tuple(reading.tiles[i].code for i in rack)
    doubts = tuple(
        (n, tuple([reading.tiles[i].code] + [c for c, _ in reading.tiles[i].alternatives]),
         f"read {reading.tiles[i].code} at {reading.tiles[i].confidence:.2f}")
        for n, i in enumerate(rack) if reading.tiles[i].confidence < settings.sure
    )
    return codes, doubts
