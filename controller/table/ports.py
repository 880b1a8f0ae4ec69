"""What the table's runner needs of the world, as small Protocols; `controller/adapters/` has the real ones.

The runner never opens a device, encodes a photo or compares frames itself: it asks these ports.
The messages they carry (a timer's signal, a settled frame, a referee page's request) are the
adapters' own value types, from modules that need no camera, serial link or database
(`adapters/signals.py`, `waiting.py`, `desk.py`), imported here so that the runner names only
this module.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol, runtime_checkable

from controller.adapters.desk import DeskAction, DeskAnswer, DeskError, RefereeRequest
from controller.adapters.errors import AdapterError
from controller.adapters.frames import Camera
from controller.adapters.signals import Incident, SignalKind, TimerSignal
from controller.adapters.waiting import ArbiterAsked, SettleSettings, WaitReason, WaitReport, WaitStatus
from controller.game.events import Doubt, Event, GameScored, TableUnrestorable, TurnJudged
from controller.game.machine import GameModel, HeldPenalty, State, TableState
from controller.game.reading import TableReading

if TYPE_CHECKING:  # named in the records' protocol only: importing them would open the SQLite module
    from controller.records import Photo, RecordedEvent
    # the eyes' values (vision.eyes): the watch's words; the loop never loads vision itself
    from vision.eyes_values import Covered, Moving, ReadAhead, ReadFrames, Reference, SettledLook, TileOutline, TimedFrame

Frame = Any  # one camera image (a numpy array to the adapters; the runner only passes it on)

__all__ = [
    "AdapterError", "AdjustsClock", "ArbiterAsked", "Camera", "DeskAction", "DeskAnswer", "DeskError", "Display",
    "Frame", "Incident", "KeepsArea", "NamesPort", "PhotoEncoder", "Reader", "Referee", "RefereeDesk",
    "RefereeOnPage", "RefereeRequest", "SettleSettings", "SignalKind", "TableDevices", "TableRecords", "TableWatch",
    "Timer", "TimerSignal", "WaitReason", "WaitReport", "WaitStatus", "WatchesArea", "WatchesTurns",
]

# What a port may do besides what every adapter of it does is declared here, each as a named
# capability (`isinstance(device, WatchesTurns)`), never probed by a method's name.


class TableWatch(Protocol):
    """The camera as the runner looks through it, with the eyes (`vision.eyes`) behind it: a wait begins
    against the last settled table; `offered` feeds frames until it has something for the runner (frames
    offered to read, frames worth reading early (`Moving.worth_reading`), or the arbiter to be asked:
    `ArbiterAsked`); `explain` checks what was read on the offered frames; `accept` takes the table as
    the arbiter accepted it; `settled` reports the wait. Besides: the next frame, and whether the table
    moved. Which reading stands is decided by the table's eyes (`controller.table.eyes`), not here."""

    def begin(self, reference: Reference | None, on_wait: Callable[[WaitStatus], None]) -> None: ...

    def offered(self) -> ReadFrames | Moving | ArbiterAsked: ...

    def explain(self, frames: tuple[TimedFrame, ...], tiles: tuple[tuple[TileOutline, ...] | None, ...]
                ) -> SettledLook | Covered: ...

    def accept(self, frame: TimedFrame) -> None: ...

    def settled(self, look: SettledLook) -> WaitReport: ...

    def frame(self) -> Frame: ...

    def moved(self, frame: Frame, since: Frame) -> bool: ...


@runtime_checkable
class WatchesTurns(Protocol):
    """A watch that also watches the table while a turn runs (`watch_table(reference)`, then `glance()`,
    each one frame, giving the frames worth reading ahead or None), and carries that into the wait at the
    press (`begin(..., carry=True)`)."""

    def watch_table(self, reference: Reference | None) -> None: ...

    def glance(self) -> ReadAhead | None: ...

    def begin(self, reference: Reference | None, on_wait: Callable[[WaitStatus], None], carry: bool = False) -> None: ...


@runtime_checkable
class WatchesArea(Protocol):
    """A watch that watches only the play area marked (`watch_area(corners, (width, height))`; None: the whole frame)."""

    def watch_area(self, corners, size: tuple[int, int] | None) -> None: ...


class PhotoEncoder(Protocol):
    """A frame as the photo the records keep (encoded, named by its sha256), and a recorded photo decoded
    back into a frame (None: it cannot be), so a resumed game compares with its last settled photo."""

    def photo(self, frame: Frame) -> Photo: ...

    def frame(self, photo: Photo) -> Frame | None: ...


class Timer(Protocol):
    """The timer box (a box that can also pause, resume and extend a countdown: `AdjustsClock`)."""

    def start_turn(self, seat: int, seconds: int) -> None: ...

    def arm(self, seat: int, seconds: int) -> None: ...

    def stop(self) -> None: ...

    def show(self, text: str) -> None: ...

    def wait(self, timeout: float) -> TimerSignal | None: ...

    def close(self) -> None: ...


@runtime_checkable
class AdjustsClock(Protocol):
    """A timer box that pauses, resumes and extends a countdown (the referee page's clock actions)."""

    def pause(self) -> None: ...

    def resume(self) -> None: ...

    def extend(self, seconds: int) -> None: ...


@runtime_checkable
class NamesPort(Protocol):
    """A timer that names the port its box is on (said at the table when the link drops or comes back)."""

    port: str


class Reader(Protocol):
    def read(self, frame: Frame) -> TableReading: ...


@runtime_checkable
class ReadsInPart(Protocol):
    """A reader that reads a frame again only where it changed since its last whole read: asked, it reads
    the next frame whole (a look again, where a tile was missed on the same pixels)."""

    def read_whole_next(self) -> None: ...


@runtime_checkable
class KeepsArea(Protocol):
    """A reader that reads in a play area: marked by the referee (kept in `area_file`), found on the clear
    table as the game began and kept, or found on each frame."""

    area_file: Any  # where the marked area is kept (None: nowhere)

    def area_in_force(self) -> tuple[Any, int, int] | None: ...  # the area marked (corners, width, height)

    def area_read_in(self) -> tuple[Any, int, int] | None: ...  # the area read in now, marked or kept

    def mark_area(self, corners, width: int, height: int) -> None: ...

    def find_area(self) -> None: ...  # found on each frame from now on

    def find_area_on(self, frame: Frame) -> tuple[Any, int, int] | None: ...

    def keep_area(self, corners, width: int, height: int) -> None: ...


class Display(Protocol):
    def say(self, text: str) -> None: ...

    def verdict(self, event: TurnJudged, head: str = "") -> None: ...

    def restore(self, event: TurnJudged, photo: bytes | None, suffix: str) -> None: ...

    def unrestorable(self, event: TableUnrestorable) -> None: ...

    def scores(self, event: GameScored, head: str = "") -> None: ...

    def waiting(self, status: WaitStatus) -> None: ...


class Referee(Protocol):
    def settle_table(self, model: GameModel, table: TableState, doubts: tuple[Doubt, ...]
                     ) -> tuple[tuple[tuple[int, str], ...], str]: ...

    def check_rack(self, player: str, codes: tuple[str, ...], expected: int, doubts: tuple[Doubt, ...]
                   ) -> tuple[tuple[str, ...] | None, str]: ...

    def notice_table(self, model: GameModel, table: TableState) -> tuple[tuple[tuple[int, str], ...], str]: ...

    def held_penalty(self, model: GameModel, held: HeldPenalty) -> tuple[str, tuple[tuple[int, str], ...], str]: ...


@runtime_checkable
class RefereeOnPage(Protocol):
    """A referee who answers on the referee page (the runner waits on the desk for the answer)."""

    on_page: bool


class RefereeDesk(Protocol):
    """The referee page's requests, each with the future its answer goes to."""

    def take(self, timeout: float = 0.0) -> tuple[RefereeRequest, Any] | None: ...


class TableRecords(Protocol):
    """The records as the runner uses them (`controller.records.Records`); writes go through the
    game's journal (`controller.game.journal.GameJournal`), the one write path."""

    def require_intact(self, game_id: int, *, ring: Any = True) -> Any: ...

    def events(self, game_id: int) -> list[Event]: ...

    def recorded(self, game_id: int) -> list[RecordedEvent]: ...

    def head(self, game_id: int) -> tuple[int, str]: ...

    def photo(self, sha: str) -> Photo | None: ...

    def reading(self, sha: str, photo: str | None = None) -> Any: ...

    path: Any  # where the records are (the `tileref correct` line names it; None: in memory)

    def start_game(self, first: Event, *, state: State, **info: Any) -> int: ...

    def append(self, game_id: int, event: Event, *, photos: Iterable[Photo] = (), readings: Iterable[Any] = (),
               state: State) -> Any: ...


@dataclass
class TableDevices:
    """The table's devices. `watch` and `photos` default to the adapters' camera watch and JPEG
    encoder around `camera` (what `play` and `demo` use); a test may hand its own."""

    camera: Camera | None
    timer: Timer
    reader: Reader
    display: Display
    referee: Referee
    desk: RefereeDesk | None = None  # the referee page's requests (`play --web`), carried out by the runner
    watch: TableWatch | None = None
    photos: PhotoEncoder | None = None
