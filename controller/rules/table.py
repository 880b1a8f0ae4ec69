"""The table: the sets lying on it, each an ordered row of tiles as the camera reads it.

`Table.from_codes([["R5", "R6", "R7"], ...])` parses and checks that no tile appears more
often than the 106-tile set holds; `table.check(ruleset)` classifies every set.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from .errors import SetShapeError
from .melds import MeldCheck, MeldKind, classify
from .tiles import Tile, check_tile_counts, parse_tiles


@dataclass(frozen=True, slots=True)
class Table:
    sets: tuple[tuple[Tile, ...], ...] = ()

    @classmethod
    def of(cls, sets: Iterable[Iterable[Tile]]) -> "Table":
        return cls(tuple(tuple(tiles) for tiles in sets))

    @classmethod
    def from_codes(cls, sets: object, where: str = "table") -> "Table":
        """Parse `[["R5", "R6", "R7"], ["J", "K1", "B1"]]`, refusing impossible tile counts."""
        if isinstance(sets, (str, bytes)) or not isinstance(sets, Sequence):
            raise SetShapeError(f"{where}: expected a list of sets (lists of tile codes), got {sets!r}")
        parsed = []
        for index, codes in enumerate(sets):
            if isinstance(codes, (str, bytes)) or not isinstance(codes, Sequence):
                raise SetShapeError(f"{where}: set {index + 1} must be a list of tile codes, got {codes!r}")
            if not codes:
                raise SetShapeError(f"{where}: set {index + 1} is empty; a set holds tiles")
            parsed.append(parse_tiles(codes))
        table = cls(tuple(parsed))
        check_tile_counts(table.tiles(), where)
        return table

    def tiles(self) -> Counter[Tile]:
        counts: Counter[Tile] = Counter()
        for tiles in self.sets:
            counts.update(tiles)
        return counts

    @property
    def tile_count(self) -> int:
        return sum(len(tiles) for tiles in self.sets)

    def check(self, ruleset=None) -> "TableCheck":
        reading = ruleset.melds_reading() if ruleset is not None else {}
        return TableCheck(tuple(classify(tiles, **reading) for tiles in self.sets))

    def codes(self) -> list[list[str]]:
        return [[tile.code for tile in tiles] for tiles in self.sets]

    def __str__(self) -> str:
        return " ".join("[" + " ".join(tile.code for tile in tiles) + "]" for tiles in self.sets) or "(empty)"


@dataclass(frozen=True, slots=True)
class TableCheck:
    melds: tuple[MeldCheck, ...]

    @property
    def valid(self) -> bool:
        return all(meld.is_valid for meld in self.melds)

    @property
    def invalid(self) -> tuple[MeldCheck, ...]:
        return tuple(meld for meld in self.melds if meld.kind is MeldKind.INVALID)

    def to_dict(self) -> dict:
        return {"valid": self.valid, "sets": [meld.to_dict() for meld in self.melds]}
