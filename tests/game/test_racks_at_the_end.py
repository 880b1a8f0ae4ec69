"""The racks laid open at the end, one after another: a rack left lying is not read again into the next,
a rack whose count is not the count recorded goes to the referee (never into the score), `correct` takes
several racks at once, and a game the rules cannot score stops with one line naming the remedy."""
from __future__ import annotations

import io

import pytest

from controller.adapters.display import ConsoleDisplay
from controller.adapters.referee import ConsoleReferee, ScriptedReferee
from controller.adapters.signals import SignalKind, TimerSignal
from controller.cli import main
from controller.game import judging
from controller.game.errors import GameNotScoredError
from controller.game.events import (
    Dealt, GameScored, RackRevealed, RefereeCorrection, StartOrderDrawn, TableRead, TurnEnded, TurnStarted,
)
from controller.game.journal import GameJournal
from controller.game.machine import State, apply, fold
from controller.game.racks import left_lying, rack_tiles
from controller.game.reading import ReadTile, TableReading
from controller.records import Records
from controller.table import STEPS, TableDevices, TableRunner
from recorded_games import Frames
from table_helpers import table

PLAYERS = ("Ann", "Ben", "Cat")
W = 40.0  # a tile's width in pixels
H = W / 0.74
# Ann goes out at her first turn: 14 tiles in two runs (rows 0 and 80 px, tiles 50 px apart)
ANN_OUT = table([f"R{n}" for n in range(1, 8)], [f"B{n}" for n in range(1, 8)])
BEN = ("K1",) + tuple(f"O{n}" for n in range(1, 13)) + ("J",)  # 14 tiles
CAT = tuple(f"K{n}" for n in range(1, 14)) + ("R13",)  # 14 tiles


def read(code: str, x: float, y: float, confidence: float = 0.97) -> ReadTile:
    corners = ((x - W / 2, y - H / 2), (x + W / 2, y - H / 2), (x + W / 2, y + H / 2), (x - W / 2, y + H / 2))
    return ReadTile(code, confidence, (x, y), corners, ())


def table_read(state=ANN_OUT) -> list[ReadTile]:
    return [read(code, x, y) for code, x, y in state.tiles]


def rack_row(codes, y: float) -> list[ReadTile]:
    return [read(code, 60.0 * (k + 1), y) for k, code in enumerate(codes)]


def ann_went_out(journal: GameJournal):
    for event in (StartOrderDrawn((), "Ann", None), Dealt(1), TurnStarted(1, "Ann", 60, None),
                  TurnEnded(1, "button", "1", 10), TableRead("turn", None, None, ANN_OUT.tiles, ANN_OUT.sets, (), ())):
        journal.record(event)
    model = journal.record(judging.judge(journal.model, ANN_OUT))
    assert model.state is State.REVEALING and model.winner == "Ann"
    return model


@pytest.fixture()
def revealing(tmp_path):
    """A game in `revealing`: Ann went out; Ben and Cat lay their racks open (14 tiles each)."""
    db = tmp_path / "racks.sqlite"
    records = Records(db)
    journal = GameJournal.start(records, judging.game_created("classic", PLAYERS))
    ann_went_out(journal)
    yield records, journal, db
    records.close()


# ------------------------------------------------------------------------ the reading of a rack


def test_a_rack_is_the_tiles_laid_since_the_previous_rack_was_read():
    ben_lying = TableReading(tuple(table_read() + rack_row(BEN, 400)), ())
    both = TableReading(tuple(table_read() + rack_row(BEN, 400) + rack_row(CAT, 500)), ())
    assert rack_tiles(ben_lying, ANN_OUT, lying=left_lying(None)).codes == BEN
    assert rack_tiles(both, ANN_OUT, lying=left_lying(ben_lying)).codes == CAT
    assert len(rack_tiles(both, ANN_OUT).codes) == 28  # what the table alone leaves: both racks


def test_a_rack_laid_where_the_previous_one_was_cleared_away_is_read_whole():
    ben_lying = TableReading(tuple(table_read() + rack_row(BEN, 400)), ())
    cat_in_its_place = TableReading(tuple(table_read() + rack_row(CAT, 400)), ())
    # CAT and BEN share K1, first in each row: that one tile is taken for Ben's, left lying (the count
    # then disagrees and the referee is asked); every other tile of Cat's is hers
    assert rack_tiles(cat_in_its_place, ANN_OUT, lying=left_lying(ben_lying)).codes == CAT[1:]


# ------------------------------------------------------------------------------- the state table


def test_a_rack_whose_count_does_not_fit_waits_for_the_referee_and_never_reaches_the_score(revealing):
    _, journal, _ = revealing
    model = apply(journal.model, RackRevealed("Ben", BEN, 14, None, None, ()))
    model = apply(model, RackRevealed("Cat", BEN + CAT, 14, None, None, ()))  # Ben's rack left lying, read again
    assert model.state is State.REVEALING and model.racks_to_check == ("Cat",) and not model.to_reveal()
    assert STEPS[model.state] is not STEPS[State.SCORING]  # the table scores only once every rack is known
    model = apply(model, RefereeCorrection(RefereeCorrection.rack_target("Cat"), (), CAT, "referee"))
    assert model.state is State.SCORING and model.racks_to_check == ()


# ------------------------------------------------------------------------------------ the table


class Pressed:
    """A box whose every wait is a press of seat 2's button."""

    def wait(self, timeout):
        return TimerSignal(SignalKind.PRESSED, button="2", seat=2)


class Reader:
    """Reads whatever the test has laid on the table now (the frames are a still rendered table)."""

    def __init__(self):
        self.now = TableReading((), ())

    def read(self, frame):
        return self.now


@pytest.fixture(scope="module")
def still_frames():
    from controller.demo.scene import Scene, SceneLayout, SceneRenderer

    renderer = SceneRenderer(SceneLayout(width=640, height=400, tile_width=32, seed=3))
    scene = Scene.of([{"tiles": ["K1", "K2", "K3"], "at": [0, 0]}])
    return [renderer.frame(scene, i) for i in range(8)]


def runner_for(records, journal, frames, referee, out):
    reader = Reader()
    devices = TableDevices(Frames(frames), Pressed(), reader, ConsoleDisplay(out=out), referee)
    return TableRunner(records, journal.game_id, devices), reader


def test_racks_left_lying_are_not_read_again_and_the_game_is_scored(revealing, still_frames):
    """Ben lays his rack open and leaves it; Cat lays hers below it: her reading is hers alone."""
    records, journal, _ = revealing
    out = io.StringIO()
    runner, reader = runner_for(records, journal, still_frames, ScriptedReferee(), out)
    reader.now = TableReading(tuple(table_read() + rack_row(BEN, 400)), ())
    runner.step_revealing()
    # a new process (a resume) learns from the records what lay on the table when Cat laid hers
    runner, reader = runner_for(records, journal, still_frames, ScriptedReferee(), out)
    reader.now = TableReading(tuple(table_read() + rack_row(BEN, 400) + rack_row(CAT, 500)), ())
    runner.step_revealing()
    assert "away from the sets and from the racks laid open before" in out.getvalue()
    shown = {e.player: e.codes for e in records.events(journal.game_id) if isinstance(e, RackRevealed)}
    assert shown == {"Ben": BEN, "Cat": CAT}
    assert runner.model.state is State.SCORING
    STEPS[runner.model.state](runner)
    assert runner.model.state is State.FINISHED


def test_a_rack_read_with_the_wrong_count_is_given_by_the_referee(revealing, still_frames):
    records, journal, _ = revealing
    out = io.StringIO()
    # a console referee who first presses Enter (refused: the count does not fit), then types the rack
    referee = ConsoleReferee(io.StringIO("\n" + " ".join(CAT) + "\n"), io.StringIO())
    runner, reader = runner_for(records, journal, still_frames, referee, out)
    journal_model = runner.record(RackRevealed("Ben", BEN, 14, None, None, ()))
    assert journal_model.state is State.REVEALING
    reader.now = TableReading(tuple(table_read() + rack_row(CAT, 500) + [read("K1", 500, 700)]), ())  # 15 read
    runner.step_revealing()  # laid open, and the referee asked at once: Enter is not taken as read
    assert runner.model.state is State.REVEALING and runner.model.racks_to_check == ("Cat",)
    assert "Cat's rack: 15 tiles read, 14 counted" in out.getvalue() and "is not taken as read" in out.getvalue()
    runner.step_revealing()  # asked again: the referee types the rack
    assert runner.model.state is State.SCORING and runner.model.laid_open("Cat") == CAT


# ------------------------------------------------------------------- a game the rules cannot score


@pytest.fixture()
def unscorable(revealing):
    """Ben's and Cat's racks as laid open both hold K1 twice (right counts, wrong codes): four K1; each
    really holds one, so a correction of either alone still leaves three."""
    records, journal, db = revealing
    ben = ("K1", "K1") + BEN[2:]
    cat = ("K1", "K1") + CAT[2:]
    journal.record(RackRevealed("Ben", ben, 14, None, None, ()))
    model = journal.record(RackRevealed("Cat", cat, 14, None, None, ()))
    assert model.state is State.SCORING
    return records, journal, db


def test_a_game_that_cannot_be_scored_stops_naming_the_remedy(unscorable, still_frames):
    records, journal, db = unscorable
    runner, _ = runner_for(records, journal, still_frames, ScriptedReferee(), io.StringIO())
    with pytest.raises(GameNotScoredError) as stopped:
        runner.step_scoring()
    line = str(stopped.value)
    assert "\n" not in line and "K1" in line and "tileref correct" in line and str(db) in line
    assert "--rack NAME --tiles" in line


def test_correct_takes_several_racks_at_once_and_scores_them_together(unscorable, capsys):
    records, journal, db = unscorable
    game = journal.game_id
    # one rack alone still leaves the other wrong: refused, nothing recorded
    assert main(["correct", "--db", str(db), "--game", str(game), "--rack", "Ben", "--tiles", " ".join(BEN)]) == 2
    assert "K1" in capsys.readouterr().err
    assert main(["correct", "--db", str(db), "--game", str(game), "--rack", "Ben", "--tiles", " ".join(BEN),
                 "--rack", "Cat", "--tiles", " ".join(CAT)]) == 0
    assert "Ben's and Cat's racks corrected; scored again" in capsys.readouterr().out
    with Records(db, create=False) as again:
        events = again.events(game)
        assert again.verify(game).ok
    model = fold(events)
    assert model.state is State.FINISHED and model.laid_open("Ben") == BEN and model.laid_open("Cat") == CAT
    assert isinstance(events[-1], GameScored) and events[-1].winner == "Ann"


def test_correct_refuses_racks_and_tiles_that_do_not_pair(unscorable, capsys):
    _, journal, db = unscorable
    assert main(["correct", "--db", str(db), "--rack", "Ben", "--tiles", "K1", "--rack", "Cat"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--rack given 2 times and --tiles 1 times" in err


def test_a_rack_with_the_wrong_count_and_no_referee_to_give_it_stops_naming_the_remedy(revealing, still_frames):
    """The console closed (a table run as a service): the game stops with one line saying how to give the
    rack, and it is still waiting for it (nothing scored as read)."""
    records, journal, db = revealing
    runner, reader = runner_for(records, journal, still_frames, ConsoleReferee(io.StringIO(""), io.StringIO()),
                                io.StringIO())
    runner.record(RackRevealed("Ben", BEN, 14, None, None, ()))
    reader.now = TableReading(tuple(table_read() + rack_row(CAT, 500) + [read("K1", 500, 700)]), ())
    with pytest.raises(GameNotScoredError) as stopped:
        runner.step_revealing()
    line = str(stopped.value)
    assert "\n" not in line and "Cat's rack was read with 15 tiles, 14 counted" in line
    assert f"tileref correct --db {db} --game {journal.game_id} --rack Cat --tiles" in line
    assert runner.model.state is State.REVEALING and runner.model.racks_to_check == ("Cat",)


@pytest.mark.parametrize("cut", [0.0, 0.5, 1.0, 1.5, 2.25])
def test_a_rack_laid_open_in_two_rows_reads_row_by_row_wherever_its_rows_lie(cut):
    """The same two rows, a pixel or two apart in height within a row, moved down by a share of a tile
    width: the order read is the same wherever the rows lie (rows cut into fixed bands were split)."""
    top = 300 + cut * W
    first = [("K5", 100, top), ("K6", 150, top + 2), ("B13", 200, top - 1.5), ("O9", 250, top + 1)]
    second = [("J", 100, top + 1.4 * W), ("R2", 150, top + 1.4 * W - 2)]
    reading = TableReading(tuple(read(code, x, y) for code, x, y in first + second), ())
    assert rack_tiles(reading, ANN_OUT).codes == ("K5", "K6", "B13", "O9", "J", "R2")
