"""Exposure: a frame darker than photos of tables usually are is brightened before it is read.

The nets learnt from photos whose brightest faces lie near white; a room whose light dims (or a
camera that exposes for a dark top) gives frames whose faces lie far below it, and there the
detector finds no tile at all. So the frame's bright level (its grey at `exposure_quantile`,
the brightest faces) is raised to `exposure_target` by one gain on every pixel. A frame as
bright as that or brighter is read as it comes, unless the camera clipped it at white (a lamp
turned up over a pale top): the faces that are a flat 255 there are not found as faces either,
and brought down to the target they are (`exposure_clipped`, lab/decisions/exposure_clipped.txt).
What the clip took is not given back; the faces' edges and their ink mostly survive it.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .config import VisionConfig


@dataclass(frozen=True)
class Exposure:
    image: np.ndarray  # the frame to read (the frame itself when `gain` is 1)
    gain: float  # what every pixel was multiplied by
    bright: float  # the frame's grey at the config's quantile, before the gain


def expose(image: np.ndarray, config: VisionConfig) -> Exposure:
    """The frame brought to the config's exposure target: brightened when dimmer, darkened only when
    clipped at white (its bright level at `exposure_clipped` or above); a target of 0 leaves it as it is."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    counts = cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel()
    share = np.cumsum(counts) / max(counts.sum(), 1.0)
    bright = float(np.searchsorted(share, config.exposure_quantile / 100.0))
    clipped = 0 < config.exposure_clipped <= bright
    if config.exposure_target <= 0 or (bright >= config.exposure_target and not clipped):
        return Exposure(image, 1.0, bright)
    gain = min(config.exposure_target / max(bright, 1.0), config.exposure_max_gain)
    return Exposure(cv2.convertScaleAbs(image, alpha=gain, beta=0.0), gain, bright)
