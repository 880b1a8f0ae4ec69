"""Helpers shared by the bridge tests (a unique module name: other areas have conftests too)."""
from __future__ import annotations

import time

from firmware_bridge.driver import TimerDriver

# Device seconds per real second: a 3-second turn takes 0.15 s of test time.
FAST = 20.0


def wait_for(driver: TimerDriver, kind: type, timeout: float = 2.0, accept=lambda e: True):
    """The first event of `kind` (passing `accept`), and every event seen before it."""
    seen = []
    deadline = time.monotonic() + timeout
    while (remaining := deadline - time.monotonic()) > 0:
        event = driver.next_event(remaining)
        if event is None:
            break
        seen.append(event)
        if isinstance(event, kind) and accept(event):
            return event, seen
    raise AssertionError(f"no {kind.__name__} within {timeout} s; saw {seen}")
