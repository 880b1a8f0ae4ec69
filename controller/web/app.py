"""The web app (Starlette): table display, referee page, audit and replay, and their JSON.

`create_app(db, live=..., desk=..., token=...)` serves one records file. With a live table (a
running `play`, `demo` or `clock`) it also serves the table display (`/table`), the referee page
(`/referee`), their WebSocket (`/ws/table`) and the referee's actions (`POST /api/referee/<action>`,
token required in a header: without it 401 and nothing recorded; each action carries a one-time nonce
from `GET /api/referee/nonce`: a missing, unknown or used one answers 409 and nothing is recorded). Without one (`tileref serve`) it serves the
records only. Every page that shows a game verifies it first: a tampered game is refused, never
shown. Pages are Jinja2 templates with autoescaping (templating.environment()).

The handlers live by concept, each group given the app's one `WebState` (web_state.py): the records'
pages and JSON (records_pages.py), the live table's pages and socket (table_pages.py), the overlay
and spectator feeds (feeds.py) and the referee's actions (referee_actions.py, their bodies parsed by
referee_requests.py). This module only ties them to their routes.
"""
from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from controller.adapters.desk import RefereeDesk
from controller.adapters.time_source import SYSTEM_TIME, TimeSource
from controller.messages import DEFAULT_LANGUAGE, catalogue

from .feeds import Feeds
from .guard import GuardedStarlette
from .live import LiveTable
from .records_pages import RecordsApi, RecordsPages
from .records_reader import RecordsReader
from .referee_actions import RefereeActions, new_token
from .referee_requests import BadRequest, parse_request
from .table_pages import TablePages
from .templating import environment
from .web_state import WebState

STATIC = Path(__file__).parent / "static"

__all__ = ["BadRequest", "create_app", "new_token", "parse_request"]


def create_app(db: str | Path, live: LiveTable | None = None, desk: RefereeDesk | None = None,
               token: str | None = None, key=None, watch_delay: int = 0,
               time_source: TimeSource = SYSTEM_TIME, lang: str = DEFAULT_LANGUAGE) -> Starlette:
    """`watch_delay`: the least delay of the spectator feed (a game's recorded one is never shortened);
    `time_source`: the present the feed's delay counts from (controller/adapters/time_source.py);
    `lang`: the records pages' language when no game runs here (a live table's pages speak its own)."""
    web = WebState(reader=RecordsReader(db, key), words=live.words if live is not None else catalogue(lang),
                   env=environment(), live=live, desk=desk, token=token, watch_delay=watch_delay,
                   time_source=time_source)
    records, api, table = RecordsPages(web), RecordsApi(web), TablePages(web)
    feeds, referee = Feeds(web), RefereeActions(web)
    routes = [
        Route("/", records.index),
        Route("/table", table.table),
        Route("/referee", table.referee),
        Route("/games/{game:record_id}", records.game),
        Route("/games/{game:record_id}/turns/{turn:record_id}", records.audit),
        Route("/games/{game:record_id}/replay", records.replay),
        Route("/games/{game:record_id}/replay/{step:record_id}", records.replay),
        Route("/photos/{sha:str}", records.photo),
        Route("/api/games", api.games),
        Route("/api/games/{game:record_id}", api.game),
        Route("/api/games/{game:record_id}/turns/{turn:record_id}", api.audit),
        Route("/api/games/{game:record_id}/replay", api.replay),
        Route("/api/table", table.api_table),
        Route("/api/referee/nonce", referee.nonce),  # before the actions: "nonce" is no action
        Route("/api/referee/{action:str}", referee.action, methods=["POST"]),
        WebSocketRoute("/ws/table", table.socket),
        Route("/overlay/table", feeds.overlay_page),
        Route("/overlay/table/{game:record_id}", feeds.overlay_page),
        Route("/watch", feeds.watch_page),
        Route("/watch/{game:record_id}", feeds.watch_page),
        WebSocketRoute("/ws/overlay/{game:record_id}", feeds.overlay_socket),
        WebSocketRoute("/ws/watch/{game:record_id}", feeds.watch_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = GuardedStarlette(routes=routes)
    app.state.web = web
    app.state.live, app.state.desk, app.state.reader = live, desk, web.reader
    return app
