"""A game scored at a table by `tileref play` enters the tournament from its records file."""
import json
import sqlite3

import pytest

from controller import cli
from controller.game.events import GameScored
from controller.game.judging import game_created
from controller.records import Records
from controller.tournament import TournamentStore

PLAYERS = ["Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def event_db(tmp_path):
    db = str(tmp_path / "tileref.sqlite")
    players = tmp_path / "players.csv"
    players.write_text("name\n" + "".join(f"{p}\n" for p in PLAYERS), encoding="utf-8")
    assert cli.main(["tournament", "create", "Kuwana", "--format", "kuwana", "--players", str(players), "--db", db]) == 0
    assert cli.main(["tournament", "draw", "Kuwana", "--seed", "7", "--db", db]) == 0
    return db


def table_one(db):
    with TournamentStore(db) as store:
        return store.load("Kuwana").round(1).tables[0].seats


def record_table_game(path, seats, scores, corrected_scores=None, event="Kuwana", tournament_game="R1-T1-G1"):
    """A table's records as `tileref play --event E --stage R --table T` leaves them: the game, signed
    as played for that tournament game, then its score(s)."""
    with Records(path) as records:
        game = records.start_game(game_created("japan-2017", tuple(seats)), event=event,
                                  tournament_game=tournament_game, table_name="table 1")
        for final in (scores, corrected_scores):
            if final is not None:
                winner = max(final, key=final.get)
                records.append(game, GameScored(end="empty-rack", winner=winner, scores=tuple(final.items()), wins=None))
        return game


def test_scored_game_enters_the_tournament_with_the_last_correction(tmp_path, event_db, capsys):
    seats = table_one(event_db)
    play_db = str(tmp_path / "table1.sqlite")
    first = {seats[0]: 100, seats[1]: -10, seats[2]: -20, seats[3]: -30}
    corrected = {seats[0]: 100, seats[1]: -12, seats[2]: -20, seats[3]: -30}
    game = record_table_game(play_db, seats, first, corrected)
    code = cli.main(["tournament", "import-play", "Kuwana", "--game", "R1-T1-G1",
                     "--play-db", play_db, "--play-game", str(game), "--db", event_db])
    assert code == 0, capsys.readouterr().err
    with sqlite3.connect(event_db) as c:
        (game_name, result_json, source), = c.execute("SELECT game, result_json, source FROM tournament_results")
    result = json.loads(result_json)
    assert game_name == "R1-T1-G1" and "table1.sqlite" in source
    assert result["scores"] == corrected and result["winner"] == seats[0]


def test_unscored_or_tampered_game_is_refused_and_nothing_recorded(tmp_path, event_db, capsys):
    seats = table_one(event_db)
    play_db = str(tmp_path / "table1.sqlite")
    unscored = record_table_game(play_db, seats, None)
    argv = ["tournament", "import-play", "Kuwana", "--game", "R1-T1-G1", "--play-db", play_db, "--db", event_db]
    assert cli.main(argv + ["--play-game", str(unscored)]) == 2
    assert "has not been scored" in capsys.readouterr().err

    scored = record_table_game(play_db, seats, {seats[0]: 50, seats[1]: -50, seats[2]: 0, seats[3]: 0})
    with sqlite3.connect(play_db) as c:
        c.execute("UPDATE events SET payload = replace(payload, '-50', '-5') WHERE game_id = ?", (scored,))
    assert cli.main(argv + ["--play-game", str(scored)]) == 3  # tampering, as every reader reports it
    assert f"game {scored}" in capsys.readouterr().err
    with sqlite3.connect(event_db) as c:
        assert c.execute("SELECT count(*) FROM tournament_results").fetchone()[0] == 0
