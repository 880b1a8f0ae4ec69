"""Which bytes a record may hold as a photo: the image formats the reader decodes (vision/image.py:
JPEG, PNG, BMP, WebP, TIFF), each known by its first bytes. A photo is only ever served, embedded
or imported as one of these types, the type its bytes show: never as the type a record claims, so
a record's "photo" can never be a page, a script or anything else a browser would run.
"""
from __future__ import annotations

from typing import Callable

_TYPES: tuple[tuple[str, Callable[[bytes], bool]], ...] = (
    ("image/jpeg", lambda head: head.startswith(b"\xff\xd8\xff")),
    ("image/png", lambda head: head.startswith(b"\x89PNG\r\n\x1a\n")),
    ("image/bmp", lambda head: head.startswith(b"BM") and len(head) >= 26),
    ("image/webp", lambda head: head.startswith(b"RIFF") and head[8:12] == b"WEBP"),
    ("image/tiff", lambda head: head[:4] in (b"II*\x00", b"MM\x00*")),
)
IMAGE_MIMES = tuple(mime for mime, _ in _TYPES)
HEAD_BYTES = 32  # enough of a file to tell its type


def image_type(data: bytes) -> str | None:
    """The image type `data` starts as (`image/jpeg`, ...), None when it is no image the reader takes."""
    head = bytes(data[:HEAD_BYTES])
    return next((mime for mime, starts in _TYPES if starts(head)), None)
