"""The club's keyring: which table keys the club trusts to sign the games it counts.

A game's signatures prove only that whoever holds the key the game records wrote it; anyone can
make a key and sign a game of his own. The keyring, kept with the club's (or tournament's)
database, names the keys of the club's tables (`tileref key trust PUB --name "table 3"`), so a
game signed by any other key is refused by every reader (UntrustedKeyError, exit 3, naming the key
and the game) unless a referee accepts it with a reason (`tileref key accept`), an acceptance
that is itself signed with the referee's key (which must be in the ring) and kept beside the
ring. A revoked key (`key revoke`) trusts nothing from then on; its games need an acceptance.
Without a keyring, readers say that the signer is unknown to this club.

Each key has a role (`key trust --role`): a table's key signs the games it plays, a director's key
signs an event's log (docs/tournament.md), a referee's key signs acceptances. A key signs only what
its role may.

An acceptance is bound to the game's first event (its chain hash, the same in every copy of the
record) and the key that signed the game, so it travels with no game id.
"""
from __future__ import annotations

import enum
import time
from dataclasses import dataclass

from .engine import Database
from .errors import KeyFileError, RecordsError, TamperedError
from .signing import PublicKey, TableKey

UNSIGNED = "unsigned"  # the fingerprint an acceptance of an unsigned game names
_ACCEPT_TAG = b"tileref acceptance v1\0"


class UntrustedKeyError(TamperedError):
    """A game signed by a key the club's keyring does not trust (or unsigned, where a ring is kept),
    with no referee's acceptance: refused like tampering (exit 3)."""

    def __init__(self, path: str, game_id: int, label: str, fingerprint: str | None, why: str,
                 hint: str | None = None) -> None:
        super().__init__(path, game_id, 1, "game-created", why)
        signer = f"signed by table key {fingerprint}" if fingerprint else "unsigned"
        self.fingerprint = fingerprint
        hint = hint or f"tileref key accept --db DB --game {game_id} --reason \"...\""
        self.args = (f"{label} is {signer}, {why}: refused (a referee may accept it: {hint})",)


class KeyringError(RecordsError, ValueError):
    """A keyring command given what it cannot do (bad input, exit 2)."""


class UntrustedTableKeyError(KeyringError):
    """A game for an event about to be played (`play`/`clock --event`) with a table key the event's
    database does not trust: its result would not count, so it is refused before the game (exit 2)."""


class KeyringTamperedError(KeyringError):
    """A keyring row whose key is not the one its fingerprint names: changed behind tileref's back,
    so it trusts nothing; tampering, not bad input (exit 3)."""

    exit_code = 3


class KeyRole(str, enum.Enum):
    TABLE = "table"  # signs the games its table plays
    DIRECTOR = "director"  # signs an event's log: draws, typed results, changes after the fact
    REFEREE = "referee"  # signs acceptances of games whose key is not the club's


def role_from_name(name: str) -> KeyRole:
    """A ring kept before keys had roles named them only (schema/versions.py: schema 5 does the same)."""
    lowered = name.lower()
    if "director" in lowered:
        return KeyRole.DIRECTOR
    return KeyRole.REFEREE if "referee" in lowered else KeyRole.TABLE


class Trust(str, enum.Enum):
    TRUSTED = "trusted"  # the key is in the ring, not revoked
    ACCEPTED = "accepted"  # not trusted, but a referee accepted this game with a reason
    UNKNOWN = "unknown"  # no keyring: nothing says whose key it is
    REFUSED = "refused"


@dataclass(frozen=True)
class KeyEntry:
    fingerprint: str
    public: PublicKey
    name: str
    trusted_at: str
    revoked_at: str | None
    revoke_reason: str | None
    role: KeyRole = KeyRole.TABLE

    @property
    def active(self) -> bool:
        return self.revoked_at is None


@dataclass(frozen=True)
class Acceptance:
    game_hash: str
    fingerprint: str
    game_label: str
    reason: str
    accepted_at: str
    referee: PublicKey
    signature: str

    def message(self) -> bytes:
        return acceptance_message(self.game_hash, self.fingerprint, self.reason, self.accepted_at)


@dataclass(frozen=True)
class TrustVerdict:
    trust: Trust
    text: str  # what readers print after the integrity summary

    @property
    def ok(self) -> bool:
        return self.trust is not Trust.REFUSED


def acceptance_message(game_hash: str, fingerprint: str, reason: str, accepted_at: str) -> bytes:
    return _ACCEPT_TAG + f"{game_hash}:{fingerprint}:{accepted_at}:".encode("ascii") + reason.encode("utf-8")


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Keyring:
    """The keyring kept in a database (tables `keyring`, `key_acceptances`; schema 4 of the records)."""

    def __init__(self, db: Database, shown: str) -> None:
        self.db = db
        self.shown = shown

    def _kept(self) -> bool:
        return "keyring" in self.db.tables()

    def entries(self) -> list[KeyEntry]:
        if not self._kept():
            return []
        out = []
        # a ring not yet brought to schema 5 (a database opened read-only) says the role in the name
        role_column = "role" if "role" in self.db.columns("keyring") else "NULL"
        for fp, pub, name, at, revoked, why, role in self.db.execute(
                "SELECT fingerprint, public_key, name, trusted_at, revoked_at, revoke_reason, "
                f"{role_column} FROM keyring ORDER BY trusted_at, fingerprint"):
            try:
                public = PublicKey.from_text(pub)
            except ValueError as error:
                raise KeyringError(f"the keyring of {self.shown!r} holds an unreadable key {fp!r}: {error}") from None
            if public.fingerprint != fp:  # a row whose key was swapped under its name trusts nothing
                raise KeyringTamperedError(f"the keyring of {self.shown!r} TAMPERED: key {fp!r} is listed with "
                                           f"another key ({public.fingerprint})")
            try:
                key_role = KeyRole(role) if role is not None else role_from_name(name)
            except ValueError:
                raise KeyringError(f"the keyring of {self.shown!r}: key {fp!r} has an unknown role {role!r}") from None
            out.append(KeyEntry(fp, public, name, at, revoked, why, key_role))
        return out

    def entry(self, fingerprint: str) -> KeyEntry | None:
        return next((e for e in self.entries() if e.fingerprint == fingerprint), None)

    def present(self) -> bool:
        return bool(self.entries())

    # ------------------------------------------------------------------ changes

    def trust(self, public: PublicKey, name: str, role: KeyRole = KeyRole.TABLE) -> KeyEntry:
        name = name.strip()
        if not name:
            raise KeyringError("--name: say which table the key is, e.g. \"table 3\"")
        existing = self.entry(public.fingerprint)
        if existing is not None and existing.active:
            raise KeyringError(f"key {public.fingerprint} is in the keyring of {self.shown!r} already, as "
                               f"{existing.name!r}")
        if existing is not None:
            raise KeyringError(f"key {public.fingerprint} ({existing.name!r}) was revoked on {existing.revoked_at} "
                               f"({existing.revoke_reason}); a revoked key is not trusted again: make the table a "
                               "new key (tileref key new)")
        with self.db.transaction():
            self.db.execute("INSERT INTO keyring (fingerprint, public_key, name, trusted_at, role) "
                            "VALUES (?, ?, ?, ?, ?)", (public.fingerprint, public.text, name, _now(), role.value))
        return self.entry(public.fingerprint)

    def revoke(self, fingerprint: str, reason: str) -> KeyEntry:
        entry = self.entry(fingerprint)
        if entry is None:
            raise KeyringError(f"key {fingerprint!r} is not in the keyring of {self.shown!r} (tileref key list)")
        if not entry.active:
            raise KeyringError(f"key {fingerprint} ({entry.name!r}) was revoked already, on {entry.revoked_at}")
        with self.db.transaction():
            self.db.execute("UPDATE keyring SET revoked_at=?, revoke_reason=? WHERE fingerprint=?",
                            (_now(), reason, fingerprint))
        return self.entry(fingerprint)

    def accept(self, game_hash: str, fingerprint: str | None, game_label: str, reason: str,
               referee: TableKey) -> Acceptance:
        """A referee's word that one game signed by a key outside the ring (or unsigned) counts."""
        reason = reason.strip()
        if not reason:
            raise KeyringError("--reason: say why this game counts although its key is not the club's")
        if not self.present():
            raise KeyringError(f"{self.shown!r} keeps no keyring: there is nothing to accept a game against "
                               "(tileref key trust PUB --name NAME first)")
        judge = self.referee_trusted(referee.public)
        if judge is not None:
            raise KeyringError(judge)
        fingerprint = fingerprint or UNSIGNED
        at = _now()
        signature = referee.sign(acceptance_message(game_hash, fingerprint, reason, at))
        with self.db.transaction():
            self.db.execute("DELETE FROM key_acceptances WHERE game_hash=? AND fingerprint=?", (game_hash, fingerprint))
            self.db.execute("INSERT INTO key_acceptances VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (game_hash, fingerprint, game_label, reason, at, referee.public.text, signature))
        return Acceptance(game_hash, fingerprint, game_label, reason, at, referee.public, signature)

    def referee_trusted(self, referee: PublicKey) -> str | None:
        """None if the key may sign acceptances (it is in the ring, not revoked), else why not."""
        entry = self.entry(referee.fingerprint)
        if entry is None or not entry.active:
            return (f"the referee's key {referee.fingerprint} is not " + ("in" if entry is None else "active in")
                    + f" the keyring of {self.shown!r}: an acceptance is signed by a key the club trusts "
                    "(tileref key trust REFEREE.pub --name referee)")
        return None

    def acceptance(self, game_hash: str, fingerprint: str | None) -> Acceptance | None:
        """The game's acceptance, if one is kept and its signature holds by a key the ring trusts."""
        if "key_acceptances" not in self.db.tables():
            return None
        row = self.db.execute("SELECT game_hash, fingerprint, game_label, reason, accepted_at, referee_key, signature "
                              "FROM key_acceptances WHERE game_hash=? AND fingerprint=?",
                              (game_hash, fingerprint or UNSIGNED)).fetchone()
        if row is None:
            return None
        try:
            accepted = Acceptance(*row[:5], PublicKey.from_text(row[5]), row[6])
        except (ValueError, TypeError):
            return None
        if not accepted.referee.verifies(accepted.signature, accepted.message()):
            return None
        if self.referee_trusted(accepted.referee) is not None:
            return None
        return accepted

    def acceptances(self) -> list[tuple[str, str, str, str, str]]:
        """(game label, key fingerprint, reason, when, referee fingerprint) of every acceptance kept (an
        acceptance that does not hold says so after the referee's fingerprint)."""
        if "key_acceptances" not in self.db.tables():
            return []
        out = []
        for game_hash, label, fp, reason, at, referee in self.db.execute(
                "SELECT game_hash, game_label, fingerprint, reason, accepted_at, referee_key FROM key_acceptances "
                "ORDER BY accepted_at").fetchall():
            try:
                who = PublicKey.from_text(referee).fingerprint
            except ValueError:
                who = f"unreadable ({str(referee)[:20]!r})"
            if self.acceptance(game_hash, fp) is None:
                who += "; its signature does not hold or its referee is not trusted: it counts for nothing"
            out.append((label, fp, reason, at, who))
        return out

    # ------------------------------------------------------------------ judging

    def judge(self, game_hash: str, key: PublicKey | None) -> TrustVerdict:
        """What the ring says of a game whose first event hashes to `game_hash`, signed by `key`."""
        entries = self.entries()
        fingerprint = key.fingerprint if key is not None else None
        if not entries:
            return TrustVerdict(Trust.UNKNOWN, "signer unknown to this club (no keyring: tileref key trust PUB "
                                               "--name NAME)" if key else "signer unknown to this club")
        entry = next((e for e in entries if e.fingerprint == fingerprint), None)
        if entry is not None and entry.active and entry.role is KeyRole.TABLE:
            return TrustVerdict(Trust.TRUSTED, f"key of {entry.name!r} in this club's keyring")
        accepted = self.acceptance(game_hash, fingerprint)
        if accepted is not None:
            return TrustVerdict(Trust.ACCEPTED, f"not in this club's keyring, accepted by referee key "
                                                f"{accepted.referee.fingerprint} on {accepted.accepted_at}: "
                                                f"{accepted.reason}")
        if key is None:
            why = "and this club keeps a keyring: an unsigned game counts only if a referee accepts it"
        elif entry is not None and not entry.active:
            why = f"a key of {entry.name!r} revoked on {entry.revoked_at} ({entry.revoke_reason})"
        elif entry is not None:
            why = f"the {entry.role.value} key of {entry.name!r}, which signs no games (a table's key does)"
        else:
            why = "which is not in this club's keyring"
        return TrustVerdict(Trust.REFUSED, why)


def require_trusted_table(keyring: Keyring, public: PublicKey, event: str, db: str) -> None:
    """A game for an event is played only with a key the event's database trusts: the standings and
    `replay` count a result only from such a table, so an untrusted one is refused before the game,
    not after it."""
    entry = keyring.entry(public.fingerprint)
    if entry is not None and entry.active:
        return
    why = "is not in its keyring" if entry is None else f"was revoked ({entry.revoke_reason or 'no reason given'})"
    raise UntrustedTableKeyError(
        f"event {event!r}: this table's key {public.fingerprint} {why} in {db!r}, so the game's result would not "
        f"count; the director trusts it first: `tileref key show` here, then `tileref key trust TABLE.pub --name "
        f"NAME --db {db}` (docs/trust.md)")
