"""The table's eyes: which reading of the table stands. Sans I/O, like `controller.clock.machine`.

What the eyes at the camera say (`vision.eyes`, behind the watch port: moving, frames worth
reading early, frames offered, covered and asking the arbiter, a settled look) and the readings of
the frames go in; a typed decision comes out: look again, read these frames first, read these
offered frames, hand these readings to the eyes' explain, ask the arbiter, or this reading stands.
No camera, clock, reader, box or database inside: the runner's looking (`looking.py`) carries each
decision out and feeds back what it got.

It owns everything that decides which reading stands:

* the last settled table (`reference`: what the eyes compare with) and the last table read and
  judged (`judged`: what each frame's reading is steadied against, `controller.game.steady`), with
  that table's fused reading, kept for a frame in which the table lies exactly as it lay;
* the frames read ahead while a turn runs (`WATCHING`), read early while the table steadies, and
  the readings of the frames offered, kept by frame time;
* the arbiter's ask (`ASKING`): the covered table and its frame, while the eyes ask.

The eyes' values (`vision.eyes_values`) are loaded when the table is first looked at: the table's
loop itself loads no vision.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from controller.game.events import NO_TILE
from controller.game.fusion import Fusion, FusionSettings, fuse, settle_presence
from controller.game.reading import TableReading
from controller.game.steady import judged_tiles, steady_reading

if TYPE_CHECKING:
    from controller.adapters.waiting import ArbiterAsked
    from vision.eyes_values import Covered, EyesSettings, Moving, ReadAhead, ReadFrames, Reference, SettledLook, TimedFrame

Frame = Any  # one camera image (a numpy array; passed on, never looked into here but by vision)

LIES_AS_READ = "the table lies as on the last table read, pixel for pixel: its reading is kept, not made again"
# a frame of a look in which the table lies as on a frame of the same look already read
LIES_AS_IN_LOOK = "the table lies as on a frame of this look already read, pixel for pixel: its reading is kept"


def _vision():
    """The eyes' values, loaded when the table is first looked at."""
    from vision import eyes_values

    return eyes_values


class EyesMode(enum.Enum):
    IDLE = "idle"  # between waits, no turn watched
    WATCHING = "watching"  # a turn runs: the frames a press now would rest on are read ahead
    WAITING = "waiting"  # a wait: frames read early, then offered, read and explained
    ASKING = "asking"  # the wait asks the arbiter: the referee page may accept the table as seen


# decisions ------------------------------------------------------------------------------
@dataclass(frozen=True)
class LookAgain:
    """Nothing to do but feed the next frame (the table moves, or is covered and nobody is asked yet)."""

    why: str = ""


@dataclass(frozen=True)
class ReadFirst:
    """Frames a look would rest on were the still run to hold: worth reading now, while there is time."""

    frames: tuple[TimedFrame, ...]


@dataclass(frozen=True)
class ReadOffered:
    """The eyes offer these frames: read those not read yet (`to_read`), then `explain` them."""

    frames: tuple[TimedFrame, ...]
    to_read: tuple[TimedFrame, ...]


@dataclass(frozen=True)
class AskArbiter:
    """Covered too long: the arbiter (the button, or the referee page) may accept the table as seen on `frame`."""

    covered: Covered
    frame: TimedFrame


@dataclass(frozen=True)
class ReadingStands:
    """The eyes settled on the offered frames: their readings, steadied, fused into the one that stands."""

    look: SettledLook
    readings: tuple[tuple[TableReading, float], ...]  # each frame's reading, steadied, and ms its reading took
    fusion: Fusion
    read_ahead: int  # frames of it read while the turn ran, before the wait began
    read_ahead_ms: float


Decision = LookAgain | ReadFirst | ReadOffered | AskArbiter | ReadingStands


@dataclass(frozen=True)
class ReadBefore:
    """A frame read before the eyes offered it (ahead, while the turn ran; early, while the table steadied)."""

    image: Frame
    reading: TableReading  # as the reader read it
    elapsed: float  # ms the reading took
    judged: Reference | None  # the table it was steadied against
    steadied: TableReading  # the reading steadied against `judged`


def _known(read: dict[float, ReadBefore], frame: TimedFrame) -> ReadBefore | None:
    """The reading made before of `frame`, if it is that frame's."""
    known = read.get(frame.at)
    return known if known is not None and known.image is frame.image else None


def outlines(reading: TableReading) -> tuple[tuple[tuple[float, float], ...], ...]:
    return tuple(tile.corners for tile in reading.tiles if len(tile.corners) >= 3)


def codes(reading: TableReading) -> tuple[str, ...]:
    """The codes of the tiles `outlines` gives, in its order."""
    return tuple(tile.code for tile in reading.tiles if len(tile.corners) >= 3)


def steadied(judged: Reference | None, image: Frame, reading: TableReading, radius: float,
             light=None, settings: EyesSettings | None = None) -> TableReading:
    """A frame's reading made to agree with the last table read and judged (`judged`: its frame, the
    outlines and codes of its tiles) wherever the frame's patch is unchanged since, light matched
    (`controller.game.steady`; `light`: the gain and offset already fitted between the two frames, if
    they were). The comparison is with the frame that was read, never with one
    nobody read: a tile laid while nobody read changed the patch since, so it is read as it is."""
    if judged is None or not judged.codes or len(judged.codes) != len(judged.tiles):
        return reading
    from vision.eyes_tiles import unchanged_tiles

    judged_count = len(judged.tiles)  # one comparison (one light fit) for the judged tiles and the read ones
    read_outlines = tuple(tile.corners for tile in reading.tiles)
    unchanged = unchanged_tiles(judged.image, tuple(judged.tiles) + read_outlines, image, light,
                                settings or _vision().EyesSettings())
    return steady_reading(reading, judged_tiles(judged.tiles, judged.codes, unchanged[:judged_count]),
                          unchanged[judged_count:], radius)


def answered(judged: Reference | None, changes, tiles_read: int) -> Reference | None:
    """The last table read, as the referee answered its doubts (`changes`: (tile index, code or
    NO_TILE) into the table read, which held `tiles_read` tiles in the order of `judged`'s). Readings
    are steadied against it, so a tile the referee said is not there is never put back from it, nor
    a code the referee corrected kept. A reference whose tiles do not line up with the table read
    is left as it is."""
    if judged is None or not changes or len(judged.tiles) != tiles_read or len(judged.codes) != tiles_read:
        return judged
    codes = list(judged.codes)
    gone = set()
    for index, code in changes:
        if not 0 <= index < tiles_read:
            return judged
        if code == NO_TILE:
            gone.add(index)
        else:
            codes[index] = code
    kept = [i for i in range(tiles_read) if i not in gone]
    return replace(judged, tiles=tuple(judged.tiles[i] for i in kept), codes=tuple(codes[i] for i in kept))


KEPT_FRAMES = 8  # frames of a wait remembered as kept from another or as steadied (a look rests on 3)


def _remember(memory: dict, image: Frame, entry: tuple) -> None:
    """`entry` kept under the frame's id (each entry holds its frame: an id never stands for another frame),
    the oldest let go of beyond KEPT_FRAMES."""
    memory.pop(id(image), None)
    memory[id(image)] = entry
    while len(memory) > KEPT_FRAMES:
        memory.pop(next(iter(memory)))


class TableEyes:
    """Which reading of the table stands: one wait (or one turn watched) at a time."""

    def __init__(self, settings: EyesSettings | None = None, fusion: FusionSettings = FusionSettings(),
                 reference: Reference | None = None, judged: Reference | None = None, read_once: bool = True) -> None:
        self._settings = settings
        self.read_once = read_once  # a frame of a look that lies as the frame last read keeps its reading
        self.fusion = fusion
        self.mode = EyesMode.IDLE
        self.reference = reference  # the last settled table: what the eyes compare with
        self.judged = judged  # the last table read and judged: what each reading is steadied against
        # that table's fused reading, with the `judged` it belongs to (a referee's answer or a resume replaces
        # `judged`, and the reading no longer stands for it)
        self.judged_reading: tuple[Reference, TableReading] | None = None
        # the room's light fitted when a frame was last compared with the last table read: (that table's frame,
        # the frame, the gain and offset), so that steadying the frame's reading does not fit it again
        self.compared_light: tuple[Frame, Frame, tuple] | None = None
        self.watched_turn: int | None = None  # the turn whose table is watched (WATCHING, or carried into a wait)
        self.asking: tuple[Covered, Frame] | None = None  # ASKING: what the eyes ask the arbiter about
        self.ahead: dict[float, ReadBefore] = {}  # read while the turn ran, by frame time
        self.to_read: list[TimedFrame] = []  # frames a press now would rest on, not yet read ahead
        self._ahead_of_wait: dict[float, ReadBefore] = {}  # read ahead of this wait, before it began
        self._early: dict[float, ReadBefore] = {}  # read while this wait's table steadied
        self._offered: tuple[TimedFrame, ...] = ()
        self._read: dict[float, tuple[Frame, TableReading, float]] = {}  # the offered frames read in this wait
        # the frame last read in this wait (or ahead of it) and its reading as the reader made it: a frame of
        # the look in which the table lies as it lay there keeps that reading (`kept_reading`)
        self._last_read: tuple[Frame, TableReading] | None = None
        # by id of a frame kept that way, the frame it was kept from; and by id of each frame steadied in this
        # wait, the table it was steadied against and the steadied reading: a frame kept from another is
        # steadied as that one was (its patches are that frame's)
        self._same_as: dict[int, tuple[Frame, Frame]] = {}
        self._steadied_of: dict[int, tuple[Frame, Reference | None, TableReading]] = {}
        self._keep_unsure = False

    @property
    def settings(self) -> EyesSettings:
        if self._settings is None:
            self._settings = _vision().EyesSettings()
        return self._settings

    # ----------------------------------------------------------------- modes

    def begin(self, turn: int | None = None, carry: bool = False, keep_unsure: bool = False) -> bool:
        """A wait begins (a press, a turn's start, a restore's change). With `carry`, the wait at the end of
        `turn`: True when that turn's table was watched, so the eyes carry the still run that led up to the
        press and the frames read ahead stand (else they are dropped). With `keep_unsure`, a tile only some
        frames see is kept in the reading that stands, unsure, rather than outvoted."""
        carried = carry and self.watched_turn is not None and self.watched_turn == turn
        self._keep_unsure = keep_unsure
        self.mode, self.asking, self.watched_turn, self.to_read = EyesMode.WAITING, None, None, []
        self._ahead_of_wait = self.ahead if carried else {}
        self.ahead, self._early, self._offered, self._read = {}, {}, (), {}
        self._last_read = self._last_of(self._ahead_of_wait)
        if not carried:
            self._same_as, self._steadied_of = {}, {}
        return carried

    def watch(self, turn: int) -> bool:
        """While `turn` runs: True when its table is to be watched from now (the eyes begin watching it)."""
        if self.mode is EyesMode.WATCHING and self.watched_turn == turn:
            return False
        self.mode, self.watched_turn, self.ahead, self.to_read = EyesMode.WATCHING, turn, {}, []
        self._last_read, self._same_as, self._steadied_of = None, {}, {}
        return True

    def stop_watching(self) -> None:
        """The camera failed while watching: the wait at the press meets it, as ever."""
        self.mode, self.watched_turn = EyesMode.IDLE, None

    def area_changed(self) -> None:
        """The play area moved: what was read ahead in the old one is read again."""
        self.ahead = {}

    def glanced(self, ahead: ReadAhead | None) -> None:
        """A frame watched while the turn runs: frames offered to read ahead replace those not read yet."""
        if ahead is not None:
            self.to_read = list(ahead.frames)

    def next_to_read(self) -> TimedFrame | None:
        """The next frame to read ahead while the turn runs, one between two looks at the timer box."""
        return self.to_read.pop(0) if self.to_read else None

    def read_ahead(self, frame: TimedFrame, reading: TableReading, elapsed: float) -> None:
        self.ahead[frame.at] = ReadBefore(frame.image, reading, elapsed, self.judged, self._steady_once(frame.image, reading))
        self._last_read = (frame.image, reading)

    def read_early(self, frame: TimedFrame, reading: TableReading, elapsed: float) -> None:
        self._early[frame.at] = ReadBefore(frame.image, reading, elapsed, self.judged, self._steady_once(frame.image, reading))
        self._last_read = (frame.image, reading)

    @staticmethod
    def _last_of(read: dict[float, ReadBefore]) -> tuple[Frame, TableReading] | None:
        if not read:
            return None
        last = read[max(read)]
        return last.image, last.reading

    # ------------------------------------------------------------------ a wait

    def heard(self, said: Moving | ReadFrames | Covered | ArbiterAsked | SettledLook) -> Decision:
        """What the eyes at the camera said (while waiting), as what to do next."""
        eyes = _vision()
        if isinstance(said, eyes.ReadFrames):
            self._offered, self._read = said.frames, {}
            return ReadOffered(said.frames, tuple(f for f in said.frames if self._before(f) is None))
        if isinstance(said, eyes.Moving):
            worth = tuple(f for f in said.worth_reading if self._before(f) is None)
            return ReadFirst(worth) if worth else LookAgain(said.where)
        if isinstance(said, eyes.Covered):  # the offered frames, read, do not explain the table
            self._last_read = None  # nor does their reading: the next offer's frames are read afresh
            if said.ask_arbiter:
                return self._ask(said, self._offered[-1])
            return LookAgain(said.describe())
        if isinstance(said, eyes.SettledLook):
            return self._stands(said)
        return self._ask(said.covered, said.frame)  # ArbiterAsked, while feeding frames

    def _ask(self, covered: Covered, frame: TimedFrame) -> AskArbiter:
        self.mode, self.asking = EyesMode.ASKING, (covered, frame.image)
        return AskArbiter(covered, frame)

    def ask_to_confirm(self, covered: Covered, image: Frame) -> None:
        """The referee is asked to confirm the clear table as it is seen on `image` (a game's start)."""
        self.mode, self.asking = EyesMode.ASKING, (covered, image)

    def confirmed(self, image: Frame) -> Reference:
        """The referee confirmed the clear table: it is the reference, whole (every change from it must
        lie on a tile), not only at its border as a table the eyes settled on by themselves."""
        self.mode, self.asking = EyesMode.IDLE, None
        self.reference = _vision().Reference(image, bare=image)
        return self.reference

    def not_accepted(self) -> None:
        """The arbiter did not accept the table (yet): the wait goes on."""
        self.mode, self.asking = EyesMode.WAITING, None

    def accepted(self) -> None:
        """The arbiter accepted the table as seen: the eyes at the camera take it as their reference (the
        table's own `reference` stays the last settled one) and the wait goes on."""
        self.mode, self.asking = EyesMode.WAITING, None

    def read(self, frame: TimedFrame, reading: TableReading, elapsed: float) -> None:
        """An offered frame's reading, as the reader read it (or kept: `kept_reading`)."""
        self._read[frame.at] = (frame.image, reading, elapsed)
        self._last_read = (frame.image, reading)

    def explain(self, unread: bool = False) -> tuple[tuple[TimedFrame, ...], tuple]:
        """The offered frames and the outlines read on each (None each when `unread`), for the eyes' explain."""
        if unread:
            return self._offered, tuple(None for _ in self._offered)
        return self._offered, tuple(outlines(self._reading(frame)[0]) for frame in self._offered)

    def settled_unread(self, look: SettledLook) -> Reference:
        """A wait that read nothing settled: the reference moves to its last frame (`unread_reference`)."""
        self.mode = EyesMode.IDLE
        self.reference = self.unread_reference(look.frames[-1].image)
        return self.reference

    def unread_reference(self, image: Frame) -> Reference:
        """The eyes' reference moved to a frame that was not read: the tiles stay and carry no codes (the
        readings are steadied against the last table read, `judged`, not against this frame)."""
        if self.reference is None:  # the table as the game began: its border is known clear, nothing on it read
            return _vision().Reference(image, border_only=True, bare=image)
        return replace(self.reference, image=image, codes=())

    def _before(self, frame: TimedFrame) -> ReadBefore | None:
        return _known(self._ahead_of_wait, frame) or _known(self._early, frame)

    def _reading(self, frame: TimedFrame) -> tuple[TableReading, float]:
        known = self._before(frame)
        if known is not None:
            return known.reading, known.elapsed
        _, reading, elapsed = self._read[frame.at]
        return reading, elapsed

    def _stands(self, look: SettledLook) -> ReadingStands:
        self.mode = EyesMode.IDLE
        readings = []
        for frame in look.frames:
            known = self._before(frame)
            reading, elapsed = self._reading(frame)
            steady = (known.steadied if known is not None and known.judged is self.judged
                      else self._steady_once(frame.image, reading))
            readings.append((steady, elapsed))
        before = [k for k in (_known(self._ahead_of_wait, f) for f in look.frames) if k is not None]
        fusion = self.fused(readings, self._keep_unsure)
        return ReadingStands(look, tuple(readings), self.present(fusion, look.frames[-1].image), len(before),
                             sum(k.elapsed for k in before))

    def present(self, fusion: Fusion, image: Frame) -> Fusion:
        """The fusion of a settled look (its last frame `image`) with the tiles some frames missed settled
        as lying there where their patch changed since the last settled table (`settle_presence`)."""
        if (self.reference is None or self.reference.image.shape != image.shape
                or not any(u.presence for u in fusion.unsure)):
            return fusion
        from vision.eyes_tiles import unchanged_tiles

        tiles = fusion.reading.tiles
        unchanged = unchanged_tiles(self.reference.image, tuple(tile.corners for tile in tiles), image, None,
                                    self.settings)
        changed = tuple(len(tile.corners) >= 3 and not same for tile, same in zip(tiles, unchanged))
        return settle_presence(fusion, changed, self.fusion)

    def fused(self, readings, keep_unsure: bool = False) -> Fusion:
        """The readings of one still table's frames fused into one (`controller.game.fusion`)."""
        return fuse([reading for reading, _ in readings], replace(self.fusion, keep_unsure=keep_unsure))

    def judged_as(self, image: Frame, reading: TableReading) -> None:
        """The look that stood, fused into `reading` on the frame `image`: the next wait's reference, and
        what the next readings are steadied against."""
        bare = self.reference.bare if self.reference is not None else None  # the game's bare table rides along
        self.reference = self.judged = _vision().Reference(image, outlines(reading), codes(reading), bare=bare)
        self.judged_reading = (self.judged, reading)

    def compare_with_earlier(self, image: Frame) -> None:
        """The waits compare with `image` as well, the table as it lay before the reference (a restore's
        turn start, `Reference.earlier`): what looks as it did then changed back."""
        if self.reference is not None:
            self.reference = replace(self.reference, earlier=image)

    def answered(self, changes, tiles_read: int) -> None:
        """The referee answered the last table read's doubts: readings are steadied against the answer."""
        self.judged = answered(self.judged, changes, tiles_read)

    # --------------------------------------------------------------- readings

    def steady(self, image: Frame, reading: TableReading) -> TableReading:
        """The frame's reading steadied against the last table read and judged (see `steadied`)."""
        light = self.compared_light
        judged_image = None if self.judged is None else self.judged.image
        light = light[2] if light is not None and light[0] is judged_image and light[1] is image else None
        return steadied(self.judged, image, reading, self.fusion.match_radius, light, self.settings)

    def _explains_a_miss(self) -> bool:
        """Whether a tile the one reading of a look missed would be caught: against a reference of tiles read
        (not only its border), a tile laid on bare table and not read is a change no tile explains, and the
        wait reads the next look afresh. A game's first look, against the clear table's border only, reads
        every frame, so that the frames' readings are voted on."""
        return self.reference is not None and not self.reference.border_only

    def _steady_once(self, image: Frame, reading: TableReading) -> TableReading:
        """`steady`, or for a frame whose reading was kept from another frame of this wait (`kept_reading`),
        that frame's steadied reading, saying it was kept."""
        same = self._same_as.get(id(image))
        source = same[1] if same is not None and same[0] is image else None
        known = self._steadied_of.get(id(source)) if source is not None else None
        if known is not None and known[0] is source and known[1] is self.judged:
            steady = known[2]
            if LIES_AS_IN_LOOK in reading.warnings and LIES_AS_IN_LOOK not in steady.warnings:
                steady = replace(steady, warnings=steady.warnings + (LIES_AS_IN_LOOK,))
        else:
            steady = self.steady(image, reading)
        _remember(self._steadied_of, image, (image, self.judged, steady))
        return steady

    def kept_reading(self, image: Frame) -> TableReading | None:
        """A reading kept for `image` instead of reading it again, saying so; None: the frame is to be read.
        Where the table lies in it exactly as on the frame last read in this wait (the same pixels in the
        area read, no light matched: `vision.same_table.still_as_read`), that frame's reading: a still
        table's frames are read once, the look's other frames compared with it (not in a game's first
        look, `_explains_a_miss`). Else, where it lies exactly as on the last table read (light matched:
        `vision.same_table.lies_as_read`), that table's reading: a turn that left the table as it was (a
        draw) is judged without reading again."""
        from vision.eyes_tiles import light_between
        from vision.same_table import lies_as_read, still_as_read

        if self.read_once and self._last_read is not None and self._explains_a_miss():
            before, reading = self._last_read
            if before is image:
                return reading
            if still_as_read(before, outlines(reading), image, reading.area, self.settings):
                _remember(self._same_as, image, (image, before))
                if LIES_AS_READ in reading.warnings:  # kept from the last table read already: says so once
                    return reading
                warnings = tuple(w for w in reading.warnings if w != LIES_AS_IN_LOOK) + (LIES_AS_IN_LOOK,)
                return replace(reading, warnings=warnings)
        kept = self.judged_reading
        if kept is None or kept[0] is not self.judged:
            return None
        judged, reading = kept
        light = light_between(judged.image, image)
        self.compared_light = (judged.image, image, light)
        if not lies_as_read(judged.image, judged.tiles, image, reading.area, light, self.settings):
            return None
        warnings = tuple(w for w in reading.warnings if w != LIES_AS_READ) + (LIES_AS_READ,)
        return replace(reading, warnings=warnings)
