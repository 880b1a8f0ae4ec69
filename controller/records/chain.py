"""What a game's record is made of: its events on a hash chain, the photos and readings they rest on,
and how each is read back from its column.

hash = sha256(previous hash + canonical JSON of the event), from GENESIS_HASH for a game's first
event; a photo and a reading are named by the sha256 of their bytes (a reading's: of its canonical
JSON). The store writes these values (store.py), the verification recomputes them
(verification/game_check.py); both read a column through `stored_bytes` and `stored_json`, which
take only what tileref writes.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from controller.game.events import Event, canonical_json

GENESIS_HASH = "0" * 64
HEAD_DIGEST_HEX = 12  # the head's short digest shown at the table and on audit pages


@dataclass(frozen=True)
class Photo:
    sha256: str
    mime: str
    width: int
    height: int
    data: bytes


@dataclass(frozen=True)
class Reading:
    """A raw camera reading as the reader gave it (JSON), kept for audits."""

    sha256: str
    photo: str | None
    reading: dict
    elapsed_ms: float | None


@dataclass(frozen=True)
class RecordedEvent:
    seq: int
    event: Event
    prev_hash: str
    hash: str
    recorded_at: str
    signature: str | None = None



def chain_hash(prev_hash: str, event: Event) -> str:
    return hashlib.sha256((prev_hash + event.canonical_json()).encode("utf-8")).hexdigest()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def reading_sha(reading: dict) -> str:
    return sha256_bytes(canonical_json(reading).encode("utf-8"))


def head_digest(digest: str) -> str:
    return digest[:HEAD_DIGEST_HEX]


def stored_bytes(value) -> bytes:
    """A photo's bytes as stored (text stored in their place hashes as its UTF-8)."""
    if isinstance(value, str):
        return value.encode("utf-8")
    return bytes(value)


def stored_json(value) -> object:
    """A JSON column as stored: text only (a value stored as a BLOB or a number is not what tileref wrote)."""
    if not isinstance(value, str):
        raise ValueError(f"stored as {type(value).__name__}, not as JSON text: {str(value)[:40]!r}")
    return json.loads(value)


def stored_object(value) -> dict:
    data = stored_json(value)
    if not isinstance(data, dict):
        raise ValueError(f"the payload {str(value)[:40]!r} is not a JSON object")
    return data
