"""What the live pages show, and how it reaches the browsers.

`LiveTable` holds the table display's state (plain data, under a lock) and fans every change out
to the WebSocket clients: each message carries the page regions that changed, rendered by the
same Jinja2 templates as the first page load, in the table's language (every word from the
catalogue, controller/messages), so the browser only swaps them in. A region drawn from where the
game stands (what to do now, the referee's choices, whether a countdown shows) follows the data it
is drawn from (FOLLOWS). Updates come
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

from controller.adapters.display import Display
from controller.adapters.timer import ClockReading
from controller.adapters.waiting import WaitReason, WaitStatus
from controller.game import judging
from controller.game.events import (
    ClockAdjusted, ClockAdjustment, CorrectionTarget, CountAlert, Event, GameScored, RackRevealed, ReadPurpose,
    HeldAnswer, HeldPenaltyAnswered, PenaltyHeld, PlayAreaSet, RedealClaimed, RefereeCorrection, RestoreChecked, TableAccepted,
    TableRead, TableUnrestorable, TimerIncident, TurnEndCause, TurnJudged, TurnStarted, VerdictOverridden,
)
from controller.game.machine import GameModel, State
from controller.game.reading import SAME_TILE_RADIUS
from controller.messages import DEFAULT_LANGUAGE, catalogue
from controller.records import Records
from controller.records.reports.turn_data import photo_data, placed_boxes, read_photo, reading_boxes, tile_width, verdict_data

from .prompts import difference_parts, prompt_of
from .templating import LOW_TIME_S, environment

log = logging.getLogger(__name__)

REGIONS = {
    "status": "regions/status.html",
    "prompt": "regions/prompt.html",
    "scores": "regions/scores.html",
    "actions": "regions/actions.html",
    "clock": "regions/clock.html",
    "verdict": "regions/verdict.html",
    "penalty": "regions/penalty.html",
    "alerts": "regions/alerts.html",
    "history": "regions/history.html",
    "frame": "regions/frame.html",
    "held": "regions/held.html",
    "area": "regions/area.html",  # the play area in force, for the referee page's area editor (area.js)
    "log": "regions/log.html",
    "clockgame": "regions/clockgame.html",
    "broadcast": "regions/broadcast.html",  # the stream overlay (/overlay/table, controller/web/broadcast.py)
    "broadcast-clock": "regions/broadcast_clock.html",
}
CLOCK_EVERY_S = 0.1  # at most this often a tick of the box is sent on (each change of state at once)
KEEP_ALERTS, KEEP_LOG = 6, 40
# what else is drawn again when a region's data changes: the words of "what to do now", the
# referee's choices and whether a countdown is shown all follow where the game stands
FOLLOWS = {"status": ("prompt", "actions", "clock", "broadcast", "broadcast-clock"), "penalty": ("prompt", "actions"),
           "verdict": ("prompt", "broadcast"), "scores": ("prompt", "status", "clock", "broadcast", "broadcast-clock"),
           "frame": ("actions", "area"), "held": ("prompt", "actions"), "clock": ("prompt", "broadcast-clock"),
           "clockgame": ("broadcast", "broadcast-clock")}
# sent only when they change: the referee may be picking tiles in them; the prompt follows the clock's ticks
KEPT_WHILE_SAME = frozenset({"actions", "prompt"})  # (the prompt follows every tick of the clock)
# the events whose photo the frame region shows
FRAME_EVENTS = (TableRead, RestoreChecked, RackRevealed, TableUnrestorable, TurnStarted, TableAccepted)


class LiveTable:
    """The live state of one table (a Rummikub game or a clock game) and its WebSocket clients."""

    def __init__(self, kind: str = "table", db: str | Path | None = None, lang: str = DEFAULT_LANGUAGE) -> None:
        self.kind = kind  # "table" or "clock"
        self.db = db  # the records file (or database) the live pages read photos and readings from
        self.words = catalogue(lang)  # the language every word of the live pages is in
        self.lock = threading.RLock()
        self.state: dict[str, Any] = {
            "kind": kind, "game": None, "variant": "", "players": [], "turn": 0, "phase": "", "pool": None,
            "waiting": None, "scores": None, "clock": None, "verdict": None, "penalty": None, "alerts": [],
            "history": [], "frame": None, "log": [], "clockgame": None, "head": "", "lang": lang, "held": None,
            "table_melds": [], "area": None,
        }
        self._drawn: dict[str, str] = {}
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
            names = tuple(dict.fromkeys(name for region in regions for name in (region, *FOLLOWS.get(region, ()))))
            drawn = {name: self.render(name) for name in names}
            for name in KEPT_WHILE_SAME.intersection(drawn):
                if self._drawn.get(name) == drawn[name]:
                    del drawn[name]
                else:
                    self._drawn[name] = drawn[name]
            names = tuple(drawn)
            message = json.dumps({"seq": self.seq, "regions": drawn, "sent": time.time()})
            self._send(message)
            seq = self.seq
        for listener in self.listeners:
            listener(seq, names)

    def alert(self, key: str, level: str = "info", regions: Iterable[str] = (), **values: Any) -> None:
        """A line on the display: the catalogue's message `key` with `values` (drawn in the page's language)."""
        with self.lock:
            line = {"key": key, "values": values, "level": level, "at": time.strftime("%H:%M:%S")}
            self.update(("alerts", *regions), alerts=(self.state["alerts"] + [line])[-KEEP_ALERTS:])

    def said(self, text: str) -> None:
        with self.lock:
            lines = (self.state["log"] + [{"text": text, "at": time.strftime("%H:%M:%S")}])[-KEEP_LOG:]
            self.update(("log",), log=lines)

    def render(self, region: str) -> str:
        try:
            return environment().get_template(REGIONS[region]).render(
                s=self.state, LOW_TIME_S=LOW_TIME_S, t=self.words.text, maybe=self.words.maybe,
                now=prompt_of(self.state, self.words), differs=self.differences, around=self.words.around)
        except Exception:  # a display must never stop the game: say so in the region instead
            log.exception("rendering region %s", region)
            return environment().get_template("regions/broken.html").render(region=region)

    def differences(self, items: str | Iterable[str]) -> list[dict[str, Any]]:
        """How a restored table still differs from its photo, in the page's language, each difference's
        tiles apart (`tiles.html`'s `differences` draws them as tiles)."""
        items = [items] if isinstance(items, str) else list(items)
        return [difference_parts(text, self.words) for text in items]

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
            drawn = {name: self.render(name) for name in REGIONS}
            self._drawn.update((name, drawn[name]) for name in KEPT_WHILE_SAME)
            first = json.dumps({"seq": self.seq, "regions": drawn, "sent": time.time()})
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
        if shown is not None and model is not None:
            shown["view"] = around_tiles(model, shown["width"], shown["height"])
        timed_out = model is not None and model.ended_by is TurnEndCause.EXPIRED
        penalty = {"turn": event.turn, "player": event.player, "photo": shown, "to_rack": list(event.restore_to_rack),
                   "table": [list(m) for m in event.restore_table], "moved": len(outlines), "draw": event.draw,
                   "points": event.penalty_points if event.outcome == "penalty" else 0,
                   "penalty": event.outcome == "penalty", "timed_out": timed_out,
                   "violations": verdict_data(event)["violations"], "unrestorable": None, "not_yet": None}
        self.live.update(("penalty",), penalty=penalty)

    def unrestorable(self, event: TableUnrestorable) -> None:
        if self.inner is not None:
            self.inner.unrestorable(event)
        with self.live.lock:
            penalty = dict(self.live.state["penalty"] or {"turn": event.turn, "player": event.player, "photo": None,
                                                         "to_rack": [], "table": [], "moved": 0, "violations": [],
                                                         "draw": 0, "penalty": True, "timed_out": False})
            penalty["unrestorable"] = {"relay": event.relay, "kept": [list(m) for m in event.kept],
                                       "to_offender": list(event.to_offender), "to_pool": list(event.to_pool),
                                       "missing": list(event.missing)}
            penalty["table"] = [list(m) for m in event.kept]
            self.live.update(("penalty",), penalty=penalty)

    def scores(self, event: GameScored, head: str = "") -> None:
        if self.inner is not None:
            self.inner.scores(event, head)
        self.live.update(("scores",), scores=scores_of(event), head=head)
        self.live.alert("alert.game-over", "info", winner=event.winner)

    def waiting(self, status: WaitStatus) -> None:
        if self.inner is not None:
            self.inner.waiting(status)
        waiting = None if status.reason is WaitReason.SETTLED else status.reason.name.lower().replace("_", "-")
        self.live.update(("prompt",), waiting=waiting)

    # -- the runner's observer ---------------------------------------------------------------
    def observe(self, model: GameModel, event: Event | None) -> None:
        self.model = model
        regions = ["status"]
        changes: dict[str, Any] = status_of(model)
        if isinstance(event, TurnStarted):
            changes["penalty"] = None
            regions.append("penalty")
        if isinstance(event, PlayAreaSet):
            changes["area"] = area_of(event)
            regions.append("area")
        shown = event if isinstance(event, FRAME_EVENTS) else self.last_frame_event() if event is None else None
        if shown is not None:  # (no event: a resumed game shows the table it last read)
            frame = self.frame_of(model, shown)
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
                        row["overridden"] = {"referee": event.referee, "reason": event.reason}
                changes["history"] = history
                verdict = dict(self.live.state["verdict"] or {})
                if verdict.get("turn") == event.turn:
                    verdict["overridden"] = history[-1]["overridden"] if history else None
                    changes["verdict"] = verdict
        if model.state is State.PENALTY_HELD and isinstance(event, (PenaltyHeld, type(None))):
            changes["held"] = self.held_of(model)  # a resumed game shows its held penalty too
            regions.append("held")
        elif isinstance(event, (HeldPenaltyAnswered, TurnStarted)):
            changes["held"] = None
            regions.append("held")
        if isinstance(event, GameScored):
            changes["scores"] = scores_of(event)
            regions.append("scores")
        if isinstance(event, RefereeCorrection) and model.state is State.SCORING:
            changes["scores"] = None  # a rack corrected after the score: the game is scored again
            regions.append("scores")
        self.live.update(regions, **changes)
        alert = alert_of(event)
        if alert is not None:
            key, level, values = alert
            self.live.alert(key, level, **values)

    def held_of(self, model: GameModel) -> dict[str, Any]:
        """A held penalty as the referee page shows it: both photos, the tiles seen nowhere ringed on the
        photo of the turn's start (where they lay), the rules the penalty rests on."""
        event = model.held
        assert event is not None
        held: dict[str, Any] = {"turn": event.turn, "player": event.player,
                                "vanished": [tile.code for tile in event.vanished],
                                "rules": [{"rule": str(rule), "detail": detail} for rule, detail in event.violations],
                                "before": None, "now": None}
        if self.live.db is None:
            return held
        width = tile_width(model.table.tiles)
        rings = [{**box, "cls": "vanished", "label": box["code"]}
                 for box in placed_boxes(event.vanished, set(), width)]
        now = placed_boxes(model.pending.tiles) if model.pending is not None else []
        with Records(self.live.db, create=False, read_only=True) as records:
            held["before"] = photo_data(records, event.photo_before, rings)
            held["now"] = photo_data(records, event.photo, now)
        return held

    def last_frame_event(self) -> Event | None:
        """The game's last event that shows the table (a resumed game's page shows it at once)."""
        with self.live.lock:
            game = self.live.state.get("game")
        if self.live.db is None or not isinstance(game, int):
            return None
        with Records(self.live.db, create=False, read_only=True) as records:
            return next((e for e in reversed(records.events(game)) if isinstance(e, FRAME_EVENTS)), None)

    def frame_of(self, model: GameModel, event: Event) -> dict | None:
        if self.live.db is None:
            return None
        with Records(self.live.db, create=False, read_only=True) as records:
            if isinstance(event, TurnStarted):
                shown = photo_data(records, event.photo, placed_boxes(model.table.tiles))
                caption = ("frame.turn-starts", {"turn": event.turn, "player": event.player})
            elif isinstance(event, TableAccepted):
                shown = photo_data(records, event.photo, [])
                caption = ("frame.table-accepted", {"by": event.by})
            elif isinstance(event, RackRevealed):
                stored = records.reading(event.reading) if event.reading else None
                shown = photo_data(records, event.photo, reading_boxes(stored.reading) if stored else [])
                caption = ("frame.rack", {"player": event.player})
            else:
                shown = read_photo(records, event)
                purpose = getattr(event, "purpose", None)
                caption = ({ReadPurpose.ALARM: "frame.alarm", ReadPurpose.RESTORE: "frame.restore"}
                           .get(purpose, "frame.read"), {"turn": model.turn})
            found = getattr(event, "reading", None) and records.reading(event.reading)
        if shown is None:
            return None
        area = found.reading.get("area") if found and isinstance(found.reading, dict) else None
        return {**shown, "caption": caption[0], "caption_values": caption[1], "turn": model.turn,
                "area": area.get("corners") if isinstance(area, dict) else area}

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


def area_of(event: PlayAreaSet) -> dict[str, Any]:
    """A recorded play area as the referee page's area editor takes it."""
    return {"how": str(event.how), "corners": [[x, y] for x, y in event.corners], "width": event.width,
            "height": event.height, "by": event.by, "reason": event.reason}


def scores_of(event: GameScored) -> dict[str, Any]:
    return {"end": str(event.end), "winner": event.winner, "rows": [{"name": n, "points": p} for n, p in event.scores]}


# where the referee may correct the table read: a doubt waits for them, or a set is noticed before
# the next turn starts (the last turn is then judged again)
TABLE_CORRECTABLE = (State.REFEREE_CHECK, State.TURN_READY)
RACKS_CORRECTABLE = (State.REVEALING, State.SCORING, State.FINISHED)
PLAYING = (State.TURN_RUNNING, State.TURN_READING, State.REFEREE_CHECK, State.TURN_JUDGING, State.PENALTY_HELD,
           State.RESTORING, State.TURN_READY)


def status_of(model: GameModel) -> dict[str, Any]:
    """Where the game stands, as the display's words and the referee's choices need it."""
    players = [{"name": name, "seat": n + 1, "rack": model.racks[n] if n < len(model.racks) else None,
                "current": n == model.current and model.state in PLAYING,
                "penalty_points": model.penalty_points[n] if n < len(model.penalty_points) else 0}
               for n, name in enumerate(model.players)]
    table = None
    if model.state is State.REFEREE_CHECK and model.pending is not None:
        table = model.pending
    elif model.state is State.TURN_READY and model.turn:
        table = model.table
    tiles = [{"index": n, "code": code} for n, (code, _, _) in enumerate(table.tiles)] if table is not None else []
    racks = [{"player": name, "codes": list(codes)} for name, codes in model.revealed] \
        if model.state in RACKS_CORRECTABLE else []
    return {"variant": model.variant, "players": players, "turn": model.turn, "phase": model.state.value,
            "pool": model.pool if model.players else None, "paused": model.paused,
            "player": model.player if model.players else None,
            "due": list(judging.who_draws_next(model)) if model.state is State.SEATING and model.players else [],
            "ended_by": model.ended_by.value if model.ended_by is not None else None,
            # japan-2017: each player starts their own clock (the display says so while it waits for the press)
            "own_clock": bool(model.rules is not None and model.rules.timer_skip_for_simple_turns),
            "winner": model.winner, "table_tiles": tiles, "open_racks": racks, "restore": restore_of(model),
            "table_melds": [list(m) for m in model.table.melds]}


def restore_of(model: GameModel) -> dict[str, Any] | None:
    """The restore under way as the game holds it (whose, the draw it costs, whether the time ran out): what
    the prompt says from the verdict on, before (or without) the restore plan's photo."""
    judgement = model.judgement
    if model.state is not State.RESTORING or judgement is None:
        return None
    return {"player": model.players[judgement.player_index], "draw": judgement.draw, "penalty": judgement.penalty,
            "timed_out": model.ended_by is TurnEndCause.EXPIRED}


def alert_of(event: Event | None) -> tuple[str, str, dict[str, Any]] | None:
    """The display's line for an event worth a line: (message key, level, its values)."""
    if isinstance(event, CountAlert):
        return ("alert.count-disqualified" if event.disqualified else "alert.count", "bad",
                {"table": event.table, "racks": event.racks, "pool": event.pool, "expected": event.expected})
    if isinstance(event, TimerIncident):
        return "alert.timer", "warn", {"incident": str(event.incident)}
    if isinstance(event, RefereeCorrection):
        who = {"referee": event.referee or "", "reason": event.note}
        if event.target_kind is CorrectionTarget.TABLE:
            return "alert.correct-table", "referee", who
        return "alert.correct-rack", "referee", {**who, "player": event.rack_player,
                                                 "tiles": " ".join(event.rack or ())}
    if isinstance(event, VerdictOverridden):
        return "alert.override", "referee", {"referee": event.referee, "player": event.player, "turn": event.turn,
                                             "reason": event.reason}
    if isinstance(event, ClockAdjusted):
        key = {ClockAdjustment.PAUSE: "alert.pause", ClockAdjustment.RESUME: "alert.resume"}.get(
            event.action, "alert.extend")
        return key, "referee", {"referee": event.referee, "reason": event.reason, "seconds": event.seconds}
    if isinstance(event, RestoreChecked):
        who = {"referee": event.referee or "", "reason": event.note or ""}
        if event.accepted_mismatch:
            return "alert.accepted-mismatch", "bad", who
        if event.by_referee:
            return "alert.accepted", "referee", who
        if event.matches:
            return "alert.restored", "info", {}
        return "alert.not-restored", "warn", {"differences": list(event.differences)}
    if isinstance(event, PenaltyHeld):
        return "alert.penalty-held", "warn", {"turn": event.turn, "player": event.player,
                                              "tiles": " ".join(tile.code for tile in event.vanished)}
    if isinstance(event, HeldPenaltyAnswered):
        key = "alert.held-confirmed" if event.answer is HeldAnswer.CONFIRMED else "alert.held-tiles-there"
        return key, "referee", {"referee": event.referee, "turn": event.turn, "reason": event.reason}
    if isinstance(event, RedealClaimed):
        return ("alert.redeal-granted" if event.granted else "alert.redeal-refused", "info",
                {"player": event.player, "tiles": " ".join(event.shown)})
    return None



def around_tiles(model: GameModel, width: int, height: int, margin: float = 1.5) -> list[int]:
    """The part of the photo the tiles lie in (x, y, w, h), `margin` tile widths around them: the
    display shows that part, so the tiles to put back are as large as the screen allows."""
    tiles = model.table.tiles + (model.pending.tiles if model.pending is not None else ())
    if not tiles:
        return [0, 0, width, height]
    pad = margin * tile_width(tiles)
    x0 = max(0.0, min(t[1] for t in tiles) - pad)
    y0 = max(0.0, min(t[2] for t in tiles) - pad)
    x1 = min(float(width), max(t[1] for t in tiles) + pad)
    y1 = min(float(height), max(t[2] for t in tiles) + pad)
    return [round(x0), round(y0), max(1, round(x1 - x0)), max(1, round(y1 - y0))]


def to_put_back(model: GameModel) -> list[dict[str, Any]]:
    """What to outline on the photo taken at the start of the turn (the same camera, the same pixels):
    the table's tiles that are not where they lay (`putback`: they go back there) and the tiles that
    lie where nothing lay (`takeback`: the played tiles, back to the rack or where they came from)."""
    before = model.table.tiles
    after = model.pending.tiles if model.pending is not None else ()
    width = tile_width(before + after)
    radius = SAME_TILE_RADIUS * width  # the same tile as rebuilding the table takes it
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
