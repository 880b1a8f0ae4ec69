"""A Rummikub game played at a table for a tournament game, turn by turn, straight into the club's
database (the notation test's recorded table, linked to the event as `tileref play --event` links)."""
from __future__ import annotations

from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn
from controller.game.journal import GameJournal
from controller.records import Records

from tests.records.test_notation import Table

# seat 1 lays all fourteen tiles in four turns (an opening of 33), the others draw each time
SEAT_ONE_TURNS = (["K10 K11 K12"], ["K10 K11 K12", "R3 R4 R5"], ["K10 K11 K12", "R3 R4 R5", "B1 B2 B3 B4"],
                  ["K10 K11 K12", "R3 R4 R5", "B1 B2 B3 B4", "O9 O10 O11 O12"])
RACKS = ("K1 K2 K3 K4 K5 K6 K7 K8 K9 K13 B5 B6 B7 B8 B9 B10 B11",
         "K1 K2 K3 K4 K5 K6 K7 K8 K9 K13 B5 B6 B7 B8 B9 B10 B11",
         "R6 R7 R8 R9 R10 R11 R12 R13 O1 O2 O3 O4 O5 O6 O7 O8 O13")


class LinkedTable(Table):
    def __init__(self, records: Records, seats: tuple[str, ...], event: str, game: str, table_name: str) -> None:
        self.journal = GameJournal.start(records, judging.game_created("japan-2017", seats), event=event,
                                         tournament_game=game, table_name=table_name)
        self.journal.record(StartOrderDrawn((), seats[0], None))
        self.journal.record(Dealt(1))
        self.laid: list[str] = []
        self.turns = 0


def seat_one_goes_out(records: Records, seats: tuple[str, ...], event: str, game: str) -> int:
    table = LinkedTable(records, seats, event, game, "table 1")
    for melds in SEAT_ONE_TURNS:
        table.turn(seats[0], melds)
        if melds is SEAT_ONE_TURNS[-1]:
            break
        for other in seats[1:]:
            table.turn(other, melds)
    table.reveal(dict(zip(seats[1:], RACKS)))
    return table.game
