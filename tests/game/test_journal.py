"""The one write path of a game's events (controller/game/journal.py): apply, then append with the
state the machine derived; a refused event writes nothing; the store takes no state typed by hand."""
from __future__ import annotations

import sqlite3

import pytest

from controller.game import judging
from controller.game.errors import TransitionError
from controller.game.events import Dealt, StartOrderDrawn, TurnStarted
from controller.game.journal import GameJournal
from controller.game.machine import State
from controller.records import Records

PLAYERS = ("Ann", "Ben")


def row(path, game):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT state, events, head_hash FROM games WHERE id=?", (game,)).fetchone()


def test_the_records_keep_the_state_the_machine_derived(tmp_path):
    db = tmp_path / "r.sqlite"
    seen = []
    with Records(db) as records:
        journal = GameJournal.start(records, judging.game_created("classic", PLAYERS))
        assert row(db, journal.game_id)[:2] == ("seating", 1)
        journal.observer = lambda model, event: seen.append((model.state, event.kind.value))
        journal.record(StartOrderDrawn((), "Ann", None))
        journal.record(Dealt(1))
        assert row(db, journal.game_id)[:2] == ("turn-ready", 3)
        again = GameJournal.resume(records, journal.game_id)
        assert again.model == journal.model
    assert seen == [(State.DEALING, "start-order-drawn"), (State.TURN_READY, "dealt")]


def test_a_refused_event_writes_nothing(tmp_path):
    db = tmp_path / "r.sqlite"
    with Records(db) as records:
        journal = GameJournal.start(records, judging.game_created("classic", PLAYERS))
        before = row(db, journal.game_id)
        with pytest.raises(TransitionError, match="turn-started"):
            journal.record(TurnStarted(1, "Ann", 60, None))  # no start order drawn, nothing dealt
        assert row(db, journal.game_id) == before and journal.model.state is State.SEATING


def test_events_recorded_together_stand_or_fall_together(tmp_path):
    db = tmp_path / "r.sqlite"
    with Records(db) as records:
        journal = GameJournal.start(records, judging.game_created("classic", PLAYERS))
        before = row(db, journal.game_id)
        with pytest.raises(TransitionError):  # the second does not fit: the first is not written either
            journal.record_together((StartOrderDrawn((), "Ann", None), TurnStarted(1, "Ann", 60, None)))
        assert row(db, journal.game_id) == before and journal.model.state is State.SEATING
        journal.record_together((StartOrderDrawn((), "Ann", None), Dealt(1)))
        assert row(db, journal.game_id)[:2] == ("turn-ready", 3)


def test_the_store_takes_no_state_typed_by_hand(tmp_path):
    with Records(tmp_path / "r.sqlite") as records:
        with pytest.raises(TypeError, match="'seating'"):
            records.start_game(judging.game_created("classic", PLAYERS), state="seating")
        game = GameJournal.start(records, judging.game_created("classic", PLAYERS)).game_id
        with pytest.raises(TypeError, match="'dealing'"):
            records.append(game, StartOrderDrawn((), "Ann", None), state="dealing")
