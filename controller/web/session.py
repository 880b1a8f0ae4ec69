"""The web pages of a running table or clock, as a command starts them (`--web HOST:PORT`).

`TableWeb` ties together the live state, the web display (composed with the console's), the
referee desk, the token and the server thread. The command parses and binds the address before it
opens anything else (a bad `--web` or a port in use exits 2 before the camera or the box opens),
prints where the pages are and the referee token, and stops the server when it ends.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from controller.adapters.desk import RefereeDesk
from controller.adapters.display import Display
from controller.game.events import PlayAreaSet, TurnJudged, VerdictOverridden
from controller.messages import DEFAULT_LANGUAGE
from controller.records import Records
from controller.records.reports.turn_data import verdict_data

from .app import create_app
from .referee_actions import new_token
from .live import LiveTable, WebDisplay, area_of, status_of
from .server import WebServer, parse_address


class TableWeb:
    def __init__(self, spec: str, db: str | Path, kind: str = "table", inner: Display | None = None,
                 token: str | None = None, lang: str = DEFAULT_LANGUAGE, watch_delay: int = 0) -> None:
        address = parse_address(spec)
        self.db = db
        self.live = LiveTable(kind, self.db, lang)
        self.display = WebDisplay(self.live, inner)
        self.desk = RefereeDesk() if kind == "table" else None
        self.token = token or new_token()
        self.server = WebServer(create_app(self.db, self.live, self.desk, self.token if self.desk else None,
                                           watch_delay=watch_delay), address)
        self.url = self.server.url

    def start(self, out: TextIO | None = None) -> "TableWeb":
        out = out or sys.stdout
        self.server.start()
        print(f"web: {self.url}/ (table display {self.url}/table"
              + (f", referee page {self.url}/referee)" if self.desk else ")"), file=out, flush=True)
        print(f"web: stream overlay {self.url}/overlay/table, spectators {self.url}/watch (docs/broadcast.md)",
              file=out, flush=True)
        if self.desk is not None:
            print(f"web: referee token {self.token} (type it into the referee page's token field)", file=out,
                  flush=True)
        if not self.server.address.loopback:
            print(f"web: {self.server.address.host} is not a loopback address: anyone on the network can open "
                  "the pages (actions still need the token)", file=out, flush=True)
        return self

    def attach(self, records: Records, game_id: int) -> None:
        """The game the display shows, and its verdicts so far (a resumed game)."""
        from controller.game.machine import fold

        events = records.events(game_id)
        history = []
        area = None  # the play area the game last recorded
        for event in events:
            if isinstance(event, PlayAreaSet):
                area = area_of(event)
            elif isinstance(event, TurnJudged):
                history.append({**verdict_data(event), "head": "", "overridden": None})
            elif isinstance(event, VerdictOverridden):
                for row in history:
                    if row["turn"] == event.turn:
                        row["overridden"] = {"referee": event.referee, "reason": event.reason}
        model = fold(events)
        self.display.model = model
        self.live.update(("status", "history", "verdict", "area"), game=game_id, history=history,
                         verdict=history[-1] if history else None, area=area, **status_of(model))

    def mirror(self, timer) -> None:
        """The box's countdown on the display: the serial timer's own signals (ticks, low time, expiry)."""
        inner = getattr(timer, "timer", timer)  # a recorded game's timer wraps the real one
        if hasattr(inner, "mirror"):
            inner.mirror = self.display.clock

    def stop(self) -> None:
        if self.desk is not None:
            self.desk.close()
        self.server.stop()
