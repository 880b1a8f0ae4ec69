"""The training's harder samples lean the way models/occluder_data.HardSamples says."""
import numpy as np
import pytest

from models.occluder_data import AIMED, HARD, HardSamples, _arm_masks

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
