"""Kuwana qualifier (seed 000) walked through with hand-computed points."""
import random

import pytest

from controller.tournament import (
    RummikubGameResult as G,
    ScoreError,
    create_event,
    draw_next_round,
    enter_results,
    is_finished,
    standings,
)
from controller.tournament.formats.kuwana import carried
from tournament_results import hand_round, kuwana_first_round, random_rummikub_results, run_event, with_round

PLAYERS = list("ABCDEFGH")


@pytest.mark.parametrize("points, half", [(185, 93), (65, 33), (96, 48), (-35, -17), (0, 0)])
def test_carry_is_half_rounded_up(points, half):
    assert carried(points) == half


def first_round(event):
    return kuwana_first_round(event, "first round")


def test_whole_event_qualifiers_carry_and_final_order():
    event = first_round(create_event("Kuwana 2017", "kuwana", PLAYERS))
    event = draw_next_round(event, seed=7)
    final = event.rounds[-1].tables[0]
    assert sorted(final.seats) == ["A", "B", "E", "G"] and final.games == 3
    results = {
        1: ({"B": 100, "A": -40, "E": -10, "G": -20}, "B"),
        2: ({"G": 100, "A": -30, "B": -50, "E": -5}, "G"),
        3: ({"E": 100, "A": -10, "B": -5, "G": -60}, "E"),
    }
    event = enter_results(event, [G(f"R2-T1-G{n}", s, w) for n, (s, w) in results.items()])
    table = standings(event)
    assert table.finished
    final_section = next(s for s in table.sections if s.title == "Final")
    # carried + final: E 48+85=133, B 33+45=78, G 44+20=64, A 93-80=13
    assert [(r.player, r.values[0], r.values[-1]) for r in final_section.rows] == [
        ("E", 48, 133), ("B", 33, 78), ("G", 44, 64), ("A", 93, 13)]
    assert [r.player for r in table.sections[0].rows] == ["E", "B", "G", "A", "F", "C", "H", "D"]
    assert table.sections[0].rows[0].note == "winner"


@pytest.mark.parametrize("first_table, second", [("ABCD", "B"), ("ACBD", "C")], ids=["B-first-lot", "C-first-lot"])
def test_points_tie_for_second_at_a_table_goes_to_the_lot(first_table, second):
    first_table = list(first_table)
    lot_tied = with_round(create_event("tie3", "kuwana", PLAYERS), hand_round(1, [first_table, list("EFGH")], 3))
    lot_tied = enter_results(lot_tied, [
        G("R1-T1-G1", {"A": 100, "B": -10, "C": -20, "D": -30}, "A"),
        G("R1-T1-G2", {"A": 100, "B": -20, "C": -10, "D": -30}, "A"),
        G("R1-T1-G3", {"A": 100, "B": -15, "C": -15, "D": -30}, "A"),
        G("R1-T2-G1", {"E": 100, "F": -5, "G": -15, "H": -9}, "E"),
        G("R1-T2-G2", {"G": 100, "F": -5, "E": -10, "H": -50}, "G"),
        G("R1-T2-G3", {"F": 100, "E": -50, "G": -5, "H": -2}, "F"),
    ])
    # table 1: B and C both -45, no wins -> the lot (hand_round: seat order) decides
    # table 2: E 40, F 90, G 80 -> F, G qualify
    event_b = draw_next_round(lot_tied, seed=1)
    assert sorted(event_b.rounds[-1].tables[0].seats) == sorted(["A", second, "F", "G"])


def test_points_tie_for_second_at_a_table_goes_to_wins_first():
    # Now F and G level on points: F -10 with 0 wins vs G -10 with 1 win
    event2 = with_round(create_event("tie2", "kuwana", PLAYERS), hand_round(1, [list("ABCD"), list("EFGH")], 3))
    event2 = enter_results(event2, [
        G("R1-T1-G1", {"A": 100, "B": -10, "C": -20, "D": -30}, "A"),
        G("R1-T1-G2", {"A": 100, "B": -10, "C": -20, "D": -30}, "A"),
        G("R1-T1-G3", {"A": 100, "B": -10, "C": -20, "D": -30}, "A"),
        G("R1-T2-G1", {"E": 100, "F": -5, "G": -55, "H": -40}, "E"),
        G("R1-T2-G2", {"E": 100, "F": -5, "G": -55, "H": -40}, "E"),
        G("R1-T2-G3", {"G": 100, "E": -50, "F": 0, "H": -40}, "G"),
    ])
    rows = {r.player: r.place for r in standings(event2).sections[1].rows if r.values[0] == 2}
    assert rows == {"E": 1, "G": 2, "F": 3, "H": 4}  # F is seated before G: wins, not the lot, decided


def twelve_with_a_weak_table(settings):
    players = [f"P{i:02}" for i in range(12)]
    event = with_round(create_event("twelve", "kuwana", players, settings),
                       hand_round(1, [players[0:4], players[4:8], players[8:12]], 3))
    results = []
    for t in (1, 2):
        w, second, third, fourth = event.rounds[0].tables[t - 1].seats
        for g in range(1, 4):
            results.append(G(f"R1-T{t}-G{g}", {w: 100, second: -1, third: -2, fourth: -70}, w))
    # table 3: P08, P09, P10 win a game each and end on -20; P11 on -210
    for g, winner in enumerate(["P08", "P09", "P10"], start=1):
        scores = {p: -60 for p in players[8:11] if p != winner} | {winner: 100, "P11": -70}
        results.append(G(f"R1-T3-G{g}", scores, winner))
    return draw_next_round(enter_results(event, results), seed=3)


def test_twelve_players_overall_points_setting_ignores_tables():
    event = twelve_with_a_weak_table({"final_entry": "overall-points"})
    # P00 300, P04 300, P01/P05 -3 (lot: P01 first in the hand-made lot order), then -20s
    assert sorted(event.rounds[-1].tables[0].seats) == ["P00", "P01", "P04", "P05"]


def test_twelve_players_default_keeps_every_table_winner():
    event = twelve_with_a_weak_table({})
    # table 3 tie at -20, no wins difference -> lot order puts P08 first
    assert sorted(event.rounds[-1].tables[0].seats) == ["P00", "P01", "P04", "P08"]


def test_a_winner_scoring_other_than_100_is_refused():
    event = with_round(create_event("k", "kuwana", PLAYERS), hand_round(1, [list("ABCD"), list("EFGH")], 3))
    with pytest.raises(ScoreError, match="worth 100"):
        enter_results(event, [G("R1-T1-G1", {"A": 90, "B": -10, "C": -20, "D": -30}, "A")])


def test_random_event_runs_to_the_end_with_four_finalists():
    rng = random.Random(5)
    event, _ = run_event(create_event("r", "kuwana", PLAYERS),
                         lambda e: random_rummikub_results(e, rng, world=False))
    assert is_finished(event) and len(event.rounds) == 2
    assert len(event.rounds[1].tables[0].seats) == 4


@pytest.mark.parametrize("game", ["R1-T1-G01", "R1-T1-G4", "R1-T3-G1", "R2-T1-G1", "r1-t1-g1", "R1T1G1"])
def test_game_ids_outside_the_draw_are_refused(game):
    from controller.tournament import GameNotDrawnError

    event = with_round(create_event("k", "kuwana", PLAYERS), hand_round(1, [list("ABCD"), list("EFGH")], 3))
    with pytest.raises(GameNotDrawnError, match=repr(game)):
        enter_results(event, [G(game, {"A": 100, "B": -10, "C": -20, "D": -30}, "A")])
