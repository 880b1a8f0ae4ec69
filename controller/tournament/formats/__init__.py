"""The event formats of the seeds, by name."""
from __future__ import annotations

from ..errors import FormatError
from .base import EventFormat
from .knockout import Knockout, KnockoutSettings
from .kuwana import Kuwana, KuwanaSettings
from .mahjong_events import HealthMahjong, HealthMahjongSettings, RonCup, RonCupSettings
from .warsaw import Warsaw, WarsawSettings

FORMATS: dict[str, EventFormat] = {
    f.name: f for f in (Kuwana(), Warsaw(), RonCup(), Knockout(), HealthMahjong())
}


def get_format(name: str) -> EventFormat:
    try:
        return FORMATS[name]
    except KeyError:
        raise FormatError(f"unknown format {name!r}; known: {', '.join(FORMATS)}") from None


__all__ = [
    "FORMATS", "EventFormat", "get_format",
    "KnockoutSettings", "KuwanaSettings", "HealthMahjongSettings", "RonCupSettings", "WarsawSettings",
]
