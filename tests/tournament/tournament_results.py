"""Result generators and hand-built rounds shared by the tournament tests."""
from __future__ import annotations

import dataclasses
import random
from decimal import Decimal

from controller.tournament import (
    DrawEntry,
    Event,
    HanchanResult,
    MatchResult,
    Round,
    RummikubGameResult,
    Table,
    draw_next_round,
    enter_results,
    game_id,
    is_finished,
)


def hand_round(number: int, tables: list[list[str]], games: int, name: str = "hand-made") -> Round:
    """A round with tables chosen by the test instead of drawn; lot order = seat order."""
    players = tuple(p for t in tables for p in t)
    return Round(
        number=number, name=name, seed=0,
        tables=tuple(Table(i, tuple(t), games) for i, t in enumerate(tables, start=1)),
        draw=tuple(DrawEntry(p, "hand", "test") for p in players),
        lot_order=players,
    )


def with_round(event: Event, new_round: Round) -> Event:
    return dataclasses.replace(event, rounds=event.rounds + (new_round,), results=dict(event.results))


def random_rummikub_results(event: Event, rng: random.Random, world: bool) -> list[RummikubGameResult]:
    round_ = event.rounds[-1]
    results = []
    for table in round_.tables:
        for number in range(1, table.games + 1):
            winner = rng.choice(table.seats)
            scores = {p: -rng.randint(0, 80) for p in table.seats if p != winner}
            scores[winner] = -sum(scores.values()) if world else 100
            results.append(RummikubGameResult(game_id(round_.number, table.number, number), scores, winner))
    return results


def random_hanchan_results(event: Event, rng: random.Random) -> list[HanchanResult]:
    """Zero-sum scores in steps of 0.1 (no chombo)."""
    round_ = event.rounds[-1]
    results = []
    for table in round_.tables:
        three = [rng.randint(-600, 600) for _ in range(3)]
        tenths = three + [-sum(three)]
        results.append(HanchanResult(
            game_id(round_.number, table.number, 1),
            {p: Decimal(t).scaleb(-1) for p, t in zip(table.seats, tenths)},
        ))
    return results


def random_match_results(event: Event, rng: random.Random) -> list[MatchResult]:
    round_ = event.rounds[-1]
    return [MatchResult(game_id(round_.number, t.number, 1), rng.choice(t.seats)) for t in round_.tables]


def run_event(event: Event, results_for, seed: int = 1) -> tuple[Event, list[list]]:
    """Draw and fill every round; returns the event and the results round by round."""
    batches = []
    number = 0
    while not is_finished(event):
        number += 1
        event = draw_next_round(event, seed * 1000 + number)
        batch = results_for(event)
        batches.append(batch)
        event = enter_results(event, batch)
    return event, batches
