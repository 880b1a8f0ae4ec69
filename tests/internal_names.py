"""The names the code uses inside, which no reader may see: every string value of every enum of the
controller written with a hyphen (a game's states, timer incidents, event kinds, rules broken, clock
facts, highlights...). tests/web/test_no_internal_names.py walks the templates and catalogues for
them; tests/game/test_club_evening.py the console of a whole evening."""
from __future__ import annotations

import enum
import importlib
import pkgutil
import re

import controller


def _enum_values() -> dict[str, str]:
    """Every string value of every enum defined in the controller: value -> the enum's name."""
    found: dict[str, str] = {}
    for module in pkgutil.walk_packages(controller.__path__, "controller."):
        loaded = importlib.import_module(module.name)
        for thing in vars(loaded).values():
            if isinstance(thing, type) and issubclass(thing, enum.Enum) and thing.__module__ == loaded.__name__:
                for member in thing:
                    if isinstance(member.value, str):
                        found.setdefault(member.value, f"{thing.__module__}.{thing.__qualname__}")
    return found


ENUM_VALUES = _enum_values()
INTERNAL = sorted((v for v in ENUM_VALUES if "-" in v), key=len, reverse=True)
INTERNAL_NAME = re.compile(r"(?<![\w{.-])(" + "|".join(map(re.escape, INTERNAL)) + r")(?![\w}-])")
