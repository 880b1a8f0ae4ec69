"""The recorded facts of a game. The game state is a fold over these (see `machine`).

Each event is a frozen dataclass with plain JSON-able fields (str, int, bool, None and
tuples of them), so its canonical JSON is stable and can be hash-chained. Decisions the
controller took (a verdict, a start order, a score) are recorded as they were taken, so a
replay never depends on a later version of the rules.
"""
from __future__ import annotations

import dataclasses
import enum
import json
from typing import Any, ClassVar

from .errors import EventDataError


class EventKind(str, enum.Enum):
    GAME_CREATED = "game-created"
    START_ORDER_DRAWN = "start-order-drawn"
    DEALT = "dealt"
    REDEAL_CLAIMED = "redeal-claimed"
    TURN_STARTED = "turn-started"
    TURN_ENDED = "turn-ended"
    TIMER_INCIDENT = "timer-incident"
    TABLE_READ = "table-read"
    REFEREE_CORRECTION = "referee-correction"
    TURN_JUDGED = "turn-judged"
    RESTORE_CHECKED = "restore-checked"
    COUNT_ALERT = "count-alert"
    RACK_REVEALED = "rack-revealed"
    GAME_SCORED = "game-scored"
    DEAL_ACCEPTED = "deal-accepted"
    TABLE_UNRESTORABLE = "table-unrestorable"
    CLOCK = "clock"  # a shogi/othello/mahjong clock game (`tileref clock`, controller/clock)
    VERDICT_OVERRIDDEN = "verdict-overridden"  # the referee page overrides a verdict (who and why)
    CLOCK_ADJUSTED = "clock-adjusted"  # the referee page pauses, resumes or extends the running turn


# A tile as placed on the table: (code, x, y) in image pixels of the photo it was read from.
PlacedTile = tuple[str, float, float]
# A doubt the reader could not settle: (tile index, candidate codes best first, why).
Doubt = tuple[int, tuple[str, ...], str]


@dataclasses.dataclass(frozen=True)
class Event:
    kind: ClassVar[EventKind]
    # fields added after records of the kind were written: left out of the payload while None, so
    # an event recorded before them keeps its shape (and its hash chain)
    OPTIONAL_FIELDS: ClassVar[tuple[str, ...]] = ()

    def payload(self) -> dict[str, Any]:
        data = {f.name: _to_json(getattr(self, f.name)) for f in dataclasses.fields(self)}
        for name in self.OPTIONAL_FIELDS:
            if data[name] is None:
                del data[name]
        return data

    def canonical_json(self) -> str:
        return canonical_json({"kind": self.kind.value, "payload": self.payload()})


@dataclasses.dataclass(frozen=True)
class GameCreated(Event):
    kind: ClassVar[EventKind] = EventKind.GAME_CREATED
    variant: str  # the rule set's name
    players: tuple[str, ...]  # in seat order, clockwise
    turn_seconds: int
    # the whole rule set the game is played by, as (field, value) pairs of RuleSet.to_dict():
    # a resumed or audited game is judged by what it recorded, never by the code's defaults
    ruleset: tuple[tuple[str, Any], ...] = ()
    # Records written before the whole rule set was recorded hold these two facts instead
    # (and no `ruleset`); they are read as the named variant with these two settings.
    pool_out_ends_at_last_draw: bool | None = None
    count_mismatch_disqualifies: bool | None = None
    # The table's Ed25519 public key (base64 of its 32 bytes) and its short fingerprint: every later
    # event is signed with it (records/signing.py). Set by the records when the game is written;
    # games recorded before signing have neither. Not part of equality: the same game created at
    # another table is the same game, only signed by another key.
    table_key: str | None = dataclasses.field(default=None, compare=False)
    key_id: str | None = dataclasses.field(default=None, compare=False)

    LEGACY_FIELDS: ClassVar[tuple[str, ...]] = ("pool_out_ends_at_last_draw", "count_mismatch_disqualifies")
    KEY_FIELDS: ClassVar[tuple[str, ...]] = ("table_key", "key_id")

    def payload(self) -> dict[str, Any]:
        """As recorded: an old game's payload keeps its old shape, so its hash chain still holds."""
        data = super().payload()
        if self.pool_out_ends_at_last_draw is None and self.count_mismatch_disqualifies is None:
            for name in self.LEGACY_FIELDS:
                del data[name]
        else:
            del data["ruleset"]
        for name in self.KEY_FIELDS:  # unsigned games (recorded before signing) keep their shape too
            if data[name] is None:
                del data[name]
        return data


@dataclasses.dataclass(frozen=True)
class StartOrderDrawn(Event):
    kind: ClassVar[EventKind] = EventKind.START_ORDER_DRAWN
    draws: tuple[tuple[str, str], ...]  # (player, tile code drawn)
    starter: str | None  # None: a tie, draw again
    photo: str | None  # sha256 of the photo of the drawn tiles


@dataclasses.dataclass(frozen=True)
class Dealt(Event):
    kind: ClassVar[EventKind] = EventKind.DEALT
    deal: int  # 1 for the first deal, 2 after a redeal, ...


@dataclasses.dataclass(frozen=True)
class DealAccepted(Event):
    """world: nobody asked for a redeal right after the deal; play begins."""

    kind: ClassVar[EventKind] = EventKind.DEAL_ACCEPTED
    deal: int


@dataclasses.dataclass(frozen=True)
class RedealClaimed(Event):
    kind: ClassVar[EventKind] = EventKind.REDEAL_CLAIMED
    player: str
    shown: tuple[str, ...]
    granted: bool
    reason: str


@dataclasses.dataclass(frozen=True)
class TurnStarted(Event):
    kind: ClassVar[EventKind] = EventKind.TURN_STARTED
    turn: int
    player: str
    seconds: int
    photo: str | None  # sha256 of the photo taken at the start of the turn


@dataclasses.dataclass(frozen=True)
class TurnEnded(Event):
    kind: ClassVar[EventKind] = EventKind.TURN_ENDED
    turn: int
    cause: str  # "button" | "expired" | "skipped" (no countdown: the next seat's button started theirs)
    button: str | None  # "1".."4" seat buttons, "A" the arbiter's
    seconds_left: int | None


@dataclasses.dataclass(frozen=True)
class TimerIncident(Event):
    kind: ClassVar[EventKind] = EventKind.TIMER_INCIDENT
    incident: str  # "device-reset" | "disconnected" | "reconnected" | "restarted-after-resume" ...
    detail: str


@dataclasses.dataclass(frozen=True)
class TableRead(Event):
    kind: ClassVar[EventKind] = EventKind.TABLE_READ
    purpose: str  # "turn" | "alarm" (the table as it lay when the time ran out) | "restore"
    photo: str | None
    reading: str | None  # sha256 of the raw reading stored in the records
    tiles: tuple[PlacedTile, ...]
    sets: tuple[tuple[int, ...], ...]  # indices into tiles, each set in reading order
    doubts: tuple[Doubt, ...]
    settled: tuple[tuple[int, str, str, str], ...]  # (tile index, read code, chosen code, why)


@dataclasses.dataclass(frozen=True)
class RefereeCorrection(Event):
    kind: ClassVar[EventKind] = EventKind.REFEREE_CORRECTION
    target: str  # "table" or "rack:<player>"
    changes: tuple[tuple[int, str], ...]  # table: (tile index, code the referee says)
    rack: tuple[str, ...] | None  # rack: the codes the referee says
    note: str  # why
    referee: str | None = None  # who: the name given on the referee page (None: at the table, or older records)

    OPTIONAL_FIELDS: ClassVar[tuple[str, ...]] = ("referee",)


@dataclasses.dataclass(frozen=True)
class TurnJudged(Event):
    kind: ClassVar[EventKind] = EventKind.TURN_JUDGED
    turn: int
    player: str
    outcome: str  # "legal" | "draw" | "penalty" | "relieved"
    played: tuple[str, ...]
    taken: tuple[str, ...]
    violations: tuple[tuple[str, str], ...]  # (rule, detail)
    draw: int  # tiles the player draws from the pool for this turn (no play, or the penalty)
    penalty_points: int  # the score change, e.g. -50 (0 where the variant has none)
    opened_now: bool  # this turn laid a legal initial meld
    restore_required: bool  # the table must be put back as before the turn, checked by the camera
    restore_to_rack: tuple[str, ...]
    restore_table: tuple[tuple[str, ...], ...]


@dataclasses.dataclass(frozen=True)
class RestoreChecked(Event):
    kind: ClassVar[EventKind] = EventKind.RESTORE_CHECKED
    photo: str | None
    reading: str | None
    matches: bool
    differences: tuple[str, ...]
    tiles: tuple[PlacedTile, ...]
    sets: tuple[tuple[int, ...], ...]
    # True: the arbiter accepted the table as it lies (`matches` is then True: the restore is over).
    # `differences` then says how it differs from the table it had to show (empty: it matches);
    # records made before that hold ("accepted by the arbiter",): not compared (see ARBITER_UNCHECKED)
    by_referee: bool
    referee: str | None = None  # who accepted it on the referee page (None: the arbiter's button)
    note: str | None = None  # why

    OPTIONAL_FIELDS: ClassVar[tuple[str, ...]] = ("referee", "note")
    ARBITER_UNCHECKED: ClassVar[tuple[str, ...]] = ("accepted by the arbiter",)

    @property
    def accepted_mismatch(self) -> bool:
        """The arbiter accepted a table that does not show what it had to."""
        return self.by_referee and bool(self.differences) and self.differences != self.ARBITER_UNCHECKED


@dataclasses.dataclass(frozen=True)
class TableUnrestorable(Event):
    """The arbiter says the table of a failed turn cannot be put back: what stays, where the rest goes."""

    kind: ClassVar[EventKind] = EventKind.TABLE_UNRESTORABLE
    turn: int
    player: str
    photo: str | None
    reading: str | None
    tiles: tuple[PlacedTile, ...]  # the table as it lay when the restore was given up
    sets: tuple[tuple[int, ...], ...]
    kept: tuple[tuple[str, ...], ...]  # the valid sets that stay (to be laid as shown when `relay`)
    relay: bool
    to_offender: tuple[str, ...]
    to_pool: tuple[str, ...]  # to the end of the pool
    missing: tuple[str, ...]  # tiles of the table before that were not on the table at all
    rack_change: int  # tiles the offender's rack gains against the rack before the turn


@dataclasses.dataclass(frozen=True)
class CountAlert(Event):
    kind: ClassVar[EventKind] = EventKind.COUNT_ALERT
    turn: int
    table: int
    racks: int
    pool: int
    expected: int
    disqualified: bool


@dataclasses.dataclass(frozen=True)
class RackRevealed(Event):
    kind: ClassVar[EventKind] = EventKind.RACK_REVEALED
    player: str
    codes: tuple[str, ...]
    expected: int  # tiles the count says the rack holds
    photo: str | None
    reading: str | None
    doubts: tuple[Doubt, ...]


@dataclasses.dataclass(frozen=True)
class GameScored(Event):
    kind: ClassVar[EventKind] = EventKind.GAME_SCORED
    end: str  # "empty-rack" | "pool-out"
    winner: str
    scores: tuple[tuple[str, int], ...]
    wins: tuple[tuple[str, int], ...] | None


@dataclasses.dataclass(frozen=True)
class ClockRecorded(Event):
    """One fact of a `tileref clock` game: a press, a flag fall, a pause, a result (see controller/clock)."""

    kind: ClassVar[EventKind] = EventKind.CLOCK
    what: str  # controller.clock.ClockFact value: "started", "pressed", "flag-fell", "paused", ...
    player: str | None  # whom it concerns (the presser, the flagged side), None for the table
    ms_left: tuple[tuple[str, int], ...]  # each clock's time left as the box said, where known
    detail: str


class Override(str, enum.Enum):
    """What a referee may turn a verdict into (VerdictOverridden.outcome)."""

    LEGAL = "legal"  # a penalty withdrawn before its restore: the turn stands as the table was read


@dataclasses.dataclass(frozen=True)
class VerdictOverridden(Event):
    """The referee overrides the verdict of the turn being restored (referee page): who and why."""

    kind: ClassVar[EventKind] = EventKind.VERDICT_OVERRIDDEN
    turn: int
    player: str
    outcome: str  # an Override value
    referee: str  # who
    reason: str  # why


class ClockAdjustment(str, enum.Enum):
    """What a referee may do to the running turn's countdown (ClockAdjusted.action)."""

    PAUSE = "pause"
    RESUME = "resume"
    EXTEND = "extend"


@dataclasses.dataclass(frozen=True)
class ClockAdjusted(Event):
    """The referee pauses, resumes or extends the running turn's countdown (referee page)."""

    kind: ClassVar[EventKind] = EventKind.CLOCK_ADJUSTED
    turn: int
    action: str  # a ClockAdjustment value
    seconds: int  # extend: seconds given; 0 otherwise
    referee: str  # who
    reason: str  # why


EVENT_TYPES: dict[EventKind, type[Event]] = {
    cls.kind: cls
    for cls in (
        GameCreated, StartOrderDrawn, Dealt, RedealClaimed, TurnStarted, TurnEnded, TimerIncident,
        TableRead, RefereeCorrection, TurnJudged, RestoreChecked, CountAlert, RackRevealed, GameScored,
        DealAccepted, TableUnrestorable, ClockRecorded, VerdictOverridden, ClockAdjusted,
    )
}


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def event_from_payload(kind: str, payload: dict[str, Any]) -> Event:
    """Rebuild an event from its recorded kind and payload; refuses unknown or missing fields."""
    try:
        event_kind = EventKind(kind)
    except ValueError:
        raise EventDataError(f"unknown event kind {kind!r}") from None
    cls = EVENT_TYPES[event_kind]
    if not isinstance(payload, dict):
        raise EventDataError(f"event {kind!r}: payload must be an object, got {payload!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    optional = {f.name for f in dataclasses.fields(cls) if f.default is not dataclasses.MISSING}
    missing, extra = names - set(payload) - optional, set(payload) - names
    if missing or extra:
        raise EventDataError(
            f"event {kind!r}: missing fields {sorted(missing)!r}, unexpected fields {sorted(extra)!r}"
        )
    return cls(**{name: _from_json(payload[name]) for name in names if name in payload})


def _to_json(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_to_json(v) for v in value]
    if isinstance(value, float):
        return round(value, 2)  # pixel positions: 0.01 px is plenty, and keeps the JSON stable
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value
