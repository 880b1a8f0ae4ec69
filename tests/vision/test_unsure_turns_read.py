"""A face of unsure angle is read at its fitted angle and a quarter turn from it; its other turns only when
neither of those reads sure (VisionConfig.unsure_turns_read_below)."""
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import load_image
from vision.config import DEFAULT_CONFIG
from vision.detect import UnsureTurns
from vision.models import DETECTOR_FILE, load_model
from vision.pipeline import find_tiles

from tests.vision.classifier_calls import read_counted, splitting_threshold, sureness

PHOTO = Path(__file__).parent / "data" / "full_grid.jpg"
TRIES = DEFAULT_CONFIG.angle_tries


@pytest.fixture(scope="module")
def faces():
    image = load_image(PHOTO)
    config = replace(DEFAULT_CONFIG, perspective=False)
    candidates = find_tiles(image, config, load_model(DETECTOR_FILE, config.threads))[:10]
    # each face made one of unsure angle: its box, turned in even steps, as a squarish blob's is
    unsure = tuple(replace(c, other_turns=UnsureTurns(cv2.minAreaRect(c.corners.astype(np.float32)), 1.0,
                                                      DEFAULT_CONFIG.tile_aspect, TRIES)) for c in candidates)
    return image, unsure


def _read(image, candidates, below: float):
    return read_counted(image, candidates, unsure_turns_read_below=below)


def _long_side_angle(quad: np.ndarray) -> float:
    sides = np.roll(quad, -1, axis=0) - quad
    dx, dy = max(sides, key=lambda s: float(np.hypot(*s)))
    return float(np.degrees(np.arctan2(dy, dx))) % 180.0


def test_the_quarter_turn_lies_square_to_the_fitted_angle(faces):
    _, candidates = faces
    turns = candidates[0].other_turns
    step = 180.0 / TRIES
    # turns[i] lies (i + 1) steps from the fitted angle
    apart = (_long_side_angle(turns[turns.quarter]) - _long_side_angle(turns[0])) % 180.0
    assert apart == pytest.approx(90.0 - step, abs=0.5)


def test_a_sure_face_is_read_at_two_angles_only(faces):
    image, candidates = faces
    guesses, calls = _read(image, candidates, 0.0)
    assert calls == [2 * len(candidates)]
    for g, c in zip(guesses, candidates):
        assert any(np.array_equal(g.corners, q) for q in (c.corners, c.other_turns[c.other_turns.quarter]))


def test_every_turn_is_read_at_once_when_asked_to(faces):
    image, candidates = faces
    _, calls = _read(image, candidates, 1.0)
    assert sum(calls) == TRIES * len(candidates)  # in the classifier's batches


def test_only_the_unsure_faces_are_read_at_every_angle_and_keep_the_surest(faces):
    image, candidates = faces
    first, _ = _read(image, candidates, 0.0)
    below, unsure = splitting_threshold(first)
    guesses, calls = _read(image, candidates, below)
    assert calls[0] == 2 * len(candidates) and sum(calls[1:]) == (TRIES - 2) * len(unsure)
    every, _ = _read(image, candidates, 1.0)
    for k, g in enumerate(guesses):
        if k in unsure:  # read at every angle: as sure as when every turn is read at once
            assert sureness(g) == pytest.approx(sureness(every[k]), abs=1e-6), f"face {k}"
        else:
            assert sureness(g) == pytest.approx(sureness(first[k]), abs=1e-6), f"face {k}"
