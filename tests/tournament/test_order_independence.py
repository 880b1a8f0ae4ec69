"""Standings never depend on the order results were entered (Hypothesis)."""
import random

from hypothesis import given, settings, strategies as st

from controller.tournament import create_event, draw_next_round, enter_results, standings
from tournament_results import random_hanchan_results, random_rummikub_results, run_event


def replay(format_name, players, batches, shuffle: random.Random, settings_=None):
    """Re-run the same draws, entering each round's results in a shuffled order and in
    shuffled batch sizes."""
    event = create_event("again", format_name, players, settings_)
    for number, batch in enumerate(batches, start=1):
        event = draw_next_round(event, 1000 + number)
        batch = list(batch)
        shuffle.shuffle(batch)
        while batch:
            take = shuffle.randint(1, len(batch))
            event = enter_results(event, batch[:take])
            batch = batch[take:]
    return event


@settings(max_examples=25, deadline=None)
@given(results_seed=st.integers(0, 10_000), order_seed=st.integers(0, 10_000), count=st.integers(16, 40))
def test_warsaw_standings_ignore_entry_order(results_seed, order_seed, count):
    players = [f"W{i:02}" for i in range(count)]
    rng = random.Random(results_seed)
    event, batches = run_event(create_event("again", "warsaw", players),
                               lambda e: random_rummikub_results(e, rng, world=True))
    again = replay("warsaw", players, batches, random.Random(order_seed))
    assert standings(again) == standings(event)
    assert again.rounds == event.rounds


@settings(max_examples=25, deadline=None)
@given(results_seed=st.integers(0, 10_000), order_seed=st.integers(0, 10_000))
def test_ron_cup_standings_ignore_entry_order(results_seed, order_seed):
    players = [f"M{i:02}" for i in range(16)]
    rng = random.Random(results_seed)
    event, batches = run_event(create_event("again", "ron-cup", players),
                               lambda e: random_hanchan_results(e, rng))
    again = replay("ron-cup", players, batches, random.Random(order_seed))
    assert standings(again) == standings(event)


@settings(max_examples=25, deadline=None)
@given(results_seed=st.integers(0, 10_000), order_seed=st.integers(0, 10_000))
def test_kuwana_standings_ignore_entry_order(results_seed, order_seed):
    players = [f"R{i}" for i in range(12)]
    rng = random.Random(results_seed)
    event, batches = run_event(create_event("again", "kuwana", players),
                               lambda e: random_rummikub_results(e, rng, world=False))
    again = replay("kuwana", players, batches, random.Random(order_seed))
    assert standings(again) == standings(event)
