"""The runner's settings and the few constants of how it waits."""
from __future__ import annotations

from dataclasses import dataclass

from controller.game.fusion import FusionSettings
from controller.game.racks import RackSettings
from controller.game.rebuild import RebuildSettings

from .ports import Incident, SettleSettings

ARBITER = "A"
WAIT_SLICE = 0.25  # seconds: how long one wait for the timer box lasts before looking again
NOTICE_WINDOW = 0.05  # seconds the still table waits for the arbiter's button before the next turn starts
LOOK_AGAIN = 2  # times the table is looked at again when tiles that cannot leave it are seen nowhere
# incidents said at the table as well as recorded: the box stopped answering, or answers again
LINK_INCIDENTS = (Incident.DISCONNECTED, Incident.RECONNECTED)


@dataclass(frozen=True)
class RunnerSettings:
    settle: SettleSettings = SettleSettings()
    rebuild: RebuildSettings = RebuildSettings()
    rack: RackSettings = RackSettings()
    photo_format: str = ".jpg"
    photo_quality: int = 85
    prompt_timeout: float | None = None  # seconds to wait for a button at a prompt (None: forever)
    # the frames of a settled look (settle.eyes.look_frames, spread over at least half a second) are
    # each read and fused into one reading, so that a flicker in one frame never reaches the judge
    fusion: FusionSettings = FusionSettings()
    # a still table is read once per look: a frame of it in which the table lies exactly as on the frame
    # read (`vision.same_table`) keeps that reading (a game's first look, and a look after one whose
    # readings explained nothing, read every frame); False: every frame is read, so a reader that flickers
    # on the same pixels is outvoted by the fusion (at a full reading's cost per frame)
    read_once: bool = True
    starter: str | None = None  # skip the start draw: this player starts
    # the referee confirms the play area found on the clear table as a game begins (the arbiter's button, or
    # accept on the referee page, where its corners can be dragged first): the table so confirmed is the
    # first wait's reference, whole, not only at its border
    confirm_area: bool = False
