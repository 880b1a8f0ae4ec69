"""Records: every way of tampering with a game's record is caught by every reader.

One real record is made per module with `tileref demo` (rendered frames, the real reader, the
emulated box; about 10 s); each test tampers with a copy. Each tampering is checked against each
reader (`verify`, `replay`, `audit`, `correct`, `tournament import-play`): all exit 3 and print the
same message, which names the game and the event the tampering shows at. Then: signatures
against a given public key, old unsigned records, and the key files.
"""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from controller.cli import main
from controller.game.events import GameCreated, RefereeCorrection, canonical_json, event_from_payload
from controller.records import Integrity, Records, chain_hash
from controller.records.signing import TableKey, event_message, head_message

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture(scope="module")
def demo_record(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tamper-demo")
    assert main(["demo", "--out", str(out), "--quiet"]) == 0
    return out / "demo.sqlite"


@pytest.fixture(scope="module")
def tournament(tmp_path_factory) -> Path:
    """A kuwana event whose round 1 table 2 seats the demo's four players (draw seed 6)."""
    base = tmp_path_factory.mktemp("tamper-tournament")
    players = base / "players.csv"
    players.write_text("name\n" + "".join(f"{p}\n" for p in PLAYERS), encoding="utf-8")
    db = base / "tileref.sqlite"
    assert main(["tournament", "create", "Cup", "--format", "kuwana", "--players", str(players), "--db", str(db)]) == 0
    assert main(["tournament", "draw", "Cup", "--seed", "6", "--db", str(db)]) == 0
    return db


@pytest.fixture
def record(demo_record, tmp_path) -> Path:
    copy = tmp_path / "copy.sqlite"
    shutil.copy(demo_record, copy)
    return copy


# ------------------------------------------------------------------ tampering


def rows(db: sqlite3.Connection) -> list[tuple[int, str, str, str, str]]:
    return list(db.execute("SELECT seq, kind, payload, prev_hash, hash FROM events WHERE game_id=1 ORDER BY seq"))


def kind_of(db: sqlite3.Connection, seq: int) -> str:
    return db.execute("SELECT kind FROM events WHERE game_id=1 AND seq=?", (seq,)).fetchone()[0]


def penalty_seq(db: sqlite3.Connection) -> int:
    return next(seq for seq, kind, payload, *_ in rows(db)
                if kind == "turn-judged" and json.loads(payload)["outcome"] == "penalty")


def penalty_start_photo(db: sqlite3.Connection) -> str:
    """The photo that proves the penalty: the table as the penalty turn started."""
    judged = json.loads(next(p for s, k, p, *_ in rows(db) if s == penalty_seq(db)))
    return next(json.loads(p)["photo"] for s, k, p, *_ in rows(db)
                if k == "turn-started" and json.loads(p)["turn"] == judged["turn"])


def first_event_resting_on_photo(db: sqlite3.Connection, sha: str) -> int:
    """The first event that names the photo, itself or through the reading it names (a fused reading
    rests on the photo of every frame it was fused from: a frame of a still table may be the same
    bytes as a later turn's start)."""
    def reading_photos(reading: str) -> set[str]:
        photos = set()
        for photo, raw in db.execute("SELECT photo, reading FROM readings WHERE sha256=?", (reading,)).fetchall():
            photos.add(photo)
            for part in json.loads(raw).get("fused_from", ()):
                photos |= reading_photos(part)
        return photos

    for seq, kind, payload, *_ in rows(db):
        data = json.loads(payload)
        if data.get("photo") == sha or (data.get("reading") and sha in reading_photos(data["reading"])):
            return seq
    raise AssertionError(f"no event rests on photo {sha}")


def rehash_from(db: sqlite3.Connection, start: int) -> None:
    """What a forger without the key does after an edit: recompute every hash from `start` on and
    move the head, keeping the old signatures (he cannot make new ones)."""
    prev = "0" * 64 if start == 1 else db.execute(
        "SELECT hash FROM events WHERE game_id=1 AND seq=?", (start - 1,)).fetchone()[0]
    for seq, kind, payload, _, _ in rows(db):
        if seq < start:
            continue
        digest = chain_hash(prev, event_from_payload(kind, json.loads(payload)))
        db.execute("UPDATE events SET prev_hash=?, hash=? WHERE game_id=1 AND seq=?", (prev, digest, seq))
        prev = digest
    db.execute("UPDATE games SET head_hash=? WHERE id=1", (prev,))


def edit_penalty(db: sqlite3.Connection) -> int:
    seq = penalty_seq(db)
    db.execute("UPDATE events SET payload=replace(payload, '\"outcome\":\"penalty\"', '\"outcome\":\"legal\"') "
               "WHERE game_id=1 AND seq=?", (seq,))
    return seq


def event_edit(db):
    seq = edit_penalty(db)
    return seq, "turn-judged"


def row_delete(db):
    seq = penalty_seq(db) - 1  # the table read the verdict was made on
    db.execute("DELETE FROM events WHERE game_id=1 AND seq=?", (seq,))
    return seq, None


def reorder(db):
    seq = penalty_seq(db)
    later = kind_of(db, seq + 1)
    db.execute("UPDATE events SET seq=-1 WHERE game_id=1 AND seq=?", (seq,))
    db.execute("UPDATE events SET seq=? WHERE game_id=1 AND seq=?", (seq, seq + 1))
    db.execute("UPDATE events SET seq=? WHERE game_id=1 AND seq=-1", (seq + 1,))
    return seq, later


def photo_delete(db):
    sha = penalty_start_photo(db)
    seq = first_event_resting_on_photo(db, sha)
    db.execute("PRAGMA foreign_keys=OFF")
    db.execute("DELETE FROM photos WHERE sha256=?", (sha,))
    return seq, kind_of(db, seq)


def photo_swap(db):
    sha = penalty_start_photo(db)
    seq = first_event_resting_on_photo(db, sha)
    db.execute("UPDATE photos SET data=(SELECT data FROM photos WHERE sha256!=? LIMIT 1) WHERE sha256=?", (sha, sha))
    return seq, kind_of(db, seq)


def readings_delete(db):
    seq = next(s for s, k, p, *_ in rows(db) if json.loads(p).get("reading"))
    db.execute("DELETE FROM readings")
    return seq, kind_of(db, seq)


def verdicts_edit(db):
    seq = penalty_seq(db)
    db.execute("UPDATE verdicts SET outcome='legal' WHERE game_id=1 AND event_seq=?", (seq,))
    return seq, "turn-judged"


def edit_penalty_and_its_copy(db: sqlite3.Connection) -> int:
    """The verdict edited, and the verdicts table made to agree (a careful forger)."""
    seq = edit_penalty(db)
    db.execute("UPDATE verdicts SET outcome='legal', verdict=(SELECT payload FROM events WHERE game_id=1 AND seq=?) "
               "WHERE game_id=1 AND event_seq=?", (seq, seq))
    return seq


def recomputed_hashes(db):
    seq = edit_penalty_and_its_copy(db)
    rehash_from(db, seq)
    return seq, "turn-judged"


def truncation(db):
    keep = penalty_seq(db) - 1  # the penalty and everything after it gone; the head moved back
    db.execute("DELETE FROM events WHERE game_id=1 AND seq>?", (keep,))
    db.execute("DELETE FROM verdicts WHERE game_id=1 AND event_seq>?", (keep,))
    head = db.execute("SELECT hash FROM events WHERE game_id=1 AND seq=?", (keep,)).fetchone()[0]
    db.execute("UPDATE games SET events=?, head_hash=? WHERE id=1", (keep, head))
    return keep, kind_of(db, keep)


FORGER = TableKey(Ed25519PrivateKey.generate(), None)


def append_forged(db: sqlite3.Connection, key: TableKey | None) -> int:
    """A correction appended with a correct chain hash, signed (event and head) by `key`."""
    count, head = db.execute("SELECT events, head_hash FROM games WHERE id=1").fetchone()
    event = RefereeCorrection(target="rack:Ann", changes=(), rack=(), note="forged: Ann's rack was empty")
    seq, digest = count + 1, chain_hash(head, event)
    db.execute("INSERT INTO events VALUES (1, ?, ?, ?, ?, ?, '2026-11-22T00:00:00Z', ?)",
               (seq, event.kind.value, canonical_json(event.payload()), head, digest,
                key.sign(event_message(seq, digest)) if key else None))
    db.execute("UPDATE games SET events=?, head_hash=?, head_signature=? WHERE id=1",
               (seq, digest, key.sign(head_message(1, seq, digest)) if key else None))
    return seq


def forged_append(db):
    return append_forged(db, FORGER), "referee-correction"


@dataclass(frozen=True)
class Tampering:
    name: str
    apply: Callable[[sqlite3.Connection], tuple[int, str | None]]  # -> the event it must show at


TAMPERINGS = [
    Tampering("event-edit", event_edit),
    Tampering("row-delete", row_delete),
    Tampering("reorder", reorder),
    Tampering("photo-delete", photo_delete),
    Tampering("photo-swap", photo_swap),
    Tampering("readings-delete", readings_delete),
    Tampering("verdicts-edit", verdicts_edit),
    Tampering("recomputed-hashes", recomputed_hashes),
    Tampering("truncation", truncation),
    Tampering("forged-append", forged_append),
]


def tamper(path: Path, how: Callable) -> tuple[int, str | None]:
    db = sqlite3.connect(path)
    where = how(db)
    db.commit()
    db.close()
    return where


# -------------------------------------------------------------------- readers


def run_verify(record: Path, tmp: Path, tournament: Path) -> list[str]:
    return ["verify", "--db", str(record)]


def run_replay(record, tmp, tournament):
    return ["replay", "--db", str(record), "--no-wait"]


def run_audit(record, tmp, tournament):
    return ["audit", "--db", str(record), "--turn", "6", "--out", str(tmp / "audit.html")]


def run_correct(record, tmp, tournament):
    return ["correct", "--db", str(record), "--rack", "Ann", "--tiles", "R1 R2"]


def run_import(record, tmp, tournament):
    return ["tournament", "import-play", "Cup", "--game", "R1-T2-G1", "--play-db", str(record),
            "--play-game", "1", "--db", str(tournament)]


READERS = {"verify": run_verify, "replay": run_replay, "audit": run_audit, "correct": run_correct,
           "import": run_import}


def results_entered(tournament: Path) -> int:
    with sqlite3.connect(tournament) as c:
        return c.execute("SELECT count(*) FROM tournament_results").fetchone()[0]


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("tampering", TAMPERINGS, ids=[t.name for t in TAMPERINGS])
def test_every_reader_reports_every_tampering_the_same_way(record, tmp_path, tournament, capsys, tampering, reader):
    seq, kind = tamper(record, tampering.apply)
    with Records(record, create=False) as records:
        report = records.verify(1)
        events_before = records.db.execute("SELECT count(*) FROM events").fetchone()[0]
    assert report.status is Integrity.TAMPERED and report.first_bad_seq == seq, report.problem
    where = f"TAMPERED at event {seq}" + (f" ({kind})" if kind else "")
    assert report.problem.startswith("game 1 in ") and where in report.problem, report.problem
    entered = results_entered(tournament)

    code = main(READERS[reader](record, tmp_path, tournament))
    out = capsys.readouterr()
    assert code == 3, out
    assert report.problem in out.out + out.err  # one message, the same for every reader
    assert "Traceback" not in out.err
    if reader != "verify":
        assert out.err.strip() == f"tileref {'tournament' if reader == 'import' else reader}: {report.problem}"
    with Records(record, create=False) as records:  # nothing written, no page, no result
        assert records.db.execute("SELECT count(*) FROM events").fetchone()[0] == events_before
    assert not (tmp_path / "audit.html").exists()
    assert results_entered(tournament) == entered


@pytest.mark.parametrize("reader", list(READERS))
def test_an_untampered_record_passes_every_reader(record, tmp_path, tournament, capsys, reader):
    code = main(READERS[reader](record, tmp_path, tournament))
    out = capsys.readouterr()
    if reader == "import":  # verified, then credited only to the game its signed link names: the demo names none
        assert code == 2 and "was not signed as played for a tournament game" in out.err and "TAMPERED" not in out.err
        return
    assert code == 0, out.err
    if reader == "verify":
        assert "game 1: intact, signed by table key" in out.out and "all hold" in out.out
    if reader == "replay":
        assert "hash chain intact, signed by table key" in out.out and "record head" in out.out


def test_play_resume_reports_tampering_before_anything_opens_the_game(record, tmp_path, capsys):
    """`play --resume` verifies before it folds: a deleted row is tampering (3), not a state error (2)."""
    import cv2
    import numpy as np

    seq, _ = tamper(record, row_delete)
    cv2.imwrite(str(tmp_path / "frame.png"), np.zeros((64, 64, 3), np.uint8))
    db = sqlite3.connect(record)
    db.execute("UPDATE games SET state='turn-ready'")  # so that the game looks unfinished
    db.commit()
    db.close()
    code = main(["play", "--camera", str(tmp_path), "--timer", "emulator", "--db", str(record), "--resume"])
    err = capsys.readouterr().err
    assert code == 3 and f"game 1 in '{record}' TAMPERED at event {seq}" in err, err


# ------------------------------------------------------------------ signatures


def write_public_key(key: TableKey, path: Path) -> Path:
    from cryptography.hazmat.primitives import serialization

    path.write_bytes(key.private.public_key().public_bytes(serialization.Encoding.PEM,
                                                           serialization.PublicFormat.SubjectPublicKeyInfo))
    return path


def table_public_key(tmp_path: Path) -> Path:
    from controller.records.signing import default_key_path, public_path

    return public_path(default_key_path())  # the demo was signed with the tests' default key


def test_verify_with_the_tables_key_names_it_and_with_another_key_fails(record, tmp_path, capsys):
    assert main(["verify", "--db", str(record), "--key", str(table_public_key(tmp_path))]) == 0
    assert "(the given key)" in capsys.readouterr().out
    other = write_public_key(FORGER, tmp_path / "other.pub")
    assert main(["verify", "--db", str(record), "--key", str(other)]) == 3
    out = capsys.readouterr().out
    assert f"not by the given key {FORGER.public.fingerprint}" in out and "TAMPERED at event 1 (game-created)" in out
    assert main(["replay", "--db", str(record), "--no-wait", "--key", str(other)]) == 3


def test_a_forged_append_signed_by_another_key_or_unsigned_fails(record, capsys):
    seq = tamper(record, lambda db: append_forged(db, None))
    assert main(["verify", "--db", str(record)]) == 3
    assert f"TAMPERED at event {seq} (referee-correction): no signature" in capsys.readouterr().out


def resign_whole_game(db: sqlite3.Connection, key: TableKey) -> None:
    """A forger who rewrites the whole game with his own key: new key in the first event, every hash
    and signature made again. Consistent in itself; only the table's public key tells."""
    first = json.loads(rows(db)[0][2])
    first.update(table_key=key.public.text, key_id=key.public.fingerprint)
    db.execute("UPDATE events SET payload=? WHERE game_id=1 AND seq=1", (canonical_json(first),))
    rehash_from(db, 1)
    for seq, _, _, _, digest in rows(db):
        db.execute("UPDATE events SET signature=? WHERE game_id=1 AND seq=?", (key.sign(event_message(seq, digest)), seq))
    count, head = db.execute("SELECT events, head_hash FROM games WHERE id=1").fetchone()
    db.execute("UPDATE games SET head_signature=? WHERE id=1", (key.sign(head_message(1, count, head)),))


def test_a_game_re_signed_with_another_key_is_caught_by_the_keyring_or_the_tables_key(record, tmp_path, capsys):
    tamper(record, lambda db: (edit_penalty_and_its_copy(db), resign_whole_game(db, FORGER)))
    # the demo's keyring trusts the demo's key only: the forger's key is refused without --key
    assert main(["verify", "--db", str(record)]) == 3
    assert f"signed by table key {FORGER.public.fingerprint}, which is not in this club's keyring" \
        in capsys.readouterr().out
    assert main(["verify", "--db", str(record), "--key", str(table_public_key(tmp_path))]) == 3
    assert "TAMPERED at event 1 (game-created): signed by table key" in capsys.readouterr().out
    # with no keyring the forged game is consistent in itself: verify says which key signed it and
    # that this club does not know it, which is all it can say (docs/trust.md)
    tamper(record, lambda db: db.execute("DELETE FROM keyring"))
    assert main(["verify", "--db", str(record)]) == 0
    out = capsys.readouterr().out
    assert f"signed by table key {FORGER.public.fingerprint}" in out and "signer unknown to this club" in out


def test_stripping_the_key_does_not_pass_for_an_old_record(record, capsys):
    def strip(db):
        first = json.loads(rows(db)[0][2])
        del first["table_key"], first["key_id"]
        db.execute("UPDATE events SET payload=?, signature=NULL WHERE game_id=1 AND seq=1", (canonical_json(first),))
        db.execute("UPDATE events SET signature=NULL")
        db.execute("UPDATE games SET head_signature=NULL")
        rehash_from(db, 1)

    tamper(record, strip)
    assert main(["verify", "--db", str(record)]) == 3
    assert "every game of this file from game 1 on was signed" in capsys.readouterr().out


def test_correct_with_another_tables_key_is_refused_as_bad_input(record, tmp_path, capsys):
    from controller.records.signing import new_key_pair

    new_key_pair(tmp_path / "other.key")
    code = main(["correct", "--db", str(record), "--rack", "Ann", "--tiles", "R1", "--key", str(tmp_path / "other.key")])
    assert code == 2 and "is signed by table key" in capsys.readouterr().err


# ------------------------------------------------------------- old records

OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY, variant TEXT NOT NULL, created_at TEXT NOT NULL,
    head_hash TEXT NOT NULL, events INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL DEFAULT 'new');
CREATE TABLE players (game_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY (game_id, seat));
CREATE TABLE events (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL, hash TEXT NOT NULL, recorded_at TEXT NOT NULL, PRIMARY KEY (game_id, seq));
CREATE TABLE photos (sha256 TEXT PRIMARY KEY, game_id INTEGER NOT NULL, mime TEXT NOT NULL, width INTEGER NOT NULL,
    height INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE readings (sha256 TEXT PRIMARY KEY, game_id INTEGER NOT NULL, photo TEXT, reading TEXT NOT NULL,
    elapsed_ms REAL);
CREATE TABLE verdicts (game_id INTEGER NOT NULL, turn INTEGER NOT NULL, event_seq INTEGER NOT NULL,
    player TEXT NOT NULL, outcome TEXT NOT NULL, verdict TEXT NOT NULL, PRIMARY KEY (game_id, event_seq));
INSERT INTO meta VALUES ('schema_version', '1');
"""


def old_record(path: Path) -> Path:
    """A records file as tileref wrote it before signing (schema 1): the same game, no key, no signatures."""
    from controller.game import judging
    from controller.game.events import Dealt, StartOrderDrawn, TurnEnded, TurnStarted

    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute("INSERT INTO games VALUES (1, 'classic', '2026-11-01T10:00:00Z', ?, 0, 'new')", ("0" * 64,))
    db.executemany("INSERT INTO players VALUES (1, ?, ?)", list(enumerate(("Ann", "Ben"))))
    prev = "0" * 64
    events = [judging.game_created("classic", ("Ann", "Ben")), StartOrderDrawn((), "Ann", None), Dealt(1),
              TurnStarted(1, "Ann", 60, None), TurnEnded(1, "button", "1", 50)]
    for seq, event in enumerate(events, start=1):
        digest = chain_hash(prev, event)
        db.execute("INSERT INTO events VALUES (1, ?, ?, ?, ?, ?, '2026-11-01T10:00:00Z')",
                   (seq, event.kind.value, canonical_json(event.payload()), prev, digest))
        prev = digest
    db.execute("UPDATE games SET head_hash=?, events=?, state='turn-reading'", (prev, len(events)))
    db.commit()
    db.close()
    return path


def test_an_old_unsigned_record_still_opens_and_says_so(tmp_path, capsys):
    path = old_record(tmp_path / "old.sqlite")
    assert main(["verify", "--db", str(path)]) == 0
    assert "game 1: intact but unsigned (recorded before signing), 5 events" in capsys.readouterr().out
    assert main(["replay", "--db", str(path), "--no-wait"]) == 0
    assert "unsigned (recorded before signing)" in capsys.readouterr().out
    # with the table's key, an unsigned game cannot be vouched for
    key = write_public_key(FORGER, tmp_path / "k.pub")
    assert main(["verify", "--db", str(path), "--key", str(key)]) == 3
    assert "unsigned (recorded before signing): it cannot be checked" in capsys.readouterr().out
    # an old file a table writes to again: its old game stays unsigned and holds; new games are signed
    with Records(path) as records:
        assert records.verify(1).status is Integrity.UNSIGNED
        from controller.game import judging
        new = records.start_game(judging.game_created("classic", ("Cat", "Dan")))
        assert records.verify(new).status is Integrity.INTACT
        assert records.verify(1).status is Integrity.UNSIGNED


def test_an_old_record_tampered_with_is_still_caught(tmp_path, capsys):
    path = old_record(tmp_path / "old.sqlite")
    tamper(path, lambda db: db.execute("DELETE FROM events WHERE seq=3"))
    assert main(["replay", "--db", str(path), "--no-wait"]) == 3
    assert "TAMPERED at event 3: event 3 is missing" in capsys.readouterr().err


# -------------------------------------------------------------------- keys


def test_key_new_writes_a_private_key_only_its_owner_reads_and_the_public_key(tmp_path, capsys):
    out = tmp_path / "keys" / "table.key"
    assert main(["key", "new", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600 and b"PRIVATE KEY" in out.read_bytes()
    assert b"PUBLIC KEY" in (tmp_path / "keys" / "table.key.pub").read_bytes()
    assert main(["key", "show", "--key", str(out) + ".pub"]) == 0
    fingerprint = capsys.readouterr().out.split()[-1]
    assert fingerprint in printed
    assert main(["key", "new", "--out", str(out)]) == 2  # never overwrites a table's key
    assert "already exists" in capsys.readouterr().err


def test_the_default_key_is_made_once_where_the_environment_says_and_announced(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TILEREF_KEY_DIR", str(tmp_path / "cfg"))
    assert main(["key", "show"]) == 0
    out = capsys.readouterr()
    assert f"made this table's signing key {tmp_path / 'cfg' / 'table.key'}" in out.out and out.err == ""
    assert stat.S_IMODE(os.stat(tmp_path / "cfg" / "table.key").st_mode) == 0o600
    assert main(["key", "show"]) == 0
    assert "signing key" not in capsys.readouterr().out  # made once


def test_a_bad_key_file_is_bad_input(record, tmp_path, capsys):
    (tmp_path / "junk.pub").write_text("not a key")
    assert main(["verify", "--db", str(record), "--key", str(tmp_path / "junk.pub")]) == 2
    assert "junk.pub" in capsys.readouterr().err
    assert main(["verify", "--db", str(record), "--key", str(tmp_path / "none.pub")]) == 2
    assert "none.pub" in capsys.readouterr().err


def test_the_first_event_records_the_key_and_the_display_and_audit_show_the_head(record, tmp_path):
    with Records(record, create=False) as records:
        first = records.events(1)[0]
        report = records.require_intact(1)
    assert isinstance(first, GameCreated) and first.key_id == report.key_id and len(first.key_id) == 16
    assert main(["audit", "--db", str(record), "--turn", "6", "--out", str(tmp_path / "a.html")]) == 0
    page = (tmp_path / "a.html").read_text()
    assert f"Record head: <code>{report.head_digest}</code>" in page and report.key_id in page


def test_a_truncation_cannot_borrow_its_last_events_signature_for_the_head(record, capsys):
    """The head is signed under its own tag: the last remaining event's signature does not pass as one."""
    def truncate_and_borrow(db):
        keep, kind = truncation(db)
        (signature,) = db.execute("SELECT signature FROM events WHERE game_id=1 AND seq=?", (keep,)).fetchone()
        db.execute("UPDATE games SET head_signature=? WHERE id=1", (signature,))
        return keep, kind

    keep, kind = tamper(record, truncate_and_borrow)
    assert main(["verify", "--db", str(record)]) == 3
    assert f"TAMPERED at event {keep} ({kind}): the head ({keep} events ending here" in capsys.readouterr().out
