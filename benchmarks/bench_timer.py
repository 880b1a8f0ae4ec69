"""Button press to controller event through the pty: p50 < 5 ms, p99 < 20 ms.

    python -m benchmarks.bench_timer [--presses 500]

The emulated box runs as a separate process (firmware_bridge.emulator_process);
each sample is the time from asking it to press a button (a line on its stdin)
to TimerDriver.next_event() returning the ButtonPressed: stdin pipe, the box's
loop, the pty, the driver's reader thread and its queue. A real box adds the USB
serial link instead of the stdin pipe. Also prints command round trips (STATE).
"""
from __future__ import annotations

import statistics
import sys
import time

from benchmarks.harness import options, percentile
from firmware_bridge.driver import TimerDriver
from firmware_bridge.emulator_process import EmulatorProcess
from firmware_bridge.events import ButtonPressed
from firmware_bridge.protocol import Mode

TARGET_P50_MS = 5.0
TARGET_P99_MS = 20.0


def measure(presses: int) -> tuple[list[float], list[float]]:
    press_ms: list[float] = []
    round_trip_ms: list[float] = []
    with EmulatorProcess(clock_rate=1.0) as box, TimerDriver(box.port) as timer:
        timer.configure(Mode.TURN, 3600)
        timer.start(seat=1)
        for i in range(presses):
            while timer.next_event(0) is not None:
                pass  # ticks and heartbeats are not what we time
            button = "A" if i % 2 else "2"  # neither ends seat 1's turn
            started = time.perf_counter()
            box.press(button)
            while True:
                event = timer.next_event(1.0)
                if event is None:
                    raise SystemExit(f"press {i}: no ButtonPressed within 1 s")
                if isinstance(event, ButtonPressed):
                    press_ms.append((time.perf_counter() - started) * 1000)
                    break
            time.sleep(0.002)
        for _ in range(presses):
            started = time.perf_counter()
            timer.state()
            round_trip_ms.append((time.perf_counter() - started) * 1000)
    return press_ms, round_trip_ms


def main() -> int:
    parser = options(__doc__)
    parser.add_argument("--presses", type=int, default=500)
    args = parser.parse_args()
    press_ms, round_trip_ms = measure(args.presses)
    p50, p99 = percentile(press_ms, 0.5), percentile(press_ms, 0.99)
    print(f"button press -> controller event, {len(press_ms)} presses through a pty:")
    print(f"  p50 {p50:.3f} ms  p99 {p99:.3f} ms  mean {statistics.mean(press_ms):.3f} ms  max {max(press_ms):.3f} ms")
    print(f"  targets p50 < {TARGET_P50_MS} ms, p99 < {TARGET_P99_MS} ms: "
          f"{'met' if p50 < TARGET_P50_MS and p99 < TARGET_P99_MS else 'MISSED'}")
    print(f"command round trip (STATE -> ACK), {len(round_trip_ms)} commands:")
    print(f"  p50 {percentile(round_trip_ms, 0.5):.3f} ms  p99 {percentile(round_trip_ms, 0.99):.3f} ms  "
          f"max {max(round_trip_ms):.3f} ms")
    return 0 if p50 < TARGET_P50_MS and p99 < TARGET_P99_MS else 1


if __name__ == "__main__":
    sys.exit(main())
