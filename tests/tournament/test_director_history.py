"""The event's history through the command line and a real SQLite file: each change signed by the
director's key and chained, a verified table record amended only with the reason recorded, the
results table never edited in place, and `--json` on every tournament command that prints."""
import json
import sqlite3

import pytest

from controller import cli
from controller.records.signing import default_key_path, default_table_key, new_key_pair
from controller.tournament import TournamentStore
from test_import_play import record_table_game

PLAYERS = ["Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "Hal"]


def run(*argv):
    return cli.main([str(a) for a in argv])


@pytest.fixture
def event_db(tmp_path):
    db = str(tmp_path / "club.sqlite")
    players = tmp_path / "players.csv"
    players.write_text("name\n" + "".join(f"{p}\n" for p in PLAYERS), encoding="utf-8")
    assert run("tournament", "create", "Cup", "--format", "kuwana", "--players", players, "--db", db) == 0
    assert run("tournament", "draw", "Cup", "--seed", 7, "--db", db) == 0
    return db


def seats(db, table=1):
    with TournamentStore(db) as store:
        return store.load("Cup").round(1).tables[table - 1].seats


def score_args(scores):
    return [arg for name, points in scores.items() for arg in ("--score", f"{name}={points}")]


def test_a_verified_table_record_is_amended_only_with_the_reason_and_the_record_stays(tmp_path, event_db, capsys):
    a, b, c, d = seats(event_db)
    play_db = str(tmp_path / "table1.sqlite")
    game = record_table_game(play_db, (a, b, c, d), {a: 100, b: -10, c: -20, d: -30}, event="Cup")
    capsys.readouterr()
    assert run("tournament", "import-play", "Cup", "--game", "R1-T1-G1", "--play-db", play_db,
               "--play-game", game, "--db", event_db, "--json") == 0
    assert json.loads(capsys.readouterr().out)["recorded"] == {
        "game": "R1-T1-G1", "kind": "rummikub", "scores": {a: 100, b: -10, c: -20, d: -30}, "winner": a}
    with sqlite3.connect(event_db) as db:
        stored = db.execute("SELECT result_json FROM tournament_results").fetchall()
    fixed = {a: 100, b: -10, c: -25, d: -30}
    amend = ["tournament", "amend", "Cup", "R1-T1-G1", "--winner", a, *score_args(fixed), "--db", event_db]
    with pytest.raises(SystemExit) as refused:
        run(*amend)
    assert refused.value.code == 2 and "--reason" in capsys.readouterr().err
    assert run(*amend, "--reason", " ") == 2
    assert "say why" in capsys.readouterr().err
    assert run(*amend, "--reason", "the referee recounted C's rack: 25") == 0
    line = capsys.readouterr().out
    assert "R1-T1-G1 amended (it replaced a result from tileref play table1.sqlite game" in line
    assert "the referee recounted C's rack: 25" in line
    with sqlite3.connect(event_db) as db:
        assert db.execute("SELECT result_json FROM tournament_results").fetchall() == stored  # not edited in place
        (text,), = db.execute("SELECT entry_text FROM tournament_history ORDER BY seq DESC LIMIT 1")
    assert json.loads(text)["result"]["scores"][c] == -25
    assert run("tournament", "standings", "Cup", "--json", "--db", event_db) == 0
    table = json.loads(capsys.readouterr().out)
    row = next(r for r in table["sections"][0]["rows"] if r["player"] == c)
    assert row["points"] == -25 and "amended: R1-T1-G1" in row["note"]
    assert "tileref play table1.sqlite" in table["changes"][0]
    page = tmp_path / "standings.html"
    assert run("tournament", "export", "Cup", "--html", page, "--db", event_db) == 0
    assert "recounted C&#39;s rack: 25</li>" in page.read_text(encoding="utf-8")


def test_an_edited_or_removed_history_entry_is_refused_like_a_tampered_record(event_db, capsys):
    a, b, c, d = seats(event_db)
    first = {a: 100, b: -10, c: -20, d: -30}
    assert run("tournament", "result", "Cup", "R1-T1-G1", "--winner", a, *score_args(first), "--db", event_db) == 0
    assert run("tournament", "amend", "Cup", "R1-T1-G1", "--winner", b, *score_args({a: -10, b: 100, c: -20, d: -30}),
               "--reason", "winner typed wrong", "--db", event_db) == 0
    assert run("tournament", "withdraw", "Cup", PLAYERS[0], "--reason", "ill", "--db", event_db) == 2  # plays still
    assert run("tournament", "substitute", "Cup", "R1-T1-G2", "--for", a, "--player", "Sam", "--reason", "a call",
               "--db", event_db) == 0
    capsys.readouterr()
    # the log: 1 the draw, 2 the result, 3 the amendment, 4 the substitute
    with sqlite3.connect(event_db) as db:
        db.execute("UPDATE tournament_history SET entry_text = replace(entry_text, 'typed wrong', 'typed right') "
                   "WHERE seq = 3")
    assert run("tournament", "standings", "Cup", "--db", event_db) == 3
    assert "log entry 3: its signature does not hold" in capsys.readouterr().err
    with sqlite3.connect(event_db) as db:
        db.execute("UPDATE tournament_history SET entry_text = replace(entry_text, 'typed right', 'typed wrong') "
                   "WHERE seq = 3")
        db.execute("DELETE FROM tournament_history WHERE seq = 3")
    assert run("tournament", "history", "Cup", "--db", event_db) == 3
    assert "expected entry 3; an entry was removed or moved" in capsys.readouterr().err


def test_where_a_keyring_is_kept_the_log_is_signed_by_a_director_key_in_it(tmp_path, event_db, capsys):
    director = new_key_pair(tmp_path / "keys" / "director.key")
    table = new_key_pair(tmp_path / "keys" / "table1.key")
    assert run("key", "trust", f"{table.path}.pub", "--name", "table 1", "--db", event_db) == 0
    capsys.readouterr()
    # the draw was signed by this user's key, which the new keyring does not hold: every reader says so
    assert run("tournament", "standings", "Cup", "--db", event_db) == 3
    assert f"log entry 1: signed by key {default_table_key().public.fingerprint}, which is not in the keyring" in \
        capsys.readouterr().err
    assert run("key", "trust", f"{default_key_path()}.pub", "--name", "director's desk", "--role", "director",
               "--db", event_db) == 0
    a, b, c, d = seats(event_db)
    result = ["tournament", "result", "Cup", "R1-T1-G1", "--winner", a, *score_args({a: 100, b: -1, c: -2, d: -3}),
              "--db", event_db]
    capsys.readouterr()
    assert run(*result, "--director-key", table.path) == 2  # a table's key signs its games, not the event's log
    assert f"key {table.public.fingerprint} is a table key in the keyring" in capsys.readouterr().err
    assert run(*result) == 0
    delete = ["tournament", "delete-result", "Cup", "R1-T1-G1", "--reason", "wrong table",
              "--director-key", director.path, "--db", event_db]
    capsys.readouterr()
    assert run(*delete) == 2
    assert f"key {director.public.fingerprint} is not in the keyring" in capsys.readouterr().err
    assert run("key", "trust", f"{director.path}.pub", "--name", "director", "--role", "director", "--db",
               event_db) == 0
    assert run(*delete, "--json") == 0
    change = json.loads(capsys.readouterr().out.splitlines()[-1])["change"]
    assert change["kind"] == "delete-result" and change["by"] == f"director (key {director.public.fingerprint})"
    assert change["replaces"] == "hand"


def test_every_tournament_command_that_prints_gives_one_json_object(tmp_path, event_db, capsys):
    a, b, c, d = seats(event_db)
    e, f, g, h = seats(event_db, 2)
    results = tmp_path / "results.json"
    results.write_text(json.dumps([{"game": "R1-T2-G1", "winner": e, "scores": {e: 100, f: -1, g: -2, h: -3}}]))
    db = ["--db", event_db, "--json"]
    commands = {
        "formats": ["formats", "--json"],
        "create": ["create", "Second", "--format", "kuwana", "--players", tmp_path / "players.csv", *db],
        "list": ["list", *db],
        "show": ["show", "Cup", "--draw", *db],
        "result": ["result", "Cup", "R1-T1-G1", "--winner", a, *score_args({a: 100, b: -1, c: -2, d: -3}), *db],
        "import-json": ["import-json", "Cup", results, *db],
        "amend": ["amend", "Cup", "R1-T1-G1", "--winner", b, *score_args({a: -1, b: 100, c: -2, d: -3}),
                  "--reason", "typo", *db],
        "substitute": ["substitute", "Cup", "R1-T1-G2", "--for", a, "--player", "Sam", "--reason", "call", *db],
        "delete-result": ["delete-result", "Cup", "R1-T2-G1", "--reason", "wrong game", *db],
        "history": ["history", "Cup", *db],
        "standings": ["standings", "Cup", *db],
        "export": ["export", "Cup", "--csv", tmp_path / "s.csv", *db],
    }
    capsys.readouterr()
    for name, argv in commands.items():
        assert run("tournament", *argv) == 0, name
        out = capsys.readouterr().out
        assert isinstance(json.loads(out), dict), name  # exactly one object: json.loads refuses anything more
    assert run("tournament", "show", "Cup", "--db", event_db) == 0
    assert f"R1-T1-G2: to play; Sam plays for {a}" in capsys.readouterr().out
    assert run("tournament", "show", "Cup", *db) == 0
    shown = json.loads(capsys.readouterr().out)
    game = shown["rounds"][0]["tables"][0]["games"][1]
    assert game["substitutes"] == {"Sam": a} and shown["rounds_drawn"] == 1


def test_a_director_key_made_on_first_use_leaves_json_output_one_object(tmp_path, event_db, monkeypatch, capsys):
    monkeypatch.setenv("TILEREF_KEY_DIR", str(tmp_path / "fresh-keys"))
    capsys.readouterr()
    assert run("tournament", "substitute", "Cup", "R1-T1-G1", "--for", seats(event_db)[0], "--player", "Ivo",
               "--reason", "late bus", "--db", event_db, "--json") == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["change"]["kind"] == "substitute"
    assert "made this table's signing key" in captured.err and (tmp_path / "fresh-keys" / "table.key").exists()
