"""Who confirms the play area found on a fresh game's clear table: the referee at a live camera's table,
nobody for a recording, unless `play` is told otherwise."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.adapters.camera import open_camera
from controller.cli import build_parser
from controller.commands.game import confirms_area


class LiveCamera:
    live = True


class RecordedCamera:
    live = False


@pytest.mark.parametrize("flags, camera, confirmed", [
    pytest.param([], LiveCamera(), True, id="live-camera-asks-the-referee"),
    pytest.param([], RecordedCamera(), False, id="recording-plays-as-recorded"),
    pytest.param(["--no-confirm-area"], LiveCamera(), False, id="live-camera-told-not-to-ask"),
    pytest.param(["--confirm-area"], RecordedCamera(), True, id="recording-told-to-ask"),
])
def test_play_confirms_the_found_area_with_a_live_camera_unless_told(flags, camera, confirmed):
    parser, _ = build_parser()
    args = parser.parse_args(["play", "--camera", "0", "--timer", "emulator", "--variant", "classic", "--players", "Ann,Ben",
                                      "--db", "games.db", *flags])
    assert confirms_area(args.confirm_area, camera) is confirmed


def test_a_folder_of_images_is_not_a_live_camera(tmp_path):
    cv2.imwrite(str(tmp_path / "0001.png"), np.full((48, 64, 3), 120, np.uint8))
    folder = open_camera(str(tmp_path))
    assert confirms_area(None, folder) is False
