"""Bad image files: a clear error naming the file, exit 2 from the CLI, never a traceback."""
import cv2
import numpy as np
import pytest

from controller.cli import main
from vision import ImageReadError, load_image, read_image


def _bad_files(tmp_path):
    text = tmp_path / "notes.jpg"
    text.write_text("these are not pixels")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    good = cv2.imencode(".jpg", np.full((200, 300, 3), 120, np.uint8))[1].tobytes()
    truncated = tmp_path / "cut.jpg"
    truncated.write_bytes(good[: len(good) // 2])
    tiny = tmp_path / "dot.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))
    png = cv2.imencode(".png", np.full((200, 300, 3), 120, np.uint8))[1].tobytes()
    truncated_png = tmp_path / "cut.png"
    truncated_png.write_bytes(png[: len(png) - 20])
    return {
        "not an image": text,
        "empty file": empty,
        "truncated jpeg": truncated,
        "1x1 image": tiny,
        "truncated png": truncated_png,
        "missing file": tmp_path / "nowhere.jpg",
        "directory": tmp_path,
    }


@pytest.mark.parametrize(
    "kind", ["not an image", "empty file", "truncated jpeg", "1x1 image", "truncated png", "missing file", "directory"]
)
def test_load_image_names_the_file(tmp_path, kind):
    path = _bad_files(tmp_path)[kind]
    with pytest.raises(ImageReadError) as info:
        load_image(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("kind", ["not an image", "empty file", "truncated jpeg", "1x1 image", "missing file"])
def test_cli_exits_2_naming_the_file(tmp_path, kind, capsys):
    path = _bad_files(tmp_path)[kind]
    assert main(["read", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert str(path) in captured.err
    assert "Traceback" not in captured.err
    assert captured.err.startswith("tileref read: ")


def test_a_bad_file_among_good_ones_stops_before_any_output(tmp_path, capsys):
    good = tmp_path / "table.png"
    cv2.imwrite(str(good), np.full((100, 100, 3), 90, np.uint8))
    bad = _bad_files(tmp_path)["empty file"]
    assert main(["read", str(good), str(bad), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and str(bad) in captured.err


@pytest.mark.parametrize(
    "array", [np.zeros((100, 100), np.float32), np.zeros((100, 100, 2), np.uint8), np.zeros((1, 1, 3), np.uint8)],
    ids=["float pixels", "two channels", "1x1"],
)
def test_read_image_refuses_unusable_arrays(array):
    with pytest.raises(ImageReadError):
        read_image(array)
