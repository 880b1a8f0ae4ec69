"""Whether the table lies exactly as on the last table read (`vision.eyes_tiles.lies_as`): a frame's own
sensor noise or a brighter lamp is no change; a tile laid on bare table, a tile's code changed in place or a
phone put down is; what changes outside the play area (a tile drawn from the box beside the table) is not
compared. Rendered frames with sensor noise."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from vision.eyes_tiles import lies_as

LAYOUT = SceneLayout(width=640, height=400, tile_width=32, seed=5)
MELDS = [{"tiles": ["K1", "K2", "K3"], "at": [1, 3]}, {"tiles": ["R7", "B7", "O7"], "at": [3, 8]}]
TABLE = Scene.of(MELDS)
AREA = ((40.0, 20.0), (600.0, 20.0), (600.0, 300.0), (40.0, 300.0))  # the bottom of the frame lies outside


@pytest.fixture(scope="module")
def renderer():
    return SceneRenderer(LAYOUT)


def outlines(scene: Scene):
    return LAYOUT.outlines(scene)


def changed(renderer, change: str) -> np.ndarray:
    if change == "a tile laid on bare table":
        return renderer.frame(Scene.of([*MELDS, {"tiles": ["B12"], "at": [4, 14]}]), 7)
    if change == "a tile's code changed in place":
        return renderer.frame(Scene.of([{"tiles": ["K1", "K2", "O3"], "at": [1, 3]}, MELDS[1]]), 7)
    frame = renderer.frame(TABLE, 7)
    if change == "a phone put down":
        cv2.rectangle(frame, (420, 60), (470, 150), (25, 25, 30), -1)
    elif change == "a tile drawn from below the area":
        cv2.rectangle(frame, (300, 340), (332, 382), (235, 235, 230), -1)
    elif change == "the lamp turned up":
        frame = np.clip(frame.astype(np.float32) * 1.15, 0, 255).astype(np.uint8)
    return frame


@pytest.mark.parametrize("change, lies", [
    ("nothing", True),
    ("the lamp turned up", True),
    ("a tile drawn from below the area", True),
    ("a tile laid on bare table", False),
    ("a tile's code changed in place", False),
    ("a phone put down", False),
])
def test_only_a_change_on_the_table_makes_it_lie_otherwise(renderer, change, lies):
    before = renderer.frame(TABLE, 1)
    assert lies_as(before, outlines(TABLE), changed(renderer, change), AREA) is lies


def test_without_an_area_the_whole_frame_is_compared(renderer):
    before = renderer.frame(TABLE, 1)
    assert not lies_as(before, outlines(TABLE), changed(renderer, "a tile drawn from below the area"), None)
    assert lies_as(before, outlines(TABLE), renderer.frame(TABLE, 9), None)


def test_frames_of_two_sizes_never_lie_alike(renderer):
    before = renderer.frame(TABLE, 1)
    assert not lies_as(before, outlines(TABLE), cv2.resize(before, (320, 200)), AREA)
