"""Waiting for a still table with no hand over it, on rendered frames."""
from __future__ import annotations

import numpy as np
import pytest

from controller.adapters.camera import FolderSource, open_camera
from controller.adapters.errors import CameraError
from controller.adapters.scene import Scene, SceneLayout, SceneRenderer
from controller.adapters.settle import SettleSettings, hand_over_table, wait_until_settled

TABLE = Scene.of([{"tiles": ["K10", "K11", "K12"], "at": [0, 0]}, {"tiles": ["R3", "J", "R5"], "at": [1, 4]}])
MORE = Scene.of([{"tiles": ["K10", "K11", "K12"], "at": [0, 0]}, {"tiles": ["R3", "J", "R5"], "at": [1, 4]},
                 {"tiles": ["O7", "O8", "O9"], "at": [3, 6]}])


@pytest.fixture(scope="module")
def renderer():
    return SceneRenderer(SceneLayout(width=640, height=400, tile_width=32, seed=3))


class Playlist:
    def __init__(self, frames):
        self.frames = list(frames)
        self.taken = 0

    def read(self):
        self.taken += 1
        return self.frames.pop(0) if len(self.frames) > 1 else self.frames[0]

    def close(self):
        pass


def test_a_hand_reaching_in_is_seen_and_the_bare_table_is_not(renderer):
    before = renderer.frame(TABLE, 0)
    assert hand_over_table(renderer.frame(MORE.with_hand(), 1), before)
    assert not hand_over_table(renderer.frame(MORE, 2), before)  # new tiles are not a hand


def test_settling_skips_the_frames_with_a_hand_and_returns_the_still_table(renderer):
    before = renderer.frame(TABLE, 0)
    frames = [renderer.frame(MORE.with_hand(), i) for i in range(1, 5)] + [renderer.frame(MORE, i) for i in range(5, 9)]
    camera = Playlist(frames)
    settled = wait_until_settled(camera, before, SettleSettings(still_frames=3))
    assert settled.hand_frames >= 1
    assert np.abs(settled.frame.astype(int) - renderer.render(MORE).astype(int)).mean() < 3
    assert settled.frames == 7  # 4 with the hand, then 3 still frames of the new table


def test_a_table_that_never_settles_is_an_error_not_a_hang(renderer):
    frames = [renderer.frame(TABLE if i % 2 else MORE, i) for i in range(20)]

    class Flicker(Playlist):
        def read(self):
            self.taken += 1
            return self.frames[self.taken % len(self.frames)]

    with pytest.raises(CameraError, match="did not settle"):
        wait_until_settled(Flicker(frames), None, SettleSettings(max_frames=12))


def test_a_folder_of_images_is_a_camera_in_name_order_holding_the_last(tmp_path, renderer):
    import cv2

    for name, scene in (("b.png", MORE), ("a.png", TABLE)):
        cv2.imwrite(str(tmp_path / name), renderer.render(scene))
    camera = open_camera(str(tmp_path))
    assert isinstance(camera, FolderSource)
    first, second, third = camera.read(), camera.read(), camera.read()
    assert np.array_equal(first, renderer.render(TABLE)) and np.array_equal(second, third)


@pytest.mark.parametrize("spec", ["", "/no/such/place", "definitely-not-a-file.mp4"])
def test_a_bad_camera_source_names_itself(spec):
    with pytest.raises(CameraError) as caught:
        open_camera(spec)
    assert spec in str(caught.value) or "empty" in str(caught.value)
