"""The `tileref` command line.

Each area of the project owns one module with `register(subparsers)` and `ERRORS`,
the exception types that mean "bad input": those exit 2 with a one-line message
that names the problem, never a traceback. An error type with an `exit_code` exits with
that instead (a tampered record: 3), with the same one-line message.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
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
)

EXIT_BAD_INPUT = 2


def build_parser() -> tuple[argparse.ArgumentParser, tuple[type[BaseException], ...]]:
    parser = argparse.ArgumentParser(
        prog="tileref", description="Digital referee table for tournament Rummikub."
    )
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
        print(f"tileref {args.command}: {error}", file=sys.stderr)
        return int(getattr(error, "exit_code", EXIT_BAD_INPUT))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) left early; point stdout at devnull so the
        # interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
