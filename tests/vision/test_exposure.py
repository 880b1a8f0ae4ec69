"""Exposure: a dim frame is brightened before it is read, a frame as bright as photos are is read as
it comes, and a whole-game table the room's light dimmed is read whole (models/decisions/exposure.txt)."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from models.realdata import DEFAULT_DATASET
from vision.config import DEFAULT_CONFIG
from vision.exposure import expose
from vision.pipeline import TableReader

needs_photos = pytest.mark.skipif(not (DEFAULT_DATASET / "data.yaml").exists(), reason="the shared photo set is not beside the repository")


def ramp(top: int) -> np.ndarray:
    """A frame whose grey levels run evenly from 0 to `top`."""
    row = np.linspace(0, top, 400).astype(np.uint8)
    return np.repeat(np.repeat(row[None, :, None], 300, axis=0), 3, axis=2)


@pytest.mark.parametrize("top", [240, 255], ids=["bright", "clipped"])
def test_a_frame_as_bright_as_photos_are_is_read_as_it_comes(top):
    frame = ramp(top)
    exposed = expose(frame, DEFAULT_CONFIG)
    assert exposed.gain == 1.0 and exposed.image is frame


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
    from models.realdata import load_splits

    camera = GameCamera(CONDITIONS[0], spare_faces(load_splits()["train"]), 43000)  # wood top, 40 px tiles
    turn = next(t for t in scripted_game(("Ann", "Ben", "Cat"), 12, 43000, Grid(GRID_ROWS, GRID_COLUMNS))
                if t.verdict == "legal")
    camera.light_from = -100  # the room's light dimmed long ago
    frame = camera.frame(Scene.of(turn.scene()), 0)
    assert expose(frame, DEFAULT_CONFIG).gain > 1.0
    truth = Counter(code for meld in turn.melds for code in meld.tiles)
    read = Counter(tile.code for tile in TableReader().read(frame).tiles)
    assert read == truth
