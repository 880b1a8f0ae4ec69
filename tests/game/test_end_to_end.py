"""A whole 4-player game from rendered frames: the real photo reader, the emulated timer box on a
real pty driven through pyserial, the rules core, and a real SQLite records file.

The recorded game (controller/demo_games/game.json) has legal turns, two draws, a turn that runs out of
time with an invalid set (penalty, a wrong restore, then the right one), a joker swapped out and
played on, and an empty rack that ends the game; the losers' racks are read off the table.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from controller.demo_games import bundled_game
from controller.demo.recorded_game import GameScript
from controller.cli import main
from controller.game.events import (
    CountAlert, DealAccepted, Dealt, GameScored, RackRevealed, RedealClaimed, RestoreChecked, StartOrderDrawn,
    TableRead, TableUnrestorable, TurnEnded, TurnJudged, TurnStarted,
)
from controller.game.machine import TILES_IN_GAME, TableState, fold
from controller.records import Records
from controller.records.reports.views import semantic_log
from controller.rules import scoring
from controller.rules.tiles import parse_tiles

SCRIPT = bundled_game("game")
GOLDEN = Path(__file__).with_name("golden") / "demo-events.json"


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    code = main(["demo", "--out", str(out), "--quiet"])
    records = Records(out / "demo.sqlite", create=False)
    game = records.latest_game()
    yield code, out, records, game, records.events(game)
    records.close()


def test_the_demo_game_finishes_with_an_intact_record(demo):
    code, out, records, game, events = demo
    assert code == 0
    report = records.verify(game)
    assert report.ok and report.events == len(events)
    assert isinstance(events[-1], GameScored)


def test_every_verdict_is_the_one_the_script_expects(demo):
    _, _, _, _, events = demo
    script = GameScript.load(SCRIPT)
    verdicts = [e for e in events if isinstance(e, TurnJudged)]
    assert [(v.player, v.outcome) for v in verdicts] == [(t.player, t.expect) for t in script.turns]


def test_the_tables_read_are_the_tables_laid(demo):
    _, _, _, _, events = demo
    script = GameScript.load(SCRIPT)
    reads = [TableState(e.tiles, e.sets).melds for e in events if isinstance(e, TableRead) and e.purpose == "turn"]
    laid = [tuple(tuple(m) for m in turn.table.codes()) for turn in script.turns]
    assert [sorted(r) for r in reads] == [sorted(m) for m in laid]


def test_the_penalty_turn_ran_out_of_time_and_was_restored_after_a_wrong_try(demo):
    _, _, _, _, events = demo
    ended = {e.turn: e.cause for e in events if isinstance(e, TurnEnded)}
    assert ended[6] == "expired" and all(cause == "button" for turn, cause in ended.items() if turn != 6)
    checks = [e for e in events if isinstance(e, RestoreChecked)]
    assert [c.matches for c in checks] == [False, True]
    assert any("B1" in d for d in checks[0].differences)
    penalty = next(e for e in events if isinstance(e, TurnJudged) and e.outcome == "penalty")
    assert penalty.draw == 3 and set(penalty.restore_to_rack) == {"B1", "B2"}


def test_the_joker_swap_is_read_where_the_joker_lay(demo):
    _, _, _, _, events = demo
    joker_turn = next(e for e in events if isinstance(e, TurnJudged) and e.turn == 7)
    assert sorted(joker_turn.played) == ["O4", "O5", "R4"] and joker_turn.outcome == "legal"
    read = [e for e in events if isinstance(e, TableRead) and e.purpose == "turn"][6]
    melds = TableState(read.tiles, read.sets).melds
    assert ("R3", "R4", "R5") in melds and ("O4", "O5", "J") in melds


def test_racks_are_read_off_the_table_and_scored_by_the_rules_core(demo):
    _, _, _, _, events = demo
    script = GameScript.load(SCRIPT)
    revealed = {e.player: e.codes for e in events if isinstance(e, RackRevealed)}
    assert {p: sorted(c) for p, c in revealed.items()} == {p: sorted(c) for p, c in script.racks.items()}
    assert all(len(e.codes) == e.expected for e in events if isinstance(e, RackRevealed))
    expected = scoring.score_game(scoring.GameRecord(
        players=script.players, starter="Ann", end=scoring.GameEnd.EMPTY_RACK, winner="Cat",
        racks={p: parse_tiles(c) for p, c in script.racks.items()},
        opened={"Ann": True, "Ben": False, "Cat": True, "Dan": True}, penalties={"Ben": 1}), "classic")
    scored = events[-1]
    assert scored.winner == "Cat" and dict(scored.scores) == expected.scores


def test_every_turn_has_its_photos_and_readings_in_the_record(demo):
    _, _, records, _, events = demo
    for event in events:
        if isinstance(event, TurnStarted):
            assert records.photo(event.photo).mime == "image/jpeg"
        if isinstance(event, TableRead):
            assert records.photo(event.photo) is not None
            assert len(records.reading(event.reading).reading["tiles"]) == len(event.tiles)


def test_the_audit_page_of_the_penalty_turn_shows_photos_and_why(demo):
    _, out, *_ = demo
    page = (out / "audit-turn-6.html").read_text()
    assert page.count("data:image/jpeg;base64,") >= 3  # start, end, restore checks
    assert "penalty" in page and "invalid-set" in page and "B1 B2" in page


def test_the_event_log_matches_the_golden_file(demo):
    _, _, _, _, events = demo
    log = semantic_log(events)
    if os.environ.get("TILEREF_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(log, indent=1) + "\n")
    assert log == json.loads(GOLDEN.read_text())


def test_a_referee_correction_of_a_rack_is_recorded_and_rescored(demo, tmp_path, capsys):
    import shutil

    _, out, records, game, events = demo
    copy = tmp_path / "copy.sqlite"
    records.db.execute("PRAGMA wal_checkpoint(FULL)")
    shutil.copy(out / "demo.sqlite", copy)
    before = dict(events[-1].scores)
    assert main(["correct", "--db", str(copy), "--game", str(game), "--rack", "Ann", "--tiles", "K5 K6 B13 O9",
                 "--note", "the joker was Dan's"]) == 0
    with Records(copy, create=False) as again:
        assert again.verify(game).ok
        tail = again.events(game)[-2:]
    assert tail[0].kind.value == "referee-correction" and tail[0].note == "the joker was Dan's"
    after = dict(tail[1].scores)
    assert after["Ann"] == before["Ann"] + 30 and after["Cat"] == before["Cat"] - 30
    assert main(["correct", "--db", str(copy), "--game", str(game), "--rack", "Cat", "--tiles", "K5"]) == 2
    assert "Cat" in capsys.readouterr().err


def test_a_refused_correction_records_nothing_and_leaves_the_game_finished(demo, tmp_path, capsys):
    """Ben's rack 'corrected' to K5 K5 K5 is applied by the machine but refused by the scoring (four
    K5 in the racks): neither the correction nor a score is written, and the game stays finished."""
    import shutil
    import sqlite3

    _, out, records, game, _ = demo
    copy = tmp_path / "copy.sqlite"
    records.db.execute("PRAGMA wal_checkpoint(FULL)")
    shutil.copy(out / "demo.sqlite", copy)

    def row():
        with sqlite3.connect(copy) as db:
            return db.execute("SELECT state, events, head_hash FROM games WHERE id=?", (game,)).fetchone(), \
                db.execute("SELECT count(*) FROM events WHERE game_id=?", (game,)).fetchone()[0]

    before = row()
    assert before[0][0] == "finished"
    assert main(["correct", "--db", str(copy), "--game", str(game), "--rack", "Ben", "--tiles", "K5 K5 K5"]) == 2
    assert "K5" in capsys.readouterr().err
    assert row() == before
    with Records(copy, create=False) as again:
        assert again.verify(game).ok and fold(again.events(game)).state.value == "finished"


# --- world (003): a redeal after the deal, and a failed turn whose table cannot be restored -------

WORLD_SCRIPT = bundled_game("world-game")


@pytest.fixture(scope="module")
def world_demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("world-demo")
    code = main(["demo", "--script", "world-game", "--out", str(out), "--quiet"])
    records = Records(out / "demo.sqlite", create=False)
    game = records.latest_game()
    yield code, out, records, game, records.events(game)
    records.close()


def test_world_demo_finishes_every_verdict_as_scripted(world_demo):
    code, _, records, game, events = world_demo
    assert code == 0 and records.verify(game).ok
    script = GameScript.load(WORLD_SCRIPT)
    verdicts = [e for e in events if isinstance(e, TurnJudged)]
    assert [(v.player, v.outcome) for v in verdicts] == [(t.player, t.expect) for t in script.turns]
    created = events[0]
    assert dict(created.ruleset)["unrestorable_tiles"] == "offender-takes-loose" and created.turn_seconds == 40


def test_world_starter_is_named_and_the_redeal_is_asked_after_the_deal_for_everyone(world_demo):
    """003 "Grę rozpoczyna najmłodsza osoba lub wylosowana": no start draw; 003 rule 2: a player with three
    doubled tiles may ask, right after the deal, for a reshuffle and a deal for everyone."""
    _, _, _, _, events = world_demo
    drawn = next(e for e in events if isinstance(e, StartOrderDrawn))
    assert drawn.starter == "Ann" and drawn.draws == ()
    claim = next(e for e in events if isinstance(e, RedealClaimed))
    assert claim.player == "Ben" and claim.granted  # not the starter, and before any turn
    kinds = [e.kind.value for e in events]
    assert kinds.index("redeal-claimed") < kinds.index("turn-started")
    assert [e.deal for e in events if isinstance(e, Dealt)] == [1, 2]
    assert [e.deal for e in events if isinstance(e, DealAccepted)] == [2]


def test_world_failed_turn_whose_table_cannot_be_restored(world_demo):
    """003 rule 6: the table cannot be put back, so the offender takes every tile not in a valid set; the
    exact solver lays what it can of the loose tiles (O1 O2 O3 again), Ben takes B1 B2 and draws 1."""
    _, out, _, _, events = world_demo
    given_up = next(e for e in events if isinstance(e, TableUnrestorable))
    assert given_up.turn == 6 and given_up.player == "Ben"
    assert sorted(given_up.to_offender) == ["B1", "B2"] and given_up.to_pool == () and given_up.relay
    assert ("O1", "O2", "O3") in given_up.kept and given_up.rack_change == 0
    checks = [e for e in events if isinstance(e, RestoreChecked)]
    assert [c.matches for c in checks] == [False, True] and not checks[-1].by_referee
    # the counts hold all game long: no alert, and Ben's rack is what the count says
    assert not [e for e in events if isinstance(e, CountAlert)]
    model = fold(events)
    assert model.penalties[1] == 1 and model.tiles_counted == TILES_IN_GAME
    ben = next(e for e in events if isinstance(e, RackRevealed) and e.player == "Ben")
    assert len(ben.codes) == ben.expected == 17
    page = (out / "audit-turn-6.html").read_text()
    assert "could not be restored" in page and "offender-takes-loose" in page


def test_world_joker_freed_into_another_set_and_big_points(world_demo):
    _, _, _, _, events = world_demo
    swap = next(e for e in events if isinstance(e, TurnJudged) and e.turn == 7)
    assert swap.outcome == "legal" and not swap.violations
    scored = events[-1]
    assert scored.winner == "Cat" and dict(scored.wins) == {"Ann": 0, "Ben": 0, "Cat": 1, "Dan": 0}
    assert dict(scored.scores)["Ben"] == -200  # never opened, though the rack shown could have


# --- the game notation (docs/notation.md) of the bundled demo games ---------------------------------


def _notation_holds_and_matches_its_golden_file(records, game, events, golden: Path) -> None:
    """Each line read back and checked against its turn's events (by `check_notation`, and here field by
    field from the events themselves); the lines two runs share are the golden file's
    (TILEREF_UPDATE_GOLDEN=1 rewrites it)."""
    from controller.records.reports.moves import check_notation, game_notation_of, game_reading, machine_independent
    from controller.records.reports.notation import format_notation, parse_notation

    notation = game_notation_of(records, game)
    text = format_notation(notation)
    assert check_notation(text, notation, game_reading(records.recorded(game))) == len(notation.turns)
    started = {e.turn: e for e in events if isinstance(e, TurnStarted)}
    ended = {e.turn: e for e in events if isinstance(e, TurnEnded)}
    judged = {e.turn: e for e in events if isinstance(e, TurnJudged)}
    lines = parse_notation(text).turns
    assert [line.turn for line in lines] == sorted(started)
    for line in lines:
        verdict = judged[line.turn]
        assert line.player == started[line.turn].player == verdict.player
        assert line.used == started[line.turn].seconds - ended[line.turn].seconds_left
        assert sorted(line.played) == sorted(verdict.played) and line.verdict.outcome == verdict.outcome
        assert line.verdict.draw == verdict.draw and line.verdict.points == verdict.penalty_points
    stable = format_notation(machine_independent(notation))
    if os.environ.get("TILEREF_UPDATE_GOLDEN"):
        golden.write_text(stable)
    assert stable == golden.read_text()


def test_the_demo_game_s_notation_holds_against_the_record_and_its_golden_file(demo):
    _, _, records, game, events = demo
    _notation_holds_and_matches_its_golden_file(records, game, events, GOLDEN.with_name("demo-notation.txt"))


def test_the_world_demo_s_notation_holds_against_the_record_and_its_golden_file(world_demo):
    _, _, records, game, events = world_demo
    _notation_holds_and_matches_its_golden_file(records, game, events, GOLDEN.with_name("world-notation.txt"))
