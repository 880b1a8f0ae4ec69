"""A face whose rectangle came out nearly square has an unsure angle. Between sure neighbours it
lies as they do; alone, the classifier reads it turned in steps too and keeps the surest reading,
which also gives the tile's real angle."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.classify import classify
from vision.codes import CODES
from vision.config import DEFAULT_CONFIG
from vision.detect import TileCandidate, _other_turns, candidates_from_maps, lie_along_sets, lie_like_neighbours
from vision.geometry import order_upright, quad_size
from vision.models import CLASSIFIER_FILE, load_model
from models.recipe.synth import render_table


def _width_axis_angle(quad: np.ndarray) -> float:
    dx, dy = quad[1] - quad[0]
    return float(np.degrees(np.arctan2(dy, dx))) % 180.0


def _angle_apart(a: float, b: float) -> float:
    d = abs(a - b) % 180.0
    return min(d, 180.0 - d)


@pytest.mark.parametrize("rotation", [35.0, 60.0, 125.0], ids=["turned-35", "turned-60", "turned-125"])
def test_a_tile_given_a_square_box_at_the_wrong_angle_is_read_at_its_own(rotation):
    r = render_table([["B8"]], 640, 480, seed=4, layout="scatter", hands=0, perspective_deg=0, rotation_deg=rotation, blur=0.0)
    (tile,) = r.tiles
    cx, cy = tile.center
    side = float(np.sqrt(abs(cv2.contourArea(tile.corners.astype(np.float32)))))
    square = ((cx, cy), (side, side), 0.0)  # the kind of box a round blob gives, square to the image
    config = DEFAULT_CONFIG
    candidate = TileCandidate(order_upright(cv2.boxPoints(square).astype(np.float64)), 1.0, _other_turns(square, 1.0, config))
    (guess,) = classify(r.image, (candidate,), load_model(CLASSIFIER_FILE, 1), config)
    assert CODES[int(guess.code_probabilities.argmax())] == "B8"
    assert _angle_apart(_width_axis_angle(guess.corners), _width_axis_angle(tile.corners)) <= 180.0 / config.angle_tries


def _maps(face_box, core_box) -> np.ndarray:
    face = np.full((60, 80), -8.0, np.float32)
    core = np.full((60, 80), -8.0, np.float32)
    x0, y0, x1, y1 = face_box
    face[y0 // 2: y1 // 2, x0 // 2: x1 // 2] = 8.0
    x0, y0, x1, y1 = core_box
    core[y0 // 2: y1 // 2, x0 // 2: x1 // 2] = 8.0
    return np.stack([face, core])


def test_only_a_nearly_square_face_gets_other_turns_to_try():
    (square,) = candidates_from_maps(_maps((50, 30, 90, 70), (60, 40, 80, 60)), 1.0, DEFAULT_CONFIG, (120, 160))
    (tile_shaped,) = candidates_from_maps(_maps((56, 24, 84, 62), (62, 34, 78, 54)), 1.0, DEFAULT_CONFIG, (120, 160))
    assert len(square.other_turns) == DEFAULT_CONFIG.angle_tries - 1
    assert tile_shaped.other_turns == ()


def _quad(centre, width, height, degrees) -> np.ndarray:
    box = ((float(centre[0]), float(centre[1])), (width, height), degrees)
    return order_upright(cv2.boxPoints(box).astype(np.float64))


def _row_with_square_face_in_the_middle(square_degrees: float, row_degrees: float = 20.0):
    """Two sure faces 44x60 in a row at row_degrees, and between them a squarish face whose
    box came out at square_degrees (the way a 1's round core blob can come out)."""
    config = DEFAULT_CONFIG
    along = np.array([np.cos(np.radians(row_degrees)), np.sin(np.radians(row_degrees))])
    middle = np.array([200.0, 150.0])
    left = TileCandidate(_quad(middle - 46 * along, 44, 60, row_degrees), 1.0)
    right = TileCandidate(_quad(middle + 46 * along, 44, 60, row_degrees), 1.0)
    square = ((float(middle[0]), float(middle[1])), (50.0, 52.0), square_degrees)
    unsure = TileCandidate(_quad(middle, 50, 52, square_degrees), 1.0, _other_turns(square, 1.0, config))
    return (left, unsure, right), config


@pytest.mark.parametrize("fitted", [5.0, 38.0], ids=["fitted-15-off", "fitted-18-off-the-other-way"])
def test_a_square_face_in_a_set_lies_as_its_neighbours_do_and_is_their_size(fitted):
    (left, unsure, right), config = _row_with_square_face_in_the_middle(fitted)
    settled = lie_like_neighbours((left, unsure, right), config)
    assert settled[0] is left and settled[2] is right
    middle = settled[1]
    assert middle.other_turns == ()  # no turn to win at a wrong angle (a 1 turned 20 degrees reads as 7)
    assert _angle_apart(_width_axis_angle(middle.corners), 20.0) < 0.5
    assert np.allclose(quad_size(middle.corners), (44.0, 60.0), atol=0.5)
    assert np.allclose(middle.corners.mean(axis=0), unsure.corners.mean(axis=0))


def test_a_square_face_turned_across_its_neighbours_keeps_its_turns():
    (left, unsure, right), config = _row_with_square_face_in_the_middle(20.0 + 80.0)
    assert lie_like_neighbours((left, unsure, right), config)[1] is unsure


def test_a_square_face_with_no_sure_face_near_keeps_its_turns():
    (left, unsure, right), config = _row_with_square_face_in_the_middle(10.0)
    far = TileCandidate(left.corners + 300.0, 1.0)
    assert lie_like_neighbours((far, unsure), config)[1] is unsure


def _squarish_row(count: int, row_degrees: float, fitted_degrees: float, start=(120.0, 200.0), spacing: float = 46.0):
    """`count` nearly square unsure faces side by side along row_degrees, each box fitted at fitted_degrees
    (a blurred set under a tilted camera: no sure face anywhere near)."""
    config = DEFAULT_CONFIG
    along = np.array([np.cos(np.radians(row_degrees)), np.sin(np.radians(row_degrees))])
    faces = []
    for k in range(count):
        centre = np.asarray(start) + k * spacing * along
        box = ((float(centre[0]), float(centre[1])), (48.0, 50.0), fitted_degrees)
        faces.append(TileCandidate(_quad(centre, 48, 50, fitted_degrees), 1.0, _other_turns(box, 1.0, config)))
    return tuple(faces), config


@pytest.mark.parametrize("fitted", [24.0, -66.0, 8.0], ids=["fitted-4-off", "fitted-a-quarter-turn-off", "fitted-12-off"])
def test_a_set_of_square_faces_with_no_sure_neighbour_lies_along_its_line(fitted):
    row, config = _squarish_row(4, 20.0, fitted)
    settled = lie_along_sets(lie_like_neighbours(row, config), config)
    for before, after in zip(row, settled):
        assert after.other_turns == ()  # the ends too: each one's neighbour lies on the line
        assert _angle_apart(_width_axis_angle(after.corners), 20.0) < 0.5
        width, height = quad_size(after.corners)
        assert width / height == pytest.approx(config.tile_aspect, abs=0.01)
        assert width * height == pytest.approx(48.0 * 50.0, rel=0.02)
        assert np.allclose(after.corners.mean(axis=0), before.corners.mean(axis=0))


def test_a_line_across_the_faces_own_sides_leaves_them_their_turns():
    row, config = _squarish_row(4, 20.0, 20.0 + 45.0)  # the boxes say the tiles stand diagonal to their line
    assert lie_along_sets(row, config) == row


def test_a_square_face_whose_nearest_neighbours_make_no_line_keeps_its_turns():
    (face,), config = _squarish_row(1, 0.0, 0.0)
    (right,), _ = _squarish_row(1, 0.0, 0.0, start=(166.0, 200.0))
    (below,), _ = _squarish_row(1, 0.0, 0.0, start=(120.0, 246.0))
    settled = lie_along_sets((face, right, below), config)
    assert settled[0] is face  # right and below: a corner, not a line

