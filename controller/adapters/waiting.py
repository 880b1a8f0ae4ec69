"""What waiting for a still, clear table says and gives back: the values the table's runner
and the displays share with the settle adapter (`settle.py`), free of the camera and the nets."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the table's loop loads no vision: the settle adapter gives the defaults
    from vision.config import VisionConfig
    from vision.eyes_values import Covered, EyesSettings, TimedFrame


class WaitReason(Enum):
    TABLE_MOVING = "table moving"
    SOMETHING_OVER_TABLE = "something over the table"
    ARBITER_ASKED = "the arbiter is asked"  # covered too long: clear it, or the arbiter accepts the table as it is
    ACCEPTED = "table accepted by the arbiter"  # the arbiter took the table as seen for the reference
    NO_FRAMES = "camera gives no frames"
    SETTLED = "table clear"  # the wait is over; said only when a wait was said before


@dataclass(frozen=True)
class WaitStatus:
    reason: WaitReason
    detail: str  # what people at the table read: "something over the table, left edge", "table moving"
    frames: int  # frames taken so far in this wait


@dataclass(frozen=True)
class SettleSettings:
    eyes: EyesSettings | None = None  # when a table counts as settled (vision.eyes); None: EyesSettings()
    max_frames: int | None = None  # frames a wait may take before it fails (None: until it settles or the arbiter decides)
    frame_interval: float = 0.0  # seconds between reads (a live camera paces itself)
    camera_retries: int = 25  # failed reads in a row a live camera is allowed ...
    camera_retry_pause: float = 0.2  # ... this many seconds apart (5 s in all) before the wait fails
    vision: VisionConfig | None = None  # the occluder net's thresholds; None: vision's DEFAULT_CONFIG


@dataclass(frozen=True)
class WaitReport:
    """How a wait for a still, clear table went: the frame it settled on, and what held it up meanwhile."""

    frame: Any  # the settled camera image (a numpy array): the last frame the look rests on
    frames: int  # frames taken
    occluded_frames: int  # frames on which the table was covered
    moving_frames: int
    seconds: float
    checks: tuple[str, ...] = ()  # what the eyes checked, in words (vision.eyes.SettledLook)


@dataclass(frozen=True)
class ArbiterAsked:
    """The eyes, fed a frame, find the table covered too long: whoever waits asks the arbiter, who may
    accept the table as seen on `frame` (vision.eyes.Covered.ask_arbiter)."""

    covered: Covered
    frame: TimedFrame
