"""What the table's runner needs of the world, as small Protocols; `controller/adapters/` has the real ones.

The runner never opens a device, encodes a photo or compares frames itself: it asks these ports.
The messages they carry (a timer's signal, a settled frame, a referee page's request) are the
adapters' own value types, from modules that need no camera, serial link or database
(`adapters/signals.py`, `waiting.py`, `desk.py`), imported here so that the runner names only
this module.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol

from controller.adapters.desk import DeskAction, DeskAnswer, DeskError, RefereeRequest
from controller.adapters.errors import AdapterError
from controller.adapters.signals import Incident, SignalKind, TimerSignal
from controller.adapters.waiting import Settled, SettleSettings, WaitStatus
from controller.game.events import Doubt, Event, GameScored, TableUnrestorable, TurnJudged
from controller.game.machine import GameModel, HeldPenalty, State, TableState
from controller.game.reading import TableReading

if TYPE_CHECKING:  # named in the records' protocol only: importing them would open the SQLite module
    from controller.records import Photo, RecordedEvent
    # the eyes' values (vision.eyes): the watch's words; the loop never loads vision itself
    from vision.eyes_values import Covered, ReadFrames, Reference, SettledLook, TileOutline, TimedFrame

Frame = Any  # one camera image (a numpy array to the adapters; the runner only passes it on)

__all__ = [
    "AdapterError", "Camera", "DeskAction", "DeskAnswer", "DeskError", "Display", "Frame", "Incident", "PhotoEncoder", "Reader",
    "Referee", "RefereeDesk", "RefereeRequest", "SettleSettings", "Settled", "SignalKind", "TableDevices",
    "TableRecords", "TableWatch", "Timer", "TimerSignal", "WaitStatus",
]


class Camera(Protocol):
    def read(self) -> Frame: ...

    def close(self) -> None: ...


class TableWatch(Protocol):
    """The camera as the runner looks through it, with the eyes (`vision.eyes`) behind it: a wait begins
    against the last settled table, offers still frames to read, and settles once the eyes explain
    what was read on them; besides, the next frame, and whether the table moved. A watch may also
    watch the table while a turn runs (`watch_table(reference)`, then `glance()`, each one frame,
    giving a `vision.eyes_values.ReadAhead` or None) and carry that into the wait at the press
    (`begin(..., carry=True)`), and watch only the play area marked (`watch_area(corners, (width,
    height))`, None: the whole frame); the runner uses these when the watch has them. `offered` may
    hand the frames a growing still run would rest on to `read_early` (each a tuple of
    `TimedFrame`s), between two frames, so the look finds them read."""

    def begin(self, reference: Reference | None, on_wait: Callable[[WaitStatus], None],
              ask: Callable[[Covered, TimedFrame], bool] | None = None) -> None: ...

    def offered(self, read_early: Callable[[tuple[TimedFrame, ...]], None] | None = None) -> ReadFrames: ...

    def explain(self, frames: tuple[TimedFrame, ...], tiles: tuple[tuple[TileOutline, ...] | None, ...]
                ) -> SettledLook | Covered: ...

    def settled(self, look: SettledLook) -> Settled: ...

    def frame(self) -> Frame: ...

    def moved(self, frame: Frame, since: Frame) -> bool: ...


class PhotoEncoder(Protocol):
    """A frame as the photo the records keep (encoded, named by its sha256). An encoder that can also
    decode a recorded photo (`frame(photo)`) lets a resumed game compare with its last settled photo."""

    def photo(self, frame: Frame) -> Photo: ...


class Timer(Protocol):
    """The timer box. A box that can also pause, resume and extend a countdown (the referee page's
    clock actions) has `pause()`, `resume()` and `extend(seconds)`; the runner asks before it offers them."""

    def start_turn(self, seat: int, seconds: int) -> None: ...

    def arm(self, seat: int, seconds: int) -> None: ...

    def stop(self) -> None: ...

    def show(self, text: str) -> None: ...

    def wait(self, timeout: float) -> TimerSignal | None: ...

    def close(self) -> None: ...


class Reader(Protocol):
    def read(self, frame: Frame) -> TableReading: ...


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
