"""Tiles and their notation: colour letter then number (`R5`, `K13`), `J` a joker."""
from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from .errors import TileCodeError, TileCountError

LOWEST_NUMBER = 1
HIGHEST_NUMBER = 13
COPIES_PER_TILE = 2
JOKER_COUNT = 2
JOKER_CODE = "J"


class Colour(enum.Enum):
    BLACK = "K"
    BLUE = "B"
    ORANGE = "O"
    RED = "R"

    @property
    def letter(self) -> str:
        return self.value


COLOURS: tuple[Colour, ...] = tuple(Colour)
_COLOUR_RANK = {colour: rank for rank, colour in enumerate(COLOURS)}
_COLOUR_BY_LETTER = {colour.value: colour for colour in Colour}


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile face. A joker has neither colour nor number."""

    colour: Colour | None
    number: int | None
    # Hashing is the hot path of judging (Counters, caches): a precomputed int, not the enum's hash.
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if (self.colour is None) != (self.number is None):
            raise TileCodeError(f"a tile needs both colour and number, or neither (joker): {self!r}")
        if self.number is not None and not LOWEST_NUMBER <= self.number <= HIGHEST_NUMBER:
            raise TileCodeError(f"tile number {self.number!r} is outside 1..13")
        colour_rank = 0 if self.colour is None else _COLOUR_RANK[self.colour] + 1
        object.__setattr__(self, "_hash", colour_rank * 16 + (self.number or 0))

    def __hash__(self) -> int:
        return self._hash

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    @property
    def code(self) -> str:
        if self.colour is None:
            return JOKER_CODE
        return f"{self.colour.value}{self.number}"

    @property
    def sort_key(self) -> tuple[int, int]:
        if self.colour is None:
            return (len(COLOURS), 0)
        return (COLOURS.index(self.colour), self.number or 0)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile({self.code})"


JOKER = Tile(None, None)


_PARSED: dict[str, Tile] = {}


def parse_tile(code: object) -> Tile:
    """`"R5"` -> Tile(R5). Lower case and surrounding spaces are accepted."""
    # One shared object per code: tuple and cache comparisons then stop at identity.
    if isinstance(code, str) and code in _PARSED:
        return _PARSED[code]
    tile = _parse_tile(code)
    if len(_PARSED) < 4096:
        _PARSED[code] = _INTERNED.setdefault(tile, tile)  # type: ignore[index]
    return _INTERNED.get(tile, tile)


_INTERNED: dict[Tile, Tile] = {}


def _parse_tile(code: object) -> Tile:
    if not isinstance(code, str):
        raise TileCodeError(f"tile code must be a string like 'R5' or 'J', got {code!r}")
    text = code.strip().upper()
    if text == JOKER_CODE:
        return JOKER
    colour = _COLOUR_BY_LETTER.get(text[:1])
    digits = text[1:]
    # ASCII digits only: str.isdigit() also takes superscripts, Arabic-Indic and full-width digits
    if colour is None or not (digits.isascii() and digits.isdigit()) or digits.startswith("0"):
        raise TileCodeError(
            f"unknown tile code {_shown(code)}: expected K, B, O or R then 1..13 (e.g. 'R5'), or 'J'"
        )
    if len(digits) > 2 or not LOWEST_NUMBER <= int(digits) <= HIGHEST_NUMBER:
        raise TileCodeError(f"unknown tile code {_shown(code)}: number {_shown(digits, 12)} is outside 1..13")
    return Tile(colour, int(digits))


def _shown(value: str, limit: int = 40) -> str:
    """The repr of what was given, cut short when it is long (a 5,000-digit code)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 3]}... ({len(value)} characters)"


def parse_tiles(codes: Iterable[object]) -> tuple[Tile, ...]:
    return tuple(parse_tile(code) for code in codes)


def _build_full_set() -> Counter[Tile]:
    tiles: Counter[Tile] = Counter()
    for colour in COLOURS:
        for number in range(LOWEST_NUMBER, HIGHEST_NUMBER + 1):
            tiles[Tile(colour, number)] = COPIES_PER_TILE
    tiles[JOKER] = JOKER_COUNT
    return tiles


_FULL_SET = _build_full_set()


def full_set() -> Counter[Tile]:
    """The 106 tiles of one game (a fresh Counter the caller may change)."""
    return Counter(_FULL_SET)


def check_tile_counts(tiles: Iterable[Tile], where: str = "tiles") -> Counter[Tile]:
    """Count tiles and refuse any tile present more often than the set holds it."""
    counts = Counter(tiles)
    limit = _FULL_SET
    for tile, count in sorted(counts.items(), key=lambda item: item[0].sort_key):
        if count > limit[tile]:
            raise TileCountError(
                f"{where}: tile {tile.code!r} appears {count} times; the set has only {limit[tile]}"
            )
    return counts
