"""The clock game as a pure state machine: values in (a press, a flag fall, a line the
director typed), a `Step` out (the new state, the facts to record, the commands for the
box, and the result once the game is decided). No I/O: the command line adapter
(`controller/commands/clock.py`) carries the commands to the box and the facts to the
records store.

Box seats are the tournament table's seats: button 1 is the table's first player,
button 2 the second (mahjong: the session countdown only, presses are recorded).
"""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from decimal import Decimal
from typing import Union

# ClockFact is defined with the event that records it (ClockRecorded.what), one list of values
from controller.game.events import ClockFact
from controller.tournament import MatchResult, OthelloCount, othello_result, shogi_result
from controller.tournament.errors import TournamentError
from controller.tournament.mahjong import RON_CUP_SCORING, Hanchan, MahjongScoring, health_scoring, score_hanchan
from controller.tournament.model import HanchanResult

from .errors import ClockInputError
from .rules import ClockGame, ClockRules, Reading, Scoring

ARBITER = "A"


class Phase(str, enum.Enum):
    RUNNING = "running"
    PAUSED = "paused"
    LAST_HAND = "last-hand"  # mahjong: the session ran out, the hand in progress is the last
    COUNTING = "counting"  # othello read per game: time is up, the discs on the board decide
    FINISHED = "finished"


class BoxAction(str, enum.Enum):
    CONFIGURE = "configure"
    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    BANK = "bank"  # one clock's time left (a restore after a reboot; boxes that announce BANK)


@dataclass(frozen=True)
class BoxCommand:
    action: BoxAction
    seat: int = 0
    mode: str = ""
    seconds: int = 0
    ms: int = 0  # BANK: the time left to set


@dataclass(frozen=True)
class Fact:
    what: ClockFact
    player: str | None = None
    ms_left: tuple[tuple[str, int], ...] = ()  # empty: the adapter fills it from the box's answer
    detail: str = ""


# inputs --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pressed:
    button: str  # "1".."4", "A"
    running_seat: int | None
    ms_left: int


@dataclass(frozen=True)
class FlagFell:
    seat: int


@dataclass(frozen=True)
class Entered:
    line: str


Input = Union[Pressed, FlagFell, Entered]
Result = Union[MatchResult, HanchanResult]


@dataclass(frozen=True)
class ClockState:
    rules: ClockRules
    game_id: str  # the tournament game (R1-T2-G1), "" outside an event
    seats: tuple[str, ...]  # box seat n is seats[n - 1]
    first: str  # the side that moves first in the current game: sente (shogi), black (othello)
    opening_first: str  # sente of the first game (shogi: the match's sente)
    phase: Phase = Phase.RUNNING
    outcomes: tuple[str, ...] = ()  # shogi: each game's outcome so far ("repetition")
    paused_from: Phase = Phase.RUNNING

    @property
    def second(self) -> str:
        return next(p for p in self.seats[:2] if p != self.first)

    def seat_of(self, player: str) -> int:
        return self.seats.index(player) + 1

    def player_at(self, seat: int | None) -> str | None:
        return self.seats[seat - 1] if seat and 1 <= seat <= len(self.seats) else None


@dataclass(frozen=True)
class Step:
    state: ClockState
    facts: tuple[Fact, ...] = ()
    commands: tuple[BoxCommand, ...] = ()
    result: Result | None = None


def scoring_of(rules: ClockRules) -> MahjongScoring:
    """The event's conversion, as `tileref mahjong score` does it."""
    if rules.scoring is Scoring.HEALTH_MAHJONG:
        from controller.tournament.formats import HealthMahjongSettings

        points = rules.rank_points or HealthMahjongSettings().rank_points
        return health_scoring(tuple(Decimal(str(v)) for v in points))
    return RON_CUP_SCORING


def start(rules: ClockRules, game_id: str, seats: tuple[str, ...], first: str | None = None) -> Step:
    want = 4 if rules.game is ClockGame.MAHJONG else 2
    if len(seats) != want or len(set(seats)) != want:
        raise ClockInputError(f"players {list(seats)!r}: {rules.game.value} needs {want} different players")
    first = first or seats[0]
    if first not in seats[:2] and rules.game is not ClockGame.MAHJONG:
        raise ClockInputError(f"first player {first!r} does not sit at this table ({', '.join(seats)})")
    state = ClockState(rules, game_id, tuple(seats), first, first)
    commands: tuple[BoxCommand, ...] = ()
    if rules.seconds is not None:
        seat = state.seat_of(first) if rules.reading is Reading.PER_SIDE else 0
        commands = (BoxCommand(BoxAction.CONFIGURE, mode=rules.box_mode, seconds=rules.seconds),
                    BoxCommand(BoxAction.START, seat))
    limit = "no time limit" if rules.seconds is None else f"{rules.seconds} s {rules.reading.value}"
    who = "" if rules.game is ClockGame.MAHJONG else f"; {first} moves first ({_colour(state, first)})"
    return Step(state, (Fact(ClockFact.STARTED, None, (), f"{rules.game.value} {game_id or '(no event)'}: "
                              f"{limit}{who}; {rules.source}"),), commands)


def _colour(state: ClockState, player: str) -> str:
    first, second = ("sente", "gote") if state.rules.game is ClockGame.SHOGI else ("black", "white")
    return first if player == state.first else second


def step(state: ClockState, event: Input) -> Step:
    if state.phase is Phase.FINISHED:
        if isinstance(event, Entered):
            raise ClockInputError(f"input {event.line!r}: the game is over")
        return Step(state)
    if isinstance(event, Pressed):
        return _pressed(state, event)
    if isinstance(event, FlagFell):
        return _flag(state, event.seat)
    return _entered(state, event.line)


def _pressed(state: ClockState, press: Pressed) -> Step:
    if press.button == ARBITER:
        fact = Fact(ClockFact.PRESSED, None, (), "arbiter button")
        toggled = _toggle_pause(state)
        return dataclasses.replace(toggled, facts=(fact, *toggled.facts))
    player = state.player_at(int(press.button)) if press.button.isdigit() else None
    if player is None:
        return Step(state, (Fact(ClockFact.PRESSED, None, (), f"button {press.button}: no player there"),))
    running = state.player_at(press.running_seat)
    detail = f"button {press.button}"
    if state.rules.reading is Reading.PER_SIDE and running == player and state.phase is Phase.RUNNING:
        other = next(p for p in state.seats if p != player)
        detail += f": {player} hands over to {other}"
    ms = ((running, press.ms_left),) if running else ()
    return Step(state, (Fact(ClockFact.PRESSED, player, ms, detail),))


def _toggle_pause(state: ClockState) -> Step:
    if state.phase is Phase.PAUSED:
        resumed = dataclasses.replace(state, phase=state.paused_from)
        commands = (BoxCommand(BoxAction.RESUME),) if _box_running(state.paused_from, state) else ()
        return Step(resumed, (Fact(ClockFact.RESUMED, None, (), "play resumes"),), commands)
    paused = dataclasses.replace(state, phase=Phase.PAUSED, paused_from=state.phase)
    commands = (BoxCommand(BoxAction.PAUSE),) if _box_running(state.phase, state) else ()
    return Step(paused, (Fact(ClockFact.PAUSED, None, (), "clock paused"),), commands)


def _box_running(phase: Phase, state: ClockState) -> bool:
    return phase is Phase.RUNNING and state.rules.seconds is not None


def _flag(state: ClockState, seat: int) -> Step:
    rules = state.rules
    if rules.game is ClockGame.MAHJONG:
        done = dataclasses.replace(state, phase=Phase.LAST_HAND)
        return Step(done, (Fact(ClockFact.SESSION_ENDED, None, (("session", 0),),
                                "the session time is up: the hand in progress is the last"),))
    if not rules.flag_loses:
        done = dataclasses.replace(state, phase=Phase.COUNTING)
        return Step(done, (Fact(ClockFact.FLAG_FELL, None, (("game", 0),),
                                "the game's time is up: play stops, count the discs"),))
    loser = state.player_at(seat)
    if loser is None:
        return Step(state, (Fact(ClockFact.BOX, None, (), f"expiry of seat {seat}, where no player sits"),))
    winner = next(p for p in state.seats if p != loser)
    flag = Fact(ClockFact.FLAG_FELL, loser, ((loser, 0),), f"{loser}'s flag fell ({_colour(state, loser)}): "
                f"{winner} wins on time")
    if rules.game is ClockGame.SHOGI:
        result = _shogi(state, "sente" if winner == state.first else "gote")
        result = dataclasses.replace(result, detail=result.detail + " on time")
    else:
        black, white = state.first, state.second
        result = MatchResult(state.game_id, winner, f"othello {black} (black) v {white} (white): "
                             f"{loser}'s flag fell, {winner} wins on time", (black, white))
    return _finish(state, result, flag, box_stopped=True)


def _shogi(state: ClockState, outcome: str) -> MatchResult:
    opening_second = next(p for p in state.seats if p != state.opening_first)
    return shogi_result(state.game_id, state.opening_first, opening_second, (*state.outcomes, outcome))


def _finish(state: ClockState, result: Result, *facts: Fact, box_stopped: bool = False) -> Step:
    # the clock stops where it stands, so the record keeps both times (an expired box stopped itself)
    commands = (BoxCommand(BoxAction.PAUSE),) if _box_running(state.phase, state) and not box_stopped else ()
    done = dataclasses.replace(state, phase=Phase.FINISHED)
    detail = result.detail if isinstance(result, MatchResult) else ", ".join(
        f"{name} {value:+.1f}" for name, value in result.scores.items())
    winner = result.winner if isinstance(result, MatchResult) else None
    return Step(done, (*facts, Fact(ClockFact.RESULT, winner, (), detail)), commands, result)


def _entered(state: ClockState, line: str) -> Step:
    words = line.split()
    if not words:
        return Step(state)
    verb, args = words[0].lower(), words[1:]
    game = state.rules.game
    if verb in ("pause", "resume"):
        if (verb == "pause") == (state.phase is Phase.PAUSED):
            raise ClockInputError(f"input {line!r}: the clock is {'already' if verb == 'pause' else 'not'} paused")
        return _toggle_pause(state)
    if game is ClockGame.SHOGI and verb == "repetition" and not args:
        return _repetition(state)
    if game is ClockGame.SHOGI and verb == "win" and len(args) == 1:
        return _shogi_win(state, line, args[0])
    if game is ClockGame.OTHELLO and verb == "discs" and len(args) in (2, 3):
        return _discs(state, line, args)
    if game is ClockGame.MAHJONG and verb == "points":
        return _points(state, line, args)
    raise ClockInputError(f"input {line!r}: expected {EXPECTED[game]}")


EXPECTED = {
    ClockGame.SHOGI: "'win NAME|sente|gote', 'repetition', 'pause' or 'resume'",
    ClockGame.OTHELLO: "'discs BLACK WHITE [DRAW-RIGHT]', 'pause' or 'resume'",
    ClockGame.MAHJONG: "'points NAME=POINTS x4 [riichi=N] [chombo=NAME]...', 'pause' or 'resume'",
}


def _repetition(state: ClockState) -> Step:
    if state.phase is Phase.FINISHED:
        raise ClockInputError("input 'repetition': the game is over")
    old_first, new_first = state.first, state.second
    swapped = dataclasses.replace(state, first=new_first, outcomes=state.outcomes + ("repetition",),
                                  phase=Phase.RUNNING)
    number = len(swapped.outcomes) + 1
    commands = (BoxCommand(BoxAction.START, swapped.seat_of(new_first)),) if state.rules.seconds else ()
    return Step(swapped, (
        Fact(ClockFact.REPETITION, None, (), f"repetition draw (sennichite) in game {number - 1}: "
             f"{old_first} was sente"),
        Fact(ClockFact.REPLAY_STARTED, new_first, (), f"game {number}: {new_first} sente, {old_first} gote, "
             "colours swapped, on the time each has left"),
    ), commands)


def _shogi_win(state: ClockState, line: str, who: str) -> Step:
    if who.lower() in ("sente", "gote"):
        outcome = who.lower()
    elif who in state.seats:
        outcome = "sente" if who == state.first else "gote"
    else:
        raise ClockInputError(f"input {line!r}: {who!r} is neither sente, gote nor a player here "
                              f"({', '.join(state.seats)})")
    return _finish(state, _shogi(state, outcome))


def _number(text: str, what: str, line: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ClockInputError(f"input {line!r}: {what} {text!r} is not a whole number") from None


def _discs(state: ClockState, line: str, args: list[str]) -> Step:
    black, white = _number(args[0], "black discs", line), _number(args[1], "white discs", line)
    draw_right = args[2] if len(args) == 3 else None
    if draw_right is not None and draw_right not in state.seats:
        raise ClockInputError(f"input {line!r}: draw right {draw_right!r} is not a player here")
    try:
        result = othello_result(state.game_id, OthelloCount(state.first, state.second, black, white, draw_right))
    except TournamentError as error:
        raise ClockInputError(f"input {line!r}: {error}") from None
    return _finish(state, result)


def _points(state: ClockState, line: str, args: list[str]) -> Step:
    points: dict[str, int] = {}
    riichi, chombo = 0, {}
    for word in args:
        key, sep, value = word.rpartition("=")
        if not sep or not key:
            raise ClockInputError(f"input {line!r}: {word!r} is not NAME=POINTS")
        if key == "riichi":
            riichi = _number(value, "riichi", line)
        elif key == "chombo":
            if value not in state.seats:
                raise ClockInputError(f"input {line!r}: chombo for {value!r}, who is not at this table")
            chombo[value] = chombo.get(value, 0) + 1
        elif key in state.seats:
            if key in points:
                raise ClockInputError(f"input {line!r}: points for {key!r} twice")
            points[key] = _number(value, f"points of {key}", line)
        else:
            raise ClockInputError(f"input {line!r}: {key!r} is not a player at this table ({', '.join(state.seats)})")
    missing = [p for p in state.seats if p not in points]
    if missing:
        raise ClockInputError(f"input {line!r}: no points for {', '.join(missing)}")
    try:
        scores = score_hanchan(Hanchan(points, state.seats, riichi, chombo), scoring_of(state.rules))
    except TournamentError as error:
        raise ClockInputError(f"input {line!r}: {error}") from None
    return _finish(state, HanchanResult(state.game_id, scores))
