"""Turn a camera reading into a table, using what the controller already knows.

What is known: the table before the turn and where each of its tiles lay; that the set
holds two of each tile and two jokers; and the rules (a set on the table is usually
valid). So:

1. A tile lying where a tile lay before (within a fraction of a tile width, matched one to
   one, nearest first) is the same tile. If the camera now reads it differently, either the
   tile that lay there is seen elsewhere (it moved away: a joker swapped out for the tile it
   stood for) and the new read stands, or it is a misread and the tile's set decides: the old
   identity stays unless another candidate, and only one, makes the set valid.
2. A set whose tiles all still lie where they lay is one set, even if the reader split it.
3. A code read more often than the set holds it makes its least sure copies doubtful.
4. An unsure tile that moved is settled by the rules: if exactly one choice among its
   candidates makes its set valid (and keeps the counts), that choice is taken.
5. A tile the fused frames disagree on (`unsure`: not seen in every frame, or read as other
   codes) is not sure: the rules may settle its code, never whether it lies there, so a tile
   some frames did not see is a doubt whose candidates include "no tile" (NO_TILE).
6. A tile in no set that lies one step beyond a set's end, along its line at its own pitch, is in that
   set: it touches it. The reader groups tiles by their outlines, and a small tile's outline can come
   out turned across its neighbours; the centres alone still show where it lies.
7. Whatever stays doubtful is returned as a doubt for the referee, never guessed silently;
   every settled tile is returned with the reason, and tiles of the table before that are
   seen neither in place nor elsewhere are returned as missing (the runner looks again).
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from controller.rules.melds import classify
from controller.rules.tiles import parse_tile

from .events import NO_TILE, Doubt, PlacedTile
from .fusion import Unsure
from .machine import TableState
from .reading import SAME_TILE_RADIUS, TableReading, tile_width

COPIES = 2  # of each coloured number, and of the joker


@dataclass(frozen=True)
class RebuildSettings:
    sure: float = 0.85  # a read at least this confident stands on its own
    keep_radius: float = SAME_TILE_RADIUS  # how far an unmoved tile may seem to shift between turns
    # a tile in no set this near (in pitches) to where a set's next tile would lie is in that set: as far as
    # the reader lets neighbours lie apart along a set and across it (VisionConfig.meld_gap, meld_row_tolerance)
    step_reach: float = 0.35
    min_candidate: float = 0.02  # runner-up codes below this probability are not considered
    max_candidates: int = 3
    max_combinations: int = 81  # per set; above this the set's doubts go to the referee as they are


@dataclass(frozen=True)
class Rebuilt:
    table: TableState
    doubts: tuple[Doubt, ...]
    settled: tuple[tuple[int, str, str, str], ...]  # (tile index, read code, chosen code, why)
    missing: tuple[PlacedTile, ...] = ()  # tiles of the table before that are seen neither in place nor elsewhere

    @property
    def problems(self) -> int:
        return len(self.doubts) + len(self.missing)


def rebuild(reading: TableReading, before: TableState, settings: RebuildSettings = RebuildSettings(),
            melds_reading: dict | None = None, unsure: Sequence[Unsure] = ()) -> Rebuilt:
    melds_reading = melds_reading or {}
    unsure_at = {u.index: u for u in unsure}
    tiles = reading.tiles
    width = tile_width(reading)
    pairs = _pairs(reading, before, settings.keep_radius * width)
    matches = {i: before.tiles[j][0] for i, j in pairs.items()}
    matched_before = set(pairs.values())

    # codes read at places where no tile lay before: tiles that moved there (or came from a rack)
    arrived = Counter(t.code for i, t in enumerate(tiles) if i not in matches)

    chosen: list[str] = []
    candidates: list[tuple[str, ...]] = []
    sure: list[bool] = []
    settled: list[tuple[int, str, str, str]] = []
    contested: set[int] = set()  # unmoved tiles the camera reads differently: the rules decide
    for i, tile in enumerate(tiles):
        options = _candidates(tile, settings)
        old = matches.get(i)
        if old is None or old == tile.code:
            chosen.append(tile.code)
            sure.append(old is not None or tile.confidence >= settings.sure)
            candidates.append(options)
        elif arrived[old] > 0:
            # the tile that lay here is seen elsewhere: it moved away and this is another tile
            # (a joker swapped out for the tile it stood for)
            arrived[old] -= 1
            chosen.append(tile.code)
            sure.append(tile.confidence >= settings.sure)
            candidates.append(options)
        else:
            # a tile does not leave the table nor change its face: a different read of a tile
            # that did not move is most likely a misread; its set settles it
            chosen.append(old)
            sure.append(False)
            contested.add(i)
            candidates.append((old,) + tuple(c for c in options if c != old))
        if i in unsure_at:  # the frames disagree on it: not sure, whatever each frame's confidence
            sure[i] = False
            candidates[i] += tuple(dict.fromkeys(c for c in unsure_at[i].reads if c not in candidates[i]))

    # more copies than the set holds: the least sure reads of that code become doubtful
    for code, count in Counter(chosen).items():
        if count > COPIES:
            holders = sorted((i for i, c in enumerate(chosen) if c == code), key=lambda i: -tiles[i].confidence)
            for i in holders[COPIES:]:
                sure[i] = False
                candidates[i] = tuple(c for c in candidates[i] if c != code) or candidates[i]

    sets = _rejoin(_sets_with_lone_tiles(reading), pairs, before, reading, settled)
    sets = _join_strays(sets, reading, settings.step_reach, settled)
    doubts: list[Doubt] = []
    for members in sets:
        open_ = [i for i in members if not sure[i]]
        if not open_:
            continue
        fixed = Counter(chosen[i] for i, ok in enumerate(sure) if ok)
        solutions = _valid_choices(members, open_, chosen, candidates, fixed, settings, melds_reading)
        if len(solutions) == 1:
            for i, code in zip(open_, solutions[0]):
                why = ("the tile did not move; its old identity is the only one that makes its set valid"
                       if i in contested and code == chosen[i] else "the only reading that makes its set valid")
                settled.append((i, tiles[i].code, code, why))
                chosen[i] = code
                sure[i] = True
            continue
        if not solutions and all(i in contested for i in open_):
            for i in open_:  # the set is invalid whatever it reads: the unmoved tile stays what it was
                settled.append((i, tiles[i].code, chosen[i], "the tile did not move: it keeps the identity it had"))
                sure[i] = True
            continue
        why = ("no reading makes its set valid" if not solutions
               else f"{len(solutions)} readings make its set valid")
        if len(members) == 1:
            why = "a lone tile: the rules cannot tell"
        for i in open_:
            if i in contested and len(members) == 1:
                settled.append((i, tiles[i].code, chosen[i], "the tile did not move: it keeps the identity it had"))
                continue
            doubts.append((i, candidates[i], f"read {tiles[i].code} at {tiles[i].confidence:.2f}; {why}"))
    doubts = _presence_doubts(doubts, chosen, [u for u in unsure if u.presence])

    placed: tuple[PlacedTile, ...] = tuple(
        (chosen[i], round(float(t.center[0]), 2), round(float(t.center[1]), 2)) for i, t in enumerate(tiles)
    )
    unmatched_codes = Counter(chosen[i] for i in range(len(tiles)) if i not in matches)
    missing = []
    for j, (code, x, y) in enumerate(before.tiles):
        if j in matched_before:
            continue
        if unmatched_codes[code] > 0:
            unmatched_codes[code] -= 1  # it moved
        else:
            missing.append((code, x, y))
    return Rebuilt(TableState(placed, tuple(sets)), tuple(doubts), tuple(settled), tuple(missing))


def _presence_doubts(doubts: list[Doubt], chosen: list[str], unseen: list[Unsure]) -> list[Doubt]:
    """Each tile some frames did not see is a doubt with "no tile" among its candidates: first when
    most frames saw no tile there. The rules never settle whether a tile lies somewhere."""
    doubts = list(doubts)
    at = {doubt[0]: n for n, doubt in enumerate(doubts)}
    for u in unseen:
        n = at.get(u.index)
        codes = (chosen[u.index],) if n is None else doubts[n][1]
        why = u.describe() if n is None else f"{doubts[n][2]}; {u.describe()}"
        doubt = Doubt(u.index, (NO_TILE,) + codes if 2 * u.seen <= u.frames else codes + (NO_TILE,), why)
        if n is None:
            doubts.append(doubt)
        else:
            doubts[n] = doubt
    return doubts


def _candidates(tile, settings: RebuildSettings) -> tuple[str, ...]:
    options = [tile.code] + [c for c, p in tile.alternatives if p >= settings.min_candidate and c != tile.code]
    return tuple(dict.fromkeys(options))[: settings.max_candidates]


def match_by_position(reading: TableReading, before: TableState, radius: float) -> dict[int, str]:
    """Pair each read tile with the tile that lay nearest, one to one, closest pairs first."""
    return {i: before.tiles[j][0] for i, j in _pairs(reading, before, radius).items()}


def _pairs(reading: TableReading, before: TableState, radius: float) -> dict[int, int]:
    """read tile index -> index of the tile that lay there before."""
    return nearest_pairs([tile.center for tile in reading.tiles], [(bx, by) for _, bx, by in before.tiles], radius)


def nearest_pairs(new: Sequence[tuple[float, float]], old: Sequence[tuple[float, float]], radius: float) -> dict[int, int]:
    """Index in `new` -> index in `old` of points at most `radius` apart, one to one, closest pairs first."""
    pairs = sorted((math.dist(p, q), i, j) for i, p in enumerate(new) for j, q in enumerate(old)
                   if math.dist(p, q) <= radius)
    taken_old, out = set(), {}
    for _, i, j in pairs:
        if i not in out and j not in taken_old:
            taken_old.add(j)
            out[i] = j
    return out


def _sets_with_lone_tiles(reading: TableReading) -> list[tuple[int, ...]]:
    """The reader's sets, then every tile in no set as a one-tile set (it is on the table too)."""
    sets = [tuple(s) for s in reading.sets if s]
    in_sets = {i for s in sets for i in s}
    lone = sorted((i for i in range(len(reading.tiles)) if i not in in_sets),
                  key=lambda i: (reading.tiles[i].center[1], reading.tiles[i].center[0]))
    return sets + [(i,) for i in lone]


def _rejoin(sets: list[tuple[int, ...]], pairs: dict[int, int], before: TableState, reading: TableReading,
            settled: list) -> list[tuple[int, ...]]:
    """A set whose tiles all lie where they lay is still one set, even if the reader split it."""
    new_of = {j: i for i, j in pairs.items()}
    for old_set in before.sets:
        if len(old_set) < 2 or not all(j in new_of for j in old_set):
            continue
        set_of = {i: k for k, members in enumerate(sets) for i in members}
        pieces = sorted({set_of[new_of[j]] for j in old_set})
        if len(pieces) == 1:
            continue
        (x0, y0), (x1, y1) = before.tiles[old_set[0]][1:], before.tiles[old_set[-1]][1:]
        merged = [i for k in pieces for i in sets[k]]
        merged.sort(key=lambda i: (reading.tiles[i].center[0] - x0) * (x1 - x0) + (reading.tiles[i].center[1] - y0) * (y1 - y0))
        for k in pieces[1:]:
            first = sets[k][0]
            settled.append((first, reading.tiles[first].code, reading.tiles[first].code,
                            "rejoined with its set: its tiles did not move, the reader had split it"))
        sets = [tuple(merged) if k == pieces[0] else members for k, members in enumerate(sets) if k not in pieces[1:]]
    return sets


def _join_strays(sets: list[tuple[int, ...]], reading: TableReading, reach: float,
                 settled: list) -> list[tuple[int, ...]]:
    """Each tile in no set that lies where the next tile of a set would (a set's end plus its mean step
    between neighbours, within `reach` steps) joins that set at that end; the nearest such place first."""
    centres = [reading.tiles[i].center for i in range(len(reading.tiles))]
    sets = list(sets)
    while True:
        best = None
        for k, members in enumerate(sets):
            if len(members) < 2:
                continue
            first, last = centres[members[0]], centres[members[-1]]
            step = ((last[0] - first[0]) / (len(members) - 1), (last[1] - first[1]) / (len(members) - 1))
            pitch = math.hypot(*step)
            if pitch == 0:
                continue
            for end, sign in ((last, 1), (first, -1)):
                place = (end[0] + sign * step[0], end[1] + sign * step[1])
                for lone, stray in enumerate(sets):
                    if len(stray) != 1:
                        continue
                    off = math.dist(centres[stray[0]], place) / pitch
                    if off <= reach and (best is None or off < best[0]):
                        best = (off, k, sign, lone)
        if best is None:
            return sets
        _, k, sign, lone = best
        i = sets[lone][0]
        sets[k] = sets[k] + (i,) if sign > 0 else (i,) + sets[k]
        settled.append((i, reading.tiles[i].code, reading.tiles[i].code, "joined to the set it touches: it lies "
                        "one step beyond the set's end, the reader had left it alone"))
        del sets[lone]


def _valid_choices(members, unsure, chosen, candidates, fixed: Counter, settings, melds_reading) -> list[tuple[str, ...]]:
    options = [candidates[i] for i in unsure]
    combos = 1
    for o in options:
        combos *= len(o)
    if combos > settings.max_combinations or len(members) < 3:
        return []
    found = []
    for combo in itertools.product(*options):
        counts = fixed + Counter(combo)
        if any(n > COPIES for code, n in counts.items() if code in combo):
            continue
        trial = dict(zip(unsure, combo))
        codes = [trial.get(i, chosen[i]) for i in members]
        if classify([parse_tile(c) for c in codes], **melds_reading).is_valid:
            found.append(combo)
    return found


__all__ = ["RebuildSettings", "Rebuilt", "rebuild"]
