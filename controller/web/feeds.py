"""The stream overlay (`/overlay/table`) and the spectator feed (`/watch`), each with its WebSocket:
a game's broadcast regions (controller/web/broadcast.py) drawn from its record, the spectator's
delayed by the game's recorded delay (never shortened) or the server's least one."""
from __future__ import annotations

import asyncio
import json
import math
import threading
from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.game.errors import GameError
from controller.records.errors import RecordsError

from .broadcast import broadcast_state, effective_delay
from .live import REGIONS
from .table_pages import until_closed
from .templating import LOW_TIME_S
from .web_state import WebState

BROADCAST_REGIONS = ("broadcast", "broadcast-clock")
FEED_EVERY_S = 0.5  # how often a feed's socket looks at the record (a delayed feed's present moves on)

Drawing = tuple[dict[str, Any], dict[str, str]]  # a feed's state and its regions' HTML


def wants_delay(query_params) -> bool:
    return query_params.get("delay", "") not in ("", "0", "no", "false")


class Feeds:
    def __init__(self, web: WebState) -> None:
        self.web = web
        # the latest drawing of each (game, delayed) feed, with the (head, second) it was drawn at
        self._drawn: dict[tuple[int, bool], tuple[tuple, Drawing]] = {}
        self._lock = threading.Lock()

    def feed_game(self, request: Request) -> int:
        """The game a feed without a game number shows: the table's, or the last one recorded."""
        if "game" in request.path_params:
            return int(request.path_params["game"])
        live = self.web.live
        if live is not None and live.state.get("game"):
            return int(live.state["game"])
        with self.web.reader.open() as records:
            return records.latest_game(with_events=True)

    def draw(self, game_id: int, delayed: bool) -> Drawing:
        """The feed's state and regions now: with `delayed`, only what the record held `delay` seconds
        ago by the server's clock; without, everything recorded. The present is taken in whole seconds,
        rounded down (never later than it is), so every socket of a feed shares one drawing a second."""
        web = self.web
        now = math.floor(web.time_source.now())
        with web.reader.open() as records:
            head = records.head(game_id)
            key = (head, now)
            with self._lock:
                known = self._drawn.get((game_id, delayed))
            if known is not None and known[0] == key:
                return known[1]
            web.reader.report(records, game_id)  # a tampered game is refused, never shown
            recorded = records.recorded(game_id)
        delay = effective_delay(recorded, web.watch_delay) if delayed else 0
        until = now - delay if delayed else None
        state = broadcast_state(game_id, recorded, until, now - delay, delay)
        context = {"s": state, "t": web.words.text, "maybe": web.words.maybe, "LOW_TIME_S": LOW_TIME_S}
        regions = {name: web.env.get_template(REGIONS[name]).render(**context) for name in BROADCAST_REGIONS}
        with self._lock:
            self._drawn[(game_id, delayed)] = (key, (state, regions))
        return state, regions

    def overlay_page(self, request: Request):
        web = self.web
        delayed = wants_delay(request.query_params)
        if web.live is not None and "game" not in request.path_params and not delayed:  # the table itself, live
            return web.page("overlay.html", title=web.words.text("page.table"), live=False, socket="/ws/table",
                            delay=0, regions={k: Markup(v) for k, v in web.live.regions(BROADCAST_REGIONS).items()})
        try:
            game_id = self.feed_game(request)
            state, regions = self.draw(game_id, delayed)
        except (RecordsError, GameError) as error:
            return web.problem(error)
        socket = f"/ws/overlay/{game_id}" + ("?delay=1" if delayed else "")
        return web.page("overlay.html", title=f"Game {game_id}", live=False, socket=socket, delay=state["delay"],
                        regions={k: Markup(v) for k, v in regions.items()})

    def watch_page(self, request: Request):
        web = self.web
        try:
            game_id = self.feed_game(request)
            state, regions = self.draw(game_id, delayed=True)
        except (RecordsError, GameError) as error:
            return web.problem(error)
        return web.page("watch.html", title=web.words.text("broadcast.watch-title"), live=False,
                        socket=f"/ws/watch/{game_id}", delay=state["delay"], shown=bool(state["shown_seq"]),
                        regions={k: Markup(v) for k, v in regions.items()}, headers={"Cache-Control": "no-store"})

    async def overlay_socket(self, websocket: WebSocket):
        await self.socket(websocket, delayed=wants_delay(websocket.query_params))

    async def watch_socket(self, websocket: WebSocket):
        await self.socket(websocket, delayed=True)

    async def socket(self, websocket: WebSocket, delayed: bool) -> None:
        """Every FEED_EVERY_S the feed's regions as they are now; the ones that changed are sent."""
        game_id = int(websocket.path_params["game"])
        await websocket.accept()
        sent: dict[str, str] = {}
        gone = asyncio.create_task(until_closed(websocket))
        try:
            while not gone.done():
                try:
                    _, regions = await asyncio.to_thread(self.draw, game_id, delayed)
                except (RecordsError, GameError):
                    await websocket.close(code=1011)
                    return
                changed = {name: html for name, html in regions.items() if sent.get(name) != html}
                if changed:
                    await websocket.send_text(json.dumps({"regions": changed}))
                    sent.update(changed)
                await asyncio.wait({gone}, timeout=FEED_EVERY_S)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            gone.cancel()
