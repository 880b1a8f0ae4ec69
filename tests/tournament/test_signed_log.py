"""A tournament's state as hard to forge as its games: the attacks an attacker with write access to
the club's SQLite file tries on a kuwana event `Cup` whose director's key the club trusts, each
refused with exit 3 by every reader (standings, show, history, export, print, verify --db) naming
the event and the entry, and by the club board. Real SQLite files, real keys."""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.game.events import GameScored
from controller.game.judging import game_created
from controller.records import Records
from controller.records.signing import TableKey, new_key_pair
from controller.tournament import TournamentStore
from controller.tournament.history import RESULT

from signed_log_helpers import (
    amendment, every_reader_holds, every_reader_refuses, forge_append, forge_rewrite, run, stored_entries,
)

PLAYERS = ["Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "Hal"]


@dataclass
class Cup:
    db: str
    folder: Path
    director: TableKey
    table: TableKey
    mallory: TableKey  # a key the club never trusted
    seats: tuple[tuple[str, ...], ...]  # round 1, per table

    def typed(self, game: str, winner_first: bool = True, key: TableKey | None = None) -> int:
        table = int(game.split("-")[1][1:])
        a, b, c, d = self.seats[table - 1]
        scores = {a: 100, b: -10, c: -20, d: -30} if winner_first else {a: -10, b: 100, c: -20, d: -30}
        return run("tournament", "result", "Cup", game, "--winner", max(scores, key=scores.get),
                   *[arg for p, s in scores.items() for arg in ("--score", f"{p}={s}")],
                   "--director-key", (key or self.director).path, "--db", self.db)


@pytest.fixture
def cup(tmp_path) -> Cup:
    """Round 1 drawn and three games typed, every entry signed by the director's key in the keyring."""
    db = str(tmp_path / "club.sqlite")
    keys = tmp_path / "keys"
    director, table, mallory = (new_key_pair(keys / f"{name}.key") for name in ("director", "table1", "mallory"))
    players = tmp_path / "players.csv"
    players.write_text("name\n" + "".join(f"{p}\n" for p in PLAYERS), encoding="utf-8")
    assert run("tournament", "create", "Cup", "--format", "kuwana", "--players", players, "--db", db) == 0
    assert run("key", "trust", f"{director.path}.pub", "--name", "director", "--role", "director", "--db", db) == 0
    assert run("key", "trust", f"{table.path}.pub", "--name", "table 1", "--db", db) == 0
    assert run("tournament", "draw", "Cup", "--seed", 7, "--director-key", director.path, "--db", db) == 0
    with TournamentStore(db) as store:
        seats = tuple(t.seats for t in store.load("Cup").round(1).tables)
    event = Cup(db, tmp_path, director, table, mallory, seats)
    for game in ("R1-T1-G1", "R1-T2-G1", "R1-T2-G2"):
        assert event.typed(game) == 0
    return event


def sql(db: str, *statements: str, params=()) -> None:
    con = sqlite3.connect(db)
    for statement in statements:
        con.execute(statement, params)
    con.commit()
    con.close()


def test_the_honest_cup_holds_for_every_reader(cup, capsys):
    every_reader_holds(cup.db, "Cup", cup.folder, capsys)
    assert run("tournament", "history", "Cup", "--db", cup.db) == 0


# ------------------------------------------------------------------ 1. an amendment signed by any key


def test_an_amendment_signed_by_a_key_the_club_never_trusted_is_refused(cup, capsys):
    a, b, c, d = cup.seats[1]
    seq = forge_append(cup.db, "Cup", cup.mallory, amendment("R1-T2-G2", {a: -100, b: 50, c: 25, d: 25}))
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys,
                         f"log entry {seq}: signed by key {cup.mallory.public.fingerprint}, which is not in the "
                         "keyring")
    sql(cup.db, "DELETE FROM tournament_history WHERE seq = ?", params=(seq,))
    assert run("tournament", "amend", "Cup", "R1-T2-G2", "--winner", b, "--score", f"{a}=-100", "--score", f"{b}=50",
               "--score", f"{c}=25", "--score", f"{d}=25", "--reason", "recount",
               "--director-key", cup.mallory.path, "--db", cup.db) == 3  # the forger's head is still there


def test_a_log_rewritten_and_resigned_with_another_key_is_refused(cup, capsys):
    forge_rewrite(cup.db, "Cup", cup.mallory)
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys,
                         f"log entry 1: signed by key {cup.mallory.public.fingerprint}, which is not in the keyring")


def test_the_director_command_refuses_a_key_outside_the_keyring_and_writes_nothing(cup, capsys):
    a, b, c, d = cup.seats[1]
    count = len(stored_entries(sqlite3.connect(cup.db), "Cup"))
    capsys.readouterr()
    assert run("tournament", "amend", "Cup", "R1-T2-G2", "--winner", b, "--score", f"{a}=-100", "--score", f"{b}=50",
               "--score", f"{c}=25", "--score", f"{d}=25", "--reason", "recount",
               "--director-key", cup.mallory.path, "--db", cup.db) == 2
    assert f"key {cup.mallory.public.fingerprint} is not in the keyring" in capsys.readouterr().err
    assert len(stored_entries(sqlite3.connect(cup.db), "Cup")) == count
    assert run("tournament", "amend", "Cup", "R1-T2-G2", "--winner", b, "--score", f"{a}=-10", "--score", f"{b}=100",
               "--score", f"{c}=-20", "--score", f"{d}=-30", "--reason", "winner typed wrong",
               "--director-key", cup.table.path, "--db", cup.db) == 2  # a table's key signs games, not the log
    assert "is a table key in the keyring" in capsys.readouterr().err


def test_an_edited_or_reordered_entry_is_refused(cup, capsys):
    swap = ("UPDATE tournament_history SET seq = -1 WHERE seq = 2",
            "UPDATE tournament_history SET seq = 2 WHERE seq = 3",
            "UPDATE tournament_history SET seq = 3 WHERE seq = -1")
    sql(cup.db, *swap)
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys, "log entry 2: its signature does not hold")
    sql(cup.db, *swap, "UPDATE tournament_history SET entry_text = replace(entry_text, '-10', '-11') WHERE seq = 4")
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys, "log entry 4: its signature does not hold")


# ------------------------------------------------------------------ 2. hand-entered results unsigned


def test_an_edited_result_row_is_refused(cup, capsys):
    a, b, c, d = cup.seats[1]
    forged = json.dumps({"kind": "rummikub", "scores": {a: -100, b: 50, c: 25, d: 25}, "winner": b})
    sql(cup.db, "UPDATE tournament_results SET result_json = ? WHERE game = 'R1-T2-G2'", params=(forged,))
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys,
                         "the result of R1-T2-G2 in tournament_results is not the one log entry 4 entered")


def test_a_result_row_inserted_for_an_unplayed_game_is_refused(cup, capsys):
    a, b, c, d = cup.seats[0]
    forged = json.dumps({"kind": "rummikub", "scores": {a: 100, b: -10, c: -20, d: -30}, "winner": a})
    sql(cup.db, "INSERT INTO tournament_results VALUES (1, 'R1-T1-G3', ?, 'hand', '2026-01-01T00:00:00+00:00')",
        params=(forged,))
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys,
                         "the result of R1-T1-G3 in tournament_results is outside the log")


def test_a_deleted_result_row_is_refused(cup, capsys):
    sql(cup.db, "DELETE FROM tournament_results WHERE game = 'R1-T1-G1'")
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys,
                         "the result of R1-T1-G1 (log entry 2) is missing from tournament_results")


def test_an_edited_draw_is_refused(cup, capsys):
    a, b = cup.seats[0][0], cup.seats[1][0]
    sql(cup.db, f"UPDATE tournament_rounds SET tables_json = replace(replace(replace(tables_json, '\"{a}\"', '\"@\"'), "
                f"'\"{b}\"', '\"{a}\"'), '\"@\"', '\"{b}\"')")
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys, "is not the round log entry 1 drew")


def test_an_edited_player_list_is_refused(cup, capsys):
    sql(cup.db, "UPDATE tournament_players SET name = 'Zed' WHERE name = 'Hal'")
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys, "player list is not the one the entry was signed with")


def test_a_result_typed_without_a_director_key_is_refused(cup, capsys):
    a, b, c, d = cup.seats[0]
    capsys.readouterr()
    assert run("tournament", "result", "Cup", "R1-T1-G2", "--winner", a, "--score", f"{a}=100", "--score", f"{b}=-1",
               "--score", f"{c}=-2", "--score", f"{d}=-3", "--db", cup.db) == 2  # this user's key: not the director's
    assert "is not in the keyring" in capsys.readouterr().err
    assert cup.typed("R1-T1-G2", key=cup.mallory) == 2
    with TournamentStore(cup.db) as store:
        assert "R1-T1-G2" not in store.load("Cup").results


# ------------------------------------------------------------------ 3. one game counted as several


def table_game(path, seats, link: dict | None, key) -> int:
    with Records(path, key=key) as records:
        game = records.start_game(game_created("japan-2017", tuple(seats)), **(link or {}))
        scores = {seats[0]: 100, seats[1]: -10, seats[2]: -20, seats[3]: -30}
        records.append(game, GameScored("empty-rack", seats[0], tuple(scores.items()), None))
    return game


def test_a_table_game_without_an_event_link_is_credited_to_no_game(cup, capsys):
    play_db = cup.folder / "table1.sqlite"
    game = table_game(play_db, cup.seats[0], None, cup.table)
    capsys.readouterr()
    for slot in ("R1-T1-G2", "R1-T1-G3"):
        assert run("tournament", "import-play", "Cup", "--game", slot, "--play-db", play_db, "--play-game", game,
                   "--director-key", cup.director.path, "--db", cup.db) == 2
        assert "was not signed as played for a tournament game" in capsys.readouterr().err
    with TournamentStore(cup.db) as store:
        results = store.load("Cup").results
    assert "R1-T1-G2" not in results and "R1-T1-G3" not in results


def test_a_table_game_is_credited_to_the_game_its_signed_link_names_once(cup, capsys):
    play_db = cup.folder / "table1.sqlite"
    game = table_game(play_db, cup.seats[0], {"event": "Cup", "tournament_game": "R1-T1-G2", "table_name": "table 1"},
                      cup.table)
    base = ["tournament", "import-play", "Cup", "--play-db", play_db, "--play-game", game,
            "--director-key", cup.director.path, "--db", cup.db]
    capsys.readouterr()
    assert run(*base, "--game", "R1-T1-G3") == 2
    assert "was signed as tournament game 'R1-T1-G2'" in capsys.readouterr().err
    assert run(*base, "--game", "R1-T1-G2") == 0
    assert run(*base, "--game", "R1-T1-G2") == 2  # a second result for it
    with TournamentStore(cup.db) as store:
        event = store.load("Cup")
        assert "R1-T1-G2" in event.results and "R1-T1-G3" not in event.results
        credited = store.credited_records("Cup")
    assert list(credited.values()) == ["R1-T1-G2"]


def test_a_log_that_credits_one_table_record_twice_is_refused(cup, capsys):
    """Even signed by the director (by mistake, or by an older tileref): one record, one game."""
    play_db = cup.folder / "table1.sqlite"
    game = table_game(play_db, cup.seats[0], {"event": "Cup", "tournament_game": "R1-T1-G2", "table_name": "table 1"},
                      cup.table)
    assert run("tournament", "import-play", "Cup", "--game", "R1-T1-G2", "--play-db", play_db, "--play-game", game,
               "--director-key", cup.director.path, "--db", cup.db) == 0
    con = sqlite3.connect(cup.db)
    last = json.loads(stored_entries(con, "Cup")[-1].text)
    con.close()
    assert last["kind"] == RESULT and last["record"]["game_hash"]
    twice = {k: last[k] for k in ("kind", "result", "source", "record")} | {"game": "R1-T1-G3"}
    seq = forge_append(cup.db, "Cup", cup.director, twice)
    sql(cup.db, "INSERT INTO tournament_results SELECT event_id, 'R1-T1-G3', result_json, source, entered_at "
                "FROM tournament_results WHERE game = 'R1-T1-G2'")
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys,
                         f"log entry {seq}: it credits the table record already credited by entry")


def test_a_game_played_straight_into_the_database_is_counted_in_the_log_and_may_not_vanish(cup, capsys):
    """A table playing into the club's database counts without an import; the director's next
    entry signs that it counted, so removing the game's records afterwards is seen."""
    game = table_game(cup.db, cup.seats[0], {"event": "Cup", "tournament_game": "R1-T1-G2", "table_name": "table 1"},
                      cup.table)
    with TournamentStore(cup.db) as store:
        assert store.sources("Cup")["R1-T1-G2"] == f"tileref play, records game {game}"
    assert cup.typed("R1-T1-G3") == 0
    con = sqlite3.connect(cup.db)
    kinds = [json.loads(e.text)["kind"] for e in stored_entries(con, "Cup")]
    con.close()
    assert kinds[-2:] == ["played", "result"]
    every_reader_holds(cup.db, "Cup", cup.folder, capsys)
    sql(cup.db, *[f"DELETE FROM {table} WHERE game_id = {game}" for table in ("events", "game_info", "players")],
        f"DELETE FROM games WHERE id = {game}")
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys,
                         f"log entry {len(kinds) - 1}: the table record it counted for R1-T1-G2 (records game {game}")


def test_sign_log_seals_the_games_played_straight_in_since_the_last_entry(cup, capsys):
    sign = ["tournament", "sign-log", "Cup", "--director-key", cup.director.path, "--db", cup.db]
    capsys.readouterr()
    assert run(*sign) == 2
    assert "its log holds every draw and result already" in capsys.readouterr().err
    game = table_game(cup.db, cup.seats[0], {"event": "Cup", "tournament_game": "R1-T1-G3", "table_name": "table 1"},
                      cup.table)
    assert run(*sign, "--json") == 0
    assert json.loads(capsys.readouterr().out) == {"event": "Cup", "signed": 1}
    sql(cup.db, f"UPDATE game_info SET tournament_game = 'R1-T1-G2' WHERE game_id = {game}")
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys, "log entry 5: the table record it counted for R1-T1-G3")


# ------------------------------------------------------------------ 4. an emptied keyring


def test_an_emptied_keyring_trusts_no_entry(cup, capsys):
    con = sqlite3.connect(cup.db)
    ring = con.execute("SELECT * FROM keyring").fetchall()
    con.execute("DELETE FROM keyring")
    con.commit()
    con.close()
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys, "the keyring is now empty")
    a, b, c, d = cup.seats[1]
    amend = ["tournament", "amend", "Cup", "R1-T2-G2", "--winner", b, "--score", f"{a}=-100", "--score", f"{b}=50",
             "--score", f"{c}=25", "--score", f"{d}=25", "--reason", "recount", "--director-key", cup.mallory.path,
             "--db", cup.db]
    assert run(*amend) == 3  # refused before anything is written
    # the forger writes it by hand, claiming no keyring was kept, and puts the ring back
    forge_append(cup.db, "Cup", cup.mallory, amendment("R1-T2-G2", {a: -100, b: 50, c: 25, d: 25}), ring=False)
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys, "the keyring is now empty")
    con = sqlite3.connect(cup.db)
    con.executemany(f"INSERT INTO keyring VALUES ({', '.join('?' * len(ring[0]))})", ring)
    con.commit()
    con.close()
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys,
                         f"signed by key {cup.mallory.public.fingerprint}, which is not in the keyring")


# ------------------------------------------------------------------ 5. the last entries deleted


@pytest.mark.parametrize("removed", [1, 2], ids=["last-entry", "last-two-entries"])
def test_deleting_the_last_entries_is_seen(cup, capsys, removed):
    con = sqlite3.connect(cup.db)
    count = len(stored_entries(con, "Cup"))
    con.execute("DELETE FROM tournament_history WHERE seq > ?", (count - removed,))
    con.execute("DELETE FROM tournament_results WHERE game IN ('R1-T2-G2', 'R1-T2-G1') AND ? >= "
                "CASE game WHEN 'R1-T2-G2' THEN 1 ELSE 2 END", (removed,))
    con.commit()
    con.close()
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys,
                         f"it was signed after entry {count}, but the log ends at entry {count - removed}")


def test_deleting_the_last_entries_and_the_head_is_seen(cup, capsys):
    sql(cup.db, "DELETE FROM tournament_history WHERE seq = 4",
        "DELETE FROM tournament_results WHERE game = 'R1-T2-G2'", "DELETE FROM tournament_heads")
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys, "the log's head: missing")


def test_an_older_head_put_back_is_caught_by_the_head_this_machine_saw(cup, capsys):
    """The forger kept the head signed after entry 3 and puts it back with the log cut there: the
    database alone holds together; the head this machine last saw does not."""
    con = sqlite3.connect(cup.db)
    entries = stored_entries(con, "Cup")
    kept = con.execute("SELECT * FROM tournament_heads").fetchall()
    con.close()
    assert cup.typed("R1-T1-G2") == 0  # entry 5
    sql(cup.db, "DELETE FROM tournament_history WHERE seq = 5",
        "DELETE FROM tournament_results WHERE game = 'R1-T1-G2'", "DELETE FROM tournament_heads")
    con = sqlite3.connect(cup.db)
    con.executemany("INSERT INTO tournament_heads VALUES (?, ?, ?, ?, ?, ?)", kept)
    con.commit()
    con.close()
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys,
                         f"the log ends at entry {len(entries)}, but this machine saw it at entry {len(entries) + 1}")


# ------------------------------------------------------------------ 6. revoked director keys


def test_an_entry_signed_after_its_key_was_revoked_is_refused(cup, capsys):
    a, b, c, d = cup.seats[1]
    time.sleep(1.1)  # the revocation is dated to the second: the entries before it are a second older
    assert run("key", "revoke", cup.director.public.fingerprint, "--reason", "director's laptop stolen",
               "--db", cup.db) == 0
    every_reader_holds(cup.db, "Cup", cup.folder, capsys)  # what it signed before still stands
    capsys.readouterr()
    amend = ["tournament", "amend", "Cup", "R1-T2-G2", "--winner", b, "--score", f"{a}=-100", "--score", f"{b}=50",
             "--score", f"{c}=25", "--score", f"{d}=25", "--reason", "recount", "--director-key", cup.director.path,
             "--db", cup.db]
    assert run(*amend) == 2
    assert "was revoked in the keyring" in capsys.readouterr().err
    time.sleep(1.1)
    seq = forge_append(cup.db, "Cup", cup.director, amendment("R1-T2-G2", {a: -100, b: 50, c: 25, d: 25}))
    every_reader_refuses(cup.db, "Cup", cup.folder, capsys,
                         f"log entry {seq}: signed by key {cup.director.public.fingerprint} ('director') at")


def test_a_new_director_key_carries_on_after_a_revocation(cup, capsys):
    time.sleep(1.1)
    assert run("key", "revoke", cup.director.public.fingerprint, "--reason", "lost", "--db", cup.db) == 0
    deputy = new_key_pair(cup.folder / "keys" / "deputy.key")
    assert run("key", "trust", f"{deputy.path}.pub", "--name", "deputy director", "--role", "director",
               "--db", cup.db) == 0
    assert cup.typed("R1-T1-G2", key=deputy) == 0
    every_reader_holds(cup.db, "Cup", cup.folder, capsys)
    con = sqlite3.connect(cup.db)
    head_key, = con.execute("SELECT director_key FROM tournament_heads").fetchone()
    assert head_key == deputy.public.text


# ------------------------------------------------------------------ a keyring kept before keys had roles


def test_a_keyring_kept_before_roles_reads_the_directors_key_by_its_name(cup, capsys):
    sql(cup.db, "ALTER TABLE keyring DROP COLUMN role",
        "DELETE FROM schema_version WHERE component = 'records' AND version = 5",
        "UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    every_reader_holds(cup.db, "Cup", cup.folder, capsys)  # read as it is: 'director' is the director's key
    with Records(cup.db) as records:  # opened to write: brought to schema 5, the role kept in its column
        roles = dict(records.db.execute("SELECT name, role FROM keyring").fetchall())
    assert roles == {"director": "director", "table 1": "table"}
    every_reader_holds(cup.db, "Cup", cup.folder, capsys)
