"""The pure parts of the registry, the ratings and the league table: values in, values out."""
from __future__ import annotations

import pytest

from controller.league.errors import AmbiguousPlayerError, PlayerNameError, PlayerNotFoundError
from controller.league.league_store import ClubLog, extends
from controller.league.ratings import RatedGame, places, rate
from controller.league.registry import NameSpan, Player, find, next_id, resolve_entrants
from controller.league.standings import league_table
from controller.records.signing import PublicKey
from controller.tournament.history import SignedEntry

ANNA = Player("P0001", (NameSpan("Anna Nowak", "2026-01-01T00:00:00+00:00"),
                        NameSpan("Anna Lis", "2026-06-01T00:00:00+00:00")))
BEN = Player("P0002", (NameSpan("Ben Ode", "2026-01-01T00:00:00+00:00"),))
OTHER_BEN = Player("P0003", (NameSpan("Ben Ode", "2026-02-01T00:00:00+00:00"),))


def test_a_player_is_found_by_id_or_current_name_and_a_former_name_is_pointed_at():
    players = (ANNA, BEN)
    assert find(players, "P0001") is ANNA and find(players, " anna   lis ") is ANNA
    with pytest.raises(PlayerNotFoundError, match=r"formerly the name of P0001 \(now Anna Lis\)"):
        find(players, "Anna Nowak")
    assert ANNA.name_at("2026-03-01T00:00:00+00:00") == "Anna Nowak"
    assert ANNA.name_at("2026-07-01T00:00:00+00:00") == "Anna Lis"
    assert next_id(players) == "P0003"


def test_an_ambiguous_name_names_every_candidate_and_an_id_settles_it():
    players = (ANNA, BEN, OTHER_BEN)
    with pytest.raises(AmbiguousPlayerError, match=r"P0002 \(Ben Ode\), P0003 \(Ben Ode\)"):
        resolve_entrants(players, ["Anna Lis", "Ben Ode"])
    with pytest.raises(AmbiguousPlayerError, match="all go by 'Ben Ode'"):  # both by ID: one name in the event
        resolve_entrants(players, ["P0002", "P0003"])
    with pytest.raises(PlayerNameError, match="entered twice"):
        resolve_entrants(players, ["P0001", "Anna Lis"])
    assert resolve_entrants(players, ["P0003", "Anna Lis"]) == (("Ben Ode", "P0003"), ("Anna Lis", "P0001"))


@pytest.mark.parametrize("result, seats, expected", [
    ({"kind": "rummikub", "scores": {"A": 100, "B": -10, "C": -10, "D": -40}, "winner": "A"}, (),
     {"A": 1, "B": 2, "C": 2, "D": 4}),
    ({"kind": "hanchan", "scores": {"A": "-12.5", "B": "40.1", "C": "0.0", "D": "-27.6"}}, (),
     {"B": 1, "C": 2, "A": 3, "D": 4}),
    ({"kind": "match", "winner": "B", "detail": "", "players": []}, ("A", "B"), {"B": 1, "A": 2}),
    ({"kind": "match", "winner": "A", "detail": "", "players": ["B", "A"]}, ("B", "A"), {"A": 1, "B": 2}),
], ids=["rummikub-tie-shares-a-place", "hanchan-decimal-scores", "match-seats-from-the-draw",
        "match-players-named"])
def test_places_come_from_the_result(result, seats, expected):
    assert places(result, seats) == expected


def _game(event, game, places_, at="2026-11-01T19:00:00+00:00", origin="Alder"):
    return RatedGame(origin, event, game, at, tuple(places_), {pid: pid.lower() for pid, _ in places_})


def test_the_order_games_are_given_in_does_not_matter_and_a_tie_shares_the_place():
    games = [_game("E", "R1-T1-G2", [("A", 2), ("B", 1)]), _game("E", "R1-T1-G1", [("A", 1), ("B", 2)]),
             _game("E", "R1-T1-G10", [("A", 1), ("B", 1)])]
    assert rate(games) == rate(list(reversed(games)))
    table = league_table(games)
    assert [(r.place, r.player_id, r.points, r.wins, r.games) for r in table] == [(1, "A", 1, 2, 3), (1, "B", 1, 2, 3)]


def test_a_log_that_is_not_the_held_one_carried_on_is_named():
    key = PublicKey(bytes(32))
    one, two = SignedEntry(1, "a", key, "s1"), SignedEntry(2, "b", key, "s2")
    held = ClubLog("Alder", "E", "kuwana", {}, ("A",), (one, two), None)
    assert extends(held, ClubLog("Alder", "E", "kuwana", {}, ("A",), (one, two, SignedEntry(3, "c", key, "s3")),
                                 None)) == ""
    assert "entries were removed" in extends(held, ClubLog("Alder", "E", "kuwana", {}, ("A",), (one,), None))
    assert "log entry 2 is not the one" in extends(
        held, ClubLog("Alder", "E", "kuwana", {}, ("A",), (one, SignedEntry(2, "B", key, "s2")), None))
    assert "player list" in extends(held, ClubLog("Alder", "E", "kuwana", {}, ("B",), (one, two), None))
