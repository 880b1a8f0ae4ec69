"""Hypothesis strategies for tiles: legal tables, legal tables minus one tile, random
mixes, all respecting the 106-tile set (two of each tile, two jokers)."""
from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from controller.rules.tiles import COLOURS, JOKER, Tile

FACES = tuple(Tile(colour, number) for colour in COLOURS for number in range(1, 14))
DECK = tuple(face for face in FACES for _ in range(2)) + (JOKER, JOKER)


def _fits(multiset: Counter) -> bool:
    return all(count <= 2 for count in multiset.values())


@st.composite
def valid_sets(draw) -> list[Tile]:
    """One valid set, up to two of its tiles replaced by jokers."""
    if draw(st.booleans()):
        colour = draw(st.sampled_from(COLOURS))
        length = draw(st.integers(3, 7))
        start = draw(st.integers(1, 14 - length))
        faces = [Tile(colour, start + step) for step in range(length)]
    else:
        number = draw(st.integers(1, 13))
        colours = draw(st.lists(st.sampled_from(COLOURS), min_size=3, max_size=4, unique=True))
        faces = [Tile(colour, number) for colour in colours]
    jokers = draw(st.sets(st.integers(0, len(faces) - 1), max_size=2))
    return [JOKER if index in jokers else face for index, face in enumerate(faces)]


@st.composite
def legal_tables(draw, max_sets: int = 14) -> list[Tile]:
    """Tiles that certainly partition into valid sets (built from valid sets)."""
    tiles: Counter = Counter()
    for candidate in draw(st.lists(valid_sets(), max_size=max_sets)):
        grown = tiles + Counter(candidate)
        if _fits(grown):
            tiles = grown
    return list(tiles.elements())


@st.composite
def minus_one(draw, tables=legal_tables()) -> list[Tile]:
    tiles = draw(tables)
    if tiles:
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return tiles


@st.composite
def mixes(draw, max_size: int = 40) -> list[Tile]:
    """Any tiles from one set (no validity built in)."""
    indices = draw(st.lists(st.integers(0, len(DECK) - 1), max_size=max_size, unique=True))
    return [DECK[index] for index in indices]


@st.composite
def near_sets(draw, max_size: int = 40) -> list[Tile]:
    """Tiles crowded around a few numbers and colours, where runs and groups compete."""
    numbers = draw(st.lists(st.integers(1, 13), min_size=1, max_size=5, unique=True))
    pool = [tile for tile in DECK if tile.is_joker or tile.number in numbers]
    indices = draw(st.lists(st.integers(0, len(pool) - 1), max_size=max_size, unique=True))
    return [pool[index] for index in indices]


@st.composite
def joker_mixes(draw, max_size: int = 30, crowded: bool = False) -> list[Tile]:
    """Real tiles from one set plus one or (mostly) two jokers: the inputs whose joker
    placements the search must rule out one by one when no laying exists."""
    faces = [tile for tile in DECK if not tile.is_joker]
    if crowded:
        numbers = draw(st.lists(st.integers(1, 13), min_size=2, max_size=6, unique=True))
        faces = [tile for tile in faces if tile.number in numbers]
    indices = draw(st.lists(st.integers(0, len(faces) - 1), min_size=1, max_size=max_size, unique=True))
    jokers = draw(st.sampled_from((1, 2, 2)))
    return [faces[index] for index in indices] + [JOKER] * jokers


any_tiles = st.one_of(legal_tables(), minus_one(), mixes(), near_sets())


@st.composite
def rack_and_table(draw) -> tuple[list[Tile], list[Tile]]:
    """A table that partitions and a rack drawn from the tiles left."""
    table = draw(legal_tables(max_sets=10))
    left = Counter(DECK) - Counter(table)
    rest = list(left.elements())
    indices = draw(st.lists(st.integers(0, len(rest) - 1), max_size=16, unique=True)) if rest else []
    return [rest[index] for index in indices], table
