"""The seeds' edge cases, each test quoting the seed's sentence as written."""
import random
from decimal import Decimal

import pytest

from controller.tournament import (
    HanchanResult,
    MatchResult,
    PlayerListError,
    RummikubGameResult as G,
    create_event,
    draw_next_round,
    enter_results,
    game_id,
    standings,
)
from test_ron_cup import ranked_event
from tournament_results import random_rummikub_results, run_event


def kuwana_drawn(players: int, seed: int = 4):
    """A drawn first round where seat 1 wins every game; losers lose by table and seat, so the
    first-round points are known: seat 2 of table t ends on -3 * (10 * t + 2)."""
    event = draw_next_round(create_event("k", "kuwana", [f"P{i:02}" for i in range(players)]), seed)
    results = []
    for table in event.rounds[0].tables:
        for g in range(1, table.games + 1):
            scores = {p: -(10 * table.number + seat) for seat, p in enumerate(table.seats[1:], start=2)}
            results.append(G(game_id(1, table.number, g), {table.seats[0]: 100, **scores}, table.seats[0]))
    return enter_results(event, results)


def test_kuwana_twelve_players_final_takes_every_table_winner_and_the_best_runner_up():
    """Seed 000: "最終ポイントの順に成績を決定します。(12名の大会の場合は、決勝進出の方法を一部変更します)".
    The seed does not say how; the final stays one table of four: the three table winners, then the
    best runner-up by first-round points (setting `final_entry`, docs/tournament.md)."""
    event = kuwana_drawn(12)
    tables = event.rounds[0].tables
    assert len(tables) == 3 and all(len(t.seats) == 4 for t in tables)
    final = draw_next_round(event, seed=5).rounds[-1].tables
    assert len(final) == 1
    assert sorted(final[0].seats) == sorted([t.seats[0] for t in tables] + [tables[0].seats[1]])


@pytest.mark.parametrize("count", [9, 10, 11, 13, 14, 15], ids=lambda n: f"{n}-players")
def test_kuwana_players_not_in_fours_are_refused(count):
    """Seed 000: "参加定員先着予約8名様(超過した場合、4名単位で揃う場合に追加とします)"."""
    with pytest.raises(PlayerListError, match=f"8, 12 or 16 players; the list has {count}"):
        create_event("k", "kuwana", [f"P{i:02}" for i in range(count)])


def test_warsaw_nineteen_players_sit_at_tables_of_four_and_three_and_a_three_plays_three_games():
    """Seed 003: "Na każdym etapie turnieju odbywają się 4 gry (w eliminacjach 2 x po 2 w różnym składzie
    zawodników), z wyjątkiem, gdy przy stoliku znajduje się 3 zawodników – odbywają się 3 gry."."""
    rng = random.Random(19)
    event = create_event("w", "warsaw", [f"P{i:02}" for i in range(1, 20)], {"semi_finalists": 15})
    event, _ = run_event(event, lambda e: random_rummikub_results(e, rng, world=True))
    for number in (1, 2):
        assert sorted(len(t.seats) for t in event.round(number).tables) == [3, 4, 4, 4, 4]
        assert {t.games for t in event.round(number).tables} == {2}
    semi = event.round(3).tables
    assert sorted((len(t.seats), t.games) for t in semi) == [(3, 3), (4, 4), (4, 4), (4, 4)]
    assert len(standings(event).sections[0].rows) == 19


def test_ron_cup_level_score_goes_to_the_better_place_in_the_previous_hanchan():
    """Seed 001: "同スコアは先行有利(1つ前の半荘で上位を優先)とします。"."""
    event = ranked_event()  # H and J level on 10.0 for 8th place; H 2nd at its table in hanchan 3, J 3rd
    order = [r.player for r in next(s for s in standings(event).sections if s.title == "Qualifying hanchan").rows]
    assert order.index("H") == 7 and order.index("J") == 8
    semi = draw_next_round(event, seed=3).rounds[-1]
    assert "H" in semi.players() and "J" not in semi.players()


def test_ron_cup_semi_finals_pair_odd_and_even_qualifier_ranks_and_a_tie_goes_to_the_better_rank():
    """Seed 001: "準決勝の組み合わせは予選の奇数順位と偶数順位です。" and
    "決勝トーナメントで半荘終了時に同点があった場合、予選順位の上位を優先します。"."""
    event = ranked_event()
    order = [r.player for r in next(s for s in standings(event).sections if s.title == "Qualifying hanchan").rows]
    event = draw_next_round(event, seed=8)
    odd, even = (sorted(t.seats) for t in event.rounds[-1].tables)
    assert (odd, even) == (sorted(order[0:8:2]), sorted(order[1:8:2]))
    level = {p: Decimal("0.0") for p in event.rounds[-1].tables[0].seats}
    event = enter_results(event, [HanchanResult("R4-T1-G1", level), HanchanResult(
        "R4-T2-G1", {p: Decimal("0.0") for p in event.rounds[-1].tables[1].seats})])
    final = draw_next_round(event, seed=9).rounds[-1].tables[0]
    # everyone level at both tables: ranks 1 and 3 (odd table), 2 and 4 (even table) go through
    assert sorted(final.seats) == sorted(order[:4])


@pytest.mark.parametrize("game", ["shogi", "othello"])
def test_knockout_seeds_from_last_time_and_a_losers_bracket_for_first_round_losers(game):
    """Seed 004: "トーナメント方式により実施し、1回戦の敗者は敗者戦を行う。" and
    "組み合わせは抽選による。但し前回に優秀な成績を収めたものは、シード扱いとする。"."""
    players = [f"{game[0].upper()}{i}" for i in range(1, 7)]
    event = create_event(game, "knockout", players, {"game": game, "seeded": f"{players[5]},{players[4]}"})
    event = draw_next_round(event, seed=11)
    lineup = event.rounds[0].lineup
    assert lineup[0] == players[5] and lineup[4] == players[4]  # opposite halves: they meet only in the final
    assert players[5] not in event.rounds[0].players() and players[4] not in event.rounds[0].players()  # byes
    first = event.rounds[0]
    event = enter_results(event, [MatchResult(game_id(1, t.number, 1), min(t.seats)) for t in first.tables])
    losers = {max(t.seats) for t in first.tables}
    second = draw_next_round(event, seed=12).rounds[-1]
    assert {p for t in second.tables if t.bracket == "losers" for p in t.seats} == losers
