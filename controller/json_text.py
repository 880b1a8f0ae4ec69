"""`json.loads` for text a user handed us, failing only with `json.JSONDecodeError`.

Besides bad syntax, `json.loads` fails with a plain ValueError on an integer longer than
Python's int-string limit (4300 digits) and with RecursionError on deep nesting. A reader that
catches only JSONDecodeError reports those as a bug (exit 1) instead of bad input (exit 2), so
here they are JSONDecodeErrors too, whose text is the one-line reason: every reader of a user's
file names the file and the reason the same way.
"""
from __future__ import annotations

import json
from typing import Any


class JsonLimitError(json.JSONDecodeError):
    """Valid JSON syntax that Python will not build: too long an integer, too deep a nesting."""

    def __init__(self, reason: str, text: str) -> None:
        super().__init__(reason, text, 0)
        self.reason = reason

    def __str__(self) -> str:  # no "line 1 column 1": the limit is not at a place in the text
        return self.reason


def loads(text: str, **options: Any) -> Any:
    """`json.loads(text, **options)`; every failure is a `json.JSONDecodeError`."""
    try:
        return json.loads(text, **options)
    except json.JSONDecodeError:
        raise
    except ValueError as error:  # "Exceeds the limit (4300 digits) for integer string conversion; use ..."
        raise JsonLimitError(str(error).split(";")[0], text) from None
    except RecursionError:
        raise JsonLimitError("nested too deeply", text) from None
