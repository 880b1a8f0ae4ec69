"""Wait until the table is still and no hand is over it (frame differencing).

A frame counts as still when it hardly differs from the one before (mean absolute grey
difference on a small copy). A hand is a large blob that is skin-coloured, differs from
the last settled photo of the table, and touches the edge of the picture (an arm always
reaches in from a side; a tile lifted from a meld does not touch the edge). The table is
settled after `still_frames` still frames in a row with no hand.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from .camera import FrameSource
from .errors import CameraError

WORK_WIDTH = 240  # pixels: plenty to see a hand or a moving tile, cheap to compare


@dataclass(frozen=True)
class SettleSettings:
    still_frames: int = 3
    max_frames: int = 600
    still_level: float = 1.5  # mean absolute grey difference (0..255) below which a frame is still
    changed_level: int = 30  # a pixel differing by more than this from the reference has changed
    hand_share: float = 0.01  # share of the picture a skin blob must cover to be a hand
    frame_interval: float = 0.0  # seconds between reads (a live camera paces itself)


@dataclass(frozen=True)
class Settled:
    frame: np.ndarray
    frames: int  # frames taken
    hand_frames: int  # frames refused because a hand was over the table
    seconds: float


def small_grey(frame: np.ndarray) -> np.ndarray:
    h, w = frame.shape[:2]
    scale = WORK_WIDTH / float(w)
    small = cv2.resize(frame, (WORK_WIDTH, max(1, int(round(h * scale)))), interpolation=cv2.INTER_AREA)
    return small


def hand_over_table(frame: np.ndarray, reference: np.ndarray | None, settings: SettleSettings = SettleSettings()) -> bool:
    small = small_grey(frame)
    ycrcb = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    skin = cv2.inRange(ycrcb, (40, 138, 77), (255, 178, 125))
    if reference is not None:
        ref = small_grey(reference)
        if ref.shape == small.shape:
            changed = np.abs(small.astype(np.int16) - ref.astype(np.int16)).max(axis=2) > settings.changed_level
            skin = skin & (changed.astype(np.uint8) * 255)
    skin = cv2.morphologyEx(skin, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
    h, w = skin.shape
    for label in range(1, count):
        x, y, bw, bh, area = stats[label]
        touches_edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
        if touches_edge and area >= settings.hand_share * h * w:
            return True
    return False


def wait_until_settled(
    camera: FrameSource,
    reference: np.ndarray | None,
    settings: SettleSettings = SettleSettings(),
    sleep: Callable[[float], None] = time.sleep,
) -> Settled:
    """Read frames until `still_frames` in a row are still and show no hand."""
    started = time.perf_counter()
    flush = getattr(camera, "flush", None)
    if flush is not None:
        flush()
    previous: np.ndarray | None = None
    still = hands = 0
    for taken in range(1, settings.max_frames + 1):
        frame = camera.read()
        grey = cv2.cvtColor(small_grey(frame), cv2.COLOR_BGR2GRAY).astype(np.int16)
        moving = previous is None or previous.shape != grey.shape or np.abs(grey - previous).mean() > settings.still_level
        previous = grey
        if moving:
            still = 0
        elif hand_over_table(frame, reference, settings):
            hands += 1
            still = 0
        else:
            still += 1
            if still >= settings.still_frames - 1:  # n still frames = n-1 still differences
                return Settled(frame, taken, hands, time.perf_counter() - started)
        if settings.frame_interval:
            sleep(settings.frame_interval)
    raise CameraError(f"the table did not settle within {settings.max_frames} frames (hand over it or moving)")
