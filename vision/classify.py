"""Stage 3: classify - rectify each candidate face and read its code with the CNN.

The classifier scores every code twice, "upright in the crop" and "turned half round",
plus "not a tile"; so one pass gives the code, the tile's orientation and a veto on
clutter that the detector mistook for a tile.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .codes import CODES, NOT_A_TILE
from .config import VisionConfig
from .detect import TileCandidate, UnsureTurns
from .geometry import bright_levels, normalise_crops, rectify
from .profile import SetProfile

_BATCH = 64


@dataclass(frozen=True)
class TileGuess:
    corners: np.ndarray  # (4, 2) as the candidate: TL TR BR BL with the top towards the image top
    tile_probability: float  # 1 - P(not a tile)
    code_orientation: np.ndarray  # (53, 2): P(code, upright / turned in the crop | a tile)
    detection_score: float
    crop: np.ndarray | None = None  # the rectified CROP_HEIGHT x CROP_WIDTH x 3 uint8 crop that was read (vision.inks measures its ink)
    bright: np.ndarray | None = None  # the crop's bright level per channel (geometry.bright_levels), as it was white-balanced

    @property
    def code_probabilities(self) -> np.ndarray:
        return self.code_orientation.sum(axis=1)

    @property
    def turned_probability(self) -> float:
        return float(self.code_orientation[:, 1].sum())


def classify(image: np.ndarray, candidates: tuple[TileCandidate, ...], model, config: VisionConfig,
             profile: SetProfile | None = None) -> tuple[TileGuess, ...]:
    """Read each candidate; with a set profile, through the club set's refitted last layer."""
    if not candidates:
        return ()
    plans = [_first_and_later(c, config) for c in candidates]
    quads = [(k, quad) for k, (first, _, _) in enumerate(plans) for quad in first]
    crops, bright, p = _read_crops(image, [quad for _, quad in quads], model, profile)
    surest = np.zeros(len(candidates))
    np.maximum.at(surest, [k for k, _ in quads], p[:, :NOT_A_TILE].max(axis=1))
    again = [(k, quad) for k, (_, later, below) in enumerate(plans) if later and surest[k] < below for quad in later]
    if again:
        more = _read_crops(image, [quad for _, quad in again], model, profile)
        quads += again
        crops, bright, p = (np.concatenate([first, second]) for first, second in zip((crops, bright, p), more))
    best: dict[int, tuple[float, int]] = {}
    for row, ((k, _), probs) in enumerate(zip(quads, p)):
        sureness = float(probs[:NOT_A_TILE].max())  # of one code in one orientation, and of a tile
        if k not in best or sureness > best[k][0]:
            best[k] = (sureness, row)
    out = []
    for k, cand in enumerate(candidates):
        row = best[k][1]
        probs = p[row]
        tile_p = float(1.0 - probs[NOT_A_TILE])
        code_orientation = probs[:NOT_A_TILE].reshape(len(CODES), 2) / max(tile_p, 1e-9)
        out.append(TileGuess(quads[row][1], tile_p, code_orientation, cand.score, crops[row], bright[row]))
    return tuple(out)


def _first_and_later(candidate: TileCandidate, config: VisionConfig) -> tuple[tuple, tuple, float]:
    """The quads of a face read at once, those read only when none of the first reads as sure as the
    threshold returned, and that threshold."""
    turns = candidate.other_turns
    if turns and candidate.redrawn and config.perspective_second_read_below < 1.0:
        # a face drawn twice under perspective: the second drawing waits for the first's reading
        return (candidate.corners,), tuple(turns), config.perspective_second_read_below
    if isinstance(turns, UnsureTurns) and config.unsure_turns_read_below < 1.0:
        quarter = turns.quarter
        return ((candidate.corners, turns[quarter]), tuple(t for i, t in enumerate(turns) if i != quarter),
                config.unsure_turns_read_below)
    return (candidate.corners, *turns), (), 1.0


def _read_crops(image: np.ndarray, quads: list[np.ndarray], model, profile: SetProfile | None):
    """The rectified crops of `quads`, their bright levels and the classifier's probabilities for them."""
    crops = np.stack([rectify(image, quad) for quad in quads])
    bright = bright_levels(crops)  # once: vision.inks white-balances the kept crops alike
    logits = np.concatenate([crop_logits(model, crops[i: i + _BATCH], profile, bright[i: i + _BATCH])
                             for i in range(0, len(crops), _BATCH)])
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    return crops, bright, p


def crop_logits(model, crops: np.ndarray, profile: SetProfile | None = None, bright: np.ndarray | None = None) -> np.ndarray:
    """Classifier logits of rectified uint8 crops, through the profile when there is one (`bright`: the
    crops' bright levels when known)."""
    x = normalise_crops(crops, bright)
    if profile is None:
        return model(x)
    logits, embedding = model.outputs(x, ("logits", "embedding"))
    return profile.adjust(logits, embedding)
