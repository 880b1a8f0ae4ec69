"""What the table shows people: a console display (and the timer box's 16 characters).

At a penalty the table display shows the photo taken at the start of the turn and the
restore plan; the console display writes that photo to a file it names.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Protocol, TextIO

from controller.game.events import GameScored, TurnJudged

from .settle import WaitReason, WaitStatus


class Display(Protocol):
    def say(self, text: str) -> None: ...

    def verdict(self, event: TurnJudged) -> None: ...

    def restore(self, event: TurnJudged, photo: bytes | None, suffix: str) -> None: ...

    def scores(self, event: GameScored) -> None: ...

    def waiting(self, status: WaitStatus) -> None:
        """Why the table is not read yet (said when that changes), then `SETTLED` once when it is."""
        ...


def describe_verdict(event: TurnJudged) -> str:
    played = " ".join(event.played) or "-"
    line = f"turn {event.turn:>3} {event.player:<10} {event.outcome:<8} played {played}"
    if event.draw:
        line += f"; draws {event.draw}"
    if event.penalty_points:
        line += f"; {event.penalty_points:+d} points"
    for rule, detail in event.violations:
        line += f"\n    {rule}: {detail}"
    return line


class ConsoleDisplay:
    def __init__(self, out: TextIO | None = None, photo_dir: Path | None = None, quiet: bool = False) -> None:
        self.out = out or sys.stdout
        self.photo_dir = photo_dir
        self.quiet = quiet

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def say(self, text: str) -> None:
        if not self.quiet:
            self._print(text)

    def verdict(self, event: TurnJudged) -> None:
        self._print(describe_verdict(event))

    def waiting(self, status: WaitStatus) -> None:
        if not self.quiet:
            self._print(status.detail if status.reason is WaitReason.SETTLED else f"waiting: {status.detail}")

    def restore(self, event: TurnJudged, photo: bytes | None, suffix: str) -> None:
        where = ""
        if photo is not None and self.photo_dir is not None:
            self.photo_dir.mkdir(parents=True, exist_ok=True)
            path = self.photo_dir / f"restore-turn-{event.turn}{suffix}"
            path.write_bytes(photo)
            where = f" (photo of the table before the turn: {path})"
        sets = "  ".join("[" + " ".join(s) + "]" for s in event.restore_table) or "(empty table)"
        back = " ".join(event.restore_to_rack) or "nothing"
        self._print(f"    RESTORE{where}: back to {event.player}'s rack: {back}; lay the table as: {sets}")

    def scores(self, event: GameScored) -> None:
        self._print(f"game over ({event.end}); winner {event.winner}")
        for name, points in event.scores:
            self._print(f"    {name:<10} {points:+d}")
