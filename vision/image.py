"""Stage 1: load_image - a file or an array becomes a checked BGR uint8 image."""
from __future__ import annotations

import os
import re
import struct
import sys
import tempfile
import threading
from pathlib import Path

import cv2
import numpy as np

from .config import MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE
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
    return decode_image(data, name)


def decode_image(data: bytes, name: str = "image") -> np.ndarray:
    """An image file's bytes as BGR uint8: refused (ImageReadError) when empty, cut off, larger than
    MAX_IMAGE_PIXELS by its header (never decoded then), or not decodable."""
    if not data:
        raise ImageReadError(f"{name!r}: empty file, not an image")
    _check_complete(name, data)
    check_size(data, name)
    if data.startswith(_JPEG_START):
        image = _decode_jpeg(data, name)
    else:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageReadError(f"{name!r}: not an image OpenCV can decode ({len(data)} bytes)")
    return check_image(image, name)


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) as a PNG, JPEG, BMP, WebP or TIFF header states it; None for another format or
    a header that does not say (OpenCV then decodes it and the decoded size is checked)."""
    try:
        if data.startswith(_PNG_START) and data[12:16] == b"IHDR":
            return struct.unpack(">II", data[16:24])
        if data.startswith(_JPEG_START):
            return _jpeg_size(data)
        if data.startswith(b"BM") and len(data) >= 26:
            width, height = struct.unpack("<ii", data[18:26])
            return abs(width), abs(height)
        if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
            return _webp_size(data)
        if data[:4] in (b"II*\x00", b"MM\x00*"):
            return _tiff_size(data)
    except (struct.error, IndexError):
        return None
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        # start of frame: SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC)
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        if marker == 0xDA:  # the scan starts before any frame header: not a JPEG we can size
            return None
        at += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
        return width, height
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = "<" if data[:2] == b"II" else ">"
    at = struct.unpack(order + "I", data[4:8])[0]
    count = struct.unpack(order + "H", data[at:at + 2])[0]
    size: dict[int, int] = {}
    for k in range(count):
        tag, kind, _, value = struct.unpack(order + "HHI4s", data[at + 2 + 12 * k:at + 14 + 12 * k])
        if tag in (256, 257):  # ImageWidth, ImageLength: SHORT (3) or LONG (4)
            size[tag] = struct.unpack(order + ("H" if kind == 3 else "I"), value[:2 if kind == 3 else 4])[0]
    return (size[256], size[257]) if len(size) == 2 else None


def check_size(data: bytes, name: str = "image") -> None:
    """Refuse an image whose header states more than MAX_IMAGE_PIXELS (or a side over MAX_IMAGE_SIDE)."""
    size = header_size(data)
    if size is not None:
        _refuse_large(name, *size)


def _refuse_large(name: str, width: int, height: int) -> None:
    if width * height > MAX_IMAGE_PIXELS or max(width, height) > MAX_IMAGE_SIDE:
        raise ImageReadError(f"{name!r}: image is {width}x{height} pixels, larger than the {MAX_IMAGE_PIXELS:,} "
                             f"pixels (8K UHD) and {MAX_IMAGE_SIDE} pixels a side that tileref reads")


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


# What the JPEG library says, on the process's stderr and nowhere else, when a scan ends before its
# last block: bytes are missing (a file cut short, its end-of-image marker put back or never lost).
_JPEG_CUT_SHORT = re.compile(rb"[^\n]*(premature end of data segment|Premature end of JPEG file)[^\n]*\n?")
_STDERR_LOCK = threading.Lock()


def _decode_jpeg(data: bytes, name: str) -> np.ndarray | None:
    """A JPEG decoded as OpenCV does, refused when the JPEG library finds its data cut short (OpenCV
    pads the missing blocks and says nothing; the library's warning goes only to file descriptor 2,
    so that is read while it decodes; anything else written there meanwhile is passed on)."""
    with _STDERR_LOCK, tempfile.TemporaryFile() as said:
        sys.stderr.flush()
        kept = os.dup(2)
        try:
            os.dup2(said.fileno(), 2)
            image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        finally:
            os.dup2(kept, 2)
            os.close(kept)
        said.seek(0)
        text = said.read()
    cut = _JPEG_CUT_SHORT.search(text)
    rest = _JPEG_CUT_SHORT.sub(b"", text)
    if rest:
        os.write(2, rest)
    if cut is not None:
        raise ImageReadError(f"{name!r}: truncated JPEG (its data ends before the last block: "
                             f"{cut.group(1).decode('ascii').lower()})")
    return image


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
    _refuse_large(name, w, h)
    if min(h, w) < MIN_SIDE:
        raise ImageReadError(f"{name!r}: image is {w}x{h} pixels, too small to show a tile (need at least {MIN_SIDE}x{MIN_SIDE})")
    return image
