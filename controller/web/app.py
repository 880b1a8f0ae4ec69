"""The web app (Starlette): table display, referee page, audit and replay, and their JSON.

`create_app(db, live=..., desk=..., token=...)` serves one records file. With a live table (a
running `play`, `demo` or `clock`) it also serves the table display (`/table`), the referee page
(`/referee`), their WebSocket (`/ws/table`) and the referee's actions (`POST /api/referee/<action>`,
token required in a header: without it 401 and nothing recorded; each action carries a one-time nonce
from `GET /api/referee/nonce`: a missing, unknown or used one answers 409 and nothing is recorded). Without one (`tileref serve`) it serves the
records only. Every page that shows a game verifies it first: a tampered game is refused, never
shown. Pages are Jinja2 templates with autoescaping (templating.environment()).
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import math
import re
import secrets
import threading
from pathlib import Path
from typing import Any

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.adapters.desk import DeskAction, DeskError, RefereeDesk, RefereeRequest
from controller.adapters.errors import AdapterError
from controller.adapters.time_source import SYSTEM_TIME, TimeSource
from controller.game.errors import GameError
from controller.game.events import NO_TILE, Override, RefereeCorrection
from controller.records import Records
from controller.records.errors import GameNotFoundError, RecordsError, TamperedError
from controller.records.keyring import UntrustedKeyError
from controller.records.verification.report import ChainReport
from controller.clock.record_view import clock_game_data, is_clock_game
from controller.records.reports.turn_data import audit_data, chain_data, games_data, replay_data, turns_index
from controller.records.reports.views import replay_lines
from controller.rules.errors import RulesError
from controller.records.photo_types import image_type
from controller.rules.tiles import parse_tile
from controller import json_text

from controller.messages import DEFAULT_LANGUAGE, catalogue

from .broadcast import broadcast_state, effective_delay
from .guard import GuardedStarlette
from .live import REGIONS, LiveTable
from .nonces import Nonces
from .templating import LOW_TIME_S, environment

STATIC = Path(__file__).parent / "static"
ACTION_TIMEOUT_S = 20.0  # how long a referee action waits for the table to carry it out
MAX_ACTION_BODY = 256 * 1024  # a referee action's JSON is a few hundred bytes
SHA = re.compile(r"^[0-9a-f]{64}$")
BROADCAST_REGIONS = ("broadcast", "broadcast-clock")
MAX_FRAME_SIDE = 16384  # pixels: more than any table camera gives
FEED_EVERY_S = 0.5  # how often a feed's socket looks at the record (a delayed feed's present moves on)


def new_token() -> str:
    return secrets.token_urlsafe(18)


class BadRequest(Exception):
    """A referee action's body that is not what the action takes (400, nothing recorded)."""


class RecordsReader:
    """Read access to the records file for the pages: a fresh connection per request, each read in
    one snapshot (a live game writes meanwhile), and the verification of a game kept while its head
    does not move."""

    def __init__(self, db: str | Path, key=None) -> None:
        self.db = db
        self.key = key
        self._verified: dict[tuple[int, str], ChainReport] = {}
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def open(self):
        records = Records(self.db, create=False, read_only=True)
        snapshot = getattr(records.db, "engine", None) == "sqlite"
        try:
            if snapshot:
                records.db.execute("BEGIN")  # one snapshot for everything this request reads
            yield records
        finally:
            if snapshot:
                with contextlib.suppress(Exception):
                    records.db.execute("COMMIT")
            records.close()

    def report(self, records: Records, game_id: int) -> ChainReport:
        _, head = records.head(game_id)
        with self._lock:
            known = self._verified.get((game_id, head))
        if known is not None:
            return known
        report = records.require_intact(game_id, self.key)
        with self._lock:
            self._verified[(game_id, head)] = report
        return report


def create_app(db: str | Path, live: LiveTable | None = None, desk: RefereeDesk | None = None,
               token: str | None = None, key=None, watch_delay: int = 0,
               time_source: TimeSource = SYSTEM_TIME, lang: str = DEFAULT_LANGUAGE) -> Starlette:
    """`watch_delay`: the least delay of the spectator feed (a game's recorded one is never shortened);
    `time_source`: the present the feed's delay counts from (controller/adapters/time_source.py);
    `lang`: the records pages' language when no game runs here (a live table's pages speak its own)."""
    reader = RecordsReader(db, key)
    nonces = Nonces()
    env = environment()

    words = live.words if live is not None else catalogue(lang)

    def page(name: str, status: int = 200, headers: dict[str, str] | None = None, **context) -> HTMLResponse:
        context.setdefault("live", live is not None)
        context.setdefault("kind", live.kind if live is not None else None)
        context.setdefault("t", words.text)
        context.setdefault("maybe", words.maybe)
        context.setdefault("around", words.around)
        context.setdefault("lang", words.language)
        return HTMLResponse(env.get_template(name).render(**context), status_code=status, headers=headers)

    def problem(error: Exception) -> HTMLResponse:
        if isinstance(error, GameNotFoundError):
            return page("problem.html", 404, title=words.text("records.not-found"), message=str(error))
        if isinstance(error, UntrustedKeyError):
            return page("problem.html", 409, title=words.text("records.untrusted"), message=str(error))
        if isinstance(error, TamperedError):
            return page("problem.html", 409, title=words.text("records.tampered"), message=str(error))
        return page("problem.html", 400, title=words.text("records.cannot-show"), message=str(error))

    def api_problem(error: Exception) -> JSONResponse:
        status = 404 if isinstance(error, GameNotFoundError) else 409 if isinstance(error, TamperedError) else 400
        return JSONResponse({"error": str(error)}, status_code=status)

    # -- a `tileref clock` game has no turns or photos: its pages show its facts -------------------
    def clock_game(records: Records, game_id: int, report: ChainReport) -> dict[str, Any] | None:
        return clock_game_data(records, game_id, chain_data(report)) if is_clock_game(records, game_id) else None

    def clock_replay(records: Records, game_id: int, report: ChainReport) -> dict[str, Any] | None:
        """The replay's shape (the same lines as `tileref replay`), one step: the game's facts."""
        if not is_clock_game(records, game_id):
            return None
        steps = [{"step": n, "turn": None, "title": block[0], "lines": block[1:], "photo": None}
                 for n, block in enumerate(replay_lines(records, game_id, report))]
        return {"game": game_id, "chain": chain_data(report), "steps": steps}

    def clock_page(data: dict[str, Any]) -> HTMLResponse:
        return page("clock_game.html", title=words.text("records.clock-title", game=data["game"], clock=data["clock_game"]), data=data)

    # -- records pages ---------------------------------------------------------------------
    def index(request: Request):
        with reader.open() as records:
            data = games_data(records)
        return page("index.html", title=words.text("records.title-games"), data=data)

    def game_page(request: Request):
        game_id = int(request.path_params["game"])
        try:
            with reader.open() as records:
                report = reader.report(records, game_id)
                clock = clock_game(records, game_id, report)
                data = clock or turns_index(records, game_id, report)
        except (RecordsError, GameError) as error:  # a signed game its machine cannot fold: 400
            return problem(error)
        if clock is not None:
            return clock_page(clock)
        return page("game.html", title=words.text("records.title-game", game=game_id), data=data)

    def audit_page(request: Request):
        game_id, turn = int(request.path_params["game"]), int(request.path_params["turn"])
        try:
            with reader.open() as records:
                report = reader.report(records, game_id)
                clock = clock_game(records, game_id, report)
                if clock is None:
                    data = audit_data(records, game_id, turn, report)
                    turn_count = len(turns_index(records, game_id, report)["turns"])
        except (RecordsError, GameError) as error:
            return problem(error)
        if clock is not None:
            return clock_page(clock)  # no turns to audit one by one: the game's facts, each with its place
        return page("audit.html", title=words.text("records.title-turn", game=game_id, turn=turn), data=data,
                    turns=turn_count)

    def replay_page(request: Request):
        game_id = int(request.path_params["game"])
        step = int(request.path_params.get("step", 0))
        try:
            with reader.open() as records:
                report = reader.report(records, game_id)
                data = clock_replay(records, game_id, report) or replay_data(records, game_id, report)
        except (RecordsError, GameError) as error:
            return problem(error)
        steps = data["steps"]
        if not 0 <= step < len(steps):
            return page("problem.html", 404, title=words.text("records.not-found"),
                        message=words.text("records.no-step", game=game_id, step=step))
        return page("replay.html", title=words.text("records.title-replay", game=game_id), data=data, step=steps[step],
                    last=len(steps) - 1)

    def photo(request: Request):
        sha = request.path_params["sha"]
        if not SHA.match(sha):
            return Response("not a photo name", status_code=404)
        with reader.open() as records:
            stored = records.photo(sha)
        if stored is None:
            return Response("no such photo", status_code=404)
        kind = image_type(stored.data)  # the type its bytes are, never the type the record says
        headers = {"Cache-Control": "max-age=31536000, immutable",
                   "Content-Security-Policy": "default-src 'none'; sandbox"}
        if kind is None:  # not an image the reader takes: only ever a download, never a page
            return Response(stored.data, media_type="application/octet-stream",
                            headers={**headers, "Content-Disposition": f'attachment; filename="{sha}.bin"'})
        return Response(stored.data, media_type=kind, headers=headers)

    # -- records API (same shapes as the CLI's --json) --------------------------------------
    def api_games(request: Request):
        with reader.open() as records:
            return JSONResponse(games_data(records))

    def api_game_json(game_id: int, build) -> Response:
        """`build(records, report)` of a verified game as JSON; a records problem as its API answer."""
        try:
            with reader.open() as records:
                return JSONResponse(build(records, reader.report(records, game_id)))
        except (RecordsError, GameError) as error:
            return api_problem(error)

    def api_game(request: Request):
        game_id = int(request.path_params["game"])
        return api_game_json(game_id, lambda records, report: clock_game(records, game_id, report)
                             or turns_index(records, game_id, report))

    def api_audit(request: Request):
        game_id, turn = int(request.path_params["game"]), int(request.path_params["turn"])
        return api_game_json(game_id, lambda records, report: clock_game(records, game_id, report)
                             or audit_data(records, game_id, turn, report))

    def api_replay(request: Request):
        game_id = int(request.path_params["game"])
        return api_game_json(game_id, lambda records, report: clock_replay(records, game_id, report)
                             or replay_data(records, game_id, report))

    # -- the live table ------------------------------------------------------------------------
    def no_table() -> HTMLResponse:
        return page("problem.html", 404, title="No table here",
                    message="No game runs in this process: these pages show the records only.")

    def table_page(request: Request):
        if live is None:
            return no_table()
        return page("table.html", title=words.text("page.table"), regions={k: Markup(v) for k, v in live.regions().items()},
                    state=live.snapshot())

    def referee_page(request: Request):
        if live is None:
            return no_table()
        return page("referee.html", title=words.text("page.referee"), regions={k: Markup(v) for k, v in live.regions().items()},
                    state=live.snapshot(), actions=[a.value for a in DeskAction])

    def api_table(request: Request):
        if live is None:
            return JSONResponse({"error": "no game runs in this process"}, status_code=404)
        return JSONResponse(live.snapshot())

    async def table_socket(websocket: WebSocket):
        if live is None:
            await websocket.close(code=1008)
            return
        await websocket.accept()
        client, first = live.subscribe(asyncio.get_running_loop())
        try:
            await websocket.send_text(first)

            async def send() -> None:
                with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                    while True:
                        await websocket.send_text(await client.get())

            async def receive() -> None:
                with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                    while (await websocket.receive())["type"] != "websocket.disconnect":
                        pass

            tasks = {asyncio.create_task(send()), asyncio.create_task(receive())}
            done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            live.unsubscribe(client)

    # -- the stream overlay and the spectator feed (controller/web/broadcast.py) ------------------
    def feed_game(request: Request) -> int:
        """The game a feed without a game number shows: the table's, or the last one recorded."""
        if "game" in request.path_params:
            return int(request.path_params["game"])
        if live is not None and live.state.get("game"):
            return int(live.state["game"])
        with reader.open() as records:
            return records.latest_game(with_events=True)

    drawn_feeds: dict[tuple[int, bool], tuple[tuple, tuple[dict[str, Any], dict[str, str]]]] = {}
    feeds_lock = threading.Lock()

    def feed(game_id: int, delayed: bool) -> tuple[dict[str, Any], dict[str, str]]:
        """The feed's state and regions now: with `delayed`, only what the record held `delay` seconds
        ago by the server's clock; without, everything recorded. The present is taken in whole seconds,
        rounded down (never later than it is), so every socket of a feed shares one drawing a second."""
        now = math.floor(time_source.now())
        with reader.open() as records:
            head = records.head(game_id)
            key = (head, now)
            with feeds_lock:
                known = drawn_feeds.get((game_id, delayed))
            if known is not None and known[0] == key:
                return known[1]
            reader.report(records, game_id)  # a tampered game is refused, never shown
            recorded = records.recorded(game_id)
        delay = effective_delay(recorded, watch_delay) if delayed else 0
        until = now - delay if delayed else None
        state = broadcast_state(game_id, recorded, until, now - delay, delay)
        context = {"s": state, "t": words.text, "maybe": words.maybe, "LOW_TIME_S": LOW_TIME_S}
        regions = {name: env.get_template(REGIONS[name]).render(**context) for name in BROADCAST_REGIONS}
        with feeds_lock:
            drawn_feeds[(game_id, delayed)] = (key, (state, regions))
        return state, regions

    def wants_delay(request: Request) -> bool:
        return request.query_params.get("delay", "") not in ("", "0", "no", "false")

    def overlay_page(request: Request):
        delayed = wants_delay(request)
        if live is not None and "game" not in request.path_params and not delayed:  # the table itself, live
            return page("overlay.html", title=words.text("page.table"), live=False, socket="/ws/table", delay=0,
                        regions={k: Markup(v) for k, v in live.regions(BROADCAST_REGIONS).items()})
        try:
            game_id = feed_game(request)
            state, regions = feed(game_id, delayed)
        except (RecordsError, GameError) as error:
            return problem(error)
        socket = f"/ws/overlay/{game_id}" + ("?delay=1" if delayed else "")
        return page("overlay.html", title=f"Game {game_id}", live=False, socket=socket, delay=state["delay"],
                    regions={k: Markup(v) for k, v in regions.items()})

    def watch_page(request: Request):
        try:
            game_id = feed_game(request)
            state, regions = feed(game_id, delayed=True)
        except (RecordsError, GameError) as error:
            return problem(error)
        return page("watch.html", title=words.text("broadcast.watch-title"), live=False,
                    socket=f"/ws/watch/{game_id}", delay=state["delay"], shown=bool(state["shown_seq"]),
                    regions={k: Markup(v) for k, v in regions.items()}, headers={"Cache-Control": "no-store"})

    async def feed_socket(websocket: WebSocket, delayed: bool) -> None:
        """Every FEED_EVERY_S the feed's regions as they are now; the ones that changed are sent."""
        game_id = int(websocket.path_params["game"])
        await websocket.accept()
        sent: dict[str, str] = {}

        async def receive() -> None:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                while (await websocket.receive())["type"] != "websocket.disconnect":
                    pass

        gone = asyncio.create_task(receive())
        try:
            while not gone.done():
                try:
                    _, regions = await asyncio.to_thread(feed, game_id, delayed)
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

    async def overlay_socket(websocket: WebSocket):
        await feed_socket(websocket, delayed=websocket.query_params.get("delay", "") not in ("", "0", "no", "false"))

    async def watch_socket(websocket: WebSocket):
        await feed_socket(websocket, delayed=True)

    # -- referee actions ---------------------------------------------------------------------
    def authorised(request: Request) -> bool:
        given = request.headers.get("x-tileref-token", "")
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            given = auth[7:].strip()
        return bool(token) and bool(given) and secrets.compare_digest(given.encode(), token.encode())

    def refused(status: int, error: str, words_said: str, **headers: str) -> JSONResponse:
        """A refused action: `error` for programs, `words` (the page's language) for the referee."""
        return JSONResponse({"error": error, "words": words_said}, status_code=status, headers=headers or None)

    def not_now() -> str:
        phase = live.snapshot().get("phase") if live is not None else ""
        return words.text("referee.refused", reason=words.text(
            "referee.not-now", phase=words.maybe(f"phase.{phase}", phase or "")))

    def unauthorised() -> JSONResponse:
        return refused(401, "the referee token is missing or wrong (it is printed on the table's console at "
                       "start-up)", words.text("referee.unauthorised"), **{"WWW-Authenticate": "Bearer"})

    def referee_nonce(request: Request):
        if not authorised(request):
            return unauthorised()
        return JSONResponse({"nonce": nonces.give()}, headers={"Cache-Control": "no-store"})

    async def referee_action(request: Request):
        if not authorised(request):  # before anything else: nothing is read, queued or recorded
            return unauthorised()
        if not nonces.take(request.headers.get("x-tileref-nonce", "")):  # a replayed action: used up
            error = ("the action's nonce (header X-Tileref-Nonce) is missing, unknown or already used: "
                     "ask GET /api/referee/nonce for a fresh one before each action")
            return refused(409, error, words.text("referee.refused", reason=error))
        try:
            action = DeskAction(request.path_params["action"])
        except ValueError:
            error = (f"unknown action {request.path_params['action']!r}; one of "
                     + ", ".join(a.value for a in DeskAction))
            return refused(404, error, words.text("referee.refused", reason=error))
        if live is None or desk is None:
            return refused(409, "no game runs in this process", words.text("referee.unreachable"))
        body = await action_body(request)
        if isinstance(body, Response):
            return body
        try:
            referee_request = parse_request(action, body)
        except (BadRequest, RulesError) as error:
            return refused(400, str(error), words.text("referee.refused", reason=str(error)))
        future = desk.submit(referee_request)
        try:
            answer = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), ACTION_TIMEOUT_S)
        except asyncio.TimeoutError:
            cancelled = future.cancel()
            return refused(504, f"the table did not take the action within {ACTION_TIMEOUT_S:.0f} s"
                           + (" (not carried out)" if cancelled else " (it is being carried out)"),
                           words.text("referee.timed-out"))
        except DeskError as error:  # not where the game stands: said in the words of the page
            return refused(409, str(error), not_now())
        except (GameError, RulesError, AdapterError) as error:
            return refused(409, str(error), words.text("referee.refused", reason=str(error)))
        except concurrent.futures.CancelledError:
            return refused(409, "the action was withdrawn", not_now())
        return JSONResponse({"ok": True, "action": action.value, "said": answer.said,
                             "words": answer_words(words, referee_request, answer.recorded),
                             "recorded": list(answer.recorded)})

    routes = [
        Route("/", index),
        Route("/table", table_page),
        Route("/referee", referee_page),
        Route("/games/{game:record_id}", game_page),
        Route("/games/{game:record_id}/turns/{turn:record_id}", audit_page),
        Route("/games/{game:record_id}/replay", replay_page),
        Route("/games/{game:record_id}/replay/{step:record_id}", replay_page),
        Route("/photos/{sha:str}", photo),
        Route("/api/games", api_games),
        Route("/api/games/{game:record_id}", api_game),
        Route("/api/games/{game:record_id}/turns/{turn:record_id}", api_audit),
        Route("/api/games/{game:record_id}/replay", api_replay),
        Route("/api/table", api_table),
        Route("/api/referee/nonce", referee_nonce),
        Route("/api/referee/{action:str}", referee_action, methods=["POST"]),
        WebSocketRoute("/ws/table", table_socket),
        Route("/overlay/table", overlay_page),
        Route("/overlay/table/{game:record_id}", overlay_page),
        Route("/watch", watch_page),
        Route("/watch/{game:record_id}", watch_page),
        WebSocketRoute("/ws/overlay/{game:record_id}", overlay_socket),
        WebSocketRoute("/ws/watch/{game:record_id}", watch_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = GuardedStarlette(routes=routes)
    app.state.live, app.state.desk, app.state.reader = live, desk, reader
    return app


async def action_body(request: Request) -> Any:
    """A referee action's JSON body, or the 4xx answer: too large (413), not JSON, nested deeper than
    Python parses or not UTF-8 (400); read up to MAX_ACTION_BODY bytes, never more."""
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_ACTION_BODY:
            return JSONResponse({"error": f"the body is over {MAX_ACTION_BODY} bytes"}, status_code=413)
    try:
        return json_text.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return JSONResponse({"error": "the body must be a JSON object"}, status_code=400)


def answer_words(words, request: RefereeRequest, recorded) -> str:
    """What was done, in the referee page's language."""
    kinds = {item["kind"] for item in recorded}
    who = request.referee
    if request.action is DeskAction.CORRECT:
        player = (request.target or "")[len(RefereeCorrection.RACK_PREFIX):] \
            if (request.target or "").startswith(RefereeCorrection.RACK_PREFIX) else None
        said = words.text("answer.correct-rack", referee=who, player=player) if player \
            else words.text("answer.correct-table", referee=who)
        if "game-scored" in kinds:
            said += ". " + words.text("answer.rescored")
        elif "turn-judged" in kinds:
            said += ". " + words.text("answer.rejudged")
        return said
    if request.action is DeskAction.PAUSE:
        return words.text("answer.resume" if request.resume else "answer.pause", referee=who)
    if request.action is DeskAction.EXTEND:
        return words.text("answer.extend", referee=who, seconds=request.seconds)
    if request.action is DeskAction.TILES_THERE:
        return words.text("answer.tiles-there-read" if request.changes else "answer.tiles-there", referee=who)
    if request.action is DeskAction.AREA:
        return words.text("answer.area-found" if request.corners is None else "answer.area-marked", referee=who)
    return words.text(f"answer.{request.action.value}", referee=who)


def _text(body: dict, name: str, required: bool = True) -> str:
    value = body.get(name, "")
    if not isinstance(value, str):
        raise BadRequest(f"{name!r} must be text")
    value = value.strip()
    if required and not value:
        raise BadRequest(f"{name!r} is required: every referee action names who ({'referee'!r}) and why "
                         f"({'reason'!r})")
    if len(value) > 500:
        raise BadRequest(f"{name!r} is longer than 500 characters")
    return value


def parse_request(action: DeskAction, body: Any) -> RefereeRequest:
    """A referee action's JSON body as a typed request; BadRequest (400) names what is wrong."""
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    referee, reason = _text(body, "referee"), _text(body, "reason")
    if action is DeskAction.CORRECT:
        target = _text(body, "target", required=False) or "table"
        if target == "table":
            changes = body.get("changes", "")
            if isinstance(changes, str):
                words = changes.replace(",", " ").split()
                if len(words) % 2:
                    raise BadRequest(f"'changes': 'index code' pairs, e.g. '3 R5 7 {NO_TILE}' ({NO_TILE!r}: no tile lies there)")
                pairs = [(words[k], words[k + 1]) for k in range(0, len(words), 2)]
            elif isinstance(changes, list) and all(isinstance(c, list) and len(c) == 2 for c in changes):
                pairs = [(str(i), str(c)) for i, c in changes]
            else:
                raise BadRequest(f"'changes': 'index code' pairs, e.g. '3 R5 7 {NO_TILE}' ({NO_TILE!r}: no tile lies there)")
            if not pairs:
                raise BadRequest("'changes': name at least one tile: 'index code'")
            try:
                parsed = tuple((int(i), NO_TILE if c.lower() == NO_TILE else parse_tile(c).code) for i, c in pairs)
            except ValueError:
                raise BadRequest("'changes': a tile index is a whole number") from None
            return RefereeRequest(action, referee, reason, target="table", changes=parsed)
        if not target.startswith("rack:") or not target[5:].strip():
            raise BadRequest("'target': 'table' or 'rack:PLAYER'")
        tiles = body.get("tiles", "")
        codes = tiles.replace(",", " ").split() if isinstance(tiles, str) else tiles
        if not isinstance(codes, list):
            raise BadRequest("'tiles': the rack's codes, e.g. 'R5 K13 J'")
        return RefereeRequest(action, referee, reason, target=RefereeCorrection.rack_target(target[5:].strip()),
                              rack=tuple(parse_tile(str(c)).code for c in codes))
    if action is DeskAction.TILES_THERE:
        changes = body.get("changes", "")
        if not isinstance(changes, str):
            raise BadRequest("'changes': 'index code' pairs, e.g. '3 R5 7 K13', or nothing (the table is read again)")
        words = changes.replace(",", " ").split()
        if len(words) % 2:
            raise BadRequest("'changes': 'index code' pairs, e.g. '3 R5 7 K13'")
        try:
            parsed = tuple((int(words[k]), parse_tile(words[k + 1]).code) for k in range(0, len(words), 2))
        except ValueError:
            raise BadRequest("'changes': a tile index is a whole number") from None
        return RefereeRequest(action, referee, reason, changes=parsed)
    if action is DeskAction.OVERRIDE:
        outcome = _text(body, "outcome", required=False) or Override.LEGAL
        if outcome not in tuple(Override):
            raise BadRequest(f"'outcome': {outcome!r} is not one of " + ", ".join(repr(o.value) for o in Override))
        return RefereeRequest(action, referee, reason, outcome=Override(outcome))
    if action is DeskAction.EXTEND:
        seconds = body.get("seconds")
        if isinstance(seconds, str) and seconds.strip().isdigit():
            seconds = int(seconds)
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not 0 < seconds <= 3600:
            raise BadRequest("'seconds': the extra time, 1 to 3600 seconds")
        return RefereeRequest(action, referee, reason, seconds=seconds)
    if action is DeskAction.PAUSE:
        return RefereeRequest(action, referee, reason, resume=bool(body.get("resume", False)))
    if action is DeskAction.AREA:
        return area_request(referee, reason, body)
    return RefereeRequest(action, referee, reason)


def _whole(body: dict, name: str) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_FRAME_SIDE:
        raise BadRequest(f"{name!r}: the frame's {name} in pixels, 1 to {MAX_FRAME_SIDE}; got {value!r}")
    return value


def area_request(referee: str, reason: str, body: dict) -> RefereeRequest:
    """`found`: true (the area is found on each frame), or `corners` [[x, y] x 4] on a frame of `width` x
    `height` pixels: inside it, a convex four-sided area of a sensible size (BadRequest names the value)."""
    from vision.area import AreaError, marked_on_frame  # here: `tileref serve` never needs OpenCV

    if body.get("found") is True:
        if "corners" in body:
            raise BadRequest("'found': true takes no 'corners' (the area is found on each frame)")
        return RefereeRequest(DeskAction.AREA, referee, reason)
    corners = body.get("corners")
    shape_ok = isinstance(corners, list) and len(corners) == 4 and all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in c)
        for c in corners)
    if not shape_ok:
        raise BadRequest(f"'corners': four corners [x, y] in the frame's pixels (or 'found': true); got {corners!r}")
    width, height = _whole(body, "width"), _whole(body, "height")
    try:
        area = marked_on_frame(corners, width, height)
    except AreaError as error:
        raise BadRequest(f"'corners': {error}") from None
    return RefereeRequest(DeskAction.AREA, referee, reason, corners=tuple(area.corners), frame=(width, height))
