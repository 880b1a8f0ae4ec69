"""Frames as the photos the records keep: encoded (JPEG, or PNG), named by the sha256 of their bytes."""
from __future__ import annotations

import cv2
import numpy as np

from controller.records import Photo, sha256_bytes

from .errors import AdapterError

MIMES = {".jpg": "image/jpeg", ".png": "image/png"}


class FramePhotos:
    """`controller.table.ports.PhotoEncoder`; `quality`: JPEG's, 0..100 (PNG is lossless and ignores it)."""

    def __init__(self, suffix: str = ".jpg", quality: int = 85) -> None:
        if suffix not in MIMES:
            raise AdapterError(f"photo format {suffix!r}: one of {', '.join(map(repr, MIMES))}")
        self.suffix = suffix
        self.quality = quality

    def photo(self, frame: np.ndarray) -> Photo:
        params = [cv2.IMWRITE_JPEG_QUALITY, self.quality] if self.suffix == ".jpg" else []
        ok, buffer = cv2.imencode(self.suffix, frame, params)
        if not ok:
            raise AdapterError(f"cannot encode a frame as {self.suffix!r}")
        data = buffer.tobytes()
        return Photo(sha256_bytes(data), MIMES[self.suffix], int(frame.shape[1]), int(frame.shape[0]), data)

    def frame(self, photo: Photo) -> np.ndarray | None:
        """A recorded photo decoded back into a frame (None when its bytes are no image)."""
        return cv2.imdecode(np.frombuffer(photo.data, np.uint8), cv2.IMREAD_COLOR) if photo.data else None
