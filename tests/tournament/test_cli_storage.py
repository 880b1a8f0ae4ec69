"""The `tileref tournament` commands over a real SQLite file: a whole event, reproducible
draws, exports, and bad input refused without changing what is recorded."""
import csv
import io
import json
import sqlite3

import pytest

from controller import cli
from controller.tournament import TournamentStore

PLAYERS = ["Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "tileref.sqlite")


@pytest.fixture
def players_csv(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("name,club\n" + "".join(f"{p},Kuwana\n" for p in PLAYERS), encoding="utf-8")
    return str(path)


def run(*argv):
    return cli.main([str(a) for a in argv])


def dump(db):
    with sqlite3.connect(db) as c:
        return [row for table in ("tournament_events", "tournament_players", "tournament_rounds",
                                  "tournament_draws", "tournament_results")
                for row in c.execute(f"SELECT * FROM {table} ORDER BY 1, 2")]


def results_json(tmp_path, db, name, round_number, winner_seat=1):
    """A results file for every game of a round: seat `winner_seat` wins with 100."""
    with TournamentStore(db) as store:
        event = store.load(name)
    entries = []
    round_ = event.round(round_number)
    for table in round_.tables:
        for g in range(1, table.games + 1):
            winner = table.seats[winner_seat - 1]
            losers = [p for p in table.seats if p != winner]
            scores = {p: -5 * (i + 1) * g for i, p in enumerate(losers)}
            scores[winner] = 100
            entries.append({"game": f"R{round_number}-T{table.number}-G{g}", "winner": winner, "scores": scores})
    path = tmp_path / f"{name}-r{round_number}.json"
    path.write_text(json.dumps({"results": entries}))
    return str(path), entries


def test_whole_kuwana_event_through_the_command_line(tmp_path, db, players_csv, capsys):
    assert run("tournament", "create", "Kuwana", "--format", "kuwana", "--players", players_csv, "--db", db) == 0
    assert run("tournament", "draw", "Kuwana", "--seed", 42, "--db", db) == 0
    out = capsys.readouterr().out
    assert "Round 1: first round (seed 42)" in out and "lot 1 -> last tie-break" in out
    path, _ = results_json(tmp_path, db, "Kuwana", 1)
    assert run("tournament", "import-json", "Kuwana", path, "--db", db) == 0
    assert run("tournament", "draw", "Kuwana", "--seed", 43, "--db", db) == 0
    path, _ = results_json(tmp_path, db, "Kuwana", 2, winner_seat=2)
    assert run("tournament", "import-json", "Kuwana", path, "--db", db) == 0
    capsys.readouterr()
    assert run("tournament", "standings", "Kuwana", "--json", "--db", db) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finished"] is True
    with TournamentStore(db) as store:
        final_seats = store.load("Kuwana").round(2).tables[0].seats
    assert data["sections"][0]["rows"][0]["player"] == final_seats[1]  # won all three final games
    assert data["sections"][0]["rows"][0]["note"] == "winner"
    csv_path, html_path = tmp_path / "s.csv", tmp_path / "s.html"
    assert run("tournament", "export", "Kuwana", "--csv", csv_path, "--html", html_path, "--db", db) == 0
    rows = list(csv.DictReader(io.StringIO(csv_path.read_text())))
    assert [r["player"] for r in rows] == [r["player"] for r in data["sections"][0]["rows"]]
    page = html_path.read_text()
    assert page.startswith("<!DOCTYPE html>") and "final standings" in page and "@media print" in page


def test_same_seed_same_draw_in_another_database(tmp_path, players_csv, capsys):
    outs = []
    for n in (1, 2):
        db = str(tmp_path / f"db{n}.sqlite")
        run("tournament", "create", "W", "--format", "kuwana", "--players", players_csv, "--db", db)
        capsys.readouterr()
        run("tournament", "draw", "W", "--seed", 7, "--db", db)
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]
    with TournamentStore(str(tmp_path / "db1.sqlite")) as store:
        round_ = store.load("W").round(1)
    assert round_.seed == 7 and len(round_.draw) > len(PLAYERS)


@pytest.fixture
def drawn(tmp_path, db, players_csv, capsys):
    run("tournament", "create", "K", "--format", "kuwana", "--players", players_csv, "--db", db)
    run("tournament", "draw", "K", "--seed", 1, "--db", db)
    with TournamentStore(db) as store:
        table = store.load("K").round(1).tables[0]
    _, entries = results_json(tmp_path, db, "K", 1)
    assert entries[-1]["game"] == "R1-T2-G3"
    run("tournament", "import-json", "K", bad_entry(tmp_path, entries[:-1], "good.json"), "--db", db)
    capsys.readouterr()
    return table  # every game recorded but R1-T2-G3


def bad_entry(tmp_path, entries, name="bad.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"results": entries}))
    return str(path)


@pytest.mark.parametrize(
    "make_entry, message",
    [
        (lambda s: {"game": "R1-T1-G1", "winner": s[0], "scores": {p: 0 for p in s} | {s[0]: 100}}, "already has a result"),
        (lambda s: {"game": "R3-T1-G1", "winner": s[0], "scores": {s[0]: 100}}, "'R3-T1-G1' has not been drawn"),
        (lambda s: {"game": "R1-T2-G3", "winner": "Zed", "scores": {"Zed": 100}}, "unknown player 'Zed'"),
        (lambda s: {"game": "R1-T2-G3", "winner": s[0], "scores": {s[0]: 100}}, "does not sit at table 2"),
    ],
    ids=["duplicate", "not-drawn", "unknown-player", "not-at-table"],
)
def test_bad_results_are_refused_and_nothing_changes(tmp_path, db, drawn, capsys, make_entry, message):
    before = dump(db)
    path = bad_entry(tmp_path, [make_entry(drawn.seats)])
    assert run("tournament", "import-json", "K", path, "--db", db) == 2
    assert message in capsys.readouterr().err
    assert dump(db) == before


def test_a_batch_with_one_bad_score_records_nothing(tmp_path, db, players_csv, capsys):
    run("tournament", "create", "K", "--format", "kuwana", "--players", players_csv, "--db", db)
    run("tournament", "draw", "K", "--seed", 1, "--db", db)
    path, entries = results_json(tmp_path, db, "K", 1)
    entries[-1]["scores"][entries[-1]["winner"]] = 75  # a win is worth 100
    before = dump(db)
    assert run("tournament", "import-json", "K", bad_entry(tmp_path, entries), "--db", db) == 2
    err = capsys.readouterr().err
    assert entries[-1]["game"] in err and "75" in err
    assert dump(db) == before
    assert run("tournament", "draw", "K", "--db", db) == 2
    assert "without a result" in capsys.readouterr().err


def test_hand_entry_and_csv_import(tmp_path, db, players_csv, capsys):
    run("tournament", "create", "K", "--format", "kuwana", "--players", players_csv, "--db", db)
    run("tournament", "draw", "K", "--seed", 3, "--db", db)
    with TournamentStore(db) as store:
        seats = store.load("K").round(1).tables[0].seats
    a, b, c, d = seats
    assert run("tournament", "result", "K", "R1-T1-G1", "--winner", a, "--score", f"{a}=100",
               "--score", f"{b}=-10", "--score", f"{c}=-20", "--score", f"{d}=0", "--db", db) == 0
    lines = ["game,player,score,winner"] + [f"R1-T1-G2,{p},{s},{w}" for p, s, w in
                                           ((a, -3, ""), (b, 100, "x"), (c, -4, ""), (d, -5, ""))]
    path = tmp_path / "hand.csv"
    path.write_text("\n".join(lines) + "\n")
    assert run("tournament", "import-csv", "K", path, "--db", db) == 0
    with TournamentStore(db) as store:
        assert store.load("K").results["R1-T1-G2"].winner == b
        assert store.sources("K")["R1-T1-G1"] == "hand"
    lines[2] = lines[2].replace(",x", ",")
    path.write_text("\n".join(lines).replace("G2", "G3") + "\n")
    assert run("tournament", "import-csv", "K", path, "--db", db) == 2
    assert "exactly one winner" in capsys.readouterr().err


def test_mahjong_event_imports_raw_hanchan_and_prints_decimals(tmp_path, db, capsys):
    players = tmp_path / "p.csv"
    players.write_text("name\n" + "\n".join(f"M{i:02}" for i in range(16)) + "\n")
    run("tournament", "create", "Ron", "--format", "ron-cup", "--players", players, "--db", db)
    run("tournament", "draw", "Ron", "--seed", 5, "--db", db)
    with TournamentStore(db) as store:
        tables = store.load("Ron").round(1).tables
    entries = []
    for t in tables:
        points = dict(zip(t.seats, (40_000, 30_000, 16_300, 12_700)))
        entries.append({"game": f"R1-T{t.number}-G1", "hanchan": {
            "points": points, "seat_order": list(t.seats), "riichi_left": 1, "chombo": {}}})
    path = tmp_path / "r1.json"
    path.write_text(json.dumps(entries))
    assert run("tournament", "import-json", "Ron", path, "--db", db) == 0
    capsys.readouterr()
    run("tournament", "standings", "Ron", "--json", "--db", db)
    text = capsys.readouterr().out
    assert '"total": 61.0' in text and '"total": -47.3' in text


def test_players_csv_with_duplicates_or_without_name_column(tmp_path, db, capsys):
    path = tmp_path / "p.csv"
    path.write_text("name\nAnn\nBen\nAnn\n" + "".join(f"X{i}\n" for i in range(5)))
    assert run("tournament", "create", "K", "--format", "kuwana", "--players", path, "--db", db) == 2
    assert "'Ann' is entered twice" in capsys.readouterr().err
    path.write_text("player\nAnn\n")
    assert run("tournament", "create", "K", "--format", "kuwana", "--players", path, "--db", db) == 2
    assert "'name' column" in capsys.readouterr().err
    assert run("tournament", "standings", "K", "--db", db) == 2
    assert "does not exist" in capsys.readouterr().err  # a refused create made no database at all


def test_knockout_seed_column_and_othello_and_shogi_entry(tmp_path, db, capsys):
    path = tmp_path / "p.csv"
    path.write_text("name,seed\nAnn,2\nBen,\nCho,1\nDai,\n")
    assert run("tournament", "create", "O", "--format", "knockout", "--players", path,
               "--set", "game=othello", "--db", db) == 0
    run("tournament", "draw", "O", "--seed", 2, "--db", db)
    with TournamentStore(db) as store:
        event = store.load("O")
    assert event.settings.seeded == ("Cho", "Ann")
    first, second = (t.seats for t in event.round(1).tables)
    assert run("tournament", "result", "O", "R1-T1-G1", "--othello", first[0], first[1], "30-30",
               "--db", db) == 2
    assert "draw right" in capsys.readouterr().err
    assert run("tournament", "result", "O", "R1-T1-G1", "--othello", first[0], first[1], "30-30",
               "--draw-right", first[1], "--db", db) == 0
    assert run("tournament", "result", "O", "R1-T2-G1", "--shogi", second[0], second[1],
               "repetition,sente", "--db", db) == 0
    with TournamentStore(db) as store:
        results = store.load("O").results
    assert results["R1-T1-G1"].winner == first[1]
    assert results["R1-T2-G1"].winner == second[1]  # after the swap, sente is second[1]


def test_disqualification_is_recorded_and_survives_reloading(tmp_path, db, capsys):
    path = tmp_path / "p.csv"
    path.write_text("name\n" + "\n".join(f"W{i:02}" for i in range(18)) + "\n")
    run("tournament", "create", "W", "--format", "warsaw", "--players", path, "--db", db)
    run("tournament", "draw", "W", "--seed", 9, "--db", db)
    capsys.readouterr()
    assert run("tournament", "disqualify", "W", "--round", 1, "--table", 9, "--reason", "x", "--db", db) == 2
    assert "no table 9" in capsys.readouterr().err
    assert run("tournament", "disqualify", "W", "--round", 1, "--table", 2,
               "--reason", "tile count 105", "--db", db) == 0
    with TournamentStore(db) as store:
        event = store.load("W")
    assert set(event.disqualified()) == set(event.round(1).tables[1].seats)
    assert all(not g.startswith("R1-T2-") for g in event.missing_games(1))


EVIL = '=HYPERLINK("http://evil.example","x")'


def test_a_formula_for_a_name_is_written_as_text_and_scores_stay_numbers(tmp_path, db, capsys):
    players = tmp_path / "players.csv"
    names = [EVIL, "+Ben", "-Cho", "@Dai", "Eve", "Fay", "Gus", "Hal"]
    players.write_text("name,club\n" + "".join(f'"{n.replace(chr(34), chr(34) * 2)}",K\n' for n in names),
                       encoding="utf-8")
    assert run("tournament", "create", "F", "--format", "kuwana", "--players", players, "--db", db) == 0
    assert run("tournament", "draw", "F", "--seed", 5, "--db", db) == 0
    path, _ = results_json(tmp_path, db, "F", 1)
    assert run("tournament", "import-json", "F", path, "--db", db) == 0
    csv_path = tmp_path / "s.csv"
    assert run("tournament", "export", "F", "--csv", csv_path, "--db", db) == 0
    rows = list(csv.reader(io.StringIO(csv_path.read_text(encoding="utf-8"))))
    header, body = rows[0], rows[1:]
    written = {row[1] for row in body}
    assert "'" + EVIL in written and EVIL not in written
    assert {"'+Ben", "'-Cho", "'@Dai", "Eve"} <= written
    cells = [cell for row in body for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")], cells
    negative = [c for row in body for c in row[2:] if c.startswith("-")]
    assert negative and all(float(c) < 0 for c in negative), body  # a score such as -12 stays a number
    assert all(not c.startswith("'-") or c[2:3].isalpha() for c in cells)


@pytest.mark.parametrize("separator", [",", ";", "\t", "|"], ids=["comma", "semicolon", "tab", "bar"])
def test_a_name_with_a_separator_stays_one_text_cell_whatever_the_reader_splits_at(tmp_path, db, capsys, separator):
    players = tmp_path / "players.csv"
    names = ["Ann;=1+1", "Ben:=2+2", "Cho|@SUM(A1)", "Dai,-3+3", "Eve =HYPERLINK(1)", "Fay", "Gus", "Hal"]
    players.write_text("name\n" + "".join(f'"{n}"\n' for n in names), encoding="utf-8")
    assert run("tournament", "create", "S", "--format", "kuwana", "--players", players, "--db", db) == 0
    assert run("tournament", "draw", "S", "--seed", 5, "--db", db) == 0
    path, _ = results_json(tmp_path, db, "S", 1)
    assert run("tournament", "import-json", "S", path, "--db", db) == 0
    csv_path = tmp_path / "s.csv"
    assert run("tournament", "export", "S", "--csv", csv_path, "--db", db) == 0
    text = csv_path.read_text(encoding="utf-8")
    # a spreadsheet told to split at `separator` (quotes kept as quotes, as LibreOffice and Excel do)
    cells = [cell for row in csv.reader(io.StringIO(text), delimiter=separator) for cell in row]
    assert not [c for c in cells if c.lstrip()[:1] in ("=", "+", "@") or c.lstrip().startswith("-3+")], cells
    # read as written (commas), each name is one cell: as given, a quote before what would start a formula
    rows = list(csv.reader(io.StringIO(text)))
    assert {row[1] for row in rows[1:]} == {"Ann;'=1+1", "Ben:=2+2", "Cho|'@SUM(A1)", "Dai,'-3+3",
                                             "Eve =HYPERLINK(1)", "Fay", "Gus", "Hal"}


@pytest.mark.parametrize("text, written", [
    (EVIL, "'" + EVIL), ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("-12", "-12"), ("+3.5", "+3.5"), ("Ann", "Ann"), ("", ""),
    ("Ann;=1+1", "Ann;'=1+1"), ("Ann; =1+1", "Ann; '=1+1"), ("Ann|@A1", "Ann|'@A1"), ("A;-12", "A;-12"),
], ids=["hyperlink", "plus", "minus-formula", "at", "tab", "carriage-return", "negative-number", "signed-decimal",
        "name", "empty", "after-a-semicolon", "after-a-semicolon-and-a-space", "after-a-bar", "a-number-after"])
def test_spreadsheet_text_escapes_only_what_starts_a_formula(text, written):
    from controller.tournament.render import spreadsheet_text

    assert spreadsheet_text(text) == written


@pytest.fixture(params=["sqlite", "postgresql"])
def any_engine_db(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "club.sqlite")
    return request.getfixturevalue("postgres_url")


@pytest.mark.parametrize("seed", [2**31, 2**48 - 1, 2**63 - 1], ids=["2^31", "48-bit", "largest"])
def test_wide_draw_seed_kept(any_engine_db, players_csv, capsys, seed):
    assert run("tournament", "create", "Club night", "--format", "kuwana", "--players", players_csv,
               "--db", any_engine_db) == 0
    assert run("tournament", "draw", "Club night", "--seed", seed, "--db", any_engine_db) == 0, capsys.readouterr().err
    assert f"(seed {seed})" in capsys.readouterr().out
    with TournamentStore(any_engine_db) as store:
        assert store.load("Club night").round(1).seed == seed


def test_a_fresh_random_seed_is_drawn_and_kept_on_postgresql(postgres_url, players_csv, capsys):
    assert run("tournament", "create", "Club night", "--format", "kuwana", "--players", players_csv,
               "--db", postgres_url) == 0
    assert run("tournament", "draw", "Club night", "--db", postgres_url) == 0, capsys.readouterr().err
    with TournamentStore(postgres_url) as store:
        assert store.load("Club night").round(1).seed >= 0


def test_postgresql_32_bit_seeds_widened(postgres_url, players_csv, capsys, monkeypatch):
    from controller.tournament import storage

    from controller.tournament.event import draw_next_round

    with monkeypatch.context() as before_the_step:  # the database as tileref laid it out with 32-bit seeds
        before_the_step.setattr(storage, "MIGRATIONS", storage.MIGRATIONS[:1])
        run("tournament", "create", "Old", "--format", "kuwana", "--players", players_csv, "--db", postgres_url)
        with TournamentStore(postgres_url) as store:  # a round as that tileref drew it: rows, no signed log
            (event_id,), = store.db.execute("SELECT id FROM tournament_events WHERE name = 'Old'").fetchall()
            drawn = draw_next_round(store.load("Old"), 5).rounds[-1]
            with store.db.transaction():
                store._write_round(event_id, drawn)
        assert seed_column_type(postgres_url) == "integer"
    capsys.readouterr()
    assert run("tournament", "show", "Old", "--db", postgres_url) == 3  # rows outside the log: the director signs them
    assert "round 1 in tournament_rounds is outside the log" in capsys.readouterr().err
    assert run("tournament", "sign-log", "Old", "--db", postgres_url) == 0
    with TournamentStore(postgres_url) as store:
        assert [r.seed for r in store.load("Old").rounds] == [5]
        versions = store.db.execute("SELECT version FROM schema_version WHERE component = 'tournament' "
                                    "ORDER BY version").fetchall()
    assert [v for (v,) in versions] == [1, 2, 3, 4]
    assert seed_column_type(postgres_url) == "bigint"


def seed_column_type(url):
    with TournamentStore(url, read_only=True) as store:
        return store.db.execute("SELECT data_type FROM information_schema.columns "
                                "WHERE table_name = 'tournament_rounds' AND column_name = 'seed'").fetchone()[0]
