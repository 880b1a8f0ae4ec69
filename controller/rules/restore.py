"""A failed turn whose table cannot be put back as it was: what stays, and where the rest goes.

    settlement = settle_unrestorable(before, now, ruleset)

`before` is the table before the failed turn, `now` the table as it lies when the players give
up restoring it (the arbiter says so). Reading (docs/rules.md), the same for every variant: the
valid sets as they lie stay; of the tiles not in one, the exact solver's largest valid part
(`best_partition`, most tiles) stays too, laid anew as the solver's sets; the tiles left over
are the ones nobody can place, whoever they came from, and go where
`RuleSet.unrestorable_tiles` says:

- classic (002): to the end of the pool (`end-of-pool`);
- japan-2017 (000): the offender takes them (`offender-takes`);
- world (003): the offender takes every tile not in a valid set (`offender-takes-loose`).

The offender's rack is then whatever the table before and the rack held, less what stays on
the table and what went to the pool (`rack_change`): tiles the offender played that stay in a
valid set stay on the table. Tiles of the table before that are not on `now` at all are
`missing`: nobody can place them, and the game's tile count says so.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .solver import Objective, best_partition
from .table import Table
from .tiles import Tile
from .variants import RuleSet, UnrestorableTiles


@dataclass(frozen=True, slots=True)
class Unrestorable:
    kept: Table  # the valid sets that stay on the table
    relay: bool  # some kept sets are the solver's, not as they lie: the players lay them
    to_offender: tuple[Tile, ...]  # tiles the offender takes onto the rack
    to_pool: tuple[Tile, ...]  # tiles put at the end of the pool
    missing: tuple[Tile, ...]  # tiles of the table before that are not on the table now
    rack_change: int  # tiles the offender's rack gains (negative: loses) against the rack before the turn

    def to_dict(self) -> dict:
        return {
            "kept": self.kept.codes(),
            "relay": self.relay,
            "to_offender": _codes(self.to_offender),
            "to_pool": _codes(self.to_pool),
            "missing": _codes(self.missing),
            "rack_change": self.rack_change,
        }


def settle_unrestorable(before: Table, now: Table, ruleset: RuleSet) -> Unrestorable:
    laid: list[tuple[Tile, ...]] = []
    loose: Counter = Counter()
    for tiles, meld in zip(now.sets, now.check(ruleset).melds):
        if meld.is_valid:
            laid.append(tiles)
        else:
            loose.update(tiles)
    part = best_partition(tuple(loose.elements()), Objective.TILES)
    kept = Table(tuple(laid) + part.sets)
    unplaced = Counter(part.leftover)
    to_pool = unplaced if ruleset.unrestorable_tiles is UnrestorableTiles.END_OF_POOL else Counter()
    to_offender = unplaced - to_pool
    return Unrestorable(
        kept=kept,
        relay=bool(part.sets),
        to_offender=_sorted(to_offender),
        to_pool=_sorted(to_pool),
        missing=_sorted(before.tiles() - now.tiles()),
        rack_change=before.tile_count - kept.tile_count - sum(to_pool.values()),
    )


def _sorted(tiles: Counter) -> tuple[Tile, ...]:
    return tuple(sorted(tiles.elements(), key=lambda tile: tile.sort_key))


def _codes(tiles) -> list[str]:
    return [tile.code for tile in tiles]
