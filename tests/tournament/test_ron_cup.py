"""Ron champion cup (seed 001) and health mahjong (seed 004) walked through by hand."""
import random
from decimal import Decimal
from itertools import combinations

import pytest

from controller.tournament import (
    HanchanResult,
    ScoreError,
    create_event,
    draw_next_round,
    enter_results,
    standings,
)
from controller.tournament.files import read_results_json
from tournament_results import hand_round, random_hanchan_results, run_event, with_round

PLAYERS = list("ABCDEFGHIJKLMNOP")
ZERO = Decimal("0.0")


def scores(game, **values):
    return HanchanResult(game, {k: Decimal(str(v)) for k, v in values.items()})


def all_level(round_number, tables):
    """Everyone on 25,000: all tied first, 0.0 each (rank points shared, -5.0 + 5.0)."""
    return [HanchanResult(f"R{round_number}-T{t}-G1", {p: ZERO for p in seats})
            for t, seats in enumerate(tables, start=1)]


ROWS = [PLAYERS[i:i + 4] for i in range(0, 16, 4)]
COLUMNS = [[ROWS[r][c] for r in range(4)] for c in range(4)]
DIAGONALS = [list("AFKP"), list("BGLM"), list("CHIN"), list("DEJO")]


def level_start():
    """Hanchan 1 and 2 on hand-built tables (rows, then columns), everyone level."""
    event = create_event("Ron 2024", "ron-cup", PLAYERS)
    for number, tables in ((1, ROWS), (2, COLUMNS)):
        event = with_round(event, hand_round(number, tables, 1))
        event = enter_results(event, all_level(number, tables))
    return with_round(event, hand_round(3, DIAGONALS, 1))


def test_hand_built_tables_have_no_repeated_opponents():
    event = level_start()
    pairs = [frozenset(pair) for r in event.rounds for t in r.tables for pair in combinations(t.seats, 2)]
    assert len(pairs) == len(set(pairs))


def test_drawn_qualifying_rounds_avoid_repeated_opponents():
    rng = random.Random(4)
    event = create_event("r", "ron-cup", PLAYERS)
    for seed in (1, 2, 3):
        event = draw_next_round(event, seed)
        event = enter_results(event, random_hanchan_results(event, rng))
    pairs = [frozenset(pair) for r in event.rounds for t in r.tables for pair in combinations(t.seats, 2)]
    assert len(pairs) == len(set(pairs)) == 3 * 4 * 6


def ranked_event():
    """Hanchan 3 chosen so H and J tie on 10.0 at the 8th place."""
    return enter_results(level_start(), [
        scores("R3-T1-G1", A=60, F=30, K=-10, P=-80),
        scores("R3-T2-G1", B=50, G=20, L=-20, M=-50),
        scores("R3-T3-G1", C=45, H=10, I=-15, N=-40),  # H 2nd at its table
        scores("R3-T4-G1", D=40, E=15, J=10, O=-65),   # J 3rd at its table
    ])


def test_whole_event_odd_even_semis_tie_breaks_and_final_order():
    event = ranked_event()
    qualifiers = next(s for s in standings(event).sections if s.title == "Qualifying hanchan")
    order = [r.player for r in qualifiers.rows]
    assert order == list("ABCDFGEHJKILNMOP")  # H before J: the better place in hanchan 3
    assert [r.note for r in qualifiers.rows].count("semi-finalist") == 0
    event = draw_next_round(event, seed=21)
    semi = event.rounds[-1]
    assert [sorted(t.seats) for t in semi.tables] == [sorted("ACFE"), sorted("BDGH")]
    ranks = {p: i for i, p in enumerate(order, start=1)}
    first, third, fifth, seventh = "A", "C", "F", "E"
    second, fourth, sixth, eighth = "B", "D", "G", "H"
    event = enter_results(event, [
        # 2nd place tie on 20.0 between ranks 1 and 5: rank 1 goes through
        HanchanResult("R4-T1-G1", {seventh: Decimal("40.0"), first: Decimal("20.0"),
                                   fifth: Decimal("20.0"), third: Decimal("-80.0")}),
        HanchanResult("R4-T2-G1", {eighth: Decimal("60.0"), sixth: Decimal("10.0"),
                                   second: Decimal("-20.0"), fourth: Decimal("-50.0")}),
    ])
    event = draw_next_round(event, seed=22)
    assert sorted(event.rounds[-1].tables[0].seats) == sorted([seventh, first, eighth, sixth])
    event = enter_results(event, [
        # a tie on top between ranks 6 and 8: rank 6 wins the cup
        HanchanResult("R5-T1-G1", {sixth: Decimal("30.0"), eighth: Decimal("30.0"),
                                   seventh: Decimal("-10.0"), first: Decimal("-50.0")}),
    ])
    table = standings(event)
    assert table.finished
    overall = [r.player for r in table.sections[0].rows]
    assert overall[:4] == [sixth, eighth, seventh, first]
    # out in the semis: 3rd places (fifth 20.0, second -20.0), then 4th places (fourth -50.0, third -80.0)
    assert overall[4:8] == [fifth, second, fourth, third]
    assert overall[8:] == order[8:]
    assert table.sections[0].rows[0].note == "winner"
    assert ranks[sixth] == 6


def test_tie_in_previous_hanchan_place_goes_back_a_hanchan():
    event = create_event("r", "ron-cup", PLAYERS)
    rows = [PLAYERS[i:i + 4] for i in range(0, 16, 4)]
    columns = [[rows[r][c] for r in range(4)] for c in range(4)]
    event = with_round(event, hand_round(1, rows, 1))
    event = enter_results(event, all_level(1, rows))
    event = with_round(event, hand_round(2, columns, 1))
    # columns: AEIM, BFJN, CGKO, DHLP. E is 2nd in h2, F 3rd
    event = enter_results(event, [
        scores("R2-T1-G1", A=30, E=10, I=-10, M=-30),
        scores("R2-T2-G1", B=30, J=10, F=-10, N=-30),
        *[HanchanResult(f"R2-T{t}-G1", {p: ZERO for p in columns[t - 1]}) for t in (3, 4)],
    ])
    third = [list("AFKP"), list("BGLM"), list("CHIN"), list("DEJO")]
    event = with_round(event, hand_round(3, third, 1))
    event = enter_results(event, [
        scores("R3-T1-G1", F=20, A=0, K=-10, P=-10),       # F 1st: 10.0 total
        scores("R3-T2-G1", B=10, G=10, L=-10, M=-10),
        scores("R3-T3-G1", C=0, H=0, I=0, N=0),
        scores("R3-T4-G1", E=0, D=0, J=0, O=0),            # E 1st (shared): 10.0 total
    ])
    order = [r.player for r in standings(event).sections[1].rows]
    # E and F level on 10.0 and both 1st in hanchan 3; in hanchan 2 E was 2nd, F 3rd
    assert order.index("E") < order.index("F")


def test_hanchan_scores_must_add_up_to_zero_less_chombo():
    event = with_round(create_event("r", "ron-cup", PLAYERS), hand_round(1, [PLAYERS[i:i + 4] for i in range(0, 16, 4)], 1))
    with pytest.raises(ScoreError, match="add up to 10.0"):
        enter_results(event, [scores("R1-T1-G1", A=40, B=0, C=-10, D=-20)])
    # one chombo (-20) is fine
    enter_results(event, [scores("R1-T1-G1", A=40, B=0, C=-20, D=-40)])


def test_raw_hanchan_in_results_json_is_scored_by_the_event_rules():
    event = with_round(create_event("h", "health-mahjong", PLAYERS[:8], {"rank_points": "30,10,-10,-30"}),
                       hand_round(1, [PLAYERS[:4], PLAYERS[4:8]], 1))
    text = """{"results": [{"game": "R1-T1-G1", "hanchan": {"points": {"A": 40000, "B": 30000, "C": 30000, "D": 20000},
               "seat_order": ["A", "B", "C", "D"], "riichi_left": 0, "chombo": {}}}]}"""
    [result] = read_results_json(event, text)
    assert result.scores == {"A": Decimal("40.0"), "B": Decimal("0.0"), "C": Decimal("0.0"), "D": Decimal("-40.0")}


def test_health_mahjong_two_hanchan_totals_tie_to_the_later_hanchan():
    players = PLAYERS[:8]
    event = create_event("h", "health-mahjong", players)
    event = with_round(event, hand_round(1, [list("ABCD"), list("EFGH")], 1))
    event = enter_results(event, [scores("R1-T1-G1", A=30, B=10, C=-10, D=-30),
                                  scores("R1-T2-G1", E=10, F=10, G=0, H=-20)])
    event = with_round(event, hand_round(2, [list("AEBF"), list("CGDH")], 1))
    event = enter_results(event, [scores("R2-T1-G1", B=20, E=20, A=-20, F=-20),
                                  scores("R2-T2-G1", C=30, G=10, D=-10, H=-30)])
    table = standings(event)
    assert table.finished
    # totals: B 30, E 30, C 20, A 10, G 10, F -10, D -40, H -50
    # B and E tie on 30 and share 1st place in hanchan 2; hanchan 1: B 2nd, E 1st (shared) -> E first
    # A and G tie on 10: hanchan 2 A 3rd, G 2nd -> G first
    assert [r.player for r in table.sections[0].rows] == ["E", "B", "C", "G", "A", "F", "D", "H"]


def test_health_mahjong_repeats_only_the_unavoidable_pairs_and_records_them():
    rng = random.Random(9)
    event, _ = run_event(create_event("h", "health-mahjong", [f"H{i}" for i in range(12)]),
                         lambda e: random_hanchan_results(e, rng))
    assert len(event.rounds) == 2 and standings(event).finished
    pairs = [frozenset(pair) for r in event.rounds for t in r.tables for pair in combinations(t.seats, 2)]
    # 12 players, 3 tables: each second-round table holds two from one first-round table
    assert len(pairs) - len(set(pairs)) == 3
    assert any("3 repeated pairing(s)" in d.drew for d in event.rounds[1].draw)
