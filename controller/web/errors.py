"""The web layer's errors: one base, specific kinds. Bad input (a malformed `--web` value, a port
in use) exits 2 with one line naming it, like every other command's bad input."""
from __future__ import annotations


class WebError(Exception):
    """Base of the web layer's errors."""


class WebAddressError(WebError):
    """A `--web HOST:PORT` value that is not one."""


class WebBindError(WebError):
    """The address cannot be served (port in use, no such interface, not allowed)."""


class WebServerError(WebError):
    """The server did not start."""
