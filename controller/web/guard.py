"""What every response of every tileref web app carries, and what none of them ever does.

`GuardedStarlette` is a Starlette app whose outermost layer is `Guard`:

* every HTTP response gets `X-Content-Type-Options: nosniff` (a browser takes a response as the
  type it is served as, never guesses) and a Content-Security-Policy that runs scripts only
  from the app's own static files (no inline script, no inline event handler, no plug-ins, no
  framing by another site); a route may set a stricter policy of its own (a photo's);
* a request whose path and query exceed MAX_TARGET_BYTES answers 414 before any route sees it;
* a request or WebSocket whose `Origin` names another site than the `Host` it was sent to is
  refused (403; a WebSocket is closed before it opens, which the browser sees as 403): a page of
  another site must not read the live table or act on it through the browser of someone at the
  table. A request without `Origin` (a program, a browser's own navigation) passes;
* an error no route expected answers 500 and is one line on the console (method, path, what
  failed), never a traceback: the console is the table's, in front of the players.

`RECORD_ID` is the URL convertor of game, turn and step numbers: at most 18 digits, so every
number a route is given fits an SQLite integer (a longer one matches no route: 404).
"""
from __future__ import annotations

import sys
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor

CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                           "frame-ancestors 'self'; form-action 'self'")
HEADERS = ((b"x-content-type-options", b"nosniff"),
           (b"content-security-policy", CONTENT_SECURITY_POLICY.encode("ascii")))
MAX_TARGET_BYTES = 2048  # path and query: the longest tileref link is some 120 bytes


class RecordIdConvertor(Convertor):
    regex = "[0-9]{1,18}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(int(value))


RECORD_ID = "record_id"
register_url_convertor(RECORD_ID, RecordIdConvertor())


DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _host_port(host: str, scheme: str) -> tuple[str, int] | None:
    try:
        parts = urlsplit(f"{scheme}://{host}")
        return (parts.hostname or "").lower(), parts.port or DEFAULT_PORTS.get(scheme, 0)
    except ValueError:
        return None


def foreign_origin(scope) -> str | None:
    """The request's `Origin` when it names another site than its `Host` (else None: same site or no Origin)."""
    origin = _header(scope, b"origin")
    if origin is None:
        return None
    host = _header(scope, b"host")
    parts = urlsplit(origin.strip()) if origin.strip() != "null" else None
    if parts is None or parts.scheme not in DEFAULT_PORTS or host is None:
        return origin
    scheme = scope.get("scheme", "http")
    own = _host_port(host, scheme), scheme in ("https", "wss")
    theirs = _host_port(parts.netloc, parts.scheme), parts.scheme == "https"
    return None if own[0] is not None and own == theirs else origin


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Guard:
    """ASGI middleware: the headers, the target length, and no traceback (module doc)."""

    def __init__(self, app, say=_say) -> None:
        self.app = app
        self.say = say

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket" and foreign_origin(scope) is not None:
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008})  # before accept: the browser sees 403
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if (origin := foreign_origin(scope)) is not None:
            shown = origin if len(origin) <= 80 else origin[:80] + "..."
            await _plain(send, 403, f"refused: a page of {shown!r} may not use this site's pages")
            return
        target = len(scope.get("raw_path") or scope.get("path", "").encode("utf-8", "replace")) + len(
            scope.get("query_string") or b"")
        if target > MAX_TARGET_BYTES:
            await _plain(send, 414, f"the address is {target} bytes long; at most {MAX_TARGET_BYTES}")
            return
        started = False

        async def send_guarded(message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                given = {name.lower() for name, _ in message.get("headers", ())}
                message = {**message, "headers": [*message.get("headers", ()),
                                                  *((n, v) for n, v in HEADERS if n not in given)]}
            await send(message)

        try:
            await self.app(scope, receive, send_guarded)
        except Exception as error:  # a bug: answered (500) and named in one line, never a traceback
            path = scope.get("path", "")
            self.say(f"web: {scope.get('method', '')} {path[:80]}{'...' if len(path) > 80 else ''} failed: "
                     f"{type(error).__name__}: {str(error)[:200]}")
            if not started:
                await _plain(send_guarded, 500, "internal error (named on the table's console)")


async def _plain(send, status: int, text: str) -> None:
    body = text.encode("utf-8")
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
               *HEADERS]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class GuardedStarlette(Starlette):
    """Starlette with `Guard` outside everything, its own error middleware included."""

    def build_middleware_stack(self):
        return Guard(super().build_middleware_stack())
