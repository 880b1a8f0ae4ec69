"""The open game record: one JSON document per game (docs/record-format.md), what PGN is to chess.

`export_record` writes a game as canonical JSON (sorted keys, fixed separators, UTF-8, one final
newline), so export -> import -> export gives the same bytes. The document holds the whole chain
(every event's kind, payload, previous hash, hash, signature), the signed head, the photos and
readings the events rest on, and, for people and other programs, what the events say folded into
turns (the tables before and after, tiles played, verdicts, clock times, photo hashes) and the
result. `verify_record` checks a document from the file alone: it rebuilds the game in a scratch
in-memory database and runs the very verification every reader runs (chain, signatures, head,
evidence, projections), then checks that every derived part (players, rules, turns, result) is
what the events say; the first thing that does not hold fails it, naming the turn.
"""
from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.game.events import EventKind, canonical_json

from .chain import RecordedEvent
from .errors import ImportConflictError, RecordFormatError, RecordsError, TamperedError
from .signing import PublicKey
from .store import Records
from .verification import record_checks
from .verification.report import ChainReport

FORMAT = "tileref-game-record"
VERSION = 1


def dumps(document: dict) -> str:
    return canonical_json(document) + "\n"


# ------------------------------------------------------------------------------- export


def export_record(records: Records, game_id: int, *, photos: bool = True, report: ChainReport | None = None) -> dict:
    """The game as an open record. The game is verified first (a tampered game is not exported)."""
    report = report or records.require_intact(game_id)
    recorded = records.recorded(game_id)
    head, count, head_signature = records.game_row(game_id)
    row = records.db.execute("SELECT variant, created_at, state FROM games WHERE id=?", (game_id,)).fetchone()
    info = records.info(game_id)
    photo_shas, reading_shas = _evidence_names(records, game_id, recorded)
    photo_rows = []
    for sha in sorted(photo_shas):
        photo = records.photo(sha)
        photo_rows.append({"sha256": sha, "mime": photo.mime, "width": photo.width, "height": photo.height,
                           "data": base64.b64encode(photo.data).decode("ascii") if photos else None})
    reading_rows = []
    for sha, photo in sorted(reading_shas, key=lambda pair: (pair[0], pair[1] or "")):
        reading = records.reading(sha, photo)
        reading_rows.append({"sha256": sha, "photo": photo if photo is not None else reading.photo,
                             "reading": reading.reading, "elapsed_ms": reading.elapsed_ms})
    events = [_event_json(r) for r in recorded]
    document = {
        "format": FORMAT,
        "version": VERSION,
        "game": {
            "id": records.signed_id(game_id),
            "variant": row[0],
            "created_at": row[1],
            "state": row[2],
            "table": info["table_name"],
            "event": info["event"],
            "tournament_game": info["tournament_game"],
        },
        "head": {"events": int(count), "hash": head, "signature": head_signature},
        "events": events,
        "photos": photo_rows,
        "readings": reading_rows,
    }
    # frames read for a look the eyes then refused are kept in the database for the audit, but a record
    # holds only what its events rest on (the rule every reader of a record checks)
    kept_photos, kept_readings = record_checks.evidence_names(document)
    document["photos"] = [row for row in photo_rows if row["sha256"] in kept_photos]
    document["readings"] = [row for row in reading_rows
                            if row["sha256"] in kept_readings and (row["photo"] is None or row["photo"] in kept_photos)]
    document.update(derived(recorded))
    return document


def _evidence_names(records: Records, game_id: int, recorded: list[RecordedEvent]
                    ) -> tuple[set[str], set[tuple[str, str | None]]]:
    """The photos, and the readings as (reading, photo it was read from), the game rests on: a reading
    is written once per photo an event reads it from, as the events pair them (a file written before
    readings were kept per photo holds one row for two photos read alike; the record has both)."""
    photos = {r[0] for r in records.db.execute("SELECT sha256 FROM photos WHERE game_id=?", (game_id,))}
    readings = {(r[0], r[1]) for r in records.db.execute("SELECT sha256, photo FROM readings WHERE game_id=?",
                                                         (game_id,))}
    for r in recorded:  # an event may rest on a photo first stored with another game (same bytes)
        data = r.event.payload()
        if data.get("photo"):
            photos.add(data["photo"])
        if data.get("reading"):
            stored = records.reading(data["reading"], data.get("photo"))
            readings.add((data["reading"], data.get("photo") or (stored.photo if stored else None)))
    for sha, _ in list(readings):
        reading = records.reading(sha)
        for source in (reading.reading.get("fused_from", ()) if reading and isinstance(reading.reading, dict) else ()):
            if not any(have == source for have, _ in readings):
                found = records.reading(source)
                readings.add((source, found.photo if found else None))
    photos.update(photo for _, photo in readings if photo)
    return photos, readings


def _event_json(r: RecordedEvent) -> dict:
    return {"seq": r.seq, "kind": r.event.kind.value, "payload": r.event.payload(), "prev_hash": r.prev_hash,
            "hash": r.hash, "signature": r.signature, "recorded_at": r.recorded_at}


def derived(recorded: list[RecordedEvent]) -> dict:
    """What the events say, folded: players, rules, key, turns, result (all checked on import)."""
    from controller.game.machine import GameModel, TableState, apply
    from controller.game.events import GameCreated, GameScored, TableRead, TurnEnded, TurnJudged, TurnStarted

    first = recorded[0].event if recorded else None
    created = first if isinstance(first, GameCreated) else None
    turns: list[dict] = []
    model = GameModel()
    current: dict | None = None
    result = None
    for r in recorded:
        event = r.event
        before = model
        try:
            model = apply(model, event)
        except Exception:  # a game the machine cannot fold further (still a valid chain): stop folding
            break
        if isinstance(event, TurnStarted):
            if current is not None:
                turns.append(current)
            current = {"turn": event.turn, "player": event.player, "events": [r.seq, r.seq],
                       "table_before": [list(m) for m in before.table.melds], "table_after": None,
                       "played": [], "taken": [], "verdicts": [], "photos": [], "readings": [],
                       "clock": {"seconds": event.seconds, "started_at": r.recorded_at, "ended_at": None,
                                 "ended_by": None, "seconds_left": None}}
        if current is not None:
            current["events"][1] = r.seq
            data = event.payload()
            for field, into in (("photo", "photos"), ("reading", "readings")):
                if data.get(field) and data[field] not in current[into]:
                    current[into].append(data[field])
            if isinstance(event, TurnEnded):
                current["clock"].update(ended_at=r.recorded_at, ended_by=event.cause, seconds_left=event.seconds_left)
            if isinstance(event, TurnJudged):
                current["played"], current["taken"] = list(event.played), list(event.taken)
                current["verdicts"].append({
                    "event": r.seq, "outcome": event.outcome, "violations": [list(v) for v in event.violations],
                    "draw": event.draw, "penalty_points": event.penalty_points, "opened_now": event.opened_now,
                    "restore_required": event.restore_required})
            current["table_after"] = [list(m) for m in model.table.melds]
            current["head"] = r.hash
        if isinstance(event, GameScored):
            result = {"end": event.end, "winner": event.winner, "scores": {n: p for n, p in event.scores},
                      "event": r.seq}
    if current is not None:
        turns.append(current)
    marks = _highlights(recorded)
    for turn in turns:
        turn["highlights"] = [str(mark) for mark in marks.get(turn["turn"], ())]
    return {
        "players": list(created.players) if created else [],
        "rules": {name: value for name, value in created.payload().get("ruleset", ())} if created else {},
        "turn_seconds": created.turn_seconds if created else None,
        "table_key": ({"public": created.table_key, "id": created.key_id} if created and created.table_key else None),
        "turns": turns,
        "result": result,
    }


def _highlights(recorded: list[RecordedEvent]) -> dict:
    """The turns worth showing (docs/notation.md): a reader's view by this tileref's definitions, so
    `verify_record` leaves them out of the check (another version may mark other turns)."""
    from controller.game.errors import GameError

    from .reports.moves import GameLabels, game_notation

    try:
        return {line.turn: line.highlights for line in game_notation(recorded, GameLabels(0)).turns}
    except GameError:  # a game the machine cannot fold to its end: its turns are shown without marks
        return {}


def _checked(turn: Any) -> Any:
    """A derived turn as `verify_record` compares it: without its highlights (see `_highlights`)."""
    return {k: v for k, v in turn.items() if k != "highlights"} if isinstance(turn, dict) else turn


# ------------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class RecordReport:
    report: ChainReport
    document: dict

    def summary(self) -> str:
        return self.report.summary()


class RecordTamperedError(TamperedError):
    """An open record whose chain, signatures, evidence or derived turns do not hold; names the turn."""

    def __init__(self, source: str, game_id: int, seq: int | None, kind: str | None, detail: str,
                 turn: int | None) -> None:
        super().__init__(source, game_id, seq, kind, detail)
        self.turn = turn
        where = ([f"turn {turn}"] if turn is not None else []) + (
            [f"event {seq}" + (f" ({kind})" if kind else "")] if seq is not None else [])
        at = f" at {', '.join(where)}" if where else ""
        self.args = (f"game record {source!r} (game {game_id}) TAMPERED{at}: {detail}",)


def load_record(path: str | Path) -> dict:
    """A record file, its size checked before it is read (record_checks.MAX_RECORD_BYTES)."""
    return parse_record(record_checks.read_record_text(path), str(path))


def parse_record(text: str, source: str = "(record)") -> dict:
    """The document of a record's text, refused (RecordFormatError, exit 2) unless it is strict JSON
    of the record's shape whose photos and readings are all ones its events rest on (record_checks)."""
    document = record_checks.parse_strict(text, source)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        got = document.get("format") if isinstance(document, dict) else type(document).__name__
        raise RecordFormatError(f"game record {source!r} is not a {FORMAT} document (format {got!r})")
    if document.get("version") != VERSION:
        raise RecordFormatError(f"game record {source!r} is of version {document.get('version')!r}; this tileref "
                                f"reads version {VERSION}")
    for field, kind in (("game", dict), ("head", dict), ("events", list), ("photos", list), ("readings", list),
                        ("turns", list)):
        if not isinstance(document.get(field), kind):
            raise RecordFormatError(f"game record {source!r}: {field!r} is missing or not a {kind.__name__}")
    record_checks.check_document(document, source)
    return document


def _turn_of(document: dict, seq: int | None) -> int | None:
    """The turn an event belongs to, from the events themselves (not from the derived turns)."""
    if seq is None:
        return None
    turn = None
    for entry in document.get("events", []):
        if not isinstance(entry, dict):
            continue
        if entry.get("kind") == EventKind.TURN_STARTED.value and isinstance(entry.get("payload"), dict):
            turn = entry["payload"].get("turn", turn)
        if entry.get("seq") == seq:
            return turn
    return turn


def _scratch(document: dict, source: str) -> tuple[Records, int]:
    """The document's game in an in-memory database, rows exactly as the file gives them."""
    records = Records(":memory:")
    game = document["game"]
    game_id = game.get("id")
    if not isinstance(game_id, int) or game_id < 1:
        raise RecordFormatError(f"game record {source!r}: game id {game_id!r} is not a positive number")
    _write_rows(records, document, game_id, game_id, source)
    if not (document.get("table_key")):  # an unsigned game: the scratch file must not demand signatures
        records.db.execute("UPDATE meta SET value=? WHERE key='signed_since_game'", (str(game_id + 1),))
    return records, game_id


def _write_rows(records: Records, document: dict, game_id: int, signed_id: int, source: str) -> None:
    game, head = document["game"], document["head"]
    try:
        with records.db.transaction():
            records._insert_game(str(game.get("variant")), [str(p) for p in document.get("players", [])],
                                 game_id=game_id, created_at=str(game.get("created_at")))
            if signed_id != game_id or game.get("table") or game.get("event") or game.get("tournament_game"):
                records._set_info(game_id, signed_id=signed_id, table_name=game.get("table"), event=game.get("event"),
                                  tournament_game=game.get("tournament_game"))
            for photo in document["photos"]:
                if photo.get("data") is None:
                    raise RecordFormatError(f"game record {source!r} holds no bytes for photo "
                                            f"{str(photo.get('sha256'))[:12]!r}")
                records.db.execute("INSERT INTO photos VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING",
                                   (photo["sha256"], game_id, photo["mime"], photo["width"], photo["height"],
                                    base64.b64decode(photo["data"], validate=True)))
            for reading in document["readings"]:
                records.db.execute("INSERT INTO readings VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                   (reading["sha256"], game_id, reading.get("photo"),
                                    canonical_json(reading["reading"]), reading.get("elapsed_ms")))
            for entry in document["events"]:
                payload = canonical_json(entry["payload"])
                records.db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                   (game_id, entry["seq"], entry["kind"], payload, entry["prev_hash"], entry["hash"],
                                    entry["recorded_at"], entry.get("signature")))
                if entry["kind"] == EventKind.TURN_JUDGED.value:
                    data = entry["payload"]
                    records.db.execute("INSERT INTO verdicts VALUES (?, ?, ?, ?, ?, ?)",
                                       (game_id, data["turn"], entry["seq"], data["player"], data["outcome"], payload))
            records.db.execute("UPDATE games SET head_hash=?, events=?, state=?, head_signature=? WHERE id=?",
                               (head["hash"], head["events"], game.get("state") or "new", head.get("signature"),
                                game_id))
    except (KeyError, TypeError, binascii.Error, ValueError) as error:
        if isinstance(error, RecordsError):
            raise
        raise RecordFormatError(f"game record {source!r}: a row cannot be read ({type(error).__name__}: "
                                f"{error})") from None


def verify_record(document: dict, source: str = "(record)", key: PublicKey | None = None) -> RecordReport:
    """Check a document from the file alone; raises RecordTamperedError naming the turn, or
    RecordFormatError when it is not a readable record at all."""
    records, game_id = _scratch(document, source)
    try:
        try:
            report = records.require_intact(game_id, key)
        except TamperedError as error:
            raise RecordTamperedError(source, game_id, error.seq, error.kind, error.detail,
                                      _turn_of(document, error.seq)) from None
        recorded = records.recorded(game_id)
        again = derived(recorded)
        for field in ("players", "rules", "turn_seconds", "table_key", "result"):
            if canonical_json(document.get(field)) != canonical_json(again[field]):
                raise RecordTamperedError(source, game_id, None, None,
                                          f"{field!r} says {_short(document.get(field))}, the events say "
                                          f"{_short(again[field])}", None)
        theirs, ours = document["turns"], again["turns"]
        for index in range(max(len(theirs), len(ours))):
            mine = _checked(ours[index]) if index < len(ours) else None
            given = _checked(theirs[index]) if index < len(theirs) else None
            if canonical_json(given) != canonical_json(mine):
                number = (mine or given or {}).get("turn", index + 1) if isinstance(mine or given, dict) else index + 1
                what = _first_difference(given, mine)
                raise RecordTamperedError(source, game_id, None, None,
                                          f"the record's turn {number} is not what the events say ({what})", number)
        game = document["game"]
        for field, value in (("variant", _first_variant(recorded)),):
            if game.get(field) != value:
                raise RecordTamperedError(source, game_id, None, None,
                                          f"game {field} {game.get(field)!r} is not the events' {value!r}", None)
        signed_link = getattr(recorded[0].event, "table_and_event", None) if recorded else None
        if signed_link is not None:  # table, event and tournament game are signed with the game
            for field, value in zip(("table", "event", "tournament_game"), signed_link):
                if game.get(field) != value:
                    raise RecordTamperedError(source, game_id, 1, "game-created",
                                              f"game {field} {game.get(field)!r} is not the signed game-created's "
                                              f"{value!r}", None)
        return RecordReport(report, document)
    finally:
        records.close()


def check_signer_trusted(records: Records, document: dict, source: str, accept: str | None = None,
                         referee=None):
    """What `records`' keyring says of the record's signer; refused (UntrustedKeyError) unless accepted."""
    from .keyring import UntrustedKeyError

    ring = records.keyring()
    created_hash = document["events"][0]["hash"]
    signer = PublicKey.from_text(document["table_key"]["public"]) if document.get("table_key") else None
    verdict = ring.judge(created_hash, signer)
    if verdict.ok:
        return verdict
    label = f"game record {source!r} (game {document['game'].get('id')})"
    if accept is None:
        raise UntrustedKeyError(source, document["game"].get("id"), label, signer.fingerprint if signer else None,
                                verdict.text, hint="give the reason with --accept \"...\"")
    records._ensure_current()
    ring.accept(created_hash, signer.fingerprint if signer else None, label, accept, referee)
    return ring.judge(created_hash, signer)


def _first_variant(recorded: list[RecordedEvent]) -> str | None:
    return recorded[0].event.variant if recorded and hasattr(recorded[0].event, "variant") else None


def _short(value: Any) -> str:
    text = canonical_json(value)
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _first_difference(given: Any, mine: Any, path: str = "") -> str:
    if isinstance(given, dict) and isinstance(mine, dict):
        for name in sorted(set(given) | set(mine)):
            if canonical_json(given.get(name)) != canonical_json(mine.get(name)):
                return _first_difference(given.get(name), mine.get(name), f"{path}.{name}" if path else name)
    if isinstance(given, list) and isinstance(mine, list) and len(given) == len(mine):
        for i, (a, b) in enumerate(zip(given, mine)):
            if canonical_json(a) != canonical_json(b):
                return _first_difference(a, b, f"{path}[{i}]")
    return f"{path or 'the turn'}: the record says {_short(given)}, the events {_short(mine)}"


# ------------------------------------------------------------------------------- import


def import_record(records: Records, document: dict, source: str = "(record)",
                  key: PublicKey | None = None, accept: str | None = None, referee=None) -> tuple[int, bool]:
    """Verify the document, then write the game as it is into `records`. Returns (game id, written):
    a game the database holds already (same head) is not written twice. A game whose key the
    database's keyring does not trust is refused before anything is written (UntrustedKeyError),
    unless `accept` (a referee's reason, signed with `referee`, a TableKey) accepts it."""
    report = verify_record(document, source, key)
    if report.report.key_id is None:
        raise ImportConflictError(f"game record {source!r} is unsigned (recorded before signing): only signed "
                                  "games are imported")
    check_signer_trusted(records, document, source, accept, referee)
    wanted = document["game"]["id"]
    head = document["head"]["hash"]
    for (game_id,) in records.db.execute("SELECT id FROM games WHERE head_hash=?", (head,)):
        if records.signed_id(game_id) == wanted:
            return game_id, False
    taken = records.db.execute("SELECT 1 FROM games WHERE id=?", (wanted,)).fetchone() is not None
    if not taken:
        game_id = wanted
    else:
        game_id = int(records.db.execute("SELECT coalesce(max(id), 0) + 1 FROM games").fetchone()[0])
    records._upgrade()
    _write_rows(records, document, game_id, wanted, source)
    if records.target.is_server:  # an explicit id: move the id sequence past it
        records.db.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT max(id) FROM games))")
    records.require_intact(game_id)
    return game_id, True
