"""The director's changes after the fact, in the pure core: amend and delete a result, withdraw a
player between rounds, a late entry, a substitute for one game; what each format makes of them."""
import random

import pytest

from controller.tournament import (
    Change,
    ChangeError,
    ChangeKind,
    DuplicateResultError,
    EventFinishedError,
    MatchResult,
    PlayerListError,
    RummikubGameResult as G,
    ScoreError,
    UnknownPlayerError,
    create_event,
    draw_next_round,
    enter_results,
    game_id,
    is_finished,
    standings,
)
from controller.tournament.event import record_change
from tournament_results import hand_round, kuwana_first_round as first_round_by_hand, random_hanchan_results, random_rummikub_results, run_event, with_round

PLAYERS = list("ABCDEFGH")


def change(kind, reason="typing error", **fields):
    return Change(ChangeKind(kind), reason, **fields)


def kuwana_first_round():
    return first_round_by_hand(create_event("k", "kuwana", PLAYERS))


def test_an_amended_result_replaces_the_first_and_the_standings_follow():
    event = kuwana_first_round()
    fixed = G("R1-T1-G2", {"C": 100, "A": -15, "B": -5, "D": -40}, "C")  # C won, not B
    event = record_change(event, change("amend", game="R1-T1-G2", result=fixed))
    points = {r.player: r.values[3] for r in standings(event).sections[1].rows}
    assert points["B"] == -40 and points["C"] == 70
    assert sorted(draw_next_round(event, seed=1).rounds[-1].tables[0].seats) == ["A", "C", "E", "G"]
    notes = {r.player: r.note for r in standings(event).sections[0].rows}
    assert "amended: R1-T1-G2" in notes["C"] and notes["E"] == ""
    assert standings(event).changes[0].startswith("R1-T1-G2 amended") and "typing error" in standings(event).changes[0]


def test_an_amendment_is_checked_like_a_result():
    with pytest.raises(ScoreError, match="worth 100"):
        record_change(kuwana_first_round(), change(
            "amend", game="R1-T1-G2", result=G("R1-T1-G2", {"C": 90, "A": -15, "B": -5, "D": -40}, "C")))


@pytest.mark.parametrize("reason", ["", "   "], ids=["empty", "blank"])
def test_every_change_needs_a_reason(reason):
    with pytest.raises(ChangeError, match="--reason"):
        record_change(kuwana_first_round(), change("delete-result", reason, game="R1-T1-G1"))


def test_a_deleted_result_is_owed_again_and_a_second_plain_entry_points_at_amend():
    event = record_change(kuwana_first_round(), change("delete-result", game="R1-T2-G3"))
    assert event.missing_games(1) == ("R1-T2-G3",)
    again = G("R1-T2-G3", {"H": 100, "E": -1, "F": -30, "G": -2}, "H")
    with pytest.raises(DuplicateResultError, match="tileref tournament amend"):
        enter_results(event, [again])
    event = record_change(event, change("amend", game="R1-T2-G3", result=again))
    assert not event.missing_games(1)


def test_a_game_never_entered_cannot_be_amended():
    event = with_round(create_event("k", "kuwana", PLAYERS), hand_round(1, [list("ABCD"), list("EFGH")], 3))
    with pytest.raises(ChangeError, match="no result to amend"):
        record_change(event, change("amend", game="R1-T1-G1",
                                    result=G("R1-T1-G1", {"A": 100, "B": -1, "C": -1, "D": -1}, "A")))


def test_a_player_withdraws_only_between_rounds():
    event = with_round(create_event("k", "kuwana", PLAYERS), hand_round(1, [list("ABCD"), list("EFGH")], 3))
    with pytest.raises(ChangeError, match="still plays R1-T1-G1, R1-T1-G2, R1-T1-G3.*substitute"):
        record_change(event, change("withdraw", player="A"))
    with pytest.raises(UnknownPlayerError, match="'Zed'"):
        record_change(kuwana_first_round(), change("withdraw", player="Zed"))


def test_kuwana_a_qualifier_who_withdraws_gives_the_final_seat_to_the_next_at_their_table():
    event = record_change(kuwana_first_round(), change("withdraw", "went home", player="A"))
    with pytest.raises(ChangeError, match="withdrawn already"):
        record_change(event, change("withdraw", player="A"))
    final = draw_next_round(event, seed=2).rounds[-1].tables[0]
    assert sorted(final.seats) == ["B", "C", "E", "G"]  # A's place at table 1 goes to C (-35)
    row = next(r for r in standings(event).sections[0].rows if r.player == "A")
    assert row.note == "withdrew after round 1: went home"


def test_kuwana_takes_a_late_entry_only_before_the_draw_and_draws_only_a_full_four():
    event = record_change(create_event("k", "kuwana", PLAYERS), change("withdraw", "ill", player="H"))
    with pytest.raises(PlayerListError, match="8, 12 or 16 players; the list has 7"):
        draw_next_round(event, seed=1)
    event = record_change(event, change("late-entry", "on the waiting list", player="Ida"))
    seated = draw_next_round(event, seed=1).rounds[0].players()
    assert "Ida" in seated and "H" not in seated
    with pytest.raises(ChangeError, match="only before the first round is drawn"):
        record_change(kuwana_first_round(), change("late-entry", player="Jo"))


def test_a_substitute_plays_one_game_for_a_player_and_it_counts_for_that_player():
    event = with_round(create_event("k", "kuwana", PLAYERS), hand_round(1, [list("ABCD"), list("EFGH")], 3))
    event = record_change(event, change("substitute", "A on a call", game="R1-T1-G1", player="A", substitute="Sam"))
    event = enter_results(event, [G("R1-T1-G1", {"Sam": 100, "B": -10, "C": -20, "D": -30}, "Sam")])
    assert event.results["R1-T1-G1"].winner == "A" and event.results["R1-T1-G1"].scores["A"] == 100
    a = next(r for r in standings(event).sections[0].rows if r.player == "A")
    assert a.values[1] == 100 and "Sam played R1-T1-G1 for them" in a.note


@pytest.mark.parametrize("game, player, sub, error", [
    ("R1-T1-G1", "E", "Sam", "does not sit at table 1"),
    ("R1-T1-G1", "A", "F", "'F' plays at table 2"),
    ("R1-T1-G9", "A", "Sam", "has not been drawn"),
], ids=["not-at-that-table", "substitute-plays-this-round", "game-not-drawn"])
def test_a_substitute_the_draw_does_not_allow_is_refused(game, player, sub, error):
    event = with_round(create_event("k", "kuwana", PLAYERS), hand_round(1, [list("ABCD"), list("EFGH")], 3))
    with pytest.raises((ChangeError, UnknownPlayerError), match=error):
        record_change(event, change("substitute", game=game, player=player, substitute=sub))


def test_kuwana_disqualify_points_at_withdraw():
    from controller.tournament import DisqualifiedError, disqualify_table

    with pytest.raises(DisqualifiedError, match="tileref tournament withdraw"):
        disqualify_table(kuwana_first_round(), 1, 1, "tiles")


def warsaw_after_round_one(players=19, seed=1):
    rng = random.Random(seed)
    event = draw_next_round(create_event("w", "warsaw", [f"P{i:02}" for i in range(1, players + 1)]), seed)
    return enter_results(event, random_rummikub_results(event, rng, world=True)), rng


def test_warsaw_withdrawn_player_not_drawn_again_and_a_late_entry_plays_round_two():
    event, rng = warsaw_after_round_one()
    event = record_change(event, change("withdraw", "train home", player="P07"))
    event = record_change(event, change("late-entry", "came late", player="Late"))
    second = draw_next_round(event, seed=5).rounds[-1]
    assert "P07" not in second.players() and "Late" in second.players()
    assert sorted(len(t.seats) for t in second.tables) == [3, 4, 4, 4, 4]
    event, _ = run_event(event, lambda e: random_rummikub_results(e, rng, True))
    semi = event.round(3).players()
    assert "P07" not in semi
    with pytest.raises(ChangeError, match="until round 2 is drawn"):
        record_change(event, change("late-entry", player="Later"))
    rows = {r.player: r for r in standings(event).sections[0].rows}
    assert rows["P07"].note.startswith("withdrew after round 1: train home")


def test_no_withdrawal_from_a_finished_event():
    rng = random.Random(2)
    event, _ = run_event(create_event("k", "kuwana", PLAYERS), lambda e: random_rummikub_results(e, rng, False))
    with pytest.raises(EventFinishedError):
        record_change(event, change("withdraw", player="A"))


def test_ron_cup_a_withdrawal_leaving_fifteen_waits_for_a_late_entry():
    rng = random.Random(3)
    event = draw_next_round(create_event("ron", "ron-cup", [f"P{i:02}" for i in range(16)]), 1)
    event = enter_results(event, random_hanchan_results(event, rng))
    event = record_change(event, change("withdraw", player="P03"))
    with pytest.raises(PlayerListError, match="15 players left cannot sit at tables of 4.*late-entry"):
        draw_next_round(event, 2)
    event = record_change(event, change("late-entry", "reserve", player="Res"))
    event, _ = run_event(event, lambda e: random_hanchan_results(e, rng))
    assert "P03" not in event.round(4).players() + event.round(5).players()
    assert "Res" in event.round(2).players()


def test_knockout_a_withdrawn_player_gives_a_walkover_and_stays_out_of_the_losers_bracket():
    event = draw_next_round(create_event("ko", "knockout", PLAYERS, {"seeded": "A,B"}), 1)
    first = event.rounds[-1]
    event = enter_results(event, [MatchResult(game_id(1, t.number, 1), min(t.seats)) for t in first.tables])
    loser_opposite_a = max(next(t.seats for t in first.tables if "A" in t.seats))
    event = record_change(event, change("withdraw", "ill", player="A"))
    event = record_change(event, change("withdraw", "ill", player=loser_opposite_a))
    second = draw_next_round(event, 2).rounds[-1]
    assert all("A" not in t.seats and loser_opposite_a not in t.seats for t in second.tables)
    assert len([t for t in second.tables if t.bracket == "main"]) == 1  # A's match is a walkover
    main = standings(event).sections[0]
    assert next(r for r in main.rows if r.player == "A").note.startswith("withdrew after round 1")


FORMAT_RUNS = {
    "kuwana": (12, lambda e, rng: random_rummikub_results(e, rng, world=False)),
    "warsaw": (19, lambda e, rng: random_rummikub_results(e, rng, world=True)),
    "ron-cup": (16, lambda e, rng: random_hanchan_results(e, rng)),
    "health-mahjong": (8, lambda e, rng: random_hanchan_results(e, rng)),
    "knockout": (9, lambda e, rng: [MatchResult(game_id(e.rounds[-1].number, t.number, 1), rng.choice(t.seats))
                                    for t in e.rounds[-1].tables]),
}


@pytest.mark.parametrize("fmt", FORMAT_RUNS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_withdrawal_after_round_one_never_stops_an_event(fmt, seed):
    """Whatever the format: withdraw someone after round 1 (with a reserve where tables need four),
    and the event runs to the end; everyone entered is in the standings once, the withdrawn player is
    not drawn again."""
    count, results_for = FORMAT_RUNS[fmt]
    rng = random.Random(seed)
    event = draw_next_round(create_event("e", fmt, [f"P{i:02}" for i in range(count)]), seed)
    event = enter_results(event, results_for(event, rng))
    leaving = rng.choice(event.rounds[0].players())
    event = record_change(event, change("withdraw", player=leaving))
    if fmt in ("ron-cup", "health-mahjong"):
        event = record_change(event, change("late-entry", player="Reserve"))
    while not is_finished(event):
        event = draw_next_round(event, seed * 100 + len(event.rounds))
        assert leaving not in event.rounds[-1].players()
        event = enter_results(event, results_for(event, rng))
    overall = [r.player for r in standings(event).sections[0].rows]
    assert sorted(overall) == sorted(set(overall)) and leaving in overall
