"""Game records in SQLite: games, players, hash-chained signed events, photos, readings, verdicts."""
from .chain import Photo, Reading, RecordedEvent, chain_hash, head_digest, reading_sha, sha256_bytes
from .errors import (
    ChainBrokenError, EvidenceError, GameNotFoundError, KeyFileError, KeyMismatchError, ProjectionError, RecordsError,
    RecordsFileError, SignatureError, TamperedError,
)
from .signing import PublicKey, TableKey
from .store import Records
from .verification.report import ChainReport, Integrity

__all__ = [
    "ChainBrokenError", "ChainReport", "EvidenceError", "GameNotFoundError", "Integrity", "KeyFileError",
    "KeyMismatchError", "Photo", "ProjectionError", "PublicKey", "Reading", "RecordedEvent", "Records", "RecordsError",
    "RecordsFileError", "SignatureError", "TableKey", "TamperedError", "chain_hash", "head_digest", "reading_sha",
    "sha256_bytes",
]
