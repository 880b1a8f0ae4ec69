"""The game as a state machine written as a table: (state, event kind) -> transition.

`apply(model, event)` looks the pair up in `TRANSITIONS`; a pair that is not in the table
raises `TransitionError` naming both. `fold(events)` replays a recorded log into the model,
which is how `tileref play --resume` and `tileref replay` get back the exact game.

The model only counts tiles it cannot see: racks are face down, so a rack is a number
(14, plus draws and penalty draws, minus tiles played) until it is laid open at the end.
"""
from __future__ import annotations

import dataclasses
import enum
import math
import statistics
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable, Iterable

from controller.rules.errors import RulesError
from controller.rules.judge import late_invalid_set_rejudged
from controller.rules.scoring import GameEnd
from controller.rules.variants import PoolOutEnd, RedealWhen, RuleSet, get_ruleset, ruleset_from_record

from .errors import GameSetupError, TransitionError
from .events import (
    ClockAdjusted, ClockAdjustment, CorrectionTarget, CountAlert, DealAccepted, Dealt, Event, EventKind, GameCreated,
    GameScored, NO_TILE, Outcome, Override, PlacedTile, RackRevealed, ReadPurpose, RedealClaimed, RefereeCorrection,
    RestoreChecked, StartOrderDrawn, TableAccepted, TableRead, TableUnrestorable, TimerIncident, TurnEndCause, TurnEnded, TurnJudged,
    TurnStarted, VerdictOverridden, HeldAnswer, HeldPenaltyAnswered, PenaltyHeld, AreaSource, PlayAreaSet,
)

TILES_IN_GAME = 106
RACK_AT_DEAL = 14
MIN_PLAYERS, MAX_PLAYERS = 2, 4


class State(str, enum.Enum):
    NEW = "new"
    SEATING = "seating"  # drawing tiles for the start order
    DEALING = "dealing"
    REDEAL_WINDOW = "redeal-window"  # world: right after the deal anyone may ask for a redeal
    TURN_READY = "turn-ready"  # the next turn can start
    TURN_RUNNING = "turn-running"  # the timer runs for a seat
    TURN_READING = "turn-reading"  # button pressed or time out: read the table
    REFEREE_CHECK = "referee-check"  # a read the rules could not settle waits for the referee
    TURN_JUDGING = "turn-judging"
    PENALTY_HELD = "penalty-held"  # a penalty resting on tiles seen nowhere waits for the referee's answer
    RESTORING = "restoring"  # penalty: the table must be put back as it was
    REVEALING = "revealing"  # the game is over: losers lay their racks open
    SCORING = "scoring"
    FINISHED = "finished"
    DISQUALIFIED = "disqualified"  # world: the tile count did not match


@dataclass(frozen=True)
class TableState:
    """Tiles on the table with where they lay, and the sets they form (indices)."""

    tiles: tuple[PlacedTile, ...] = ()
    sets: tuple[tuple[int, ...], ...] = ()

    @property
    def melds(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(self.tiles[i][0] for i in s) for s in self.sets)

    @property
    def tile_count(self) -> int:
        return sum(len(s) for s in self.sets)

    def with_codes(self, changes: Iterable[tuple[int, str]]) -> "TableState":
        """The table with the referee's codes; a tile answered NO_TILE leaves it (and its set)."""
        tiles = list(self.tiles)
        gone: set[int] = set()
        for index, code in changes:
            if not 0 <= index < len(tiles):
                raise TransitionError(State.REFEREE_CHECK, EventKind.REFEREE_CORRECTION,
                                      f"tile index {index!r} is not on the table read ({len(tiles)} tiles)")
            if code == NO_TILE:
                gone.add(index)
                continue
            _, x, y = tiles[index]
            tiles[index] = (code, x, y)
        if not gone:
            return TableState(tuple(tiles), self.sets)
        new_index = {old: new for new, old in enumerate(i for i in range(len(tiles)) if i not in gone)}
        sets = tuple(kept for kept in (tuple(new_index[i] for i in s if i not in gone) for s in self.sets) if kept)
        return TableState(tuple(t for i, t in enumerate(tiles) if i not in gone), sets)


    def with_tiles_back(self, before: "TableState", tiles: Iterable[PlacedTile]) -> "TableState":
        """The table with `tiles` of the table `before` lying where they lay again (the referee says tiles
        the camera sees nowhere are there): a tile that still lacks its code here joins the set that holds
        the rest of its old set (in the order of the old set): the tiles that stayed where they lay, else,
        for a set moved whole (a run laid elsewhere to extend it), the one set that holds the codes of the
        rest, next to its old neighbours; else it lies with the others of its old set that came back."""
        table_tiles, sets = list(self.tiles), [list(s) for s in self.sets]
        missing = Counter(code for code, _, _ in before.tiles) - Counter(code for code, _, _ in self.tiles)
        back: dict[int, int] = {}  # index in `before` -> index here
        for code, x, y in tiles:
            j = next((j for j, tile in enumerate(before.tiles) if tuple(tile) == (code, x, y) and j not in back), None)
            if j is None or missing[code] <= 0:
                continue
            missing[code] -= 1
            back[j] = len(table_tiles)
            table_tiles.append((code, x, y))
        for old in before.sets:
            returned = [j for j in old if j in back]
            if not returned:
                continue
            stayed = [self._same_tile(before, j, old) for j in old if j not in back]
            home = next((members for members in sets if any(i in members for i in stayed if i is not None)), None)
            if home is None:
                moved = self._moved_home(before, old, back, sets)
                if moved is not None:
                    _beside_old_neighbours(moved, old, back, before, table_tiles)
                    continue
                sets.append([back[j] for j in returned])
                continue
            home.extend(back[j] for j in returned)
            (x0, y0), (x1, y1) = before.tiles[old[0]][1:], before.tiles[old[-1]][1:]
            home.sort(key=lambda i: (table_tiles[i][1] - x0) * (x1 - x0) + (table_tiles[i][2] - y0) * (y1 - y0))
        return TableState(tuple(table_tiles), tuple(tuple(members) for members in sets))

    def _moved_home(self, before: "TableState", old: tuple[int, ...], back: dict[int, int],
                    sets: list[list[int]]) -> list[int] | None:
        """The one set here that holds every code of `old` that did not come back (a set moved whole), None
        when no set or more than one does."""
        rest = Counter(before.tiles[j][0] for j in old if j not in back)
        if not rest:
            return None
        holding = [members for members in sets
                   if not rest - Counter(self.tiles[i][0] for i in members if i < len(self.tiles))]
        return holding[0] if len(holding) == 1 else None

    def _same_tile(self, before: "TableState", j: int, old: tuple[int, ...]) -> int | None:
        """The tile here that is `before`'s tile j: its code, within half its old set's spacing."""
        code, x, y = before.tiles[j]
        steps = [math.dist(before.tiles[a][1:], before.tiles[b][1:]) for a, b in zip(old, old[1:])]
        reach = statistics.median(steps) / 2 if steps else 0.0
        near = [(math.dist((x, y), (u, v)), i) for i, (c, u, v) in enumerate(self.tiles) if c == code]
        best = min(near, default=None)
        return best[1] if best is not None and best[0] <= reach else None


def _beside_old_neighbours(home: list[int], old: tuple[int, ...], back: dict[int, int], before: "TableState",
                           tiles: list) -> None:
    """Put the tiles of `old` that came back (`back`: index in `before` -> index in `tiles`) into `home`, a
    set that moved, each after the tile here that carries the code of its old left-hand neighbour (before the
    right-hand one's when it was first)."""
    for position, j in enumerate(old):
        if j not in back:
            continue
        code_before = before.tiles[old[position - 1]][0] if position > 0 else None
        code_after = before.tiles[old[position + 1]][0] if position + 1 < len(old) else None
        at = next((k + 1 for k, i in enumerate(home) if tiles[i][0] == code_before), None)
        if at is None:
            at = next((k for k, i in enumerate(home) if tiles[i][0] == code_after), len(home))
        home.insert(at, back[j])


@dataclass(frozen=True)
class RackAndPool:
    """A failed turn's table that could not be restored (rules.restore): what the rack and pool get."""

    rack_change: int
    to_pool: int


@dataclass(frozen=True)
class Judgement:
    """The verdict waiting for its restore (a penalty, an undone rearrangement, tiles laid after the alarm)."""

    player_index: int
    penalty: bool  # False: the turn stands once the table is as `target` says
    draw: int
    penalty_points: int
    played: int
    taken: int
    opened_now: bool = False
    target: tuple[tuple[str, ...], ...] = ()  # the sets the table must show
    settlement: RackAndPool | None = None  # the arbiter gave up restoring: these sets stay, the rest went


@dataclass(frozen=True)
class HeldPenalty:
    """A penalty that rests on tiles seen nowhere, held for the referee (PenaltyHeld), or confirmed by
    them (`confirmed`: the verdict is now recorded as judged)."""

    turn: int
    player: str
    vanished: tuple[PlacedTile, ...]
    photo_before: str | None
    photo: str | None
    violations: tuple = ()  # BrokenRule rows of the verdict held
    confirmed: bool = False


@dataclass(frozen=True)
class GameModel:
    state: State = State.NEW
    variant: str = ""
    rules: RuleSet | None = None  # as recorded when the game was created
    players: tuple[str, ...] = ()
    turn_seconds: int = 0
    starter: str | None = None
    deal: int = 0
    turn: int = 0  # number of the current or last turn, 1-based
    current: int = 0  # index into players: whose turn it is (or is next)
    racks: tuple[int, ...] = ()
    pool: int = 0
    opened: tuple[bool, ...] = ()
    had_turn: tuple[bool, ...] = ()  # the redeal right is only at a player's first turn
    first_turn: bool = False  # the running turn is its player's first
    penalty_points: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()  # penalties each player took
    start_rounds: tuple[tuple[tuple[str, str], ...], ...] = ()  # the draws for the start order
    table: TableState = TableState()  # the table as accepted after the last turn
    turn_photo: str | None = None  # photo taken at the start of the current turn
    ended_by: TurnEndCause | None = None  # how the current turn ended
    at_alarm: TableState | None = None  # the table as it lay when the current turn's time ran out
    # the game as it stood before the last verdict, while the next turn has not started: an invalid
    # set noticed now has that turn judged again (RuleSet.late_invalid_set)
    rejudge_from: "GameModel | None" = None
    pending: TableState | None = None  # table read after the turn, before judging
    pending_doubts: tuple = ()
    pending_photo: str | None = None  # the photo the pending table was read from
    held: HeldPenalty | None = None  # a penalty on tiles seen nowhere, waiting for (or confirmed by) the referee
    read_again_for: int | None = None  # the turn whose table was read again after the referee said "tiles there"
    judgement: Judgement | None = None
    passes: int = 0  # turns in a row with nothing played while the pool is empty
    end: GameEnd | None = None
    winner: str | None = None
    revealed: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # laid-open racks whose count is not the rack's count: they wait for the referee's codes and never
    # reach the score as read
    racks_to_check: tuple[str, ...] = ()
    scores: tuple[tuple[str, int], ...] = ()
    alerts: int = 0
    alert_turn: int = -1  # the turn of the last count alert (one alert per turn)
    paused: bool = False  # the referee paused the running turn's countdown (clock-adjusted)
    events: int = 0

    @property
    def player(self) -> str:
        return self.players[self.current]

    @property
    def pool_out_ends_at_last_draw(self) -> bool:
        return self.rules is not None and self.rules.pool_out_end is PoolOutEnd.LAST_TILE_DRAWN

    @property
    def count_mismatch_disqualifies(self) -> bool:
        return self.rules is not None and self.rules.count_mismatch_disqualifies

    @property
    def tiles_counted(self) -> int:
        return self.table.tile_count + sum(self.racks) + self.pool

    def rack_of(self, player: str) -> int:
        return self.racks[self.players.index(player)]

    def to_reveal(self) -> tuple[str, ...]:
        """Players whose rack is still to be laid open: everyone but the winner (empty rack)."""
        done = {name for name, _ in self.revealed}
        return tuple(p for p in self.players if p not in done and not (self.end is GameEnd.EMPTY_RACK and p == self.winner))

    def laid_open(self, player: str) -> tuple[str, ...] | None:
        """The codes of `player`'s rack as laid open (or as the referee corrected it); None: not laid open."""
        return next((codes for name, codes in self.revealed if name == player), None)

    @property
    def all_racks_known(self) -> bool:
        """Every rack is laid open and none waits for the referee: the game can be scored."""
        return not self.to_reveal() and not self.racks_to_check


Handler = Callable[[GameModel, Event], GameModel]


@dataclass(frozen=True)
class Transition:
    handler: Handler
    targets: tuple[State, ...]  # the states the handler may lead to (documentation and checks)


def _set(model: GameModel, index: int, values: tuple, value) -> tuple:
    return values[:index] + (value,) + values[index + 1:]


def _next_seat(model: GameModel) -> GameModel:
    return replace(model, current=(model.current + 1) % len(model.players), state=State.TURN_READY,
                   pending=None, pending_doubts=(), pending_photo=None, held=None, judgement=None, turn_photo=None,
                   at_alarm=None)


def _draw(model: GameModel, index: int, count: int) -> GameModel:
    drawn = min(count, model.pool)
    return replace(model, racks=_set(model, index, model.racks, model.racks[index] + drawn), pool=model.pool - drawn)


def _end_if_pool_out(model: GameModel, drew: bool) -> GameModel:
    """The pool rules: japan-2017 ends at the last draw; otherwise play on until nobody plays."""
    if model.pool == 0 and drew and model.pool_out_ends_at_last_draw:
        return replace(model, state=State.REVEALING, end=GameEnd.POOL_OUT)
    if model.passes >= len(model.players):
        return replace(model, state=State.REVEALING, end=GameEnd.POOL_OUT)
    return model


# ------------------------------------------------------------------ handlers


def on_game_created(model: GameModel, event: GameCreated) -> GameModel:
    players = tuple(event.players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS or len(set(players)) != len(players):
        raise GameSetupError(f"a game needs 2 to 4 different players, got {list(players)!r}")
    if event.turn_seconds <= 0:
        raise GameSetupError(f"seconds per turn must be positive, got {event.turn_seconds!r}")
    try:
        if event.ruleset:
            rules = ruleset_from_record(dict(event.ruleset), where=f"game rule set {event.variant!r}")
        else:  # recorded before games kept their whole rule set
            rules = replace(get_ruleset(event.variant),
                            count_mismatch_disqualifies=bool(event.count_mismatch_disqualifies),
                            pool_out_end=PoolOutEnd.LAST_TILE_DRAWN if event.pool_out_ends_at_last_draw
                            else PoolOutEnd.NOBODY_CAN_PLAY)
    except (RulesError, TypeError, ValueError) as error:
        raise GameSetupError(str(error)) from None
    n = len(players)
    return replace(
        model, state=State.SEATING, variant=event.variant, rules=rules, players=players,
        turn_seconds=event.turn_seconds, racks=(0,) * n, pool=TILES_IN_GAME, opened=(False,) * n, had_turn=(False,) * n, penalty_points=(0,) * n,
        penalties=(0,) * n,
    )


def on_start_order(model: GameModel, event: StartOrderDrawn) -> GameModel:
    model = replace(model, start_rounds=model.start_rounds + (tuple(event.draws),))
    if event.starter is None:
        return model  # a tie: those tied draw again
    if event.starter not in model.players:
        raise TransitionError(model.state, event.kind, f"starter {event.starter!r} is not a player")
    return replace(model, state=State.DEALING, starter=event.starter, current=model.players.index(event.starter))


def on_dealt(model: GameModel, event: Dealt) -> GameModel:
    n = len(model.players)
    after_deal = model.rules is not None and model.rules.redeal_when is RedealWhen.AFTER_DEAL
    return replace(model, state=State.REDEAL_WINDOW if after_deal else State.TURN_READY, deal=event.deal,
                   racks=(RACK_AT_DEAL,) * n, pool=TILES_IN_GAME - RACK_AT_DEAL * n, table=TableState(),
                   had_turn=(False,) * n)


def on_deal_accepted(model: GameModel, event: DealAccepted) -> GameModel:
    if event.deal != model.deal:
        raise TransitionError(model.state, event.kind, f"deal {event.deal!r} accepted but deal {model.deal} lies")
    return replace(model, state=State.TURN_READY)


def on_redeal(model: GameModel, event: RedealClaimed) -> GameModel:
    """The redeal right as the rule set places it: japan-2017 the current player at the start of their
    own first turn (000); world anyone, right after the deal, and the deal is for everyone (003)."""
    when = model.rules.redeal_when if model.rules is not None else RedealWhen.NEVER
    if event.player not in model.players:
        raise TransitionError(model.state, event.kind, f"{event.player!r} is not a player")
    if when is RedealWhen.NEVER:
        raise TransitionError(model.state, event.kind, f"{model.variant!r} has no redeal right")
    if model.state is State.REDEAL_WINDOW:
        pass  # anyone, and only here (on_dealt opens the window only for after-deal rule sets)
    elif when is not RedealWhen.OWN_FIRST_TURN:
        raise TransitionError(model.state, event.kind,
                              f"{model.variant!r}: a redeal is asked right after the deal, not during a turn")
    elif model.players.index(event.player) != model.current or not model.first_turn:
        raise TransitionError(model.state, event.kind,
                              f"{event.player!r} may claim a redeal only at the start of their own first turn")
    if not event.granted:
        return model
    return replace(model, state=State.DEALING, racks=(0,) * len(model.players), pool=TILES_IN_GAME,
                   first_turn=False, turn_photo=None)


def on_turn_started(model: GameModel, event: TurnStarted) -> GameModel:
    if event.player != model.player:
        raise TransitionError(model.state, event.kind, f"it is {model.player!r}'s turn, not {event.player!r}")
    return replace(model, state=State.TURN_RUNNING, turn=event.turn, turn_photo=event.photo,
                   first_turn=not model.had_turn[model.current],
                   had_turn=_set(model, model.current, model.had_turn, True),
                   ended_by=None, at_alarm=None, rejudge_from=None, paused=False)


TURN_END_CAUSES = tuple(TurnEndCause)


def on_turn_ended(model: GameModel, event: TurnEnded) -> GameModel:
    if event.turn != model.turn:
        raise TransitionError(model.state, event.kind, f"turn {event.turn!r} ended but turn {model.turn} is running")
    if event.cause not in TURN_END_CAUSES:
        raise TransitionError(model.state, event.kind, f"unknown cause {event.cause!r}")
    if event.cause is TurnEndCause.SKIPPED and not (model.rules and model.rules.timer_skip_for_simple_turns):
        raise TransitionError(model.state, event.kind, f"{model.variant!r} does not let a turn skip the timer")
    return replace(model, state=State.TURN_READING, ended_by=event.cause, paused=False)


def on_timer_incident(model: GameModel, event: TimerIncident) -> GameModel:
    return model


def on_table_read(model: GameModel, event: TableRead) -> GameModel:
    table = TableState(tuple(event.tiles), tuple(event.sets))
    if event.purpose is ReadPurpose.ALARM:
        if model.ended_by != TurnEndCause.EXPIRED:
            raise TransitionError(model.state, event.kind, f"a table read at the alarm, but the turn ended by {model.ended_by and model.ended_by.value!r}")
        return replace(model, at_alarm=table)  # the turn's own read follows once the table is still
    state = State.REFEREE_CHECK if event.doubts else State.TURN_JUDGING
    return replace(model, state=state, pending=table, pending_doubts=tuple(event.doubts), pending_photo=event.photo)


def on_table_corrected(model: GameModel, event: RefereeCorrection) -> GameModel:
    if event.target_kind is not CorrectionTarget.TABLE or model.pending is None:
        raise TransitionError(model.state, event.kind, f"only the table read can be corrected now, not {event.target!r}")
    return replace(model, state=State.TURN_JUDGING, pending=model.pending.with_codes(event.changes), pending_doubts=())


def on_late_correction(model: GameModel, event: RefereeCorrection) -> GameModel:
    """An invalid set the verdict missed is noticed (the referee corrects the accepted table): before the
    next turn starts the turn that laid it is judged again; after that it stands (RuleSet.late_invalid_set)."""
    if event.target_kind is not CorrectionTarget.TABLE:
        raise TransitionError(model.state, event.kind, f"only the table can be corrected now, not {event.target!r}")
    started = model.state is not State.TURN_READY
    if model.rejudge_from is not None and model.rules is not None and late_invalid_set_rejudged(model.rules, started):
        again = model.rejudge_from
        assert again.pending is not None  # kept only for a verdict applied to a table read
        return replace(again, state=State.TURN_JUDGING, pending=again.pending.with_codes(event.changes),
                       pending_doubts=(), rejudge_from=None)
    return replace(model, table=model.table.with_codes(event.changes))


def _check_turn(model: GameModel, event: Event, what: str) -> None:
    turn, player = getattr(event, "turn"), getattr(event, "player")
    if player != model.player or turn != model.turn:
        raise TransitionError(model.state, event.kind,
                              f"{what} for {player!r} turn {turn} but turn {model.turn} is {model.player!r}'s")


def on_penalty_held(model: GameModel, event: PenaltyHeld) -> GameModel:
    """The verdict is a penalty resting on tiles seen nowhere: nothing of it is recorded until the referee answers."""
    _check_turn(model, event, "a penalty held")
    if not event.vanished:
        raise TransitionError(model.state, event.kind, "a held penalty names the tiles seen nowhere")
    held = HeldPenalty(event.turn, event.player, tuple(event.vanished), event.photo_before, event.photo,
                       tuple(event.violations))
    return replace(model, state=State.PENALTY_HELD, held=held)


def on_held_penalty_answered(model: GameModel, event: HeldPenaltyAnswered) -> GameModel:
    """confirmed: the verdict is judged again and recorded as it stands; tiles-there: without codes the
    first time in a turn, the table is read again (the camera may see them now); with the referee's
    codes, or once it was read again, the table read is judged again with the referee's codes and the
    tiles seen nowhere put back where they lay (`TableState.with_tiles_back`): the referee has looked,
    and asking again would never end."""
    _check_turn(model, event, "an answer")
    if event.answer not in tuple(HeldAnswer):
        raise TransitionError(model.state, event.kind, f"unknown answer {event.answer!r}")
    if not event.referee.strip() or not event.at.strip():
        raise TransitionError(model.state, event.kind, "an answer names the referee and when")
    held = model.held
    assert held is not None  # PENALTY_HELD is only entered with a held penalty
    if event.answer is HeldAnswer.CONFIRMED:
        if event.changes:
            raise TransitionError(model.state, event.kind, "a confirmed penalty changes no tile of the table read")
        return replace(model, state=State.TURN_JUDGING, held=replace(held, confirmed=True))
    if event.changes or model.read_again_for == model.turn:
        assert model.pending is not None  # a held penalty rests on a table read
        # the referee has looked: the tiles seen nowhere lie where they lay, unless their codes say
        # they were read (misread) in the table already
        pending = model.pending.with_codes(event.changes).with_tiles_back(model.table, held.vanished)
        return replace(model, state=State.TURN_JUDGING, held=None, pending=pending)
    return replace(model, state=State.TURN_READING, held=None, pending=None, pending_doubts=(), pending_photo=None,
                   read_again_for=model.turn)


def on_turn_judged(model: GameModel, event: TurnJudged) -> GameModel:
    index = model.current
    _check_turn(model, event, "verdict")
    if event.outcome not in tuple(Outcome):
        raise TransitionError(model.state, event.kind, f"unknown outcome {event.outcome!r}")
    if model.held is not None and model.held.confirmed and event.outcome is not Outcome.PENALTY:
        raise TransitionError(model.state, event.kind,
                              f"the referee confirmed a penalty for turn {model.turn}, the verdict says {event.outcome.value!r}")
    model = replace(model, held=None)
    if event.restore_required:
        judgement = Judgement(index, event.outcome is Outcome.PENALTY, event.draw, event.penalty_points,
                              len(event.played), len(event.taken), bool(event.opened_now),
                              tuple(tuple(codes) for codes in event.restore_table))
        return replace(model, state=State.RESTORING, judgement=judgement, rejudge_from=None)
    before = model
    model = _stands(model, index, len(event.played), event.opened_now, event.draw, model.pending or model.table)
    if event.played and model.state is State.TURN_READY:
        model = replace(model, rejudge_from=before)
    return model


def _stands(model: GameModel, index: int, played: int, opened_now: bool, draw: int, table: TableState) -> GameModel:
    """A turn that stands: its tiles leave the rack (or it draws), then the next seat or the end."""
    rack = model.racks[index] - played
    model = replace(model, racks=_set(model, index, model.racks, rack), table=table,
                    opened=_set(model, index, model.opened, model.opened[index] or opened_now))
    if played:
        model = replace(model, passes=0)
        if rack <= 0:
            return replace(model, state=State.REVEALING, end=GameEnd.EMPTY_RACK, winner=model.players[index], pending=None)
        return _next_seat(model)
    drew = model.pool > 0 and draw > 0
    model = _draw(model, index, draw)
    model = replace(model, passes=0 if drew else model.passes + 1)
    ended = _end_if_pool_out(model, drew)
    return ended if ended.state == State.REVEALING else _next_seat(model)


def on_table_unrestorable(model: GameModel, event: TableUnrestorable) -> GameModel:
    judgement = model.judgement
    assert judgement is not None  # RESTORING is only entered with a judgement
    if not judgement.penalty or judgement.settlement is not None:
        raise TransitionError(model.state, event.kind, "only a failed turn's restore can be given up, and once")
    if event.turn != model.turn or event.player != model.players[judgement.player_index]:
        raise TransitionError(model.state, event.kind,
                              f"turn {event.turn} of {event.player!r} given up, but turn {model.turn} is being restored")
    keeps_draw = model.rules is None or model.rules.unrestorable_keeps_penalty_draw
    settled = replace(judgement, settlement=RackAndPool(event.rack_change, len(event.to_pool)),
                      target=tuple(tuple(codes) for codes in event.kept), draw=judgement.draw if keeps_draw else 0)
    return replace(model, judgement=settled)


def on_restore_checked(model: GameModel, event: RestoreChecked) -> GameModel:
    if not event.matches:
        return model
    judgement = model.judgement
    assert judgement is not None  # RESTORING is only entered with a judgement
    index = judgement.player_index
    table = TableState(tuple(event.tiles), tuple(event.sets))
    if not judgement.penalty:
        return _stands(replace(model, judgement=None), index, judgement.played, judgement.opened_now, judgement.draw,
                       table)
    if judgement.settlement is not None:
        settlement = judgement.settlement
        model = replace(model, racks=_set(model, index, model.racks, model.racks[index] + settlement.rack_change),
                        pool=model.pool + settlement.to_pool)
    drew = model.pool > 0 and judgement.draw > 0
    model = _draw(replace(model, table=table), index, judgement.draw)
    model = replace(model, penalty_points=_set(model, index, model.penalty_points,
                                               model.penalty_points[index] + judgement.penalty_points),
                    penalties=_set(model, index, model.penalties, model.penalties[index] + int(judgement.penalty)),
                    passes=0 if drew else model.passes)
    ended = _end_if_pool_out(model, drew)
    return ended if ended.state == State.REVEALING else _next_seat(model)


def on_verdict_overridden(model: GameModel, event: VerdictOverridden) -> GameModel:
    """The referee withdraws the penalty of the turn being restored: the turn stands as the table was read."""
    judgement = model.judgement
    assert judgement is not None  # RESTORING is only entered with a judgement
    if event.outcome not in tuple(Override):
        raise TransitionError(model.state, event.kind, f"unknown outcome {event.outcome!r}")
    if not judgement.penalty or judgement.settlement is not None:
        raise TransitionError(model.state, event.kind, "only a penalty whose restore is under way can be overridden")
    if event.turn != model.turn or event.player != model.players[judgement.player_index]:
        raise TransitionError(model.state, event.kind,
                              f"turn {event.turn} of {event.player!r} overridden, but turn {model.turn} is being restored")
    if not event.referee.strip() or not event.reason.strip():
        raise TransitionError(model.state, event.kind, "an override names the referee and the reason")
    table = model.pending or model.table
    return _stands(replace(model, judgement=None), judgement.player_index, judgement.played,
                   judgement.opened_now or judgement.played > 0, 0, table)


def on_table_accepted(model: GameModel, event: TableAccepted) -> GameModel:
    if not event.by.strip():
        raise TransitionError(model.state, event.kind, "an accepted table names who accepted it")
    return model


def on_play_area_set(model: GameModel, event: PlayAreaSet) -> GameModel:
    if not event.by.strip():
        raise TransitionError(model.state, event.kind, "a play area names who set it")
    if event.how in (AreaSource.MARKED, AreaSource.FOUND_ONCE):
        inside = all(0 <= x <= event.width and 0 <= y <= event.height for x, y in event.corners)
        if len(event.corners) != 4 or event.width <= 0 or event.height <= 0 or not inside:
            raise TransitionError(model.state, event.kind, f"a {event.how} play area is four corners inside its frame, "
                                  f"got {[list(c) for c in event.corners]!r} on {event.width} x {event.height}")
    elif event.corners or event.width or event.height:
        raise TransitionError(model.state, event.kind, "a play area found by itself has no corners")
    return model


def on_clock_adjusted(model: GameModel, event: ClockAdjusted) -> GameModel:
    if event.turn != model.turn:
        raise TransitionError(model.state, event.kind, f"turn {event.turn} adjusted, but turn {model.turn} is running")
    if event.action not in tuple(ClockAdjustment):
        raise TransitionError(model.state, event.kind, f"unknown clock action {event.action!r}")
    if not event.referee.strip() or not event.reason.strip():
        raise TransitionError(model.state, event.kind, "a clock adjustment names the referee and the reason")
    action = event.action
    if action is ClockAdjustment.PAUSE and model.paused:
        raise TransitionError(model.state, event.kind, "the clock is paused already")
    if action is ClockAdjustment.RESUME and not model.paused:
        raise TransitionError(model.state, event.kind, "the clock is not paused")
    if action is ClockAdjustment.EXTEND and (event.seconds <= 0 or model.paused):
        raise TransitionError(model.state, event.kind,
                              "extra time is a positive number of seconds, given while the clock runs")
    return replace(model, paused=action is ClockAdjustment.PAUSE or (model.paused and action is ClockAdjustment.EXTEND))


def on_count_alert(model: GameModel, event: CountAlert) -> GameModel:
    model = replace(model, alerts=model.alerts + 1, alert_turn=event.turn)
    return replace(model, state=State.DISQUALIFIED) if event.disqualified else model


def on_rack_revealed(model: GameModel, event: RackRevealed) -> GameModel:
    if event.player not in model.to_reveal():
        raise TransitionError(model.state, event.kind, f"{event.player!r} has no rack to lay open")
    model = replace(model, revealed=model.revealed + ((event.player, tuple(event.codes)),))
    if len(event.codes) != model.rack_of(event.player):  # a count the records do not hold: the referee's
        model = replace(model, racks_to_check=model.racks_to_check + (event.player,))
    return replace(model, state=State.SCORING) if model.all_racks_known else model


def on_rack_corrected(model: GameModel, event: RefereeCorrection) -> GameModel:
    player = event.rack_player
    names = [name for name, _ in model.revealed]
    if player is None or player not in names or event.rack is None:
        raise TransitionError(model.state, event.kind, f"no laid-open rack {event.target!r} to correct")
    revealed = tuple((name, tuple(event.rack) if name == player else codes) for name, codes in model.revealed)
    # the referee's codes stand for the rack, whatever its count; a corrected rack after the score means the
    # score is taken again, and the last rack the referee was waited for lets the game be scored
    checked = tuple(name for name in model.racks_to_check if name != player)
    model = replace(model, revealed=revealed, racks_to_check=checked)
    if model.state is State.FINISHED:
        return replace(model, state=State.SCORING, scores=())
    if model.state is State.REVEALING and model.all_racks_known:
        return replace(model, state=State.SCORING)
    return model


def on_unchecked_game_scored(model: GameModel, event: GameScored) -> GameModel:
    """Records made before a laid-open rack's count was checked: a rack taken as read, whatever its count,
    and the game scored with it. They fold as recorded; the table never records this any more."""
    if model.to_reveal():
        raise TransitionError(model.state, event.kind, f"racks of {', '.join(model.to_reveal())} are not laid open")
    return on_game_scored(model, event)


def on_game_scored(model: GameModel, event: GameScored) -> GameModel:
    return replace(model, state=State.FINISHED, winner=event.winner, end=event.end, scores=tuple(event.scores))


# --------------------------------------------------------------------- table

S, E = State, EventKind
_LIVE = (S.SEATING, S.DEALING, S.REDEAL_WINDOW, S.TURN_READY, S.TURN_RUNNING, S.TURN_READING, S.REFEREE_CHECK, S.TURN_JUDGING,
         S.PENALTY_HELD, S.RESTORING, S.REVEALING, S.SCORING)
_IN_PLAY = (S.TURN_READY, S.TURN_RUNNING, S.TURN_READING, S.REFEREE_CHECK, S.TURN_JUDGING, S.PENALTY_HELD, S.RESTORING)

TRANSITIONS: dict[tuple[State, EventKind], Transition] = {
    (S.NEW, E.GAME_CREATED): Transition(on_game_created, (S.SEATING,)),
    (S.SEATING, E.START_ORDER_DRAWN): Transition(on_start_order, (S.SEATING, S.DEALING)),
    (S.DEALING, E.DEALT): Transition(on_dealt, (S.TURN_READY, S.REDEAL_WINDOW)),
    (S.REDEAL_WINDOW, E.REDEAL_CLAIMED): Transition(on_redeal, (S.REDEAL_WINDOW, S.DEALING)),
    (S.REDEAL_WINDOW, E.DEAL_ACCEPTED): Transition(on_deal_accepted, (S.TURN_READY,)),
    (S.TURN_READY, E.TURN_STARTED): Transition(on_turn_started, (S.TURN_RUNNING,)),
    (S.TURN_READY, E.REFEREE_CORRECTION): Transition(on_late_correction, (S.TURN_READY, S.TURN_JUDGING)),
    (S.TURN_RUNNING, E.TURN_ENDED): Transition(on_turn_ended, (S.TURN_READING,)),
    (S.TURN_RUNNING, E.REDEAL_CLAIMED): Transition(on_redeal, (S.TURN_RUNNING, S.DEALING)),
    (S.TURN_RUNNING, E.REFEREE_CORRECTION): Transition(on_late_correction, (S.TURN_RUNNING,)),
    (S.TURN_READING, E.TABLE_READ): Transition(on_table_read, (S.TURN_READING, S.TURN_JUDGING, S.REFEREE_CHECK)),
    (S.REFEREE_CHECK, E.REFEREE_CORRECTION): Transition(on_table_corrected, (S.TURN_JUDGING,)),
    (S.TURN_JUDGING, E.TURN_JUDGED): Transition(on_turn_judged, (S.TURN_READY, S.RESTORING, S.REVEALING)),
    (S.TURN_JUDGING, E.PENALTY_HELD): Transition(on_penalty_held, (S.PENALTY_HELD,)),
    (S.PENALTY_HELD, E.HELD_PENALTY_ANSWERED): Transition(on_held_penalty_answered, (S.TURN_JUDGING, S.TURN_READING)),
    (S.RESTORING, E.TABLE_UNRESTORABLE): Transition(on_table_unrestorable, (S.RESTORING,)),
    (S.RESTORING, E.RESTORE_CHECKED): Transition(on_restore_checked, (S.RESTORING, S.TURN_READY, S.REVEALING)),
    (S.RESTORING, E.VERDICT_OVERRIDDEN): Transition(on_verdict_overridden, (S.TURN_READY, S.REVEALING)),
    (S.TURN_RUNNING, E.CLOCK_ADJUSTED): Transition(on_clock_adjusted, (S.TURN_RUNNING,)),
    **{(state, E.COUNT_ALERT): Transition(on_count_alert, (state, S.DISQUALIFIED)) for state in _IN_PLAY},
    (S.REVEALING, E.RACK_REVEALED): Transition(on_rack_revealed, (S.REVEALING, S.SCORING)),
    (S.REVEALING, E.REFEREE_CORRECTION): Transition(on_rack_corrected, (S.REVEALING, S.SCORING)),
    (S.REVEALING, E.GAME_SCORED): Transition(on_unchecked_game_scored, (S.FINISHED,)),
    (S.SCORING, E.REFEREE_CORRECTION): Transition(on_rack_corrected, (S.SCORING,)),
    (S.SCORING, E.GAME_SCORED): Transition(on_game_scored, (S.FINISHED,)),
    (S.FINISHED, E.REFEREE_CORRECTION): Transition(on_rack_corrected, (S.SCORING,)),
    # the box may reset or lose its cable at any moment of a game; it changes nothing at the table
    **{(state, E.TIMER_INCIDENT): Transition(on_timer_incident, (state,)) for state in _LIVE},
    # the arbiter accepts what the camera sees as the table: the camera's reference, not the game's state
    **{(state, E.TABLE_ACCEPTED): Transition(on_table_accepted, (state,)) for state in _LIVE},
    # the play area is the camera's, not the game's state: it may change between any two looks
    **{(state, E.PLAY_AREA_SET): Transition(on_play_area_set, (state,)) for state in _LIVE},
}


def apply(model: GameModel, event: Event) -> GameModel:
    transition = TRANSITIONS.get((model.state, event.kind))
    if transition is None:
        raise TransitionError(model.state, event.kind)
    after = transition.handler(model, event)
    if after.state not in transition.targets:  # a handler that strays from the table is a bug
        raise TransitionError(model.state, event.kind, f"handler led to undeclared state {after.state.value!r}")
    return dataclasses.replace(after, events=model.events + 1)


def fold(events: Iterable[Event], model: GameModel | None = None) -> GameModel:
    model = model or GameModel()
    for event in events:
        model = apply(model, event)
    return model


def expected_events(state: State) -> tuple[EventKind, ...]:
    return tuple(kind for (s, kind) in TRANSITIONS if s == state)
