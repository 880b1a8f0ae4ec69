"""Stages 4 and 5: group tiles lying side by side into sets, agree each set's orientation,
and order its tiles in the set's own reading direction.

Orientation is decided per set, not per tile: a set lies all one way round, so the
neighbours outvote a single face whose 6 or 9 reads both ways.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .classify import TileGuess
from .codes import CODES
from .config import VisionConfig
from .geometry import flip_quad, quad_sizes


@dataclass(frozen=True)
class OrientedTile:
    """A tile of a group turned the way the whole group is read (its code not chosen yet)."""

    corners: np.ndarray  # TL TR BR BL of the tile as it is read (its top really at the top)
    code_probabilities: np.ndarray  # (53,) given the set's orientation
    tile_probability: float


@dataclass(frozen=True)
class TileGroup:
    members: tuple[int, ...]  # indices into the placed tiles, in reading order


def _axes(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    right = (quad[1] - quad[0]) + (quad[2] - quad[3])
    up = (quad[0] - quad[3]) + (quad[1] - quad[2])
    return right / max(math.hypot(*right), 1e-9), up / max(math.hypot(*up), 1e-9)


def find_groups(quads: list[np.ndarray], config: VisionConfig) -> list[list[int]]:
    """Connected runs of tiles that touch side by side (orientation not yet known)."""
    n = len(quads)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if n < 2:
        return [[i] for i in range(n)]
    centers = np.asarray(quads, np.float64).mean(axis=1)  # each quad's mean, to the last bit
    sizes = quad_sizes(quads)
    rights = np.array([_axes(q)[0] for q in quads])
    max_angle = math.radians(config.meld_angle_tolerance_deg)
    for i in range(n):
        d = centers - centers[i]
        along = np.abs(d @ rights[i])
        across = np.abs(d @ np.array([-rights[i][1], rights[i][0]]))
        width = (sizes[:, 0] + sizes[i, 0]) / 2
        height = (sizes[:, 1] + sizes[i, 1]) / 2
        # |cos| of the angle between the two tiles' width axes, sign-free (half-turns allowed)
        parallel = np.abs(rights @ rights[i]) >= math.cos(max_angle)
        near = (along >= 0.6 * width) & (along <= (1.0 + config.meld_gap) * width)
        aligned = across <= config.meld_row_tolerance * height
        for j in np.nonzero(near & aligned & parallel)[0]:
            if j != i:
                parent[root(int(j))] = root(i)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def place_group(guesses: list[TileGuess], config: VisionConfig) -> tuple[list[OrientedTile], list[int]]:
    """Orient the tiles of one group together; return them and their reading order."""
    ref_up = _axes(guesses[0].corners)[1]
    corners, orient = [], []
    for g in guesses:
        co = g.code_orientation
        q = g.corners
        if _axes(q)[1] @ ref_up < 0:  # this candidate's "top" is the other end from the reference's
            q = flip_quad(q)
            co = co[:, ::-1]
        corners.append(q)
        orient.append(co)
    # log-odds that the whole group is turned half round relative to the reference frame
    evidence = 0.0
    for co, g in zip(orient, guesses):
        turned = float(np.clip(co[:, 1].sum(), 1e-4, 1 - 1e-4))
        evidence += math.log(turned / (1 - turned)) * g.tile_probability
    p_turned = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, evidence))))
    placed = []
    for q, co, g in zip(corners, orient, guesses):
        probs = (1 - p_turned) * co[:, 0] + p_turned * co[:, 1]
        probs = probs / max(probs.sum(), 1e-9)
        placed.append(OrientedTile(flip_quad(q) if p_turned > 0.5 else q, probs, g.tile_probability))
    right = np.sum([_axes(t.corners)[0] for t in placed], axis=0)
    along = [float(t.corners.mean(axis=0) @ right) for t in placed]
    order = sorted(range(len(placed)), key=lambda k: along[k])
    return placed, order


def best_codes(probabilities: np.ndarray, count: int) -> list[tuple[str, float]]:
    top = np.argsort(-probabilities)[:count]
    return [(CODES[k], float(probabilities[k])) for k in top]
