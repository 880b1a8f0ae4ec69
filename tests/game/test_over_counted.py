"""A referee's answers that leave a code on the table more often than a set holds it (the doubtful tile
answered R5 while another tile was read R5 sure, twice) are never judged: every copy of that code is asked
about again, and only answers the rules can judge are recorded. The runner used to stop on such a table."""
from __future__ import annotations

from controller.adapters.display import ConsoleDisplay
from controller.game import judging
from controller.game.events import NO_TILE, Dealt, RefereeCorrection, StartOrderDrawn, TableRead, TurnEnded, TurnStarted
from controller.game.journal import GameJournal
from controller.game.judging import over_counted
from controller.game.machine import State, TableState
from controller.records import Records
from controller.table import TableDevices, TableRunner

TILES = (("R5", 0.0, 0.0), ("R6", 40.0, 0.0), ("R7", 80.0, 0.0), ("R5", 0.0, 100.0), ("B5", 40.0, 100.0),
         ("K5", 80.0, 100.0), ("O4", 0.0, 200.0), ("O5", 40.0, 200.0), ("O6", 80.0, 200.0))
READ = TableState(TILES, ((0, 1, 2), (3, 4, 5), (6, 7, 8)))  # O5 is doubtful: R5 or O5


class Referee:
    """Answers the doubt R5 (a third R5), then, asked about every R5, says which one is O5."""

    def __init__(self):
        self.asked = []

    def settle_table(self, model, table, doubts):
        self.asked.append(tuple(d.index for d in doubts))
        if len(self.asked) == 1:
            return ((7, "R5"),), "looked from afar"
        return ((7, "O5"),), "looked again"


def test_over_counted_names_the_code_and_every_copy_of_it_after_the_answers():
    assert over_counted(READ, {}) is None
    assert over_counted(READ, {7: "R5"}) == ("R5", (0, 3, 7))
    assert over_counted(READ, {7: "R5", 3: NO_TILE}) is None  # a copy answered "no tile there" leaves it


def test_answers_that_make_a_third_copy_are_asked_again_and_the_turn_is_judged(tmp_path):
    records = Records(tmp_path / "over.sqlite")
    journal = GameJournal.start(records, judging.game_created("classic", ("Ann", "Ben")))
    journal.record(StartOrderDrawn((), "Ann", None))
    journal.record(Dealt(1))
    referee = Referee()
    runner = TableRunner(records, journal.game_id, TableDevices(None, None, None, ConsoleDisplay(quiet=True), referee))
    runner.record(TurnStarted(1, "Ann", 60, None))
    runner.record(TurnEnded(1, "button", "1", 40))
    after = runner.record(TableRead("turn", None, None, READ.tiles, READ.sets, ((7, ("R5", "O5"), "unsure"),), ()))
    assert after.state is State.REFEREE_CHECK
    runner.step_referee_check()
    assert referee.asked == [(7,), (0, 3, 7)]  # every R5 of the table as answered
    corrections = [e for e in records.events(journal.game_id) if isinstance(e, RefereeCorrection)]
    assert [c.changes for c in corrections] == [((7, "O5"),)]
    assert runner.model.state is State.TURN_JUDGING
    runner.step_turn_judging()  # the rules judge it: 30 points opened, never a count error
    assert runner.model.state is not State.TURN_JUDGING
    records.close()
