"""Exposure: a dim frame is brightened before it is read, a frame as bright as photos are is read as
it comes, one clipped at white is brought down, and whole-game tables the room's light dimmed or a
lamp clipped are read whole (lab/decisions/exposure.txt, exposure_clipped.txt)."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from models.recipe.realdata import DEFAULT_DATASET
from vision.config import DEFAULT_CONFIG
from vision.exposure import expose
from vision.pipeline import TableReader

needs_photos = pytest.mark.skipif(not (DEFAULT_DATASET / "data.yaml").exists(), reason="the shared photo set is not beside the repository")


def ramp(top: int) -> np.ndarray:
    """A frame whose grey levels run evenly from 0 to `top`."""
    row = np.linspace(0, top, 400).astype(np.uint8)
    return np.repeat(np.repeat(row[None, :, None], 300, axis=0), 3, axis=2)


@pytest.mark.parametrize("top", [240, 255], ids=["bright", "white-at-its-top"])
def test_a_frame_as_bright_as_photos_are_is_read_as_it_comes(top):
    frame = ramp(top)
    exposed = expose(frame, DEFAULT_CONFIG)
    assert exposed.gain == 1.0 and exposed.image is frame


@pytest.mark.parametrize("clipped_share", [0.01, 0.2], ids=["a-lamp-spot", "a-white-top"])
def test_a_frame_clipped_at_white_is_brought_down_to_the_target(clipped_share):
    frame = ramp(255)
    frame[:, -int(clipped_share * frame.shape[1]):] = 255
    exposed = expose(frame, DEFAULT_CONFIG)
    assert exposed.bright == 255 and exposed.gain == pytest.approx(DEFAULT_CONFIG.exposure_target / 255)
    assert exposed.image.max() == round(DEFAULT_CONFIG.exposure_target)
    assert expose(frame, replace(DEFAULT_CONFIG, exposure_clipped=0)).gain == 1.0


@pytest.mark.parametrize("top", [120, 180, 200])
def test_a_dim_frame_is_raised_to_the_target_and_never_past_the_largest_gain(top):
    exposed = expose(ramp(top), DEFAULT_CONFIG)
    assert exposed.bright < DEFAULT_CONFIG.exposure_target and exposed.gain > 1.0
    reached = expose(exposed.image, replace(DEFAULT_CONFIG, exposure_target=0)).bright
    wanted = min(DEFAULT_CONFIG.exposure_target, exposed.bright * DEFAULT_CONFIG.exposure_max_gain)
    assert abs(reached - wanted) <= 3
    assert expose(ramp(top), replace(DEFAULT_CONFIG, exposure_target=0)).gain == 1.0


@needs_photos
def test_a_game_table_the_rooms_light_dimmed_is_read_whole():
    from benchmarks.game_camera import CONDITIONS, GRID_COLUMNS, GRID_ROWS, GameCamera, spare_faces
    from benchmarks.game_scripts import Grid, scripted_game
    from controller.demo.scene import Scene
    from models.recipe.realdata import load_splits

    camera = GameCamera(CONDITIONS[0], spare_faces(load_splits()["train"]), 43000)  # wood top, 40 px tiles
    turn = next(t for t in scripted_game(("Ann", "Ben", "Cat"), 12, 43000, Grid(GRID_ROWS, GRID_COLUMNS))
                if t.verdict == "legal")
    camera.light_from = -100  # the room's light dimmed long ago
    frame = camera.frame(Scene.of(turn.scene()), 0)
    assert expose(frame, DEFAULT_CONFIG).gain > 1.0
    truth = Counter(code for meld in turn.melds for code in meld.tiles)
    read = Counter(tile.code for tile in TableReader().read(frame).tiles)
    assert read == truth


@needs_photos
def test_a_game_table_a_raised_lamp_clips_is_read_whole():
    from benchmarks.game_camera import CONDITIONS, GRID_COLUMNS, GRID_ROWS, GameCamera, spare_faces
    from benchmarks.game_scripts import Grid, scripted_game
    from controller.demo.scene import Scene
    from models.recipe.realdata import load_splits

    white = next(c for c in CONDITIONS if c.top == "white" and c.light_change > 1.2)  # "all at once"
    camera = GameCamera(white, spare_faces(load_splits()["train"]), 43005)
    turn = scripted_game(("Ann", "Ben", "Cat"), 8, 43005, Grid(GRID_ROWS, GRID_COLUMNS))[6]
    camera.light_from = -100  # the lamp was turned up long ago
    frame = camera.frame(Scene.of(turn.scene()), 0)
    assert expose(frame, DEFAULT_CONFIG).gain < 1.0
    truth = Counter(code for meld in turn.melds for code in meld.tiles)
    assert Counter(tile.code for tile in TableReader().read(frame).tiles) == truth
    # read as it came, the clipped faces were not found at all
    assert not TableReader(replace(DEFAULT_CONFIG, exposure_clipped=0)).read(frame).tiles
