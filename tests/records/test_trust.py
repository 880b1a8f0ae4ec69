"""Records a club can trust against a forger: the club keyring, everything a result rests on
signed, and unsigned games that must be proven older than signing.

Each attack is played as a forger would, against each reader it reaches (verify, replay, audit,
correct, import, tournament import-play, serve, the spool's delivery): every one exits 3 (or
answers 409) naming the game, and nothing is written or credited. Real SQLite files, real keys."""
from __future__ import annotations

import html
import json
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from controller.cli import main
from controller.game import judging
from controller.game.events import (
    Dealt, GameScored, StartOrderDrawn, TableRead, TurnEnded, TurnJudged, TurnStarted, canonical_json,
    event_from_payload,
)
from controller.game.journal import GameJournal
from controller.records import Reading, Records, chain_hash, reading_sha
from controller.records.signing import event_message, head_message, new_key_pair
from controller.tournament import TournamentStore
from controller.web.app import create_app
from tests.photo_helpers import tiny_photo

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
EMPTY = {"tiles": [], "sets": [], "doubts": []}


@pytest.fixture
def keys(tmp_path):
    """The club's table key and a forger's key (files, as `tileref key new` writes them)."""
    table = new_key_pair(tmp_path / "keys" / "table3.key")
    forger = new_key_pair(tmp_path / "keys" / "forger.key")
    return table, forger


def pub(key) -> str:
    return str(key.path) + ".pub"


def played_game(records: Records, seats=("Ann", "Ben")) -> int:
    """A game the machine folds (replay and audit need one): two turns, both draws on an empty table."""
    journal = GameJournal.start(records, judging.game_created("classic", seats))
    journal.record(StartOrderDrawn((), seats[0], None))
    journal.record(Dealt(1))
    for turn, player in ((1, seats[0]), (2, seats[1])):
        photo = tiny_photo(f"game {journal.game_id} turn {turn}")
        reading = Reading(reading_sha(EMPTY), photo.sha256, EMPTY, 5.0)
        journal.record(TurnStarted(turn, player, 60, None))
        journal.record(TurnEnded(turn, "button", str(turn), 40))
        journal.record(TableRead("turn", photo.sha256, reading.sha256, (), (), (), ()), photos=(photo,),
                       readings=(reading,))
        journal.record(TurnJudged(turn, player, "draw", (), (), (), 1, 0, False, False, (), ()))
    return journal.game_id


def scored_game(records: Records, seats, **link) -> int:
    """A table's scored game as the tournament takes it (`link`: event, tournament_game, table_name)."""
    game = records.start_game(judging.game_created("japan-2017", tuple(seats)), **link)
    scores = {seats[0]: 100, seats[1]: -10, seats[2]: -20, seats[3]: -30}
    records.append(game, GameScored("empty-rack", seats[0], tuple(scores.items()), None))
    return game


def director_key(tmp_path: Path) -> str:
    """The tournament director's key, which signs the event's log (made once per test)."""
    path = tmp_path / "keys" / "director.key"
    if not path.exists():
        new_key_pair(path)
    return str(path)


def trust_table(tournament: str, table, name: str, tmp_path: Path) -> None:
    """The tournament's keyring: the table's key, and the director's that signed the draw."""
    assert main(["key", "trust", pub(table), "--name", name, "--db", tournament]) == 0
    assert main(["key", "trust", director_key(tmp_path) + ".pub", "--name", "director", "--role", "director",
                 "--db", tournament]) == 0


def event_db(tmp_path: Path, name: str = "tournament.sqlite") -> tuple[str, tuple[str, ...]]:
    db = str(tmp_path / name)
    players = tmp_path / "players.csv"
    players.write_text("name\n" + "".join(f"{p}\n" for p in PLAYERS), encoding="utf-8")
    assert main(["tournament", "create", "Cup", "--format", "kuwana", "--players", str(players), "--db", db]) == 0
    assert main(["tournament", "draw", "Cup", "--seed", "6", "--db", db, "--director-key", director_key(tmp_path)]) == 0
    with TournamentStore(db) as store:
        seats = tuple(store.load("Cup").round(1).tables[0].seats)
    return db, seats


def results(db: str) -> dict:
    with TournamentStore(db) as store:
        return dict(store.load("Cup").results)


def edit(path, *statements) -> None:
    db = sqlite3.connect(path)
    for statement in statements:
        if callable(statement):
            statement(db)
        else:
            db.execute(statement)
    db.commit()
    db.close()


def rehash(db: sqlite3.Connection, game: int) -> None:
    prev = "0" * 64
    for seq, kind, payload in db.execute("SELECT seq, kind, payload FROM events WHERE game_id=? ORDER BY seq",
                                         (game,)).fetchall():
        digest = chain_hash(prev, event_from_payload(kind, json.loads(payload)))
        db.execute("UPDATE events SET prev_hash=?, hash=? WHERE game_id=? AND seq=?", (prev, digest, game, seq))
        prev = digest
    db.execute("UPDATE games SET head_hash=? WHERE id=?", (prev, game))


def strip_signatures(game: int):
    """The attack as filed: the first event's key removed, every hash made again, every signature
    nulled, and the meta row that said from which game on games are signed moved past it."""
    def apply(db: sqlite3.Connection) -> None:
        (payload,) = db.execute("SELECT payload FROM events WHERE game_id=? AND seq=1", (game,)).fetchone()
        first = json.loads(payload)
        for name in ("table_key", "key_id", "table_and_event", "unsigned_before"):
            first.pop(name, None)
        db.execute("UPDATE events SET payload=? WHERE game_id=? AND seq=1", (canonical_json(first), game))
        db.execute("UPDATE events SET signature=NULL WHERE game_id=?", (game,))
        db.execute("UPDATE games SET head_signature=NULL WHERE id=?", (game,))
        rehash(db, game)
        db.execute("UPDATE meta SET value=? WHERE key='signed_since_game'", (str(game + 100),))
    return apply


def resign(game: int, key):
    """A forger who makes the whole game again with his own key: consistent in itself."""
    def apply(db: sqlite3.Connection) -> None:
        (payload,) = db.execute("SELECT payload FROM events WHERE game_id=? AND seq=1", (game,)).fetchone()
        first = json.loads(payload)
        first.update(table_key=key.public.text, key_id=key.public.fingerprint)
        db.execute("UPDATE events SET payload=? WHERE game_id=? AND seq=1", (canonical_json(first), game))
        rehash(db, game)
        rows = db.execute("SELECT seq, hash FROM events WHERE game_id=?", (game,)).fetchall()
        for seq, digest in rows:
            db.execute("UPDATE events SET signature=? WHERE game_id=? AND seq=?",
                       (key.sign(event_message(seq, digest)), game, seq))
        count, head = db.execute("SELECT events, head_hash FROM games WHERE id=?", (game,)).fetchone()
        db.execute("UPDATE games SET head_signature=? WHERE id=?", (key.sign(head_message(game, count, head)), game))
    return apply


def club_table_db(tmp_path: Path, keys) -> tuple[Path, int]:
    """A table's records as the demo leaves them: the club's keyring trusts the table's key."""
    table, _ = keys
    db = tmp_path / "table.sqlite"
    assert main(["key", "trust", pub(table), "--name", "table 3", "--db", str(db)]) == 0
    with Records(db, key=table) as records:
        game = played_game(records)
    return db, game


def readers(db: Path, game: int, tmp_path: Path) -> dict[str, list[str]]:
    return {
        "verify": ["verify", "--db", str(db)],
        "replay": ["replay", "--db", str(db), "--game", str(game), "--no-wait"],
        "audit": ["audit", "--db", str(db), "--game", str(game), "--turn", "1", "--out", str(tmp_path / "a.html")],
        "correct": ["correct", "--db", str(db), "--game", str(game), "--rack", "Ann", "--tiles", "R1"],
    }


def every_reader_refuses(db: Path, game: int, tmp_path: Path, capsys, words: str, table=None) -> None:
    """Every reader exits 3 naming the game and saying `words`; `tournament import-play` too (into
    a tournament whose keyring trusts `table`, the table's key), `serve` answers 409."""
    events = sqlite3.connect(db).execute("SELECT count(*) FROM events").fetchone()[0]
    tournament, _ = event_db(tmp_path)
    if table is not None:
        trust_table(tournament, table, "table 1", tmp_path)
    capsys.readouterr()
    argvs = dict(readers(db, game, tmp_path))
    argvs["import-play"] = ["tournament", "import-play", "Cup", "--game", "R1-T1-G1", "--play-db", str(db),
                            "--play-game", str(game), "--db", tournament, "--director-key", director_key(tmp_path)]
    for name, argv in argvs.items():
        code = main(argv)
        out = capsys.readouterr()
        assert code == 3, (name, out)
        if name != "import-play" or table is None:  # against the tournament's keyring it may say another thing
            assert words in out.out + out.err, (name, out)
        assert f"game {game}" in out.out + out.err, (name, out)
        assert "Traceback" not in out.err
    assert not (tmp_path / "a.html").exists()
    assert sqlite3.connect(db).execute("SELECT count(*) FROM events").fetchone()[0] == events
    assert results(tournament) == {}
    page = TestClient(create_app(db)).get(f"/games/{game}")
    assert page.status_code == 409 and words in html.unescape(page.text)  # `tileref serve`


# ------------------------------------------------------------------ a forged result


def test_a_forged_game_relabelled_for_a_tournament_game_is_refused_by_import(tmp_path, keys, capsys):
    """The filed attack: a game under a brand-new key, exported, its event and tournament game
    edited to name a real game. Those are signed now: the record no longer verifies."""
    _, forger = keys
    tournament, seats = event_db(tmp_path)
    with Records(tmp_path / "forger.sqlite", key=forger) as records:
        game = scored_game(records, seats)
    out = tmp_path / "forged.json"
    assert main(["export", "--db", str(tmp_path / "forger.sqlite"), "--game", str(game), "--out", str(out)]) == 0
    document = json.loads(out.read_text())
    document["game"].update(event="Cup", tournament_game="R1-T1-G1", table="table 1")
    out.write_text(json.dumps(document))
    capsys.readouterr()
    assert main(["verify", "--record", str(out)]) == 3
    signed = "the signed game-created says table None, event None, tournament game None"
    assert signed in capsys.readouterr().err
    assert main(["import", str(out), "--db", tournament]) == 3
    assert signed in capsys.readouterr().err
    assert main(["tournament", "show", "Cup", "--db", tournament]) == 0
    assert "R1-T1-G1" not in results(tournament)


def test_a_game_signed_outside_the_keyring_is_refused_by_import_and_import_play(tmp_path, keys, capsys):
    """A forger's game played for the very tournament game (its link signed, by his key): the
    tournament's keyring does not hold his key, so neither import nor import-play takes it."""
    table, forger = keys
    tournament, seats = event_db(tmp_path)
    trust_table(tournament, table, "table 1", tmp_path)
    forged_db = tmp_path / "forger.sqlite"
    with Records(forged_db, key=forger) as records:
        game = scored_game(records, seats, event="Cup", tournament_game="R1-T1-G1", table_name="table 1")
    out = tmp_path / "forged.json"
    assert main(["export", "--db", str(forged_db), "--game", str(game), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["verify", "--record", str(out), "--db", tournament]) == 3  # checked before it is brought in
    assert forger.public.fingerprint in capsys.readouterr().err
    assert main(["import", str(out), "--db", tournament]) == 3
    err = capsys.readouterr().err
    assert f"signed by table key {forger.public.fingerprint}, which is not in this club's keyring" in err
    assert f"(game {game})" in err
    with Records(tournament, create=False, read_only=True) as club:
        assert club.game_ids() == []  # nothing written
    assert main(["tournament", "import-play", "Cup", "--game", "R1-T1-G1", "--play-db", str(forged_db),
                 "--play-game", str(game), "--db", tournament, "--director-key", director_key(tmp_path)]) == 3
    err = capsys.readouterr().err
    assert forger.public.fingerprint in err and f"game {game} in " in err
    assert "R1-T1-G1" not in results(tournament)


def test_the_tables_own_game_is_credited_and_says_whose_key_it_is(tmp_path, keys, capsys):
    table, _ = keys
    tournament, seats = event_db(tmp_path)
    trust_table(tournament, table, "table 1", tmp_path)
    play_db = tmp_path / "table1.sqlite"
    with Records(play_db, key=table) as records:
        game = scored_game(records, seats, event="Cup", tournament_game="R1-T1-G1", table_name="table 1")
    capsys.readouterr()
    assert main(["tournament", "import-play", "Cup", "--game", "R1-T1-G1", "--play-db", str(play_db),
                 "--play-game", str(game), "--db", tournament, "--director-key", director_key(tmp_path)]) == 0
    assert "key of 'table 1' in this club's keyring" in capsys.readouterr().out
    assert main(["export", "--db", str(play_db), "--game", str(game), "--out", str(tmp_path / "g.json")]) == 0
    capsys.readouterr()
    assert main(["verify", "--record", str(tmp_path / "g.json"), "--db", tournament]) == 0
    out = capsys.readouterr().out
    assert "key of 'table 1' in this club's keyring" in out and "unknown" not in out
    assert results(tournament)["R1-T1-G1"].winner == seats[0]


def test_import_play_refuses_a_game_signed_for_another_tournament_game(tmp_path, keys, capsys):
    table, _ = keys
    tournament, seats = event_db(tmp_path)
    play_db = tmp_path / "table1.sqlite"
    with Records(play_db, key=table) as records:
        game = scored_game(records, seats, event="Cup", tournament_game="R1-T1-G1")
    assert main(["tournament", "import-play", "Cup", "--game", "R1-T2-G1", "--play-db", str(play_db),
                 "--play-game", str(game), "--db", tournament, "--director-key", director_key(tmp_path)]) == 2
    assert "was signed as tournament game 'R1-T1-G1'" in capsys.readouterr().err


def test_a_referee_accepts_a_spare_laptops_game_with_a_reason_signed_and_listed(tmp_path, keys, capsys):
    table, forger = keys  # here the "forger" is a spare laptop whose key nobody trusted in advance
    tournament, seats = event_db(tmp_path)
    trust_table(tournament, table, "referee desk", tmp_path)
    spare_db = tmp_path / "spare.sqlite"
    with Records(spare_db, key=forger) as records:
        game = scored_game(records, seats, event="Cup", tournament_game="R1-T1-G1")
    referee = ["--referee-key", str(table.path)]
    # a reason is required, and the acceptance is signed by a key the ring trusts
    assert main(["tournament", "import-play", "Cup", "--game", "R1-T1-G1", "--play-db", str(spare_db), "--play-game",
                 str(game), "--db", tournament, "--director-key", director_key(tmp_path), "--accept", "spare laptop",
                 "--referee-key", str(forger.path)]) == 2
    assert "the referee's key" in capsys.readouterr().err
    assert main(["tournament", "import-play", "Cup", "--game", "R1-T1-G1", "--play-db", str(spare_db), "--play-game",
                 str(game), "--db", tournament, "--director-key", director_key(tmp_path),
                 "--accept", "spare laptop, key read out by phone", *referee]) == 0
    assert "accepted by referee key" in capsys.readouterr().out
    assert main(["key", "list", "--db", tournament]) == 0
    listing = capsys.readouterr().out
    assert f"signed by {forger.public.fingerprint}: spare laptop, key read out by phone" in listing
    assert "R1-T1-G1" in results(tournament)
    # the acceptance is signed: an edited reason no longer accepts anything
    edit(tournament, "UPDATE key_acceptances SET reason='a later excuse'")
    with Records(spare_db, create=False, read_only=True) as records, Records(tournament) as club:
        assert not records.verify(game, ring=club.keyring()).ok
    assert main(["key", "list", "--db", tournament]) == 0
    listing = capsys.readouterr().out
    assert "a later excuse (referee key" in listing and "it counts for nothing" in listing


def test_a_game_imported_with_accept_counts_and_the_acceptance_is_kept(tmp_path, keys, capsys):
    table, forger = keys
    club = tmp_path / "club.sqlite"
    assert main(["key", "trust", pub(table), "--name", "referee desk", "--db", str(club)]) == 0
    with Records(tmp_path / "spare.sqlite", key=forger) as records:
        game = played_game(records)
    out = tmp_path / "spare.json"
    assert main(["export", "--db", str(tmp_path / "spare.sqlite"), "--game", str(game), "--out", str(out)]) == 0
    assert main(["import", str(out), "--db", str(club), "--accept", "table 5's spare laptop",
                 "--referee-key", str(table.path)]) == 0
    assert "accepted by referee key" in capsys.readouterr().out
    assert main(["verify", "--db", str(club)]) == 0
    assert "table 5's spare laptop" in capsys.readouterr().out


# ------------------------------------------------------------------ the strip and re-sign attacks


def test_stripped_signatures_are_refused_by_every_reader(tmp_path, keys, capsys):
    """The filed attack on a table's file as the demo leaves it (its keyring trusts its key): the
    stripped game is unsigned, and a club that keeps a keyring counts no unsigned game unaccepted."""
    db, game = club_table_db(tmp_path, keys)
    edit(db, strip_signatures(game))
    every_reader_refuses(db, game, tmp_path, capsys, "is unsigned, and this club keeps a keyring", keys[0])


def test_stripped_signatures_beside_other_games_are_refused_by_every_reader(tmp_path, keys, capsys):
    table, _ = keys
    db = tmp_path / "table.sqlite"
    with Records(db, key=table) as records:
        game = played_game(records)
        played_game(records)
    edit(db, strip_signatures(game))
    every_reader_refuses(db, game, tmp_path, capsys, "records no table key", table)


def test_stripping_one_game_of_a_file_without_a_keyring_is_caught_by_the_others_signed_list(tmp_path, keys, capsys):
    table, _ = keys
    db = tmp_path / "table.sqlite"
    with Records(db, key=table) as records:
        first = played_game(records)
        played_game(records)
    edit(db, strip_signatures(first))
    assert main(["verify", "--db", str(db)]) == 3
    assert f"no signed game of it names game {first} among the unsigned games" in capsys.readouterr().out


def test_an_old_unsigned_game_stays_readable_beside_new_signed_ones(tmp_path, keys, capsys):
    """Games recorded before signing are named by the next signed game: they still verify."""
    table, _ = keys
    db = tmp_path / "old.sqlite"
    with Records(db, key=table) as records:
        old = played_game(records)
    edit(db, strip_signatures(old), "DELETE FROM meta WHERE key='signed_since_game'")  # as if from before signing
    with Records(db, key=table) as records:
        new = played_game(records)
        assert records.events(new)[0].unsigned_before == ((old, old),)
    assert main(["verify", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"game {old}: intact but unsigned" in out and "signer unknown to this club" in out


def test_a_game_re_signed_with_another_key_is_refused_without_key(tmp_path, keys, capsys):
    _, forger = keys
    db, game = club_table_db(tmp_path, keys)
    edit(db, resign(game, forger))
    every_reader_refuses(db, game, tmp_path, capsys, f"signed by table key {forger.public.fingerprint}, which is "
                                                     "not in this club's keyring", keys[0])


def test_without_a_keyring_every_output_says_the_signer_is_unknown(tmp_path, keys, capsys):
    table, _ = keys
    db = tmp_path / "table.sqlite"
    with Records(db, key=table) as records:
        game = played_game(records)
    assert main(["verify", "--db", str(db)]) == 0
    assert "signer unknown to this club" in capsys.readouterr().out
    assert main(["replay", "--db", str(db), "--no-wait"]) == 0
    assert "signer unknown to this club" in capsys.readouterr().out
    assert main(["export", "--db", str(db), "--out", str(tmp_path / "g.json")]) == 0
    capsys.readouterr()
    assert main(["verify", "--record", str(tmp_path / "g.json")]) == 0
    assert "signer unknown to this club" in capsys.readouterr().out
    assert main(["import", str(tmp_path / "g.json"), "--db", str(tmp_path / "club.sqlite")]) == 0
    assert "signer unknown to this club" in capsys.readouterr().out
    assert "signer unknown to this club" in TestClient(create_app(db)).get(f"/games/{game}/turns/1").text


# ------------------------------------------------------------------ fields outside the chain


@pytest.mark.parametrize("field, statement", [
    ("variant", "UPDATE games SET variant='world'"),
    ("tournament game", "UPDATE game_info SET tournament_game='R1-T2-G1'"),
    ("event", "UPDATE game_info SET event='Other Cup'"),
    ("table name", "UPDATE game_info SET table_name='table 9'"),
], ids=["variant", "tournament-game", "event", "table-name"])
def test_an_edited_field_a_result_rests_on_is_caught_by_every_reader(tmp_path, keys, capsys, field, statement):
    table, _ = keys
    db = tmp_path / "table.sqlite"
    with Records(db, key=table) as records:
        game = records.start_game(judging.game_created("classic", ("Ann", "Ben")), event="Cup",
                                  tournament_game="R1-T1-G1", table_name="table 1")
    with Records(db, key=table) as records:
        journal = GameJournal.resume(records, game)
        journal.record(StartOrderDrawn((), "Ann", None))
        journal.record(Dealt(1))
    edit(db, statement)
    every_reader_refuses(db, game, tmp_path, capsys, "TAMPERED at event 1 (game-created)", table)


def test_a_tournament_credits_a_played_game_only_from_a_key_in_its_keyring(tmp_path, keys, capsys):
    table, forger = keys
    tournament, seats = event_db(tmp_path)
    with Records(tournament, key=table) as records:  # a table playing straight into the club database
        scored_game(records, seats, event="Cup", tournament_game="R1-T1-G1", table_name="table 1")
    with TournamentStore(tournament) as store:
        assert "R1-T1-G1" not in store.load("Cup").results
        assert any("signer is unknown to this club" in note for note in store.played_notes)
    trust_table(tournament, table, "table 1", tmp_path)
    assert results(tournament)["R1-T1-G1"].winner == seats[0]
    assert main(["key", "revoke", table.public.fingerprint, "--reason", "laptop stolen", "--db", tournament]) == 0
    assert "R1-T1-G1" not in results(tournament)
    capsys.readouterr()
    assert main(["verify", "--db", tournament]) == 3
    assert "revoked on" in capsys.readouterr().out


# ------------------------------------------------------------------ keyring commands


def test_key_trust_list_revoke(tmp_path, keys, capsys):
    table, forger = keys
    db = str(tmp_path / "club.sqlite")
    assert main(["key", "list", "--db", db]) == 2  # no database yet: nothing to list
    capsys.readouterr()
    assert main(["key", "trust", pub(table), "--name", "table 3", "--db", db]) == 0
    assert main(["key", "trust", pub(table), "--name", "table 4", "--db", db]) == 2
    assert "already, as 'table 3'" in capsys.readouterr().err
    assert main(["key", "trust", pub(forger), "--name", "  ", "--db", db]) == 2
    assert main(["key", "list", "--db", db]) == 0
    listing = capsys.readouterr().out
    assert f"{table.public.fingerprint}\ttable 3" in listing and forger.public.fingerprint not in listing
    assert main(["key", "revoke", "0123456789abcdef", "--reason", "x", "--db", db]) == 2
    assert main(["key", "revoke", table.public.fingerprint, "--reason", "lost", "--db", db]) == 0
    assert main(["key", "trust", pub(table), "--name", "table 3", "--db", db]) == 2
    assert "revoked" in capsys.readouterr().err
    assert main(["key", "list", "--db", db]) == 0
    assert "REVOKED" in capsys.readouterr().out
    assert main(["key", "accept", "--db", db, "--game", "1", "--reason", "x"]) == 2  # no such game


def test_key_accept_records_a_signed_acceptance_of_a_game_in_the_database(tmp_path, keys, capsys):
    table, forger = keys
    db, game = club_table_db(tmp_path, keys)
    with Records(db, key=forger) as records:
        other = played_game(records)
    capsys.readouterr()
    assert main(["verify", "--db", str(db)]) == 3
    out = capsys.readouterr().out
    assert f"game {other} in" in out and forger.public.fingerprint in out and "1 signed by a key" in out
    assert main(["key", "accept", "--db", str(db), "--game", str(other), "--reason", "guest table",
                 "--referee-key", str(table.path)]) == 0
    assert main(["verify", "--db", str(db)]) == 0
    assert "guest table" in capsys.readouterr().out


def test_a_spooled_game_whose_key_the_club_does_not_trust_stays_in_the_spool(tmp_path, keys):
    from controller.records.errors import TamperedError
    from tests.pg_local import LocalPostgres, postgres_bin_dir
    from controller.records.spool import SpooledRecords

    if postgres_bin_dir() is None:
        pytest.skip("no PostgreSQL binaries")
    table, forger = keys
    with LocalPostgres(tmp_path / "pg") as server:
        spool = tmp_path / "spool.sqlite"
        records = SpooledRecords(server.url, spool=spool, retry_s=60, key=forger)
        game = records.start_game(judging.game_created("classic", ("Ann", "Ben")))
        server.stop()
        records.append(game, StartOrderDrawn((), "Ann", None))
        records.close()
        server.start()
        with Records(server.url) as club:
            club.keyring().trust(table.public, "table 3")
        with pytest.raises(TamperedError, match=f"signed by table key {forger.public.fingerprint}, which is not"):
            SpooledRecords(server.url, spool=spool, key=forger)
        with Records(server.url, create=False, read_only=True) as club:
            assert club.head(game)[0] == 1  # nothing delivered
        with Records(server.url) as club:
            club.keyring().trust(forger.public, "table 4")
        again = SpooledRecords(server.url, spool=spool, key=forger)
        assert again.pending() == 0 and again.delivered_total == 1
        again.close()
