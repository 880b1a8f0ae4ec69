"""Independent oracles for the solver tests: a set-partition ILP (highspy) over every
candidate set, and plain exhaustive search for small cases. Neither shares code with
controller/rules/solver*.py beyond the Tile type.

Candidate sets are multisets of tiles: runs of 3 to 5 tiles and groups of 3 or 4, with
up to two of their tiles replaced by jokers (longer runs always split into runs of 3 to
5, jokers included, so nothing is lost). A multiset that several sets share (for
example {J, R5, R6} as R4-R6 or R5-R7) keeps its highest points.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import Iterable

import highspy
import numpy as np

from controller.rules.tiles import COLOURS, JOKER, Tile

TILE_TYPES: tuple[Tile, ...] = tuple(
    Tile(colour, number) for colour in COLOURS for number in range(1, 14)
) + (JOKER,)
TYPE_INDEX = {tile: index for index, tile in enumerate(TILE_TYPES)}


def _with_jokers(faces: tuple[Tile, ...]) -> Iterable[tuple[Counter, int]]:
    for jokers in range(3):
        if jokers >= len(faces):
            break
        for replaced in combinations(range(len(faces)), jokers):
            multiset = Counter(face for index, face in enumerate(faces) if index not in replaced)
            multiset[JOKER] += jokers
            yield multiset, sum(face.number for face in faces)


@lru_cache(maxsize=1)
def candidate_sets() -> tuple[tuple[tuple[tuple[int, int], ...], int, int], ...]:
    """(sorted (type index, count) pairs, tile count, points) for every candidate set."""
    best: dict[tuple[tuple[int, int], ...], int] = {}
    shapes: list[tuple[Tile, ...]] = []
    for colour in COLOURS:
        for length in range(3, 6):
            for start in range(1, 14 - length + 1):
                shapes.append(tuple(Tile(colour, start + step) for step in range(length)))
    for number in range(1, 14):
        for size in (3, 4):
            for colours in combinations(COLOURS, size):
                shapes.append(tuple(Tile(colour, number) for colour in colours))
    for faces in shapes:
        for multiset, points in _with_jokers(faces):
            key = tuple(sorted((TYPE_INDEX[tile], count) for tile, count in multiset.items()))
            best[key] = max(best.get(key, 0), points)
    return tuple((key, sum(count for _, count in key), points) for key, points in sorted(best.items()))


def _counts(tiles: Iterable[Tile]) -> np.ndarray:
    counts = np.zeros(len(TILE_TYPES), dtype=int)
    for tile in tiles:
        counts[TYPE_INDEX[tile]] += 1
    return counts


def ilp_best(
    required: Iterable[Tile], optional: Iterable[Tile], objective: str
) -> int | None:
    """Max over layings keeping every required tile of: "tiles" = optional tiles laid,
    "points" = points of all sets laid. None when the required tiles cannot be laid."""
    need = _counts(required)
    free = _counts(optional)
    limit = need + free
    sets = [
        (key, size, points)
        for key, size, points in candidate_sets()
        if all(count <= limit[index] for index, count in key)
    ]
    model = highspy.Highs()
    model.setOptionValue("output_flag", False)
    model.setOptionValue("mip_rel_gap", 0.0)
    inf = highspy.kHighsInf
    n_sets = len(sets)
    n_types = len(TILE_TYPES)
    # columns: one per candidate set (0..2 copies), one per tile type (optional tiles laid)
    costs = [
        -(points if objective == "points" else 0.0) for _, _, points in sets
    ] + [-(1.0 if objective == "tiles" else 0.0)] * n_types
    lower = [0.0] * (n_sets + n_types)
    upper = [2.0] * n_sets + [float(value) for value in free]
    model.addVars(n_sets + n_types, np.array(lower), np.array(upper))
    model.changeColsCost(n_sets + n_types, np.arange(n_sets + n_types), np.array(costs, dtype=float))
    model.changeColsIntegrality(
        n_sets + n_types,
        np.arange(n_sets + n_types),
        np.array([highspy.HighsVarType.kInteger] * (n_sets + n_types)),
    )
    rows: list[list[tuple[int, float]]] = [[] for _ in range(n_types)]
    for column, (key, _, _) in enumerate(sets):
        for index, count in key:
            rows[index].append((column, float(count)))
    for index in range(n_types):
        entries = rows[index] + [(n_sets + index, -1.0)]
        columns = np.array([column for column, _ in entries], dtype=np.int32)
        values = np.array([value for _, value in entries], dtype=float)
        model.addRow(float(need[index]), float(need[index]), len(entries), columns, values)
    model.run()
    status = model.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        # HiGHS presolve has been seen to call a feasible instance of this model
        # infeasible (a 70-tile table, see docs/solver.md); confirm without it.
        model.setOptionValue("presolve", "off")
        model.clearSolver()
        model.run()
        status = model.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return None
    assert status == highspy.HighsModelStatus.kOptimal, model.modelStatusToString(status)
    return round(-model.getInfo().objective_function_value)


def ilp_can_partition(tiles: Iterable[Tile]) -> bool:
    return ilp_best(tiles, (), "tiles") is not None


def exhaustive_best(tiles: Iterable[Tile], objective: str) -> int:
    """Most tiles (or points) that disjoint candidate sets can take from `tiles`, by
    trying every way: the first tile left is either left out or in some candidate set."""
    sets = candidate_sets()
    start = tuple(_counts(tiles))

    @lru_cache(maxsize=None)
    def best(counts: tuple[int, ...]) -> int:
        first = next((index for index, count in enumerate(counts) if count), None)
        if first is None:
            return 0
        without = list(counts)
        without[first] -= 1
        result = best(tuple(without))
        for key, size, points in sets:
            if not any(index == first for index, _ in key):
                continue
            if all(count <= counts[index] for index, count in key):
                rest = list(counts)
                for index, count in key:
                    rest[index] -= count
                gain = size if objective == "tiles" else points
                result = max(result, gain + best(tuple(rest)))
        return result

    return best(start)
