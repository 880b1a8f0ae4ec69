"""The camera as the table's runner looks through it (`controller.table.ports.TableWatch`).

Settling, reading a frame and telling a moved table from a still one are `settle.py`'s: this
adapter only ties them to one camera and one set of settings, so the runner compares frames the
one way the settle wait does.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .camera import FrameSource
from .settle import Settled, SettleSettings, WaitStatus, frame_difference, read_frame, wait_until_settled


class CameraWatch:
    def __init__(self, camera: FrameSource, settings: SettleSettings = SettleSettings()) -> None:
        self.camera = camera
        self.settings = settings

    def settle(self, reference: np.ndarray | None, on_wait: Callable[[WaitStatus], None]) -> Settled:
        return wait_until_settled(self.camera, reference, self.settings, on_wait=on_wait)

    def frame(self) -> np.ndarray:
        return read_frame(self.camera, self.settings)

    def moved(self, frame: np.ndarray, since: np.ndarray) -> bool:
        """Whether the table changed between the two frames more than a still table does."""
        return frame_difference(frame, since) > self.settings.still_level
