"""The records' pages and their JSON (the same shapes as the CLI's --json): the games, a game's turns,
the audit of one turn, the replay, and the photos. Every page that shows a game verifies it first: a
tampered game is refused, never shown. A `tileref clock` game has no turns or photos: its pages show
its facts."""
from __future__ import annotations

import re
from typing import Any, Callable

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from controller.clock.record_view import clock_game_data, is_clock_game
from controller.game.errors import GameError
from controller.records import Records
from controller.records.errors import RecordsError
from controller.records.photo_types import image_type
from controller.records.verification.report import ChainReport
from controller.records.reports.turn_data import audit_data, chain_data, games_data, replay_data, turns_index
from controller.records.reports.views import replay_lines

from .web_state import WebState

SHA = re.compile(r"^[0-9a-f]{64}$")


def clock_game(records: Records, game_id: int, report: ChainReport) -> dict[str, Any] | None:
    return clock_game_data(records, game_id, chain_data(report)) if is_clock_game(records, game_id) else None


def clock_replay(records: Records, game_id: int, report: ChainReport) -> dict[str, Any] | None:
    """The replay's shape (the same lines as `tileref replay`), one step: the game's facts."""
    if not is_clock_game(records, game_id):
        return None
    steps = [{"step": n, "turn": None, "title": block[0], "lines": block[1:], "photo": None}
             for n, block in enumerate(replay_lines(records, game_id, report))]
    return {"game": game_id, "chain": chain_data(report), "steps": steps}


class RecordsPages:
    def __init__(self, web: WebState) -> None:
        self.web = web

    def clock_page(self, data: dict[str, Any]) -> HTMLResponse:
        return self.web.page("clock_game.html", data=data,
                             title=self.web.words.text("records.clock-title", game=data["game"], clock=data["clock_game"]))

    def index(self, request: Request):
        with self.web.reader.open() as records:
            data = games_data(records)
        return self.web.page("index.html", title=self.web.words.text("records.title-games"), data=data)

    def game(self, request: Request):
        web = self.web
        game_id = int(request.path_params["game"])
        try:
            with web.reader.open() as records:
                report = web.reader.report(records, game_id)
                clock = clock_game(records, game_id, report)
                data = clock or turns_index(records, game_id, report)
        except (RecordsError, GameError) as error:  # a signed game its machine cannot fold: 400
            return web.problem(error)
        if clock is not None:
            return self.clock_page(clock)
        return web.page("game.html", title=web.words.text("records.title-game", game=game_id), data=data)

    def audit(self, request: Request):
        web = self.web
        game_id, turn = int(request.path_params["game"]), int(request.path_params["turn"])
        try:
            with web.reader.open() as records:
                report = web.reader.report(records, game_id)
                clock = clock_game(records, game_id, report)
                if clock is None:
                    data = audit_data(records, game_id, turn, report)
                    turn_count = len(turns_index(records, game_id, report)["turns"])
        except (RecordsError, GameError) as error:
            return web.problem(error)
        if clock is not None:
            return self.clock_page(clock)  # no turns to audit one by one: the game's facts, each with its place
        return web.page("audit.html", title=web.words.text("records.title-turn", game=game_id, turn=turn), data=data,
                        turns=turn_count)

    def replay(self, request: Request):
        web = self.web
        game_id = int(request.path_params["game"])
        step = int(request.path_params.get("step", 0))
        try:
            with web.reader.open() as records:
                report = web.reader.report(records, game_id)
                data = clock_replay(records, game_id, report) or replay_data(records, game_id, report)
        except (RecordsError, GameError) as error:
            return web.problem(error)
        steps = data["steps"]
        if not 0 <= step < len(steps):
            return web.page("problem.html", 404, title=web.words.text("records.not-found"),
                            message=web.words.text("records.no-step", game=game_id, step=step))
        return web.page("replay.html", title=web.words.text("records.title-replay", game=game_id), data=data,
                        step=steps[step], last=len(steps) - 1)

    def photo(self, request: Request):
        sha = request.path_params["sha"]
        if not SHA.match(sha):
            return Response("not a photo name", status_code=404)
        with self.web.reader.open() as records:
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


class RecordsApi:
    """The records pages' JSON: the same shapes as the CLI's --json."""

    def __init__(self, web: WebState) -> None:
        self.web = web

    def games(self, request: Request):
        with self.web.reader.open() as records:
            return JSONResponse(games_data(records))

    def _verified_json(self, game_id: int, build: Callable[[Records, ChainReport], Any]) -> Response:
        """`build(records, report)` of a verified game as JSON; a records problem as its API answer."""
        reader = self.web.reader
        try:
            with reader.open() as records:
                return JSONResponse(build(records, reader.report(records, game_id)))
        except (RecordsError, GameError) as error:
            return self.web.api_problem(error)

    def game(self, request: Request):
        game_id = int(request.path_params["game"])
        return self._verified_json(game_id, lambda records, report: clock_game(records, game_id, report)
                                   or turns_index(records, game_id, report))

    def audit(self, request: Request):
        game_id, turn = int(request.path_params["game"]), int(request.path_params["turn"])
        return self._verified_json(game_id, lambda records, report: clock_game(records, game_id, report)
                                   or audit_data(records, game_id, turn, report))

    def replay(self, request: Request):
        game_id = int(request.path_params["game"])
        return self._verified_json(game_id, lambda records, report: clock_replay(records, game_id, report)
                                   or replay_data(records, game_id, report))
