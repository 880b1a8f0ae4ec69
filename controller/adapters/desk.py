"""The referee's desk: actions from the referee page, carried to the runner's thread.

The web server runs in another thread; it never writes the records. It puts a typed
`RefereeRequest` on the desk and waits for its answer; the runner takes requests between its
waits (its desk's `RefereeDeskWork.attend`), turns each into a typed event (who and why in it), checks it
against the state table and records it with the game's one write path (signed by the store). A
correction or an override is recorded and then acted on (the table read again); a clock action
is carried out by the box first and recorded once the box has done it, so a pause the box refuses
(the turn was ending) leaves no record. A request the state or the box refuses is answered with
the refusal in plain words and records nothing.
"""
from __future__ import annotations

import enum
import queue
from concurrent.futures import Future
from dataclasses import dataclass

from .errors import AdapterError


class DeskAction(str, enum.Enum):
    """The referee page's actions (`POST /api/referee/<action>`)."""

    CORRECT = "correct"  # a reading on the table (tile index -> code) or a rack laid open (its codes)
    ACCEPT_RESTORE = "accept-restore"  # the table as it lies ends the restore (compared and said so)
    OVERRIDE = "override"  # the penalty being restored is withdrawn: the turn stands as read
    PAUSE = "pause"  # pause (or, with `resume`, resume) the running turn's countdown
    EXTEND = "extend"  # give the running turn extra seconds
    ACCEPT_TABLE = "accept-table"  # the camera asks the arbiter: the table as it sees it now becomes its reference
    CONFIRM_PENALTY = "confirm-penalty"  # a penalty resting on tiles seen nowhere: the tiles did leave, record it
    TILES_THERE = "tiles-there"  # a penalty resting on tiles seen nowhere: they are there (read again, or these codes)
    AREA = "area"  # the table's play area from the next look on: the corners marked, or found by itself


class DeskError(AdapterError):
    """A referee request that cannot be carried out now (the answer names why)."""


@dataclass(frozen=True)
class RefereeRequest:
    action: DeskAction
    referee: str  # who (recorded in the event)
    reason: str  # why (recorded in the event)
    target: str | None = None  # correct: "table" or "rack:<player>"
    changes: tuple[tuple[int, str], ...] = ()  # correct table: (tile index, code)
    rack: tuple[str, ...] | None = None  # correct rack: the codes as they really are
    outcome: str | None = None  # override: an events.Override value
    seconds: int = 0  # extend
    resume: bool = False  # pause: resume instead
    corners: tuple[tuple[float, float], ...] | None = None  # area: the four corners marked (None: found by itself)
    frame: tuple[int, int] = (0, 0)  # area: width and height of the frame the corners are in


@dataclass(frozen=True)
class DeskAnswer:
    """What the runner did: the events recorded (kind, payload, seq) and a line for people."""

    recorded: tuple[dict, ...]
    said: str


class RefereeDesk:
    """A thread-safe queue of referee requests, each with the future its answer goes to."""

    def __init__(self) -> None:
        self._requests: queue.Queue[tuple[RefereeRequest, Future]] = queue.Queue()
        self.open = True  # False once no runner attends the desk any more

    def submit(self, request: RefereeRequest) -> Future:
        future: Future = Future()
        if not self.open:
            future.set_exception(DeskError("no game is running at this table"))
            return future
        self._requests.put((request, future))
        return future

    def take(self, timeout: float = 0.0) -> tuple[RefereeRequest, Future] | None:
        try:
            if timeout <= 0:
                return self._requests.get_nowait()
            return self._requests.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """No runner attends any more: what waits is answered with a refusal."""
        self.open = False
        while (item := self.take()) is not None:
            if item[1].set_running_or_notify_cancel():
                item[1].set_exception(DeskError("no game is running at this table"))


class PageReferee:
    """The referee answers on the referee page (`play --web`): a doubt the rules could not settle
    waits for a `correct` of the table there (the runner waits on the desk, `on_page`); a rack laid
    open is taken as read (the page may correct it, and the game is scored again); the arbiter's
    button between turns corrects nothing by itself (the page's `correct` of the table does)."""

    on_page = True

    def settle_table(self, model, table, doubts):
        raise DeskError("doubtful tiles are settled on the referee page")

    def check_rack(self, player, codes, expected, doubts):
        return None, "taken as read; the referee page may correct it"

    def notice_table(self, model, table):
        return (), "a set noticed: correct it on the referee page"

    def held_penalty(self, model, held):
        raise DeskError("a held penalty is answered on the referee page")
