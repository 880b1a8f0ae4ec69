"""Small real images for records tests: the records accept only photos whose bytes are an image."""
from __future__ import annotations

import hashlib

import cv2
import numpy as np

from controller.records import Photo, sha256_bytes


def tiny_photo(label: str, width: int = 4, height: int = 3) -> Photo:
    """A real PNG whose pixels are drawn from `label`, so each label has bytes of its own."""
    seed = int.from_bytes(hashlib.sha256(label.encode()).digest()[:8], "big")
    pixels = np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)
    ok, encoded = cv2.imencode(".png", pixels)
    assert ok, f"could not encode the test photo {label!r}"
    data = encoded.tobytes()
    return Photo(sha256_bytes(data), "image/png", width, height, data)
