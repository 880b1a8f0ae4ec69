"""Knockout with a losers' bracket (seed 004, shogi and othello)."""
import random

import pytest

from controller.tournament import (
    FormatError,
    MatchResult,
    UnknownPlayerError,
    create_event,
    draw_next_round,
    enter_results,
    game_id,
    is_finished,
    standings,
)
from controller.tournament.formats.knockout import seed_positions
from tournament_results import random_match_results, run_event

PLAYERS = list("ABCDEFGH")


def alphabetical_wins(event):
    """The earlier name in the alphabet always wins: the outcome is known by hand."""
    r = event.rounds[-1]
    return [MatchResult(game_id(r.number, t.number, 1), min(t.seats)) for t in r.tables]


def test_standard_seed_positions_keep_1_and_2_apart():
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_positions(4) == [1, 4, 2, 3]


def test_seeds_sit_in_opposite_halves_and_the_rest_by_lot():
    event = create_event("shogi", "knockout", PLAYERS, {"seeded": "H,G"})
    lineups = {draw_next_round(event, seed).rounds[0].lineup for seed in range(20)}
    assert all(lineup[0] == "H" and lineup[4] == "G" for lineup in lineups)
    assert len(lineups) > 1  # the unseeded places really are drawn


def test_byes_go_to_the_top_seeds():
    event = draw_next_round(create_event("shogi", "knockout", list("ABCDEF"), {"seeded": "F,E"}), seed=5)
    first = event.rounds[0]
    playing = set(first.players())
    assert "F" not in playing and "E" not in playing
    assert len(first.tables) == 2


def test_whole_event_with_losers_bracket_hand_checked():
    event, _ = run_event(create_event("othello", "knockout", PLAYERS, {"game": "othello"}), alphabetical_wins)
    table = standings(event)
    assert table.finished and len(event.rounds) == 3
    main, losers = table.sections
    assert main.rows[0].player == "A" and main.rows[0].place == 1
    lineup = event.rounds[0].lineup
    other_half = lineup[4:] if "A" in lineup[:4] else lineup[:4]
    assert main.rows[1].player == min(other_half) and main.rows[1].place == 2
    first_round_losers = {max(lineup[i], lineup[i + 1]) for i in range(0, 8, 2)}
    assert {r.player for r in losers.rows} == first_round_losers
    assert losers.rows[0].player == min(first_round_losers)
    assert {r.player for r in main.rows if r.place == 5} == first_round_losers
    assert [r.place for r in main.rows] == [1, 2, 3, 3, 5, 5, 5, 5]


def test_losers_bracket_can_be_switched_off():
    event, _ = run_event(create_event("s", "knockout", PLAYERS, {"losers_bracket": "no"}), alphabetical_wins)
    assert len(standings(event).sections) == 1
    assert all(t.bracket == "main" for r in event.rounds for t in r.tables)


@pytest.mark.parametrize("count", [2, 3, 5, 6, 7, 9, 13, 16])
def test_random_events_of_any_size_finish_with_one_champion(count):
    rng = random.Random(count)
    players = [f"K{i}" for i in range(count)]
    event, _ = run_event(create_event("k", "knockout", players), lambda e: random_match_results(e, rng))
    main = standings(event).sections[0]
    assert is_finished(event)
    assert [r.place for r in main.rows].count(1) == 1
    assert sorted(r.player for r in main.rows) == sorted(players)


def test_winner_not_at_the_board_is_refused():
    event = draw_next_round(create_event("s", "knockout", PLAYERS), seed=1)
    table = event.rounds[0].tables[0]
    stranger = next(p for p in PLAYERS if p not in table.seats)
    with pytest.raises(UnknownPlayerError, match=f"'{stranger}' does not sit at table 1"):
        enter_results(event, [MatchResult("R1-T1-G1", stranger)])


def test_seeded_player_must_be_entered():
    with pytest.raises(FormatError, match="'Z'"):
        create_event("s", "knockout", PLAYERS, {"seeded": "A,Z"})


def test_othello_result_naming_someone_off_the_board_is_refused():
    from controller.tournament import OthelloCount, othello_result

    event = draw_next_round(create_event("o", "knockout", PLAYERS, {"game": "othello"}), seed=1)
    a, b = event.rounds[0].tables[0].seats
    stranger = next(p for p in PLAYERS if p not in (a, b))
    with pytest.raises(UnknownPlayerError, match=f"'{stranger}' does not sit at table 1"):
        enter_results(event, [othello_result("R1-T1-G1", OthelloCount(a, stranger, 40, 20))])
    recorded = enter_results(event, [othello_result("R1-T1-G1", OthelloCount(b, a, 20, 40))])
    assert recorded.results["R1-T1-G1"].winner == a
