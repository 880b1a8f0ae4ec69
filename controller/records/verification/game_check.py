"""The check of one game's record, everything its verdicts rest on, the first thing that does not hold
failing it (a TamperedError naming the game, the event and what is wrong):

* the chain: every event in sequence, each naming the previous one's hash and hashing to its own,
  each signed with the table key the game's first event records (or, for a game recorded before
  signing, proven older than signing: unsigned.py);
* the head: the game row's event count, last hash and head signature;
* the evidence: every photo and reading an event (or a fused reading) names, by its sha256;
* the projections: the verdicts, players, games and game_info rows, copies of what the events say;
* every photo and reading stored with the game, whether an event names it or not.

It reads through the store (`Records`: its rows, its signing era) and writes nothing; whether the
signer is one the club trusts is the keyring's word, asked by `Records.verify` after it.
"""
from __future__ import annotations

from controller.game.errors import EventDataError
from controller.game.events import Event, GameCreated, canonical_json, event_from_payload

from ..chain import GENESIS_HASH, Reading, chain_hash, reading_sha, sha256_bytes, stored_bytes, stored_json, stored_object
from ..errors import ChainBrokenError, EvidenceError, ProjectionError, SignatureError, TamperedError
from ..signing import PublicKey, event_message, head_message
from .report import ChainReport, Integrity


class GameCheck:
    """One run of `Records.verify`: raises the first TamperedError it finds, else returns the report.
    `records`: the store whose rows it reads (a `Records`, which imports this module, not the other
    way round)."""

    def __init__(self, records, game_id: int, expected: PublicKey | None) -> None:
        self.records = records
        self.db = records.db
        self.game_id = game_id
        self.expected = expected
        self.photos_ok: set[str] = set()
        self.readings_ok: dict[tuple[str, str | None], Reading] = {}

    def fail(self, error: type[TamperedError], seq: int | None, kind: str | None, detail: str):
        raise error(self.records.path, self.game_id, seq, kind, detail)

    def run(self) -> ChainReport:
        head, count, head_signature = self.records.game_row(self.game_id)
        events, key = self.chain()
        self.head(events, int(count), head, head_signature, key)
        self.evidence(events)
        self.projections(events)
        self.stored_rows()
        status = Integrity.INTACT if key is not None else Integrity.UNSIGNED
        return ChainReport(self.game_id, status, len(events), head, key.fingerprint if key else None)

    # the events, their chain and their signatures
    def chain(self) -> tuple[list[tuple[int, str, Event]], PublicKey | None]:
        rows = list(self.db.execute(
            f"SELECT seq, kind, payload, prev_hash, hash, {self.records.signature_column('events')} "
            "FROM events WHERE game_id=? ORDER BY seq", (self.game_id,)))
        prev = GENESIS_HASH
        key: PublicKey | None = None
        events: list[tuple[int, str, Event]] = []
        for expected_seq, (seq, kind, payload, prev_hash, digest, signature) in enumerate(rows, start=1):
            if seq != expected_seq:
                self.fail(ChainBrokenError, expected_seq, None,
                          f"event {expected_seq} is missing: the next row is event {seq} ({kind})")
            try:
                event = event_from_payload(kind, stored_object(payload))
            except (EventDataError, ValueError, TypeError) as error:
                self.fail(ChainBrokenError, seq, kind, f"cannot be read: {error}")
            if prev_hash != prev:
                self.fail(ChainBrokenError, seq, kind,
                          f"does not follow event {seq - 1}: it names previous hash {prev_hash[:12]!r}, "
                          f"event {seq - 1} hashes to {prev[:12]!r} (an event removed, inserted or moved)")
            if chain_hash(prev, event) != digest:
                self.fail(ChainBrokenError, seq, kind,
                          f"does not hash to its recorded hash {digest[:12]!r}: the event was edited")
            if seq == 1:
                key = self.first_event(event, kind)
            if key is not None and not key.verifies(signature, event_message(seq, digest)):
                self.fail(SignatureError, seq, kind,
                          (f"signature {signature[:16]!r}" if signature else "no signature")
                          + f" does not verify with the game's table key {key.fingerprint} "
                          "(edited and re-hashed, or added by someone without the key)")
            if key is None and signature:
                self.fail(SignatureError, seq, kind,
                          f"carries signature {signature[:16]!r} but the game records no table key (key removed?)")
            prev = digest
            events.append((seq, kind, event))
        return events, key

    def first_event(self, event: Event, kind: str) -> PublicKey | None:
        if not isinstance(event, GameCreated):
            self.fail(ChainBrokenError, 1, kind, "a game's first event must be game-created")
        key = None
        if event.table_key is not None:
            try:
                key = PublicKey.from_text(event.table_key)
            except ValueError as error:
                self.fail(SignatureError, 1, kind, f"the recorded table key is not an Ed25519 key: {error}")
            if event.key_id != key.fingerprint:
                self.fail(SignatureError, 1, kind, f"the recorded key id {event.key_id!r} is not the fingerprint "
                                                   f"{key.fingerprint!r} of the recorded table key")
        if self.expected is not None:
            if key is None:
                self.fail(SignatureError, 1, kind, "unsigned (recorded before signing): it cannot be checked "
                                                   f"against the given key {self.expected.fingerprint}")
            if key != self.expected:
                self.fail(SignatureError, 1, kind, f"signed by table key {key.fingerprint}, not by the given key "
                                                   f"{self.expected.fingerprint}")
        since = self.records.signed_since()
        if key is None and since is not None and self.game_id >= since:
            self.fail(SignatureError, 1, kind, f"records no table key, but every game of this file from game "
                                               f"{since} on was signed (the key and signatures removed?)")
        if key is None:
            self.predates_signing(kind)
        return key

    def predates_signing(self, kind: str) -> None:
        """An unsigned game in a database that holds signed games must be named by a signed game as
        one of the unsigned games before it; an editable row proves nothing."""
        proof = self.records.signing_era()
        if proof.requires_proof and not proof.names(self.game_id):
            self.fail(SignatureError, 1, kind,
                      f"records no table key, but {proof.why} and no signed game of it names game {self.game_id} "
                      "among the unsigned games recorded before it (the key and signatures removed?)")

    def head(self, events, count: int, head: str, head_signature: str | None, key: PublicKey | None) -> None:
        last_seq, last_kind = (events[-1][0], events[-1][1]) if events else (None, None)
        last_hash = self.db.execute("SELECT hash FROM events WHERE game_id=? AND seq=?",
                                    (self.game_id, last_seq)).fetchone() if events else None
        last = last_hash[0] if last_hash else GENESIS_HASH
        since = self.records.signed_since()
        if not events and (count or (since is not None and self.game_id >= since)):
            # games are created with their first event in one transaction (`start_game`)
            self.fail(ChainBrokenError, None, None, f"the game holds no events (its head says {count})")
        if len(events) != count:
            self.fail(ChainBrokenError, last_seq, last_kind,
                      f"the game's head says {count} events, {len(events)} are recorded "
                      + ("(events after this one removed?)" if len(events) < count else "(events added?)"))
        if last != head:
            self.fail(ChainBrokenError, last_seq, last_kind,
                      f"the game's head hash {head[:12]!r} is not the last event's hash {last[:12]!r}")
        if key is not None and not key.verifies(head_signature, head_message(self.records.signed_id(self.game_id), count, head)):
            self.fail(SignatureError, last_seq, last_kind,
                      f"the head ({count} events ending here, {head[:12]!r}) is not signed by the table key "
                      f"{key.fingerprint}: events after it removed and the head moved back, or events added")

    # the photos and readings the events rest on
    def evidence(self, events) -> None:
        for seq, kind, event in events:
            data = event.payload()
            photo_sha, read_sha = data.get("photo"), data.get("reading")
            if photo_sha:
                self.photo(photo_sha, seq, kind, "the photo the event names")
            if read_sha:
                reading = self.reading(read_sha, seq, kind, "the reading the event names", photo_sha)
                if photo_sha and reading.photo and reading.photo != photo_sha \
                        and not self.shared_before_per_photo(reading, read_sha):
                    self.fail(EvidenceError, seq, kind, f"reading {read_sha[:12]!r} says it was read from photo "
                                                        f"{reading.photo[:12]!r}, the event names photo {photo_sha[:12]!r}")
                for source in reading.reading.get("fused_from", ()) if isinstance(reading.reading, dict) else ():
                    self.reading(source, seq, kind, f"a reading that reading {read_sha[:12]!r} was fused from")

    def shared_before_per_photo(self, reading: Reading, sha: str) -> bool:
        """A file written before readings were stored per photo kept one row for two photos read alike,
        naming the first: that row holds if an event of the game that stored it names that very pair."""
        row = self.db.execute("SELECT game_id FROM readings WHERE sha256=? AND photo=?", (sha, reading.photo)).fetchone()
        if row is None:
            return False
        for (payload,) in self.db.execute("SELECT payload FROM events WHERE game_id=?", (row[0],)):
            try:
                data = stored_object(payload)
            except ValueError:
                continue
            if data.get("reading") == sha and data.get("photo") == reading.photo:
                return True
        return False

    def photo(self, sha: str, seq: int | None, kind: str | None, what: str) -> None:
        if sha in self.photos_ok:
            return
        row = self.db.execute("SELECT data FROM photos WHERE sha256=?", (sha,)).fetchone()
        if row is None:
            self.fail(EvidenceError, seq, kind, f"{what}, {sha[:12]!r}, is missing from the photos")
        actual = sha256_bytes(stored_bytes(row[0]))
        if actual != sha:
            self.fail(EvidenceError, seq, kind, f"{what}, {sha[:12]!r}, holds other bytes (they hash to "
                                                f"{actual[:12]!r}): the photo was swapped or edited")
        self.photos_ok.add(sha)

    def reading(self, sha: str, seq: int | None, kind: str | None, what: str, photo: str | None = None,
                stored_photo: object = ...) -> Reading:
        """The reading row `sha`: the one read from `photo` when there is one (a reading is stored once
        per photo), else the first stored. `stored_photo`: that exact row (every stored row is checked)."""
        if stored_photo is not ...:
            rows = self.db.execute("SELECT photo, reading, elapsed_ms FROM readings WHERE sha256=? AND "
                                   "coalesce(photo, '')=?", (sha, stored_photo or "")).fetchall()
        else:
            rows = self.db.execute("SELECT photo, reading, elapsed_ms FROM readings WHERE sha256=?",
                                   (sha,)).fetchall()
            rows.sort(key=lambda r: r[0] != photo)  # the row of the event's photo first
        if not rows:
            self.fail(EvidenceError, seq, kind, f"{what}, {sha[:12]!r}, is missing from the readings")
        row = rows[0]
        if (sha, row[0]) in self.readings_ok:
            return self.readings_ok[(sha, row[0])]
        try:
            actual = reading_sha(stored_json(row[1]))
        except (ValueError, TypeError):
            actual = sha256_bytes(str(row[1]).encode("utf-8"))
        if actual != sha:
            self.fail(EvidenceError, seq, kind, f"{what}, {sha[:12]!r}, holds another reading (it hashes to "
                                                f"{actual[:12]!r}): the reading was edited")
        reading = Reading(sha, row[0], stored_json(row[1]), row[2])
        if reading.photo:
            self.photo(reading.photo, seq, kind, f"the photo reading {sha[:12]!r} was read from")
        self.readings_ok[(sha, row[0])] = reading
        return reading

    # the tables that copy what the events say
    def projections(self, events) -> None:
        judged = {seq: event for seq, kind, event in events if kind == "turn-judged"}
        rows = {row[0]: row[1:] for row in self.db.execute(
            "SELECT event_seq, turn, player, outcome, verdict FROM verdicts WHERE game_id=?", (self.game_id,))}
        for seq, event in judged.items():
            data = event.payload()
            expected = (data["turn"], data["player"], data["outcome"], canonical_json(data))
            if seq not in rows:
                self.fail(ProjectionError, seq, "turn-judged",
                          f"the verdicts table has no row for this verdict (turn {data['turn']}, {data['outcome']})")
            if tuple(rows[seq]) != expected:
                turn, player, outcome, _ = rows[seq]
                self.fail(ProjectionError, seq, "turn-judged",
                          f"the verdicts table says turn {turn} {player!r} {outcome!r}, the event says turn "
                          f"{data['turn']} {data['player']!r} {data['outcome']!r}"
                          + ("" if (turn, player, outcome) != expected[:3] else " (its verdict JSON differs)"))
        for seq in sorted(set(rows) - set(judged)):
            turn, player, outcome, _ = rows[seq]
            kind = next((k for s, k, _ in events if s == seq), None)
            self.fail(ProjectionError, seq, kind, f"the verdicts table holds a verdict (turn {turn} {player!r} "
                                                  f"{outcome!r}) that no turn-judged event gave")
        if events:
            created = events[0][2]
            players = tuple(r[0] for r in self.db.execute(
                "SELECT name FROM players WHERE game_id=? ORDER BY seat", (self.game_id,)))
            if players != tuple(created.players):
                self.fail(ProjectionError, 1, events[0][1], f"the players table says {list(players)!r}, the game "
                                                           f"was created for {list(created.players)!r}")
            variant = self.db.execute("SELECT variant FROM games WHERE id=?", (self.game_id,)).fetchone()[0]
            if variant != created.variant:
                self.fail(ProjectionError, 1, events[0][1], f"the games table says variant {variant!r}, the game "
                                                           f"was created as {created.variant!r}")
            if created.table_and_event is not None:
                info = self.records.info(self.game_id)
                stored = (info["table_name"], info["event"], info["tournament_game"])
                if stored != tuple(created.table_and_event):
                    self.fail(ProjectionError, 1, events[0][1],
                              f"game_info says table {stored[0]!r}, event {stored[1]!r}, tournament game "
                              f"{stored[2]!r}; the signed game-created says table {created.table_and_event[0]!r}, "
                              f"event {created.table_and_event[1]!r}, tournament game {created.table_and_event[2]!r}")

    # every photo and reading stored with the game, whether an event names it or not
    def stored_rows(self) -> None:
        for sha, data in self.db.execute("SELECT sha256, data FROM photos WHERE game_id=?", (self.game_id,)):
            if sha not in self.photos_ok and sha256_bytes(stored_bytes(data)) != sha:
                self.fail(EvidenceError, None, None, f"stored photo {sha[:12]!r} does not hash to its name")
        for sha, photo in self.db.execute("SELECT sha256, photo FROM readings WHERE game_id=?", (self.game_id,)):
            self.reading(sha, None, None, "a stored reading", stored_photo=photo)
