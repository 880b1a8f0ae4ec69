"""Faces follow the table's perspective: a tilted camera sees each tile as a parallelogram, and
the rectangle the detector fits shears the crop (a leaning 1 reads as 7)."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
from hypothesis import given, strategies as st
import pytest

from vision.config import DEFAULT_CONFIG
from vision.detect import TileCandidate
from vision.geometry import order_upright
from vision.perspective import follow_perspective


def _tilted_camera(tilt_degrees: float, turn_degrees: float) -> np.ndarray:
    """A homography from table millimetres to 1920x1080 pixels: a camera tilted about the
    image's horizontal axis, the layout turned on the table."""
    f = 1400.0
    t, r = np.radians(tilt_degrees), np.radians(turn_degrees)
    turn = np.array([[np.cos(r), -np.sin(r), 0], [np.sin(r), np.cos(r), 0], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    camera = np.array([[f, 0, 960], [0, f, 540], [0, 0, 1]])
    place = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 900.0]])  # table 900 mm from the camera
    return camera @ tilt @ place @ turn


def _tiles(homography: np.ndarray, rows=4, per_row=7, width=30.0, height=40.0) -> list[np.ndarray]:
    quads = []
    for row in range(rows):
        for k in range(per_row):
            x0, y0 = (k - per_row / 2) * (width + 1.0), (row - rows / 2) * (height + 25.0)
            corners = np.array([[x0, y0], [x0 + width, y0], [x0 + width, y0 + height], [x0, y0 + height]])
            image = cv2.perspectiveTransform(corners[None].astype(np.float64), homography)[0]
            quads.append(order_upright(image))
    return quads


def _rectangle(quad: np.ndarray, turn_degrees: float = 0.0) -> np.ndarray:
    """The rectangle a detector fits to a face: the smallest around it, turned a little off."""
    (cx, cy), size, angle = cv2.minAreaRect(quad.astype(np.float32))
    return order_upright(cv2.boxPoints(((cx, cy), size, angle + turn_degrees)).astype(np.float64))


def _detector_rectangles(quads: list[np.ndarray]) -> list[np.ndarray]:
    turns = np.random.default_rng(7).uniform(-4.0, 4.0, len(quads))  # the fits' scatter on rendered tables
    return [_rectangle(q, t) for q, t in zip(quads, turns)]


def _width_axis(quad: np.ndarray) -> float:
    v = (quad[1] - quad[0]) + (quad[2] - quad[3])
    return float(np.arctan2(v[1], v[0]))


def _height_axis(quad: np.ndarray) -> float:
    v = (quad[3] - quad[0]) + (quad[2] - quad[1])
    return float(np.arctan2(v[1], v[0]))


def _degrees_apart(a: float, b: float) -> float:
    return float(np.degrees(abs((a - b + np.pi / 2) % np.pi - np.pi / 2)))


@pytest.mark.parametrize("tilt,turn", [(25.0, 20.0), (30.0, -35.0)], ids=["tilt-25-turned-20", "tilt-30-turned-minus-35"])
def test_faces_of_a_tilted_table_lean_as_the_table_does(tilt, turn):
    truth = _tiles(_tilted_camera(tilt, turn))
    rectangles = _detector_rectangles(truth)
    followed = follow_perspective(tuple(TileCandidate(r, 1.0) for r in rectangles), DEFAULT_CONFIG)
    for axis in (_width_axis, _height_axis):
        before = [_degrees_apart(axis(r), axis(t)) for r, t in zip(rectangles, truth)]
        after = [_degrees_apart(axis(c.corners), axis(t)) for c, t in zip(followed, truth)]
        assert max(before) > 3.0  # the rectangles really are off: the case is worth testing
        assert max(after) < 1.5, axis.__name__
    # the width axis is the set's line, and each face keeps its place and about its size
    for c, t in zip(followed, truth):
        assert np.linalg.norm(c.corners.mean(axis=0) - t.mean(axis=0)) < 1.0
        # (the sides keep the rectangle's distances apart, and the smallest rectangle around a
        # parallelogram is larger than it)
        assert 0.8 < cv2.contourArea(c.corners.astype(np.float32)) / cv2.contourArea(t.astype(np.float32)) < 1.25


def test_a_tile_turned_across_the_others_keeps_its_own_axes():
    truth = _tiles(_tilted_camera(25.0, 10.0))
    rectangles = _detector_rectangles(truth)
    centre = rectangles[3].mean(axis=0)
    turned = np.array([[np.cos(np.pi / 2), -np.sin(np.pi / 2)], [np.sin(np.pi / 2), np.cos(np.pi / 2)]])
    lone = order_upright((rectangles[3] - centre) @ turned.T + centre + np.array([0.0, 400.0]))
    followed = follow_perspective(tuple(TileCandidate(r, 1.0) for r in rectangles) + (TileCandidate(lone, 1.0),), DEFAULT_CONFIG)
    assert np.allclose(followed[-1].corners, lone, atol=1e-6)


def test_a_face_of_unsure_angle_is_left_to_the_classifier():
    truth = _tiles(_tilted_camera(25.0, 10.0))
    candidates = [TileCandidate(_rectangle(q), 1.0) for q in truth]
    unsure = TileCandidate(candidates[0].corners, 1.0, (candidates[1].corners,))
    followed = follow_perspective((unsure, *candidates[1:]), DEFAULT_CONFIG)
    assert followed[0] is unsure


def test_a_table_seen_from_straight_above_keeps_its_rectangles():
    truth = _tiles(_tilted_camera(0.0, 15.0))
    rectangles = [_rectangle(q) for q in truth]  # exact: seen from above, a face is a rectangle
    followed = follow_perspective(tuple(TileCandidate(r, 1.0) for r in rectangles), DEFAULT_CONFIG)
    for c, r in zip(followed, rectangles):
        assert np.allclose(c.corners, r, atol=0.05)


@pytest.mark.parametrize("off", [12.0, -18.0], ids=["fitted-12-off", "fitted-18-off-the-other-way"])
def test_a_face_fitted_turned_off_its_set_is_read_both_ways(off):
    """A face whose rectangle the set's line turns by more than perspective_turn_min is cut as
    before (the line's width axis, its own height axis) and also turned whole; the classifier
    reads both and keeps the surer (vision.classify reads every quad of other_turns)."""
    truth = _tiles(_tilted_camera(20.0, 10.0))
    rectangles = _detector_rectangles(truth)
    k = 9
    rectangles[k] = _rectangle(truth[k], off)
    followed = follow_perspective(tuple(TileCandidate(r, 1.0) for r in rectangles), DEFAULT_CONFIG)
    face = followed[k]
    assert len(face.other_turns) == 1
    whole = face.other_turns[0]
    assert _degrees_apart(_width_axis(face.corners), _width_axis(truth[k])) < 1.5  # the line's width axis ...
    assert _degrees_apart(_height_axis(face.corners), _height_axis(rectangles[k])) < 1.5  # ... its own height axis
    assert _degrees_apart(_width_axis(whole), _width_axis(truth[k])) < 1.5
    assert _degrees_apart(_height_axis(whole), _height_axis(truth[k])) < 1.5
    # the faces the line hardly turns are cut once
    assert all(not c.other_turns for i, c in enumerate(followed) if i != k)


def _strewn_tiles(count=54, seed=2) -> list[np.ndarray]:
    """Tiles strewn face up, turned every way within 35 degrees of upright as hands put them
    down, far enough apart to stand in no set (a table before a game): seen from above, so each
    face is the rectangle fitted to it."""
    rng = np.random.default_rng(seed)
    quads = []
    for k in range(count):
        centre = np.array([200.0 + 150.0 * (k % 9), 150.0 + 140.0 * (k // 9)]) + rng.uniform(-20, 20, 2)
        quads.append(order_upright(cv2.boxPoints(((*centre,), (30.0, 40.0), rng.uniform(-35, 35))).astype(np.float64)))
    return quads


def test_tiles_strewn_at_every_angle_keep_their_own_axes():
    rectangles = _strewn_tiles()
    candidates = tuple(TileCandidate(r, 1.0) for r in rectangles)
    # without the share, a point that a few strewn faces agree with by chance leans those faces
    chance = follow_perspective(candidates, replace(DEFAULT_CONFIG, perspective_min_share=0.0))
    assert any(not np.allclose(c.corners, r, atol=0.05) for c, r in zip(chance, rectangles))
    followed = follow_perspective(candidates, DEFAULT_CONFIG)
    for c, r in zip(followed, rectangles):
        assert np.allclose(c.corners, r, atol=0.05)


def _one_parallelogram(centre, width_axis, height_axis, across, down, size):
    """One face's parallelogram as it was drawn face by face."""
    width_axis = width_axis if width_axis @ across >= 0 else -width_axis
    height_axis = height_axis if height_axis @ down >= 0 else -height_axis
    normal_of_width = np.array([-width_axis[1], width_axis[0]])
    normal_of_height = np.array([-height_axis[1], height_axis[0]])
    top = width_axis * size[0] / max(abs(width_axis @ normal_of_height), 1e-6)
    side = height_axis * size[1] / max(abs(height_axis @ normal_of_width), 1e-6)
    return np.array([centre - top / 2 - side / 2, centre + top / 2 - side / 2,
                     centre + top / 2 + side / 2, centre - top / 2 + side / 2])


@given(st.lists(st.tuples(st.floats(0, 4000), st.floats(0, 3000), *[st.floats(-np.pi, np.pi)] * 4,
                          st.floats(1, 200), st.floats(1, 200)), min_size=1, max_size=12))
def test_the_parallelograms_of_all_faces_are_each_faces_own_to_the_last_bit(faces):
    from vision.perspective import _parallelograms, _units

    centres = np.array([f[:2] for f in faces])
    width_axes, height_axes, across, down = (_units(np.array([f[k] for f in faces])) for k in (2, 3, 4, 5))
    sizes = np.array([f[6:] for f in faces])
    drawn = _parallelograms(centres, width_axes, height_axes, across, down, sizes)
    for i in range(len(faces)):
        assert np.array_equal(drawn[i], _one_parallelogram(centres[i], width_axes[i], height_axes[i], across[i], down[i], sizes[i]))
