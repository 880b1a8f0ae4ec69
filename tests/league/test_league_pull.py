"""Two club servers and a league server, each a real PostgreSQL server of its own started here; club
Birch's goes offline for a while. Both clubs play
rated events with players the league gave IDs to; the league pulls their signed logs, counts each
result once, and its table and ratings agree with a hand computation; a result signed by a key the
league was not given (a forger with write access to Birch's database, who put his key in Birch's own
keyring) is refused and never counted."""
from __future__ import annotations

import html5lib
import pytest
from openskill.models import PlackettLuce

from league_helpers import director_key, json_of, play_round, players_csv, run

ALDER = {f"L{n:02d}": f"Alder player {n}" for n in range(1, 9)}
BIRCH = {f"L{n:02d}": f"Birch player {n}" for n in range(5, 13)}  # L05-L08 play at both clubs


@pytest.fixture
def servers(tmp_path):
    """Alder's, Birch's and the league's servers."""
    from tests.pg_local import LocalPostgres, postgres_bin_dir

    if postgres_bin_dir() is None:
        pytest.skip("no PostgreSQL binaries (Debian's postgresql package)")
    started = []
    try:
        for name in ("alder", "birch", "league"):
            started.append(LocalPostgres(tmp_path / f"{name}-server", database=name).start())
        yield started
    finally:
        for server in started:
            server.cleanup()


def _club(capsys, folder, db: str, players: dict[str, str], event: str):
    key = director_key(folder, db, f"{event.split()[0].lower()}-director")
    for player_id, name in players.items():
        assert run("player", "add", name, "--id", player_id, "--db", db) == 0
    assert run("tournament", "create", event, "--format", "kuwana", "--rated", "--director-key", key.path,
               "--players", players_csv(folder, list(players), f"{event}.csv"), "--db", db) == 0
    assert run("tournament", "draw", event, "--seed", 7, "--director-key", key.path, "--db", db) == 0
    capsys.readouterr()
    return key


def _by_hand(games: list[tuple[list[str], str]]):
    """League points (the players finished ahead of: the winner 3, then the seats in order 2, 1, 0)
    and openskill's Plackett-Luce ratings over the games in order."""
    model, points, ratings = PlackettLuce(), {}, {}
    for seats, winner in games:
        order = [winner] + [p for p in seats if p != winner]
        for ahead_of, player in zip((3, 2, 1, 0), order):
            points[player] = points.get(player, 0) + ahead_of
        teams = [[ratings.get(p) or model.rating()] for p in order]
        for player, (rating,) in zip(order, model.rate(teams, ranks=[1, 2, 3, 4])):
            ratings[player] = rating
    return points, ratings


def _ids(played, players: dict[str, str]) -> list[tuple[list[str], str]]:
    to_id = {name: pid for pid, name in players.items()}
    return [([to_id[p] for p in seats], to_id[winner]) for _, seats, winner in played]


def _check_league(capsys, league: str, games: list[tuple[list[str], str]]) -> list[dict]:
    points, ratings = _by_hand(games)
    table = json_of(capsys, "league", "table", "--db", league)["table"]
    assert {row["player"]: row["points"] for row in table} == points
    assert [row["points"] for row in table] == sorted(points.values(), reverse=True)
    rated = json_of(capsys, "league", "ratings", "--db", league)["ratings"]
    assert {r["player"] for r in rated} == set(ratings)
    for row in rated:
        assert row["mu"] == pytest.approx(ratings[row["player"]].mu, abs=1e-3)
        assert row["sigma"] == pytest.approx(ratings[row["player"]].sigma, abs=1e-3)
    return table


def test_two_clubs_feed_one_league_table(servers, tmp_path, capsys):
    alder_server, birch_server, league_server = servers
    alder, birch, league = alder_server.url, birch_server.url, league_server.url
    (tmp_path / "alder").mkdir()
    (tmp_path / "birch").mkdir()
    alder_key = _club(capsys, tmp_path / "alder", alder, ALDER, "Alder autumn")
    birch_key = _club(capsys, tmp_path / "birch", birch, BIRCH, "Birch autumn")
    alder_round = play_round(capsys, alder, "Alder autumn", alder_key, 1)
    birch_round_1 = play_round(capsys, birch, "Birch autumn", birch_key, 1)

    for club, db, key in (("Alder", alder, alder_key), ("Birch", birch, birch_key)):
        assert run("league", "add-club", club, "--source", db, "--director-key", f"{key.path}.pub",
                   "--db", league) == 0

    birch_server.stop()  # Birch is offline: the league takes Alder's results, Birch's come later
    pulled = json_of(capsys, "league", "pull", "--db", league)["clubs"]
    assert pulled[0] == {"club": "Alder", "taken": [{"event": "Alder autumn", "entries": 8}], "offline": None,
                         "refused": []}
    assert pulled[1]["club"] == "Birch" and "cannot reach the server" in pulled[1]["offline"]
    _check_league(capsys, league, _ids(alder_round, ALDER))

    birch_server.start()  # back: Birch plays its next round, then delivers everything
    assert run("tournament", "draw", "Birch autumn", "--seed", 8, "--director-key", birch_key.path,
               "--db", birch) == 0
    birch_round_2 = play_round(capsys, birch, "Birch autumn", birch_key, 2)
    pulled = json_of(capsys, "league", "pull", "--db", league)["clubs"]
    assert pulled[0]["taken"] == [] and pulled[1]["taken"][0]["event"] == "Birch autumn"
    everything = _ids(alder_round, ALDER) + _ids(birch_round_1 + birch_round_2, BIRCH)
    table = _check_league(capsys, league, everything)
    both = next(row for row in table if row["player"] == "L05")
    assert both["clubs"] == ["Alder", "Birch"] and both["events"] == 2

    again = json_of(capsys, "league", "pull", "--db", league)["clubs"]  # delivered twice, counted once
    assert [c["taken"] for c in again] == [[], []]
    assert json_of(capsys, "league", "table", "--db", league)["table"] == table

    # a forger with write access to Birch's database trusts his own key there and amends a result with it
    (tmp_path / "forger").mkdir()
    forger = director_key(tmp_path / "forger", birch, "forger")
    game, seats, winner = birch_round_2[0]
    loser = next(p for p in seats if p != winner)
    scores = [a for p in seats for a in ("--score", f"{p}={100 if p == loser else -10}")]
    assert run("tournament", "amend", "Birch autumn", game, *scores, "--winner", loser, "--reason", "recount",
               "--director-key", forger.path, "--db", birch) == 0
    capsys.readouterr()
    assert run("league", "pull", "--db", league) == 3
    err = capsys.readouterr().err
    assert "club 'Birch'" in err and "event 'Birch autumn'" in err and forger.public.fingerprint in err
    assert "refused, never counted" in err
    _check_league(capsys, league, everything)  # the table as before the forgery

    # an unsigned result typed straight into Alder's results table is outside the log: never read
    import psycopg

    with psycopg.connect(alder, autocommit=True) as con:
        con.execute("INSERT INTO tournament_results (event_id, game, result_json, source, entered_at) "
                    "SELECT id, 'R1-T1-G4', %s, 'hand', '2026-11-28T20:00:00+00:00' FROM tournament_events",
                    ('{"kind": "rummikub", "scores": {"Alder player 1": 100}, "winner": "Alder player 1"}',))
    assert run("tournament", "standings", "Alder autumn", "--db", alder) == 3  # the club's readers refuse it
    assert json_of(capsys, "league", "pull", "--club", "Alder", "--db", league)["clubs"][0]["taken"] == []
    _check_league(capsys, league, everything)

    assert run("league", "publish", "--out", tmp_path / "league-site", "--title", "Two clubs", "--db", league) == 0
    pages = sorted((tmp_path / "league-site").rglob("*.html"))
    assert len(pages) == 2 + 12  # the table, the ratings, one page per player
    for page in pages:
        html5lib.HTMLParser(strict=True).parse(page.read_text(encoding="utf-8"))
    front = (tmp_path / "league-site" / "index.html").read_text(encoding="utf-8")
    assert front.index(f">{table[0]['player']}<") < front.index(f">{table[-1]['player']}<")
