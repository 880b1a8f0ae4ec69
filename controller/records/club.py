"""The club's side of the records: a table's records on the club server (with its spool), the
games a table played for an event (`linked_games`, which the tournament director reads its
results from), and what the club board shows of each table.
"""
from __future__ import annotations

import time
from calendar import timegm
from dataclasses import dataclass, field
from pathlib import Path

from .engine import parse_db
from .errors import RecordsError
from .store import Records


def open_table_records(db: str | Path, *, key=None, spool: str | Path | None = None) -> Records:
    """The records a table writes to: an SQLite file, or the club server with a local spool."""
    target = parse_db(db)
    if target.is_server:
        from .spool import DEFAULT_SPOOL, SpooledRecords

        return SpooledRecords(target, key=key, spool=spool or DEFAULT_SPOOL)
    return Records(target, key=key, check=True)


# ------------------------------------------------------------------------------ tournament


def linked_games(records: Records, event: str) -> list[tuple[int, str]]:
    """(records game id, tournament game) of every game a table played for `event`, oldest first."""
    if not records._has_info():
        return []
    return [(int(g), str(t)) for g, t in records.db.execute(
        "SELECT game_id, tournament_game FROM game_info WHERE event=? AND tournament_game IS NOT NULL "
        "ORDER BY game_id", (event,))]


# ------------------------------------------------------------------------------ club board

OVER = {"finished", "disqualified"}


def table_link(game_id: int, base: str = "") -> str:
    """Where a table's own pages show a game (`tileref play --web` / `tileref serve`): one place to adjust."""
    return f"{base.rstrip('/')}/games/{game_id}"


@dataclass
class TableLive:
    game_id: int
    table: str
    event: str | None
    tournament_game: str | None
    players: list[str]
    state: str
    turn: int
    player: str | None  # whose turn it is (or is next)
    seconds_left: int | None  # of the running turn, from when it started as recorded
    last_verdict: str | None
    alerts: list[str] = field(default_factory=list)
    events: int = 0
    last_event_at: str | None = None
    link: str = ""

    def as_json(self) -> dict:
        return {k: getattr(self, k) for k in ("game_id", "table", "event", "tournament_game", "players", "state",
                                              "turn", "player", "seconds_left", "last_verdict", "alerts", "events",
                                              "last_event_at", "link")}


def _epoch(stamp: str | None) -> float | None:
    try:
        return float(timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))) if stamp else None
    except (TypeError, ValueError):
        return None


class ClubBoard:
    """What the board shows, read from the club database; each game folded once per new event."""

    STALE_S = 600

    def __init__(self, records: Records, table_base: str = "", recent_finished: int = 4,
                 language: str = "en") -> None:
        from controller.messages import catalogue

        self.records = records
        self.table_base = table_base
        self.recent_finished = recent_finished
        self.words = catalogue(language)  # the board's words, in the club's language
        self._folded: dict[int, tuple[int, object, list]] = {}

    def tables(self, now: float | None = None) -> list[TableLive]:
        now = time.time() if now is None else now
        rows = self.records.db.execute("SELECT id, state, events FROM games WHERE events > 0 ORDER BY id")
        live = [r for r in rows if r[1] not in OVER]
        done = [r for r in rows if r[1] in OVER][-self.recent_finished:] if self.recent_finished else []
        out = []
        for game_id, state, count in live + done:
            try:
                out.append(self._table(int(game_id), str(state), int(count), now))
            except RecordsError as error:
                out.append(TableLive(int(game_id), self.words.text("club.game", game=game_id), None, None, [],
                                     str(state), 0, None, None, None,
                                     [self.words.text("club.unreadable", error=error)], int(count), None,
                                     table_link(int(game_id), self.table_base)))
        return out

    def _table(self, game_id: int, state: str, count: int, now: float) -> TableLive:
        from controller.game.events import CountAlert, TimerIncident, TurnJudged, TurnStarted
        from controller.game.machine import GameModel, apply
        words = self.words

        cached = self._folded.get(game_id)
        if cached is None or cached[0] != count:
            recorded = self.records.recorded(game_id)
            model, problems = GameModel(), []
            for r in recorded:
                try:
                    model = apply(model, r.event)
                except Exception as error:  # the board shows it; it never stops for one game
                    problems.append(self.words.text("club.unfolded", seq=r.seq, error=error))
                    break
            self._folded[game_id] = (count, model, recorded, problems)
        _, model, recorded, problems = self._folded[game_id]
        info = self.records.info(game_id)
        alerts = list(problems)
        timer_alert = None  # the latest timer incident only, after the other alerts
        last_verdict = None
        started_at = None
        seconds = None
        for r in recorded:
            event = r.event
            if isinstance(event, TurnJudged):
                parts = [words.text("club.verdict", turn=event.turn, player=event.player,
                                    outcome=words.maybe(f"outcome.{event.outcome}", "").lower())]
                if event.draw:
                    parts.append(words.text("club.draws", count=event.draw))
                if event.penalty_points:
                    parts.append(words.text("club.points", count=abs(event.penalty_points),
                                            points=f"{event.penalty_points:+d}"))
                last_verdict = ", ".join(parts)
            elif isinstance(event, TurnStarted):
                started_at, seconds = r.recorded_at, event.seconds
            elif isinstance(event, CountAlert):
                key = "alert.count-disqualified" if event.disqualified else "alert.count"
                alerts.append(words.text(key, table=event.table, racks=event.racks, pool=event.pool,
                                         expected=event.expected))
            elif isinstance(event, TimerIncident):  # in words, never the incident's name
                timer_alert = words.text("club.timer", incident=words.maybe(f"incident.{event.incident}", ""))
        if timer_alert is not None:
            alerts.append(timer_alert)
        if model.state.value == "restoring":
            alerts.append(words.text("club.restoring"))
        if model.state.value == "referee-check":
            alerts.append(words.text("club.referee"))
        seconds_left = None
        if model.state.value == "turn-running" and started_at and seconds:
            begun = _epoch(started_at)
            if begun is not None:
                seconds_left = max(0, int(round(seconds - (now - begun))))
        last_at = recorded[-1].recorded_at if recorded else None
        last = _epoch(last_at)
        if state not in OVER and last is not None and now - last > self.STALE_S:
            alerts.append(words.text("club.silent", count=int((now - last) // 60)))
        players = list(model.players)
        name = info["table_name"] or (info["tournament_game"] and f"{info['event']} {info['tournament_game']}") \
            or words.text("club.game", game=game_id)
        return TableLive(game_id, str(name), info["event"], info["tournament_game"], players, model.state.value,
                         model.turn, model.player if players else None, seconds_left, last_verdict, alerts, count,
                         last_at, table_link(game_id, self.table_base))
