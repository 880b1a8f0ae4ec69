"""Every benchmark, quickly, and one table of the figures: `python -m benchmarks [--full] [--only NAME ...]`.

Each script runs in its own process with its quick options (fewer repeats, fewer tables, fewer
kills; the same cases and the same measurement as its full run), and its printed figures are
gathered into one Markdown table: what, figure, target, and the command that re-measures the
figure (the one that was run). `--full` runs each script with its own defaults instead (an hour or
more). Timings depend on the machine and on what else runs on it: the table's header says
how many cores it had and how loaded they were.

A script that fails or prints nothing the table knows is shown as such in its rows, never
dropped; the exit code is 1 when any script failed.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

from benchmarks.harness import REPO, checkout_env, load_average, machine, markdown

TIMEOUT_S = 1800  # one script; the quick runs take seconds to a few minutes


@dataclass(frozen=True)
class Figure:
    what: str
    pattern: str  # a regular expression over the script's output; its groups fill `shown`
    shown: str  # a format string over the groups: the figure as the table prints it
    target: str


@dataclass(frozen=True)
class Benchmark:
    name: str  # the script, benchmarks/<name>.py, run as the module benchmarks.<name>
    quick: tuple[str, ...]
    figures: tuple[Figure, ...]
    full: tuple[str, ...] = ()
    needs: str = ""  # a module the script needs; without it the script is not run and says so
    fallback: tuple[str, ...] = field(default=())  # options when `needs` is missing, if it can run without it


MS = r"([\d.]+) ms"
BENCHMARKS = (
    Benchmark("bench_read", ("--quick",), (
        Figure("read a 1000x750 real photo (54 tiles)", r"photo full_grid\.jpg .*?: median " + MS, "median {0} ms",
               "< 150 ms median"),
        Figure("read a 3840x2160 frame (106 tiles)", r"synthetic 3840x2160, 106 tiles: median " + MS, "median {0} ms",
               "< 600 ms median"),
        Figure("peak memory of the reading process", r"peak memory \(max resident set of this process\): (\d+) MB",
               "{0} MB", "< 500 MB"),
        Figure("calibrate a club's set from one 1920x1080 photo", r"calibration, one 1920x1080 photo .*?: median ([\d.]+) s",
               "{0} s", "<= 60 s"),
    )),
    Benchmark("bench_settle", ("--quick",), (
        Figure("is the table clear? held-out photos and rendered tables",
               r"all: (\d+) clear tables refused .*?, (\d+) covered tables accepted",
               "{0} clear refused, {1} covered accepted", "0 and 0"),
        Figure("is the table clear? one 1920x1080 frame",
               r"1920x1080 frame, first wait \(no reference\): median ([\d.]+) ms, p95 ([\d.]+) ms",
               "median {0} ms, p95 {1} ms", "<= 30 ms median"),
    )),
    Benchmark("bench_rules", ("--quick",), (
        Figure("judge a turn on a full 106-tile table (warm cache)",
               r"judge classic, same table\s+\[warm\] -> \w+\s+median " + MS, "median {0} ms", "< 1 ms median"),
        Figure("judge with the japan relief search (long run, cold cache)",
               r"judge relief searched, none, long run \(japan\) \[cold\] -> \w+\s+median " + MS, "median {0} ms",
               "< 20 ms median"),
        Figure("could-have-opened on 40-tile racks", r"could_have_opened .*?: median [\d.]+ ms, worst " + MS,
               "worst {0} ms", "< 50 ms worst"),
    )),
    Benchmark("bench_solver", ("--cases", "1000", "--moves", "100", "--melds", "100"), (
        Figure("full-table check (95-106 tiles)", r"95-106 tiles \(\s*\d+\)\s+: median\s+" + MS + r"\s+p95\s+[\d.]+ ms\s+worst\s+" + MS,
               "median {0} ms, worst {1} ms", "< 0.5 ms median, < 20 ms worst"),
        Figure("any table check (19-106 tiles)", r"tileref can_partition : median\s+" + MS + r"\s+p95\s+" + MS
               + r"\s+worst\s+" + MS, "median {0} ms, p95 {1} ms, worst {2} ms", "the anchor's median / 20"),
        Figure("faster than rummikub-solver at the median", r"ratio at the median\s+: (\d+)x faster", "{0}x",
               ">= 20x"),
    ), needs="rummikub_solver", fallback=("--no-anchor",)),
    Benchmark("bench_timer", ("--presses", "200"), (
        Figure("button press to controller event through the pty", r"presses through a pty:\s+p50 " + MS + r"\s+p99 " + MS,
               "p50 {0} ms, p99 {1} ms", "p50 < 5 ms, p99 < 20 ms"),
    )),
    Benchmark("bench_turn", ("--turns", "5"), (
        Figure("button press to verdict, 60-tile table, whole pipeline", r"median (\d+) ms, min", "median {0} ms",
               "< 1 s median"),
    )),
    Benchmark("bench_games", ("--quick",), (
        Figure("whole scripted games under club cameras: verdicts",
               r"all: (\d+) turns, verdicts right (\d+)/\d+, false penalties (\d+), missed penalties (\d+), "
               r"tables misread (\d+)", "{1} of {0} right ({2} false, {3} missed penalties), {4} tables misread",
               "0 wrong verdicts"),
        Figure("whole scripted games: referee prompts, press -> verdict",
               r"all: .*?\(([\d.]+) per turn\).*?press -> verdict median ([\d.]+) s, p95 ([\d.]+) s",
               "{0} prompts per turn; median {1} s, p95 {2} s", "<= 0.05 per turn; median <= 1 s"),
    )),
    Benchmark("bench_tournament", (), (
        Figure("64-player Warsaw event, draw to final (pure core)", r"pure core:\s+median " + MS, "median {0} ms",
               "< 1 s"),
        Figure("the same through the SQLite file", r"with SQLite file: median " + MS, "median {0} ms", "< 1 s"),
    )),
    Benchmark("bench_web", ("--rounds", "3"), (
        Figure("verdict recorded -> table display updated (2 WebSocket clients)",
               r"(\d+) verdicts: median ([\d.]+) ms, p95 ([\d.]+) ms", "p95 {2} ms (median {1}, {0} verdicts)",
               "p95 <= 200 ms"),
    )),
    Benchmark("bench_club", ("--tables", "4"), (
        Figure("tables into one PostgreSQL server, killed and restarted mid-run",
               r"(\d+) tables x 4 players.*?events: \d+ in [\d.]+ s = (\d+) events/s.*?every append: p50 ([\d.]+) ms, "
               r"p99 ([\d.]+) ms", "{0} tables: {1} events/s, p50 {2} ms, p99 {3} ms", "-"),
        Figure("events lost, chains broken after the kill", r"lost (\d+); chains that do not verify: (\d+)",
               "{0} lost, {1} broken", "0 lost, 0 broken"),
    )),
    Benchmark("bench_crash", ("--kills", "4", "--per-game", "2"), (
        Figure("`tileref demo` SIGKILLed at random moments and resumed",
               r'"games": (\d+), "kills": (\d+),.*?"resumed_games_equal": (\d+)',
               "{1} kills over {0} games, {2} of {0} equal to an uninterrupted run", "all equal"),
    )),
)


def installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def command_of(bench: Benchmark, full: bool) -> list[str]:
    options = bench.full if full else bench.quick
    if bench.needs and not installed(bench.needs):
        options = (*options, *bench.fallback)
    return ["python", "-m", f"benchmarks.{bench.name}", *options]


def run(bench: Benchmark, full: bool) -> tuple[list[list[str]], bool]:
    """The rows of one benchmark, and whether its script ran to the end with exit 0."""
    command = command_of(bench, full)
    shown = " ".join(command)
    env = checkout_env()
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, *command[1:]], cwd=REPO, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT_S)
        output, code = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as stopped:
        output, code = (stopped.stdout or b"").decode(errors="replace"), f"stopped after {TIMEOUT_S} s"
    took = time.monotonic() - started
    print(f"  {bench.name}: {took:.0f} s, exit {code}", file=sys.stderr, flush=True)
    rows = []
    for figure in bench.figures:
        found = re.search(figure.pattern, output, re.DOTALL)
        if found:
            value = figure.shown.format(*found.groups())
        else:
            last = next((line for line in reversed(output.strip().splitlines()) if line.strip()), "no output")
            value = f"not measured (exit {code}: {last.strip()[:120]})"
        rows.append([figure.what, value, figure.target, f"`{shown}`"])
    if bench.needs and not installed(bench.needs):
        rows = [row for row in rows if not row[1].startswith("not measured")]
        rows.append([f"({bench.needs} not installed: `pip install -e '.[bench]'`; compared figures left out)",
                     "-", "-", f"`{shown}`"])
    return rows, code == 0


def main(argv: list[str] | None = None) -> int:
    names = [b.name for b in BENCHMARKS]
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="each script with its own defaults (an hour or more)")
    parser.add_argument("--only", nargs="+", choices=names, metavar="NAME", help=f"some of: {', '.join(names)}")
    args = parser.parse_args(argv)
    chosen = [b for b in BENCHMARKS if not args.only or b.name in args.only]
    load = load_average()
    started = datetime.now(timezone.utc)
    rows, failed = [], []
    for bench in chosen:
        bench_rows, ok = run(bench, args.full)
        rows += bench_rows
        if not ok:
            failed.append(bench.name)
    print(f"Measured {started:%Y-%m-%d %H:%M} UTC on {machine(load)} ({'full' if args.full else 'quick'} runs, "
          f"from the repository root).\n")
    print(markdown(rows))
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
