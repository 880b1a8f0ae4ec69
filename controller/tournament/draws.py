"""Every random decision of a tournament, made from one `random.Random(seed)`.

Each helper returns what it decided together with the `DrawEntry` lines that record
who drew what, so the stored record can be read back and re-run.
"""
from __future__ import annotations

import random
from typing import Callable, Sequence

from .model import DrawEntry

WINDS = ("East", "South", "West", "North")
JOKER = 14  # a joker counts as the highest tile in the seat draw (seed 000)
RUMMIKUB_TILE_VALUES = tuple(v for v in range(1, 14) for _ in range(8)) + (JOKER, JOKER)


def table_sizes(players: int, largest: int = 4) -> tuple[int, ...]:
    """Fewest tables of `largest`, the short ones (one seat fewer) last."""
    tables = -(-players // largest)
    short = tables * largest - players
    if short > tables:
        raise ValueError(f"{players} players cannot sit at tables of {largest - 1} or {largest}")
    return (largest,) * (tables - short) + (largest - 1,) * short


def draw_tables(
    players: Sequence[str], sizes: Sequence[int], rng: random.Random
) -> tuple[list[list[str]], list[DrawEntry]]:
    """Prepared lots (seed 003 "przygotowanymi losami"): a shuffled pile of table tickets."""
    tickets = [number for number, size in enumerate(sizes, start=1) for _ in range(size)]
    rng.shuffle(tickets)
    tables: list[list[str]] = [[] for _ in sizes]
    entries = []
    for player, ticket in zip(players, tickets):
        tables[ticket - 1].append(player)
        entries.append(DrawEntry(player, f"table ticket {ticket}", f"table {ticket}"))
    return tables, entries


def draw_tables_avoiding(
    players: Sequence[str],
    sizes: Sequence[int],
    met: frozenset[frozenset[str]],
    rng: random.Random,
    attempts: int = 400,
) -> tuple[list[list[str]], list[DrawEntry], int]:
    """Tables with as few repeated opponents as the lots allow (seed 001: new pairings
    each hanchan). Random greedy seating, retried; the first draw with no repeat wins,
    else the one with fewest. Returns the repeats left so the record can say so."""
    best: tuple[int, list[list[str]]] | None = None
    for _ in range(attempts):
        order = list(players)
        rng.shuffle(order)
        tables: list[list[str]] = [[] for _ in sizes]
        repeats = 0
        for player in order:
            open_tables = [i for i, size in enumerate(sizes) if len(tables[i]) < size]
            clashes = {i: sum(frozenset((player, o)) in met for o in tables[i]) for i in open_tables}
            fewest = min(clashes.values())
            choice = rng.choice([i for i in open_tables if clashes[i] == fewest])
            tables[choice].append(player)
            repeats += fewest
        if best is None or repeats < best[0]:
            best = (repeats, tables)
        if repeats == 0:
            break
    assert best is not None
    repeats, tables = best
    entries = [
        DrawEntry(player, f"table {number}", f"table {number}")
        for number, table in enumerate(tables, start=1)
        for player in table
    ]
    return tables, entries, repeats


def dice_seats(players: Sequence[str], rng: random.Random) -> tuple[list[str], list[DrawEntry]]:
    """Seed 003: seats 1, 2, 3, 4 from the highest die down; tied players roll again."""

    def roll(player: str) -> tuple[int, str]:
        value = rng.randint(1, 6)
        return value, f"die {value}"

    return _seats_highest_first(players, roll)


def tile_seats(players: Sequence[str], rng: random.Random) -> tuple[list[str], list[DrawEntry]]:
    """Seed 000: each draws a tile, highest sits first (clockwise on); a joker is the
    highest; equal numbers draw again."""
    pool = list(RUMMIKUB_TILE_VALUES)
    rng.shuffle(pool)

    def draw(player: str) -> tuple[int, str]:
        value = pool.pop()
        return value, f"tile {'joker' if value == JOKER else value}"

    return _seats_highest_first(players, draw)


def _seats_highest_first(
    players: Sequence[str], draw: Callable[[str], tuple[int, str]]
) -> tuple[list[str], list[DrawEntry]]:
    """Seat players by what each draws, highest first; tied players draw again among
    themselves. Every draw and the resulting seats are recorded."""
    entries: list[DrawEntry] = []

    def order(group: list[str]) -> list[str]:
        drawn = {player: draw(player) for player in group}
        for player in group:
            entries.append(DrawEntry(player, drawn[player][1], "seat"))
        result: list[str] = []
        for value in sorted({value for value, _ in drawn.values()}, reverse=True):
            tied = [p for p in group if drawn[p][0] == value]
            result.extend(order(tied) if len(tied) > 1 else tied)
        return result

    seated = order(list(players))
    entries.extend(DrawEntry(p, "seat order", f"seat {i}") for i, p in enumerate(seated, start=1))
    return seated, entries


def wind_seats(players: Sequence[str], rng: random.Random) -> tuple[list[str], list[DrawEntry]]:
    """Seed 001: seats by grabbing the four wind tiles; East is the first dealer."""
    winds = list(WINDS[: len(players)])
    rng.shuffle(winds)
    drew = dict(zip(players, winds))
    seated = sorted(players, key=lambda p: WINDS.index(drew[p]))
    return seated, [DrawEntry(p, f"wind {drew[p]}", f"seat {WINDS.index(drew[p]) + 1}") for p in players]


def lot_order(players: Sequence[str], rng: random.Random) -> tuple[tuple[str, ...], list[DrawEntry]]:
    """A lot for every player, kept to break any tie the format's rules leave standing."""
    order = sorted(players)
    rng.shuffle(order)
    return tuple(order), [DrawEntry(p, f"lot {i}", "last tie-break") for i, p in enumerate(order, start=1)]
