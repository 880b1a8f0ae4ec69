"""Game records in SQLite: games, players, hash-chained events, photos, readings, verdicts."""
from .errors import GameNotFoundError, RecordsError, RecordsFileError, TamperedError
from .store import ChainReport, Photo, Reading, RecordedEvent, Records, chain_hash, reading_sha, sha256_bytes

__all__ = [
    "ChainReport", "GameNotFoundError", "Photo", "Reading", "RecordedEvent", "Records", "RecordsError",
    "RecordsFileError", "TamperedError", "chain_hash", "reading_sha", "sha256_bytes",
]
