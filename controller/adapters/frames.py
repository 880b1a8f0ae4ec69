"""What a camera gives the table: the one `Camera` protocol, and what a source may do besides.

Free of OpenCV and numpy (the table's loop names it through `controller.table.ports`); the sources
themselves are in `camera.py`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from vision.eyes_values import TimedFrame


class Camera(Protocol):
    """A camera source: BGR frames (numpy arrays), one per `read`."""

    def read(self) -> Any: ...

    def close(self) -> None: ...


@runtime_checkable
class TimesFrames(Protocol):
    """A source that gives each frame with its own time (a live camera's clock, a file's frame index)."""

    def read_timed(self) -> TimedFrame: ...


@runtime_checkable
class BuffersFrames(Protocol):
    """A live source that buffers frames while nobody looks, and can drop them (`flush`)."""

    live: bool

    def flush(self) -> None: ...


@runtime_checkable
class SaysIfLive(Protocol):
    """A source that says whether it is live (a live camera's failed read is asked again; a file's is bad input)."""

    live: bool
