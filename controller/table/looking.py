"""Looking at the table: wait until the eyes settle on it, read the frames they rest on, fuse and rebuild.

The eyes (`vision.eyes`, through the watch port) decide when the table may be read: they offer
still frames spread over at least half a second, each clear to the occluder net; the runner
reads every one, and the eyes then check that whatever changed since the last settled table lies
on a tile read now or before. Only then are the readings fused and judged, and that look becomes
the reference of the next wait. A frame in which the table lies exactly as on a frame of the same
look already read, or as on the last table read, keeps that reading instead of being read again: a
still table is read once per look, its other frames compared with it (`TableEyes.kept_reading`).
A wait the eyes cannot settle asks the arbiter; an acceptance is recorded (`table-accepted`)
before the frame becomes the reference. Each frame's reading is steadied against the last table
read and judged (`controller.game.steady`): where a patch lies unchanged since, a tile keeps its
judged code, a missed tile is put back and a tile read on bare table is taken out, so a reader's
flicker there never reaches the judge.

While a turn runs, a watch that can (`watch_table`, `glance`) watches the table between looks at
the timer box: the frames the eyes would rest on if the button were pressed now are read ahead,
one between two looks at the box, and kept by frame time; the wait at the press carries the still
run that led up to it, so a table left still before the press is judged on readings already made.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from controller.game import judging
from controller.game.events import (
    AREA_CONFIRMED, RackRevealed, RefereeCorrection, RestoreChecked, StartOrderDrawn, TableAccepted, TableRead,
    TableUnrestorable, TurnStarted,
)
from controller.game.fusion import Fusion, Unsure
from controller.game.machine import TableState
from controller.game.reading import TableReading
from controller.game.rebuild import Rebuilt, rebuild
from controller.records import Photo, Reading, reading_sha

from .eyes import AskArbiter, ReadFirst, ReadingStands, ReadOffered, TableEyes, answered
from .host import Table
from .ports import (
    AdapterError, DeskAction, Frame, PhotoEncoder, ReadsInPart, SignalKind, TableWatch, TimerSignal, WaitReason, WaitReport,
    WaitStatus, WatchesTurns,
)
from .settings import ARBITER, LOOK_AGAIN

if TYPE_CHECKING:
    from vision.eyes_values import Covered, Reference, TimedFrame


# events whose photo shows the table as the camera settled on it (or as the arbiter accepted it)
SETTLED_PHOTOS = (TableRead, TurnStarted, RestoreChecked, StartOrderDrawn, RackRevealed, TableAccepted, TableUnrestorable)


@dataclass(frozen=True)
class FusedLook:
    """What the runner saw of a still table: the fused reading and everything it came from."""

    reading: TableReading  # fused from the frames read
    photo: Photo  # of the frame whose sets the fused reading keeps
    raw: Reading  # the fused reading as recorded (it names the readings it was fused from)
    photos: tuple[Photo, ...]  # every frame read
    raws: tuple[Reading, ...]  # every frame's reading, then the fused one
    wait: WaitReport | None = None  # the wait it rests on (None: a frame read without waiting)
    read_ahead: int = 0  # frames of it read ahead, before the wait began
    read_ahead_ms: float = 0.0  # what reading them cost
    unsure: tuple[Unsure, ...] = ()  # fused tiles the frames disagree on (controller.game.fusion)

    @property
    def frames(self) -> int:
        return len(self.photos)


PHOTOS_KEPT = 4  # frames whose photos are kept encoded: a look's three, and one to spare
CONFIRM_WHERE = "play area"
CONFIRM_REASON = AREA_CONFIRMED


def _eyes():
    """The eyes' values, loaded when the table is first looked at: the loop itself loads no vision."""
    from vision import eyes_values

    return eyes_values


class Looking:
    """Looking at the table (a part of the table's runner, `TableRunner`): carries out what the table's
    eyes decide (`controller.table.eyes.TableEyes`) with the watch, the reader and the photo encoder."""

    def __init__(self, table: Table, eyes: TableEyes, watch: TableWatch, photos: PhotoEncoder) -> None:
        self.table = table
        self.eyes = eyes
        self.watch = watch
        self.photos = photos
        self._encoded: list[tuple[Frame, Photo]] = []  # the last frames encoded, with their photos

    def photo(self, frame: Frame) -> Photo:
        """The frame's photo for the records, encoded once: a frame read early in a still span is encoded
        then (`look_still`), and its look's record takes that photo."""
        for encoded, photo in self._encoded:
            if encoded is frame:
                return photo
        photo = self.photos.photo(frame)
        self._encoded = self._encoded[-(PHOTOS_KEPT - 1):] + [(frame, photo)]
        return photo

    # ------------------------------------------------------------------ waits

    def begin_wait(self, carry: bool = False, keep_unsure: bool = False) -> None:
        """A wait against the last settled table; with `carry`, the table watched during this turn may carry it."""
        self.table.area.watch_the_area()
        if self.eyes.begin(self.table.model.turn, carry, keep_unsure):
            self.watch.begin(self.eyes.reference, self.table.devices.display.waiting, carry=True)
        else:
            self.watch.begin(self.eyes.reference, self.table.devices.display.waiting)

    def watch_turn(self, seconds: float) -> TimerSignal | None:
        """The timer box's next signal within `seconds`, the eyes watching the table meanwhile (a watch that
        can): the frames they would rest on at a press now are read ahead, one between two looks at the box."""
        timer = self.table.devices.timer
        if not isinstance(self.watch, WatchesTurns):
            return timer.wait(seconds)
        if self.eyes.watch(self.table.model.turn):
            self.table.area.watch_the_area()
            try:
                self.watch.watch_table(self.eyes.reference)
            except AdapterError:
                self.eyes.stop_watching()
                return timer.wait(seconds)
        deadline = time.monotonic() + seconds
        while True:
            signal = timer.wait(self.eyes.settings.watch_poll_seconds)
            if signal is not None or time.monotonic() >= deadline:
                return signal
            try:
                frame = self.eyes.next_to_read()
                if frame is not None:
                    reading, elapsed = self.read_table_timed(frame.image)
                    self.eyes.read_ahead(frame, reading, elapsed)
                else:
                    self.eyes.glanced(self.watch.glance())
            except AdapterError:  # the camera failed while watching: the wait at the press meets it, as ever
                self.eyes.stop_watching()
                return timer.wait(max(0.0, deadline - time.monotonic()))

    def settle(self) -> WaitReport:
        """Wait until the eyes settle on the table without reading it (a turn's start, a restore's change):
        every change against the last settled table must lie on the tiles read on it."""
        self.begin_wait()
        while True:
            said = self.watch.offered()
            decision = self.eyes.heard(said)
            if isinstance(decision, ReadOffered):
                look = self.watch.explain(*self.eyes.explain(unread=True))
                if isinstance(look, _eyes().SettledLook):
                    self.eyes.settled_unread(look)
                    return self.watch.settled(look)
                decision = self.eyes.heard(look)
            if isinstance(decision, AskArbiter):
                self.ask_arbiter(decision)

    def look_still(self, carry: bool = False, keep_unsure: bool = False, afresh: bool = False) -> FusedLook:
        """Wait for the eyes, read every frame they offer, and fuse the readings of the look they settle on.
        With `carry`, the wait at a turn's end: the table watched still before it may carry the look, and
        the frames read ahead are not read again. With `keep_unsure`, a tile only some frames see is
        kept in the fused reading, unsure (see `FusedLook.unsure`), rather than outvoted. With `afresh`, every
        frame is read, even one in which the table lies as on the last table read."""
        self.begin_wait(carry, keep_unsure)
        decision = None
        while not isinstance(decision, ReadingStands):
            decision = self.eyes.heard(self.watch.offered())
            if isinstance(decision, ReadFirst):
                for frame in decision.frames:
                    try:
                        reading, elapsed = self.read_table_timed(frame.image, afresh)
                    except AdapterError:
                        break  # the look reads the frame again, and meets the failure there
                    self.eyes.read_early(frame, reading, elapsed)
                    self.photo(frame.image)  # while the span grows: the look's record needs it
            elif isinstance(decision, ReadOffered):
                for frame in decision.to_read:
                    self.eyes.read(frame, *self.read_table_timed(frame.image, afresh))
                decision = self.eyes.heard(self.watch.explain(*self.eyes.explain()))
            if isinstance(decision, AskArbiter):
                self.ask_arbiter(decision)
        wait = self.watch.settled(decision.look)
        seen = self.fused([frame.image for frame in decision.look.frames], list(decision.readings), wait,
                          decision.fusion)
        self.eyes.judged_as(decision.look.frames[-1].image, seen.reading)
        return replace(seen, read_ahead=decision.read_ahead, read_ahead_ms=decision.read_ahead_ms)

    def confirm_clear_table(self, words: str) -> None:
        """A game begins: the referee confirms the play area just found and that the table is clear (the
        arbiter's button, or accept on the referee page). Recorded as the table accepted, then that frame is
        the first wait's reference. Asked again every `ask_after_seconds` until confirmed."""
        settings = self.eyes.settings
        covered = _eyes().Covered(0.0, CONFIRM_WHERE, 0.0, CONFIRM_REASON, True)
        display = self.table.devices.display
        frames, said_at = 0, time.monotonic()
        display.waiting(WaitStatus(WaitReason.ARBITER_ASKED, words, frames))  # the referee page's accept, shown
        while True:
            image = self.watch.frame()  # the table as the referee sees it now
            frames += 1
            self.eyes.ask_to_confirm(covered, image)
            if self.arbiter_accepts(covered, _eyes().TimedFrame(image, 0.0)):
                self.eyes.confirmed(image)
                display.waiting(WaitStatus(WaitReason.SETTLED, WaitReason.SETTLED.value, frames))
                return
            if time.monotonic() - said_at >= settings.ask_after_seconds:
                display.waiting(WaitStatus(WaitReason.ARBITER_ASKED, words, frames))
                said_at = time.monotonic()

    def ask_arbiter(self, asked: AskArbiter) -> None:
        """The eyes ask the arbiter (the table says why and where): the arbiter's button, or the referee
        page's `accept-table`, accepts the table as it is seen now. Recorded first, then the frame becomes
        the eyes' reference; else the wait goes on."""
        if self.arbiter_accepts(asked.covered, asked.frame):
            self.eyes.accepted()
            self.watch.accept(asked.frame)
        else:
            self.eyes.not_accepted()

    def arbiter_accepts(self, covered: Covered, frame: TimedFrame) -> bool:
        also = (DeskAction.AREA,) if covered.reason == CONFIRM_REASON else ()  # its corners may be dragged first
        if self.table.desk.accepts_table(also):  # the referee page (recorded there)
            return True
        signal = self.table.devices.timer.wait(0.0)
        if signal is None:
            return False
        if signal.kind == SignalKind.INCIDENT:
            self.table.record_incident(signal)
            return False
        if signal.kind != SignalKind.PRESSED or signal.button != ARBITER:
            return False
        self.record_accepted(covered, frame.image, "arbiter button")
        return True

    def record_accepted(self, covered: Covered, image: Frame, by: str) -> None:
        photo = self.photo(image)
        self.table.record(TableAccepted(photo=photo.sha256, where=covered.where, reason=covered.reason, by=by),
                    photos=(photo,))
        if covered.reason == CONFIRM_REASON:
            self.table.devices.display.say(f"play area and clear table confirmed by the {by}")
        else:
            self.table.devices.display.say(f"table accepted as it is by the {by} (something at the {covered.where})")

    # ---------------------------------------------------------------- reading

    def read_timed(self, frame: Frame) -> tuple[TableReading, float]:
        started = time.perf_counter()
        reading = self.table.devices.reader.read(frame)
        return reading, (time.perf_counter() - started) * 1000

    def read_table_timed(self, frame: Frame, afresh: bool = False) -> tuple[TableReading, float]:
        """A frame of the table read, or a reading kept where the table lies in it exactly as on the frame
        last read in this look, or as on the last table read (`TableEyes.kept_reading`). `afresh`: read it
        whatever it shows, and whole by a reader that reads only what changed (`ReadsInPart`)."""
        started = time.perf_counter()
        kept = None if afresh else self.eyes.kept_reading(frame)
        if kept is not None:
            return kept, (time.perf_counter() - started) * 1000
        if afresh and isinstance(self.table.devices.reader, ReadsInPart):
            self.table.devices.reader.read_whole_next()
        return self.read_timed(frame)

    def read(self, frame: Frame) -> tuple[TableReading, Photo, Reading]:
        reading, elapsed = self.read_timed(frame)
        photo = self.photo(frame)
        raw = reading.to_json()
        return reading, photo, Reading(reading_sha(raw), photo.sha256, raw, round(elapsed, 1))

    def fused(self, frames: list[Frame], readings: list[tuple[TableReading, float]], wait: WaitReport | None,
              fusion: Fusion | None = None) -> FusedLook:
        """The readings of one still table's frames fused into one (every frame's photo and reading kept)."""
        photos = [self.photo(frame) for frame in frames]
        raws = []
        for (reading, elapsed), photo in zip(readings, photos):
            raw = reading.to_json()
            raws.append(Reading(reading_sha(raw), photo.sha256, raw, round(elapsed, 1)))
        fusion = fusion or self.eyes.fused(readings)
        photo = photos[fusion.anchor]
        if len(raws) == 1:
            return FusedLook(fusion.reading, photo, raws[0], tuple(photos), tuple(raws), wait)
        data = fusion.reading.to_json()
        data["fused_from"] = [raw.sha256 for raw in raws]
        elapsed = round(sum(raw.elapsed_ms or 0.0 for raw in raws), 1)
        fused = Reading(reading_sha(data), photo.sha256, data, elapsed)
        return FusedLook(fusion.reading, photo, fused, tuple(photos), tuple(raws) + (fused,), wait, unsure=fusion.unsure)

    def look_at(self, frame: Frame) -> FusedLook:
        """One frame read as it is, without waiting (the arbiter accepts the table as it lies)."""
        return self.fused([frame], [self.read_timed(frame)], None)

    def look(self, before: TableState, look_again: bool = False, carry: bool = False) -> tuple[FusedLook, Rebuilt]:
        """The settled table's fused reading, rebuilt on the table before. With `look_again` (a turn's
        table: tiles that lay on it before cannot have left it), tiles seen nowhere now mean the eyes
        are waited for and the table read again, up to `LOOK_AGAIN` times, before the reading stands.
        With `carry` (a turn's end), the first look may rest on the table watched still before it."""
        melds_reading = judging.ruleset_of(self.table.model).melds_reading()
        for attempt in range(LOOK_AGAIN + 1):
            # a look again reads afresh: the reader may find there what it missed on the same pixels
            seen = self.look_still(carry and attempt == 0, keep_unsure=True, afresh=attempt > 0)
            rebuilt = rebuild(seen.reading, before, self.table.settings.rebuild, melds_reading, seen.unsure)
            codes = " ".join(code for code, _, _ in rebuilt.missing)
            if rebuilt.missing and look_again and attempt == LOOK_AGAIN:
                self.table.devices.display.say(f"    {len(rebuilt.missing)} tile(s) of the table before still not seen "
                                         f"({codes}): taken as read (a penalty resting on them waits for the referee)")
            if not rebuilt.missing or not look_again or attempt == LOOK_AGAIN:
                return seen, rebuilt
            self.table.devices.display.say(f"    {len(rebuilt.missing)} tile(s) of the table before not seen ({codes}): "
                                     "looking again")
        raise AssertionError("unreachable")

    # ----------------------------------------------------------------- resume

    def last_settled(self) -> Reference | None:
        """The last table the records hold a settled photo of (and the tiles last read), the reference
        of the first wait after a resume; None for a game with none."""
        decode = self.photos.frame
        events = self.table.records.events(self.table.game_id)
        for index in range(len(events) - 1, -1, -1):
            event = events[index]
            sha = event.photo if isinstance(event, SETTLED_PHOTOS) else None
            photo = self.table.records.photo(sha) if sha else None
            image = decode(photo) if photo is not None else None
            if image is not None:
                # no codes: the reading last named may be older than the photo, so no code is carried over
                return _eyes().Reference(image, self._last_outlines(events[: index + 1]))
        return None

    def compare_with_turn_start(self) -> None:
        """A restore's waits compare with the table at the turn's start as well (`Reference.earlier`):
        the tiles taken back leave the table top as it lay then, whatever its grain or pattern."""
        reference = self.eyes.reference
        if reference is None or reference.earlier is not None or not self.table.model.turn_photo:
            return
        photo = self.table.records.photo(self.table.model.turn_photo)
        image = self.photos.frame(photo) if photo is not None else None
        if image is not None and image.shape == reference.image.shape:
            self.eyes.compare_with_earlier(image)

    def last_judged(self) -> Reference | None:
        """The last table read and judged, as the records hold it (the photo of the last reading recorded,
        and that reading's tiles and codes): what the first readings after a resume are steadied against, as
        they would have been had the process lived. None for a game with none."""
        decode, find = self.photos.frame, self.table.records.reading
        events = self.table.records.events(self.table.game_id)
        for at in range(len(events) - 1, -1, -1):
            event = events[at]
            sha, photo_sha = getattr(event, "reading", None), getattr(event, "photo", None)
            if not isinstance(sha, str) or not isinstance(photo_sha, str):
                continue
            photo, raw = self.table.records.photo(photo_sha), find(sha, photo_sha)
            image = decode(photo) if photo is not None else None
            if image is None or raw is None:
                return None
            tiles = _outlined(raw)
            judged = _eyes().Reference(image, tuple(corners for corners, _ in tiles), tuple(code for _, code in tiles))
            # the referee's answers to the read's doubts, as the process that died had followed them
            answer = events[at + 1] if isinstance(event, TableRead) and event.doubts and at + 1 < len(events) else None
            if isinstance(answer, RefereeCorrection) and answer.target == "table":
                judged = answered(judged, answer.changes, len(event.tiles))
            return judged
        return None

    def _last_outlines(self, events) -> tuple:
        for event in reversed(events):
            sha = getattr(event, "reading", None)  # the events that name a reading
            raw = self.table.records.reading(sha) if isinstance(sha, str) else None
            if raw is not None:
                return tuple(corners for corners, _ in _outlined(raw))
        return ()


def _outlined(raw) -> list[tuple[tuple[tuple[float, float], ...], str]]:
    """A recorded reading's tiles that have an outline: (corners, code) each."""
    return [(tuple((float(x), float(y)) for x, y in tile["corners"]), str(tile.get("code", "")))
            for tile in raw.reading.get("tiles", ()) if len(tile.get("corners", ())) >= 3]
