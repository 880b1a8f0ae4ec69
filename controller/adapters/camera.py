"""Camera sources: a device index, a stream URL, a video file, or a folder of images.

`open_camera(spec)` picks the source from the text the user gave (`0`, `rtsp://...`,
`game.mp4`, `frames/`). Every source gives BGR frames (numpy arrays) through `read()`, and
with their time through `read_timed()` (the eyes wait in seconds): a live camera's clock, a
video file's frame index over its frame rate, a folder's image count over `FOLDER_FPS`.
A folder is a camera that drops snapshots into it (or a recorded session): each read takes
the next image in name order, including images that appeared since, and when there is no
newer one the last image again (a table that no longer changes is still). A video file plays
at its own frame rate against the wall clock from the first read, as a camera would have shown
it (`VideoFileSource`), so a recorded game lines up with presses made at the right moments.
`describe_camera` says what was opened, at what resolution and frame rate.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

# FFmpeg's own complaints about a file it cannot decode ("No JPEG data found in image") would reach the
# table's console; the camera says what is wrong in one line of its own (CameraError). Set before the
# first capture opens, when OpenCV reads it; a value set outside stands.
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.errors import ImageReadError
from vision.eyes_values import TimedFrame
from vision.image import IMAGE_SIGNATURES, check_size, truncated_image

from .errors import CameraError
from .frames import Camera  # noqa: F401 - what every source here is

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
FOLDER_FPS = 30.0  # a folder's images count as frames this many a second apart
VIDEO_FPS = 30.0  # a video file that names no frame rate plays at this one


class CaptureSource:
    """cv2.VideoCapture on a device index, a stream URL or a video file."""

    def __init__(self, target: int | str, description: str, hold_last: bool = False) -> None:
        self.description = description
        self.capture = cv2.VideoCapture(target)
        self.hold_last = hold_last  # a file ends; the last frame stays on the table
        self.live = not hold_last
        self.last: np.ndarray | None = None
        self.index = 0  # frames given
        if not self.capture.isOpened():
            raise CameraError(f"camera source {description!r} cannot be opened")
        fps = self.capture.get(cv2.CAP_PROP_FPS) if hold_last else 0.0
        self.fps = fps if fps and 1.0 <= fps <= 1000.0 else VIDEO_FPS
        if self.live:
            self.capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def flush(self, frames: int = 4) -> None:
        """Drop frames a live camera buffered while nobody looked: they show the table as it was."""
        if self.live:
            for _ in range(frames):
                self.capture.grab()

    def read_timed(self) -> TimedFrame:
        """A live camera's frame at the moment it was read; a file's at its index over its frame rate."""
        frame = self.read()
        if self.live:
            return TimedFrame(frame, time.monotonic())
        return TimedFrame(frame, (self.index - 1) / self.fps)

    def read(self) -> np.ndarray:
        ok, frame = self.capture.read()
        if ok and frame is not None:
            self.last = frame
            self.index += 1
            return frame
        if self.hold_last and self.last is not None:
            self.index += 1  # the file has ended: its last frame stays, time goes on
            return self.last
        raise CameraError(f"camera source {self.description!r} gave no frame")

    def close(self) -> None:
        self.capture.release()


class VideoFileSource(CaptureSource):
    """A video file played at its own frame rate against the wall clock, from the first read.

    A read gives the frame due now: frames the reader was too slow for are skipped (grabbed, not
    decoded), and a read ahead of the next frame waits for it, as a live camera does. `index` counts
    the file's frames up to the one given (its position from 0 is `index - 1`, its time in the
    recording `(index - 1) / fps`). After the last frame the last one stays, time going on."""

    def __init__(self, path: str, description: str, clock=time.monotonic, sleep=time.sleep) -> None:
        super().__init__(path, description, hold_last=True)
        told = self.capture.get(cv2.CAP_PROP_FPS)
        self.fps = told if told and 1.0 <= told <= 1000.0 else VIDEO_FPS
        self.clock, self.sleep = clock, sleep
        self.started: float | None = None  # wall clock of frame 0
        self.index = 0  # frames up to the one given last (none yet)
        self.decoded = 0  # frames taken from the file so far
        counted = int(self.capture.get(cv2.CAP_PROP_FRAME_COUNT))
        self.frames = counted if counted > 0 else None  # None: a file that does not say (read to its end)
        self.ended = False

    @property
    def seconds(self) -> float:
        """The time in the recording of the frame given last."""
        return max(self.index - 1, 0) / self.fps

    def read(self) -> np.ndarray:
        now = self.clock()
        if self.started is None:
            self.started = now
        due = int((now - self.started) * self.fps + 1e-9)  # the position on show now
        if due < self.index:  # that frame was given: wait for the next one
            due = self.index
            self.sleep(max(0.0, self.started + due / self.fps - now))
        wanted = due if self.frames is None else min(due, self.frames - 1)  # the last frame stays on
        while not self.ended and self.decoded < wanted:  # frames the reader was too slow for
            if self.capture.grab():
                self.decoded += 1
            else:
                self.ended = True
        if not self.ended and self.decoded == wanted:
            ok, frame = self.capture.read()
            if ok and frame is not None:
                self.decoded += 1
                self.last = frame
            else:
                self.ended = True
        if self.last is None:
            raise CameraError(f"camera source {self.description!r} gave no frame")
        self.index = due + 1
        return self.last


class FolderSource:
    """Images in a folder, in name order, as they arrive.

    Hidden files (a leading dot) are skipped: camera apps and `rsync` write there first and
    rename when done. A JPEG or PNG that starts right but has no end yet is still being
    written: it is tried again for up to `write_grace` seconds (the last image stands in
    meanwhile). Anything else that does not decode is bad input at once. Images named before
    the last one taken are not gone back to: a camera names them in time order."""

    def __init__(self, folder: Path, write_grace: float = 2.0) -> None:
        self.folder = folder
        self.write_grace = write_grace
        self.taken: str | None = None  # name of the last image taken
        self.pending: list[Path] = []
        self.scanned: tuple[int, float] | None = None  # (folder mtime, when) of the last listing
        self.late_since: tuple[Path, float] | None = None
        self.last: np.ndarray | None = None
        self.index = 0  # frames given
        self._scan()
        if not self.pending:
            raise CameraError(f"camera folder {str(folder)!r} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        first = self.pending[0]
        if not _being_written(first):
            _decode(first)  # a folder of files that are not images is refused now, not at the first look

    def _scan(self) -> None:
        try:
            mtime = os.stat(self.folder).st_mtime_ns
            names = sorted(e.name for e in os.scandir(self.folder)
                           if not e.name.startswith(".") and Path(e.name).suffix.lower() in IMAGE_SUFFIXES)
        except OSError as error:
            raise CameraError(f"camera folder {str(self.folder)!r} cannot be listed: {error.strerror}") from None
        self.scanned = (mtime, time.monotonic())
        self.pending = [self.folder / n for n in names if self.taken is None or n > self.taken]

    def _maybe_scan(self) -> None:
        """List the folder again when it changed (or, on file systems with a coarse clock, every second)."""
        try:
            mtime = os.stat(self.folder).st_mtime_ns
        except OSError as error:
            raise CameraError(f"camera folder {str(self.folder)!r} cannot be listed: {error.strerror}") from None
        if self.scanned is None or mtime != self.scanned[0] or time.monotonic() - self.scanned[1] > 1.0:
            self._scan()

    def read_timed(self) -> TimedFrame:
        frame = self.read()
        return TimedFrame(frame, (self.index - 1) / FOLDER_FPS)

    def read(self) -> np.ndarray:
        while True:
            if not self.pending:
                self._maybe_scan()
            if not self.pending:
                break
            path = self.pending[0]
            now = time.monotonic()
            since = self.late_since[1] if self.late_since and self.late_since[0] == path else now
            overdue = now - since > self.write_grace
            late = not overdue and _being_written(path)
            frame = None if late else _decode(path)
            if frame is not None:
                self.pending.pop(0)
                self.taken, self.last, self.late_since = path.name, frame, None
                break
            self.late_since = (path, since)
            if self.last is not None:
                break  # the last image stands in while this one is being written
            time.sleep(0.02)
        if self.last is None:
            raise CameraError(f"camera folder {str(self.folder)!r} gave no frame")
        self.index += 1
        return self.last

    def close(self) -> None:
        pass


def _decode(path: Path) -> np.ndarray:
    """An image of the folder, refused (CameraError) when it is not one or is larger than vision reads:
    its size is checked from its header before it is decoded."""
    try:
        data = path.read_bytes()
        check_size(data, str(path))
    except OSError as error:
        raise CameraError(f"camera folder image {str(path)!r} cannot be read: {error.strerror or error}") from None
    except ImageReadError as error:
        raise CameraError(f"camera folder image {error}") from None
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if frame is None:
        raise CameraError(f"camera folder image {str(path)!r} is not a readable image")
    return frame


def _being_written(path: Path) -> bool:
    """True for a file that looks like the start of an image whose end is not written yet (half a
    JPEG decodes, grey at the bottom). A file that does not even start like one is broken, not late."""
    if path.suffix.lower() not in (".jpg", ".jpeg", ".png"):
        return False
    try:
        data = path.read_bytes()
    except OSError:
        return True  # gone or locked for a moment: look again
    if any(signature.startswith(data) for signature in IMAGE_SIGNATURES):
        return True  # not even its signature written yet
    return truncated_image(data) is not None


def open_camera(spec: str) -> Camera:
    text = str(spec).strip()
    if not text:
        raise CameraError("camera source is empty: give a device index, URL, video file or folder")
    if text.isascii() and text.isdigit():
        return CaptureSource(int(text), text)
    if "://" in text:
        return CaptureSource(text, text)
    path = Path(text)
    if path.is_dir():
        return FolderSource(path)
    if path.is_file():
        if path.suffix.lower() in IMAGE_SUFFIXES:
            _decode_file(path, text)  # a photo that is no image is refused now, before a game is started
        _first_frame(str(path), text)
        return VideoFileSource(str(path), text)
    raise CameraError(f"camera source {text!r} is not a device index, URL, video file or folder")


def _decode_file(path: Path, spec: str) -> None:
    """A single photo given as the camera: refused (CameraError naming it) unless it decodes."""
    try:
        _decode(path)
    except CameraError:
        raise CameraError(f"camera source {spec!r} is not a readable image (a photo given as the camera must "
                          f"decode)") from None


def _first_frame(path: str, spec: str) -> None:
    """A video file is refused at once when no frame of it decodes (it is no video, or not one OpenCV can
    play), not at the first look, after a game was started. The probe is a capture of its own: the file
    then plays from its first frame."""
    probe = cv2.VideoCapture(path)
    try:
        ok, frame = probe.read() if probe.isOpened() else (False, None)
    finally:
        probe.release()
    if not ok or frame is None:
        raise CameraError(f"camera source {spec!r}: no frame of it decodes; give a video file, a folder of images, "
                          f"a device index or a stream URL")


def describe_camera(source: Camera) -> str:
    """What `play` opened, for its first lines: the source, its resolution and frame rate."""
    if isinstance(source, FolderSource):
        first = source.pending[0] if source.pending else None
        image = _decode(first) if first is not None and not _being_written(first) else None
        size = f", {image.shape[1]}x{image.shape[0]}" if image is not None else ""
        return (f"folder {str(source.folder)!r}, {len(source.pending)} image(s){size}; each look takes the next "
                f"image")
    if isinstance(source, CaptureSource):
        width = int(source.capture.get(cv2.CAP_PROP_FRAME_WIDTH))
        height = int(source.capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
        size = f"{width}x{height}" if width and height else "resolution not told"
        if isinstance(source, VideoFileSource):
            frames = int(source.capture.get(cv2.CAP_PROP_FRAME_COUNT))
            length = f", {frames / source.fps:.1f} s" if frames > 0 else ""
            return (f"video file {source.description!r}, {size} at {source.fps:g} fps{length}; it plays against "
                    f"the wall clock from the first look")
        fps = source.capture.get(cv2.CAP_PROP_FPS)
        rate = f"{fps:g} fps" if fps and fps > 0 else "frame rate not told"
        kind = "stream" if "://" in source.description else "device"
        return f"{kind} {source.description!r}, {size} at {rate}"
    return repr(source)
