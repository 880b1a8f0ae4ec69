"""A folder as a camera that is being filled: snapshots dropped in while `play` reads it."""
from __future__ import annotations

import os
import time

import cv2
import numpy as np
import pytest

from controller.adapters.camera import FolderSource, open_camera
from controller.adapters.errors import CameraError


def image(value: int) -> np.ndarray:
    return np.full((24, 32, 3), value, np.uint8)


def drop(folder, name: str, value: int) -> None:
    """Written under a hidden name and renamed, as a camera app does."""
    ok, data = cv2.imencode(os.path.splitext(name)[1], image(value))
    assert ok
    (folder / f".part-{name}").write_bytes(data.tobytes())
    os.replace(folder / f".part-{name}", folder / name)


def level(frame: np.ndarray) -> int:
    return int(round(float(frame.mean())))


def test_images_that_appear_later_are_taken_in_name_order_and_the_last_is_held(tmp_path):
    drop(tmp_path, "0001.png", 10)
    camera = open_camera(str(tmp_path))
    assert isinstance(camera, FolderSource)
    assert level(camera.read()) == 10
    assert level(camera.read()) == 10  # nothing newer: the table lies as it was
    drop(tmp_path, "0003.png", 30)
    drop(tmp_path, "0002.png", 20)
    assert [level(camera.read()) for _ in range(4)] == [20, 30, 30, 30]
    drop(tmp_path, "0004.jpg", 40)
    assert abs(level(camera.read()) - 40) <= 1  # a JPEG, decoded


def test_hidden_files_are_not_frames_and_older_names_are_not_gone_back_to(tmp_path):
    drop(tmp_path, "0005.png", 50)
    camera = FolderSource(tmp_path)
    assert level(camera.read()) == 50
    cv2.imwrite(str(tmp_path / ".pending-0006.png"), image(60))
    drop(tmp_path, "0001.png", 11)  # named before the last image taken: it is the past
    assert level(camera.read()) == 50
    os.replace(tmp_path / ".pending-0006.png", tmp_path / "0006.png")
    assert level(camera.read()) == 60


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_an_image_being_written_waits_for_its_end_and_the_last_image_stands_in(tmp_path, suffix):
    drop(tmp_path, "0001.png", 10)
    camera = FolderSource(tmp_path, write_grace=5.0)
    assert level(camera.read()) == 10
    ok, data = cv2.imencode(suffix, np.random.default_rng(0).integers(0, 255, (24, 32, 3), dtype=np.uint8))
    whole = data.tobytes()
    (tmp_path / f"0002{suffix}").write_bytes(b"")
    assert level(camera.read()) == 10  # just created
    (tmp_path / f"0002{suffix}").write_bytes(whole[: len(whole) // 2])
    assert level(camera.read()) == 10  # half a JPEG would decode, grey at the bottom: not taken yet
    (tmp_path / f"0002{suffix}").write_bytes(whole)
    assert np.array_equal(camera.read(), cv2.imdecode(data, cv2.IMREAD_COLOR))


def test_an_image_whose_end_never_comes_is_an_error_naming_it_after_the_grace(tmp_path):
    drop(tmp_path, "0001.png", 10)
    camera = FolderSource(tmp_path, write_grace=0.05)
    camera.read()
    ok, data = cv2.imencode(".png", image(99))
    (tmp_path / "0002.png").write_bytes(data.tobytes()[:-12])  # cut before its end chunk
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            camera.read()
        except CameraError as error:
            assert "0002.png" in str(error)
            return
        time.sleep(0.01)
    raise AssertionError("a truncated image was waited for forever")


def test_a_file_that_is_no_image_at_all_is_bad_input_at_once(tmp_path):
    drop(tmp_path, "0001.png", 10)
    camera = FolderSource(tmp_path, write_grace=60.0)
    camera.read()
    (tmp_path / "0002.png").write_bytes(b"not a png at all")
    started = time.monotonic()
    with pytest.raises(CameraError, match="0002.png"):
        camera.read()
    assert time.monotonic() - started < 1.0


def test_an_empty_folder_is_still_bad_input(tmp_path):
    (tmp_path / ".hidden.png").write_bytes(b"")
    with pytest.raises(CameraError, match="holds no images"):
        open_camera(str(tmp_path))
