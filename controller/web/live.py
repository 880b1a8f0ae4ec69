"""What the live pages show, and how it reaches the browsers.

`LiveTable` holds the table display's state (plain data, under a lock) and fans every change out
to the WebSocket clients: each message carries the page regions that changed, rendered by the
same Jinja2 templates as the first page load, so the browser only swaps them in. Updates come
from the game's thread (the runner, the clock loop); the messages are handed to the server's event
loop, never written from the game's thread.

`WebDisplay` is a `Display` (adapters/display.py), composed with the console display: the runner
tells it what it tells the console (verdicts, the restore plan, scores, why it waits), its
observer (`observe`) sees every recorded event, and the timer box's own signals (ticks, low time,
expiry) mirror the countdown (`clock`). `ClockBoard` does the same for a `tileref clock` game.
"""
from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from pathlib import Path
from typing import Any, Iterable

from controller.adapters.display import Display, describe_unrestorable
from controller.adapters.waiting import WaitReason, WaitStatus
from controller.adapters.timer import ClockReading
from controller.game.events import (
    ClockAdjusted, CountAlert, Event, GameScored, RackRevealed, RedealClaimed, RefereeCorrection, RestoreChecked,
    TableAccepted, TableRead, TableUnrestorable, TimerIncident, TurnJudged, TurnStarted, VerdictOverridden,
)
from controller.game.machine import GameModel, State
from controller.records import Records
from controller.records.turn_data import (
    event_words, photo_data, placed_boxes, read_photo, reading_boxes, tile_width, verdict_data,
)
from controller.records.views import describe_restore

from .templating import LOW_TIME_S, environment

log = logging.getLogger(__name__)

REGIONS = {
    "status": "regions/status.html",
    "clock": "regions/clock.html",
    "verdict": "regions/verdict.html",
    "penalty": "regions/penalty.html",
    "alerts": "regions/alerts.html",
    "history": "regions/history.html",
    "frame": "regions/frame.html",
    "log": "regions/log.html",
    "clockgame": "regions/clockgame.html",
}
CLOCK_EVERY_S = 0.1  # at most this often a tick of the box is sent on (each change of state at once)
KEEP_ALERTS, KEEP_LOG = 6, 40


class LiveTable:
    """The live state of one table (a Rummikub game or a clock game) and its WebSocket clients."""

    def __init__(self, kind: str = "table", db: str | Path | None = None) -> None:
        self.kind = kind  # "table" or "clock"
        self.db = db  # the records file (or database) the live pages read photos and readings from
        self.lock = threading.RLock()
        self.state: dict[str, Any] = {
            "kind": kind, "game": None, "variant": "", "players": [], "turn": 0, "phase": "", "pool": None,
            "waiting": None, "scores": None, "clock": None, "verdict": None, "penalty": None, "alerts": [],
            "history": [], "frame": None, "log": [], "clockgame": None, "head": "",
        }
        self.seq = 0
        self.clients: set[asyncio.Queue] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._clock_sent = 0.0
        self._clock_key: tuple | None = None
        self.listeners: list = []  # callables (seq, regions) after each change (benchmarks, tests)

    # -- state ---------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return json.loads(json.dumps({**self.state, "seq": self.seq}, default=str))

    def update(self, regions: Iterable[str], **changes) -> None:
        with self.lock:
            self.state.update(changes)
            self.seq += 1
            names = tuple(dict.fromkeys(regions))
            message = json.dumps({"seq": self.seq, "regions": {name: self.render(name) for name in names},
                                  "sent": time.time()})
            self._send(message)
            seq = self.seq
        for listener in self.listeners:
            listener(seq, names)

    def alert(self, text: str, level: str = "info", regions: Iterable[str] = ()) -> None:
        with self.lock:
            alerts = (self.state["alerts"] + [{"text": text, "level": level, "at": time.strftime("%H:%M:%S")}])
            self.update(("alerts", *regions), alerts=alerts[-KEEP_ALERTS:])

    def said(self, text: str) -> None:
        with self.lock:
            lines = (self.state["log"] + [{"text": text, "at": time.strftime("%H:%M:%S")}])[-KEEP_LOG:]
            self.update(("log",), log=lines)

    def render(self, region: str) -> str:
        try:
            return environment().get_template(REGIONS[region]).render(s=self.state, LOW_TIME_S=LOW_TIME_S)
        except Exception:  # a display must never stop the game: say so in the region instead
            log.exception("rendering region %s", region)
            return environment().get_template("regions/broken.html").render(region=region)

    def regions(self, names: Iterable[str] | None = None) -> dict[str, str]:
        with self.lock:
            return {name: self.render(name) for name in (names or REGIONS)}

    # -- clients -------------------------------------------------------------------------
    def _send(self, message: str) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        for client in list(self.clients):
            try:
                loop.call_soon_threadsafe(client.put_nowait, message)
            except RuntimeError:  # the loop closed meanwhile (the server stopped)
                return

    def subscribe(self, loop: asyncio.AbstractEventLoop) -> tuple[asyncio.Queue, str]:
        """A new client's queue and its first message (every region as it is now)."""
        with self.lock:
            self.loop = loop
            client: asyncio.Queue = asyncio.Queue()
            self.clients.add(client)
            first = json.dumps({"seq": self.seq, "regions": {name: self.render(name) for name in REGIONS},
                                "sent": time.time()})
        return client, first

    def unsubscribe(self, client: asyncio.Queue) -> None:
        with self.lock:
            self.clients.discard(client)

    # -- the countdown -------------------------------------------------------------------
    def clock(self, reading: dict[str, Any], tick: bool) -> None:
        """A countdown mirrored from the box. Ticks are sent on at most every CLOCK_EVERY_S; a start,
        a stop, a pause, the low-time warning or the expiry at once."""
        key = (reading.get("seat"), reading.get("running"), reading.get("low"), reading.get("expired"),
               reading.get("paused"))
        now = time.monotonic()
        with self.lock:
            if tick and key == self._clock_key and now - self._clock_sent < CLOCK_EVERY_S:
                self.state["clock"] = reading  # kept for the next message and for new clients
                return
            self._clock_key, self._clock_sent = key, now
            self.update(("clock",), clock=reading)


class WebDisplay:
    """The table display in the browser, composed with another display (the console's)."""

    def __init__(self, live: LiveTable, inner: Display | None = None) -> None:
        self.live = live
        self.inner = inner
        self.model: GameModel | None = None

    # -- Display ---------------------------------------------------------------------------
    def say(self, text: str) -> None:
        if self.inner is not None:
            self.inner.say(text)
        self.live.said(text.strip())

    def verdict(self, event: TurnJudged, head: str = "") -> None:
        if self.inner is not None:
            self.inner.verdict(event, head)
        data = {**verdict_data(event), "head": head, "overridden": None}
        with self.live.lock:
            history = (self.live.state["history"] + [data])[-200:]
            self.live.update(("verdict", "history"), verdict=data, history=history, head=head)

    def restore(self, event: TurnJudged, photo: bytes | None, suffix: str) -> None:
        if self.inner is not None:
            self.inner.restore(event, photo, suffix)
        model = self.model
        sha = model.turn_photo if model is not None else None
        outlines: list[dict] = []
        if model is not None:
            outlines = to_put_back(model)
        shown = None
        if self.live.db is not None and sha:
            with Records(self.live.db, create=False, read_only=True) as records:
                shown = photo_data(records, sha, outlines)
        penalty = {"turn": event.turn, "player": event.player, "photo": shown, "to_rack": list(event.restore_to_rack),
                   "table": [list(m) for m in event.restore_table], "moved": len(outlines),
                   "violations": verdict_data(event)["violations"], "unrestorable": None, "not_yet": None}
        self.live.update(("penalty",), penalty=penalty)

    def unrestorable(self, event: TableUnrestorable) -> None:
        if self.inner is not None:
            self.inner.unrestorable(event)
        with self.live.lock:
            penalty = dict(self.live.state["penalty"] or {"turn": event.turn, "player": event.player, "photo": None,
                                                         "to_rack": [], "table": [], "moved": 0, "violations": []})
            penalty["unrestorable"] = describe_unrestorable(event).strip()
            penalty["table"] = [list(m) for m in event.kept]
            self.live.update(("penalty",), penalty=penalty)
        self.live.alert(describe_unrestorable(event).strip(), "warn")

    def scores(self, event: GameScored, head: str = "") -> None:
        if self.inner is not None:
            self.inner.scores(event, head)
        scores = {"end": event.end, "winner": event.winner, "rows": [{"name": n, "points": p} for n, p in event.scores],
                  "head": head}
        self.live.update(("status",), scores=scores, head=head)
        self.live.alert(f"game over ({event.end}): {event.winner} wins", "info")

    def waiting(self, status: WaitStatus) -> None:
        if self.inner is not None:
            self.inner.waiting(status)
        self.live.update(("status",), waiting=None if status.reason is WaitReason.SETTLED else status.detail)

    # -- the runner's observer ---------------------------------------------------------------
    def observe(self, model: GameModel, event: Event | None) -> None:
        self.model = model
        regions = ["status"]
        changes: dict[str, Any] = status_of(model)
        if isinstance(event, TurnStarted):
            changes["penalty"] = None
            regions.append("penalty")
        if isinstance(event, (TableRead, RestoreChecked, RackRevealed, TableUnrestorable, TurnStarted, TableAccepted)):
            frame = self.frame_of(model, event)
            if frame is not None:
                changes["frame"] = frame
                regions.append("frame")
        if isinstance(event, RestoreChecked):
            if event.matches:
                changes["penalty"] = None
                regions.append("penalty")
            else:
                with self.live.lock:
                    penalty = dict(self.live.state["penalty"] or {})
                if penalty:
                    penalty["not_yet"] = list(event.differences)
                    changes["penalty"] = penalty
                    regions.append("penalty")
        if isinstance(event, VerdictOverridden):
            changes["penalty"] = None
            regions += ["penalty", "history", "verdict"]
            with self.live.lock:
                history = [dict(v) for v in self.live.state["history"]]
                for row in history:
                    if row["turn"] == event.turn:
                        row["overridden"] = f"overridden by {event.referee}: the turn stands ({event.reason})"
                changes["history"] = history
                verdict = dict(self.live.state["verdict"] or {})
                if verdict.get("turn") == event.turn:
                    verdict["overridden"] = history[-1]["overridden"] if history else None
                    changes["verdict"] = verdict
        if isinstance(event, GameScored):
            changes["scores"] = {"end": event.end, "winner": event.winner,
                                 "rows": [{"name": n, "points": p} for n, p in event.scores]}
        if isinstance(event, RefereeCorrection) and model.state is State.SCORING:
            changes["scores"] = None  # a rack corrected after the score: the game is scored again
        self.live.update(regions, **changes)
        alert = alert_of(event)
        if alert is not None:
            self.live.alert(*alert)

    def frame_of(self, model: GameModel, event: Event) -> dict | None:
        if self.live.db is None:
            return None
        with Records(self.live.db, create=False, read_only=True) as records:
            if isinstance(event, TurnStarted):
                shown = photo_data(records, event.photo, placed_boxes(model.table.tiles))
                caption = f"turn {event.turn} starts: {event.player}"
            elif isinstance(event, TableAccepted):
                shown = photo_data(records, event.photo, [])
                caption = f"table accepted as the camera saw it, by {event.by}"
            elif isinstance(event, RackRevealed):
                stored = records.reading(event.reading) if event.reading else None
                shown = photo_data(records, event.photo, reading_boxes(stored.reading) if stored else [])
                caption = f"{event.player}'s rack laid open"
            else:
                shown = read_photo(records, event)
                caption = event_words(event)
        if shown is None:
            return None
        return {**shown, "caption": caption, "turn": model.turn}

    # -- the box's countdown -------------------------------------------------------------------
    def clock(self, reading: ClockReading) -> None:
        model = self.model
        player = None
        if model is not None and reading.seat and 1 <= reading.seat <= len(model.players):
            player = model.players[reading.seat - 1]
        seconds = reading.seconds_left
        data = {"seat": reading.seat, "player": player, "seconds_left": seconds, "running": reading.running,
                "low": reading.low or (reading.running and seconds is not None and seconds <= LOW_TIME_S),
                "expired": reading.expired, "paused": reading.paused,
                "turn_seconds": model.turn_seconds if model is not None else None}
        self.live.clock(data, tick=reading.running)


def status_of(model: GameModel) -> dict[str, Any]:
    players = [{"name": name, "seat": n + 1, "rack": model.racks[n] if n < len(model.racks) else None,
                "current": n == model.current and model.state in (State.TURN_RUNNING, State.TURN_READING,
                                                                  State.REFEREE_CHECK, State.TURN_JUDGING,
                                                                  State.RESTORING, State.TURN_READY),
                "penalty_points": model.penalty_points[n] if n < len(model.penalty_points) else 0}
               for n, name in enumerate(model.players)]
    return {"variant": model.variant, "players": players, "turn": model.turn, "phase": model.state.value,
            "pool": model.pool if model.players else None, "paused": model.paused}


def alert_of(event: Event | None) -> tuple[str, str] | None:
    if isinstance(event, CountAlert):
        return event_words(event), "bad"
    if isinstance(event, TimerIncident):
        return event_words(event), "warn"
    if isinstance(event, (RefereeCorrection, VerdictOverridden, ClockAdjusted)):
        return event_words(event), "referee"
    if isinstance(event, RestoreChecked):
        if event.accepted_mismatch:
            return "restore: " + describe_restore(event), "bad"
        if event.matches:
            return "restore: " + describe_restore(event), "info"
        return "not restored yet: " + "; ".join(event.differences), "warn"
    if isinstance(event, RedealClaimed):
        return event_words(event), "info"
    return None


def to_put_back(model: GameModel) -> list[dict[str, Any]]:
    """What to outline on the photo taken at the start of the turn (the same camera, the same pixels):
    the table's tiles that are not where they lay (`putback`: they go back there) and the tiles that
    lie where nothing lay (`takeback`: the played tiles, back to the rack or where they came from)."""
    before = model.table.tiles
    after = model.pending.tiles if model.pending is not None else ()
    width = tile_width(before + after)
    radius = 0.45 * width
    free = list(range(len(after)))
    moved: set[int] = set()
    for index, (code, x, y) in enumerate(before):
        match = next((k for k in free if after[k][0] == code
                      and ((x - after[k][1]) ** 2 + (y - after[k][2]) ** 2) ** 0.5 <= radius), None)
        if match is None:
            moved.add(index)
        else:
            free.remove(match)
    boxes = [{**box, "cls": "putback", "label": box["code"]}
             for box in placed_boxes(before, moved, width) if box["doubt"]]
    taken = [after[k] for k in free]
    boxes += [{**box, "cls": "takeback", "label": box["code"]}
              for box in placed_boxes(taken, set(), width)]
    return boxes


class ClockBoard:
    """The table display of a `tileref clock` game: both sides' times (DUEL) or the session's (SESSION),
    whose move, flag fall and result. Fed by the clock command's loop (facts and the box's ticks)."""

    def __init__(self, live: LiveTable, game: str, game_id: str, mode: str, seats: tuple[str, ...],
                 first: str, seconds: int | None) -> None:
        self.live = live
        self.seats = seats
        limit = None if seconds is None else seconds * 1000
        self.data: dict[str, Any] = {
            "game": game, "game_id": game_id, "mode": mode, "to_move": first if mode == "DUEL" else None,
            "sides": [{"name": name, "ms_left": limit if mode == "DUEL" else None, "flag": False}
                      for name in (seats[:2] if mode == "DUEL" else seats)],
            "session_ms": limit if mode == "SESSION" else None, "phase": "running", "result": None, "facts": [],
        }
        self._sent = 0.0
        live.update(("clockgame",), clockgame=self.copy())

    def copy(self) -> dict[str, Any]:
        return json.loads(json.dumps(self.data))

    def fact(self, what: str, player: str | None, ms_left: tuple[tuple[str, int], ...], detail: str,
             phase: str) -> None:
        with self.live.lock:
            # the result's times are the box's last answer, not the times at the end: keep the display's
            for name, ms in ms_left if what != "result" else ():
                if name == "session":
                    self.data["session_ms"] = ms
                for side in self.data["sides"]:
                    if side["name"] == name:
                        side["ms_left"] = ms
            if what == "flag-fell" and player is not None:
                for side in self.data["sides"]:
                    side["flag"] = side["flag"] or side["name"] == player
            if what == "pressed" and player is not None and self.data["mode"] == "DUEL" and "hands over" in detail:
                self.data["to_move"] = next((s for s in self.seats[:2] if s != player), None)
            if what == "restored" and player is not None and self.data["mode"] == "DUEL":
                self.data["to_move"] = player  # a rebooted box given back its clock: the side to move runs
            if what == "result":
                self.data["result"] = detail
            self.data["phase"] = phase
            self.data["facts"] = (self.data["facts"] + [{"what": what, "detail": detail,
                                                         "at": time.strftime("%H:%M:%S")}])[-8:]
            self.live.update(("clockgame",), clockgame=self.copy())

    def tick(self, seat: int, seconds_left: int) -> None:
        with self.live.lock:
            if self.data["mode"] == "SESSION":
                self.data["session_ms"] = seconds_left * 1000
            elif 1 <= seat <= len(self.seats):
                name = self.seats[seat - 1]
                self.data["to_move"] = name
                for side in self.data["sides"]:
                    if side["name"] == name:
                        side["ms_left"] = seconds_left * 1000
            now = time.monotonic()
            if now - self._sent < CLOCK_EVERY_S:
                self.live.state["clockgame"] = self.copy()
                return
            self._sent = now
            self.live.update(("clockgame",), clockgame=self.copy())
