"""What the timer box tells the table's runner: the values the runner shares with the timer
adapter (`timer.py`), free of the serial link."""
from __future__ import annotations

import enum
from dataclasses import dataclass

from controller.game.events import Incident  # what happened to the box or link; recorded as TimerIncident.incident

from .errors import TimerError


class SignalKind(enum.StrEnum):
    PRESSED = "pressed"
    EXPIRED = "expired"
    INCIDENT = "incident"


@dataclass(frozen=True)
class TimerSignal:
    kind: SignalKind  # a str enum: compares equal to "pressed" | "expired" | "incident"
    button: str | None = None
    seat: int | None = None  # 1-based seat the signal belongs to
    seconds_left: int | None = None
    detail: str = ""
    incident: Incident | None = None  # set for kind INCIDENT

    def __post_init__(self) -> None:
        # a timer written against the older string kinds still works: the values are the same
        for name, values in (("kind", SignalKind), ("incident", Incident)):
            value = getattr(self, name)
            if value is None and name == "incident" or isinstance(value, values):
                continue
            try:
                object.__setattr__(self, name, values(value))
            except (ValueError, TypeError):
                raise TimerError(f"TimerSignal.{name}: unknown value {value!r}; one of "
                                 + ", ".join(repr(m.value) for m in values)) from None
