"""Benchmark the arrangement solver against the `rummikub-solver` package (the anchor).

    pip install -e '.[bench]'
    python -m benchmarks.bench_solver                 # 10,000 table checks, 1,000 best moves
    python -m benchmarks.bench_solver --cases 600 --moves 100 --melds 100   # a quick run

Both solvers get the same generated cases: legal tables (valid sets laid from one 106-tile
set, jokers sometimes in them), legal tables minus one tile, and random mixes, 20 to 106
tiles. For each case it checks the answers agree and times both; it prints median, p95 and
worst per solver and the ratio.

Where the anchor differs by design (see docs/solver.md): it treats a table as arranged
when every real tile is in a set and jokers it cannot place are "free"; its candidate
sets put jokers only in 3-tile sets or inside runs of 4-5, so a joker at the end of a
longer run or in a 4-group counts as free; a table needing such a joker fails its move
solver. Our `can_partition` demands every joker in a valid set, so agreement is
counted against "every real tile laid" (ours: can_partition with 0, 1 or 2 jokers left
out), and strict disagreements are listed separately.
"""
from __future__ import annotations

import gc
import random
import time
from collections import Counter

from benchmarks.harness import median, options, percentile
from controller.rules.solver import Objective, best_move, can_partition, max_meld_points
from controller.rules.tiles import COLOURS, JOKER, Tile

FACES = [Tile(colour, number) for colour in COLOURS for number in range(1, 14)]


def deck() -> list[Tile]:
    return [face for face in FACES for _ in range(2)] + [JOKER, JOKER]


def legal_table(rng: random.Random, target: int) -> list[Tile]:
    """Valid sets from one 106-tile set, about `target` tiles: each of the 8 colour lanes
    1..13 is cut into segments; segments of 3+ become runs, short scraps form groups;
    jokers replace a tile of a set or extend one."""
    sets: list[list[Tile]] = []
    scraps: list[Tile] = []
    keep_runs = 0.95 if target > 90 else 0.8
    for colour in COLOURS:
        for _ in range(2):
            number = 1
            while number <= 13:
                length = rng.choice([1, 2, 3, 3, 4, 5, 6, 13])
                segment = [Tile(colour, n) for n in range(number, min(13, number + length - 1) + 1)]
                if len(segment) >= 3 and rng.random() < keep_runs:
                    sets.append(segment)
                else:
                    scraps.extend(segment)
                number += length
    by_number: dict[int, list[Tile]] = {}
    for tile in scraps:
        by_number.setdefault(tile.number, []).append(tile)
    for tiles in by_number.values():
        rng.shuffle(tiles)
        while True:
            one_per_colour: dict = {}
            for tile in tiles:
                one_per_colour.setdefault(tile.colour, tile)
            if len(one_per_colour) < 3:
                break
            size = rng.choice([3, 4]) if len(one_per_colour) == 4 else 3
            chosen = rng.sample(list(one_per_colour.values()), size)
            for tile in chosen:
                tiles.remove(tile)
            sets.append(chosen)
    rng.shuffle(sets)
    for _ in range(2):
        if sets and rng.random() < 0.6:
            _add_joker(rng, rng.choice(sets))
    table: list[Tile] = []
    for chosen in sets:
        if len(table) + len(chosen) <= target:
            table.extend(chosen)
    return table


def _add_joker(rng: random.Random, chosen: list[Tile]) -> None:
    """Put a joker into a valid set, keeping it valid: in place of a tile, or as one
    more tile of a run or of a 3-tile group."""
    real = [(index, tile) for index, tile in enumerate(chosen) if not tile.is_joker]
    if len(real) < 2 or rng.random() < 0.5 or len(chosen) == 13:
        chosen[rng.randrange(len(chosen))] = JOKER
        if all(tile.is_joker for tile in chosen):
            chosen[0] = real[0][1]
        return
    if real[0][1].number == real[1][1].number:  # a group
        if len(chosen) == 3:
            chosen.append(JOKER)
        return
    first_index, first = real[0]
    start = first.number - first_index
    if start + len(chosen) - 1 < 13:
        chosen.append(JOKER)
    elif start > 1:
        chosen.insert(0, JOKER)


def make_cases(count: int, seed: int) -> list[tuple[str, list[Tile]]]:
    rng = random.Random(seed)
    cases = []
    for index in range(count):
        kind = ("legal", "minus-one", "mix")[index % 3]
        size = rng.randint(20, 106)
        if kind == "mix":
            tiles = deck()
            rng.shuffle(tiles)
            tiles = tiles[:size]
        else:
            tiles = legal_table(rng, size)
            while len(tiles) < 20:
                tiles = legal_table(rng, size)
            if kind == "minus-one":
                tiles.pop(rng.randrange(len(tiles)))
        cases.append((kind, tiles))
    return cases


def make_moves(count: int, seed: int) -> list[tuple[list[Tile], list[Tile]]]:
    rng = random.Random(seed + 1)
    moves = []
    for _ in range(count):
        table = legal_table(rng, rng.randint(20, 92))
        left = Counter(deck()) - Counter(table)
        rest = list(left.elements())
        rng.shuffle(rest)
        moves.append((rest[:14], table))
    return moves


class Anchor:
    """rummikub-solver with its default rules (13 numbers, 4 colours, 2 copies, 2 jokers)."""

    def __init__(self) -> None:
        from rummikub_solver import RuleSet, SolverMode

        self.ruleset = RuleSet()
        self.tile_count_mode = SolverMode.TILE_COUNT
        tiles = self.ruleset.tiles  # colour-major, numbers 1..13, joker last
        self.code = {
            Tile(colour, number): tiles[index * 13 + number - 1]
            for index, colour in enumerate(COLOURS)
            for number in range(1, 14)
        }
        self.code[JOKER] = tiles[-1]

    def arrange(self, tiles: list[Tile]):
        state = self.ruleset.new_game()
        state.add_table(*(self.code[tile] for tile in tiles))
        return self.ruleset.arrange_table(state)

    def move(self, rack: list[Tile], table: list[Tile]) -> int:
        state = self.ruleset.new_game()
        state.add_table(*(self.code[tile] for tile in table))
        state.add_rack(*(self.code[tile] for tile in rack))
        state.initial = False
        proposal = self.ruleset.solve(state, self.tile_count_mode)
        return 0 if proposal is None else len(proposal.tiles)


def summary(times: list[float]) -> str:
    return (
        f"median {1e3 * median(times):8.3f} ms   p95 {1e3 * percentile(times, 0.95):8.3f} ms   "
        f"worst {1e3 * max(times):8.3f} ms"
    )


def real_tiles_laid(tiles: list[Tile]) -> bool:
    """Every real tile in a set, leaving out as many jokers as needed (the anchor's view)."""
    real = [tile for tile in tiles if not tile.is_joker]
    jokers = len(tiles) - len(real)
    return any(can_partition(real + [JOKER] * kept) for kept in range(jokers, -1, -1))


def main(argv: list[str] | None = None) -> int:
    parser = options(__doc__, seed=2026)
    parser.add_argument("--cases", type=int, default=10_000, help="table checks (default 10000)")
    parser.add_argument("--moves", type=int, default=1_000, help="best moves (default 1000)")
    parser.add_argument("--melds", type=int, default=1_000, help="max_meld_points on 40-tile racks")
    parser.add_argument("--no-anchor", action="store_true", help="time this solver only")
    args = parser.parse_args(argv)

    anchor = None if args.no_anchor else Anchor()
    problems: list[str] = []
    if args.cases:
        problems += bench_table_checks(args.cases, args.seed, anchor)
    if args.moves:
        bench_moves(args.moves, args.seed, anchor)
    if args.melds:
        bench_melds(args.melds, args.seed)
    return 0 if not problems else 1


def bench_table_checks(count: int, seed: int, anchor: Anchor | None) -> list[str]:
    cases = make_cases(count, seed)
    # The cases are ~600,000 Tile objects; without this, each full garbage collection
    # scans them all (about 45 ms here) and lands on whichever call happens to run.
    gc.freeze()
    sizes = [len(tiles) for _, tiles in cases]
    print(f"{len(cases)} table checks, {min(sizes)}-{max(sizes)} tiles "
          f"(median {median(sizes):.0f}); kinds {dict(Counter(k for k, _ in cases))}")

    # warm up both (the anchor compiles its model on first use)
    can_partition(cases[0][1])
    if anchor:
        anchor.arrange(cases[0][1])

    ours_times: list[float] = []
    anchor_times: list[float] = []
    by_kind: dict[str, list[float]] = {}
    big: list[float] = []
    agree = agree_anchor_freed = anchor_accepts_loose_joker = disagree = 0
    problems: list[str] = []
    started = time.perf_counter()
    for index, (kind, tiles) in enumerate(cases):
        t0 = time.perf_counter()
        ours = can_partition(tiles)
        elapsed = time.perf_counter() - t0
        ours_times.append(elapsed)
        by_kind.setdefault(kind, []).append(elapsed)
        if len(tiles) >= 95:
            big.append(elapsed)
        if anchor:
            t0 = time.perf_counter()
            arranged = anchor.arrange(tiles)
            anchor_times.append(time.perf_counter() - t0)
            anchor_ok = arranged is not None
            if ours == anchor_ok:
                agree += 1
                # same verdict, but the anchor could only lay it by calling a joker free
                agree_anchor_freed += bool(anchor_ok and arranged.free_jokers)
            elif anchor_ok and real_tiles_laid(tiles):
                anchor_accepts_loose_joker += 1
            else:
                disagree += 1
                problems.append(f"{kind} ours={ours} anchor={anchor_ok}: {' '.join(t.code for t in tiles)}")
        if (index + 1) % 1000 == 0:
            print(f"  ... {index + 1} cases, {time.perf_counter() - started:.0f} s", flush=True)

    print("\nTable check (every tile in a valid set):")
    print(f"  tileref can_partition : {summary(ours_times)}")
    for kind, times in by_kind.items():
        print(f"    {kind:<11}         : {summary(times)}")
    if big:
        print(f"    95-106 tiles ({len(big):>4})  : {summary(big)}")
    if anchor:
        print(f"  rummikub-solver       : {summary(anchor_times)}")
        ratio = median(anchor_times) / median(ours_times)
        print(f"  ratio at the median   : {ratio:.0f}x faster;  worst-case ratio "
              f"{max(anchor_times) / max(ours_times):.1f}x")
        print(f"  agreement: {agree} same verdict (in {agree_anchor_freed} of them the anchor "
              f"left a joker 'free' that we lay in a set); {anchor_accepts_loose_joker} where the "
              f"anchor accepts a table whose joker fits no set (all real tiles laid, we say no); "
              f"{disagree} other disagreements")
        for line in problems[:10]:
            print("    DISAGREE", line)

    return problems


def bench_moves(count: int, seed: int, anchor: Anchor | None) -> None:
    moves = make_moves(count, seed)
    if moves:
        best_move(*moves[0])
        if anchor:
            anchor.move(*moves[0])
        ours_move: list[float] = []
        anchor_move: list[float] = []
        same = ours_more = ours_fewer = 0
        for rack, table in moves:
            t0 = time.perf_counter()
            result = best_move(rack, table, Objective.TILES)
            ours_move.append(time.perf_counter() - t0)
            if anchor:
                t0 = time.perf_counter()
                theirs = anchor.move(rack, table)
                anchor_move.append(time.perf_counter() - t0)
                played = 0 if result is None else len(result.played)
                same += played == theirs
                ours_more += played > theirs
                ours_fewer += played < theirs
        print(f"\nBest move (14-tile rack, legal table of 20-92 tiles), {len(moves)} cases:")
        print(f"  tileref best_move     : {summary(ours_move)}")
        if anchor:
            print(f"  rummikub-solver solve : {summary(anchor_move)}")
            print(f"  ratio at the median   : {median(anchor_move) / median(ours_move):.0f}x")
            print(f"  tiles played: {same} same, {ours_more} more than the anchor "
                  f"(its joker limits), {ours_fewer} fewer")


def bench_melds(count: int, seed: int) -> None:
    """max_meld_points on random 40-tile racks (the could-have-opened question)."""
    rng = random.Random(seed + 2)
    times: list[float] = []
    for _ in range(count):
        tiles = deck()
        rng.shuffle(tiles)
        rack = tiles[:40]
        t0 = time.perf_counter()
        max_meld_points(rack)
        times.append(time.perf_counter() - t0)
    print(f"\nmax_meld_points on {count} random 40-tile racks:")
    print(f"  tileref               : {summary(times)}")


if __name__ == "__main__":
    raise SystemExit(main())
