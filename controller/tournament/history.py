"""An event's log: everything that makes its state, one signed entry each. The draw of each round,
every result (typed by the director, imported from a file or from a table's signed record, or
played straight into the club's database and counted when the director next wrote), each
disqualification, and every change after the fact (an amended or deleted result, a withdrawal, a
late entry, a substitute), by whose key, when and why.

Each entry is a canonical JSON text signed with an Ed25519 key (the same kind of key the tables
and referees hold, docs/trust.md) and chained to the entry before it by its hash, so an entry
edited, dropped or moved in the database no longer verifies. Each entry also binds the event's
format, settings and player list (`roster`), and whether the club kept a keyring when it was
signed. The log ends in a signed head (how many entries, the last one's hash): a log cut short
no longer reaches its head. Pure: text and keys in, values out; the store keeps the rows and
judges the signers against the club's keyring (`check_signer`).
"""
from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from typing import Callable, Mapping

from controller.records.signing import PublicKey, TableKey

from .errors import HistoryTamperedError
from .model import Change, ChangeKind, DrawEntry, Result, Round, Table

_TAG = b"tileref tournament change v1\0"  # every entry's tag (the first entries were changes only)
_HEAD_TAG = b"tileref tournament head v1\0"
GENESIS = "0" * 64

DRAW = "draw"
RESULT = "result"
PLAYED = "played"  # a game a table played straight into the club's database, counted when the log was written
DISQUALIFY = "disqualify"
UNDO_DRAW = "undo-draw"  # the director took back the last draw before anything was entered for it
ENTRANTS = "entrants"  # the registry's player IDs of the event's players, and whether it is rated
ENTRY_KINDS = frozenset({DRAW, RESULT, PLAYED, DISQUALIFY, UNDO_DRAW, ENTRANTS} | {kind.value for kind in ChangeKind})

# (signer, when it signed, where in the log, whether a keyring was kept then): raises
# HistoryTamperedError when the club's keyring does not trust the signer for the log at that time
SignerCheck = Callable[[PublicKey, str, str, bool], None]


@dataclass(frozen=True)
class SignedEntry:
    seq: int
    text: str  # the canonical JSON of the entry (without who signed it)
    director: PublicKey  # the key that signed it
    signature: str

    def digest(self) -> str:
        return hashlib.sha256(self.message()).hexdigest()

    def message(self) -> bytes:
        return _TAG + f"{self.seq}:".encode("ascii") + self.text.encode("utf-8")


@dataclass(frozen=True)
class SignedHead:
    """Where the log ended when it was last written: its length and last hash, signed."""

    entries: int
    digest: str
    director: PublicKey
    signature: str
    at: str

    def message(self, event_name: str) -> bytes:
        return _HEAD_TAG + f"{self.entries}:{self.digest}:{self.at}:".encode("ascii") + event_name.encode("utf-8")


@dataclass(frozen=True)
class LogEntry:
    """One verified entry: its kind and data as signed."""

    seq: int
    kind: str
    data: Mapping[str, object]
    director: PublicKey
    digest: str


def roster_digest(format_name: str, settings: Mapping[str, object], players: tuple[str, ...]) -> str:
    """What every entry binds of the event as created: its format, settings and player list."""
    text = json.dumps({"format": format_name, "settings": settings, "players": list(players)},
                      ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def entry_text(event_name: str, data: Mapping[str, object], previous: str, at: str, roster: str,
               ring_kept: bool) -> str:
    """The canonical text an entry signs: the event, what happened, when, the hash of the entry before."""
    signed = {**data, "event": event_name, "at": at, "previous": previous, "roster": roster, "ring": ring_kept}
    return json.dumps(signed, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def change_data(change: Change, result_json: str | None) -> dict[str, object]:
    return {"kind": change.kind.value, "reason": change.reason, "game": change.game, "player": change.player,
            "substitute": change.substitute, "result": json.loads(result_json) if result_json else None,
            "replaces": change.replaces, "rounds_drawn": change.rounds_drawn}


def round_data(round_: Round) -> dict[str, object]:
    return {"number": round_.number, "name": round_.name, "seed": round_.seed,
            "tables": [{"number": t.number, "seats": list(t.seats), "games": t.games, "bracket": t.bracket}
                       for t in round_.tables],
            "draw": [[d.player, d.drew, d.decides] for d in round_.draw],
            "lot_order": list(round_.lot_order), "lineup": list(round_.lineup)}


def round_from_data(data: Mapping[str, object]) -> Round:
    return Round(data["number"], data["name"], data["seed"],
                 tuple(Table(t["number"], tuple(t["seats"]), t["games"], t.get("bracket", "")) for t in data["tables"]),
                 tuple(DrawEntry(*line) for line in data["draw"]), tuple(data["lot_order"]), tuple(data["lineup"]))


def sign_entry(seq: int, text: str, key: TableKey) -> SignedEntry:
    entry = SignedEntry(seq, text, key.public, "")
    return SignedEntry(seq, text, key.public, key.sign(entry.message()))


def sign_head(event_name: str, entries: int, digest: str, key: TableKey, at: str) -> SignedHead:
    head = SignedHead(entries, digest, key.public, "", at)
    return SignedHead(entries, digest, key.public, key.sign(head.message(event_name)), at)


@functools.lru_cache(maxsize=65536)
def _holds(key: PublicKey, signature: str, message: bytes) -> bool:
    """A signature check, remembered: a command reads the same log several times (exactly the same
    bytes, so nothing is taken on trust)."""
    return key.verifies(signature, message)


def read_log(event_name: str, entries: list[SignedEntry], head: SignedHead | None, roster: str,
             check_signer: SignerCheck) -> list[LogEntry]:
    """The entries of a stored log, each checked: its signature, its place in the chain, its event
    and roster, its time, and its signer against the keyring; then the head against the last one."""
    out: list[LogEntry] = []
    previous, previous_at, under_ring = GENESIS, "", False
    for expected, entry in enumerate(entries, start=1):
        where = f"event {event_name!r}, log entry {entry.seq}"
        if entry.seq != expected:
            raise HistoryTamperedError(f"{where}: expected entry {expected}; an entry was removed or moved")
        if not _holds(entry.director, entry.signature, entry.message()):
            raise HistoryTamperedError(f"{where}: its signature does not hold (key {entry.director.fingerprint}); "
                                       "the entry was edited after it was signed")
        try:
            data = json.loads(entry.text)
            kind, at = str(data["kind"]), str(data["at"])
        except (ValueError, KeyError, TypeError):
            raise HistoryTamperedError(f"{where}: unreadable ({entry.text[:60]!r})") from None
        if kind not in ENTRY_KINDS:
            raise HistoryTamperedError(f"{where}: unknown kind {kind!r}")
        if data.get("event") != event_name or data.get("previous") != previous:
            raise HistoryTamperedError(f"{where}: it belongs to another event or another place in the log")
        if "roster" in data and data["roster"] != roster:
            raise HistoryTamperedError(f"{where}: the event's format, settings or player list is not the one "
                                       "the entry was signed with; they were changed in the database")
        if at < previous_at:
            raise HistoryTamperedError(f"{where}: dated {at}, before the entry before it ({previous_at})")
        under_ring = under_ring or bool(data.get("ring"))
        check_signer(entry.director, at, where, bool(data.get("ring")))
        out.append(LogEntry(entry.seq, kind, data, entry.director, entry.digest()))
        previous, previous_at = entry.digest(), at
    where = f"event {event_name!r}, the log's head"
    if head is None:
        if out:
            raise HistoryTamperedError(f"{where}: missing (the log has {len(out)} entries): it was removed")
        return out
    if not _holds(head.director, head.signature, head.message(event_name)):
        raise HistoryTamperedError(f"{where}: its signature does not hold (key {head.director.fingerprint})")
    if head.entries != len(out) or head.digest != (previous if out else GENESIS):
        last = f"ends at entry {len(out)}" if out else "is empty"
        raise HistoryTamperedError(f"{where}: it was signed after entry {head.entries}, but the log {last}: "
                                   + ("entries were removed" if head.entries > len(out) else
                                      "the log is not the one its head was signed over"))
    check_signer(head.director, head.at, where, under_ring)
    return out


def changes_from_log(log: list[LogEntry], result_from_json, who) -> tuple[Change, ...]:
    """The changes after the fact, in order. `who(public_key)` names the signer (the keyring's name)."""
    changes = []
    for entry in log:
        if entry.kind in (DRAW, RESULT, PLAYED, DISQUALIFY, UNDO_DRAW, ENTRANTS):
            continue
        data = entry.data
        try:
            result: Result | None = None
            if data.get("result") is not None:
                result = result_from_json(data["game"], json.dumps(data["result"], ensure_ascii=False))
            changes.append(Change(ChangeKind(entry.kind), data["reason"], data["game"], data["player"],
                                  data["substitute"], result, data["replaces"], data["rounds_drawn"],
                                  who(entry.director), data["at"]))
        except (KeyError, TypeError, ValueError):
            raise HistoryTamperedError(f"log entry {entry.seq}: unreadable {entry.kind}") from None
    return tuple(changes)
