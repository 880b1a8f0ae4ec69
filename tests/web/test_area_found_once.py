"""With no area marked, the table finds its play area itself on its clear frame as the game begins,
records it (`play-area-set`, how "found-once", with its corners), reads every later look in it and
watches only it; a resumed game reads in the area it recorded; a table with tiles on it finds none
that way (found on each frame, as before); the referee's "find it by itself" drops the kept area."""
from __future__ import annotations

import dataclasses
import io

import numpy as np
import pytest

from controller.adapters.display import ConsoleDisplay
from controller.adapters.reader import VisionReader
from controller.game import judging
from controller.game.events import AreaSource, PlayAreaSet
from controller.game.machine import State, TableState, apply, fold
from controller.records import Records
from controller.records.reports.views import replay_lines
from controller.table import TableDevices, TableRunner
from desk_helpers import StillTimer
from web_helpers import dealt_game
from models.recipe.area_scenes import compose, cut_faces
from models.recipe.synth import random_melds, render_table

PLAYERS = ("Ann", "Ben")


class Frames:
    """A camera showing one frame, then the next given, for ever."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame, self.reads = frame, 0

    def read(self) -> np.ndarray:
        self.reads += 1
        return self.frame

    def close(self) -> None:
        pass


class Watching:
    """The camera's frames, and what the eyes were told to watch (`watch_area`)."""

    def __init__(self, camera: Frames) -> None:
        self.camera, self.areas = camera, []

    def frame(self) -> np.ndarray:
        return self.camera.read()

    def watch_area(self, corners, size) -> None:
        self.areas.append((corners, size))


@pytest.fixture(scope="module")
def table_with_a_box():
    """A clear cloth table in the middle of a floor with a box of spare tiles and its lid beside it, and
    the same floor with tiles on the table (the faces in the box are cut from another rendered table)."""
    spare = render_table(random_melds(np.random.default_rng(5), 30), width=1280, height=720, seed=5, background="wood")
    faces = cut_faces(spare.image, [t.corners for t in spare.tiles])
    empty = render_table([], width=960, height=540, seed=3, background="cloth")
    laid = render_table([["R3", "R4", "R5"], ["K7", "B7", "O7"]], width=960, height=540, seed=3, background="cloth")
    clear = compose(empty.image, faces, seed=11, objects=("box", "lid"))
    played = compose(laid.image, faces, seed=11, objects=("box", "lid"))
    return clear, played, sorted(laid.codes)


def areas_of(records, game) -> list[PlayAreaSet]:
    return [e for e in records.events(game) if isinstance(e, PlayAreaSet)]


def runner_on(records, game, frame, reader) -> TableRunner:
    runner = TableRunner(records, game, TableDevices(Frames(frame), StillTimer(), reader,
                                                     ConsoleDisplay(out=io.StringIO()), None))
    runner.looking.watch = Watching(runner.devices.camera)  # the eyes' area is all this test asks of them
    return runner


def test_the_area_found_on_the_clear_table_is_recorded_kept_and_read_in(tmp_path, table_with_a_box):
    clear, played, codes = table_with_a_box
    db = tmp_path / "club.sqlite"
    game = dealt_game(db)
    reader = VisionReader()
    with Records(db) as records:
        runner = runner_on(records, game, clear.image, reader)
        assert runner.model.state is State.TURN_READY and not runner.model.table.tiles
        runner.area.record_area_in_force()
        areas = areas_of(records, game)
        assert len(areas) == 1 and areas[0].how is AreaSource.FOUND_ONCE and areas[0].by == "the table"
        found = np.asarray(areas[0].corners)
        # the table's corners, not the frame's: the box and the lid lie outside it
        assert np.abs(found - clear.table).max() < 0.1 * np.ptp(clear.table[:, 0]), found.tolist()
        assert reader.area_read_in() == (areas[0].corners, areas[0].width, areas[0].height)
        said = runner.devices.display.out.getvalue()  # the console shows the area found, for the referee to move
        assert "play area found on the clear table: " + " ".join(f"{x:.0f},{y:.0f}" for x, y in areas[0].corners) in said
        runner.area.watch_the_area()
        assert runner.looking.watch.areas[-1] == (areas[0].corners, (areas[0].width, areas[0].height))
        # a look with tiles on the table reads in the kept area: the table's tiles, not the box's
        reading = reader.read(played.image)
        assert sorted(t.code for t in reading.tiles) == codes
        assert reading.area == tuple((round(x, 1), round(y, 1)) for x, y in areas[0].corners)
        assert records.verify(game).ok
        text = "\n".join(line for block in replay_lines(records, game) for line in block)
    assert "play area found on the clear table and kept" in text


def test_a_resumed_game_reads_in_the_area_it_recorded_and_finds_none_again(tmp_path, table_with_a_box):
    clear, played, _ = table_with_a_box
    db = tmp_path / "club.sqlite"
    game = dealt_game(db)
    with Records(db) as records:
        runner_on(records, game, clear.image, VisionReader()).area.record_area_in_force()
        recorded = areas_of(records, game)
        # the process dies; the table comes back with tiles on it (a camera that shows the played table)
        again = VisionReader()
        resumed = runner_on(records, game, played.image, again)
        resumed.area.record_area_in_force()
        assert areas_of(records, game) == recorded
        assert resumed.devices.camera.reads == 0  # nothing looked for: the recorded area holds
    assert again.area_read_in() == (recorded[0].corners, recorded[0].width, recorded[0].height)


def test_a_table_with_tiles_on_it_finds_no_area_to_keep(tmp_path, table_with_a_box):
    clear, played, _ = table_with_a_box
    db = tmp_path / "club.sqlite"
    game = dealt_game(db)
    reader = VisionReader()
    with Records(db) as records:
        runner = runner_on(records, game, played.image, reader)
        runner.model = dataclasses.replace(runner.model, table=TableState((("R3", 1.0, 1.0),)))
        runner.area.record_area_in_force()
        assert not areas_of(records, game)
        assert runner.devices.camera.reads == 0
    assert reader.area_read_in() is None


def test_the_referees_find_it_by_itself_drops_the_kept_area(tmp_path, table_with_a_box):
    clear, _, _ = table_with_a_box
    db = tmp_path / "club.sqlite"
    game = dealt_game(db)
    reader = VisionReader(area_settings=str(tmp_path / "play-area.json"))
    with Records(db) as records:
        runner_on(records, game, clear.image, reader).area.record_area_in_force()
    assert reader.area_read_in() is not None
    reader.find_area()
    assert reader.area_read_in() is None and reader.area_in_force() is None


def test_a_found_once_area_is_four_corners_inside_its_frame():
    model = fold([judging.game_created("classic", PLAYERS)])
    good = PlayAreaSet("found-once", ((10, 10), (900, 12), (890, 500), (12, 498)), 960, 540, "the table", "clear")
    assert apply(model, good).state is State.SEATING
    from controller.game.errors import TransitionError

    with pytest.raises(TransitionError, match="a found-once play area is four corners inside its frame"):
        apply(model, PlayAreaSet("found-once", (), 0, 0, "the table", "clear"))


def test_the_referee_page_draws_the_kept_area_and_says_where_it_came_from():
    from controller.web.live import LiveTable, area_of

    live = LiveTable("table")
    kept = PlayAreaSet("found-once", ((10.5, 10), (900, 12), (890, 500), (12, 498)), 960, 540, "the table", "clear")
    live.update(("area",), area=area_of(kept),
                frame={"sha256": "ab" * 32, "width": 960, "height": 540, "area": None})
    html = live.regions(["area"])["area"]
    assert 'data-how="found-once"' in html and 'data-corners="10.5,10 900,12 890,500 12,498"' in html
    assert "kept for the game" in html


def test_the_area_is_found_once_on_the_clear_table_and_never_again_while_the_game_reads(tmp_path, table_with_a_box,
                                                                                       monkeypatch):
    import vision.pipeline

    clear, played, codes = table_with_a_box
    found = []  # one for each read that looked for the table's area (found on the frame it read)
    within = vision.pipeline._within_area

    def looking(image, read, area, *args, **kw):
        if area is None:
            found.append(1)
        return within(image, read, area, *args, **kw)

    monkeypatch.setattr(vision.pipeline, "_within_area", looking)
    db = tmp_path / "club.sqlite"
    game = dealt_game(db)
    reader = VisionReader()
    with Records(db) as records:
        runner = runner_on(records, game, clear.image, reader)
        runner.area.record_area_in_force()
        assert len(found) == 1 and reader.area_read_in() is not None
        for _ in range(3):
            assert sorted(t.code for t in reader.read(played.image).tiles) == codes
    assert len(found) == 1  # every read of the game was read in the area kept, none looked for it again
