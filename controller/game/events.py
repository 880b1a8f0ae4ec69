"""The recorded facts of a game. The game state is a fold over these (see `machine`).

Each event is a frozen dataclass whose fields are JSON-able values (str, int, bool, None and
tuples of them), so its canonical JSON is stable and can be hash-chained. A field with a closed
set of values holds a `StrEnum` member, and a row of a table field is a `NamedTuple` with named
fields: both are written exactly as the plain string or list they stand for, so the payload (and
every hash and signature over it) is the same bytes it always was. Constructors still take the
plain values (a string, a plain tuple) and turn them into the typed ones; a value outside the
field's set is refused with an `EventDataError` naming the field and the value.

The values of these enums are a wire format: a value once recorded is never removed or renamed,
or old records stop loading.

Decisions the controller took (a verdict, a start order, a score) are recorded as they were
taken, so a replay never depends on a later version of the rules.
"""
from __future__ import annotations

import dataclasses
import enum
import json
from typing import Any, ClassVar, NamedTuple

from controller.rules.judge import Outcome, Rule
from controller.rules.scoring import GameEnd

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
    TABLE_ACCEPTED = "table-accepted"  # the arbiter accepts the table as the camera sees it, though something seems over it
    PENALTY_HELD = "penalty-held"  # a penalty resting on tiles seen nowhere waits for the referee
    HELD_PENALTY_ANSWERED = "held-penalty-answered"  # the referee confirms it, or says the tiles are there
    PLAY_AREA_SET = "play-area-set"  # the table's play area from the next look on: marked, or found by itself


# ------------------------------------------------------------------ closed sets of values


class TurnEndCause(enum.StrEnum):
    """How a turn ended (TurnEnded.cause)."""

    BUTTON = "button"  # the player's seat button (or the arbiter's)
    EXPIRED = "expired"  # the countdown ran out
    SKIPPED = "skipped"  # no countdown: the next seat's button started theirs (RuleSet.timer_skip_for_simple_turns)


class Incident(enum.StrEnum):
    """What happened to the timer box or its link (TimerIncident.incident). The timer adapter reports
    all but the last two; the runner records those itself."""

    DISCONNECTED = "disconnected"  # the link went; the account keeps counting
    RECONNECTED = "reconnected"  # back with the clock intact (or with nothing running)
    DEVICE_RESET = "device-reset"  # the box rebooted while no clock of ours ran
    CLOCK_RESTORED = "clock-restored"  # the box lost the running clock: our account's time given back
    RESTORE_FAILED = "restore-failed"  # the box refused or missed the restore (retried until it takes it)
    FRAMES_LOST = "frames-lost"  # a sequence gap; the driver asks the box its state
    STATE_RECOVERED = "state-recovered"  # a press or expiry frame was lost; the box's state tells it
    LINK_NOISE = "link-noise"  # a replayed button line, dropped
    BOX = "box"  # an incident from a timer that names no kind (an older adapter)
    RESTARTED_AFTER_RESUME = "restarted-after-resume"  # `play --resume` started the turn's countdown again


class ReadPurpose(enum.StrEnum):
    """Why the table was read (TableRead.purpose)."""

    TURN = "turn"  # the table as the turn left it: what is judged
    ALARM = "alarm"  # the table as it lay when the time ran out (tiles laid later are not the turn's)
    RESTORE = "restore"  # read while a failed turn's table is put back


class CorrectionTarget(enum.StrEnum):
    """What a referee corrects (RefereeCorrection.target_kind)."""

    TABLE = "table"  # the table read of the turn (or the accepted table, noticed late)
    RACK = "rack"  # a rack laid open at the end: recorded as "rack:<player>"


class Override(enum.StrEnum):
    """What a referee may turn a verdict into (VerdictOverridden.outcome)."""

    LEGAL = "legal"  # a penalty withdrawn before its restore: the turn stands as the table was read


class HeldAnswer(enum.StrEnum):
    """The referee's answer to a penalty that rests on tiles seen nowhere (HeldPenaltyAnswered.answer)."""

    CONFIRMED = "confirmed"  # the tiles really left the table: the penalty is recorded as judged
    TILES_THERE = "tiles-there"  # the tiles are on the table: read it again, or take them back with the referee's codes


class ClockAdjustment(enum.StrEnum):
    """What a referee may do to the running turn's countdown (ClockAdjusted.action)."""

    PAUSE = "pause"
    RESUME = "resume"
    EXTEND = "extend"


class AreaSource(enum.StrEnum):
    """Where the table's play area comes from (PlayAreaSet.how)."""

    MARKED = "marked"  # four corners marked by the referee on a frame of the table's camera
    FOUND = "found"  # none marked: found on each frame from the table's edges and where the tiles lie
    # none marked: found by itself on the clear table as the game began (four corners), kept for the game
    FOUND_ONCE = "found-once"


class ClockFact(enum.StrEnum):
    """One fact of a `tileref clock` game (ClockRecorded.what; controller.clock.machine makes them)."""

    STARTED = "started"
    PRESSED = "pressed"
    FLAG_FELL = "flag-fell"
    PAUSED = "paused"
    RESUMED = "resumed"
    REPETITION = "repetition"
    REPLAY_STARTED = "replay-started"
    SESSION_ENDED = "session-ended"
    RESULT = "result"
    BOX = "box"  # the box or its link (reset, disconnect): recorded, never a press or a flag
    RESTORED = "restored"  # a rebooted box was given back each clock's time and the side to move


# ------------------------------------------------------------------ rows of table fields


class PlacedTile(NamedTuple):
    """A tile as placed on the table, in image pixels of the photo it was read from."""

    code: str
    x: float
    y: float


class Doubt(NamedTuple):
    """A tile the reader could not settle: left to the referee."""

    index: int  # into the event's tiles
    candidates: tuple[str, ...]  # codes, best first
    why: str


class SettledDoubt(NamedTuple):
    """A doubtful tile the rules settled (only one code fits the table)."""

    index: int  # into the event's tiles
    read: str  # the code the reader gave
    chosen: str  # the code taken
    why: str


class StartDraw(NamedTuple):
    """One player's tile drawn for the start order."""

    player: str
    code: str


NO_TILE = "none"  # a referee's answer to a doubt: there is no tile where one was read


class TileChange(NamedTuple):
    """A referee's word on one tile of the table read."""

    index: int  # into the table read's tiles
    code: str  # the code the referee says, or NO_TILE: no tile lies there (it leaves the reading)


class AreaCorner(NamedTuple):
    """A corner of a marked play area, in pixels of the frame it was marked on."""

    x: float
    y: float


class BrokenRule(NamedTuple):
    """A rule a turn broke (or an informative note, e.g. no-tile-played), as the verdict said it."""

    rule: Rule
    detail: str  # the rules core's wording of why


class PlayerPoints(NamedTuple):
    player: str
    points: int


class ClockTime(NamedTuple):
    player: str
    ms: int  # time left on the player's clock, as the box said


# ------------------------------------------------------------------ events


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

    # Typed fields are set here, after the dataclass's own __init__: callers (and old code) may
    # pass the plain strings and tuples a record holds.

    def _enum(self, name: str, values: type[enum.Enum]) -> None:
        value = getattr(self, name)
        if isinstance(value, values):
            return
        try:
            member = values(value)
        except (ValueError, TypeError):
            raise EventDataError(
                f"{type(self).__name__}.{name}: unknown value {value!r}; one of "
                + ", ".join(repr(m.value) for m in values)
            ) from None
        object.__setattr__(self, name, member)

    def _rows(self, name: str, row: type[tuple], optional: bool = False) -> None:
        value = getattr(self, name)
        if value is None and optional:
            return
        rows = [_row(row, item, f"{type(self).__name__}.{name}") for item in _sequence(value, self, name)]
        object.__setattr__(self, name, tuple(rows))


def _sequence(value: Any, event: Event, name: str) -> tuple:
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise EventDataError(f"{type(event).__name__}.{name}: expected a list of rows, got {value!r}")
    return tuple(value)


def _row(row: Any, item: Any, where: str) -> tuple:
    if isinstance(item, row):
        return item
    fields = row._fields
    if isinstance(item, (str, bytes, dict)) or not hasattr(item, "__iter__") or len(tuple(item)) != len(fields):
        raise EventDataError(f"{where}: a row is ({', '.join(fields)}), got {item!r}")
    made = row(*item)
    if row is BrokenRule:
        try:
            made = made._replace(rule=Rule(made.rule))
        except (ValueError, TypeError):
            raise EventDataError(f"{where}: unknown rule {made.rule!r}") from None
    elif row is Doubt:
        made = made._replace(candidates=tuple(made.candidates))
    return made


@dataclasses.dataclass(frozen=True)
class GameCreated(Event):
    """The first event of a game: who plays, by which rules, signed by which table key.

    variant: the rule set's name. players: in seat order, clockwise. turn_seconds: each turn's
    countdown. ruleset: the whole rule set as (field, value) pairs of RuleSet.to_dict(), so a resumed
    or audited game is judged by what it recorded, never by the code's defaults.
    pool_out_ends_at_last_draw, count_mismatch_disqualifies: what records made before the whole rule
    set was recorded hold instead of `ruleset`. table_key, key_id: the table's Ed25519 public key
    (base64) and fingerprint; every later event is signed with it (None: recorded before signing).
    table_and_event: (table name, tournament event, tournament game) the result belongs to;
    unsigned_before: the database's unsigned games when this one was created (see the fields).
    watch_delay: seconds the spectator feed stays behind the table (None: not set; docs/broadcast.md).
    """

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
    # Where the result goes, under the signature like everything else the result rests on:
    # (table name, tournament event, tournament game, e.g. "R1-T2-G1"), each None where unsaid.
    # Set by the records with the key; None in games recorded before it was signed.
    table_and_event: tuple[str | None, str | None, str | None] | None = dataclasses.field(default=None,
                                                                                          compare=False)
    # The games of the database that were unsigned when this game was created, as (first id, last
    # id) ranges (usually none): what proves an unsigned game there predates signing rather than
    # had its signatures stripped (records/verification/unsigned.py). None in games recorded before it was signed.
    unsigned_before: tuple[tuple[int, int], ...] | None = dataclasses.field(default=None, compare=False)
    # How many seconds the spectator feed (/watch) stays behind the table, as the organiser set it
    # (0..3600); left out of the payload while None (no delay set), so older games keep their shape.
    watch_delay: int | None = None

    OPTIONAL_FIELDS: ClassVar[tuple[str, ...]] = ("watch_delay",)
    LEGACY_FIELDS: ClassVar[tuple[str, ...]] = ("pool_out_ends_at_last_draw", "count_mismatch_disqualifies")
    KEY_FIELDS: ClassVar[tuple[str, ...]] = ("table_key", "key_id", "table_and_event", "unsigned_before")

    def __post_init__(self) -> None:
        link = self.table_and_event
        if link is not None and not (isinstance(link, tuple) and len(link) == 3
                                     and all(v is None or isinstance(v, str) for v in link)):
            raise EventDataError(f"GameCreated.table_and_event: expected [table, event, game] (text or null), "
                                 f"got {link!r}")
        ranges = self.unsigned_before
        if ranges is not None and not (isinstance(ranges, tuple) and all(
                isinstance(r, tuple) and len(r) == 2 and all(type(v) is int for v in r) and r[0] <= r[1]
                for r in ranges)):
            raise EventDataError(f"GameCreated.unsigned_before: expected [[first, last], ...] game ids, got {ranges!r}")

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
    """One round of drawing tiles for the start order (or the starter given without a draw).

    draws: each player's drawn tile, StartDraw(player, code); empty when the starter was given
    (by lot, or named). starter: who starts, None for a tie (those tied draw again).
    photo: sha256 of the photo of the drawn tiles, None without one.
    """

    kind: ClassVar[EventKind] = EventKind.START_ORDER_DRAWN
    draws: tuple[StartDraw, ...]
    starter: str | None  # None: a tie, draw again
    photo: str | None  # sha256 of the photo of the drawn tiles

    def __post_init__(self) -> None:
        self._rows("draws", StartDraw)


@dataclasses.dataclass(frozen=True)
class Dealt(Event):
    """The tiles were dealt. deal: 1 for the first deal, 2 after a redeal, ..."""

    kind: ClassVar[EventKind] = EventKind.DEALT
    deal: int  # 1 for the first deal, 2 after a redeal, ...


@dataclasses.dataclass(frozen=True)
class DealAccepted(Event):
    """world: nobody asked for a redeal right after the deal; play begins. deal: which deal."""

    kind: ClassVar[EventKind] = EventKind.DEAL_ACCEPTED
    deal: int


@dataclasses.dataclass(frozen=True)
class RedealClaimed(Event):
    """A player asked for a redeal. player: who; shown: the tile codes shown; granted: whether the
    rule set grants it; reason: the rules core's words (doubled tiles counted against the minimum)."""

    kind: ClassVar[EventKind] = EventKind.REDEAL_CLAIMED
    player: str
    shown: tuple[str, ...]
    granted: bool
    reason: str


@dataclasses.dataclass(frozen=True)
class TurnStarted(Event):
    """A seat's countdown started. turn: 1-based; player: whose; seconds: the countdown;
    photo: sha256 of the photo of the table as the turn started (the table a restore goes back to)."""

    kind: ClassVar[EventKind] = EventKind.TURN_STARTED
    turn: int
    player: str
    seconds: int
    photo: str | None  # sha256 of the photo taken at the start of the turn


@dataclasses.dataclass(frozen=True)
class TurnEnded(Event):
    """The running turn ended.

    turn: the turn that ended. cause: a TurnEndCause ("button", "expired", "skipped"). button: the
    button pressed, "1".."4" a seat's, "A" the arbiter's (None when the time ran out).
    seconds_left: the box's countdown at the press (None where unknown).
    """

    kind: ClassVar[EventKind] = EventKind.TURN_ENDED
    turn: int
    cause: TurnEndCause
    button: str | None  # "1".."4" seat buttons, "A" the arbiter's
    seconds_left: int | None

    def __post_init__(self) -> None:
        self._enum("cause", TurnEndCause)


@dataclasses.dataclass(frozen=True)
class TimerIncident(Event):
    """Something happened to the timer box or its link; recorded, never a press or an expiry.

    incident: an Incident ("device-reset", "disconnected", "reconnected", "clock-restored", ...).
    detail: the adapter's words.
    """

    kind: ClassVar[EventKind] = EventKind.TIMER_INCIDENT
    incident: Incident
    detail: str

    def __post_init__(self) -> None:
        self._enum("incident", Incident)


@dataclasses.dataclass(frozen=True)
class TableRead(Event):
    """The table as the camera read it.

    purpose: a ReadPurpose ("turn": what is judged; "alarm": as it lay when the time ran out;
    "restore"). photo: sha256 of the photo; reading: sha256 of the raw reading stored in the records.
    tiles: PlacedTile(code, x, y) each. sets: indices into tiles, each set in reading order.
    doubts: Doubt(index, candidates, why) for each tile the reader left to the referee.
    settled: SettledDoubt(index, read, chosen, why) for each doubtful tile the rules settled.
    """

    kind: ClassVar[EventKind] = EventKind.TABLE_READ
    purpose: ReadPurpose
    photo: str | None
    reading: str | None  # sha256 of the raw reading stored in the records
    tiles: tuple[PlacedTile, ...]
    sets: tuple[tuple[int, ...], ...]  # indices into tiles, each set in reading order
    doubts: tuple[Doubt, ...]
    settled: tuple[SettledDoubt, ...]

    def __post_init__(self) -> None:
        self._enum("purpose", ReadPurpose)
        self._rows("tiles", PlacedTile)
        self._rows("doubts", Doubt)
        self._rows("settled", SettledDoubt)


@dataclasses.dataclass(frozen=True)
class RefereeCorrection(Event):
    """A referee's word over the camera's.

    target: "table" (the table read, or the accepted table noticed late) or "rack:<player>" (a rack
    laid open at the end); read it through `target_kind` and `rack_player` (the string is kept as
    recorded). changes: for the table, TileChange(index, code) each. rack: for a rack, the codes the
    referee says (None for the table). note: why. referee: who, the name given on the referee page
    (None: at the table, or records made before it was asked).
    """

    kind: ClassVar[EventKind] = EventKind.REFEREE_CORRECTION
    target: str  # "table" or "rack:<player>"
    changes: tuple[TileChange, ...]  # table: (tile index, code the referee says)
    rack: tuple[str, ...] | None  # rack: the codes the referee says
    note: str  # why
    referee: str | None = None  # who: the name given on the referee page (None: at the table, or older records)

    OPTIONAL_FIELDS: ClassVar[tuple[str, ...]] = ("referee",)
    RACK_PREFIX: ClassVar[str] = "rack:"

    def __post_init__(self) -> None:
        target = self.target
        if not isinstance(target, str) or not (
                target == CorrectionTarget.TABLE or (target.startswith(self.RACK_PREFIX) and target[len(self.RACK_PREFIX):])):
            raise EventDataError(f"RefereeCorrection.target: unknown value {target!r}; 'table' or 'rack:<player>'")
        object.__setattr__(self, "target", str(target))  # as recorded: a plain string, whatever was passed
        self._rows("changes", TileChange)

    @staticmethod
    def rack_target(player: str) -> str:
        """The target of a correction of `player`'s laid-open rack."""
        return RefereeCorrection.RACK_PREFIX + player

    @property
    def target_kind(self) -> CorrectionTarget:
        return CorrectionTarget.TABLE if self.target == CorrectionTarget.TABLE else CorrectionTarget.RACK

    @property
    def rack_player(self) -> str | None:
        """Whose rack is corrected (None: the table)."""
        return self.target[len(self.RACK_PREFIX):] if self.target_kind is CorrectionTarget.RACK else None


@dataclasses.dataclass(frozen=True)
class TurnJudged(Event):
    """The verdict on a turn, as the rules core gave it when it was taken.

    turn, player: the turn judged. outcome: a rules Outcome ("legal", "draw", "penalty", "relieved").
    played, taken: tile codes played from the rack, taken back from the table. violations:
    BrokenRule(rule, detail) each, rule a rules Rule value. draw: tiles the player draws from the pool
    for this turn (no play, or the penalty). penalty_points: the score change, e.g. -50 (0 where the
    variant has none). opened_now: this turn laid a legal initial meld. restore_required: the table
    must be put back, checked by the camera. restore_to_rack, restore_table: the restore plan (the
    codes back to the rack, the sets the table must show).
    """

    kind: ClassVar[EventKind] = EventKind.TURN_JUDGED
    turn: int
    player: str
    outcome: Outcome
    played: tuple[str, ...]
    taken: tuple[str, ...]
    violations: tuple[BrokenRule, ...]
    draw: int  # tiles the player draws from the pool for this turn (no play, or the penalty)
    penalty_points: int  # the score change, e.g. -50 (0 where the variant has none)
    opened_now: bool  # this turn laid a legal initial meld
    restore_required: bool  # the table must be put back as before the turn, checked by the camera
    restore_to_rack: tuple[str, ...]
    restore_table: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        self._enum("outcome", Outcome)
        self._rows("violations", BrokenRule)


@dataclasses.dataclass(frozen=True)
class RestoreChecked(Event):
    """The camera (or the arbiter) checked the table a failed turn had to put back.

    photo, reading: as TableRead. matches: the table shows what it had to (the restore is over).
    differences: how it differs ("missing: ...", "not before: ..."). tiles, sets: the table as read.
    by_referee: the arbiter accepted the table as it lies (`matches` is then True), `differences`
    then says how it differs from what it had to show; records made before that hold
    ("accepted by the arbiter",), not compared (ARBITER_UNCHECKED). referee: who accepted it on the
    referee page (None: the arbiter's button). note: why.
    """

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

    def __post_init__(self) -> None:
        self._rows("tiles", PlacedTile)

    @property
    def accepted_mismatch(self) -> bool:
        """The arbiter accepted a table that does not show what it had to."""
        return self.by_referee and bool(self.differences) and self.differences != self.ARBITER_UNCHECKED


@dataclasses.dataclass(frozen=True)
class TableUnrestorable(Event):
    """The arbiter says the table of a failed turn cannot be put back: what stays, where the rest goes.

    turn, player: the failed turn. photo, reading, tiles, sets: the table as it lay when the restore
    was given up. kept: the valid sets that stay (laid again as shown when `relay`). to_offender: codes
    the offender takes back. to_pool: codes to the end of the pool. missing: tiles of the table before
    that were not on the table at all. rack_change: tiles the offender's rack gains against the rack
    before the turn.
    """

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

    def __post_init__(self) -> None:
        self._rows("tiles", PlacedTile)


@dataclasses.dataclass(frozen=True)
class CountAlert(Event):
    """The tiles counted do not add up to the set: table + racks + pool != expected, after `turn`.
    disqualified: the rule set disqualifies the table for it (world)."""

    kind: ClassVar[EventKind] = EventKind.COUNT_ALERT
    turn: int
    table: int
    racks: int
    pool: int
    expected: int
    disqualified: bool


@dataclasses.dataclass(frozen=True)
class RackRevealed(Event):
    """A rack laid open at the end. player: whose; codes: as read; expected: tiles the count says the
    rack holds; photo, reading: as TableRead; doubts: Doubt(index, candidates, why) each."""

    kind: ClassVar[EventKind] = EventKind.RACK_REVEALED
    player: str
    codes: tuple[str, ...]
    expected: int  # tiles the count says the rack holds
    photo: str | None
    reading: str | None
    doubts: tuple[Doubt, ...]

    def __post_init__(self) -> None:
        self._rows("doubts", Doubt)


@dataclasses.dataclass(frozen=True)
class GameScored(Event):
    """The game's score. end: a rules GameEnd ("empty-rack", "pool-out"). winner: who.
    scores: PlayerPoints(player, points) in seat order. wins: PlayerPoints of the win counts where
    the variant keeps them, else None."""

    kind: ClassVar[EventKind] = EventKind.GAME_SCORED
    end: GameEnd
    winner: str
    scores: tuple[PlayerPoints, ...]
    wins: tuple[PlayerPoints, ...] | None

    def __post_init__(self) -> None:
        self._enum("end", GameEnd)
        self._rows("scores", PlayerPoints)
        self._rows("wins", PlayerPoints, optional=True)


@dataclasses.dataclass(frozen=True)
class ClockRecorded(Event):
    """One fact of a `tileref clock` game: a press, a flag fall, a pause, a result (see controller/clock).

    what: a ClockFact ("started", "pressed", "flag-fell", "paused", ...). player: whom it concerns
    (the presser, the flagged side), None for the table. ms_left: ClockTime(player, ms) for each clock
    where the box said it. detail: the clock machine's words.
    """

    kind: ClassVar[EventKind] = EventKind.CLOCK
    what: ClockFact
    player: str | None  # whom it concerns (the presser, the flagged side), None for the table
    ms_left: tuple[ClockTime, ...]  # each clock's time left as the box said, where known
    detail: str

    def __post_init__(self) -> None:
        self._enum("what", ClockFact)
        self._rows("ms_left", ClockTime)


@dataclasses.dataclass(frozen=True)
class VerdictOverridden(Event):
    """The referee overrides the verdict of the turn being restored (referee page): who and why.
    turn, player: the turn. outcome: an Override ("legal"). referee: who. reason: why."""

    kind: ClassVar[EventKind] = EventKind.VERDICT_OVERRIDDEN
    turn: int
    player: str
    outcome: Override
    referee: str  # who
    reason: str  # why

    def __post_init__(self) -> None:
        self._enum("outcome", Override)


@dataclasses.dataclass(frozen=True)
class ClockAdjusted(Event):
    """The referee pauses, resumes or extends the running turn's countdown (referee page).
    turn: the running turn. action: a ClockAdjustment ("pause", "resume", "extend"). seconds: extend:
    the seconds given; 0 otherwise. referee: who. reason: why."""

    kind: ClassVar[EventKind] = EventKind.CLOCK_ADJUSTED
    turn: int
    action: ClockAdjustment
    seconds: int  # extend: seconds given; 0 otherwise
    referee: str  # who
    reason: str  # why

    def __post_init__(self) -> None:
        self._enum("action", ClockAdjustment)


AREA_CONFIRMED = "the play area found on the clear table, confirmed as the game began"  # TableAccepted.reason


@dataclasses.dataclass(frozen=True)
class TableAccepted(Event):
    """The camera could not settle on the table (something seemed over it for long) and the arbiter
    accepted the table as it was seen, or the referee confirmed the clear table and the play area
    found on it as the game began (`reason` AREA_CONFIRMED): from then on it is what the camera
    compares with. photo: the frame accepted. where: where the camera saw something ("right edge",
    "middle"; "play area" for a confirmation). reason: why it was not clear (the camera's words). by:
    who accepted ("arbiter button", or the referee's name on the referee page)."""

    kind: ClassVar[EventKind] = EventKind.TABLE_ACCEPTED
    photo: str
    where: str
    reason: str
    by: str


@dataclasses.dataclass(frozen=True)
class PenaltyHeld(Event):
    """The verdict on a turn is a penalty that rests on tiles of the table before the turn that the
    camera sees nowhere now (looked at again, still gone): it is not recorded until the referee answers.
    turn, player: the turn. vanished: PlacedTile(code, x, y) each, where the tile lay on the photo of
    the turn's start. violations: BrokenRule(rule, detail) of the verdict held. photo_before: sha256 of
    the photo at the turn's start; photo: of the table as read now."""

    kind: ClassVar[EventKind] = EventKind.PENALTY_HELD
    turn: int
    player: str
    vanished: tuple[PlacedTile, ...]  # where each lay on the photo at the turn's start
    violations: tuple[BrokenRule, ...]
    photo_before: str | None  # sha256 of the photo at the turn's start
    photo: str | None  # sha256 of the photo of the table as read now

    def __post_init__(self) -> None:
        self._rows("vanished", PlacedTile)
        self._rows("violations", BrokenRule)


@dataclasses.dataclass(frozen=True)
class HeldPenaltyAnswered(Event):
    """The referee's answer to a held penalty (PenaltyHeld). turn, player: the turn. answer: a
    HeldAnswer ("confirmed": the penalty is recorded as judged; "tiles-there": the table is read again
    (read again already this turn: the tiles seen nowhere are put back where they lay and the turn
    judged), or, with `changes`, the table read takes the referee's codes, TileChange(index, code)
    each, the tiles seen nowhere whose codes it still lacks are put back, and it is judged again).
    referee: who ("arbiter at the table", or the name on the referee page). at: when,
    UTC "YYYY-MM-DDTHH:MM:SSZ" (under the signature, unlike the row's wall clock). reason: why."""

    kind: ClassVar[EventKind] = EventKind.HELD_PENALTY_ANSWERED
    turn: int
    player: str
    answer: HeldAnswer
    changes: tuple[TileChange, ...]  # tiles-there: the table read's tiles the referee names (may be none)
    referee: str  # who
    at: str  # when, UTC
    reason: str  # why

    def __post_init__(self) -> None:
        self._enum("answer", HeldAnswer)
        self._rows("changes", TileChange)


@dataclasses.dataclass(frozen=True)
class PlayAreaSet(Event):
    """The table's play area from the next look on (the readings after it record the area they were
    read in). how: an AreaSource ("marked": the referee's four corners; "found": none marked, found on
    each frame; "found-once": none marked, found by the table on its clear frame as the game began
    and kept). corners: AreaCorner(x, y) each, top-left, top-right, bottom-right, bottom-left, in
    pixels of a width x height frame (marked, found-once); empty with width and height 0 (found). by:
    who ("referee NAME" on the referee page; "table settings" when a game starts or resumes with an
    area the game has not recorded yet; "the table" for an area it found). reason: why (the referee's
    words; for the settings, the file)."""

    kind: ClassVar[EventKind] = EventKind.PLAY_AREA_SET
    how: AreaSource
    corners: tuple[AreaCorner, ...]  # marked: four; found: none
    width: int  # of the frame the corners are in (0: found)
    height: int
    by: str
    reason: str

    def __post_init__(self) -> None:
        self._enum("how", AreaSource)
        self._rows("corners", AreaCorner)

    def area(self) -> tuple:
        """What the area is, without who set it or why: equal for the same area set twice."""
        return (self.how.value, tuple((round(x, 2), round(y, 2)) for x, y in self.corners), self.width, self.height)


EVENT_TYPES: dict[EventKind, type[Event]] = {
    cls.kind: cls
    for cls in (
        GameCreated, StartOrderDrawn, Dealt, RedealClaimed, TurnStarted, TurnEnded, TimerIncident,
        TableRead, RefereeCorrection, TurnJudged, RestoreChecked, CountAlert, RackRevealed, GameScored,
        DealAccepted, TableUnrestorable, ClockRecorded, VerdictOverridden, ClockAdjusted, TableAccepted,
        PenaltyHeld, HeldPenaltyAnswered, PlayAreaSet,
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
    if isinstance(value, enum.Enum):
        return value.value  # the plain string the record has always held
    if isinstance(value, (tuple, list)):
        return [_to_json(v) for v in value]
    if isinstance(value, float):
        return round(value, 2)  # pixel positions: 0.01 px is plenty, and keeps the JSON stable
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value
