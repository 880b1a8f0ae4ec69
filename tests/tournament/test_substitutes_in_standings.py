"""Every substitute a player had shows on the player's row (standings, CSV), not only the last one; an
amendment naming a substitute is noted on the row of the player whose seat they took."""
from controller.tournament import Change, ChangeKind, RummikubGameResult as G, create_event, enter_results, standings
from controller.tournament.event import record_change
from controller.tournament.render import standings_csv
from tournament_results import hand_round, with_round

PLAYERS = ["Emi", "B", "C", "D", "E", "F", "G", "H"]


def substituted_twice():
    event = with_round(create_event("k", "kuwana", PLAYERS), hand_round(1, [["Emi", "B", "C", "D"], list("EFGH")], 3))
    event = record_change(event, Change(ChangeKind.SUBSTITUTE, "a call", game="R1-T1-G1", player="Emi", substitute="Rie"))
    event = record_change(event, Change(ChangeKind.SUBSTITUTE, "a train", game="R1-T1-G2", player="Emi", substitute="Sam"))
    return enter_results(event, [G("R1-T1-G1", {"Rie": 100, "B": -10, "C": -20, "D": -70}, "Rie"),
                                 G("R1-T1-G2", {"Sam": -10, "B": 100, "C": -20, "D": -70}, "B")])


def test_every_substitute_of_a_player_is_on_the_players_row_and_their_points_count():
    table = standings(substituted_twice())
    emi = next(r for r in table.sections[1].rows if r.player == "Emi")
    assert emi.values[1:4] == (2, 1, 90)  # both games, Rie's win, 100 - 10
    assert "Rie played R1-T1-G1 for them" in emi.note and "Sam played R1-T1-G2 for them" in emi.note
    csv = standings_csv(table)
    assert "Rie played R1-T1-G1 for them" in csv and "Sam played R1-T1-G2 for them" in csv


def test_an_amendment_naming_a_substitute_is_noted_for_the_seats_player():
    event = record_change(substituted_twice(), Change(ChangeKind.AMEND, "typo", game="R1-T1-G1",
                                                      result=G("R1-T1-G1", {"Rie": 100, "B": -20, "C": -10, "D": -70}, "Rie")))
    notes = {r.player: r.note for r in standings(event).sections[0].rows}
    assert "amended: R1-T1-G1" in notes["Emi"] and "amended: R1-T1-G1" in notes["B"]
