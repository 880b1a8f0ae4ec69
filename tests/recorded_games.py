"""Shared by the game and web tests: a camera of given frames, and waiting for another process's game."""
from __future__ import annotations

import time

from controller.records import Records


class Frames:
    """A camera showing the frames given in turn, then the last for ever, 30 a second."""

    def __init__(self, frames):
        self.frames = list(frames)
        self.taken = 0

    def read(self):
        self.taken += 1
        return self.frames.pop(0) if len(self.frames) > 1 else self.frames[0]

    def read_timed(self):
        from vision.eyes import TimedFrame

        return TimedFrame(self.read(), self.taken / 30.0)

    def close(self):
        pass


def wait_for(db, predicate, timeout=60.0):
    """The latest game's events once `predicate` holds for them (another process writes `db`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if db.exists():
            try:
                with Records(db, create=False) as records:
                    events = records.events(records.latest_game())
                if predicate(events):
                    return events
            except Exception:  # the file is being created by the other process
                pass
        time.sleep(0.05)
    raise AssertionError("the game did not get there in time")
