"""The classifier recipe's crop shear (models/recipe/train.py `Recipe.crop_shear`): a crop's number
leans the way the shear says, and with no shear the augmentation draws exactly what it drew
before (the shipped recipe's crops are unchanged)."""
import cv2
import numpy as np
import pytest

from models.recipe.train import _augment_crops, _sheared
from vision.config import CROP_HEIGHT, CROP_WIDTH


def _stroke() -> np.ndarray:
    crop = np.full((1, CROP_HEIGHT, CROP_WIDTH, 3), 230, np.uint8)
    cv2.line(crop[0], (CROP_WIDTH // 2, 8), (CROP_WIDTH // 2, CROP_HEIGHT - 8), (20, 20, 20), 3)
    return crop


def _lean(crop: np.ndarray) -> float:
    """How far right the stroke's top lies of its bottom, in pixels."""
    ys, xs = np.nonzero(crop[0, :, :, 0] < 100)
    return float(xs[ys < CROP_HEIGHT / 3].mean() - xs[ys > 2 * CROP_HEIGHT / 3].mean())


@pytest.mark.parametrize("seed", range(6), ids=lambda s: f"seed{s}")
def test_a_sheared_stroke_leans_by_the_drawn_shear(seed):
    drawn = np.random.default_rng(seed).uniform(-0.2, 0.2)
    lean = _lean(_sheared(np.random.default_rng(seed), _stroke(), 0.2))
    expected = drawn * (CROP_HEIGHT * 2 / 3)  # between the centres of the top and bottom thirds
    assert lean == pytest.approx(expected, abs=1.5)
    assert np.sign(lean) == np.sign(drawn) or abs(drawn) < 0.02


def test_no_shear_draws_nothing_more():
    crops = np.repeat(_stroke(), 4, axis=0)
    before = _augment_crops(np.random.default_rng(7), crops)
    after = _augment_crops(np.random.default_rng(7), crops, 0.0)
    assert np.array_equal(before, after)
    assert not np.array_equal(before, _augment_crops(np.random.default_rng(7), crops, 0.2))
