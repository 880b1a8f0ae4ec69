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


def _axes_many(quads) -> tuple[np.ndarray, np.ndarray]:
    """Each of N quads' unit width ("right") and height ("up") axes, N x 2 each, worked out together: the
    sums and lengths as one quad's would be (math.hypot, to the last bit), without a dozen small numpy
    calls per face."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    right = (q[:, 1] - q[:, 0]) + (q[:, 2] - q[:, 3])
    up = (q[:, 0] - q[:, 3]) + (q[:, 1] - q[:, 2])
    return right / _lengths(right), up / _lengths(up)


def _lengths(vectors: np.ndarray) -> np.ndarray:
    return np.array([[max(math.hypot(x, y), 1e-9)] for x, y in vectors.tolist()], np.float64).reshape(-1, 1)


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
    rights = _axes_many(quads)[0]
    max_angle = math.radians(config.meld_angle_tolerance_deg)
    # every pair at once: row i holds what tile i's own loop worked out for each other tile
    d = centers[None, :, :] - centers[:, None, :]
    along = np.abs(d[..., 0] * rights[:, None, 0] + d[..., 1] * rights[:, None, 1])
    across = np.abs(d[..., 0] * -rights[:, None, 1] + d[..., 1] * rights[:, None, 0])
    width = (sizes[None, :, 0] + sizes[:, None, 0]) / 2
    height = (sizes[None, :, 1] + sizes[:, None, 1]) / 2
    # |cos| of the angle between the two tiles' width axes, sign-free (half-turns allowed)
    parallel = np.abs(rights[:, None, 0] * rights[None, :, 0] + rights[:, None, 1] * rights[None, :, 1]) >= math.cos(max_angle)
    near = (along >= 0.6 * width) & (along <= (1.0 + config.meld_gap) * width)
    aligned = across <= config.meld_row_tolerance * height
    linked = near & aligned & parallel
    np.fill_diagonal(linked, False)
    for i, j in zip(*np.nonzero(linked)):
        parent[root(int(j))] = root(int(i))
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def place_group(guesses: list[TileGuess], config: VisionConfig) -> tuple[list[OrientedTile], list[int]]:
    """Orient the tiles of one group together; return them and their reading order."""
    ups = _axes_many([g.corners for g in guesses])[1]
    ref_up = ups[0]
    corners, orient = [], []
    for g, up in zip(guesses, ups):
        co = g.code_orientation
        q = g.corners
        if up @ ref_up < 0:  # this candidate's "top" is the other end from the reference's
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
    placed_corners = np.asarray([t.corners for t in placed], np.float64)
    right = np.sum(_axes_many(placed_corners)[0], axis=0)
    # each face's mean to the last bit, and its own dot product: a group whose axes cancel has a `right` of
    # rounding noise, and only the same arithmetic orders it the same way
    along = [float(centre @ right) for centre in placed_corners.mean(axis=1)]
    order = sorted(range(len(placed)), key=lambda k: along[k])
    return placed, order

