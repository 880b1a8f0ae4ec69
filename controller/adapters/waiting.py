"""What waiting for a still, clear table says and gives back: the values the table's runner
and the displays share with the settle adapter (`settle.py`), free of the camera and the nets."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.config import VisionConfig


class WaitReason(Enum):
    TABLE_MOVING = "table moving"
    SOMETHING_OVER_TABLE = "something over the table"
    NO_FRAMES = "camera gives no frames"
    SETTLED = "table clear"  # the wait is over; said only when a wait was said before


@dataclass(frozen=True)
class WaitStatus:
    reason: WaitReason
    detail: str  # what people at the table read: "something over the table, left edge", "table moving"
    frames: int  # frames taken so far in this wait


@dataclass(frozen=True)
class SettleSettings:
    still_frames: int = 3
    max_frames: int = 600
    still_level: float = 8.0  # grey levels (0..255) no cell may change by for a frame to be still
    frame_interval: float = 0.0  # seconds between reads (a live camera paces itself)
    camera_retries: int = 25  # failed reads in a row a live camera is allowed ...
    camera_retry_pause: float = 0.2  # ... this many seconds apart (5 s in all) before the wait fails
    # With no reference (a game's first wait), something that stays exactly still this many
    # frames in a row is taken as part of the table: a reflection or a cup the net takes for
    # something never moves, a hand does. It is said, so the referee can look.
    first_wait_patience: int = 50
    vision: VisionConfig | None = None  # the occluder net's thresholds; None: vision's DEFAULT_CONFIG


@dataclass(frozen=True)
class Settled:
    frame: Any  # the settled camera image (a numpy array)
    frames: int  # frames taken
    occluded_frames: int  # still frames refused because something was over the table
    moving_frames: int
    seconds: float
