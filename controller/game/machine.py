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
from dataclasses import dataclass, replace
from typing import Callable, Iterable

from .errors import GameSetupError, TransitionError
from .events import (
    CountAlert, Dealt, Event, EventKind, GameCreated, GameScored, PlacedTile, RackRevealed,
    RedealClaimed, RefereeCorrection, RestoreChecked, StartOrderDrawn, TableRead, TimerIncident,
    TurnEnded, TurnJudged, TurnStarted,
)

TILES_IN_GAME = 106
RACK_AT_DEAL = 14
MIN_PLAYERS, MAX_PLAYERS = 2, 4


class State(str, enum.Enum):
    NEW = "new"
    SEATING = "seating"  # drawing tiles for the start order
    DEALING = "dealing"
    TURN_READY = "turn-ready"  # the next turn can start
    TURN_RUNNING = "turn-running"  # the timer runs for a seat
    TURN_READING = "turn-reading"  # button pressed or time out: read the table
    REFEREE_CHECK = "referee-check"  # a read the rules could not settle waits for the referee
    TURN_JUDGING = "turn-judging"
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
        tiles = list(self.tiles)
        for index, code in changes:
            if not 0 <= index < len(tiles):
                raise TransitionError(State.REFEREE_CHECK, EventKind.REFEREE_CORRECTION,
                                      f"tile index {index!r} is not on the table read ({len(tiles)} tiles)")
            _, x, y = tiles[index]
            tiles[index] = (code, x, y)
        return TableState(tuple(tiles), self.sets)


@dataclass(frozen=True)
class Judgement:
    """The verdict waiting for its restore (penalty) and its draws."""

    player_index: int
    penalty: bool  # False: a turn without play whose rearranging must be undone (no penalty)
    draw: int
    penalty_points: int
    played: int
    taken: int


@dataclass(frozen=True)
class GameModel:
    state: State = State.NEW
    variant: str = ""
    players: tuple[str, ...] = ()
    turn_seconds: int = 0
    pool_out_ends_at_last_draw: bool = False
    count_mismatch_disqualifies: bool = False
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
    pending: TableState | None = None  # table read after the turn, before judging
    pending_doubts: tuple = ()
    judgement: Judgement | None = None
    passes: int = 0  # turns in a row with nothing played while the pool is empty
    end: str | None = None
    winner: str | None = None
    revealed: tuple[tuple[str, tuple[str, ...]], ...] = ()
    scores: tuple[tuple[str, int], ...] = ()
    alerts: int = 0
    alert_turn: int = -1  # the turn of the last count alert (one alert per turn)
    events: int = 0

    @property
    def player(self) -> str:
        return self.players[self.current]

    @property
    def tiles_counted(self) -> int:
        return self.table.tile_count + sum(self.racks) + self.pool

    def rack_of(self, player: str) -> int:
        return self.racks[self.players.index(player)]

    def to_reveal(self) -> tuple[str, ...]:
        """Players whose rack is still to be laid open: everyone but the winner (empty rack)."""
        done = {name for name, _ in self.revealed}
        return tuple(p for p in self.players if p not in done and not (self.end == "empty-rack" and p == self.winner))


Handler = Callable[[GameModel, Event], GameModel]


@dataclass(frozen=True)
class Transition:
    handler: Handler
    targets: tuple[State, ...]  # the states the handler may lead to (documentation and checks)


def _set(model: GameModel, index: int, values: tuple, value) -> tuple:
    return values[:index] + (value,) + values[index + 1:]


def _next_seat(model: GameModel) -> GameModel:
    return replace(model, current=(model.current + 1) % len(model.players), state=State.TURN_READY,
                   pending=None, pending_doubts=(), judgement=None, turn_photo=None)


def _draw(model: GameModel, index: int, count: int) -> GameModel:
    drawn = min(count, model.pool)
    return replace(model, racks=_set(model, index, model.racks, model.racks[index] + drawn), pool=model.pool - drawn)


def _end_if_pool_out(model: GameModel, drew: bool) -> GameModel:
    """The pool rules: japan-2017 ends at the last draw; otherwise play on until nobody plays."""
    if model.pool == 0 and drew and model.pool_out_ends_at_last_draw:
        return replace(model, state=State.REVEALING, end="pool-out")
    if model.passes >= len(model.players):
        return replace(model, state=State.REVEALING, end="pool-out")
    return model


# ------------------------------------------------------------------ handlers


def on_game_created(model: GameModel, event: GameCreated) -> GameModel:
    players = tuple(event.players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS or len(set(players)) != len(players):
        raise GameSetupError(f"a game needs 2 to 4 different players, got {list(players)!r}")
    if event.turn_seconds <= 0:
        raise GameSetupError(f"seconds per turn must be positive, got {event.turn_seconds!r}")
    n = len(players)
    return replace(
        model, state=State.SEATING, variant=event.variant, players=players, turn_seconds=event.turn_seconds,
        pool_out_ends_at_last_draw=event.pool_out_ends_at_last_draw,
        count_mismatch_disqualifies=event.count_mismatch_disqualifies,
        racks=(0,) * n, pool=TILES_IN_GAME, opened=(False,) * n, had_turn=(False,) * n, penalty_points=(0,) * n,
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
    return replace(model, state=State.TURN_READY, deal=event.deal, racks=(RACK_AT_DEAL,) * n,
                   pool=TILES_IN_GAME - RACK_AT_DEAL * n, table=TableState(), had_turn=(False,) * n)


def on_redeal(model: GameModel, event: RedealClaimed) -> GameModel:
    index = model.players.index(event.player) if event.player in model.players else -1
    if index != model.current or not model.first_turn:
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
                   had_turn=_set(model, model.current, model.had_turn, True))


def on_turn_ended(model: GameModel, event: TurnEnded) -> GameModel:
    if event.turn != model.turn:
        raise TransitionError(model.state, event.kind, f"turn {event.turn!r} ended but turn {model.turn} is running")
    return replace(model, state=State.TURN_READING)


def on_timer_incident(model: GameModel, event: TimerIncident) -> GameModel:
    return model


def on_table_read(model: GameModel, event: TableRead) -> GameModel:
    pending = TableState(tuple(event.tiles), tuple(event.sets))
    state = State.REFEREE_CHECK if event.doubts else State.TURN_JUDGING
    return replace(model, state=state, pending=pending, pending_doubts=tuple(event.doubts))


def on_table_corrected(model: GameModel, event: RefereeCorrection) -> GameModel:
    if event.target != "table" or model.pending is None:
        raise TransitionError(model.state, event.kind, f"only the table read can be corrected now, not {event.target!r}")
    return replace(model, state=State.TURN_JUDGING, pending=model.pending.with_codes(event.changes), pending_doubts=())


def on_turn_judged(model: GameModel, event: TurnJudged) -> GameModel:
    index = model.current
    if event.player != model.player or event.turn != model.turn:
        raise TransitionError(model.state, event.kind,
                              f"verdict for {event.player!r} turn {event.turn} but turn {model.turn} is {model.player!r}'s")
    if event.outcome not in ("legal", "relieved", "draw", "penalty"):
        raise TransitionError(model.state, event.kind, f"unknown outcome {event.outcome!r}")
    if event.restore_required:
        judgement = Judgement(index, event.outcome == "penalty", event.draw, event.penalty_points,
                              len(event.played), len(event.taken))
        return replace(model, state=State.RESTORING, judgement=judgement)
    rack = model.racks[index] - len(event.played)
    model = replace(model, racks=_set(model, index, model.racks, rack), table=model.pending or model.table,
                    opened=_set(model, index, model.opened, model.opened[index] or event.opened_now))
    if event.played:
        model = replace(model, passes=0)
        if rack <= 0:
            return replace(model, state=State.REVEALING, end="empty-rack", winner=model.player, pending=None)
        return _next_seat(model)
    drew = model.pool > 0 and event.draw > 0
    model = _draw(model, index, event.draw)
    model = replace(model, passes=0 if drew else model.passes + 1)
    ended = _end_if_pool_out(model, drew)
    return ended if ended.state == State.REVEALING else _next_seat(model)


def on_restore_checked(model: GameModel, event: RestoreChecked) -> GameModel:
    if not event.matches:
        return model
    judgement = model.judgement
    assert judgement is not None  # RESTORING is only entered with a judgement
    index = judgement.player_index
    drew = model.pool > 0 and judgement.draw > 0
    model = _draw(replace(model, table=TableState(tuple(event.tiles), tuple(event.sets))), index, judgement.draw)
    model = replace(model, penalty_points=_set(model, index, model.penalty_points,
                                               model.penalty_points[index] + judgement.penalty_points),
                    penalties=_set(model, index, model.penalties, model.penalties[index] + int(judgement.penalty)),
                    passes=0 if drew else model.passes)
    ended = _end_if_pool_out(model, drew)
    return ended if ended.state == State.REVEALING else _next_seat(model)


def on_count_alert(model: GameModel, event: CountAlert) -> GameModel:
    model = replace(model, alerts=model.alerts + 1, alert_turn=event.turn)
    return replace(model, state=State.DISQUALIFIED) if event.disqualified else model


def on_rack_revealed(model: GameModel, event: RackRevealed) -> GameModel:
    if event.player not in model.to_reveal():
        raise TransitionError(model.state, event.kind, f"{event.player!r} has no rack to lay open")
    model = replace(model, revealed=model.revealed + ((event.player, tuple(event.codes)),))
    return replace(model, state=State.SCORING) if not model.to_reveal() else model


def on_rack_corrected(model: GameModel, event: RefereeCorrection) -> GameModel:
    player = event.target.removeprefix("rack:")
    names = [name for name, _ in model.revealed]
    if not event.target.startswith("rack:") or player not in names or event.rack is None:
        raise TransitionError(model.state, event.kind, f"no laid-open rack {event.target!r} to correct")
    revealed = tuple((name, tuple(event.rack) if name == player else codes) for name, codes in model.revealed)
    # a corrected rack after the score means the score is taken again
    return replace(model, revealed=revealed, state=State.SCORING if model.state == State.FINISHED else model.state,
                   scores=() if model.state == State.FINISHED else model.scores)


def on_game_scored(model: GameModel, event: GameScored) -> GameModel:
    return replace(model, state=State.FINISHED, winner=event.winner, end=event.end, scores=tuple(event.scores))


# --------------------------------------------------------------------- table

S, E = State, EventKind
_LIVE = (S.SEATING, S.DEALING, S.TURN_READY, S.TURN_RUNNING, S.TURN_READING, S.REFEREE_CHECK, S.TURN_JUDGING,
         S.RESTORING, S.REVEALING, S.SCORING)
_IN_PLAY = (S.TURN_READY, S.TURN_RUNNING, S.TURN_READING, S.REFEREE_CHECK, S.TURN_JUDGING, S.RESTORING)

TRANSITIONS: dict[tuple[State, EventKind], Transition] = {
    (S.NEW, E.GAME_CREATED): Transition(on_game_created, (S.SEATING,)),
    (S.SEATING, E.START_ORDER_DRAWN): Transition(on_start_order, (S.SEATING, S.DEALING)),
    (S.DEALING, E.DEALT): Transition(on_dealt, (S.TURN_READY,)),
    (S.TURN_READY, E.TURN_STARTED): Transition(on_turn_started, (S.TURN_RUNNING,)),
    (S.TURN_RUNNING, E.TURN_ENDED): Transition(on_turn_ended, (S.TURN_READING,)),
    (S.TURN_RUNNING, E.REDEAL_CLAIMED): Transition(on_redeal, (S.TURN_RUNNING, S.DEALING)),
    (S.TURN_READING, E.TABLE_READ): Transition(on_table_read, (S.TURN_JUDGING, S.REFEREE_CHECK)),
    (S.REFEREE_CHECK, E.REFEREE_CORRECTION): Transition(on_table_corrected, (S.TURN_JUDGING,)),
    (S.TURN_JUDGING, E.TURN_JUDGED): Transition(on_turn_judged, (S.TURN_READY, S.RESTORING, S.REVEALING)),
    (S.RESTORING, E.RESTORE_CHECKED): Transition(on_restore_checked, (S.RESTORING, S.TURN_READY, S.REVEALING)),
    **{(state, E.COUNT_ALERT): Transition(on_count_alert, (state, S.DISQUALIFIED)) for state in _IN_PLAY},
    (S.REVEALING, E.RACK_REVEALED): Transition(on_rack_revealed, (S.REVEALING, S.SCORING)),
    (S.REVEALING, E.REFEREE_CORRECTION): Transition(on_rack_corrected, (S.REVEALING,)),
    (S.SCORING, E.REFEREE_CORRECTION): Transition(on_rack_corrected, (S.SCORING,)),
    (S.SCORING, E.GAME_SCORED): Transition(on_game_scored, (S.FINISHED,)),
    (S.FINISHED, E.REFEREE_CORRECTION): Transition(on_rack_corrected, (S.SCORING,)),
    # the box may reset or lose its cable at any moment of a game; it changes nothing at the table
    **{(state, E.TIMER_INCIDENT): Transition(on_timer_incident, (state,)) for state in _LIVE},
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
