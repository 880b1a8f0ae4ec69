"""The shipped classifier counted call by call, for tests of what the classifier is asked to read."""
from __future__ import annotations

from dataclasses import replace

from vision.classify import classify
from vision.config import DEFAULT_CONFIG
from vision.models import CLASSIFIER_FILE, load_model


class CountingNet:
    """The shipped classifier, counting the crops of each call."""

    def __init__(self, net):
        self.net, self.calls = net, []

    def __call__(self, x):
        self.calls.append(len(x))
        return self.net(x)


def read_counted(image, candidates, **config):
    """The candidates classified under DEFAULT_CONFIG with `config` replaced, and the crops of each call."""
    net = CountingNet(load_model(CLASSIFIER_FILE, DEFAULT_CONFIG.threads))
    guesses = classify(image, candidates, net, replace(DEFAULT_CONFIG, **config))
    return guesses, net.calls


def sureness(guess) -> float:
    """The best (code, orientation) probability of a reading, the tile's own included."""
    return float((guess.code_orientation * guess.tile_probability).max())


def splitting_threshold(guesses) -> tuple[float, list[int]]:
    """A sureness between the readings' middle two levels, and the readings under it (some are, some not)."""
    levels = sorted({sureness(g) for g in guesses})
    assert len(levels) >= 2, "every face read equally sure: no threshold splits them"
    middle = len(levels) // 2
    below = (levels[middle - 1] + levels[middle]) / 2
    unsure = [k for k, g in enumerate(guesses) if sureness(g) < below]
    assert 0 < len(unsure) < len(guesses)
    return below, unsure
