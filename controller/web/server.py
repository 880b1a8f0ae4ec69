"""The web server in a background thread of the same process (uvicorn), bound loopback by default.

`tileref play|demo|clock ... --web HOST:PORT` and `tileref serve` start one; the game's own loop
keeps the main thread. The socket is bound here, before the thread starts, so a port in use is
bad input (exit 2, one line) and port 0 gives the port the system chose (`WebServer.url`).
"""
from __future__ import annotations

import ipaddress
import socket
import threading
import time
from dataclasses import dataclass

from .errors import WebAddressError, WebBindError, WebServerError

DEFAULT_HOST = "127.0.0.1"
START_TIMEOUT = 15.0  # seconds for uvicorn to start serving


@dataclass(frozen=True)
class WebAddress:
    host: str
    port: int

    @property
    def loopback(self) -> bool:
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return self.host == "localhost"


def parse_address(text: str) -> WebAddress:
    """`HOST:PORT`, `:PORT` or `PORT` (loopback), `[::1]:PORT`; port 0: any free port."""
    value = text.strip()
    if not value:
        raise WebAddressError("--web: give HOST:PORT, e.g. 127.0.0.1:8080 (port 0: any free port)")
    if value.startswith("["):
        host, sep, port = value[1:].partition("]:")
        if not sep:
            raise WebAddressError(f"--web {text!r}: an IPv6 address is written [ADDRESS]:PORT")
    elif ":" in value:
        host, _, port = value.rpartition(":")
    else:
        host, port = "", value
    host = host or DEFAULT_HOST
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise WebAddressError(f"--web {text!r}: the port must be a number from 0 to 65535")
    if any(c.isspace() or c in "/?#@" for c in host):
        raise WebAddressError(f"--web {text!r}: {host!r} is not a host name or address")
    return WebAddress(host, int(port))


def bind(address: WebAddress) -> socket.socket:
    try:
        infos = socket.getaddrinfo(address.host, address.port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise WebBindError(f"--web {address.host}:{address.port}: unknown host ({error.strerror})") from None
    family, _, _, _, where = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(where)
        sock.listen(64)
    except OSError as error:
        sock.close()
        raise WebBindError(f"--web {address.host}:{address.port}: cannot serve there: {error.strerror or error}") from None
    sock.set_inheritable(True)
    return sock


class WebServer:
    """uvicorn serving `app` on an already bound socket, in a daemon thread."""

    def __init__(self, app, address: WebAddress, lifespan: str = "off") -> None:
        import uvicorn

        self.address = address
        self.socket = bind(address)
        port = self.socket.getsockname()[1]
        host = address.host if ":" not in address.host else f"[{address.host}]"
        self.url = f"http://{host}:{port}"
        from uvicorn.config import WS_PROTOCOLS

        ws = "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"  # newer uvicorn: sans-I/O
        config = uvicorn.Config(app, log_level="warning", lifespan=lifespan, ws=ws, access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, name="tileref-web", daemon=True)
        self.error: BaseException | None = None

    def _run(self) -> None:
        try:
            self.server.run(sockets=[self.socket])
        except BaseException as error:  # reported by start(); a daemon thread must not print a traceback
            self.error = error

    def start(self) -> "WebServer":
        self.thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise WebServerError(f"the web server on {self.url} did not start: {self.error or 'timed out'}")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread.is_alive():
            self.thread.join(timeout=5)
        self.socket.close()

    def serve_until_interrupted(self) -> None:
        """Serve until Ctrl-C, then stop (a command that only serves pages)."""
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            self.stop()

    def __enter__(self) -> "WebServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
