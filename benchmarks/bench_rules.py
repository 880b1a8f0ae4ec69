"""Rules-core timings on this machine: `python -m benchmarks.bench_rules [--quick]`.

Targets: judging a turn on a full 106-tile table, median < 1 ms without the relief
search and < 20 ms with it; the could-have-opened search on a 40-tile rack < 50 ms worst case.
"Warm" keeps the set-classification cache (a real game: most sets lie unchanged turn to turn);
"cold" clears it before every judgement.
"""
from __future__ import annotations

import random
import sys
import time

from benchmarks.harness import median
from controller.rules import melds
from controller.rules.judge import Outcome, judge_turn
from controller.rules.table import Table
from controller.rules.tiles import COLOURS, JOKER, Tile, full_set
from controller.rules.variants import CLASSIC, JAPAN_2017, WORLD


def full_table() -> list[list[Tile]]:
    """All 106 tiles in 20 valid sets: groups of 1..6, runs of 7..13 (two led by a joker)."""
    sets: list[list[Tile]] = []
    for number in range(1, 7):
        for _ in range(2):
            sets.append([Tile(c, number) for c in COLOURS])
    for copy in range(2):
        for colour in COLOURS:
            run = [Tile(colour, n) for n in range(7, 14)]
            if copy == 0 and colour in COLOURS[:2]:
                run.insert(0, JOKER)
            sets.append(run)
    assert sum(map(len, sets)) == 106
    # through the notation, as the camera's codes arrive (parsed tiles are shared objects)
    return [list(Table.from_codes([[t.code for t in s]]).sets[0]) for s in sets]


def scenarios() -> dict[str, tuple[Table, Table, object]]:
    full = full_table()
    # 1. one tile laid at the end of a run (K13 came from the rack)
    before = [list(s) for s in full]
    before[-4] = before[-4][:-1]
    laid = (Table.of(before), Table.of(full), JAPAN_2017)
    # 2. a big rearrangement: a run split, its tail and two rack tiles make a new run
    before2 = [list(s) for s in full]
    after2 = [list(s) for s in full]
    tail = before2[-1][-3:]  # R11 R12 R13 of the second red run
    before2[-1] = before2[-1][:-3] + tail[:1]
    after2[-1] = after2[-1][:-3]
    after2.append(tail)
    rearranged = (Table.of(before2), Table.of(after2), WORLD)
    # 3. a misplaced tile that one straight movement fixes (relief search succeeds)
    after3 = [list(s) for s in full]
    run = after3[-4]
    run[-1], run[-2] = run[-2], run[-1]
    relieved = (Table.of(before), Table.of(after3), JAPAN_2017)
    # 4. loose tiles no single move fixes (relief search exhausts every candidate)
    after4 = [list(s) for s in full]
    after4[-4] = after4[-4][:-3] + [after4[-4][-1], after4[-4][-3], after4[-4][-2]]
    after4[0] = [after4[0][0], after4[0][1], after4[1][0]] + after4[0][2:]
    after4[1] = after4[1][1:]
    no_relief = (Table.of(before), Table.of(after4), JAPAN_2017)
    # 5. worst case: a long run with its ends swapped; every block, position and target is tried
    after5 = [list(s) for s in full]
    run5 = after5[-4]
    run5[0], run5[-1] = run5[-1], run5[0]
    exhaustive = (Table.of(before), Table.of(after5), JAPAN_2017)
    return {
        "one tile laid (japan-2017)": laid,
        "run split and rearranged (world)": rearranged,
        "classic, same table": (laid[0], laid[1], CLASSIC),
        "relief found (japan-2017)": relieved,
        "relief searched, none (japan-2017)": no_relief,
        "relief searched, none, long run (japan)": exhaustive,
    }


def time_judge(before, after, ruleset, repeats: int, cold: bool) -> tuple[float, float, str]:
    samples = []
    outcome = None
    for _ in range(repeats):
        if cold:
            melds._classify.cache_clear()
        start = time.perf_counter_ns()
        verdict = judge_turn(before, after, True, ruleset)
        samples.append((time.perf_counter_ns() - start) / 1e6)
        outcome = verdict.outcome
    return median(samples), max(samples), outcome.value if outcome else "?"


def random_rack(rng: random.Random, size: int) -> list[Tile]:
    stock = list(full_set().elements())
    rng.shuffle(stock)
    return stock[:size]


def bench_could_have_opened(repeats: int) -> None:
    try:
        from controller.rules import solver
    except ImportError:
        print("could-have-opened: controller/rules/solver.py not present, not measured")
        return
    from controller.rules.scoring import could_have_opened

    rng = random.Random(2017)
    racks = [random_rack(rng, 40) for _ in range(repeats)]
    # adversarial: both jokers and as many duplicates of middle numbers as fit
    racks.append([t for t in full_set().elements() if t.is_joker or 4 <= (t.number or 0) <= 8][:40])
    # racks that cannot open (the exact search has to prove it): low tiles, no three in a row
    # two colours, never three numbers in a row, plus the 1s of the other colours: best is 8
    pairs = [Tile(c, n) for c in COLOURS[:2] for n in (1, 2, 4, 5, 7, 8, 10, 11, 13)] * 2
    racks.append(pairs + [Tile(c, 1) for c in COLOURS[2:]] * 2)
    # the same with two jokers: the greedy proof (no jokers) fails, the exact search decides
    racks.append(pairs + [Tile(c, 1) for c in COLOURS[2:]] + [JOKER, JOKER])
    for label, call in (
        ("could_have_opened (greedy proof, exact fallback)", lambda rack: could_have_opened(rack, WORLD)),
        ("solver.max_meld_points alone", solver.max_meld_points),
    ):
        samples = []
        for rack in racks:
            start = time.perf_counter_ns()
            call(rack)
            samples.append((time.perf_counter_ns() - start) / 1e6)
        print(
            f"{label}, 40-tile racks ({len(racks)} racks incl. 1 dense, 2 where the greedy proof fails): "
            f"median {median(samples):.3f} ms, worst {max(samples):.3f} ms  (target worst < 50 ms)"
        )
    for label, rack in (("rack that cannot open", racks[-2]), ("same with two jokers", racks[-1])):
        start = time.perf_counter_ns()
        opened = could_have_opened(rack, WORLD)
        print(f"  {label} -> {opened} in {(time.perf_counter_ns() - start) / 1e6:.3f} ms")


def main() -> None:
    quick = "--quick" in sys.argv
    repeats = 50 if quick else 500
    print(f"python {sys.version.split()[0]}, {repeats} repeats per figure")
    for name, (before, after, ruleset) in scenarios().items():
        for cold in (False, True):
            median, worst, outcome = time_judge(before, after, ruleset, repeats, cold)
            target = "< 20 ms" if "relief" in name else "< 1 ms"
            print(
                f"judge {name:38s} [{'cold' if cold else 'warm'}] -> {outcome:8s} "
                f"median {median:.3f} ms, max {worst:.3f} ms  (target median {target})"
            )
    bench_could_have_opened(50 if quick else 300)
    assert judge_turn(*scenarios()["relief found (japan-2017)"][:2], True, JAPAN_2017).outcome is Outcome.RELIEVED


if __name__ == "__main__":
    main()
