"""Stage 1: load_image - a file or an array becomes a checked BGR uint8 image."""
from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

from .errors import ImageReadError

MIN_SIDE = 32  # pixels; anything smaller cannot hold a readable tile

_JPEG_START = b"\xff\xd8"
_JPEG_END = b"\xff\xd9"
_PNG_START = b"\x89PNG\r\n\x1a\n"
IMAGE_SIGNATURES = (_JPEG_START, _PNG_START)  # the formats whose end can be checked


def load_image(path: str | os.PathLike) -> np.ndarray:
    """Read an image file as BGR uint8; ImageReadError names the file and what is wrong."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ImageReadError(f"{name!r}: no such file") from None
    except IsADirectoryError:
        raise ImageReadError(f"{name!r}: is a directory, not an image") from None
    except OSError as error:
        raise ImageReadError(f"{name!r}: cannot be read ({error.strerror or error})") from None
    if not data:
        raise ImageReadError(f"{name!r}: empty file, not an image")
    _check_complete(name, data)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageReadError(f"{name!r}: not an image OpenCV can decode ({len(data)} bytes)")
    return check_image(image, name)


def truncated_image(data: bytes) -> str | None:
    """What is missing from a JPEG or PNG cut off before its end, or None (whole, or another format)."""
    if data.startswith(_JPEG_START) and _JPEG_END not in data[-4096:]:
        return "truncated JPEG (no end-of-image marker)"
    if data.startswith(_PNG_START) and b"IEND" not in data[-64:]:
        return "truncated PNG (no IEND chunk)"
    return None


def _check_complete(name: str, data: bytes) -> None:
    """OpenCV quietly pads a cut-off JPEG with grey; refuse it instead of reading half a table."""
    missing = truncated_image(data)
    if missing:
        raise ImageReadError(f"{name!r}: {missing}")


def check_image(image: np.ndarray, name: str = "image") -> np.ndarray:
    """Accept H x W (grey), H x W x 3 (BGR) or H x W x 4 (BGRA) uint8; return BGR."""
    if not isinstance(image, np.ndarray):
        raise ImageReadError(f"{name}: expected a numpy image array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise ImageReadError(f"{name}: expected uint8 pixels, got {image.dtype}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    elif not (image.ndim == 3 and image.shape[2] == 3):
        raise ImageReadError(f"{name}: expected H x W x 3 BGR pixels, got shape {image.shape}")
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise ImageReadError(f"{name!r}: image is {w}x{h} pixels, too small to show a tile (need at least {MIN_SIDE}x{MIN_SIDE})")
    return image
