"""What the table shows people: a console display (and the timer box's 16 characters).

At a penalty the table display shows the photo taken at the start of the turn and the
restore plan; the console display writes that photo to a file it names. After every verdict
(and the score) it shows the record's head digest: people at the table see it, the audit pages
print it, so a copy of a record can be checked against what was shown.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Protocol, TextIO

from controller.game.events import Event, GameScored, TableUnrestorable, TurnEndCause, TurnEnded, TurnJudged, TurnStarted

from .waiting import WaitReason, WaitStatus


class Display(Protocol):
    def say(self, text: str) -> None: ...

    def verdict(self, event: TurnJudged, head: str = "") -> None:
        """The verdict, and `head`: the short digest of the record's head once it is written."""
        ...

    def restore(self, event: TurnJudged, photo: bytes | None, suffix: str) -> None: ...

    def unrestorable(self, event: TableUnrestorable) -> None: ...

    def scores(self, event: GameScored, head: str = "") -> None: ...

    def waiting(self, status: WaitStatus) -> None:
        """Why the table is not read yet (said when that changes), then `SETTLED` once when it is."""
        ...


def describe_unrestorable(event: TableUnrestorable) -> str:
    """What happens to a failed turn's table that could not be restored, as the table says it."""
    sets = "  ".join("[" + " ".join(s) + "]" for s in event.kept) or "(empty table)"
    parts = [f"    CANNOT BE RESTORED: {'lay' if event.relay else 'keep'} the table as {sets}"]
    if event.to_offender:
        parts.append(f"{event.player} takes {' '.join(event.to_offender)}")
    if event.to_pool:
        parts.append(f"to the end of the pool: {' '.join(event.to_pool)}")
    if event.missing:
        parts.append(f"not on the table at all: {' '.join(event.missing)}")
    parts.append(f"{event.player}'s rack {event.rack_change:+d} tiles before the penalty draw")
    return "; ".join(parts)


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


def clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def describe_progress(model, event: Event | None) -> list[str]:
    """Where the game goes, as the console says it: whose turn with how long, how the turn ended,
    and that the table is being read (the verdict and the waits are said by their own calls)."""
    if isinstance(event, TurnStarted):
        return [f"turn {event.turn}: {event.player}'s turn, {event.seconds} s"]
    if not isinstance(event, TurnEnded):
        return []
    player = model.player if model.players else "the player"
    if event.cause is TurnEndCause.EXPIRED:
        ended = f"time ran out for {player}"
    elif event.cause is TurnEndCause.SKIPPED:
        ended = f"{player}'s turn ends without a clock: the next player started theirs"
    elif event.seconds_left is not None:
        ended = f"{player} pressed with {clock_text(event.seconds_left)} left"
    else:
        ended = f"{player} pressed"
    return [ended, "reading the table"]


# how a game ended, in words (GameEnd's values are the records' names)
GAME_ENDS = {"empty-rack": "a rack is empty", "pool-out": "the pool ran out"}


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

    def verdict(self, event: TurnJudged, head: str = "") -> None:
        self._print(describe_verdict(event))
        if head:
            self._print(f"    record head {head}")

    def waiting(self, status: WaitStatus) -> None:
        if not self.quiet:
            self._print(status.detail if status.reason is WaitReason.SETTLED else f"waiting: {status.detail}")

    def observe(self, model, event: Event | None) -> None:
        """The runner's observer: a plain line as the game goes (not with `quiet`)."""
        for line in describe_progress(model, event) if not self.quiet else ():
            self._print(line)

    def restore(self, event: TurnJudged, photo: bytes | None, suffix: str) -> None:
        where = ""
        if photo is not None and self.photo_dir is not None:
            self.photo_dir.mkdir(parents=True, exist_ok=True)
            path = self.photo_dir / f"restore-turn-{event.turn}{suffix}"
            path.write_bytes(photo)
            where = f" (photo of the table before the turn: {path})"
        sets = "  ".join("[" + " ".join(s) + "]" for s in event.restore_table) or "(empty table)"
        back = " ".join(event.restore_to_rack) or "nothing"
        points = f"; {event.player} {event.penalty_points:+d} points" if event.outcome == "penalty" and event.penalty_points else ""
        self._print(f"    RESTORE{where}: back to {event.player}'s rack: {back}; lay the table as: {sets}{points}")

    def unrestorable(self, event: TableUnrestorable) -> None:
        self._print(describe_unrestorable(event))

    def scores(self, event: GameScored, head: str = "") -> None:
        self._print(f"game over ({GAME_ENDS.get(str(getattr(event.end, 'value', event.end)), event.end)}); "
                    f"winner {event.winner}")
        for name, points in event.scores:
            self._print(f"    {name:<10} {points:+d}")
        if head:
            self._print(f"    record head {head}")


class PacedDisplay:
    """A display that holds the table `pace` seconds after a verdict, a restore plan or the score,
    so people watching a recorded game (`tileref demo --web --pace S`) can read them."""

    def __init__(self, inner: Display, pace: float) -> None:
        self.inner = inner
        self.pace = max(0.0, pace)

    def _hold(self) -> None:
        if self.pace:
            import time

            time.sleep(self.pace)

    def say(self, text: str) -> None:
        self.inner.say(text)

    def verdict(self, event: TurnJudged, head: str = "") -> None:
        self.inner.verdict(event, head)
        self._hold()

    def restore(self, event: TurnJudged, photo: bytes | None, suffix: str) -> None:
        self.inner.restore(event, photo, suffix)
        self._hold()

    def unrestorable(self, event: TableUnrestorable) -> None:
        self.inner.unrestorable(event)
        self._hold()

    def scores(self, event: GameScored, head: str = "") -> None:
        self.inner.scores(event, head)

    def waiting(self, status: WaitStatus) -> None:
        self.inner.waiting(status)
