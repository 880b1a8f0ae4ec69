"""What a stream shows of a game: the overlay's state read from the record, as of a moment.

The stream overlay (`/overlay/table`) and the spectator feed (`/watch`) draw the same picture: the
players and their tile counts, whose turn, the countdown, the table as tiles, the last verdict (a
`tileref clock` game: its clocks). On a table's own server the overlay follows the live table
(controller/web/live.py); everywhere else, and always for the spectator feed, the picture is
folded from the signed record up to a moment (`broadcast_state`).

The spectator feed stays `delay` seconds behind the table: it folds only the events recorded at
least `delay` seconds before the present of the server's `TimeSource` (never the browser's). An
event's time is its record stamp, which is whole seconds rounded down: it counts here as the
stamp plus one second, the latest it can have happened, so a state is never shown younger than
the delay. The delay is the organiser's, recorded with the game (`GameCreated.watch_delay`); a
server may keep a longer one (`--watch-delay`), never a shorter one.
"""
from __future__ import annotations

import time
from calendar import timegm
from typing import Any, Sequence

from controller.game.events import (
    ClockAdjusted, ClockAdjustment, ClockFact, ClockRecorded, GameCreated, GameScored, RefereeCorrection,
    TurnEndCause, TurnEnded, TurnJudged, TurnStarted, VerdictOverridden,
)
from controller.game.machine import GameModel, apply
from controller.records.chain import RecordedEvent
from controller.records.reports.turn_data import verdict_data

from .live import scores_of, status_of
from .templating import LOW_TIME_S

STAMP = "%Y-%m-%dT%H:%M:%SZ"
STAMP_RESOLUTION_S = 1.0  # a record stamp is whole seconds, rounded down
CLOCK_PREFIX = "clock-"
TIMED = ("turn-running", "turn-reading", "referee-check", "turn-judging")


def stamp_epoch(stamp: str | None) -> float | None:
    try:
        return float(timegm(time.strptime(stamp, STAMP))) if stamp else None
    except (TypeError, ValueError):
        return None


def event_time(recorded: RecordedEvent) -> float | None:
    """The latest moment the event can have happened (None: its stamp cannot be read)."""
    epoch = stamp_epoch(recorded.recorded_at)
    return None if epoch is None else epoch + STAMP_RESOLUTION_S


def recorded_delay(recorded: Sequence[RecordedEvent]) -> int:
    """The spectator delay the organiser recorded with the game (0: none)."""
    first = recorded[0].event if recorded else None
    delay = getattr(first, "watch_delay", None) if isinstance(first, GameCreated) else None
    return max(0, int(delay or 0))


def effective_delay(recorded: Sequence[RecordedEvent], least: int) -> int:
    """The delay a feed keeps: the game's own, or the server's when that is longer."""
    return max(recorded_delay(recorded), max(0, int(least)))


def old_enough(recorded: Sequence[RecordedEvent], until: float | None) -> list[RecordedEvent]:
    """The record's events up to `until` (None: all of them), in order; an event whose time cannot
    be read, and everything after it, counts as too young."""
    if until is None:
        return list(recorded)
    shown = []
    for item in recorded:
        at = event_time(item)
        if at is None or at > until:
            break
        shown.append(item)
    return shown


def broadcast_state(game_id: int, recorded: Sequence[RecordedEvent], until: float | None, now: float,
                    delay: int = 0) -> dict[str, Any]:
    """The overlay's picture of the game as of `until` (None: everything recorded), its countdown
    as at `now` (the feed's present: `until` itself for a delayed feed)."""
    shown = old_enough(recorded, until)
    first = shown[0].event if shown else None
    clock_game = isinstance(first, GameCreated) and first.variant.startswith(CLOCK_PREFIX)
    state: dict[str, Any] = {
        "kind": "clock" if clock_game else "table", "game": game_id, "delay": delay, "shown_seq": 0,
        "as_of": None, "players": [], "turn": 0, "phase": "new", "player": None, "pool": None, "table_melds": [],
        "clock": None, "verdict": None, "scores": None, "clockgame": None, "waiting": None,
    }
    if shown:
        state["shown_seq"], state["as_of"] = shown[-1].seq, shown[-1].recorded_at
    if clock_game:
        state["clockgame"] = clock_game_state(first, shown)
        return state
    model = GameModel()
    for item in shown:
        try:
            model = apply(model, item.event)
        except Exception:  # a record its machine cannot fold shows as far as it folds
            break
    if model.players:
        state.update(status_of(model))
    state["clock"] = countdown(shown, model, now)
    state["verdict"] = last_verdict(shown)
    state["scores"] = last_scores(shown)
    return state


def countdown(shown: Sequence[RecordedEvent], model: GameModel, now: float) -> dict[str, Any] | None:
    """The running turn's countdown as the record tells it: the seconds it started with, the time
    since (less any pause) and the referee's extensions; once the turn ended, what was left at the press."""
    started = next((r for r in reversed(shown) if isinstance(r.event, TurnStarted)), None)
    if started is None or model.state.value not in TIMED:
        return None
    event: TurnStarted = started.event
    begun = stamp_epoch(started.recorded_at)
    seconds, paused_at, paused_for, ended = float(event.seconds), None, 0.0, None
    for item in shown[shown.index(started) + 1:]:
        later = item.event
        at = stamp_epoch(item.recorded_at)
        if isinstance(later, ClockAdjusted) and at is not None:
            if later.action is ClockAdjustment.EXTEND:
                seconds += later.seconds
            elif later.action is ClockAdjustment.PAUSE and paused_at is None:
                paused_at = at
            elif later.action is ClockAdjustment.RESUME and paused_at is not None:
                paused_for += at - paused_at
                paused_at = None
        elif isinstance(later, TurnEnded):
            ended = later
    seat = model.players.index(event.player) + 1 if event.player in model.players else None
    data = {"seat": seat, "player": event.player, "running": False, "paused": False, "expired": False, "low": False,
            "seconds_left": None, "turn_seconds": model.turn_seconds}
    if ended is not None:
        expired = ended.cause is TurnEndCause.EXPIRED
        data.update(expired=expired, seconds_left=0 if expired else ended.seconds_left)
        return data
    if begun is None:
        return data
    running_for = (paused_at if paused_at is not None else now) - begun - paused_for
    left = max(0, int(round(seconds - running_for)))
    data.update(seconds_left=left, running=paused_at is None, paused=paused_at is not None,
                low=left <= LOW_TIME_S)
    return data


def last_verdict(shown: Sequence[RecordedEvent]) -> dict[str, Any] | None:
    verdict = None
    for item in shown:
        event = item.event
        if isinstance(event, TurnJudged):
            verdict = {**verdict_data(event), "head": "", "overridden": None}
        elif isinstance(event, VerdictOverridden) and verdict is not None and verdict["turn"] == event.turn:
            verdict["overridden"] = {"referee": event.referee, "reason": event.reason}
    return verdict


def last_scores(shown: Sequence[RecordedEvent]) -> dict[str, Any] | None:
    scores = None
    for item in shown:
        if isinstance(item.event, GameScored):
            scores = scores_of(item.event)
        elif isinstance(item.event, RefereeCorrection) and scores is not None:
            scores = None  # a rack corrected after the score: the game is scored again
    return scores


def clock_game_state(created: GameCreated, shown: Sequence[RecordedEvent]) -> dict[str, Any]:
    """A `tileref clock` game's clocks as its facts tell them (the table display's shape, ClockBoard)."""
    rules = dict(created.ruleset)
    duel = rules.get("reading") == "per-side"
    seats = tuple(created.players)
    limit = rules.get("seconds")
    limit_ms = int(limit) * 1000 if isinstance(limit, int) else None
    games = [value for name, value in created.ruleset if name == "game"]  # the clock's game, then the drawn game
    data: dict[str, Any] = {
        "game": str(games[0]) if games else created.variant.removeprefix(CLOCK_PREFIX),
        "game_id": str(games[-1]) if len(games) > 1 else "",
        "mode": "DUEL" if duel else "SESSION", "to_move": None, "phase": "running", "result": None, "facts": [],
        "sides": [{"name": name, "ms_left": limit_ms if duel else None, "flag": False}
                  for name in (seats[:2] if duel else seats)],
        "session_ms": None if duel else limit_ms,
    }
    for item in shown[1:]:
        event = item.event
        if not isinstance(event, ClockRecorded):
            continue
        if event.what is not ClockFact.RESULT:
            for name, ms in event.ms_left:
                if name == "session":
                    data["session_ms"] = ms
                for side in data["sides"]:
                    if side["name"] == name:
                        side["ms_left"] = ms
        if event.what is ClockFact.FLAG_FELL and event.player:
            for side in data["sides"]:
                side["flag"] = side["flag"] or side["name"] == event.player
        if event.what is ClockFact.PRESSED and event.player and duel:
            data["to_move"] = next((s for s in seats[:2] if s != event.player), None)
        if event.what in (ClockFact.STARTED, ClockFact.RESTORED) and event.player and duel:
            data["to_move"] = event.player
        if event.what is ClockFact.RESULT:
            data["result"], data["phase"] = event.detail, "over"
        data["facts"] = (data["facts"] + [{"what": str(event.what), "detail": event.detail,
                                           "at": (item.recorded_at or "")[11:19]}])[-4:]
    return data
