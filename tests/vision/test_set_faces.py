"""A face the classifier doubts is a tile is kept when it lies in a set beside sure tiles (a
joker of a design the classifier never saw), and dropped when it lies apart (clutter)."""

import numpy as np
import pytest

from vision.classify import TileGuess
from vision.codes import CODE_INDEX, CODES
from vision.config import DEFAULT_CONFIG
from vision.pipeline import _assemble, _keep_faces_in_sets


def _face(x: float, y: float, tile_probability: float, code: str = "R5") -> TileGuess:
    co = np.full((len(CODES), 2), 1e-4)
    co[CODE_INDEX[code], 0] = 1.0
    co /= co.sum()
    quad = np.array([[x, y], [x + 40, y], [x + 40, y + 56], [x, y + 56]], float)
    return TileGuess(quad, tile_probability, co, 0.9)


@pytest.mark.parametrize("sure_at, kept", [((0, 41, 123), True), ((0, 41), True), ((300, 341), False)],
                         ids=["between-two-sure-tiles", "at-a-set-end", "apart-from-the-sets"])
def test_a_doubted_face_is_kept_only_in_a_set(sure_at, kept):
    sure = [_face(x, 100, 0.99, f"R{n}") for n, x in enumerate(sure_at, start=3)]
    doubted = _face(82, 100, 0.02, "K9")
    out = _keep_faces_in_sets(sure, [doubted], DEFAULT_CONFIG)
    assert any(g is doubted for g in out) is kept
    assert all(any(g is s for g in out) for s in sure)


def test_a_kept_face_is_read_as_unsure():
    sure = [_face(0, 100, 0.99, "R3"), _face(41, 100, 0.99, "R4"), _face(123, 100, 0.99, "R6")]
    faces = _keep_faces_in_sets(sure, [_face(82, 100, 0.05, "J")], DEFAULT_CONFIG)
    reading = _assemble(np.zeros((300, 600, 3), np.uint8), faces, DEFAULT_CONFIG)
    assert [s.codes for s in reading.sets] == [("R3", "R4", "J", "R6")]
    joker = next(t for t in reading.tiles if t.code == "J")
    assert joker.confidence < DEFAULT_CONFIG.low_confidence
    assert any("low confidence" in w and "J at" in w for w in reading.warnings)


def test_a_doubted_face_over_a_sure_one_never_displaces_it():
    # a larger doubted face on the same place, its tile probability rounding to the sure one's
    sure = [_face(0, 100, 0.99, "R3"), _face(41, 100, 0.5, "R4"), _face(82, 100, 0.99, "R5")]
    wide = TileGuess(np.array([[38, 98], [84, 98], [84, 158], [38, 158]], float), 0.46, sure[1].code_orientation, 0.9)
    out = _keep_faces_in_sets(sure, [wide], DEFAULT_CONFIG)
    assert len(out) == 3 and all(any(g is s for g in out) for s in sure)
