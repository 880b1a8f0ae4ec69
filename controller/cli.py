"""The `tileref` command line.

Each area of the project owns one module with `register(subparsers)` and `ERRORS`,
the exception types that mean "bad input": those exit 2 with a one-line message
that names the problem, never a traceback. An error type with an `exit_code` exits with
that instead (a tampered record: 3), with the same one-line message. Any other exception
is a bug: it exits 1 with one line saying so and naming the log file that holds the traceback
(under $TILEREF_LOG_DIR, else $XDG_STATE_HOME/tileref or ~/.local/state/tileref).
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Sequence

COMMAND_MODULES = (
    "controller.commands.rules",
    "controller.commands.read",
    "controller.commands.calibrate",
    "firmware_bridge.cli",
    "controller.commands.game",
    "controller.commands.records",
    "controller.commands.tournament",
    "controller.commands.clock",
    "controller.commands.club",
    "controller.commands.web",
    "controller.commands.area",
    "controller.commands.league",
)

EXIT_BUG = 1
EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """argparse with its complaint on one line (exit 2), like every other bad input."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def one_line(text: object, limit: int = 2000) -> str:
    """A message as one line of bounded length (an input may hold newlines or be huge), with every
    control character (a terminal's escape, a NUL, a lone surrogate, a bidirectional override) written
    as its escape: a message may quote bytes of a damaged or hostile file, and they must not reach
    the terminal as they are."""
    line = str(text).replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")
    line = _CONTROL.sub(_escaped, line)
    return line if len(line) <= limit else line[: limit - 4] + " ..."


# C0 and C1 controls, DEL, lone surrogates, and the bidirectional embeddings, overrides and isolates
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escaped(found: re.Match) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def package_version() -> str:
    """The installed package's version; a checkout run without installing falls back to pyproject's."""
    from importlib import metadata

    try:
        return metadata.version("tileref")
    except metadata.PackageNotFoundError:
        return "0.1.0"


def build_parser() -> tuple[argparse.ArgumentParser, tuple[type[BaseException], ...]]:
    parser = _Parser(
        prog="tileref", description="Digital referee table for tournament Rummikub."
    )
    parser.add_argument("--version", action="version", version=f"tileref {package_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    errors: list[type[BaseException]] = []
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(subparsers)
        errors.extend(getattr(module, "ERRORS", ()))
    return parser, tuple(errors)


def main(argv: Sequence[str] | None = None) -> int:
    parser, bad_input_errors = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except bad_input_errors as error:
        # an error type may carry its own exit code (records: tampering exits 3, not 2)
        print(f"tileref {args.command}: {one_line(error)}", file=sys.stderr)
        return int(getattr(error, "exit_code", EXIT_BAD_INPUT))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) left early; point stdout at devnull so the
        # interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:  # not bad input: a bug. One line here, the traceback in a log file.
        log = write_crash_log(sys.argv[1:] if argv is None else argv, error)
        where = f"details in {log}" if log else "no log could be written"
        print(f"tileref {args.command}: internal error (a bug): {type(error).__name__}: {_first_line(error)}; "
              f"{where}", file=sys.stderr)
        return EXIT_BUG


def _first_line(error: BaseException, limit: int = 200) -> str:
    text = str(error).strip().splitlines()
    return one_line(text[0] if text else "", limit)


def crash_log_dir() -> Path:
    """$TILEREF_LOG_DIR, else $XDG_STATE_HOME/tileref, else ~/.local/state/tileref."""
    if os.environ.get("TILEREF_LOG_DIR"):
        return Path(os.environ["TILEREF_LOG_DIR"])
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "tileref"


def write_crash_log(argv: Sequence[str], error: BaseException) -> Path | None:
    """The traceback of a bug, in a file of its own (the state directory, else the temp directory)."""
    text = (f"tileref ({time.strftime('%Y-%m-%d %H:%M:%S')}, pid {os.getpid()})\n"
            f"argv: {list(argv)!r}\n\n" + "".join(traceback.format_exception(error)))
    for folder in (crash_log_dir(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(prefix=f"crash-{time.strftime('%Y%m%d-%H%M%S')}-", suffix=".log",
                                            dir=folder)
            with os.fdopen(handle, "w", encoding="utf-8", errors="backslashreplace") as out:
                out.write(text)
            return Path(name)
        except OSError:
            continue
    return None


if __name__ == "__main__":
    sys.exit(main())
