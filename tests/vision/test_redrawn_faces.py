"""A face drawn two ways under perspective (sheared along its set's line, and turned back whole) has its
second drawing read only when the first reads unsure (VisionConfig.perspective_second_read_below)."""
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision import load_image
from vision.config import DEFAULT_CONFIG
from vision.models import DETECTOR_FILE, load_model
from vision.pipeline import find_tiles

from tests.vision.classifier_calls import read_counted, splitting_threshold

PHOTO = Path(__file__).parent / "data" / "full_grid.jpg"


@pytest.fixture(scope="module")
def faces():
    image = load_image(PHOTO)
    config = replace(DEFAULT_CONFIG, perspective=False)
    candidates = find_tiles(image, config, load_model(DETECTOR_FILE, config.threads))[:12]
    # each face drawn a second way: the same face a few pixels lower, as a turned-back drawing lies near it
    redrawn = tuple(replace(c, other_turns=(c.corners + (0.0, 3.0),), redrawn=True) for c in candidates)
    return image, redrawn


def _read(image, candidates, below: float):
    return read_counted(image, candidates, perspective_second_read_below=below)


def test_a_sure_first_drawing_is_not_read_again(faces):
    image, candidates = faces
    guesses, calls = _read(image, candidates, 0.0)
    assert calls == [len(candidates)]
    assert all(np.array_equal(g.corners, c.corners) for g, c in zip(guesses, candidates))


def test_every_drawing_is_read_at_once_when_asked_to(faces):
    image, candidates = faces
    _, calls = _read(image, candidates, 1.0)
    assert calls == [2 * len(candidates)]


def test_only_the_unsure_first_drawings_are_read_again_and_the_surer_drawing_is_kept(faces):
    image, candidates = faces
    first, _ = _read(image, candidates, 0.0)
    below, unsure = splitting_threshold(first)
    guesses, calls = _read(image, candidates, below)
    assert calls == [len(candidates), len(unsure)]
    both, _ = _read(image, candidates, 1.0)
    for k, (g, c) in enumerate(zip(guesses, candidates)):
        if k in unsure:  # read both ways: the surer reading, as when every drawing is read
            assert np.array_equal(g.corners, both[k].corners), f"face {k}"
        else:
            assert np.array_equal(g.corners, c.corners), f"face {k}"
