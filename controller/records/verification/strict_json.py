"""JSON as a record file must be: one value per key, finite numbers, integers SQLite can hold.

Python's `json` keeps the last of two equal keys (so `"outcome":"legal"` written before
`"outcome":"penalty"` would pass unseen), reads NaN and Infinity, turns 1e999 into inf and
builds integers of any length. `loads` refuses each of them and names where it sits as a JSON
path (`events[10].elapsed_ms`, `game.id`), so a reader can say which field of which file is
wrong. The parser's hooks mark what they cannot accept and one walk over the parsed value
finds the first mark with its path; an integer too long for SQLite is never built at all.
"""
from __future__ import annotations

import math
import re
from typing import Any

from controller import json_text

SQLITE_MIN = -2 ** 63
SQLITE_MAX = 2 ** 63 - 1
_MAX_INT_DIGITS = 19  # SQLite's integers have at most 19 digits; a longer one is never converted
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class StrictJsonError(ValueError):
    """Valid JSON that a record may not hold; `path` says where (empty: the whole text)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}" if path else reason)
        self.path = path
        self.reason = reason


class _Refused:
    """What a parser hook gives back for a value it refuses (reported with its path by the walk)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


class _Object(dict):
    """A JSON object that named a key twice (`duplicates`: those keys, in the order met)."""

    __slots__ = ("duplicates",)


def _pairs(pairs: list[tuple[str, Any]]) -> dict:
    value = dict(pairs)
    if len(value) == len(pairs):
        return value
    seen: set[str] = set()
    duplicates = []
    for key, _ in pairs:
        if key in seen and key not in duplicates:
            duplicates.append(key)
        seen.add(key)
    marked = _Object(value)
    marked.duplicates = duplicates
    return marked


def _constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a number (JSON has no NaN or Infinity)")


def _float(text: str) -> float | _Refused:
    value = float(text)
    return value if math.isfinite(value) else _Refused(f"{_excerpt(text)} is too large to be a number")


def _int(text: str) -> int | _Refused:
    digits = text.lstrip("-")
    if len(digits) <= _MAX_INT_DIGITS:
        value = int(text)
        if SQLITE_MIN <= value <= SQLITE_MAX:
            return value
    return _Refused(f"integer {_excerpt(text)} is outside SQLite's range (-2**63 .. 2**63-1)")


def _excerpt(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:20]}... ({len(text)} characters)"


def child_path(path: str, key: str | int) -> str:
    """`events` + 3 -> `events[3]`; `events[3]` + `seq` -> `events[3].seq`."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if _NAME.fullmatch(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{_excerpt(key)!r}]"


def loads(text: str) -> Any:
    """The value of a JSON text, strictly; json.JSONDecodeError for bad syntax (or a nesting or
    integer Python will not build), StrictJsonError naming the path of the first refused value."""
    value = json_text.loads(text, object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float,
                            parse_int=_int)
    refused = first_refused(value)
    if refused is not None:
        raise StrictJsonError(*refused)
    return value


def first_refused(value: Any) -> tuple[str, str] | None:
    """(path, reason) of the first value a parser hook refused, in document order; None if none."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, _Refused):
            return path, item.reason
        if isinstance(item, dict):
            if isinstance(item, _Object):
                key = item.duplicates[0]
                return child_path(path, key), f"the key {_excerpt(key)!r} is given twice in one object"
            stack.extend((child_path(path, key), child) for key, child in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((child_path(path, index), child) for index, child in reversed(list(enumerate(item))))
    return None
