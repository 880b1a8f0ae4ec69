"""Unsigned games beside signed ones: which are older than signing, and which had their signatures
stripped.

A game recorded before signing has no key; a signed game whose key and signatures were removed (and
every hash made again) looks just like one. An editable row (`signed_since_game`) cannot tell them
apart, so every game this tileref signs states, in its signed first event, the database's unsigned
games when it was created (`GameCreated.unsigned_before`, id ranges). A database holding such a
game accepts an unsigned game only if one of those signed lists names it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from controller.game.errors import EventDataError
from controller.game.events import GameCreated, event_from_payload

from ..chain import GENESIS_HASH, chain_hash
from ..engine import Database
from ..signing import PublicKey, event_message

_KEYED = "'%\"table_key\":\"%'"  # a first event's canonical JSON that records a key


@dataclass(frozen=True)
class SigningEra:
    """Whether a database's unsigned games must be proven older than signing, and the proof.

    Every game this tileref signs lists, in its signed first event, the database's unsigned games
    when it was created. A database holding such a game demands that list's word for each unsigned
    game: one whose key and signatures were stripped is named by none. A database whose signed games
    all predate the lists keeps the older `signed_since_game` rule; and where a keyring is kept, an
    unsigned game counts only with a referee's acceptance anyway (keyring.py)."""

    signed_games: int
    games_with_lists: int
    unsigned_named: tuple[tuple[int, int], ...]

    @property
    def requires_proof(self) -> bool:
        return self.games_with_lists > 0

    @property
    def why(self) -> str:
        return f"this database holds {self.signed_games} signed game(s)"

    def names(self, game_id: int) -> bool:
        return any(first <= game_id <= last for first, last in self.unsigned_named)


def unsigned_ranges(db: Database, *, but: int | None = None) -> tuple[tuple[int, int], ...]:
    """The games whose first event records no table key (but `but`), as (first, last) id ranges."""
    ids = []
    for game_id, payload in db.execute(f"SELECT game_id, payload FROM events WHERE seq=1 AND payload NOT LIKE "
                                       f"{_KEYED} ORDER BY game_id"):
        try:
            data = json.loads(payload)
        except (TypeError, ValueError):
            continue
        if isinstance(data, dict) and not data.get("table_key") and game_id != but:
            ids.append(int(game_id))
    ranges: list[list[int]] = []
    for game_id in ids:
        if ranges and ranges[-1][1] == game_id - 1:
            ranges[-1][1] = game_id
        else:
            ranges.append([game_id, game_id])
    return tuple((first, last) for first, last in ranges)


def signing_era(db: Database, signature_column: str) -> SigningEra:
    """The signed games of the database whose first event holds (its hash and signature), and the
    unsigned games their lists name. A first event that does not hold proves nothing."""
    signed = with_lists = 0
    named: list[tuple[int, int]] = []
    rows = db.execute(f"SELECT game_id, payload, hash, {signature_column} FROM events WHERE seq=1 AND payload LIKE "
                      f"{_KEYED}").fetchall()
    for _, payload, digest, signature in rows:
        try:
            created = event_from_payload(GameCreated.kind.value, json.loads(payload))
            key = PublicKey.from_text(created.table_key)
        except (EventDataError, ValueError, TypeError):
            continue
        if chain_hash(GENESIS_HASH, created) != digest or not key.verifies(signature, event_message(1, digest)):
            continue
        signed += 1
        if created.unsigned_before is not None:
            with_lists += 1
            named.extend(created.unsigned_before)
    return SigningEra(signed, with_lists, tuple(named))
