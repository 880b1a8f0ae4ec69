"""A penalty that rests on tiles seen nowhere waits for the referee: the runner, fed a turn whose table
lost a tile (a scripted reader, a watch that settles at once), records no penalty until the referee
answers; "confirmed" records the penalty as judged, "tiles-there" reads the table again (or takes the
referee's codes); an answer where none is asked is refused naming the state and the event; the
console referee answers at the table; the record keeps the answers and still verifies."""
from __future__ import annotations

import io
import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from controller.adapters.display import ConsoleDisplay
from controller.adapters.photos import FramePhotos
from controller.adapters.referee import ConsoleReferee, RefereeError, ScriptedReferee
from controller.adapters.signals import SignalKind, TimerSignal
from controller.adapters.waiting import WaitReport
from controller.game import judging
from controller.game.errors import TransitionError
from controller.game.events import (
    Dealt, HeldAnswer, HeldPenaltyAnswered, PenaltyHeld, StartOrderDrawn, TableRead, TurnEnded, TurnJudged,
    TurnStarted,
)
from controller.game.journal import GameJournal
from controller.game.machine import State, apply, fold
from controller.game.reading import ReadTile, TableReading
from controller.records import Records
from controller.records.record_file import dumps, export_record, import_record, verify_record
from controller.records.reports.turn_data import audit_data
from controller.records.reports.views import replay_lines
from controller.rules.judge import Rule
from controller.table import STEPS, TableDevices, TableRunner
from controller.table.settings import LOOK_AGAIN
from vision.eyes_values import ReadFrames, SettledLook, TimedFrame

OPENED = ("K10", "K11", "K12", "K13")  # Ann's opening meld, on the table before Ben's turn
STEP_LIMIT = 40
AT = "2026-11-26T02:00:00Z"


def placed(codes):
    return tuple((code, 100.0 + 40.0 * k, 120.0) for k, code in enumerate(codes))


def reading(codes) -> TableReading:
    tiles = tuple(ReadTile(code, 0.99, (x, y), ((x - 15, y - 20), (x + 15, y - 20), (x + 15, y + 20), (x - 15, y + 20)))
                  for code, x, y in placed(codes))
    return TableReading(tiles, (tuple(range(len(tiles))),) if tiles else ())


class Watch:
    """The eyes, settled at once on one frame (the eyes themselves are tested in test_looking/vision)."""

    def __init__(self):
        self.image = np.full((90, 120, 3), 200, np.uint8)
        self.at = 0.0

    def begin(self, reference, on_wait, ask=None):
        pass

    def offered(self, read_early=None):
        self.at += 1.0
        return ReadFrames((TimedFrame(self.image, self.at),))

    def explain(self, frames, tiles):
        return SettledLook(frames, ("settled at once",))

    def settled(self, look):
        return WaitReport(look.frames[-1].image, 1, 0, 0, 0.0, look.checks)

    def frame(self):
        return self.image

    def moved(self, frame, since):
        return False


class Reader:
    """Reads each frame as the next of `readings` (the last one for ever after)."""

    def __init__(self, *readings):
        self.readings = list(readings)
        self.calls = 0

    def read(self, frame):
        self.calls += 1
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


class Box:
    """The timer box: Ben's button once his turn runs; otherwise nothing pressed."""

    def __init__(self):
        self.presses = [TimerSignal(SignalKind.PRESSED, button="2", seat=2, seconds_left=20)]

    def start_turn(self, seat, seconds):
        pass

    def arm(self, seat, seconds):
        pass

    def stop(self):
        pass

    def show(self, text):
        pass

    def wait(self, timeout):
        return self.presses.pop(0) if self.presses and timeout >= 0.2 else None

    def close(self):
        pass


def opened_events() -> list:
    """Ann opened with K10-K13; Ben's turn 2 is next."""
    events = [judging.game_created("classic", ("Ann", "Ben")), StartOrderDrawn((), "Ann", None), Dealt(1),
              TurnStarted(1, "Ann", 60, None), TurnEnded(1, "button", "1", 30),
              TableRead("turn", None, None, placed(OPENED), ((0, 1, 2, 3),), (), ())]
    model = fold(events)
    return events + [judging.judge(model, model.pending)]


@pytest.fixture()
def opened_game(tmp_path):
    records = Records(tmp_path / "held.sqlite")
    first, *rest = opened_events()
    journal = GameJournal.start(records, first)
    for event in rest:
        journal.record(event)
    assert journal.model.state is State.TURN_READY
    yield records, journal.game_id
    records.close()


def runner_for(records, game_id, reader, referee):
    devices = TableDevices(None, Box(), reader, ConsoleDisplay(quiet=True), referee, watch=Watch(),
                           photos=FramePhotos(".png"))
    return TableRunner(records, game_id, devices)


def run_until(runner, *states):
    """Step the runner (at least once) until the game is in one of `states`."""
    for _ in range(STEP_LIMIT):
        STEPS[runner.model.state](runner)
        if runner.model.state in states:
            return runner.model
    raise AssertionError(f"the game did not reach {states}: it is {runner.model.state.value}")


def ben_turn(records, game_id, events) -> list:
    return [e for e in records.events(game_id) if getattr(e, "turn", None) == 2 and isinstance(e, events)]


def test_no_penalty_is_recorded_before_the_referee_answers_and_a_confirmation_records_it_as_judged(opened_game):
    records, game_id = opened_game
    gone = reading(OPENED[:3])  # K13 is seen nowhere, however often the table is looked at
    reader = Reader(gone)
    referee = ScriptedReferee()  # no answer yet: the game must wait, not judge
    runner = runner_for(records, game_id, reader, referee)
    held = run_until(runner, State.PENALTY_HELD)
    assert reader.calls == LOOK_AGAIN + 1  # looked at again before anything was held
    assert ben_turn(records, game_id, TurnJudged) == []
    assert held.penalties == (0, 0) and held.racks == (10, 14)
    [event] = ben_turn(records, game_id, PenaltyHeld)
    assert [tile.code for tile in event.vanished] == ["K13"] and event.vanished[0].x == 220.0
    assert any(rule is Rule.TABLE_TILE_TAKEN for rule, _ in event.violations)
    assert event.photo_before is not None and event.photo is not None
    assert records.photo(event.photo_before) is not None and records.photo(event.photo) is not None
    with pytest.raises(RefereeError, match="no answer"):
        STEPS[runner.model.state](runner)  # a script without an answer stops; it never guesses
    assert ben_turn(records, game_id, TurnJudged) == []

    referee.held = {2: ["confirmed"]}
    after = run_until(runner, State.RESTORING)
    [answer] = ben_turn(records, game_id, HeldPenaltyAnswered)
    assert answer.answer is HeldAnswer.CONFIRMED and answer.referee == "arbiter at the table" and answer.at
    [verdict] = ben_turn(records, game_id, TurnJudged)
    assert verdict.outcome == "penalty" and verdict.taken == ("K13",) and verdict.restore_required
    kinds = [e.kind.value for e in records.events(game_id)][-4:]
    assert kinds == ["table-read", "penalty-held", "held-penalty-answered", "turn-judged"]
    assert after.held is None and records.verify(game_id).ok


def test_tiles_there_reads_the_table_again_and_the_turn_is_judged_on_what_is_seen(opened_game):
    records, game_id = opened_game
    looks = LOOK_AGAIN + 1
    reader = Reader(*[reading(OPENED[:3])] * looks, reading(OPENED))  # the hand is gone: K13 is there
    runner = runner_for(records, game_id, reader, ScriptedReferee(held={2: ["tiles-there"]}))
    after = run_until(runner, State.TURN_READY)
    assert after.turn == 2 and after.penalties == (0, 0) and after.racks == (10, 15)  # Ben drew, no penalty
    [answer] = ben_turn(records, game_id, HeldPenaltyAnswered)
    assert answer.answer is HeldAnswer.TILES_THERE and answer.changes == ()
    reads = [e for e in records.events(game_id) if isinstance(e, TableRead)]
    assert len(reads) == 3 and reads[-1].tiles == placed(OPENED)  # Ann's, and Ben's twice
    [verdict] = ben_turn(records, game_id, TurnJudged)
    assert verdict.outcome == "draw" and all(rule is Rule.NO_TILE_PLAYED for rule, _ in verdict.violations)
    assert records.verify(game_id).ok


def held_model(records, game_id):
    """Ben's turn 2 read without K13, held for the referee (the machine alone, no runner)."""
    model = fold(records.events(game_id))
    for event in (TurnStarted(2, "Ben", 60, None), TurnEnded(2, "button", "2", 20),
                  TableRead("turn", None, None, placed(OPENED[:3]), ((0, 1, 2),), (), ())):
        model = apply(model, event)
    verdict = judging.judge(model, model.pending)
    held = judging.held_penalty(model, verdict)
    assert held is not None
    return apply(model, held), verdict


def test_an_answer_that_does_not_fit_is_refused_naming_the_state_and_the_event(opened_game):
    records, game_id = opened_game
    model = fold(records.events(game_id))
    answer = HeldPenaltyAnswered(1, "Ann", "confirmed", (), "Rita", AT, "it left")
    with pytest.raises(TransitionError) as caught:
        apply(model, answer)  # nothing is held between turns
    assert "'turn-ready'" in str(caught.value) and "'held-penalty-answered'" in str(caught.value)
    held, verdict = held_model(records, game_id)
    assert held.state is State.PENALTY_HELD
    with pytest.raises(TransitionError) as caught:
        apply(held, verdict)  # the verdict itself is not recorded while the referee is asked
    assert "'penalty-held'" in str(caught.value) and "'turn-judged'" in str(caught.value)
    with pytest.raises(TransitionError, match="turn 1"):
        apply(held, answer)  # another turn's answer
    with pytest.raises(TransitionError, match="referee"):
        apply(held, HeldPenaltyAnswered(2, "Ben", "confirmed", (), " ", AT, "it left"))


def test_the_referees_codes_are_judged_at_once(opened_game):
    records, game_id = opened_game
    held, _ = held_model(records, game_id)
    # the referee says tile 2 (read as K12) is K13: the table is judged on their word
    told = apply(held, HeldPenaltyAnswered(2, "Ben", "tiles-there", ((2, "K13"),), "Rita", AT, "misread"))
    assert told.state is State.TURN_JUDGING and told.pending.melds == (("K10", "K11", "K13"),)
    assert told.held is None
    confirmed = apply(held, HeldPenaltyAnswered(2, "Ben", "confirmed", (), "Rita", AT, "it left"))
    assert judging.held_penalty(confirmed, judging.judge(confirmed, confirmed.pending)) is None


def test_tiles_there_twice_in_a_turn_puts_them_back_where_they_lay_and_the_turn_is_judged(opened_game):
    """A camera that never sees the tiles (a clipped white top): the referee is not asked for ever."""
    records, game_id = opened_game
    held, _ = held_model(records, game_id)
    again = apply(held, HeldPenaltyAnswered(2, "Ben", "tiles-there", (), "Rita", AT, "they are there"))
    assert again.state is State.TURN_READING and again.read_again_for == 2
    again = apply(again, TableRead("turn", None, None, placed(OPENED[:3]), ((0, 1, 2),), (), ()))
    verdict = judging.judge(again, again.pending)
    held_again = apply(again, judging.held_penalty(again, verdict))
    told = apply(held_again, HeldPenaltyAnswered(2, "Ben", "tiles-there", (), "Rita", AT, "still there"))
    assert told.state is State.TURN_JUDGING and told.pending.melds == (OPENED,)
    verdict = judging.judge(told, told.pending)
    assert verdict.outcome == "draw" and judging.held_penalty(told, verdict) is None


def test_tiles_put_back_join_the_set_that_holds_the_rest_of_theirs_or_lie_as_their_old_set():
    from controller.game.machine import TableState

    before = TableState(placed(OPENED) + (("R5", 100.0, 300.0), ("R6", 140.0, 300.0), ("R7", 180.0, 300.0)),
                        ((0, 1, 2, 3), (4, 5, 6)))
    # K11 and the whole red run vanished; the K10 K12 K13 seen a pixel or two away, read as one set
    seen = TableState((("K10", 101.0, 121.0), ("K12", 181.0, 119.0), ("K13", 219.0, 120.0)), ((0, 1, 2),))
    back = seen.with_tiles_back(before, (before.tiles[1],) + before.tiles[4:])
    assert back.melds == (("K10", "K11", "K12", "K13"), ("R5", "R6", "R7"))
    assert back.tiles[3] == before.tiles[1]
    # a code the table read already holds as often as before stays out (it was read, misread or moved)
    assert seen.with_codes(((1, "K11"),)).with_tiles_back(before, (before.tiles[1],)).tile_count == 3


OPENED_EVENTS = opened_events()


@settings(max_examples=30, deadline=None)
@given(kept=st.lists(st.sampled_from(OPENED), unique=True, max_size=4), extra=st.sampled_from(("R1", "B7", "O13")))
def test_a_penalty_is_held_exactly_when_a_tile_of_the_table_is_seen_nowhere(kept, extra):
    """Whatever Ben's table shows: held iff the verdict is a penalty for a tile of the table that is
    gone, and the held tiles are exactly those gone."""
    model = fold(OPENED_EVENTS)
    codes = tuple(code for code in OPENED if code in kept) + (extra,)
    for event in (TurnStarted(2, "Ben", 60, None), TurnEnded(2, "button", "2", 20),
                  TableRead("turn", None, None, placed(codes), ((tuple(range(len(codes)))),), (), ())):
        model = apply(model, event)
    verdict = judging.judge(model, model.pending)
    held = judging.held_penalty(model, verdict)
    gone = sorted(set(OPENED) - set(kept))
    assert (held is not None) == (verdict.outcome == "penalty" and bool(gone))
    if held is not None:
        assert sorted(tile.code for tile in held.vanished) == gone


def test_the_console_referee_answers_a_held_penalty_at_the_table(opened_game):
    records, game_id = opened_game
    held, _ = held_model(records, game_id)
    out = io.StringIO()
    answers = [ConsoleReferee(io.StringIO(line), out).held_penalty(held, held.held)
               for line in ("c\n", "\n", "maybe\n2 K13\n")]
    assert answers[0][:2] == (HeldAnswer.CONFIRMED, ())
    assert answers[1][:2] == (HeldAnswer.TILES_THERE, ())
    assert answers[2][:2] == (HeldAnswer.TILES_THERE, ((2, "K13"),))
    assert "K13 at (220, 120)" in out.getvalue() and "not c, Enter" in out.getvalue()


def test_the_record_keeps_the_answers_and_the_audit_shows_them(opened_game, tmp_path):
    records, game_id = opened_game
    runner = runner_for(records, game_id, Reader(reading(OPENED[:3])), ScriptedReferee(held={2: ["confirmed"]}))
    run_until(runner, State.RESTORING)
    document = json.loads(dumps(export_record(records, game_id)))
    kinds = [row["kind"] for row in document["events"]]
    assert "penalty-held" in kinds and "held-penalty-answered" in kinds
    assert verify_record(document, "held.json").report.ok
    with Records(tmp_path / "copy.sqlite") as copy:
        new_id, written = import_record(copy, document, "held.json")
        assert written and copy.verify(new_id).ok
        assert copy.events(new_id) == records.events(game_id)
        assert fold(copy.events(new_id)) == fold(records.events(game_id))
    audit = audit_data(records, game_id, 2)
    assert audit["held_answers"][0]["referee"] == "arbiter at the table"
    assert audit["held"][0]["before"]["tiles"][0]["label"] == "K13"
    lines = [line for block in replay_lines(records, game_id) for line in block]
    assert any("penalty held for the referee" in line and "K13" in line for line in lines)
    assert any("confirms the penalty" in line for line in lines)


def test_a_tile_put_back_joins_its_run_moved_whole_next_to_its_old_neighbours():
    """A run extended by laying it elsewhere whole (K9 in front), its K12 missed by the reader: the referee
    says it is there, and it joins the run that holds the rest of its old set, between K11 and K13."""
    from controller.game.machine import TableState

    before = TableState(placed(OPENED) + (("R5", 100.0, 300.0), ("R6", 140.0, 300.0), ("R7", 180.0, 300.0)),
                        ((0, 1, 2, 3), (4, 5, 6)))
    seen = TableState((("R5", 101.0, 301.0), ("R6", 141.0, 299.0), ("R7", 181.0, 300.0),
                       ("K9", 400.0, 500.0), ("K10", 440.0, 500.0), ("K11", 480.0, 500.0), ("K13", 560.0, 500.0)),
                      ((0, 1, 2), (3, 4, 5, 6)))
    back = seen.with_tiles_back(before, (before.tiles[2],))
    assert sorted(back.melds) == sorted((("R5", "R6", "R7"), ("K9", "K10", "K11", "K12", "K13")))
    # two sets holding the rest of its codes: no set can be told for it, and it lies alone as before
    twice = TableState(seen.tiles + (("K10", 400.0, 700.0), ("K11", 440.0, 700.0), ("K13", 480.0, 700.0)),
                       seen.sets + ((7, 8, 9),))
    assert ("K12",) in twice.with_tiles_back(before, (before.tiles[2],)).melds
