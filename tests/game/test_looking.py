"""The runner's looking part around the eyes: a cup left at the edge for a whole turn asks the arbiter,
whose button ends the wait (recorded, and kept through a resume); tiles that vanished are looked
at again; a resumed runner compares with the last settled photo in the records and steadies
against the last table read in them; a restore compares with the table at the turn's start; each
frame's reading is steadied against the table last read where its patches lie unchanged (and
only there). Rendered frames, 30 a second, through the real eyes and the real occluder net; the reader
is scripted."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.adapters.display import ConsoleDisplay
from controller.adapters.signals import SignalKind, TimerSignal
from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from controller.game import judging
from controller.game.events import TableAccepted
from controller.game.machine import TableState
from controller.game.reading import ReadTile, TableReading
from controller.records import Records
from controller.table import RunnerSettings, TableDevices, TableRunner
from controller.table.eyes import LIES_AS_IN_LOOK, LIES_AS_READ
from controller.table.settings import LOOK_AGAIN
from vision.eyes import EyesSettings, Reference

from game_helpers import scene_reading
from recorded_games import Frames

LAYOUT = SceneLayout(width=640, height=400, tile_width=32, seed=3)
TABLE = Scene.of([{"tiles": ["K1", "K2", "K3"], "at": [1, 3]}])


class Reader:
    def __init__(self, reading):
        self.reading = reading
        self.calls = 0

    def read(self, frame):
        self.calls += 1
        return self.reading


class ArbiterAfter:
    """A timer box whose arbiter presses the button once asked `patience` times (other waits: nothing)."""

    def __init__(self, patience=0):
        self.asked = 0
        self.patience = patience

    def wait(self, timeout):
        self.asked += 1
        return TimerSignal(SignalKind.PRESSED, button="A") if self.asked > self.patience else None


def read_tiles(scene: Scene) -> TableReading:
    return scene_reading(scene, LAYOUT)


@pytest.fixture()
def game(tmp_path):
    records = Records(tmp_path / "looks.sqlite")
    game_id = records.new_game("classic", ("Ann", "Ben"))
    records.append(game_id, judging.game_created("classic", ("Ann", "Ben")))
    yield records, game_id
    records.close()


@pytest.fixture(scope="module")
def renderer():
    return SceneRenderer(LAYOUT)


def with_cup(image: np.ndarray) -> np.ndarray:
    image = image.copy()
    h, w = image.shape[:2]
    cv2.circle(image, (w - 12, h // 2), 40, (235, 235, 240), -1, cv2.LINE_AA)
    cv2.circle(image, (w - 12, h // 2), 30, (30, 50, 80), -1, cv2.LINE_AA)
    return image


def test_a_cup_left_at_the_edge_for_the_whole_turn_asks_the_arbiter_whose_button_ends_the_wait(game, renderer):
    records, game_id = game
    table = renderer.render(TABLE)
    cupped = [with_cup(renderer.frame(TABLE, i)) for i in range(6)]
    said = []
    display = ConsoleDisplay(quiet=True)
    display.waiting = said.append
    timer = ArbiterAfter()
    devices = TableDevices(Frames(cupped), timer, Reader(read_tiles(TABLE)), display, None)
    runner = TableRunner(records, game_id, devices)
    runner.eyes.reference = Reference(table, tuple(t.corners for t in read_tiles(TABLE).tiles))
    seen = runner.looking.look_still()
    asked = [s for s in said if "press the arbiter button" in s.detail]
    assert asked and "right edge" in asked[0].detail and timer.asked >= 1
    accepted = [e for e in records.events(game_id) if isinstance(e, TableAccepted)]
    assert len(accepted) == 1 and accepted[0].by == "arbiter button" and "right edge" in accepted[0].where
    assert records.photo(accepted[0].photo) is not None and records.verify(game_id).ok
    # the look came after the acceptance, at least the arbiter's wait later
    assert seen.wait.frames >= EyesSettings().ask_after_seconds * 30
    # a resumed runner compares with the accepted table: the cup no longer holds anything up
    again = TableRunner(records, game_id, TableDevices(Frames(cupped), ArbiterAfter(10**9),
                                                       Reader(read_tiles(TABLE)), ConsoleDisplay(quiet=True), None))
    assert again.eyes.reference is not None and again.eyes.reference.image.shape == table.shape
    assert again.looking.look_still().wait.frames <= EyesSettings().still_seconds * 30 + 3


def table_with_a_tile_gone() -> TableState:
    """The table before as the reader's tiles and an O9 the frames no longer show."""
    return TableState(tuple((code, x, y) for code, x, y in
                            [(t.code, *t.center) for t in read_tiles(TABLE).tiles] + [("O9", 500.0, 300.0)]),
                      ((0, 1, 2), (3,)))


def runner_reading_with(reader, game, renderer) -> TableRunner:
    """A runner whose camera shows TABLE still and whose arbiter never presses."""
    records, game_id = game
    frames = [renderer.frame(TABLE, i) for i in range(4)]
    return TableRunner(records, game_id, TableDevices(Frames(frames), ArbiterAfter(10**9), reader,
                                                      ConsoleDisplay(quiet=True), None))


def test_tiles_that_vanished_are_looked_at_again_before_the_reading_stands(game, renderer):
    reader = Reader(read_tiles(TABLE))
    runner = runner_reading_with(reader, game, renderer)
    before = table_with_a_tile_gone()
    seen, rebuilt = runner.looking.look(before, look_again=True)
    assert [code for code, _, _ in rebuilt.missing] == ["O9"]
    # the game's first look (nothing settled before it) and each look again read every frame (a look again
    # afresh, on the same pixels)
    assert reader.calls == (LOOK_AGAIN + 1) * EyesSettings().look_frames
    reader.calls = 0
    seen, _ = runner.looking.look(before)  # a restore's reading is taken as it is
    assert reader.calls == 0  # the table lies as on the last table read: that reading is kept
    assert LIES_AS_READ in seen.reading.warnings and LIES_AS_READ in str(seen.raw.reading)


class ReaderInPart(Reader):
    """A reader that reads only what changed since its last whole read, counting when it is asked to read whole."""

    def __init__(self, reading):
        super().__init__(reading)
        self.whole_asked = 0

    def read_whole_next(self):
        self.whole_asked += 1


def test_a_look_again_asks_a_reader_that_reads_in_part_to_read_whole(game, renderer):
    reader = ReaderInPart(read_tiles(TABLE))
    runner = runner_reading_with(reader, game, renderer)
    before = table_with_a_tile_gone()
    runner.looking.look(before, look_again=True)
    # the first look reads as the reader reads; every frame of each look again is read whole
    assert reader.whole_asked == LOOK_AGAIN * EyesSettings().look_frames
    reader.whole_asked = 0
    runner.looking.look(before)  # no tile missed (none is looked for): nothing asked
    assert reader.whole_asked == 0


@pytest.mark.parametrize("change", ["nothing changed", "a tile laid", "a tile turned to another code",
                                    "the lamp turned up"])
def test_a_table_that_lies_as_on_the_last_table_read_keeps_its_reading_and_any_change_is_read(game, renderer, change):
    records, game_id = game
    after = TABLE
    if change == "a tile laid":
        after = Scene.of([{"tiles": ["K1", "K2", "K3"], "at": [1, 3]}, {"tiles": ["R9"], "at": [4, 10]}])
    elif change == "a tile turned to another code":
        after = Scene.of([{"tiles": ["K1", "K2", "O3"], "at": [1, 3]}])
    frames = [renderer.frame(TABLE, i) for i in range(20)]
    later = [renderer.frame(after, 20 + i) for i in range(20)]
    if change == "the lamp turned up":
        later = [np.clip(f.astype(np.float32) * 1.15, 0, 255).astype(np.uint8) for f in later]
    reader = Reader(read_tiles(TABLE))
    devices = TableDevices(Frames(frames), ArbiterAfter(10**9), reader, ConsoleDisplay(quiet=True), None)
    runner = TableRunner(records, game_id, devices)
    runner.looking.look_still()
    assert reader.calls == EyesSettings().look_frames  # the game's first look: every frame is read
    devices.camera.frames = later
    reader.reading, reader.calls = read_tiles(after), 0
    seen = runner.looking.look_still()
    kept = change in ("nothing changed", "the lamp turned up")
    assert reader.calls == (0 if kept else 1)
    assert (LIES_AS_READ in seen.reading.warnings) is kept
    # the look's other frames keep the one reading made
    assert sum(LIES_AS_IN_LOOK in raw.reading["warnings"] for raw in seen.raws[:-1]) == (0 if kept else 2)


def test_a_resumed_runner_compares_with_the_last_settled_photo_in_the_records(game, renderer):
    from controller.adapters.photos import FramePhotos
    from controller.game.machine import State

    records, game_id = game

    def resumed():
        return TableRunner(records, game_id, TableDevices(Frames([table]), ArbiterAfter(10**9),
                                                          Reader(read_tiles(TABLE)), ConsoleDisplay(quiet=True), None))

    table = renderer.render(TABLE)
    assert resumed().eyes.reference is None  # nothing settled yet: a game's first wait
    photo = FramePhotos().photo(table)
    records.append(game_id, TableAccepted(photo=photo.sha256, where="right edge", reason="the occluder net",
                                          by="arbiter button"), photos=(photo,), state=State.SEATING)
    reference = resumed().eyes.reference
    assert reference is not None and np.abs(reference.image.astype(int) - table.astype(int)).mean() < 3


class Flicker:
    """A reader whose reading of one tile turns to another code on some frames (glare, noise)."""

    def __init__(self, reading: TableReading, index: int, code: str, frames: set[int]):
        self.reading, self.index, self.code, self.frames = reading, index, code, frames
        self.calls = 0

    def read(self, frame):
        self.calls += 1
        if self.calls not in self.frames:
            return self.reading
        tiles = list(self.reading.tiles)
        tiles[self.index] = ReadTile(self.code, 0.9, tiles[self.index].center, tiles[self.index].corners)
        return TableReading(tuple(tiles), self.reading.sets)


def flickering_look(records, game_id, frames, reference_table):
    reading = read_tiles(TABLE)
    reader = Flicker(reading, 1, "K7", {1, 3})  # K2 read as K7 on two frames of three
    runner = TableRunner(records, game_id, TableDevices(Frames(frames), ArbiterAfter(10**9), reader,
                                                        ConsoleDisplay(quiet=True), None))
    runner.eyes.reference = runner.eyes.judged = Reference(reference_table,
                                                           tuple(t.corners for t in reading.tiles),
                                                           tuple(t.code for t in reading.tiles))
    return runner, runner.looking.look_still()


def test_an_unchanged_tile_whose_reading_flickers_keeps_its_settled_code(game, renderer):
    records, game_id = game
    frames = [renderer.frame(TABLE, i) for i in range(4)]
    runner, seen = flickering_look(records, game_id, frames, renderer.render(TABLE))
    assert [t.code for t in seen.reading.tiles] == ["K1", "K2", "K3"]
    frame_codes = [[t["code"] for t in raw.reading["tiles"]] for raw in seen.raws[:-1]]
    assert frame_codes == [["K1", "K2", "K3"]] * 3
    assert any("read K7, kept K2" in w for w in seen.reading.warnings)
    assert runner.eyes.reference.codes == ("K1", "K2", "K3")  # the next wait keeps what was judged


def test_a_tile_whose_patch_changed_is_read_as_the_reader_reads_it(game, renderer):
    records, game_id = game
    changed = Scene.of([{"tiles": ["K1", "K7", "K3"], "at": [1, 3]}])  # the K2 swapped for a K7
    frames = [renderer.frame(changed, i) for i in range(4)]
    _, seen = flickering_look(records, game_id, frames, renderer.render(TABLE))
    assert [t.code for t in seen.reading.tiles] == ["K1", "K7", "K3"]  # the two frames' K7 outvotes
    assert not any("kept" in w for w in seen.reading.warnings)


def test_a_wait_that_reads_nothing_carries_no_code_and_the_next_look_steadies_against_the_table_read(game, renderer):
    records, game_id = game
    swapped = Scene.of([{"tiles": ["K1", "K7", "K3"], "at": [1, 3]}])  # the K2 swapped while nobody read
    reading = read_tiles(TABLE)
    runner = TableRunner(records, game_id, TableDevices(Frames([renderer.frame(swapped, i) for i in range(8)]),
                                                        ArbiterAfter(10**9), Reader(read_tiles(swapped)),
                                                        ConsoleDisplay(quiet=True), None))
    runner.eyes.reference = runner.eyes.judged = Reference(renderer.render(TABLE),
                                                           tuple(t.corners for t in reading.tiles),
                                                           tuple(t.code for t in reading.tiles))
    runner.looking.settle()
    assert runner.eyes.reference.codes == () and runner.eyes.judged.codes == ("K1", "K2", "K3")
    seen = runner.looking.look_still()
    assert [t.code for t in seen.reading.tiles] == ["K1", "K7", "K3"]  # its patch changed since the table read
    assert not any("kept" in w for w in seen.reading.warnings)


WITH_O3 = Scene.of([{"tiles": ["K1", "K2", "K3"], "at": [1, 3]}, {"tiles": ["O3"], "at": [3, 1]}])
WITHOUT_K2 = Scene.of([{"tiles": ["K1"], "at": [1, 3]}, {"tiles": ["K3"], "at": [1, 5]}])


class Misreads:
    """A reader that reads the table as `other` on the frames numbered in `frames` (from 1), else as `reading`."""

    def __init__(self, reading: TableReading, other: TableReading, frames: set[int]):
        self.reading, self.other, self.frames = reading, other, frames
        self.calls = 0

    def read(self, frame):
        self.calls += 1
        return self.other if self.calls in self.frames else self.reading


def steadied_look(game, renderer, scene: Scene, reader, judged: Scene = TABLE):
    """The look of `scene` (read by `reader`) by a runner whose last table read and judged is `judged`."""
    records, game_id = game
    # every frame read: the reader flickers on the same pixels
    runner = TableRunner(records, game_id, TableDevices(Frames([renderer.frame(scene, i) for i in range(4)]),
                                                        ArbiterAfter(10**9), reader, ConsoleDisplay(quiet=True),
                                                        None), RunnerSettings(read_once=False))
    reading = read_tiles(judged)
    runner.eyes.reference = runner.eyes.judged = Reference(renderer.render(judged),
                                                           tuple(t.corners for t in reading.tiles),
                                                           tuple(t.code for t in reading.tiles))
    seen = runner.looking.look_still()
    frames = [sorted(t["code"] for t in raw.reading["tiles"]) for raw in seen.raws[:-1]]
    warnings = [w for raw in seen.raws[:-1] for w in raw.reading["warnings"]]
    return sorted(t.code for t in seen.reading.tiles), frames, warnings


def test_a_tile_the_reader_misses_on_an_unchanged_patch_is_put_back(game, renderer):
    misreads = Misreads(read_tiles(TABLE), read_tiles(WITHOUT_K2), {1, 3})  # two frames of three
    fused, frames, warnings = steadied_look(game, renderer, TABLE, misreads)
    assert fused == ["K1", "K2", "K3"] and frames == [["K1", "K2", "K3"]] * 3
    assert sum("K2" in w and "put back" in w for w in warnings) == 2


def test_a_tile_read_on_unchanged_bare_table_is_taken_out(game, renderer):
    misreads = Misreads(read_tiles(TABLE), read_tiles(WITH_O3), {1, 3})  # two frames of three
    fused, frames, warnings = steadied_look(game, renderer, TABLE, misreads)
    assert fused == ["K1", "K2", "K3"] and frames == [["K1", "K2", "K3"]] * 3
    assert sum("read O3, taken out" in w for w in warnings) == 2


def test_a_tile_really_taken_away_is_not_put_back(game, renderer):
    fused, frames, warnings = steadied_look(game, renderer, WITHOUT_K2, Reader(read_tiles(WITHOUT_K2)))
    assert fused == ["K1", "K3"] and frames == [["K1", "K3"]] * 3
    assert not any("put back" in w for w in warnings)


def test_a_tile_really_laid_on_bare_table_is_not_taken_out(game, renderer):
    fused, frames, warnings = steadied_look(game, renderer, WITH_O3, Reader(read_tiles(WITH_O3)))
    assert fused == ["K1", "K2", "K3", "O3"] and frames == [["K1", "K2", "K3", "O3"]] * 3
    assert not any("taken out" in w for w in warnings)


def test_a_tile_laid_while_nobody_read_is_not_taken_out(game, renderer):
    records, game_id = game
    runner = TableRunner(records, game_id, TableDevices(Frames([renderer.frame(WITH_O3, i) for i in range(4)]),
                                                        ArbiterAfter(10**9), Reader(read_tiles(WITH_O3)),
                                                        ConsoleDisplay(quiet=True), None))
    reading = read_tiles(TABLE)
    runner.eyes.reference = runner.eyes.judged = Reference(renderer.render(TABLE),
                                                           tuple(t.corners for t in reading.tiles),
                                                           tuple(t.code for t in reading.tiles))
    # a wait nobody read settled (or the arbiter accepted it) with the O3 already down: its patch is
    # unchanged since that frame, but not since the table last read
    runner.eyes.reference = runner.eyes.unread_reference(renderer.frame(WITH_O3, 9))
    seen = runner.looking.look_still()
    assert sorted(t.code for t in seen.reading.tiles) == ["K1", "K2", "K3", "O3"]


def first_look(game, renderer, reader, judged: Scene | None = None):
    """The look of TABLE (read by `reader`) by a runner with no table judged yet, or with `judged`."""
    records, game_id = game
    said: list[str] = []
    display = ConsoleDisplay(quiet=True)
    display.say = said.append
    runner = TableRunner(records, game_id, TableDevices(Frames([renderer.frame(TABLE, i) for i in range(8)]),
                                                        ArbiterAfter(10**9), reader, display, None))
    if judged is not None:
        reading = read_tiles(judged)
        runner.eyes.reference = runner.eyes.judged = Reference(renderer.render(judged),
                                                               tuple(t.corners for t in reading.tiles),
                                                               tuple(t.code for t in reading.tiles))
    return runner, runner.looking.look_still(), said


def dealt_game(records, renderer):
    """A game dealt and about to start (a journal of its own), and a first look at TABLE by a runner on it."""
    from controller.game.events import Dealt, StartOrderDrawn
    from controller.game.journal import GameJournal

    journal = GameJournal.start(records, judging.game_created("classic", ("Ann", "Ben")))
    journal.record(StartOrderDrawn((), "Ann", None))
    journal.record(Dealt(1))
    runner, seen, _ = first_look((records, journal.game_id), renderer, Reader(read_tiles(TABLE)))
    return journal, runner, seen


def test_a_resumed_runner_steadies_against_the_last_table_read_in_the_records(game, renderer):
    from controller.game.events import ReadPurpose, TableRead, TurnEnded, TurnStarted

    records, _ = game
    journal, runner, seen = dealt_game(records, renderer)
    journal.record(TurnStarted(1, "Ann", 60, seen.photo.sha256), photos=(seen.photo,))
    journal.record(TurnEnded(1, "button", "1", 40))
    assert TableRunner(records, journal.game_id, runner.devices).eyes.judged is None  # nothing read is recorded yet
    tiles = tuple((t.code, *t.center) for t in seen.reading.tiles)
    journal.record(TableRead(ReadPurpose.TURN, seen.photo.sha256, seen.raw.sha256, tiles, seen.reading.sets, (), ()),
                   photos=seen.photos, readings=seen.raws)
    judged = TableRunner(records, journal.game_id, runner.devices).eyes.judged
    assert judged is not None and judged.codes == ("K1", "K2", "K3")
    assert len(judged.tiles) == 3 and judged.image.shape == renderer.render(TABLE).shape
    # a flicker on the unchanged table after the resume keeps the code judged before it
    flicker = Flicker(read_tiles(TABLE), 1, "K7", {1, 3})
    again = TableRunner(records, journal.game_id, TableDevices(Frames([renderer.frame(TABLE, i) for i in range(4)]),
                                                               ArbiterAfter(10**9), flicker,
                                                               ConsoleDisplay(quiet=True), None))
    assert [t.code for t in again.looking.look_still().reading.tiles] == ["K1", "K2", "K3"]


def test_a_restore_compares_with_the_table_at_the_turns_start(game, renderer):
    from controller.game.events import TurnStarted

    records, _ = game
    journal, runner, seen = dealt_game(records, renderer)
    runner.looking.compare_with_turn_start()
    assert runner.eyes.reference.earlier is None  # no turn started yet
    journal.record(TurnStarted(1, "Ann", 60, seen.photo.sha256), photos=(seen.photo,))
    runner = TableRunner(records, journal.game_id, runner.devices)
    runner.eyes.reference = Reference(renderer.render(TABLE))
    runner.looking.compare_with_turn_start()
    earlier = runner.eyes.reference.earlier
    assert earlier is not None and earlier.shape == runner.eyes.reference.image.shape
    assert np.abs(earlier.astype(int) - renderer.frame(TABLE, 0).astype(int)).mean() < 4  # the turn's start photo


def test_a_tile_one_frame_of_a_first_look_reads_is_asked_about_and_stays_out_once_the_referee_says_so(game, renderer):
    from controller.game.events import (
        NO_TILE, Dealt, ReadPurpose, RefereeCorrection, StartOrderDrawn, TableRead, TurnEnded, TurnStarted,
    )
    from controller.game.journal import GameJournal
    from controller.game.machine import State

    records, _ = game
    journal = GameJournal.start(records, judging.game_created("classic", ("Ann", "Ben")))
    journal.record(StartOrderDrawn((), "Ann", None))
    journal.record(Dealt(1))
    reader = Misreads(read_tiles(TABLE), read_tiles(WITH_O3), {2})  # nothing judged yet to steady frame 2 against
    runner = TableRunner(records, journal.game_id, TableDevices(Frames([renderer.frame(TABLE, i) for i in range(8)]),
                                                                ArbiterAfter(10**9), reader, ConsoleDisplay(quiet=True),
                                                                None), RunnerSettings(read_once=False))
    start = runner.looking.photo(renderer.frame(TABLE, 0))
    runner.record(TurnStarted(1, "Ann", 60, start.sha256), photos=(start,))
    runner.record(TurnEnded(1, "button", "1", 40))
    seen, rebuilt = runner.looking.look(runner.model.table)
    o3 = [i for i, t in enumerate(seen.reading.tiles) if t.code == "O3"]
    assert len(o3) == 1 and [(d[0], d[1]) for d in rebuilt.doubts] == [(o3[0], (NO_TILE, "O3"))]
    assert "seen in 1 of 3 frames" in rebuilt.doubts[0][2]
    after = runner.record(TableRead(ReadPurpose.TURN, seen.photo.sha256, seen.raw.sha256, rebuilt.table.tiles,
                                    rebuilt.table.sets, rebuilt.doubts, rebuilt.settled),
                          photos=seen.photos, readings=seen.raws)
    assert after.state is State.REFEREE_CHECK
    # the referee says no tile lies there: the table last judged follows, so when the same frame of the
    # next look reads it again, on a patch unchanged since, it is taken out, never put back in the others
    runner.record(RefereeCorrection("table", ((o3[0], NO_TILE),), None, "no tile there"))
    assert sorted(runner.eyes.judged.codes) == ["K1", "K2", "K3"] and len(runner.eyes.judged.tiles) == 3
    reader.frames = {reader.calls + 2}
    seen, rebuilt = runner.looking.look(runner.model.pending)
    assert sorted(t.code for t in seen.reading.tiles) == ["K1", "K2", "K3"] and not rebuilt.doubts
    # a resumed runner follows the referee's answer too
    again = TableRunner(records, journal.game_id, runner.devices)
    assert sorted(again.eyes.judged.codes) == ["K1", "K2", "K3"] and len(again.eyes.judged.tiles) == 3


def test_a_look_at_a_changed_table_reads_and_steadies_one_frame_and_keeps_it_for_the_others(game, renderer, monkeypatch):
    import controller.table.eyes as table_eyes

    records, game_id = game
    after = Scene.of([{"tiles": ["K1", "K2", "K3"], "at": [1, 3]}, {"tiles": ["R9"], "at": [4, 10]}])
    reader = Reader(read_tiles(TABLE))
    devices = TableDevices(Frames([renderer.frame(TABLE, i) for i in range(20)]), ArbiterAfter(10**9), reader,
                           ConsoleDisplay(quiet=True), None)
    runner = TableRunner(records, game_id, devices)
    runner.looking.look_still()
    devices.camera.frames = [renderer.frame(after, 20 + i) for i in range(20)]
    reader.reading, reader.calls = read_tiles(after), 0
    steadied, calls = table_eyes.steadied, []
    monkeypatch.setattr(table_eyes, "steadied", lambda *args, **kw: calls.append(1) or steadied(*args, **kw))
    seen = runner.looking.look_still()
    assert reader.calls == 1 and len(calls) == 1 and seen.frames == EyesSettings().look_frames
    assert sorted(t.code for t in seen.reading.tiles) == ["K1", "K2", "K3", "R9"]
    # read again: every frame read and steadied
    devices.camera.frames = [renderer.frame(after, 40 + i) for i in range(20)]
    reader.calls, calls[:] = 0, []
    runner.eyes.read_once = False
    runner.looking.look_still(afresh=True)
    assert reader.calls == EyesSettings().look_frames and len(calls) == EyesSettings().look_frames
