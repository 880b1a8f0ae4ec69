"""Shared by the league tests: a club's director at the command line, and rounds played by rule."""
from __future__ import annotations

import json
from pathlib import Path

from controller import cli
from controller.records.signing import new_key_pair


def run(*argv) -> int:
    return cli.main([str(a) for a in argv])


def json_of(capsys, *argv) -> dict:
    capsys.readouterr()
    code = run(*argv, "--json")
    out = capsys.readouterr()
    assert code == 0, (argv, out.err)
    return json.loads(out.out)


def director_key(folder: Path, db: str, name: str = "director"):
    """A director's key, trusted as a director's in the club's keyring."""
    key = new_key_pair(folder / f"{name}.key")
    assert run("key", "trust", f"{key.path}.pub", "--name", name, "--role", "director", "--db", db) == 0
    return key


def players_csv(folder: Path, entries: list[str], name: str = "players.csv") -> Path:
    path = folder / name
    path.write_text("name\n" + "".join(f"{e}\n" for e in entries), encoding="utf-8")
    return path


def winner_by_game(seats: list[str], game: int) -> tuple[str, dict[str, int]]:
    """The rule every test round is played by: game g is won by seat ((g - 1) mod 4) + 1 (100
    points); the other seats lose 10, 20, 30 in seat order."""
    winner = seats[(game - 1) % len(seats)]
    losers = [p for p in seats if p != winner]
    return winner, {winner: 100} | {p: -10 * (i + 1) for i, p in enumerate(losers)}


def play_round(capsys, db: str, event: str, key, number: int) -> list[tuple[str, list[str], str]]:
    """Enter every game of round `number` by the rule above; returns (game, seats, winner) in order."""
    shown = json_of(capsys, "tournament", "show", event, "--round", number, "--db", db)
    played = []
    for table in shown["rounds"][0]["tables"]:
        seats = list(table["seats"])
        for game in range(1, len(table["games"]) + 1):
            winner, scores = winner_by_game(seats, game)
            game_id = f"R{number}-T{table['number']}-G{game}"
            args = [a for name, points in scores.items() for a in ("--score", f"{name}={points}")]
            assert run("tournament", "result", event, game_id, *args, "--winner", winner,
                       "--director-key", key.path, "--db", db) == 0, game_id
            played.append((game_id, seats, winner))
    return played
