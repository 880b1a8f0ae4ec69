"""What time it is, for the parts that hold something back until it is old enough.

The spectator feed (controller/web/broadcast.py) shows a game a set delay behind the table: what
is old enough depends on the present, and the present comes from a `TimeSource`. The program uses
the system's clock (`SYSTEM_TIME`); a test gives a clock it sets itself, so a 30-second delay is
checked without waiting 30 seconds.
"""
from __future__ import annotations

import time
from typing import Protocol


class TimeSource(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (UTC), as the records' event times count them."""
        ...


class SystemTime:
    def now(self) -> float:
        return time.time()


SYSTEM_TIME = SystemTime()
