"""`--json` on every command that reports: one JSON object on standard output, written when the
command has done its work, so a script reads standard output whole. What a long command says along
the way (a game's verdicts, where the timer is) goes to standard error instead. Bad input still
exits 2 with one line on standard error and prints no object."""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any, Iterator, TextIO


def add_json_option(parser: argparse.ArgumentParser, shape: str) -> None:
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON object on standard output: {shape}")


def emit(data: dict[str, Any], stream: TextIO | None = None) -> None:
    """The command's one object (standard output unless `stream`)."""
    print(json.dumps(data, ensure_ascii=False, indent=1), file=stream or sys.stdout, flush=True)


class JsonReport:
    """Where the command's one object goes; `enabled` False: the command prints words instead."""

    def __init__(self, enabled: bool, stream: TextIO) -> None:
        self.enabled = enabled
        self.stream = stream

    def emit(self, data: dict[str, Any]) -> None:
        if self.enabled:
            emit(data, self.stream)


@contextlib.contextmanager
def json_report(enabled: bool) -> Iterator[JsonReport]:
    """With `enabled`, everything printed inside goes to standard error and only `emit` reaches
    standard output."""
    stdout = sys.stdout
    if not enabled:
        yield JsonReport(False, stdout)
        return
    with contextlib.redirect_stdout(sys.stderr):
        yield JsonReport(True, stdout)


def chain_report_data(report) -> dict[str, Any]:
    """One game's check (`ChainReport`): what `verify`, `import` and `export` say of it."""
    return {"game": report.game_id, "ok": report.ok, "status": report.status.name.lower(), "events": report.events,
            "head": report.head_digest, "key_id": report.key_id,
            "trust": report.trust.trust.value if report.trust is not None else None,
            "problem": report.problem or None, "first_bad_seq": report.first_bad_seq, "summary": report.summary()}
