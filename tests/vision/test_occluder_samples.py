"""The training's harder samples lean the way models/occluder_data.HardSamples says."""
import numpy as np
import pytest

from models.occluder_data import AIMED, HARD, SHADED, HardSamples, _arm_masks, compose

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


def cast_shadow_share(hard: HardSamples | None, draws: int = 400) -> float:
    """Share of frames with nothing over them that still come out darkened somewhere."""
    rng = np.random.default_rng(7)
    table = np.full((SIZE * 3 // 4, SIZE, 3), 160, np.uint8)
    shaded = 0
    for _ in range(draws):
        sample = compose(rng, table, occluders=0, hard=hard)
        assert not sample.mask.any()  # a shadow is never marked as covering the table
        shaded += int(sample.image.astype(np.int16).min() < 160 - 25)
    return shaded / draws


@pytest.mark.parametrize("hard, least, most", [(AIMED, 0.0, 0.35), (SHADED, 0.5, 0.8)], ids=["aimed", "shaded"])
def test_cast_shadows_come_only_with_the_shaded_samples(hard, least, most):
    # both draw the plain samples' blob shadow (0.3 of empty tables, often faint); SHADED adds its own half the time
    assert least <= cast_shadow_share(hard) <= most
