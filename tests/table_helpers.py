"""Tables written as melds, for the game and web tests."""
from __future__ import annotations

from controller.game.machine import TableState


def table(*melds) -> TableState:
    """A table of these melds, one row each, tiles 50 px apart."""
    tiles, sets = [], []
    for row, meld in enumerate(melds):
        sets.append(tuple(range(len(tiles), len(tiles) + len(meld))))
        tiles.extend((code, 50.0 * k, 80.0 * row) for k, code in enumerate(meld))
    return TableState(tuple(tiles), tuple(sets))
