"""What `Records.verify` found for one game: intact, unsigned (recorded before signing) or tampered,
with the head and the signer, and what the club's keyring said of that signer."""
from __future__ import annotations

import enum
from dataclasses import dataclass

from ..chain import HEAD_DIGEST_HEX
from ..errors import TamperedError
from ..keyring import TrustVerdict


class Integrity(str, enum.Enum):
    INTACT = "intact"  # chain, signatures, evidence and derived tables all hold
    UNSIGNED = "unsigned (recorded before signing)"  # an old game: chain and evidence hold, no key to check
    TAMPERED = "TAMPERED"


@dataclass(frozen=True)
class ChainReport:
    """What `verify` found for one game. `ok`: the game can be read (intact, or unsigned and old)."""

    game_id: int
    status: Integrity
    events: int
    head: str  # the head hash (the last event's)
    key_id: str | None  # fingerprint of the table key the game records (None: unsigned)
    error: TamperedError | None = None
    trust: TrustVerdict | None = None  # what the club's keyring says of the signer (None: not asked)

    @property
    def ok(self) -> bool:
        return self.status is not Integrity.TAMPERED and (self.trust is None or self.trust.ok)

    @property
    def first_bad_seq(self) -> int | None:
        return self.error.seq if self.error is not None else None

    @property
    def problem(self) -> str:
        return str(self.error) if self.error is not None else ""

    @property
    def head_digest(self) -> str:
        return self.head[:HEAD_DIGEST_HEX]

    def summary(self) -> str:
        """One line: `intact, signed by table key 0123abcd89ef4567, 57 events, head 1a2b3c4d5e6f`."""
        if self.error is not None:
            return str(self.error)
        trust = f"; {self.trust.text}" if self.trust is not None else ""
        if self.status is Integrity.INTACT:
            return f"intact, signed by table key {self.key_id}, {self.events} events, head {self.head_digest}{trust}"
        return f"intact but {self.status.value}, {self.events} events, head {self.head_digest}{trust}"
