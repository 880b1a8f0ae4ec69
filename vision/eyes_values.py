"""What goes into the eyes (`vision.eyes`) and what comes out: frames with their times, the last
settled table, the eyes' thresholds, and the answers (moving, covered, read these, read these ahead, settled)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TileOutline = tuple[tuple[float, float], ...]  # a read tile's 4 corners in frame pixels


@dataclass(frozen=True)
class TimedFrame:
    image: np.ndarray  # BGR frame
    at: float  # seconds: the camera's timestamp (a video file: index / fps)


@dataclass(frozen=True)
class Reference:
    """The last settled table: its frame and the outlines of the tiles read on it."""

    image: np.ndarray
    tiles: tuple[TileOutline, ...] = ()
    codes: tuple[str, ...] = ()  # the code judged for each of `tiles` (empty: not known)
    # the table as it lay before (a restore's: the turn's start); what looks as it did then changed back
    earlier: np.ndarray | None = None
    # known clear only at its border: the table a game began on, before anything on it was read. Its border
    # band is what a wait compares with; the middle's changes are not checked against it (nothing read yet
    # tells which lie on tiles), as at a wait with no reference at all
    border_only: bool = False
    # the table bare, as the game began (its clear table): a cell that looks as it did then, light matched, is
    # bare table, whatever lay there since (tiles moved away from a veined marble leave the veins as they were)
    bare: np.ndarray | None = None


@dataclass(frozen=True)
class EyesSettings:
    """Every threshold of the eyes and of the looking around them, in seconds and grey levels (0..255),
    never in frames: a camera at 15 frames a second and one at 60 wait the same time."""

    still_level: float = 8.0  # grey levels a cell may change by between frames and still be still
    still_seconds: float = 0.5  # the frames a look rests on span at least this, with no motion between
    look_frames: int = 3  # frames offered for reading, spread over the still span
    # a still run this long names its first frame worth reading early, and its middle one once it spans half of
    # `still_seconds` (`Moving.worth_reading`): the look that rests on them finds them read (inf: never; 0: as
    # soon as two frames are still, so that the reading, the dearest part of a turn, runs while the span grows)
    read_early_seconds: float = 0.0
    ask_after_seconds: float = 10.0  # covered this long (or a first wait that cannot settle): ask the arbiter
    edge_cells: int = 1  # the border band, in cells (a cell is 1/40 of the frame's width)
    change_level: float = 20.0  # grey levels a cell must differ from the reference by (light matched) to count as changed
    least_unexplained_share: float = 0.004  # changed cells outside every tile, as a share of all cells, that mean "covered"
    # ... inside a find of the occluder net, which is evidence of its own: a phone put down half over a tile
    # still read there leaves few cells off that tile, and the net's box is where to count them
    net_least_unexplained_share: float = 0.002
    tile_margin_cells: int = 1  # a tile's outline explains the cells this far around it (its shadow, its side)
    border_level: float = 14.0  # colour levels a fine border cell (vision.eyes_border) must differ from the reference by to count as changed
    border_margin_seconds: float = 0.1  # frames this soon after motion in the fine border band are never offered
    # an old tile's outline explains a change only when a tile read now covers half of it or its cells
    # show bare table (vision.eyes_tiles): a phone lying over an old tile is not explained by it
    outlines_need_a_tile: bool = True
    # a find of the occluder net that reaches no frame edge holds a look up only until its frames are read: it
    # holds nothing up when every cell of it lies on a tile read on that frame and the border band is as in the
    # reference. Freshly laid tiles, blurred, on a dark top look like a hand to the net; a real hand is joined
    # to an arm that crosses the frame's border (which the border checks see) and is read as no tile
    net_finds_on_tiles_read: bool = True
    # ... nor when each of its cells off the tiles read looks as on the reference (a settled table the net saw
    # clear), light matched, or as the table before it or the bare top did: tiles taken back leave the table as
    # it lay, and a knot the net takes for a hand was there then too. A hand put down is changed off any tile
    net_finds_on_unchanged_table: bool = True
    # the net's finds are kept for the frames of this many looks (asked once per frame of a wait)
    net_memory_looks: int = 4
    # a frame named worth reading early stands in for a look's frame within this share of its still span
    early_stand_in_share: float = 0.25
    # an old tile's patch (vision.eyes_tiles), and the table around it, compared with what a frame shows now:
    bare_table_level: float = 24.0  # colour levels a cell may differ from the table around it and still be bare table
    patch_level: float = 28.0  # colour levels a pixel of a tile's patch may change by and still be unchanged
    patch_share: float = 0.02  # share of a patch's pixels that may change by more (noise, a glint) and it stay unchanged
    read_there_share: float = 0.5  # share of the larger outline two tiles must share for an old tile to be read there now
    in_place_share: float = 0.75  # ... for a tile read now to lie as the old tile lay (the reader's outlines vary a little)
    block_share: float = 0.25  # share of a block's pixels (a third of a tile wide) that may change by more, off the tiles
    block_tile_pixels: float = 18.0  # a tile's width in the copy the blocks are compared on
    # the looking around the eyes (controller.table, controller.adapters.settle):
    stale_after_seconds: float = 0.1  # without a look this long, a live camera's buffered frames are dropped
    watch_poll_seconds: float = 0.005  # the timer box is listened to this long between two frames watched in a turn


@dataclass(frozen=True)
class Moving:
    """The table is moving (or still for less than `still_seconds`: `still_for` says how long)."""

    at: float
    where: str  # "right edge", "middle", "" (still so far)
    still_for: float = 0.0
    # still so far, and clear to the net: frames of the run a look would rest on were it to hold (its first,
    # then its middle), worth reading while it grows (`EyesSettings.read_early_seconds`)
    worth_reading: tuple[TimedFrame, ...] = ()


@dataclass(frozen=True)
class Covered:
    """Something is over the table, or a change no tile explains: no verdict may rest on it."""

    at: float
    where: str  # "right edge", "top and left edges", "middle"
    since: float  # when this wait first saw the table covered
    reason: str  # "the occluder net", "entered at the right edge and has not left", "a change no tile explains"
    ask_arbiter: bool  # covered at least ask_after_seconds: the arbiter is asked to clear it or accept the table

    def describe(self) -> str:
        return f"something over the table, {self.where}: {self.reason}"


@dataclass(frozen=True)
class ReadFrames:
    """Still frames spread over at least `still_seconds`, each clear to the occluder net: read them all,
    then call `Eyes.explain` with their tiles."""

    frames: tuple[TimedFrame, ...]


@dataclass(frozen=True)
class SettledLook:
    """A look a verdict may rest on: its frames and the checks they passed, in words."""

    frames: tuple[TimedFrame, ...]
    checks: tuple[str, ...]

    @property
    def at(self) -> float:
        return self.frames[-1].at


@dataclass(frozen=True)
class ReadAhead:
    """While watching (a turn under way, `Eyes.watch`): the table has been still for `still_seconds` and the
    net sees nothing over these frames. A wait begun with `carry` before anything moves offers exactly
    these (`ReadFrames`) once a frame at or after its start shows the table still, so they may be read
    now, while there is time. Nothing is settled on them before that."""

    frames: tuple[TimedFrame, ...]


EyesAnswer = Moving | Covered | ReadFrames | ReadAhead  # what the eyes answer to a frame fed (`Eyes.feed`)
