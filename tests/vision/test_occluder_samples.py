"""The training's harder samples lean the way models/recipe/occluder_data.HardSamples says."""
import cv2
import numpy as np
import pytest

from models.recipe.occluder_data import AIMED, COMPOSE_LONG_SIDE, CORNERED, FOLDED, HARD, SHADED, HardSamples, _arm_masks, compose

SIZE = 96


def thin_share(hard: HardSamples | None, draws: int = 3000) -> float:
    """Share of arms narrower than any the plain samples draw (0.03 of the frame's long side)."""
    rng = np.random.default_rng(5)
    widths = [_arm_masks(rng, SIZE, SIZE * 3 // 4, hard)[4] for _ in range(draws)]
    return float(np.mean(np.array(widths) < 0.03 * SIZE))


@pytest.mark.parametrize("hard, expected", [(None, 0.0), (HARD, 0.4 * 0.375), (AIMED, 0.6 * 0.375)],
                         ids=["plain", "hard", "aimed"])
def test_thin_arms_come_as_often_as_the_samples_say(hard, expected):
    # thin arms are 0.018-0.05 of the long side, so 0.012 / 0.032 of them fall under 0.03
    assert thin_share(hard) == pytest.approx(expected, abs=0.03)


def empty_table_images(hard: HardSamples | None, long_side: int, draws: int):
    """Frames of a flat grey table (160) with nothing over it, drawn with `hard`'s leaning."""
    rng = np.random.default_rng(7)
    table = np.full((long_side * 3 // 4, long_side, 3), 160, np.uint8)
    for _ in range(draws):
        sample = compose(rng, table, occluders=0, hard=hard)
        assert not sample.mask.any()  # a shadow or a fold is never marked as covering the table
        yield sample.image


def cast_shadow_share(hard: HardSamples | None, draws: int = 400) -> float:
    """Share of frames with nothing over them that still come out darkened somewhere."""
    return float(np.mean([image.astype(np.int16).min() < 160 - 25 for image in empty_table_images(hard, SIZE, draws)]))


@pytest.mark.parametrize("hard, least, most", [(AIMED, 0.0, 0.35), (SHADED, 0.5, 0.8)], ids=["aimed", "shaded"])
def test_cast_shadows_come_only_with_the_shaded_samples(hard, least, most):
    # both draw the plain samples' blob shadow (0.3 of empty tables, often faint); SHADED adds its own half the time
    assert least <= cast_shadow_share(hard) <= most


def sharp_edge_share(hard: HardSamples, draws: int = 200) -> float:
    """Share of frames with nothing over them that show a sharp edge somewhere (Sobel over 60 after noise is smoothed)."""
    sharp = 0
    # drawn at the samples' own size: a fold's edge is sharp in pixels there
    for image in empty_table_images(hard, COMPOSE_LONG_SIDE, draws):
        grey = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.0), cv2.COLOR_BGR2GRAY).astype(np.float32)
        steepest = max(float(np.abs(cv2.Sobel(grey, cv2.CV_32F, dx, 1 - dx, ksize=3)).max()) for dx in (0, 1))
        sharp += int(steepest > 60)
    return sharp / draws


@pytest.mark.parametrize("hard, least, most", [(SHADED, 0.0, 0.05), (FOLDED, 0.35, 0.65)], ids=["shaded", "folded"])
def test_sharp_folds_come_only_with_the_folded_samples(hard, least, most):
    # the shaded samples' shadows are soft; FOLDED adds 1-3 sharp-sided folds half the time
    assert least <= sharp_edge_share(hard) <= most


def corner_only_share(hard: HardSamples, draws: int = 1500) -> float:
    """Share of arms that lie inside one corner: they reach two adjacent edges and less than 0.4 of either side."""
    rng = np.random.default_rng(11)
    w, h = SIZE, SIZE * 3 // 4
    inside_a_corner = 0
    for _ in range(draws):
        skin, sleeve, *_ = _arm_masks(rng, w, h, hard)
        ys, xs = np.nonzero(np.maximum(skin, sleeve) > 0.5)
        if not len(xs):
            continue
        by_a_side = (xs.min() == 0 and xs.max() < 0.4 * w) or (xs.max() == w - 1 and xs.min() > 0.6 * w)
        by_top_or_bottom = (ys.min() == 0 and ys.max() < 0.4 * h) or (ys.max() == h - 1 and ys.min() > 0.6 * h)
        inside_a_corner += by_a_side and by_top_or_bottom
    return inside_a_corner / draws


@pytest.mark.parametrize("hard, least, most", [(FOLDED, 0.04, 0.17), (CORNERED, 0.27, 0.45)], ids=["folded", "cornered"])
def test_arms_across_a_corner_come_a_third_of_the_time_with_the_cornered_samples(hard, least, most):
    # short reaches from near a corner already land inside one about a tenth of the time; CORNERED adds a third
    assert least <= corner_only_share(hard) <= most
