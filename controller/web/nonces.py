"""One-time nonces of the referee's actions: a captured action sent again is refused, never recorded twice.

The referee page asks for a nonce (`GET /api/referee/nonce`, with the token) before each action and
sends it with the action (`X-Tileref-Nonce`). `take` gives True once per nonce it handed out, and
only within NONCE_LIFETIME_S; the oldest are forgotten beyond MAX_OUTSTANDING (a page that asked
and never acted).
"""
from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from typing import Callable

NONCE_LIFETIME_S = 600.0  # a referee reads the page, picks tiles, types a reason: minutes, not hours
MAX_OUTSTANDING = 256


class Nonces:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._given: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def give(self) -> str:
        nonce = secrets.token_urlsafe(18)
        with self._lock:
            self._given[nonce] = self._clock()
            while len(self._given) > MAX_OUTSTANDING:
                self._given.popitem(last=False)
        return nonce

    def take(self, nonce: str) -> bool:
        """True when `nonce` was given, is fresh and was never taken; it is used up either way."""
        with self._lock:
            given = self._given.pop(nonce, None)
        return given is not None and self._clock() - given <= NONCE_LIFETIME_S
