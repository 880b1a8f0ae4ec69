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


def kuwana_first_round(event: Event, round_name: str = "hand-made") -> Event:
    """Round 1 of an 8-player kuwana event (players A..H) played by hand, three games a table.
    Totals: A 185, B 65, C -35, D -90 | E 96, F 63, G 88, H -61."""
    G = RummikubGameResult
    event = with_round(event, hand_round(1, [list("ABCD"), list("EFGH")], 3, round_name))
    return enter_results(event, [
        G("R1-T1-G1", {"A": 100, "B": -10, "C": -20, "D": -30}, "A"),
        G("R1-T1-G2", {"B": 100, "A": -15, "C": -5, "D": -40}, "B"),
        G("R1-T1-G3", {"A": 100, "B": -25, "C": -10, "D": -20}, "A"),
        G("R1-T2-G1", {"E": 100, "F": -7, "G": -8, "H": -9}, "E"),
        G("R1-T2-G2", {"F": 100, "E": -3, "G": -4, "H": -50}, "F"),
        G("R1-T2-G3", {"G": 100, "E": -1, "F": -30, "H": -2}, "G"),
    ])
