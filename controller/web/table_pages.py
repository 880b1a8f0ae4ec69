"""The live table's pages: the table display (`/table`), the referee page (`/referee`), the table's
state as JSON (`/api/table`) and their WebSocket (`/ws/table`), which sends each change as the game
makes it. Without a live table (`tileref serve`) the pages say so (404) and the socket is closed."""
from __future__ import annotations

import asyncio
import contextlib

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.adapters.desk import DeskAction

from .web_state import WebState


async def until_closed(websocket: WebSocket) -> None:
    """Reads (and ignores) what the browser sends, until it goes."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass


class TablePages:
    def __init__(self, web: WebState) -> None:
        self.web = web

    def no_table(self) -> HTMLResponse:
        return self.web.page("problem.html", 404, title="No table here",
                             message="No game runs in this process: these pages show the records only.")

    def table(self, request: Request):
        live = self.web.live
        if live is None:
            return self.no_table()
        return self.web.page("table.html", title=self.web.words.text("page.table"),
                             regions={k: Markup(v) for k, v in live.regions().items()}, state=live.snapshot())

    def referee(self, request: Request):
        live = self.web.live
        if live is None:
            return self.no_table()
        return self.web.page("referee.html", title=self.web.words.text("page.referee"),
                             regions={k: Markup(v) for k, v in live.regions().items()}, state=live.snapshot(),
                             actions=[a.value for a in DeskAction])

    def api_table(self, request: Request):
        if self.web.live is None:
            return JSONResponse({"error": "no game runs in this process"}, status_code=404)
        return JSONResponse(self.web.live.snapshot())

    async def socket(self, websocket: WebSocket):
        live = self.web.live
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

            tasks = {asyncio.create_task(send()), asyncio.create_task(until_closed(websocket))}
            done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            live.unsubscribe(client)
