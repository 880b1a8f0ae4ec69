"""The referee's actions (`POST /api/referee/<action>`) and their nonces (`GET /api/referee/nonce`).

Each needs the referee's token in a header (without it 401 and nothing recorded) and a one-time
nonce (a missing, unknown or used one answers 409 and nothing is recorded). An action is handed to
the table's referee desk, which carries it out on the game's thread; the answer says what was done,
in the page's language, and what was recorded.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from controller import json_text
from controller.adapters.desk import DeskAction, DeskError, RefereeRequest
from controller.adapters.errors import AdapterError
from controller.game.errors import GameError
from controller.game.events import RefereeCorrection
from controller.messages import Catalogue
from controller.rules.errors import RulesError

from .referee_requests import BadRequest, parse_request
from .web_state import WebState

ACTION_TIMEOUT_S = 20.0  # how long a referee action waits for the table to carry it out
MAX_ACTION_BODY = 256 * 1024  # a referee action's JSON is a few hundred bytes


def new_token() -> str:
    return secrets.token_urlsafe(18)


def refused(status: int, error: str, words_said: str, **headers: str) -> JSONResponse:
    """A refused action: `error` for programs, `words` (the page's language) for the referee."""
    return JSONResponse({"error": error, "words": words_said}, status_code=status, headers=headers or None)


class RefereeActions:
    def __init__(self, web: WebState) -> None:
        self.web = web

    def authorised(self, request: Request) -> bool:
        token = self.web.token
        given = request.headers.get("x-tileref-token", "")
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            given = auth[7:].strip()
        return bool(token) and bool(given) and secrets.compare_digest(given.encode(), token.encode())

    def not_now(self) -> str:
        words, live = self.web.words, self.web.live
        phase = live.snapshot().get("phase") if live is not None else ""
        return words.text("referee.refused", reason=words.text(
            "referee.not-now", phase=words.maybe(f"phase.{phase}", phase or "")))

    def unauthorised(self) -> JSONResponse:
        return refused(401, "the referee token is missing or wrong (it is printed on the table's console at "
                       "start-up)", self.web.words.text("referee.unauthorised"), **{"WWW-Authenticate": "Bearer"})

    def nonce(self, request: Request):
        if not self.authorised(request):
            return self.unauthorised()
        return JSONResponse({"nonce": self.web.nonces.give()}, headers={"Cache-Control": "no-store"})

    async def action(self, request: Request):
        web, words = self.web, self.web.words
        if not self.authorised(request):  # before anything else: nothing is read, queued or recorded
            return self.unauthorised()
        if not web.nonces.take(request.headers.get("x-tileref-nonce", "")):  # a replayed action: used up
            error = ("the action's nonce (header X-Tileref-Nonce) is missing, unknown or already used: "
                     "ask GET /api/referee/nonce for a fresh one before each action")
            return refused(409, error, words.text("referee.refused", reason=error))
        try:
            action = DeskAction(request.path_params["action"])
        except ValueError:
            error = (f"unknown action {request.path_params['action']!r}; one of "
                     + ", ".join(a.value for a in DeskAction))
            return refused(404, error, words.text("referee.refused", reason=error))
        if web.live is None or web.desk is None:
            return refused(409, "no game runs in this process", words.text("referee.unreachable"))
        body = await action_body(request)
        if isinstance(body, Response):
            return body
        try:
            referee_request = parse_request(action, body)
        except (BadRequest, RulesError) as error:
            return refused(400, str(error), words.text("referee.refused", reason=str(error)))
        future = web.desk.submit(referee_request)
        try:
            answer = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), ACTION_TIMEOUT_S)
        except asyncio.TimeoutError:
            cancelled = future.cancel()
            return refused(504, f"the table did not take the action within {ACTION_TIMEOUT_S:.0f} s"
                           + (" (not carried out)" if cancelled else " (it is being carried out)"),
                           words.text("referee.timed-out"))
        except DeskError as error:  # not where the game stands: said in the words of the page
            return refused(409, str(error), self.not_now())
        except (GameError, RulesError, AdapterError) as error:
            return refused(409, str(error), words.text("referee.refused", reason=str(error)))
        except concurrent.futures.CancelledError:
            return refused(409, "the action was withdrawn", self.not_now())
        return JSONResponse({"ok": True, "action": action.value, "said": answer.said,
                             "words": answer_words(words, referee_request, answer.recorded),
                             "recorded": list(answer.recorded)})


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


def answer_words(words: Catalogue, request: RefereeRequest, recorded) -> str:
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
