"""Camera sources: a device index, a stream URL, a video file, or a folder of images.

`open_camera(spec)` picks the source from the text the user gave (`0`, `rtsp://...`,
`game.mp4`, `frames/`). Every source gives BGR frames (numpy arrays) through `read()`.
A folder is a recorded session: its images in name order, then the last one again and
again (a table that no longer changes is still).
"""
from __future__ import annotations

from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from .errors import CameraError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class FrameSource(Protocol):
    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...


class CaptureSource:
    """cv2.VideoCapture on a device index, a stream URL or a video file."""

    def __init__(self, target: int | str, description: str, hold_last: bool = False) -> None:
        self.description = description
        self.capture = cv2.VideoCapture(target)
        self.hold_last = hold_last  # a file ends; the last frame stays on the table
        self.live = not hold_last
        self.last: np.ndarray | None = None
        if not self.capture.isOpened():
            raise CameraError(f"camera source {description!r} cannot be opened")
        if self.live:
            self.capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def flush(self, frames: int = 4) -> None:
        """Drop frames a live camera buffered while nobody looked: they show the table as it was."""
        if self.live:
            for _ in range(frames):
                self.capture.grab()

    def read(self) -> np.ndarray:
        ok, frame = self.capture.read()
        if ok and frame is not None:
            self.last = frame
            return frame
        if self.hold_last and self.last is not None:
            return self.last
        raise CameraError(f"camera source {self.description!r} gave no frame")

    def close(self) -> None:
        self.capture.release()


class FolderSource:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise CameraError(f"camera folder {str(folder)!r} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self.index = 0
        self.last: np.ndarray | None = None

    def read(self) -> np.ndarray:
        if self.index < len(self.paths):
            path = self.paths[self.index]
            self.index += 1
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is None:
                raise CameraError(f"camera folder image {str(path)!r} is not a readable image")
            self.last = frame
        if self.last is None:
            raise CameraError(f"camera folder {str(self.folder)!r} gave no frame")
        return self.last

    def close(self) -> None:
        pass


def open_camera(spec: str) -> FrameSource:
    text = str(spec).strip()
    if not text:
        raise CameraError("camera source is empty: give a device index, URL, video file or folder")
    if text.isdigit():
        return CaptureSource(int(text), text)
    if "://" in text:
        return CaptureSource(text, text)
    path = Path(text)
    if path.is_dir():
        return FolderSource(path)
    if path.is_file():
        return CaptureSource(str(path), text, hold_last=True)
    raise CameraError(f"camera source {text!r} is not a device index, URL, video file or folder")
