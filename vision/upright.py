"""The table's turn in the frame: the detector and the classifier learned tiles standing about
upright, so a frame whose tiles lie turned (a camera turned on its mount, a table at a slant)
is looked at again turned back upright, and the faces found there are carried back to the frame.

The table's turn is where the faces' tops point: each face of sure angle is read by the
classifier, whose "turned half round" output says which end is its top, and their mean
direction, when they agree, is the table's up (so a table seen upside down is turned round
whole: the detector misses and merges tiles standing on their heads). When the tops disagree
(sets laid facing several sides), the turn is the faces' dominant angle modulo a quarter turn,
and orienting each set is left to `vision.melds.place_group`.
"""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from .classify import crop_logits
from .codes import NOT_A_TILE
from .config import VisionConfig
from .detect import TileCandidate
from .geometry import order_upright, rectify


def table_turn(candidates: tuple[TileCandidate, ...], config: VisionConfig) -> tuple[float, float]:
    """(degrees, agreement): the turn (cv2's sense: counter-clockwise as shown) that stands the
    sure faces upright, modulo a quarter turn, and how well their angles agree (the mean
    resultant of the quadrupled angles, 0..1; 0 when there are fewer than upright_min_faces)."""
    sure = [c.corners for c in candidates if not c.other_turns]
    if len(sure) < config.upright_min_faces:
        return 0.0, 0.0
    widths = np.array([q[1] - q[0] + q[2] - q[3] for q in sure])
    quadrupled = 4.0 * np.arctan2(widths[:, 1], widths[:, 0])  # a quarter turn apart counts as alike
    cos, sin = np.cos(quadrupled).mean(), np.sin(quadrupled).mean()
    return float(np.degrees(np.arctan2(sin, cos) / 4.0)), float(np.hypot(cos, sin))


def table_up(image: np.ndarray, candidates: tuple[TileCandidate, ...], classifier, config: VisionConfig) -> tuple[float, float]:
    """(degrees, agreement): the turn (cv2's sense) that stands the sure faces' tops up, from the
    classifier's reading of up to upright_vote_faces of them, and how well their tops agree (the
    length of their mean direction, weighted by how sure each is of being a tile and of its top)."""
    sure = [c.corners for c in candidates if not c.other_turns][: config.upright_vote_faces]
    if len(sure) < config.upright_min_faces:
        return 0.0, 0.0
    logits = crop_logits(classifier, np.stack([rectify(image, q) for q in sure]))
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    tile = 1.0 - p[:, NOT_A_TILE]
    turned = p[:, :NOT_A_TILE].reshape(len(sure), -1, 2)[:, :, 1].sum(axis=1) / np.maximum(tile, 1e-9)
    ups = np.array([q[0] - q[3] + q[1] - q[2] for q in sure])
    ups /= np.maximum(np.linalg.norm(ups, axis=1, keepdims=True), 1e-9)
    weights = tile * np.abs(2.0 * turned - 1.0)
    if weights.sum() <= 0:
        return 0.0, 0.0
    mean = ((np.where(turned > 0.5, -1.0, 1.0) * weights)[:, None] * ups).sum(axis=0) / weights.sum()
    # an up at angle a (image axes, y down) stands upright at -90 degrees; cv2 turns a to a - degrees
    degrees = (np.degrees(np.arctan2(mean[1], mean[0])) + 90.0 + 180.0) % 360.0 - 180.0
    return float(degrees), float(np.hypot(*mean))


def turned_frame(image: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """The frame turned by `degrees` about its centre, grown so nothing is cut (the new corners in
    the frame's border colour), and the 2x3 matrix from frame to turned pixels."""
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), degrees, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    size = (int(np.ceil(w * cos + h * sin)), int(np.ceil(w * sin + h * cos)))
    matrix[:, 2] += (size[0] / 2.0 - w / 2.0, size[1] / 2.0 - h / 2.0)
    edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]).reshape(-1, image.shape[2] if image.ndim == 3 else 1)
    fill = tuple(float(v) for v in np.median(edge, axis=0))
    turned = cv2.warpAffine(image, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    return turned, matrix


def carried_back(candidates: tuple[TileCandidate, ...], matrix: np.ndarray, shape) -> tuple[TileCandidate, ...]:
    """Faces found on the turned frame, in the frame's pixels (those whose centre falls outside it dropped)."""
    back = cv2.invertAffineTransform(matrix)
    h, w = shape[:2]

    def carry(quad: np.ndarray) -> np.ndarray:
        return order_upright(np.asarray(quad, np.float64) @ back[:, :2].T + back[:, 2])

    out = []
    for c in candidates:
        corners = carry(c.corners)
        x, y = corners.mean(axis=0)
        if 0 <= x < w and 0 <= y < h:
            out.append(replace(c, corners=corners, other_turns=tuple(carry(q) for q in c.other_turns)))
    return tuple(out)
