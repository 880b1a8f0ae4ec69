"""Before the first turn: the redeal right and the start order from drawn tiles.

- `doubled_tiles(dealt)`: tiles dealt twice (`R1 R1`); jokers do not count, having no colour
  or number. `has_redeal_right(dealt, ruleset)`: at least RuleSet.redeal_min_doubles of them
  and a variant that grants the right (`redeal_when`: japan-2017 at the start of the player's
  own first turn, world after the deal, classic never).
- `start_order(rounds, ruleset)`: each round maps player -> drawn tile; round 0 holds every
  player, each later round only those told to draw again. Highest number first; a joker is
  highest or is drawn again (`start_draw_joker`); equal numbers draw again, every tie when the
  draw also decides the seats (japan-2017) or only a tie for the top (`start_draw_ties`).
  Returns `StartOrder(order, redraw)`: either the order, or who must draw again next.
- `starter_by_lot(players, lot)`: world (003) "the youngest, or drawn (e.g. by an app)"
  (`start_by = lot`): the caller names the youngest, or draws `lot`, any whole number (the
  rules core has no randomness of its own).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from .errors import StartDrawError
from .tiles import HIGHEST_NUMBER, Tile
from .variants import RedealWhen, RuleSet, StartDrawJoker, StartDrawTies

JOKER_DRAW_RANK = HIGHEST_NUMBER + 1


def doubled_tiles(dealt: Iterable[Tile]) -> tuple[Tile, ...]:
    counts = Counter(tile for tile in dealt if not tile.is_joker)
    return tuple(sorted((tile for tile, count in counts.items() if count >= 2), key=lambda t: t.sort_key))


def starter_by_lot(players: Sequence[str], lot: int) -> str:
    if not players:
        raise StartDrawError("start by lot: there are no players to draw among")
    return players[lot % len(players)]


def has_redeal_right(dealt: Iterable[Tile], ruleset: RuleSet) -> bool:
    if ruleset.redeal_when is RedealWhen.NEVER:
        return False
    return len(doubled_tiles(dealt)) >= ruleset.redeal_min_doubles


@dataclass(frozen=True, slots=True)
class StartOrder:
    order: tuple[str, ...] | None  # highest draw first; None while someone must draw again
    redraw: tuple[str, ...]  # who draws again next (empty once decided)

    @property
    def starter(self) -> str | None:
        return self.order[0] if self.order else None


def start_order(rounds: Sequence[Mapping[str, Tile]], ruleset: RuleSet) -> StartOrder:
    if not rounds or not rounds[0]:
        raise StartDrawError("start order: the first draw round needs every player's tile")
    players = list(rounds[0])
    keys: dict[str, tuple[int, ...]] = {name: () for name in players}
    waiting = set(players)
    for number, drawn in enumerate(rounds):
        missing = sorted(waiting - set(drawn))
        if missing:
            raise StartDrawError(f"start order: round {number + 1} has no tile for {missing[0]!r}")
        strangers = sorted(set(drawn) - waiting)
        if strangers:
            raise StartDrawError(f"start order: {strangers[0]!r} was not due to draw in round {number + 1}")
        pending_joker = set()
        for name in waiting:
            tile = drawn[name]
            if tile.is_joker and ruleset.start_draw_joker is StartDrawJoker.DRAW_AGAIN:
                pending_joker.add(name)
            else:
                keys[name] += (JOKER_DRAW_RANK if tile.is_joker else tile.number,)  # type: ignore[operator]
        waiting = pending_joker | _tied(keys, pending_joker, ruleset)
        if not waiting:
            if number < len(rounds) - 1:
                raise StartDrawError(f"start order: decided by round {number + 1}; round {number + 2} is not needed")
            order = tuple(sorted(players, key=lambda name: keys[name], reverse=True))
            return StartOrder(order, ())
        if number == len(rounds) - 1:
            return StartOrder(None, tuple(name for name in players if name in waiting))
    raise AssertionError("unreachable")


def _tied(keys: dict[str, tuple[int, ...]], pending: set[str], ruleset: RuleSet) -> set[str]:
    settled = [name for name in keys if name not in pending]
    groups: dict[tuple[int, ...], list[str]] = {}
    for name in settled:
        groups.setdefault(keys[name], []).append(name)
    tied = [names for names in groups.values() if len(names) > 1]
    if ruleset.start_draw_ties is StartDrawTies.TOP:
        top = max((keys[name] for name in settled), default=None)
        tied = [names for names in tied if keys[names[0]] == top]
    return {name for names in tied for name in names}
