"""A 64-player Warsaw event (seed 003) from the first draw to the final standings.

Target: under 1 second. Two figures: the pure core alone, and the same event through
the SQLite store (a real file: create, 4 draws, 4 imports of every game, standings).
Results are generated (random winners, zero-sum small points); run:
    python -m benchmarks.bench_tournament
"""
from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.harness import median
from controller.tournament import (
    RummikubGameResult,
    TournamentStore,
    create_event,
    draw_next_round,
    enter_results,
    game_id,
    is_finished,
    standings,
)

PLAYERS = [f"Player {i:02}" for i in range(1, 65)]
TARGET_SECONDS = 1.0


def round_results(event, rng: random.Random) -> list[RummikubGameResult]:
    round_ = event.rounds[-1]
    results = []
    for table in round_.tables:
        for number in range(1, table.games + 1):
            winner = rng.choice(table.seats)
            scores = {p: -rng.randint(0, 80) for p in table.seats if p != winner}
            scores[winner] = -sum(scores.values())
            results.append(RummikubGameResult(game_id(round_.number, table.number, number), scores, winner))
    return results


def pure_event(seed: int):
    rng = random.Random(seed)
    event = create_event("Warsaw 64", "warsaw", PLAYERS)
    number = 0
    while not is_finished(event):
        number += 1
        event = draw_next_round(event, seed * 100 + number)
        event = enter_results(event, round_results(event, rng))
    return event, standings(event)


def stored_event(seed: int, folder: str):
    rng = random.Random(seed)
    path = Path(folder) / f"bench-{seed}.sqlite"
    with TournamentStore(path) as store:
        store.create(create_event("Warsaw 64", "warsaw", PLAYERS))
        for number in range(1, 5):
            store.draw_next("Warsaw 64", seed * 100 + number)
            event = store.load("Warsaw 64")
            store.add_results("Warsaw 64", round_results(event, rng), source="bench")
        event = store.load("Warsaw 64")
        return event, standings(event)


def timed(function, runs: int) -> list[float]:
    times = []
    for seed in range(1, runs + 1):
        start = time.perf_counter()
        event, table = function(seed)
        times.append(time.perf_counter() - start)
        assert table.finished and len(event.rounds) == 4
        games = sum(len(r.game_ids()) for r in event.rounds)
    print(f"  ({games} games recorded in the last run)")
    return times


def main() -> int:
    runs = 5
    print(f"64-player Warsaw event, draw to final, {runs} runs each")
    pure = timed(pure_event, runs)
    print(f"pure core:        median {median(pure) * 1000:.1f} ms, max {max(pure) * 1000:.1f} ms")
    with tempfile.TemporaryDirectory() as folder:
        stored = timed(lambda seed: stored_event(seed, folder), runs)
    print(f"with SQLite file: median {median(stored) * 1000:.1f} ms, max {max(stored) * 1000:.1f} ms")
    ok = max(stored) < TARGET_SECONDS and max(pure) < TARGET_SECONDS
    print(f"target < {TARGET_SECONDS:.0f} s: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
