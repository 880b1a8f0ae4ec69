"""Fusing the readings of several frames of a still table into one: flickers die, tiles stay."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from controller.game.fusion import FusionSettings, Unsure, fuse, fuse_readings
from controller.game.reading import ReadTile, TableReading
from recorded_games import Frames

CODES = [f"{colour}{n}" for colour in "KBOR" for n in range(1, 14)] + ["J"]
WIDTH, HEIGHT = 40.0, 54.0  # a tile's face in pixels; the next tile of a meld lies 45 px away


def tile(code: str, x: float, y: float, confidence: float = 0.95, alternatives=()) -> ReadTile:
    corners = ((x - WIDTH / 2, y - HEIGHT / 2), (x + WIDTH / 2, y - HEIGHT / 2),
               (x + WIDTH / 2, y + HEIGHT / 2), (x - WIDTH / 2, y + HEIGHT / 2))
    return ReadTile(code, confidence, (x, y), corners, tuple(alternatives))


def place(n: int) -> tuple[float, float]:
    return 40.0 + 45.0 * (n % 12), 50.0 + 80.0 * (n // 12)


@st.composite
def read_tiles(draw, code=None):
    """A tile as the reader gives it: its code, how sure, and up to two runners-up below it."""
    code = code or draw(st.sampled_from(CODES))
    confidence = draw(st.floats(0.5, 0.99))
    others = draw(st.lists(st.sampled_from([c for c in CODES if c != code]), max_size=2, unique=True))
    left, alternatives = 1.0 - confidence, []
    for other in others:
        p = draw(st.floats(0.0, min(left, confidence)))
        alternatives.append((other, p))
        left -= p
    alternatives.sort(key=lambda a: -a[1])
    return code, confidence, tuple(alternatives)


@st.composite
def tables(draw, min_tiles=1):
    """One frame's reading of a table: tiles on a grid, cut into sets in reading order."""
    reads = draw(st.lists(read_tiles(), min_size=min_tiles, max_size=30))
    tiles = tuple(tile(code, *place(n), confidence, alternatives) for n, (code, confidence, alternatives) in enumerate(reads))
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(tiles) - 1)), max_size=len(tiles) // 3)))
    bounds = [0] + [c for c in cuts if c < len(tiles)] + [len(tiles)]
    sets = tuple(tuple(range(a, b)) for a, b in zip(bounds, bounds[1:]) if b > a)
    return TableReading(tiles, sets, ("a warning",), 640, 480)


def shifted(reading: TableReading, draw) -> TableReading:
    """The same still table in another frame: each centre a pixel or three away (sensor noise)."""
    moved = []
    for t in reading.tiles:
        dx, dy = draw(st.floats(-3, 3)), draw(st.floats(-3, 3))
        moved.append(tile(t.code, t.center[0] + dx, t.center[1] + dy, t.confidence, t.alternatives))
    return dataclasses.replace(reading, tiles=tuple(moved))


def without(reading: TableReading, k: int) -> TableReading:
    """The frame missed tile k (the reader did not find it)."""
    renumber = {i: i - (i > k) for i in range(len(reading.tiles)) if i != k}
    sets = tuple(tuple(renumber[i] for i in s if i != k) for s in reading.sets)
    return dataclasses.replace(reading, tiles=reading.tiles[:k] + reading.tiles[k + 1:],
                               sets=tuple(s for s in sets if s))


def recoded(reading: TableReading, k: int, code: str, confidence: float, alternatives=()) -> TableReading:
    t = reading.tiles[k]
    tiles = list(reading.tiles)
    tiles[k] = tile(code, t.center[0], t.center[1], confidence, alternatives)
    return dataclasses.replace(reading, tiles=tuple(tiles))


def at(reading: TableReading, x: float, y: float) -> ReadTile:
    return min(reading.tiles, key=lambda t: (t.center[0] - x) ** 2 + (t.center[1] - y) ** 2)


@settings(max_examples=150, deadline=None)
@given(reading=tables())
def test_fusing_one_reading_gives_that_reading(reading):
    assert fuse_readings([reading]) == reading
    assert fuse([reading]).agree


@settings(max_examples=200, deadline=None)
@given(data=st.data(), reading=tables())
def test_a_code_flickering_in_one_of_three_frames_never_survives(data, reading):
    frames = [reading, shifted(reading, data.draw), shifted(reading, data.draw)]
    k = data.draw(st.integers(0, len(reading.tiles) - 1), label="flickering tile")
    odd = data.draw(st.integers(0, 2), label="frame it flickers in")
    true = reading.tiles[k].code
    flicker, sure, alternatives = data.draw(read_tiles(code=data.draw(st.sampled_from([c for c in CODES if c != true]))))
    sure = data.draw(st.floats(sure, 1.0), label="however sure")
    frames[odd] = recoded(frames[odd], k, flicker, sure, alternatives)
    fusion = fuse(frames)
    x, y = reading.tiles[k].center
    assert at(fusion.reading, x, y).code == true
    assert [t.code for t in fusion.reading.tiles] == [t.code for t in reading.tiles]
    assert not fusion.agree and any(flicker in d for d in fusion.disagreements)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), reading=tables(min_tiles=2))
def test_a_tile_missing_from_one_of_three_frames_survives_with_its_set(data, reading):
    frames = [reading, shifted(reading, data.draw), shifted(reading, data.draw)]
    k = data.draw(st.integers(0, len(reading.tiles) - 1), label="missed tile")
    odd = data.draw(st.integers(0, 2), label="frame that missed it")
    frames[odd] = without(frames[odd], k)
    fused = fuse_readings(frames)
    assert len(fused.tiles) == len(reading.tiles)
    assert sorted(t.code for t in fused.tiles) == sorted(t.code for t in reading.tiles)
    x, y = reading.tiles[k].center
    assert at(fused, x, y).code == reading.tiles[k].code
    # the sets are the table's sets (a tile the chosen frame missed joins its neighbour's set)
    as_codes = lambda r: sorted(sorted(r.tiles[i].code for i in s) for s in r.sets)  # noqa: E731
    assert as_codes(fused) == as_codes(reading)


@settings(max_examples=100, deadline=None)
@given(data=st.data(), reading=tables())
def test_a_tile_seen_in_one_of_three_frames_only_is_dropped_or_for_a_turns_table_kept_unsure(data, reading):
    ghost = tile("R7", 40.0 + 45.0 * 5, 50.0 + 80.0 * 5, 0.99)  # below every generated row
    frames = [reading, shifted(reading, data.draw), shifted(reading, data.draw)]
    odd = data.draw(st.integers(0, 2), label="frame that saw it")
    frames[odd] = dataclasses.replace(frames[odd], tiles=frames[odd].tiles + (ghost,))
    fused = fuse_readings(frames)
    assert len(fused.tiles) == len(reading.tiles)
    assert all(t.center[1] < ghost.center[1] - 40 for t in fused.tiles)
    fusion = fuse(frames, FusionSettings(keep_unsure=True))
    kept = [i for i, t in enumerate(fusion.reading.tiles) if t.center == ghost.center]
    assert len(fusion.reading.tiles) == len(reading.tiles) + 1 and len(kept) == 1
    assert fusion.unsure == (Unsure(kept[0], 1, 3, ("R7",)),) and fusion.unsure[0].presence
    assert sorted(t.code for t in fusion.reading.tiles) == sorted([t.code for t in reading.tiles] + ["R7"])


@settings(max_examples=100, deadline=None)
@given(data=st.data(), reading=tables())
def test_frames_that_agree_leave_nothing_unsure_and_a_flicker_is_named(data, reading):
    frames = [reading, shifted(reading, data.draw), shifted(reading, data.draw)]
    assert fuse(frames, FusionSettings(keep_unsure=True)).unsure == ()
    k = data.draw(st.integers(0, len(reading.tiles) - 1), label="flickering tile")
    flicker = "R1" if reading.tiles[k].code != "R1" else "R2"
    frames[1] = recoded(frames[1], k, flicker, 0.99)
    fusion = fuse(frames, FusionSettings(keep_unsure=True))
    true = reading.tiles[k].code
    assert [(u.seen, u.reads, u.presence) for u in fusion.unsure] == [(3, (true, flicker, true), False)]
    assert fusion.reading.tiles[fusion.unsure[0].index].code == true


@settings(max_examples=100, deadline=None)
@given(data=st.data(), reading=tables())
def test_positions_are_the_mean_of_the_frames_and_corners_follow(data, reading):
    frames = [reading, shifted(reading, data.draw), shifted(reading, data.draw)]
    fused = fuse_readings(frames)
    for n, t in enumerate(fused.tiles):
        for axis in (0, 1):
            mean = sum(f.tiles[n].center[axis] for f in frames) / 3
            assert t.center[axis] == pytest.approx(mean, abs=1e-9)
        assert t.width == pytest.approx(WIDTH)
        assert sum(c[0] for c in t.corners) / 4 == pytest.approx(t.center[0])


@pytest.mark.parametrize("reads, code, sure", [
    pytest.param([("R5", 0.9), ("R5", 0.9)], "R5", 0.9, id="two-agree-keep-the-code-and-confidence"),
    pytest.param([("R5", 0.95), ("R5", 0.95), ("R6", 0.99)], "R5", 0.95 * 2 / 3, id="two-of-three-win-over-a-sure-flicker"),
    pytest.param([("R5", 0.6), ("R6", 0.9)], "R6", 0.45, id="two-disagree-the-higher-mean-wins"),
    pytest.param([("B1", 0.7), ("K1", 0.8), ("O1", 0.75)], "K1", 0.8 / 3, id="three-disagree-the-higher-mean-wins"),
])
def test_how_codes_combine(reads, code, sure):
    frames = [TableReading((tile(c, 100, 100, p),), ((0,),)) for c, p in reads]
    fused = fuse_readings(frames).tiles[0]
    assert fused.code == code and fused.confidence == pytest.approx(sure)


def test_the_runner_up_codes_are_pooled_too():
    frames = [TableReading((tile("O9", 100, 100, 0.7, [("O6", 0.2)]),), ()),
              TableReading((tile("O9", 101, 99, 0.8, [("B9", 0.1)]),), ())]
    fused = fuse_readings(frames).tiles[0]
    assert fused.code == "O9" and fused.confidence == pytest.approx(0.75)
    assert [c for c, _ in fused.alternatives] == ["O6"]  # as many runners-up as a frame gave
    assert fused.alternatives[0][1] == pytest.approx(0.1)


def test_frames_that_agree_say_so_and_a_second_frame_without_a_tile_does_not():
    reading = TableReading((tile("K1", 40, 50), tile("K2", 85, 50)), ((0, 1),))
    assert fuse([reading, reading]).agree
    fusion = fuse([reading, without(reading, 1)])
    assert not fusion.agree and "seen in 1 of 2 frames" in fusion.disagreements[0]
    assert [t.code for t in fusion.reading.tiles] == ["K1"]  # one frame of two is no majority


def test_fusing_nothing_is_an_error():
    from controller.game.errors import GameError

    with pytest.raises(GameError, match="none"):
        fuse([])


def test_a_tile_the_chosen_frame_missed_joins_its_set_in_place():
    run = [tile(f"K{n}", *place(n - 1)) for n in range(1, 6)]
    group = [tile(code, *place(6 + k)) for k, code in enumerate(["O7", "R7", "B7"])]
    reading = TableReading(tuple(run + group), ((0, 1, 2, 3, 4), (5, 6, 7)))
    missed = without(reading, 2)  # misses K3 but reads every other tile right: the most in agreement
    flickers_a = recoded(recoded(reading, 0, "B1", 0.9), 5, "O8", 0.9)
    flickers_b = recoded(recoded(reading, 1, "B2", 0.9), 6, "R8", 0.9)
    fusion = fuse([missed, flickers_a, flickers_b])
    assert fusion.anchor == 0
    fused = fusion.reading
    assert [[fused.tiles[i].code for i in s] for s in fused.sets] == [["K1", "K2", "K3", "K4", "K5"], ["O7", "R7", "B7"]]


# ------------------------------------------------------------------ the runner's looks
# The reader is scripted here (its flickers are what is tested); the frames are rendered and go
# through the real eyes and the real occluder net, 30 frames a second.


class ScriptedReader:
    def __init__(self, readings):
        self.readings = list(readings)
        self.calls = 0

    def read(self, frame):
        self.calls += 1
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


@pytest.fixture()
def make_runner(tmp_path):
    from controller.adapters.display import ConsoleDisplay
    from controller.table import TableDevices, TableRunner
    from controller.game import judging
    from controller.records import Records

    records = Records(tmp_path / "looks.sqlite")
    game = records.new_game("classic", ("Ann", "Ben"))
    records.append(game, judging.game_created("classic", ("Ann", "Ben")))

    def make(frames, readings):
        devices = TableDevices(Frames(frames), None, ScriptedReader(readings), ConsoleDisplay(quiet=True), None)
        return TableRunner(records, game, devices)

    yield make
    records.close()


@pytest.fixture(scope="module")
def still_frames():
    from controller.demo.scene import Scene, SceneLayout, SceneRenderer

    renderer = SceneRenderer(SceneLayout(width=640, height=400, tile_width=32, seed=3))
    scene = Scene.of([{"tiles": ["K1", "K2", "K3"], "at": [0, 0]}])
    return renderer, scene, [renderer.frame(scene, i) for i in range(8)]


def three_tiles(code_of_middle="K2", confidence=0.95):
    return TableReading((tile("K1", 40, 50), tile(code_of_middle, 85, 50, confidence), tile("K3", 130, 50)), ((0, 1, 2),))


def test_the_runner_reads_every_frame_of_the_settled_look_and_fuses_them(make_runner, still_frames):
    _, _, frames = still_frames
    runner = make_runner(frames, [three_tiles()])
    seen = runner.looking.look_still()
    from vision.eyes import EyesSettings

    looked = EyesSettings().look_frames
    assert seen.frames == looked and runner.devices.reader.calls == looked
    assert seen.raw.reading["fused_from"] == [raw.sha256 for raw in seen.raws[:looked]] and seen.raws[-1] == seen.raw
    assert seen.wait is not None and seen.wait.frames >= EyesSettings().still_seconds * 30


def test_a_code_one_frame_of_the_look_flickers_to_does_not_survive(make_runner, still_frames):
    _, _, frames = still_frames
    runner = make_runner(frames, [three_tiles(), three_tiles("B2", 0.97), three_tiles()])
    seen = runner.looking.look_still()
    assert seen.frames == 3 and len(seen.raws) == 4  # every frame's reading is recorded, and the fused one
    assert [t.code for t in seen.reading.tiles] == ["K1", "K2", "K3"]
    assert len(seen.raw.reading["tiles"]) == 3 and seen.raw.photo == seen.photo.sha256


def test_a_table_touched_before_it_settles_is_read_only_once_the_hand_has_gone(make_runner, still_frames):
    renderer, scene, frames = still_frames
    from controller.demo.scene import Scene
    from vision.eyes import Reference

    more = Scene(scene.melds + Scene.of([{"tiles": ["O5", "O6", "O7"], "at": [3, 3]}]).melds)
    touched = [renderer.frame(more.with_hand(), i) for i in range(10, 40)] + \
        [renderer.frame(more, i) for i in range(40, 60)]
    lay = renderer.layout

    def placed(code, row, col):
        x, y = lay.tile_box(row, col)
        w, h = lay.tile_width, lay.tile_height
        return ReadTile(code, 0.95, (x + w / 2, y + h / 2), ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))

    before = tuple(placed(code, 0, k) for k, code in enumerate(["K1", "K2", "K3"]))
    laid = TableReading(before + tuple(placed(code, 3, 3 + k) for k, code in enumerate(["O5", "O6", "O7"])),
                        ((0, 1, 2), (3, 4, 5)))
    runner = make_runner(touched, [laid])
    runner.eyes.reference = Reference(frames[0], tuple(t.corners for t in before))
    seen = runner.looking.look_still()
    assert np.abs(seen.wait.frame.astype(int) - renderer.render(more).astype(int)).mean() < 3
    assert seen.wait.occluded_frames >= 1  # the hand was seen, and no look rested on it


def meld_seen_once() -> list[TableReading]:
    """A run of three laid on the table: one frame of the still look sees it all, two only its middle tile."""
    run = TableReading((tile("R11", 100, 100, 1.0), tile("R12", 145, 100, 1.0), tile("R13", 190, 100, 1.0)),
                       ((0, 1, 2),), (), 640, 480)
    return [run, without(without(run, 2), 0), without(without(run, 2), 0)]


def test_tiles_some_frames_missed_lie_there_where_the_table_changed_and_every_frame_read_them_alike():
    from controller.game.fusion import PRESENT, settle_presence

    fusion = fuse(meld_seen_once(), FusionSettings(keep_unsure=True))
    assert len(fusion.reading.tiles) == 3 and {u.seen for u in fusion.unsure} == {1}
    settled = settle_presence(fusion, (True, True, True))
    assert settled.unsure == () and settled.reading.tiles == fusion.reading.tiles
    assert sum(PRESENT in w for w in settled.reading.warnings) == 2
    # where the patch is as on the last settled table, the frames' disagreement stays the referee's to settle
    assert settle_presence(fusion, (False, False, False)).unsure == fusion.unsure
    with pytest.raises(ValueError):
        settle_presence(fusion, (True,))


@pytest.mark.parametrize("second_code, confidence", [("R2", 1.0), ("R11", 0.6)])
def test_a_tile_read_as_other_codes_or_unsure_of_its_code_stays_unsure(second_code, confidence):
    from controller.game.fusion import settle_presence

    run = TableReading((tile("R11", 100, 100, confidence), tile("R12", 145, 100, 1.0)), ((0, 1),), (), 640, 480)
    frames = [run, recoded(run, 0, second_code, confidence), without(run, 0)]
    fusion = fuse(frames, FusionSettings(keep_unsure=True))
    assert fusion.unsure and fusion.unsure[0].presence
    assert settle_presence(fusion, (True, True)).unsure == fusion.unsure
