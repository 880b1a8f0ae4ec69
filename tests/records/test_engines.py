"""One storage interface, two engines (SQLite, PostgreSQL), the same schema by migrations;
many tables writing at once; a table that loses the server spools and delivers, nothing lost or twice."""
from __future__ import annotations

import sqlite3
import threading

import pytest

from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TurnEnded, TurnJudged, TurnStarted
from controller.game.machine import State
from controller.records import Photo, Reading, Records, reading_sha, sha256_bytes
from controller.records.engine import POSTGRESQL, SQLITE, parse_db
from controller.records.errors import (
    DatabaseUrlError, DeliveryConflictError, ServerUnavailableError,
)
from controller.records.schema.versions import SCHEMA_VERSION

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


@pytest.fixture(params=[SQLITE, POSTGRESQL])
def db_url(request, tmp_path):
    if request.param == SQLITE:
        return str(tmp_path / "club.sqlite")
    return request.getfixturevalue("postgres_url")


def play_some(records: Records, game: int, turns: int, start: int = 1, photo_seed: bytes = b"") -> None:
    for turn in range(start, start + turns):
        data = b"photo of turn %d " % turn + photo_seed
        photo = Photo(sha256_bytes(data), "image/jpeg", 4, 3, data)
        raw = {"tiles": [], "sets": [], "turn": turn}
        reading = Reading(reading_sha(raw), photo.sha256, raw, 1.5)
        player = PLAYERS[(turn - 1) % 4]
        records.append(game, TurnStarted(turn, player, 60, photo.sha256), photos=(photo,), readings=(reading,),
                       state=State.TURN_RUNNING)
        records.append(game, TurnEnded(turn, "button", "1", 30), state=State.TURN_READING)
        records.append(game, TurnJudged(turn, player, "draw", (), (), (), 1, 0, False, False, (), ()),
                       state=State.TURN_READY)


def new_game(records: Records) -> int:
    game = records.start_game(judging.game_created("classic", PLAYERS))
    records.append(game, StartOrderDrawn((("Ann", "K9"),), "Ann", None))
    records.append(game, Dealt(1), state=State.TURN_READY)
    return game


def test_db_urls_choose_the_engine():
    assert parse_db("games.sqlite").engine == SQLITE
    assert parse_db("sqlite:///rel/games.sqlite").location == "rel/games.sqlite"
    assert parse_db("sqlite:////abs/games.sqlite").location == "/abs/games.sqlite"
    target = parse_db("postgresql://club:secret@server:5433/tileref")
    assert target.engine == POSTGRESQL and "secret" not in target.shown
    with pytest.raises(DatabaseUrlError, match="mysql://"):
        parse_db("mysql://server/db")
    with pytest.raises(DatabaseUrlError, match="needs a host"):
        parse_db("postgresql:///tileref")


def test_the_same_records_on_both_engines(db_url):
    with Records(db_url) as records:
        game = new_game(records)
        play_some(records, game, 3)
        report = records.verify(game)
        assert report.ok and report.events == 12 and report.key_id
        assert records.verdicts(game) == [(1, "Ann", "draw"), (2, "Ben", "draw"), (3, "Cat", "draw")]
        photo_sha = records.events(game)[3].photo
        assert records.photo(photo_sha).data.startswith(b"photo of turn 1")
    with Records(db_url, create=False, read_only=True) as again:
        assert again.verify(game).ok and again.players(game) == PLAYERS


def test_migrations_are_recorded_and_the_same_on_both_engines(db_url):
    with Records(db_url) as records:
        versions = records.db.execute("SELECT version FROM schema_version WHERE component='records' "
                                      "ORDER BY version").fetchall()
        assert [v for (v,) in versions] == list(range(1, SCHEMA_VERSION + 1))
        tables = records.db.tables()
        columns = {t: records.db.columns(t) for t in ("games", "events", "game_info")}
    assert {"games", "players", "events", "photos", "readings", "verdicts", "meta", "game_info",
            "schema_version"} <= tables
    assert "signature" in columns["events"] and "head_signature" in columns["games"]
    assert columns["game_info"] == {"game_id", "signed_id", "table_name", "event", "tournament_game"}


def test_a_schema_2_file_is_brought_to_schema_3_with_its_rows_untouched(tmp_path):
    path = tmp_path / "v2.sqlite"
    with Records(path) as records:
        game = new_game(records)
    db = sqlite3.connect(path)  # as tileref wrote it before the club server's migrations
    db.execute("DROP TABLE game_info")
    db.execute("DROP TABLE schema_version")
    db.execute("UPDATE meta SET value='2' WHERE key='schema_version'")
    db.commit()
    before = db.execute("SELECT * FROM events ORDER BY seq").fetchall()
    db.close()
    with Records(path, create=False, read_only=True) as reader:  # read as it is, nothing written
        assert reader.verify(game).ok and reader.info(game)["table_name"] is None
    assert "game_info" not in {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    with Records(path) as writer:
        assert writer.verify(game).ok
        assert [v for (v,) in writer.db.execute("SELECT version FROM schema_version")] == list(range(1, SCHEMA_VERSION + 1))
    assert sqlite3.connect(path).execute("SELECT * FROM events ORDER BY seq").fetchall() == before


def test_sixteen_tables_write_into_one_database_at_once(postgres_url):
    errors = []
    games = {}

    def table(number: int) -> None:
        try:
            with Records(postgres_url) as records:
                game = new_game(records)
                games[number] = game
                play_some(records, game, 6, photo_seed=b"table %d" % number)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=table, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    with Records(postgres_url, create=False, read_only=True) as records:
        assert sorted(records.game_ids()) == sorted(games.values())
        for game in games.values():
            report = records.verify(game)
            assert report.ok and report.events == 3 + 18


def test_delivery_is_idempotent_by_hash_and_refuses_a_chain_that_went_on(db_url):
    with Records(db_url) as records:
        game = new_game(records)
        head_count, head = records.head(game)
        recorded, head_signature = records.chain_event(game, TurnStarted(1, "Ann", 60, None), records.signing_key(),
                                                       head_count, head)
        assert records.deliver(game, recorded, (), (), "turn-running", head_signature) is True
        assert records.deliver(game, recorded, (), (), "turn-running", head_signature) is False  # again: nothing
        assert records.head(game)[0] == head_count + 1
        other, sig = records.chain_event(game, TurnStarted(1, "Ben", 60, None), records.signing_key(),
                                         head_count, head)
        with pytest.raises(DeliveryConflictError, match="holds event 4"):
            records.deliver(game, other, (), (), None, sig)
        assert records.verify(game).ok


def test_a_table_that_loses_the_server_keeps_playing_and_delivers_everything_once(tmp_path):
    from tests.pg_local import LocalPostgres, postgres_bin_dir
    from controller.records.spool import SpooledRecords

    if postgres_bin_dir() is None:
        pytest.skip("no PostgreSQL binaries")
    with LocalPostgres(tmp_path / "pg") as server:  # its own server: this test kills it
        spool = tmp_path / "spool.sqlite"
        records = SpooledRecords(server.url, spool=spool, retry_s=0.05)
        game = new_game(records)
        play_some(records, game, 2)
        server.kill()
        play_some(records, game, 3, start=3)  # the game goes on: spooled
        assert records.offline and records.pending() == 9
        assert records.head(game)[0] == 3 + 15 and len(records.events(game)) == 18
        server.start()
        # the event the server got just before the connection broke, spooled again: skipped, not doubled
        play_some(records, game, 1, start=6)
        assert not records.offline and records.pending() == 0 and records.delivered_total == 9
        records.close()
        with Records(server.url, create=False, read_only=True) as reader:
            report = reader.verify(game)
            assert report.ok and report.events == 3 + 18
            assert [t for t, _, _ in reader.verdicts(game)] == [1, 2, 3, 4, 5, 6]


def test_a_spool_left_by_a_stopped_table_is_delivered_at_the_next_start(tmp_path):
    from tests.pg_local import LocalPostgres, postgres_bin_dir
    from controller.records.spool import SpooledRecords

    if postgres_bin_dir() is None:
        pytest.skip("no PostgreSQL binaries")
    with LocalPostgres(tmp_path / "pg") as server:
        spool = tmp_path / "spool.sqlite"
        records = SpooledRecords(server.url, spool=spool, retry_s=60)
        game = new_game(records)
        server.stop()
        play_some(records, game, 2)
        records.close()  # the server is away: the events stay in the spool file
        server.start()
        again = SpooledRecords(server.url, spool=spool)
        assert again.pending() == 0 and again.delivered_total == 6
        # a duplicate spool row (delivered, then the table died before removing it): skipped
        count, head = again.head(game)
        again.close()
        with Records(server.url, create=False, read_only=True) as reader:
            assert reader.verify(game).ok and reader.head(game) == (count, head) and count == 9


def test_a_lost_server_is_one_line_naming_it(postgres_server):
    url = f"postgresql://tileref@127.0.0.1:1/none"
    with pytest.raises(ServerUnavailableError, match="cannot reach the server"):
        Records(url)
