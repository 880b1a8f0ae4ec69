"""The SQLite records: events come back as written, and tampering of any kind shows."""
from __future__ import annotations

import sqlite3

import pytest

from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TurnEnded, TurnStarted
from controller.game.machine import State, fold
from controller.records import Photo, Reading, Records, TamperedError, reading_sha, sha256_bytes
from controller.records.errors import GameNotFoundError, RecordsFileError

PLAYERS = ("Ann", "Ben", "Cat")


@pytest.fixture
def recorded(tmp_path):
    path = tmp_path / "games.sqlite"
    records = Records(path)
    game = records.new_game("classic", PLAYERS)
    photo_data = b"\x89PNG fake bytes of a photo"
    photo = Photo(sha256_bytes(photo_data), "image/png", 4, 3, photo_data)
    raw = {"tiles": [], "sets": []}
    reading = Reading(reading_sha(raw), photo.sha256, raw, 12.5)
    events = [judging.game_created("classic", PLAYERS), StartOrderDrawn((("Ann", "K9"),), "Ann", None), Dealt(1),
              TurnStarted(1, "Ann", 60, photo.sha256), TurnEnded(1, "button", "1", 42)]
    for event in events[:-1]:
        records.append(game, event)
    records.append(game, events[-1], photos=(photo,), readings=(reading,))
    yield records, game, events, path
    records.close()


def test_events_come_back_in_order_and_fold_to_the_same_game(recorded):
    records, game, events, _ = recorded
    assert records.events(game) == events
    assert fold(records.events(game)).state is State.TURN_READING
    assert records.verify(game).ok


def test_the_file_uses_write_ahead_logging(recorded):
    records, *_ = recorded
    assert records.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_reopened_file_holds_everything(recorded):
    records, game, events, path = recorded
    records.close()
    with Records(path, create=False) as again:
        assert again.events(game) == events
        photo_sha = events[3].photo
        assert again.photo(photo_sha).data.startswith(b"\x89PNG")
        assert again.verify(game).ok


def tamper(path, sql, *args):
    db = sqlite3.connect(path)
    db.execute(sql, args)
    db.commit()
    db.close()


@pytest.mark.parametrize("how,sql", [
    ("edited-payload", "UPDATE events SET payload = replace(payload, '\"K9\"', '\"K13\"') WHERE seq = 2"),
    ("deleted-event", "DELETE FROM events WHERE seq = 3"),
    ("deleted-last-event", "DELETE FROM events WHERE seq = 5"),
    ("edited-kind", "UPDATE events SET kind = 'dealt', payload = '{\"deal\":2}' WHERE seq = 3"),
    ("swapped-photo", "UPDATE photos SET data = X'00'"),
    ("edited-reading", "UPDATE readings SET reading = '{\"tiles\":[{}],\"sets\":[]}'"),
])
def test_tampering_shows(recorded, how, sql):
    records, game, _, path = recorded
    tamper(path, sql)
    report = records.verify(game)
    assert not report.ok and report.problem
    with pytest.raises(TamperedError):
        records.require_intact(game)


def test_reordered_events_break_the_chain(recorded):
    records, game, _, path = recorded
    tamper(path, "UPDATE events SET seq = 99 WHERE seq = 2")
    tamper(path, "UPDATE events SET seq = 2 WHERE seq = 3")
    tamper(path, "UPDATE events SET seq = 3 WHERE seq = 99")
    report = records.verify(game)
    assert not report.ok and report.first_bad_seq == 2


def test_unknown_game_and_missing_file_are_clear_errors(tmp_path, recorded):
    records, *_ = recorded
    with pytest.raises(GameNotFoundError, match="77"):
        records.events(77)
    with pytest.raises(RecordsFileError, match="nope.sqlite"):
        Records(tmp_path / "nope.sqlite", create=False)
    (tmp_path / "text.sqlite").write_text("not a database at all, just text " * 50)
    with pytest.raises(RecordsFileError, match="text.sqlite"):
        Records(tmp_path / "text.sqlite")


def test_a_game_recorded_before_whole_rule_sets_keeps_its_shape_and_rules():
    """Records written before games kept their whole RuleSet hold two flags instead: they
    still read, hash as they were written, and play by the named variant with those flags."""
    from controller.game.events import GameCreated, event_from_payload
    from controller.game.machine import GameModel, apply
    from controller.rules.variants import WORLD, PoolOutEnd

    old_payload = {"variant": "world", "players": ["Ann", "Ben"], "turn_seconds": 60,
                   "pool_out_ends_at_last_draw": True, "count_mismatch_disqualifies": False}
    event = event_from_payload("game-created", old_payload)
    assert event.payload() == old_payload  # the chain hash is over exactly what was written
    rules = apply(GameModel(), event).rules
    assert rules.name == "world" and rules.pool_out_end is PoolOutEnd.LAST_TILE_DRAWN
    assert rules.count_mismatch_disqualifies is False and WORLD.count_mismatch_disqualifies is True
    assert WORLD.pool_out_end is PoolOutEnd.NOBODY_CAN_PLAY  # the record's flag, not the default, won
    new = GameCreated("classic", ("Ann", "Ben"), 60, (("name", "classic"),))
    assert set(new.payload()) == {"variant", "players", "turn_seconds", "ruleset"}


def test_the_first_event_records_the_table_key_and_later_events_are_signed(recorded):
    """A new game's first event carries the key that signs it; equality ignores the key (the same
    game at another table), the payload does not (it is hashed and signed)."""
    records, game, events, _ = recorded
    first = records.events(game)[0]
    assert first == events[0] and first.table_key and len(first.key_id) == 16
    assert set(first.payload()) >= {"table_key", "key_id"} and "table_key" not in events[0].payload()
    assert all(r.signature for r in records.recorded(game))
    report = records.verify(game)
    assert report.key_id == first.key_id and report.summary().startswith(f"intact, signed by table key {first.key_id}")
