"""Stage 2b: follow_perspective - tile faces as parallelograms, as a tilted camera sees them.

The detector fits each face with a rectangle. Under a camera tilted 20-30 degrees a face is a
parallelogram whose sides lean up to 14 degrees from square, and a rectangle, however well
turned, shears the crop: a leaning 1 becomes a 7. Two things the table gives back the lean:

- the tiles of a set stand on one line, so the line through a face and its set neighbours is
  its width axis (a line on the table stays a line in the photo);
- the faces' height axes all point to one vanishing point (tiles lie alike on one plane), so
  a point fitted to every face's own, noisy axis gives each face a steadier one; but only
  when most faces agree with it: of tiles strewn at every angle, a few agree with any point.

A face with no set neighbours, or whose own axis disagrees with the vanishing point (a tile
turned across the others), keeps its own axis. A face whose set line turns its width axis by
more than a tile's own jitter was fitted off its set, or the line is off (real sets do not
stand on perfect lines); the geometry cannot tell which, so the classifier reads it both ways:
sheared (the line's width axis, its own height axis) and turned whole, and keeps the surer.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .config import VisionConfig
from .detect import TileCandidate
from .geometry import axes_apart, order_upright_many, quad_sizes


def follow_perspective(candidates: tuple[TileCandidate, ...], config: VisionConfig) -> tuple[TileCandidate, ...]:
    """The faces of sure angle turned into parallelograms that follow the table's perspective."""
    if len(candidates) < 2:
        return candidates
    corners = np.array([c.corners for c in candidates])
    centres = corners.mean(axis=1)
    width_axes = _angles((corners[:, 1] - corners[:, 0]) + (corners[:, 2] - corners[:, 3]))
    height_axes = _angles((corners[:, 3] - corners[:, 0]) + (corners[:, 2] - corners[:, 1]))
    sizes = quad_sizes(corners)
    vanishing = _towards_vanishing_point(centres, height_axes, config)
    lines, in_set = _set_lines(centres, width_axes, sizes, config)
    sure = np.array([not c.other_turns for c in candidates])  # of unsure angle: the classifier still picks among its turns
    across = _units(width_axes)
    down = _units(height_axes)
    width_axis = np.where(in_set[:, None], lines, across)
    # how far the set's line turns the rectangle's width axis (the line has no sense); less than
    # perspective_turn_min is a real tile's own jitter in its set
    turn = (np.arctan2(width_axis[:, 1], width_axis[:, 0]) - width_axes + np.pi / 2) % np.pi - np.pi / 2
    off_line = in_set & (np.degrees(np.abs(turn)) > config.perspective_turn_min) & config.perspective_off_line_both
    sheared = _parallelograms(centres, width_axis, _leanings(height_axes, False, vanishing, config), across, down, sizes)
    # the rectangle turned back by as much as the line turned it, both axes: which was wrong, the rectangle
    # or the line, the classifier's surer reading says
    whole = _parallelograms(centres, width_axis, _leanings(height_axes + turn, True, vanishing, config),
                            across, down, sizes)
    out = [None if not sure[i] else (sheared[i], whole[i]) if off_line[i] else (sheared[i],) for i in range(len(candidates))]
    # every new face's corners put in upright order at once
    drawn = [quad for faces in out if faces is not None for quad in faces]
    upright = iter(order_upright_many(drawn) if drawn else ())
    result = []
    for c, faces in zip(candidates, out):
        if faces is None:
            result.append(c)
        elif len(faces) == 1:
            result.append(replace(c, corners=next(upright)))
        else:
            sheared, whole = next(upright), next(upright)
            result.append(replace(c, corners=sheared, other_turns=(whole,), redrawn=True))
    return tuple(result)


def _leanings(height_axes: np.ndarray, turned: bool, vanishing, config: VisionConfig) -> np.ndarray:
    """Each face's height axis as a unit vector: towards the vanishing point where the face's own axis agrees
    with it or, for axes `turned` from their own, also where the turned axis comes to agree with it."""
    if vanishing is not None:
        towards, agree = vanishing
        if turned:
            agree = agree | (np.degrees(axes_apart(height_axes, towards)) <= config.perspective_agreement)
        height_axes = np.where(agree, towards, height_axes)
    return _units(height_axes)


def _angles(vectors: np.ndarray) -> np.ndarray:
    return np.arctan2(vectors[:, 1], vectors[:, 0])


def _units(angles: np.ndarray) -> np.ndarray:
    return np.column_stack([np.cos(angles), np.sin(angles)])


def _set_lines(centres: np.ndarray, width_axes: np.ndarray, sizes: np.ndarray, config: VisionConfig):
    """For each face, the direction of the line through it and its set neighbours (side by
    side with it and parallel to it, as in `vision.melds`), and whether it has any."""
    across = np.column_stack([np.cos(width_axes), np.sin(width_axes)])
    down = np.column_stack([-across[:, 1], across[:, 0]])
    offsets = centres[None, :, :] - centres[:, None, :]  # [i, j]: from face i to face j
    parallel = np.abs(np.cos(width_axes[None, :] - width_axes[:, None])) >= np.cos(np.radians(config.meld_angle_tolerance_deg))
    near = (parallel
            & (np.abs(np.einsum("ijk,ik->ij", offsets, across)) <= config.perspective_set_reach * sizes[:, :1])
            & (np.abs(np.einsum("ijk,ik->ij", offsets, down)) <= config.meld_row_tolerance * sizes[:, 1:]))
    count = near.sum(axis=1)
    # each face's neighbourhood's spread of centres, about its own mean (relative to the face,
    # so that the moments stay small numbers)
    weights = near / count[:, None]
    mean = np.einsum("ij,ijk->ik", weights, offsets)
    second = np.einsum("ij,ijk,ijl->ikl", weights, offsets, offsets) - mean[:, :, None] * mean[:, None, :]
    angle = 0.5 * np.arctan2(2 * second[:, 0, 1], second[:, 0, 0] - second[:, 1, 1])  # its long axis
    return np.column_stack([np.cos(angle), np.sin(angle)]), count >= 2  # the face and at least one neighbour


def _towards_vanishing_point(centres: np.ndarray, height_axes: np.ndarray, config: VisionConfig):
    """Per face, the angle from its centre towards the vanishing point of the faces' height
    axes, and whether its own axis agrees with it; None when no point holds."""
    scale = float(np.abs(centres).max()) or 1.0
    points = np.column_stack([centres / scale, np.ones(len(centres))])
    ahead = np.column_stack([centres / scale + np.column_stack([np.cos(height_axes), np.sin(height_axes)]),
                             np.ones(len(centres))])
    lines = np.cross(points, ahead)
    lines /= np.linalg.norm(lines[:, :2], axis=1, keepdims=True)
    agree = np.ones(len(centres), bool)
    towards = height_axes
    for _ in range(config.perspective_rounds):
        if agree.sum() < config.perspective_min_faces:
            return None
        # the point (homogeneous, so it may lie at infinity) nearest every agreeing line
        _, vectors = np.linalg.eigh(lines[agree].T @ lines[agree])
        point = vectors[:, 0]
        direction = point[:2] - points[:, :2] * point[2]
        towards = np.arctan2(direction[:, 1], direction[:, 0])
        apart = np.degrees(axes_apart(towards, height_axes))
        agree = apart <= config.perspective_agreement
    if agree.mean() < config.perspective_min_share:  # tiles strewn at every angle: a point some agree with by chance
        return None
    return towards, agree


def _parallelograms(centres, width_axes, height_axes, across, down, sizes) -> np.ndarray:
    """Each face with the given axes (turned to the rectangle's sense), keeping the distances between the
    rectangle's opposite sides: N x 4 x 2 corners, not yet in upright order (`order_upright_many`)."""
    width_axes = np.where((_dots(width_axes, across) >= 0)[:, None], width_axes, -width_axes)
    height_axes = np.where((_dots(height_axes, down) >= 0)[:, None], height_axes, -height_axes)
    normal_of_width = np.column_stack([-width_axes[:, 1], width_axes[:, 0]])
    normal_of_height = np.column_stack([-height_axes[:, 1], height_axes[:, 0]])
    top = width_axes * sizes[:, :1] / np.maximum(np.abs(_dots(width_axes, normal_of_height)), 1e-6)[:, None]
    side = height_axes * sizes[:, 1:] / np.maximum(np.abs(_dots(height_axes, normal_of_width)), 1e-6)[:, None]
    return np.stack([centres - top / 2 - side / 2, centres + top / 2 - side / 2,
                     centres + top / 2 + side / 2, centres - top / 2 + side / 2], axis=1)


def _dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1]
