"""The club's player registry and ratings on a real SQLite file: IDs, renames, events entered by ID
or name (an ambiguous name refused with the candidates), ratings recomputed from the signed results
alone (one rating and one history across a rename), and the director's last draw taken back."""
from __future__ import annotations

import sqlite3

import pytest
from openskill.models import PlackettLuce

from league_helpers import director_key, json_of, play_round, players_csv, run

NAMES = ["Anna Nowak", "Ben Ode", "Cy Park", "Dee Quinn", "Eve Ray", "Finn Salo", "Gus Tan", "Hana Ueda"]


@pytest.fixture
def club(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    key = director_key(tmp_path, db)
    for name in NAMES:
        assert run("player", "add", name, "--db", db) == 0
    capsys.readouterr()
    return db, key


def test_ids_are_stable_and_listed(club, capsys):
    db, _ = club
    listed = json_of(capsys, "player", "list", "--db", db)["players"]
    assert [(p["player"], p["name"]) for p in listed] == [(f"P{i:04d}", n) for i, n in enumerate(NAMES, start=1)]
    assert run("player", "add", "Ivo Vik", "--id", "P0002", "--db", db) == 2
    assert "'P0002' is taken already" in capsys.readouterr().err


def test_an_ambiguous_name_is_refused_with_the_candidates(club, tmp_path, capsys):
    db, key = club
    assert run("player", "add", "Anna Nowak", "--db", db) == 0  # P0009, a second Anna Nowak
    capsys.readouterr()
    code = run("tournament", "create", "Spring", "--format", "kuwana", "--rated", "--director-key", key.path,
               "--players", players_csv(tmp_path, NAMES), "--db", db)
    err = capsys.readouterr().err
    assert code == 2 and "'Anna Nowak' is ambiguous" in err and "P0001 (Anna Nowak)" in err and "P0009" in err
    assert run("tournament", "list", "--db", db) == 0 and "Spring" not in capsys.readouterr().out
    by_id = ["P0009"] + NAMES[1:]  # a CSV may name IDs: the second Anna enters by hers
    assert run("tournament", "create", "Spring", "--format", "kuwana", "--rated", "--director-key", key.path,
               "--players", players_csv(tmp_path, by_id), "--db", db) == 0
    history = json_of(capsys, "tournament", "show", "Spring", "--db", db)
    assert history["players"][0] == "Anna Nowak"


def test_an_unknown_player_is_named(club, tmp_path, capsys):
    db, key = club
    code = run("tournament", "create", "Spring", "--format", "kuwana", "--registered", "--director-key", key.path,
               "--players", players_csv(tmp_path, NAMES[:7] + ["Zed Who"]), "--db", db)
    assert code == 2 and "no registered player 'Zed Who'" in capsys.readouterr().err


def _ratings_by_hand(games: list[tuple[list[str], str]]) -> dict[str, tuple[float, float, int]]:
    """openskill's Plackett-Luce over each game in order, places from the scores of `winner_by_game`
    (the winner first, then the seats in order: they lose 10, 20, 30)."""
    model = PlackettLuce()
    ratings, counts = {}, {}
    for seats, winner in games:
        order = [winner] + [p for p in seats if p != winner]
        teams = [[ratings.get(p) or model.rating()] for p in order]
        for player, (rating,) in zip(order, model.rate(teams, ranks=[1, 2, 3, 4])):
            ratings[player] = rating
            counts[player] = counts.get(player, 0) + 1
    return {p: (r.mu, r.sigma, counts[p]) for p, r in ratings.items()}


def test_a_player_renamed_between_two_events_keeps_one_rating_and_one_history(club, tmp_path, capsys):
    db, key = club
    ids = {name: f"P{i:04d}" for i, name in enumerate(NAMES, start=1)}
    assert run("tournament", "create", "Autumn", "--format", "kuwana", "--rated", "--director-key", key.path,
               "--players", players_csv(tmp_path, NAMES), "--db", db) == 0
    assert run("tournament", "draw", "Autumn", "--seed", 11, "--director-key", key.path, "--db", db) == 0
    autumn = play_round(capsys, db, "Autumn", key, 1)
    assert run("player", "rename", "Dee Quinn", "Dee Quinn-Smith", "--db", db) == 0
    second = [ids[n] if n == "Dee Quinn" else n for n in NAMES]  # entered by ID this time
    assert run("tournament", "create", "Winter", "--format", "kuwana", "--rated", "--director-key", key.path,
               "--players", players_csv(tmp_path, second, "winter.csv"), "--db", db) == 0
    assert run("tournament", "draw", "Winter", "--seed", 12, "--director-key", key.path, "--db", db) == 0
    winter = play_round(capsys, db, "Winter", key, 1)
    assert "Dee Quinn-Smith" in {p for _, seats, _ in winter for p in seats}

    table = json_of(capsys, "ratings", "--db", db)["ratings"]
    assert len(table) == 8 and len({r["player"] for r in table}) == 8
    to_id = {**ids, "Dee Quinn-Smith": "P0004"}
    expected = _ratings_by_hand([([to_id[p] for p in seats], to_id[winner]) for _, seats, winner in autumn + winter])
    for row in table:
        mu, sigma, games = expected[row["player"]]
        assert row["mu"] == pytest.approx(mu, abs=1e-3) and row["sigma"] == pytest.approx(sigma, abs=1e-3)
        assert row["games"] == games == 6
    assert [r["rating"] for r in table] == sorted((r["rating"] for r in table), reverse=True)
    dee = json_of(capsys, "player", "show", "P0004", "--db", db)
    assert [n["name"] for n in dee["names"]] == ["Dee Quinn", "Dee Quinn-Smith"]
    assert [(h["event"], h["name"]) for h in dee["history"]] == [("Autumn", "Dee Quinn")] * 3 + \
        [("Winter", "Dee Quinn-Smith")] * 3
    assert dee["rating"]["games"] == 6


def test_an_unrated_event_does_not_count(club, tmp_path, capsys):
    db, key = club
    assert run("tournament", "create", "Friendly", "--format", "kuwana", "--registered", "--director-key", key.path,
               "--players", players_csv(tmp_path, NAMES), "--db", db) == 0
    assert run("tournament", "draw", "Friendly", "--seed", 5, "--director-key", key.path, "--db", db) == 0
    play_round(capsys, db, "Friendly", key, 1)
    assert json_of(capsys, "ratings", "--db", db)["ratings"] == []


def test_the_last_draw_is_taken_back_and_redrawn_signed(club, tmp_path, capsys):
    db, key = club
    assert run("tournament", "create", "Spring", "--format", "kuwana", "--rated", "--director-key", key.path,
               "--players", players_csv(tmp_path, NAMES), "--db", db) == 0
    first = json_of(capsys, "tournament", "draw", "Spring", "--seed", 1, "--director-key", key.path, "--db", db)
    redrawn = json_of(capsys, "tournament", "redraw", "Spring", "--seed", 2, "--reason", "a player was missing",
                      "--director-key", key.path, "--db", db)
    assert redrawn["taken_back"] == 1 and redrawn["round"]["seed"] == 2
    assert redrawn["round"]["tables"] != first["round"]["tables"]
    shown = json_of(capsys, "tournament", "show", "Spring", "--db", db)
    assert shown["rounds_drawn"] == 1 and shown["rounds"][0]["seed"] == 2
    with sqlite3.connect(db) as con:
        kinds = [text for (text,) in con.execute("SELECT entry_text FROM tournament_history ORDER BY seq")]
    assert ['"kind":"entrants"' in kinds[0], '"kind":"draw"' in kinds[1], '"kind":"undo-draw"' in kinds[2],
            '"kind":"draw"' in kinds[3]] == [True] * 4
    assert '"reason":"a player was missing"' in kinds[2]
    undone = json_of(capsys, "tournament", "history", "Spring", "--db", db)["draws_taken_back"]
    assert [(u["round"], u["seed"], u["reason"]) for u in undone] == [(1, 1, "a player was missing")]
    assert undone[0]["by"].startswith("director (key ")
    play_round(capsys, db, "Spring", key, 1)
    capsys.readouterr()
    assert run("tournament", "undo-draw", "Spring", "--reason", "too late", "--director-key", key.path,
               "--db", db) == 2
    assert "round 1 cannot be taken back: log entry 5 (result)" in capsys.readouterr().err
    assert json_of(capsys, "tournament", "show", "Spring", "--db", db)["rounds_drawn"] == 1


def test_a_removed_undo_is_refused_by_every_reader(club, tmp_path, capsys):
    db, key = club
    assert run("tournament", "create", "Spring", "--format", "kuwana", "--rated", "--director-key", key.path,
               "--players", players_csv(tmp_path, NAMES), "--db", db) == 0
    assert run("tournament", "draw", "Spring", "--seed", 1, "--director-key", key.path, "--db", db) == 0
    assert run("tournament", "undo-draw", "Spring", "--reason", "wrong seed", "--director-key", key.path,
               "--db", db) == 0
    with sqlite3.connect(db) as con:  # the draw's rows put back, as if it had never been taken back
        con.execute("DELETE FROM tournament_history WHERE seq = 3")
    capsys.readouterr()
    assert run("tournament", "show", "Spring", "--db", db) == 3
    assert "event 'Spring'" in capsys.readouterr().err
    assert run("ratings", "--db", db) == 3

