"""Shared by the signed-log tests: the readers of an event, and a forger with write access to the
club's database who rewrites its log with keys of his own."""
from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from controller import cli
from controller.records.signing import PublicKey
from controller.tournament.history import SignedEntry, entry_text, sign_entry, sign_head


def run(*argv) -> int:
    return cli.main([str(a) for a in argv])


def reader_commands(db: str, event: str, folder: Path) -> dict[str, list]:
    """Every command that shows an event, by name."""
    return {
        "standings": ["tournament", "standings", event, "--db", db],
        "show": ["tournament", "show", event, "--db", db],
        "history": ["tournament", "history", event, "--db", db],
        "export": ["tournament", "export", event, "--csv", folder / "standings.csv", "--db", db],
        "print": ["tournament", "print", "standings", event, "--out", folder / "standings.html", "--db", db],
        "verify": ["verify", "--db", db],
    }


def club_board_problem(db: str) -> str | None:
    """What the club board (`tileref club serve`) says over its poll of the events."""
    from starlette.testclient import TestClient

    from controller.web.club import create_app

    with TestClient(create_app(db)) as client:
        return client.get("/api/events").json()["problem"]


def every_reader_refuses(db: str, event: str, folder: Path, capsys, words: str) -> None:
    """Every reader exits 3 naming the event and saying `words`; the club board shows no standings
    and says why."""
    capsys.readouterr()
    for name, argv in reader_commands(db, event, folder).items():
        code = run(*argv)
        out = capsys.readouterr()
        said = out.out + out.err
        assert code == 3, (name, said)
        assert f"event {event!r}" in said and words in said, (name, said)
        assert "Traceback" not in said, name
    problem = club_board_problem(db)
    assert problem is not None and words in problem, problem


def every_reader_holds(db: str, event: str, folder: Path, capsys) -> None:
    capsys.readouterr()
    for name, argv in reader_commands(db, event, folder).items():
        code = run(*argv)
        out = capsys.readouterr()
        assert code == 0, (name, out.out + out.err)
    assert club_board_problem(db) is None


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def stored_entries(con: sqlite3.Connection, event: str) -> list[SignedEntry]:
    (event_id,), = con.execute("SELECT id FROM tournament_events WHERE name = ?", (event,)).fetchall()
    return [SignedEntry(seq, text, PublicKey.from_text(key), signature) for seq, text, key, signature in con.execute(
        "SELECT seq, entry_text, director_key, signature FROM tournament_history WHERE event_id = ? ORDER BY seq",
        (event_id,))]


def write_head(con: sqlite3.Connection, event: str, entries: int, digest: str, key, at: str) -> None:
    (event_id,), = con.execute("SELECT id FROM tournament_events WHERE name = ?", (event,)).fetchall()
    head = sign_head(event, entries, digest, key, at)
    con.execute("DELETE FROM tournament_heads WHERE event_id = ?", (event_id,))
    con.execute("INSERT INTO tournament_heads VALUES (?, ?, ?, ?, ?, ?)",
                (event_id, head.entries, head.digest, head.director.text, head.signature, head.at))


def forge_append(db: str, event: str, key, data: dict, *, at: str | None = None, ring: bool = True) -> int:
    """Append one entry signed by `key`, chained to the last, and a new head signed by it: what a
    forger with the database and a key of his own writes. Returns the entry's number."""
    con = sqlite3.connect(db)
    entries = stored_entries(con, event)
    last = entries[-1]
    roster = json.loads(last.text)["roster"]
    at = at or now()
    signed = sign_entry(last.seq + 1, entry_text(event, data, last.digest(), at, roster, ring), key)
    (event_id,), = con.execute("SELECT id FROM tournament_events WHERE name = ?", (event,)).fetchall()
    con.execute("INSERT INTO tournament_history VALUES (?, ?, ?, ?, ?)",
                (event_id, signed.seq, signed.text, signed.director.text, signed.signature))
    write_head(con, event, signed.seq, signed.digest(), key, at)
    con.commit()
    con.close()
    return signed.seq


def forge_rewrite(db: str, event: str, key) -> None:
    """Re-sign the whole log, every entry and the head, with `key` (each entry's text as it was)."""
    con = sqlite3.connect(db)
    entries = stored_entries(con, event)
    (event_id,), = con.execute("SELECT id FROM tournament_events WHERE name = ?", (event,)).fetchall()
    previous = "0" * 64
    for entry in entries:
        data = json.loads(entry.text)
        data["previous"] = previous
        text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        signed = sign_entry(entry.seq, text, key)
        con.execute("UPDATE tournament_history SET entry_text = ?, director_key = ?, signature = ? "
                    "WHERE event_id = ? AND seq = ?", (signed.text, signed.director.text, signed.signature,
                                                      event_id, entry.seq))
        previous = signed.digest()
    write_head(con, event, len(entries), previous, key, json.loads(entries[-1].text)["at"])
    con.commit()
    con.close()


def amendment(game: str, scores: dict[str, int], reason: str = "recounted") -> dict:
    """An amendment's data as the log signs it (history.change_data)."""
    return {"kind": "amend", "reason": reason, "game": game, "player": "", "substitute": "",
            "result": {"kind": "rummikub", "scores": scores, "winner": max(scores, key=scores.get)},
            "replaces": "hand", "rounds_drawn": 1}
