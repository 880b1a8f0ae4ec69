"""What the benchmarks share: their common options, a pool of worker processes, timing and
percentiles, the machine's load, and the Markdown table of figures.

The benchmarks run from the repository root as modules, `python -m benchmarks.bench_read`, as
`python -m benchmarks` runs them (or as files, `python benchmarks/bench_read.py`, with the
checkout on PYTHONPATH): they import the checkout's packages and each other by their package
names, and none of them changes sys.path.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence, TypeVar

REPO = Path(__file__).resolve().parents[1]

Item = TypeVar("Item")
Result = TypeVar("Result")


# ------------------------------------------------------------------ options


def options(doc: str | None, *, seed: int | None = None, jobs: str | None = None, splits: str | None = None,
            quick: str | None = None, prog: str | None = None) -> argparse.ArgumentParser:
    """The parser of a benchmark's options, described by the first line of its `doc`, with the
    options the benchmarks share: `--seed` (default `seed`), `--jobs` (worker processes, 1 by
    default; `jobs` is its help), `--splits` of the photo set (default `splits`, comma-separated)
    and `--quick` (a short run; `quick` is its help). An option whose argument is None is left out."""
    parser = argparse.ArgumentParser(prog=prog, description=(doc or "").strip().splitlines()[0] if doc else None)
    if seed is not None:
        parser.add_argument("--seed", type=int, default=seed)
    if jobs is not None:
        parser.add_argument("--jobs", type=int, default=1, help=jobs)
    if splits is not None:
        parser.add_argument("--splits", default=splits)
    if quick is not None:
        parser.add_argument("--quick", action="store_true", help=quick)
    return parser


def checkout_env() -> dict[str, str]:
    """This process's environment with the checkout first on PYTHONPATH, for a child process that
    imports the checkout's packages from any working folder."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))


# ------------------------------------------------------------- worker pool


def pool_map(function: Callable[[Item], Result], items: Iterable[Item], jobs: int, *,
             start: str = "spawn") -> Iterator[Result]:
    """`function` over `items`: in this process, in order, when `jobs` is 1; else in `jobs` worker
    processes started by `start` ("spawn": a fresh interpreter each; "fork": a copy of this one),
    each result given as soon as it is done (not in order). `function` must be a module's
    top-level function (or a functools.partial of one) for a spawned worker to find it."""
    if jobs <= 1:
        yield from map(function, items)
        return
    with multiprocessing.get_context(start).Pool(jobs) as pool:
        yield from pool.imap_unordered(function, items)


# ----------------------------------------------------- timing and percentiles


def timed(function: Callable[[], object], repeat: int, *, warm_up: bool = False) -> list[float]:
    """Seconds of each of `repeat` calls of `function` (after one untimed call when `warm_up`)."""
    if warm_up:
        function()
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - start)
    return seconds


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (`fraction` 0.5 for the median's rank, 0.95 for p95); NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, -(-int(round(fraction * 1000)) * len(ordered) // 1000))
    return ordered[min(rank, len(ordered)) - 1]


def median(values: Sequence[float]) -> float:
    """The median; NaN when there is none."""
    return statistics.median(values) if values else float("nan")


def spread_ms(seconds: Sequence[float]) -> str:
    """Seconds as "median M ms, p95 P ms, worst W ms"."""
    return (f"median {1e3 * median(seconds):.3f} ms, p95 {1e3 * percentile(seconds, 0.95):.3f} ms, "
            f"worst {1e3 * max(seconds, default=float('nan')):.3f} ms")


# ------------------------------------------------------------ the machine


def load_average() -> float:
    """The machine's load average over the last minute (NaN where the system gives none)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def machine(load_at_start: float) -> str:
    """The cores and how loaded they were, for a benchmark's summary: timings rise with the load."""
    return (f"{os.cpu_count()} cores, load average {load_at_start:.1f} at the start and "
            f"{load_average():.1f} at the end")


# ---------------------------------------------------------- figures table


def markdown(rows: Sequence[Sequence[str]], header: Sequence[str] = ("what", "figure", "target", "command")) -> str:
    """Rows of figures as a Markdown table (a cell's "|" escaped)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)
