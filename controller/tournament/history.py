"""An event's history as signed entries: what the director changed after the fact (amended or
deleted a result, withdrew a player, took a late entry, seated a substitute), by whose key, when
and why.

Each entry is a canonical JSON text signed with the director's Ed25519 key (the same kind of key
the tables and referees hold, docs/trust.md), and chained to the entry before it by its hash, so an
entry edited, dropped or moved in the database no longer verifies. Pure: text and keys in, values
out; the store keeps the rows.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from controller.records.signing import PublicKey, TableKey

from .errors import HistoryTamperedError
from .model import Change, ChangeKind, Result

_TAG = b"tileref tournament change v1\0"
GENESIS = "0" * 64


@dataclass(frozen=True)
class SignedEntry:
    seq: int
    text: str  # the canonical JSON of the change (without who signed it)
    director: PublicKey
    signature: str

    def digest(self) -> str:
        return hashlib.sha256(self.message()).hexdigest()

    def message(self) -> bytes:
        return _TAG + f"{self.seq}:".encode("ascii") + self.text.encode("utf-8")


def change_text(event_name: str, change: Change, previous: str, result_json: str | None) -> str:
    """The canonical text an entry signs: the event, the change, and the hash of the entry before."""
    data = {
        "event": event_name, "kind": change.kind.value, "reason": change.reason, "game": change.game,
        "player": change.player, "substitute": change.substitute,
        "result": json.loads(result_json) if result_json else None, "replaces": change.replaces,
        "rounds_drawn": change.rounds_drawn, "at": change.at, "previous": previous,
    }
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def sign_change(seq: int, text: str, director: TableKey) -> SignedEntry:
    entry = SignedEntry(seq, text, director.public, "")
    return SignedEntry(seq, text, director.public, director.sign(entry.message()))


def read_history(event_name: str, entries: list[SignedEntry], result_from_json, who) -> tuple[Change, ...]:
    """The changes of a stored history, each checked: its signature, its place in the chain and its
    event. `who(public_key)` names the signer (the keyring's name for the key, if it has one)."""
    changes = []
    previous = GENESIS
    for expected, entry in enumerate(entries, start=1):
        where = f"event {event_name!r}, history entry {entry.seq}"
        if entry.seq != expected:
            raise HistoryTamperedError(f"{where}: expected entry {expected}; an entry was removed or moved")
        if not entry.director.verifies(entry.signature, entry.message()):
            raise HistoryTamperedError(f"{where}: its signature does not hold (key {entry.director.fingerprint}); "
                                       "the entry was edited after it was signed")
        try:
            data = json.loads(entry.text)
            kind = ChangeKind(data["kind"])
        except (ValueError, KeyError, TypeError):
            raise HistoryTamperedError(f"{where}: unreadable ({entry.text[:60]!r})") from None
        if data.get("event") != event_name or data.get("previous") != previous:
            raise HistoryTamperedError(f"{where}: it belongs to another event or another place in the history")
        result: Result | None = None
        if data.get("result") is not None:
            result = result_from_json(data["game"], json.dumps(data["result"], ensure_ascii=False))
        changes.append(Change(kind, data["reason"], data["game"], data["player"], data["substitute"], result,
                              data["replaces"], data["rounds_drawn"], who(entry.director), data["at"]))
        previous = entry.digest()
    return tuple(changes)
