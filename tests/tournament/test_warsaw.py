"""Warsaw championship (seed 003): eliminations 2 x 2 games, semi-final, final; wins first."""
import random
from collections import Counter

import pytest

from controller.tournament import (
    PlayerListError,
    RummikubGameResult as G,
    ScoreError,
    create_event,
    draw_next_round,
    enter_results,
    game_id,
    standings,
)
from tournament_results import hand_round, random_rummikub_results, run_event, with_round

PLAYERS = [f"P{i:02}" for i in range(1, 21)]
ROUND_1 = [PLAYERS[i:i + 4] for i in range(0, 20, 4)]
ROUND_2 = [["P01", "P05", "P09", "P13"], ["P17", "P02", "P06", "P10"], ["P14", "P18", "P03", "P07"],
           ["P11", "P15", "P19", "P04"], ["P08", "P12", "P16", "P20"]]


def number(player: str) -> int:
    return int(player[1:])


def seat_wins(round_number, tables, wins_by_game, loss=lambda p: -number(p)):
    """Game g at each table is won by the seat `wins_by_game[g-1]`; losers lose -n."""
    results = []
    for t, seats in enumerate(tables, start=1):
        for g, seat in enumerate(wins_by_game, start=1):
            winner = seats[seat - 1]
            scores = {p: loss(p) for p in seats if p != winner}
            scores[winner] = -sum(scores.values())
            results.append(G(game_id(round_number, t, g), scores, winner))
    return results


def eliminations():
    event = create_event("Warsaw 2019", "warsaw", PLAYERS)
    event = with_round(event, hand_round(1, ROUND_1, 2, "elimination round 1"))
    event = enter_results(event, seat_wins(1, ROUND_1, [1, 2]))
    event = with_round(event, hand_round(2, ROUND_2, 2, "elimination round 2"))
    results = seat_wins(2, ROUND_2, [1, 2])
    # P13 loses big in round 2 game 2: 1 win but far fewer points than 0-win P03 (-12)
    results[1] = G("R2-T1-G2", {"P01": -1, "P09": -9, "P13": -60, "P05": 70}, "P05")
    return enter_results(event, results)


def test_semi_final_takes_the_top_16_by_wins_then_small_points():
    event = eliminations()
    section = next(s for s in standings(event).sections if s.title == "Eliminations")
    by_player = {r.player: r for r in section.rows}
    # zero wins: P03 -12, P04 -16, P07 -28, P16 -64, P19 -76, P20 -80: the last four go out
    assert [r.player for r in section.rows[-4:]] == ["P07", "P16", "P19", "P20"]
    assert by_player["P13"].values[2:] == (1, -41)
    assert by_player["P13"].place < by_player["P03"].place  # a win outweighs 29 small points
    event = draw_next_round(event, seed=11)
    semi = event.rounds[-1]
    assert sorted(semi.players()) == sorted(set(PLAYERS) - {"P07", "P16", "P19", "P20"})
    assert [len(t.seats) for t in semi.tables] == [4, 4, 4, 4]
    assert all(t.games == 4 for t in semi.tables)


def test_whole_event_final_order_wins_then_small_points():
    event = draw_next_round(eliminations(), seed=11)
    semi_tables = [t.seats for t in event.rounds[-1].tables]
    event = enter_results(event, seat_wins(3, semi_tables, [1, 1, 1, 1]))
    event = draw_next_round(event, seed=12)
    final = event.rounds[-1].tables[0]
    assert sorted(final.seats) == sorted(t[0] for t in semi_tables)  # each semi table's winner
    s1, s2, s3, s4 = final.seats
    event = enter_results(event, [
        G("R4-T1-G1", {s1: 60, s2: -10, s3: -20, s4: -30}, s1),
        G("R4-T1-G2", {s1: 60, s2: -10, s3: -20, s4: -30}, s1),
        G("R4-T1-G3", {s2: 60, s1: -50, s3: -5, s4: -5}, s2),
        G("R4-T1-G4", {s2: 60, s1: -50, s3: -5, s4: -5}, s2),
    ])
    table = standings(event)
    assert table.finished
    overall = [r.player for r in table.sections[0].rows]
    # final: s2 and s1 two wins each, s2 100 small points to s1 20; s3 -50 before s4 -70
    assert overall[:4] == [s2, s1, s3, s4]
    # the other semi-finalists lost 4 x -n: fewer points lost for a lower number
    semi_out = sorted((p for t in semi_tables for p in t[1:]), key=number)
    assert overall[4:16] == semi_out
    assert overall[16:] == ["P07", "P16", "P19", "P20"]


def test_thirty_players_sit_at_tables_of_3_and_4_and_play_4_elimination_games():
    players = [f"Q{i:02}" for i in range(30)]
    rng = random.Random(3)
    event, _ = run_event(create_event("w30", "warsaw", players),
                         lambda e: random_rummikub_results(e, rng, world=True))
    first, second = event.rounds[0], event.rounds[1]
    assert sorted(len(t.seats) for t in first.tables) == [3, 3, 4, 4, 4, 4, 4, 4]
    assert sorted(first.players()) == sorted(players) == sorted(second.players())
    assert [t.seats for t in first.tables] != [t.seats for t in second.tables]  # a new draw
    games = Counter(p for g in (1, 2) for r in (event.round(g),) for gid in r.game_ids()
                    for p in event.results[gid].scores)
    assert set(games.values()) == {4}
    assert len(event.round(3).players()) == 16 and len(event.round(4).players()) == 4


def test_table_of_three_plays_three_games_in_a_one_table_stage():
    players = [f"Q{i:02}" for i in range(20)]
    event = create_event("w", "warsaw", players, {"semi_finalists": "15"})
    rng = random.Random(8)
    for seed in (1, 2):
        event = draw_next_round(event, seed)
        event = enter_results(event, random_rummikub_results(event, rng, world=True))
    event = draw_next_round(event, 3)
    assert sorted((len(t.seats), t.games) for t in event.rounds[-1].tables) == [(3, 3), (4, 4), (4, 4), (4, 4)]


def test_dice_seat_draw_is_recorded_and_reproducible():
    event = create_event("w", "warsaw", PLAYERS)
    first = draw_next_round(event, seed=99).rounds[0]
    again = draw_next_round(event, seed=99).rounds[0]
    assert first == again
    assert any(d.drew.startswith("die ") for d in first.draw)
    assert {d.player for d in first.draw if d.decides.startswith("seat ")} == set(PLAYERS)
    assert draw_next_round(event, seed=100).rounds[0].tables != first.tables


def test_small_points_must_be_zero_sum():
    event = with_round(create_event("w", "warsaw", PLAYERS), hand_round(1, ROUND_1, 2))
    with pytest.raises(ScoreError, match="add up to 30"):
        enter_results(event, [G("R1-T1-G1", {"P01": 40, "P02": -10, "P03": -10, "P04": -10}, "P01")])


def test_more_than_64_players_are_refused():
    with pytest.raises(PlayerListError, match="65"):
        create_event("w", "warsaw", [f"X{i}" for i in range(65)])


def test_disqualified_table_is_out_of_the_event_and_owes_no_games():
    from controller.tournament import DisqualifiedError, disqualify_table

    event = with_round(create_event("Warsaw 2019", "warsaw", PLAYERS), hand_round(1, ROUND_1, 2))
    results = seat_wins(1, ROUND_1, [1, 2])
    event = enter_results(event, [r for r in results if not r.game.startswith("R1-T5")])
    event = enter_results(event, [results[-2]])  # table 5 game 1 was played before the count
    event = disqualify_table(event, 1, 5, "105 tiles counted")
    assert event.missing_games(1) == ()
    with pytest.raises(DisqualifiedError, match="R1-T5-G2: table 5 of round 1 is disqualified"):
        enter_results(event, [results[-1]])
    event = draw_next_round(event, seed=4)
    assert sorted(event.rounds[-1].players()) == PLAYERS[:16]
    assert [len(t.seats) for t in event.rounds[-1].tables] == [4, 4, 4, 4]
    rows = standings(event).sections[0].rows
    assert [r.player for r in rows[-4:]] == ["P17", "P18", "P19", "P20"]
    assert all(r.place is None and "105 tiles counted" in r.note for r in rows[-4:])
    assert [r.place for r in rows[:16]] == list(range(1, 17))
    with pytest.raises(Exception, match="already disqualified"):
        disqualify_table(event, 1, 5, "again")


def test_only_warsaw_disqualifies_tables():
    from controller.tournament import DisqualifiedError, disqualify_table

    event = draw_next_round(create_event("k", "kuwana", PLAYERS[:8]), seed=1)
    with pytest.raises(DisqualifiedError, match="kuwana"):
        disqualify_table(event, 1, 1, "tiles")
