"""Stage 6: a set holds two of each tile.

A full set has two of each coloured number and two jokers, so a code read three times in one
photo is a misread for at least one of those tiles. Which ones, and what they are instead,
is decided for the photo as a whole: the codes of all its tiles that are likeliest together
(the product of each tile's probability for its code) with no code used more than twice.
That is a linear assignment of tiles to the set's 106 places (scipy's
`linear_sum_assignment`, exact). When no code is read too often, the likeliest code of each
tile already is that assignment and nothing changes.

A tile that loses its likeliest code is not made sure of the new one: its confidence is
its probability for the new code (under a half, since another code was likelier), so the
reading names it among the unsure tiles, with its first reading kept as an alternative, and
the game flow hands it to the rules and, failing them, to the referee.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .codes import CODES, FULL_SET_SIZE, MAX_COPIES

_SMALLEST = 1e-12  # a probability of exactly 0 would make a place unaffordable rather than unlikely


@dataclass(frozen=True)
class CopyLimit:
    codes: tuple[int, ...]  # the chosen code (index into CODES) of each tile
    moved: tuple[int, ...]  # tiles whose chosen code is not their likeliest
    over_read: tuple[tuple[str, int], ...]  # codes read more often than a set holds them, and how often


def limit_copies(probabilities: np.ndarray) -> CopyLimit:
    """The likeliest codes of these tiles (N x 53 code probabilities) with at most two of each.

    With more tiles than a full set has, no assignment exists: the likeliest codes are
    returned unchanged (the reading warns about the count)."""
    probabilities = np.asarray(probabilities, dtype=np.float64)
    likeliest = probabilities.argmax(axis=1) if len(probabilities) else np.zeros(0, int)
    counts = np.bincount(likeliest, minlength=len(CODES))
    over_read = tuple((CODES[k], int(counts[k])) for k in np.nonzero(counts > MAX_COPIES)[0])
    unchanged = CopyLimit(tuple(int(k) for k in likeliest), (), over_read)
    if not over_read or len(probabilities) > FULL_SET_SIZE:
        return unchanged
    # imported here: scipy.optimize costs about 50 MB and 0.4 s to load, and most photos never need it
    from scipy.optimize import linear_sum_assignment

    cost = -np.log(np.maximum(probabilities, _SMALLEST))
    places = np.repeat(np.arange(len(CODES)), MAX_COPIES)  # each code's two places
    rows, columns = linear_sum_assignment(cost[:, places])
    chosen = np.empty(len(probabilities), int)
    chosen[rows] = places[columns]
    moved = tuple(int(i) for i in np.nonzero(chosen != likeliest)[0])
    return CopyLimit(tuple(int(k) for k in chosen), moved, over_read)
