"""`tileref timer check` and `tileref timer-emulator`."""
from __future__ import annotations

import json
import math

from . import emulator
from .conformance import run_check
from .device_model import DeviceSettings
from .protocol import BridgeError

ERRORS: tuple[type[BaseException], ...] = (BridgeError,)


def register(subparsers) -> None:
    timer = subparsers.add_parser("timer", help="talk to a button timer box")
    timer_commands = timer.add_subparsers(dest="timer_command", metavar="TIMER_COMMAND", required=True)
    check = timer_commands.add_parser("check", help="run the protocol conformance sequence against a box")
    check.add_argument("--port", required=True, help="serial port of the box (or the emulator's link)")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument("--seconds", type=int, default=2, help="turn length used for the expiry step (default 2)")
    check.add_argument("--samples", type=int, default=50, help="round trips for the latency figures (default 50)")
    check.set_defaults(handler=_check)

    emulate = subparsers.add_parser(
        "timer-emulator", help="emulate a timer box on a pseudo-terminal (prints the port path)"
    )
    emulator.add_arguments(emulate)
    emulate.set_defaults(handler=_emulate)


def _check(args) -> int:
    if not 1 <= args.seconds <= 60:
        raise BridgeError(f"--seconds {args.seconds} is outside 1..60")
    if not 1 <= args.samples <= 10_000:
        raise BridgeError(f"--samples {args.samples} is outside 1..10000")
    report = run_check(args.port, seconds=args.seconds, samples=args.samples)
    if args.json:
        figures = {k: (None if math.isnan(v) else v) for k, v in report.latency_ms.items()}
        print(json.dumps({**report.to_json(), "latency_ms": figures}, indent=2))
    else:
        for step in report.steps:
            print(f"{'ok  ' if step.ok else 'FAIL'} {step.name:16} {step.detail}")
        print(f"round trip p50 {report.latency_ms['p50']} ms, p99 {report.latency_ms['p99']} ms")
        print("conformant" if report.ok else "NOT conformant")
    return 0 if report.ok else 1


def _emulate(args) -> int:
    emulator.check_arguments(args)
    # the older-firmware switches are registered by emulator.add_arguments: honour them here too
    settings = DeviceSettings(serial=args.serial, clock_rate=args.clock_rate, press_ids=not args.no_press_ids,
                              banks=not args.no_bank)
    return emulator.run(settings, args.link, args.control)
