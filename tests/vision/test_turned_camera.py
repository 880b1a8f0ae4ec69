"""A camera turned on its mount: the table read the same at any turn of the frame, with the upright
look on (`VisionConfig.upright`, which ships off)."""
import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import read_image, read_path
from vision.config import DEFAULT_CONFIG
from vision.detect import TileCandidate
from vision.upright import carried_back, table_turn, turned_frame

DATA = Path(__file__).parent / "data"
UPRIGHT = dataclasses.replace(DEFAULT_CONFIG, upright=True)


def _turned(image: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """The photo turned about its centre in a frame grown to hold all of it, and the 2x3 matrix."""
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(np.cos(np.radians(degrees))), abs(np.sin(np.radians(degrees)))
    size = (int(w * cos + h * sin) + 1, int(w * sin + h * cos) + 1)
    matrix[:, 2] += (size[0] - w) / 2, (size[1] - h) / 2
    edge = np.median(np.concatenate([image[0], image[-1]]), axis=0)
    return cv2.warpAffine(image, matrix, size, borderValue=tuple(float(v) for v in edge)), matrix


@pytest.fixture(scope="module")
def melds():
    return cv2.imread(str(DATA / "melds.jpg")), read_path(DATA / "melds.jpg")


@pytest.mark.parametrize("degrees", [30, 195], ids=["turned-30-degrees", "turned-195-degrees"])
def test_a_turned_photo_reads_the_codes_it_reads_upright_in_the_same_places(melds, degrees):
    image, upright = melds
    frame, matrix = _turned(image, degrees)
    turned = read_image(frame, UPRIGHT)
    assert len(turned.tiles) == len(upright.tiles)
    unmatched = list(turned.tiles)
    for tile in upright.tiles:
        where = matrix[:, :2] @ np.array(tile.center) + matrix[:, 2]
        near = min(unmatched, key=lambda t: np.hypot(*(np.array(t.center) - where)))
        assert np.hypot(*(np.array(near.center) - where)) < 15, f"no tile read near {tile.code} of the upright photo"
        assert near.code == tile.code
        unmatched.remove(near)


def test_a_lone_tile_upside_down_is_read():
    image = cv2.imread(str(DATA / "single.jpg"))
    upright = read_image(image)
    frame, _ = _turned(image, 180)
    assert [t.code for t in read_image(frame, UPRIGHT).tiles] == [t.code for t in upright.tiles] != []


def test_the_table_turn_is_the_faces_angle_modulo_a_quarter_turn():
    def face(degrees: float, centre=(100.0, 100.0)):
        a = np.radians(degrees)
        across, down = np.array([np.cos(a), np.sin(a)]) * 15, np.array([-np.sin(a), np.cos(a)]) * 20
        c = np.array(centre)
        return TileCandidate(np.array([c - across - down, c + across - down, c + across + down, c - across + down]), 0.9)

    # faces at 20 degrees, one lying sideways (110) and one upside down (200): all one table turn
    turn, agreement = table_turn((face(20), face(110), face(200), face(21)), DEFAULT_CONFIG)
    assert turn == pytest.approx(20.25, abs=0.1) and agreement > 0.99
    _, strewn = table_turn((face(0), face(22.5), face(45), face(67.5)), DEFAULT_CONFIG)
    assert strewn < 0.1


def test_faces_found_on_the_turned_frame_are_carried_back_to_where_they_lie():
    image = np.zeros((300, 400, 3), np.uint8)
    quad = np.array([[100.0, 50.0], [140.0, 50.0], [140.0, 104.0], [100.0, 104.0]])
    turned, matrix = turned_frame(image, 33.0)
    assert turned.shape[0] > 300 and turned.shape[1] > 400  # grown, nothing cut
    on_turned = quad @ matrix[:, :2].T + matrix[:, 2]
    (back,) = carried_back((TileCandidate(on_turned, 0.9),), matrix, image.shape)
    assert np.allclose(back.corners, quad, atol=1e-6)
