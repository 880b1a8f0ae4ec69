"""What every handler of the web app shares (`WebState`): the records, the live table and the referee
desk when a game runs here, the referee's token and nonces, the page language and the templates.

`create_app` (app.py) makes one per app and hands it to each group of handlers (records pages,
table pages, spectator feeds, referee actions); no handler keeps state of its own elsewhere.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import jinja2
from starlette.responses import HTMLResponse, JSONResponse

from controller.adapters.desk import RefereeDesk
from controller.adapters.time_source import SYSTEM_TIME, TimeSource
from controller.messages import Catalogue
from controller.records.errors import GameNotFoundError, TamperedError
from controller.records.keyring import UntrustedKeyError

from .live import LiveTable
from .nonces import Nonces
from .records_reader import RecordsReader


@dataclass(frozen=True)
class WebState:
    reader: RecordsReader
    words: Catalogue  # the pages' language: a live table's own, else the one `tileref serve` was given
    env: jinja2.Environment
    live: LiveTable | None = None  # a running `play`, `demo` or `clock`; None: the records only
    desk: RefereeDesk | None = None  # where the referee's actions go (a `play` table's)
    token: str | None = None  # the referee's token; None: no action is ever authorised
    watch_delay: int = 0  # the least delay of the spectator feed, in seconds
    time_source: TimeSource = SYSTEM_TIME  # the present the feed's delay counts from
    nonces: Nonces = field(default_factory=Nonces)

    def page(self, name: str, status: int = 200, headers: dict[str, str] | None = None, **context) -> HTMLResponse:
        words = self.words
        context.setdefault("live", self.live is not None)
        context.setdefault("kind", self.live.kind if self.live is not None else None)
        context.setdefault("t", words.text)
        context.setdefault("maybe", words.maybe)
        context.setdefault("around", words.around)
        context.setdefault("lang", words.language)
        return HTMLResponse(self.env.get_template(name).render(**context), status_code=status, headers=headers)

    def problem(self, error: Exception) -> HTMLResponse:
        """A records problem as a page: no such game (404), a game not to be trusted (409), else 400."""
        text = self.words.text
        if isinstance(error, GameNotFoundError):
            return self.page("problem.html", 404, title=text("records.not-found"), message=str(error))
        if isinstance(error, UntrustedKeyError):
            return self.page("problem.html", 409, title=text("records.untrusted"), message=str(error))
        if isinstance(error, TamperedError):
            return self.page("problem.html", 409, title=text("records.tampered"), message=str(error))
        return self.page("problem.html", 400, title=text("records.cannot-show"), message=str(error))

    def api_problem(self, error: Exception) -> JSONResponse:
        status = 404 if isinstance(error, GameNotFoundError) else 409 if isinstance(error, TamperedError) else 400
        return JSONResponse({"error": str(error)}, status_code=status)
