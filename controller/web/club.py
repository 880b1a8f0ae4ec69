"""The club board (`tileref club serve --db postgresql://...`): one page listing every table live.

Each row is a game a table is playing into the club database (and the last few finished ones):
the table, the players, whose turn it is, the time left of the running turn (from when the turn
started as recorded), the last verdict and the alerts (tile counts that do not add up, timer
incidents, a restore or a referee awaited, a table silent for ten minutes). Below them, each
running event of the tournament director: its standings as the results come in and the tables of
its latest round once drawn (`club_events.py`). The page is rendered server-side by Jinja2 with
autoescaping; a little plain JavaScript (`static/club.js`) polls `/api/tables` and `/api/events`
and updates the rows with text only. Each table's name links to that game's page,
which this server serves too (with its turns' audits, replay and photos, as `tileref serve` does);
`--table-base URL` points the links at another server instead (`table_link`). `/watch` lists the
tables with their spectator feeds (`/watch/<game>`, held back by the delay) and stream overlays
(`/overlay/table/<game>`), docs/broadcast.md.
"""
from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path

import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route

from controller.messages import DEFAULT_LANGUAGE, catalogue
from controller.records.club import ClubBoard, TableLive
from controller.records.errors import NoRecordsYetError, RecordsError, ServerUnavailableError
from controller.records.store import Records

from controller.adapters.time_source import SYSTEM_TIME, TimeSource

from .club_events import EventBoard
from .guard import GuardedStarlette

STATIC = Path(__file__).with_name("static")
POLL_MS = 2000


def _clock(seconds) -> str:
    if seconds is None:
        return "--:--"
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("controller.web", "templates"), autoescape=True)
    env.globals["clock"] = _clock
    return env


class _Board:
    """The board's read of the database, one request at a time, reconnecting after a lost server."""

    def __init__(self, db: str, table_base: str, language: str = DEFAULT_LANGUAGE) -> None:
        self.db = db
        self.table_base = table_base
        self.language = language
        self.lock = threading.Lock()
        self.records: Records | None = None
        self.board: ClubBoard | None = None
        self._open()

    def _open(self) -> None:
        try:
            self.records = Records(self.db, create=False, read_only=True)
        except NoRecordsYetError:
            return  # an event's database before any table records into it: the board shows its events
        self.board = ClubBoard(self.records, self.table_base, language=self.language)

    def read(self) -> tuple[list[TableLive], str | None]:
        with self.lock:
            try:
                if self.records is None:
                    self._open()
                if self.records is None:
                    return [], None
                return self.board.tables(), None
            except ServerUnavailableError as error:
                if self.records is not None:
                    self.records.close()
                self.records = None
                return [], str(error)
            except RecordsError as error:
                return [], str(error)

    def close(self) -> None:
        if self.records is not None:
            self.records.close()


def create_app(db: str, *, table_base: str = "", title: str | None = None, watch_delay: int = 0,
               time_source: TimeSource = SYSTEM_TIME, lang: str = DEFAULT_LANGUAGE) -> Starlette:
    """`watch_delay`, `time_source`: the spectator feed's (controller/web/broadcast.py); each table's
    overlay is /overlay/table/<game> and its feed /watch/<game>, served by the records' app below.
    `lang`: the board's language (its words, the tables' alerts and verdicts, the events')."""
    words = catalogue(lang)
    title = title or words.text("club.title")
    board = _Board(db, table_base, lang)
    events = EventBoard(db, lang)
    env = _environment()
    env.globals.update(t=words.text, lang=words.language)
    shown = board.records.path if board.records is not None else db

    def state_words(state: str) -> str:
        return club_state_words(state, lang)

    def now_text() -> str:
        return time.strftime("%H:%M:%S")

    async def page(request: Request) -> HTMLResponse:
        import anyio

        tables, problem = await anyio.to_thread.run_sync(board.read)
        shown_events, events_problem = await anyio.to_thread.run_sync(events.read)
        html = env.get_template("club.html").render(
            title=title, database=str(shown), tables=tables, problem=problem, updated=now_text(),
            events=shown_events, events_problem=events_problem,
            api=str(request.url_for("club_tables").path), events_api=str(request.url_for("club_events").path),
            script=str(request.url_for("club_js").path), every_ms=POLL_MS, state_words=state_words)
        return HTMLResponse(html)

    async def api(request: Request) -> JSONResponse:
        import anyio

        tables, problem = await anyio.to_thread.run_sync(board.read)
        return JSONResponse({"tables": [t.as_json() | {"state_words": state_words(t.state)} for t in tables],
                             "problem": problem, "updated": now_text()},
                            headers={"Cache-Control": "no-store"})

    async def events_api(request: Request) -> JSONResponse:
        import anyio

        shown_events, events_problem = await anyio.to_thread.run_sync(events.read)
        return JSONResponse({"events": shown_events, "problem": events_problem, "updated": now_text()},
                            headers={"Cache-Control": "no-store"})
    async def watch_list(request: Request) -> HTMLResponse:
        """The tables and where their feeds are: names and players only, nothing of where a game stands."""
        import anyio

        tables, problem = await anyio.to_thread.run_sync(board.read)
        html = env.get_template("club_watch.html").render(title=title, tables=tables, problem=problem,
                                                          delay=watch_delay)
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def script(request: Request) -> Response:
        return Response((STATIC / "club.js").read_text(encoding="utf-8"), media_type="text/javascript")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        board.close()
        events.close()

    from .app import create_app as records_app

    app = GuardedStarlette(routes=[
        Route("/", page, name="club_board"),
        Route("/api/tables", api, name="club_tables"),
        Route("/api/events", events_api, name="club_events"),
        Route("/watch", watch_list, name="club_watch"),
        Route("/static/club.js", script, name="club_js"),
        # every game's own pages (game, audit of each turn, replay, photos) from the same database,
        # where the board's links point (`table_link`)
        Mount("", app=records_app(db, watch_delay=watch_delay, time_source=time_source)),
    ], lifespan=lifespan)
    app.state.board = board
    return app


def club_state_words(state: str, language: str = DEFAULT_LANGUAGE) -> str:
    """Where a game stands in the players' words (the board's catalogue), never the state's own name."""
    return catalogue(language).maybe(f"phase.{state}", state)


def serve(db: str, web: str, *, table_base: str = "", watch_delay: int = 0, lang: str = DEFAULT_LANGUAGE) -> None:
    """Serve the board on `web` (HOST:PORT) until Ctrl-C. The address is bound before anything is said:
    a port in use is bad input (WebBindError, exit 2), never a server that fails after printing its URL."""
    import time

    from .server import WebServer, parse_address

    address = parse_address(web)
    app = create_app(db, table_base=table_base, watch_delay=watch_delay, lang=lang)
    server = WebServer(app, address, lifespan="on").start()  # the board's refresh runs in the app's lifespan
    print(f"club board on {server.url}/ (database {db}; Ctrl-C to stop)", flush=True)
    server.serve_until_interrupted()
