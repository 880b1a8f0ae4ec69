"""The camera as the table's runner looks through it (`controller.table.ports.TableWatch`).

The eyes decide when the table may be read (`vision.eyes`, fed by `settle.py`); this adapter ties
one camera and one set of settings to them, and compares frames the one way the eyes do.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from vision.eyes import Covered, ReadAhead, ReadFrames, Reference, SettledLook, TileOutline, TimedFrame
from vision.stillness import frame_difference

from .camera import FrameSource
from .settle import Ask, EyesWait, Settled, SettleSettings, WaitStatus, eyes_settings, read_frame


class CameraWatch:
    def __init__(self, camera: FrameSource, settings: SettleSettings = SettleSettings()) -> None:
        self.camera = camera
        self.settings = settings
        self.wait = EyesWait(camera, settings)

    def begin(self, reference: Reference | None, on_wait: Callable[[WaitStatus], None], ask: Ask | None = None,
              carry: bool = False) -> None:
        self.wait.begin(reference, on_wait, ask, carry)

    def watch_table(self, reference: Reference | None) -> None:
        self.wait.watch_table(reference)

    def watch_area(self, corners, size: tuple[int, int] | None) -> None:
        """Watch only the play area (`vision.eyes.Eyes.watch_area`); None: the whole frame."""
        self.wait.eyes.watch_area(corners, size)

    def glance(self) -> ReadAhead | None:
        return self.wait.glance()

    def offered(self, read_early: Callable[[tuple[TimedFrame, ...]], None] | None = None) -> ReadFrames:
        return self.wait.offered(read_early)

    def explain(self, frames: tuple[TimedFrame, ...],
                tiles: tuple[tuple[TileOutline, ...] | None, ...]) -> SettledLook | Covered:
        return self.wait.explain(frames, tiles)

    def settled(self, look: SettledLook) -> Settled:
        return self.wait.settled(look)

    def frame(self) -> np.ndarray:
        return read_frame(self.camera, self.settings)

    def moved(self, frame: np.ndarray, since: np.ndarray) -> bool:
        """Whether the table changed between the two frames more than a still table does."""
        return frame_difference(frame, since) > eyes_settings(self.settings).still_level
