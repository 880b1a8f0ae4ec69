"""An honest evening under a keyring, kuwana and warsaw, on a real SQLite file and on a real
PostgreSQL server: draws, results typed, imported and played at the tables (one straight into
the club database, one from a table's own file), an amendment, a withdrawal (and a late entry),
a substitute. Every entry is signed by the director's key the club trusts; every reader
(standings, show, history, export, print, verify --db, the club board) holds with exit 0."""
from __future__ import annotations

import json

import pytest

from controller.game.events import GameScored
from controller.game.judging import game_created
from controller.records import Records
from controller.records.signing import new_key_pair

from signed_log_helpers import every_reader_holds, run
from test_organiser_evening import seat_one_wins


@pytest.fixture(params=["sqlite", "postgresql"])
def club_db(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "club.sqlite")
    return request.getfixturevalue("postgres_url")


class Director:
    def __init__(self, db: str, event: str, key: str, capsys) -> None:
        self.db, self.event, self.key, self.capsys = db, event, key, capsys

    def run(self, command: str, *args, signed: bool = True) -> dict:
        self.capsys.readouterr()
        key = ["--director-key", self.key] if signed else []
        code = run("tournament", command, self.event, *args, *key, "--db", self.db, "--json")
        captured = self.capsys.readouterr()
        assert code == 0, f"{command} {args}: {captured.err}"
        return json.loads(captured.out)


def played(db: str, key, event: str, result: dict, table: str) -> int:
    """A table's game played for `result["game"]`, signed with the table's key, scored as `result`."""
    seats = tuple(result["scores"])
    with Records(db, key=key) as records:
        game = records.start_game(game_created("japan-2017", seats), event=event, tournament_game=result["game"],
                                  table_name=table)
        records.append(game, GameScored("empty-rack", result["winner"], tuple(result["scores"].items()), None))
    return game


def typed_args(result: dict) -> list[str]:
    return ["--winner", result["winner"], *[a for p, s in result["scores"].items() for a in ("--score", f"{p}={s}")]]


@pytest.mark.parametrize("fmt, players, settings, world, rounds", [
    ("kuwana", [f"K{i:02}" for i in range(1, 9)], [], False, 2),
    ("warsaw", [f"W{i:02}" for i in range(1, 11)], ["--set", "semi_finalists=8"], True, 4),
], ids=["kuwana", "warsaw"])
def test_honest_evening_holds(club_db, tmp_path, capsys, fmt, players, settings, world, rounds):
    keys = tmp_path / "keys"
    director, table1, table2 = (new_key_pair(keys / f"{name}.key") for name in ("director", "table1", "table2"))
    csv = tmp_path / "players.csv"
    csv.write_text("name\n" + "".join(f"{p}\n" for p in players), encoding="utf-8")
    event = "Evening"
    assert run("tournament", "create", event, "--format", fmt, "--players", csv, *settings, "--db", club_db) == 0
    for key, name, role in ((director, "director", "director"), (table1, "table 1", "table"),
                            (table2, "table 2", "table")):
        assert run("key", "trust", f"{key.path}.pub", "--name", name, "--role", role, "--db", club_db) == 0
    desk = Director(club_db, event, str(director.path), capsys)

    for number in range(1, rounds + 1):
        round_ = desk.run("draw", "--seed", 2000 + number, "--quiet")["round"]
        results = seat_one_wins(round_, world=world)
        if number == 1:
            straight, from_file, typed = results[0], next(r for r in results if r["game"].startswith("R1-T2-")), \
                results[1]
            played(club_db, table1, event, straight, "table 1")  # straight into the club database
            file_game = played(str(tmp_path / "table2.sqlite"), table2, event, from_file, "table 2")
            desk.run("import-play", "--game", from_file["game"], "--play-db", str(tmp_path / "table2.sqlite"),
                     "--play-game", str(file_game))
            wrong = json.loads(json.dumps(typed))
            loser = list(wrong["scores"])[1]
            wrong["scores"][loser] += 10
            if world:
                wrong["scores"][wrong["winner"]] -= 10
            desk.run("result", typed["game"], *typed_args(wrong))
            desk.run("amend", typed["game"], *typed_args(typed), "--reason", "score sheet says otherwise")
            rest = [r for r in results if r["game"] not in (straight["game"], from_file["game"], typed["game"])]
            (tmp_path / "r1.json").write_text(json.dumps({"results": rest}), encoding="utf-8")
            desk.run("import-json", str(tmp_path / "r1.json"))
            leaving = round_["tables"][1]["seats"][-1]
            desk.run("withdraw", leaving, "--reason", "last train")
            if fmt == "warsaw":
                desk.run("late-entry", "Late Lena", "--reason", "takes the place of the player who left")
            continue
        if number == rounds:
            seat = round_["tables"][0]["seats"][1]
            desk.run("substitute", f"R{number}-T1-G2", "--for", seat, "--player", "Reserve Rie", "--reason",
                     "called away for one game")
            game_two = next(r for r in results if r["game"] == f"R{number}-T1-G2")
            game_two["scores"] = {("Reserve Rie" if p == seat else p): s for p, s in game_two["scores"].items()}
        (tmp_path / f"r{number}.json").write_text(json.dumps({"results": results}), encoding="utf-8")
        desk.run("import-json", str(tmp_path / f"r{number}.json"))

    table = desk.run("standings", signed=False)
    assert table["finished"]
    assert [c.split(" ")[1] for c in table["changes"]][:2] == ["amended", "withdrew"]
    with Records(club_db, create=False, read_only=True) as records:  # the game played straight in is in the log
        logged = [json.loads(text) for (text,) in records.db.execute(
            "SELECT entry_text FROM tournament_history ORDER BY seq").fetchall()]
    assert [e["game"] for e in logged if e["kind"] == "played"] == ["R1-T1-G1"]
    kinds = [h["kind"] for h in desk.run("history", signed=False)["history"]]
    assert kinds == ["amend", "withdraw"] + (["late-entry"] if fmt == "warsaw" else []) + ["substitute"]
    every_reader_holds(club_db, event, tmp_path, capsys)
    capsys.readouterr()
    assert run("verify", "--db", club_db, "--json") == 0
    verified = json.loads(capsys.readouterr().out)
    capsys.readouterr()
    assert run("tournament", "history", event, "--db", club_db, "--json") == 0
    log = json.loads(capsys.readouterr().out)["log"]
    assert log["entries"] == len(logged) and len(log["head"]) == 64
    assert verified["tournament_events"] == [{"event": event, "ok": True, "problem": None, "log": log}]
    assert verified["all_hold"] and len(verified["games"]) == 1  # the game played straight into the database
