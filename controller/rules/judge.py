"""Judge one turn: the table before and after it -> a `Verdict`.

    verdict = judge_turn(before, after, opened=True, ruleset=JAPAN_2017, rack=None)

`played` is the multiset after - before (tiles that came from the rack), `taken` is
before - after (table tiles that vanished: always illegal, a tile never goes back to a rack).
Identical tiles are interchangeable, so a set is "unchanged" when the same set (a group in any
order, a run either way) lies on the table after the turn.

Rules checked, each a `Rule` in `Verdict.violations`:
  invalid-set, table-tile-taken, tile-not-from-rack (only with a rack), initial-meld-under-minimum,
  initial-meld-touches-table, rearranged-too-early, joker-set-split, joker-swapped-with-table-tile,
  freed-joker-without-rack-tile, freed-joker-not-played, freed-joker-into-same-set, no-tile-played;
  and two that only inform: laid-after-alarm (japan-2017: tiles that left the rack after the alarm
  go back and do not count; needs `at_alarm`, the table as it lay at the alarm) and timer-skipped
  (the countdown was skipped for a turn that was not an immediate draw or a one-tile play).
Outcome: LEGAL; DRAW (nothing played, no other rule broken); PENALTY (RuleSet.penalty_draw and
-penalty_points, table restored to the before-table, played tiles back to the rack); RELIEVED
(japan-2017: one straight movement makes the turn legal, or the six-tile exception; the
violations listed are forgiven).

Readings (RuleSet fields): rearrange_from, joker_policy, freed_joker_companion,
no_play_keeps_rearrangement, unchanged_invalid_sets_stand, relief_* (see docs/rules.md).
"""
from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from .melds import MeldCheck, MeldKind, is_valid_set
from .relief import StraightMove, find_straight_move
from .table import Table
from .tiles import JOKER, Tile, check_tile_counts
from .variants import FreedJokerCompanion, JokerPolicy, LateInvalidSet, RearrangeFrom, RuleSet


# Rule and Outcome are str enums because the game records their values (turn-judged events): a value
# once recorded is never removed or renamed, or old records stop loading.
class Rule(enum.StrEnum):
    INVALID_SET = "invalid-set"
    TABLE_TILE_TAKEN = "table-tile-taken"
    TILE_NOT_FROM_RACK = "tile-not-from-rack"
    INITIAL_MELD_UNDER_MINIMUM = "initial-meld-under-minimum"
    INITIAL_MELD_TOUCHES_TABLE = "initial-meld-touches-table"
    REARRANGED_TOO_EARLY = "rearranged-too-early"
    JOKER_SET_SPLIT = "joker-set-split"
    JOKER_SWAPPED_WITH_TABLE_TILE = "joker-swapped-with-table-tile"
    FREED_JOKER_WITHOUT_RACK_TILE = "freed-joker-without-rack-tile"
    FREED_JOKER_NOT_PLAYED = "freed-joker-not-played"
    FREED_JOKER_INTO_SAME_SET = "freed-joker-into-same-set"
    NO_TILE_PLAYED = "no-tile-played"
    LAID_AFTER_ALARM = "laid-after-alarm"
    TIMER_SKIPPED = "timer-skipped"


# Recorded with the verdict but never a penalty.
INFORMATIVE_RULES = frozenset({Rule.NO_TILE_PLAYED, Rule.LAID_AFTER_ALARM, Rule.TIMER_SKIPPED})


class Outcome(enum.StrEnum):
    LEGAL = "legal"
    DRAW = "draw"
    PENALTY = "penalty"
    RELIEVED = "relieved"


@dataclass(frozen=True, slots=True)
class Violation:
    rule: Rule
    detail: str

    def to_dict(self) -> dict:
        return {"rule": self.rule.value, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Penalty:
    draw: int
    points: int  # the score change, e.g. -50; 0 where the variant has no penalty points

    def to_dict(self) -> dict:
        return {"draw": self.draw, "points": self.points}


@dataclass(frozen=True, slots=True)
class RestorePlan:
    """Put `to_rack` back on the rack and lay `table`: the table before the turn after a penalty or an
    undone rearrangement, or the table as played without the tiles laid after the alarm."""

    to_rack: tuple[Tile, ...]
    table: Table

    def to_dict(self) -> dict:
        return {"to_rack": _codes(self.to_rack), "table": self.table.codes()}


@dataclass(frozen=True, slots=True)
class Verdict:
    outcome: Outcome
    played: tuple[Tile, ...]
    taken: tuple[Tile, ...]
    violations: tuple[Violation, ...]
    penalty: Penalty | None
    restore: RestorePlan | None
    relief: StraightMove | None = None
    initial_meld_points: int | None = None  # rack-only sets laid by a player not yet opened
    no_play_draw: int = field(default=1, repr=False)
    after_alarm: tuple[Tile, ...] = ()  # left the rack after the alarm: back to the rack, not counted

    @property
    def tiles_to_draw(self) -> int:
        """Tiles the player draws from the pool now: the penalty's, or 1 for a turn without play."""
        if self.penalty is not None:
            return self.penalty.draw
        return self.no_play_draw if not self.played else 0

    @property
    def opened_now(self) -> bool:
        """True when this turn laid a legal initial meld."""
        return self.initial_meld_points is not None and self.outcome in (Outcome.LEGAL, Outcome.RELIEVED)

    def to_dict(self) -> dict:
        data = {
            "verdict": self.outcome.value,
            "played": _codes(self.played),
            "taken": _codes(self.taken),
            "violations": [violation.to_dict() for violation in self.violations],
            "penalty": self.penalty.to_dict() if self.penalty else None,
            "restore": self.restore.to_dict() if self.restore else None,
        }
        if self.relief is not None:
            data["relief"] = self.relief.to_dict()
        if self.after_alarm:
            data["after_alarm"] = _codes(self.after_alarm)
        return data


def judge_turn(
    before: Table,
    after: Table,
    opened: bool,
    ruleset: RuleSet,
    rack: Iterable[Tile] | None = None,
    *,
    at_alarm: Table | None = None,
    timer_skipped: bool = False,
) -> Verdict:
    """The verdict on one turn. `rack` (before the turn), when known, checks where tiles came from.

    `at_alarm`: the table as it lay when the time ran out; under `rack_locked_after_alarm` the
    tiles on `after` that lay neither there nor before the turn left the rack after the alarm:
    they are taken off (`after_alarm`) and the turn is judged without them. `timer_skipped`: the
    turn ended without the countdown (japan-2017 allows it for simple turns only)."""
    before_side = _Side.of(before, ruleset)
    check_tile_counts(after.tiles().elements(), "table after the turn")
    late: Counter = Counter()
    if at_alarm is not None and ruleset.rack_locked_after_alarm:
        check_tile_counts(at_alarm.tiles().elements(), "table at the alarm")
        late = after.tiles() - (at_alarm.tiles() | before_side.counts)
        after = without_tiles(after, late)
    after_counts = after.tiles()
    rack_counts = None
    if rack is not None:
        rack_counts = Counter(rack)
        check_tile_counts((before_side.counts + rack_counts).elements(), "table before the turn and rack")
    assessment = _assess(before_side, after, after_counts, opened, ruleset, rack_counts)
    outcome = Outcome.LEGAL
    relief = None
    if assessment.serious:
        outcome = Outcome.PENALTY
        if ruleset.relief_one_straight_movement and assessment.relievable:
            relief = _search_relief(before_side, after, after_counts, opened, ruleset, rack_counts, assessment)
            if relief is not None:
                outcome = Outcome.RELIEVED
                # the initial meld is the one the corrected table shows
                fixed = _assess(before_side, relief.table, after_counts, opened, ruleset, rack_counts)
                assessment.initial_meld_points = fixed.initial_meld_points
    elif assessment.forgiven:
        outcome = Outcome.RELIEVED
    elif not assessment.played:
        outcome = Outcome.DRAW

    violations = list(assessment.violations)
    if late:
        violations.append(
            Violation(Rule.LAID_AFTER_ALARM, f"{_list(late)} left the rack after the alarm: back to the rack, not counted")
        )
    if timer_skipped and not _simple_turn(assessment):
        violations.append(
            Violation(
                Rule.TIMER_SKIPPED,
                f"the countdown was skipped for a turn of {sum(assessment.played.values())} tiles played"
                + (" and a rearranged table" if assessment.table_changed else "")
                + "; only an immediate draw or a one-tile play may skip it",
            )
        )

    penalty = restore = None
    if outcome is Outcome.PENALTY:
        penalty = Penalty(ruleset.penalty_draw, -ruleset.penalty_points)
        restore = RestorePlan(_sorted(assessment.played + late), before)
    elif outcome is Outcome.DRAW and assessment.table_changed and not ruleset.no_play_keeps_rearrangement:
        restore = RestorePlan(_sorted(late), before)
    elif late:
        restore = RestorePlan(_sorted(late), after)
    return Verdict(
        outcome=outcome,
        played=_sorted(assessment.played),
        taken=_sorted(assessment.taken),
        violations=tuple(violations),
        penalty=penalty,
        restore=restore,
        relief=relief,
        initial_meld_points=assessment.initial_meld_points,
        no_play_draw=ruleset.no_play_draw,
        after_alarm=_sorted(late),
    )


def without_tiles(table: Table, tiles: Counter) -> Table:
    """`table` with `tiles` taken off, each from the last place it lies; a tile taken from the
    middle of a set leaves its left and right parts as two sets, as they then lie."""
    left = Counter(tiles)
    sets = [list(row) for row in table.sets]
    cuts: list[set[int]] = [set() for _ in sets]
    for index in range(len(sets) - 1, -1, -1):
        for position in range(len(sets[index]) - 1, -1, -1):
            tile = sets[index][position]
            if left[tile] > 0:
                left[tile] -= 1
                cuts[index].add(position)
    pieces: list[tuple[Tile, ...]] = []
    for row, cut in zip(sets, cuts):
        piece: list[Tile] = []
        for position, tile in enumerate(row):
            if position in cut:
                if piece:
                    pieces.append(tuple(piece))
                piece = []
            else:
                piece.append(tile)
        if piece:
            pieces.append(tuple(piece))
    return Table(tuple(pieces))


def _simple_turn(assessment: "_Assessment") -> bool:
    """An immediate draw (nothing played, nothing moved) or a one-tile play: japan-2017 may skip the timer."""
    played = sum(assessment.played.values())
    return played == 1 or (played == 0 and not assessment.table_changed)


def late_invalid_set_rejudged(ruleset: RuleSet, next_turn_started: bool) -> bool:
    """An invalid set the verdict missed is noticed: is the turn that laid it judged again?

    japan-2017 (000 イレギュラーなケース): noticed before the next player's turn starts, the penalty
    rules apply; after that the set stands as it is, and whoever adds to it or rearranges it
    must make it valid (`unchanged_invalid_sets_stand`)."""
    return ruleset.late_invalid_set is LateInvalidSet.PENALTY_BEFORE_NEXT_TURN and not next_turn_started


@dataclass(frozen=True, slots=True)
class _Side:
    """The table before the turn, classified and counted once per judgement."""

    table: Table
    checks: tuple[MeldCheck, ...]
    counts: Counter

    @classmethod
    def of(cls, table: Table, ruleset: RuleSet) -> "_Side":
        return cls(table, table.check(ruleset).melds, table.tiles())


@dataclass
class _Assessment:
    played: Counter
    taken: Counter
    violations: list[Violation]
    serious: list[Violation]
    forgiven: list[Violation]
    relievable: bool
    table_changed: bool
    initial_meld_points: int | None
    standing: set[int]  # indices of after-sets that stand unchanged though invalid
    tolerated: set[int]  # indices of after-sets forgiven by the six-tile exception


def _assess(
    before: _Side, after: Table, after_tiles: Counter, opened: bool, ruleset: RuleSet, rack: Counter | None
) -> _Assessment:
    before_checks = before.checks
    after_checks = after.check(ruleset).melds
    before_tiles = before.counts
    played = after_tiles - before_tiles
    taken = before_tiles - after_tiles
    violations: list[Violation] = []
    forgiven: list[Violation] = []

    if taken:
        violations.append(Violation(Rule.TABLE_TILE_TAKEN, f"{_list(taken)} left the table; a tile on the table never goes back to a rack"))
    if rack is not None and played - rack:
        violations.append(Violation(Rule.TILE_NOT_FROM_RACK, f"{_list(played - rack)} appeared on the table but was not on the rack"))

    unchanged_after, changed_after, changed_before = _match_unchanged(before_checks, after_checks)
    table_changed = bool(changed_before) or bool(changed_after)

    standing: set[int] = set()
    invalid_changed = [i for i in changed_after if not after_checks[i].is_valid]
    for index in unchanged_after:
        if not after_checks[index].is_valid:
            if ruleset.unchanged_invalid_sets_stand:
                standing.add(index)
            else:
                invalid_changed.append(index)
    six_tile = _six_tile_pairs(after_checks, invalid_changed) if ruleset.relief_six_tile_split else set()
    for index in sorted(invalid_changed):
        meld = after_checks[index]
        violation = Violation(Rule.INVALID_SET, f"set {index + 1} [{' '.join(meld.codes)}]: {meld.reason}")
        if index in six_tile:
            violation = Violation(Rule.INVALID_SET, violation.detail + " (tolerated: six-tile exception)")
            forgiven.append(violation)
        violations.append(violation)

    initial_meld_points = None
    if not opened and (played or table_changed):
        initial_meld_points = _check_opening(
            before_checks, after_checks, changed_before, changed_after, played, ruleset, violations
        )
    if ruleset.joker_policy is not JokerPolicy.FREE:
        _check_jokers(before_checks, after_checks, changed_before, changed_after, played, taken, ruleset, violations)
    if not played:
        violations.append(Violation(Rule.NO_TILE_PLAYED, "no tile was played from the rack"))

    serious = [v for v in violations if v.rule not in INFORMATIVE_RULES and v not in forgiven]
    relievable = any(v.rule is Rule.INVALID_SET for v in serious) and not any(
        v.rule in (Rule.TABLE_TILE_TAKEN, Rule.TILE_NOT_FROM_RACK) for v in serious
    )
    return _Assessment(
        played, taken, violations, serious, forgiven, relievable, table_changed, initial_meld_points, standing, six_tile
    )


def _search_relief(before, after, after_tiles, opened, ruleset, rack, assessment) -> StraightMove | None:
    after_checks = after.check(ruleset).melds

    def set_ok(index: int, tiles) -> bool:
        return after_checks[index].is_valid or index in assessment.standing or index in assessment.tolerated

    descending = ruleset.descending_runs

    def piece_ok(tiles) -> bool:
        return is_valid_set(tiles, descending_runs=descending)

    def table_ok(table: Table) -> bool:
        # a move keeps the same tiles, so the after-table's counts still hold
        return not _assess(before, table, after_tiles, opened, ruleset, rack).serious

    return find_straight_move(after, set_ok, piece_ok, table_ok)


def _match_unchanged(before_checks, after_checks) -> tuple[list[int], list[int], list[int]]:
    """(unchanged after-set indices, changed after-set indices, changed before-set indices)."""
    waiting: dict[tuple, list[int]] = {}
    for index, meld in enumerate(before_checks):
        waiting.setdefault(meld.identity, []).append(index)
    unchanged, changed = [], []
    for index, meld in enumerate(after_checks):
        slot = waiting.get(meld.identity)
        if slot:
            slot.pop()
            unchanged.append(index)
        else:
            changed.append(index)
    changed_before = sorted(index for slot in waiting.values() for index in slot)
    return unchanged, changed, changed_before


def _six_tile_pairs(after_checks, invalid_indices) -> set[int]:
    """Pairs of invalid 3-tile sets of one number that together make two valid groups."""
    candidates = [
        i
        for i in invalid_indices
        if len(after_checks[i].tiles) == 3
        and not any(tile.is_joker for tile in after_checks[i].tiles)
        and len({tile.number for tile in after_checks[i].tiles}) == 1
    ]
    tolerated: set[int] = set()
    for a_pos, a in enumerate(candidates):
        if a in tolerated:
            continue
        for b in candidates[a_pos + 1 :]:
            if b in tolerated:
                continue
            six = after_checks[a].tiles + after_checks[b].tiles
            colours = Counter(tile.colour for tile in six)
            if len({tile.number for tile in six}) == 1 and max(colours.values()) <= 2:
                tolerated.update((a, b))
                break
    return tolerated


def _check_opening(before_checks, after_checks, changed_before, changed_after, played, ruleset, violations) -> int:
    """Rules for a player who has not made the initial meld; returns the rack-only points laid."""
    available = Counter(played)
    rack_only: list[int] = []
    for index in sorted(changed_after, key=lambda i: -after_checks[i].points):
        meld = after_checks[index]
        need = Counter(meld.tiles)
        if meld.is_valid and not need - available:
            available -= need
            rack_only.append(index)
    points = sum(after_checks[i].points for i in rack_only)
    minimum = ruleset.initial_meld_points
    if played and points < minimum:
        violations.append(
            Violation(Rule.INITIAL_MELD_UNDER_MINIMUM, f"initial meld of {points} points from rack-only sets; needs {minimum}")
        )
    if ruleset.rearrange_from is RearrangeFrom.SAME_TURN and points >= minimum:
        return points
    for index in changed_after:
        # an invalid set of rack tiles only is reported as invalid-set, not as touching the table
        need = Counter(after_checks[index].tiles)
        if index not in rack_only and not need - available:
            available -= need
            rack_only.append(index)
    if available:
        violations.append(
            Violation(
                Rule.INITIAL_MELD_TOUCHES_TABLE,
                f"{_list(available)} went into sets with table tiles before the initial meld allowed it",
            )
        )
    moved = _rearranged_sets(before_checks, after_checks, changed_before, changed_after, rack_only)
    if moved:
        when = "before the initial meld" if ruleset.rearrange_from is RearrangeFrom.SAME_TURN else "before the turn after the initial meld"
        shown = ", ".join("[" + " ".join(before_checks[i].codes) + "]" for i in moved)
        violations.append(Violation(Rule.REARRANGED_TOO_EARLY, f"table set {shown} was rearranged {when}"))
    return points


def _rearranged_sets(before_checks, after_checks, changed_before, changed_after, rack_only) -> list[int]:
    """Changed before-sets that were not merely added to (kept as one block of one after-set)."""
    free = [i for i in changed_after if i not in rack_only]
    moved = []
    for b in changed_before:
        part = before_checks[b].tiles
        host = next((a for a in free if _is_block_of(part, after_checks[a].tiles)), None)
        if host is None:
            moved.append(b)
        else:
            free.remove(host)
    return moved


def _is_block_of(part: tuple[Tile, ...], whole: tuple[Tile, ...]) -> bool:
    size = len(part)
    backwards = part[::-1]
    for start in range(len(whole) - size + 1):
        window = whole[start : start + size]
        if window == part or window == backwards:
            return True
    return False


# --- jokers ------------------------------------------------------------------------------


def _check_jokers(before_checks, after_checks, changed_before, changed_after, played, taken, ruleset, violations) -> None:
    classic = ruleset.joker_policy is JokerPolicy.CLASSIC
    hosts = [i for i in changed_after if after_checks[i].is_valid]
    replacements: Counter = Counter()
    continuing: set[int] = set()
    freed = 0
    rejoined = 0  # freed jokers laid again in the set they were freed from
    # Which added tile freed a group's joker is a choice among the tiles the group gained: a rack
    # tile is preferred, since a table tile added beside it is an ordinary addition (002).
    rack_left = Counter(played)
    for b in changed_before:
        source = before_checks[b]
        joker_count = sum(tile.is_joker for tile in source.tiles)
        if not joker_count or not source.is_valid:
            continue
        follow = next(
            (
                (a, found)
                for a in hosts
                if a not in continuing
                for found in [_continuation(source, after_checks[a], rack_left)]
                if found
            ),
            None,
        )
        if follow is None:
            if classic:
                violations.append(
                    Violation(Rule.JOKER_SET_SPLIT, f"[{' '.join(source.codes)}] holds a joker: it may be added to, never split or taken from")
                )
            else:
                freed += joker_count - _jokers_kept_in_pieces(source, after_checks, hosts)
            continue
        host, (freed_here, replaced_by) = follow
        continuing.add(host)
        freed += freed_here
        replacements.update(replaced_by)
        rack_left -= replaced_by
        if freed_here:
            kept = joker_count - freed_here
            rejoined += min(freed_here, max(0, sum(t.is_joker for t in after_checks[host].tiles) - kept))

    from_table = replacements - played
    if classic and from_table:
        violations.append(
            Violation(Rule.JOKER_SWAPPED_WITH_TABLE_TILE, f"a joker was swapped for {_list(from_table)} from the table; only a rack tile may replace it")
        )
    if not freed:
        return
    if taken[JOKER]:
        violations.append(Violation(Rule.FREED_JOKER_NOT_PLAYED, "a freed joker must be played again in the same turn"))
    if rejoined and ruleset.freed_joker_into_other_set:
        violations.append(
            Violation(Rule.FREED_JOKER_INTO_SAME_SET, "a freed joker must be laid in another run or group, not back into its own set")
        )
    if ruleset.freed_joker_companion is FreedJokerCompanion.SAME_TURN:
        if not played:
            violations.append(
                Violation(Rule.FREED_JOKER_WITHOUT_RACK_TILE, "freeing a joker needs at least one tile from the rack in the same turn")
            )
        return
    companions = played - replacements
    accompanied = 0
    for a in changed_after:
        if a in continuing:
            continue
        tiles = after_checks[a].tiles
        jokers = sum(tile.is_joker for tile in tiles)
        if jokers and any(not tile.is_joker and companions[tile] for tile in tiles):
            accompanied += jokers
    if accompanied < freed:
        violations.append(
            Violation(Rule.FREED_JOKER_WITHOUT_RACK_TILE, "a freed joker must be laid in a set together with another tile from the rack")
        )


def _continuation(source: MeldCheck, host: MeldCheck, rack_left: Counter) -> tuple[int, Counter] | None:
    """If `host` is `source` kept whole (maybe grown, jokers maybe replaced): (jokers freed, replacing tiles).

    A group's joker may have been replaced by any tile the group gained; rack tiles (`rack_left`,
    played tiles not yet counted as a replacement) are taken first."""
    if host.kind is not source.kind:
        return None
    if source.kind is MeldKind.GROUP:
        number = next(t.number for t in source.tiles if not t.is_joker)
        if any(not t.is_joker and t.number != number for t in host.tiles):
            return None
        source_real = Counter(t for t in source.tiles if not t.is_joker)
        host_real = Counter(t for t in host.tiles if not t.is_joker)
        if source_real - host_real:
            return None
        source_jokers = sum(t.is_joker for t in source.tiles)
        freed = max(0, source_jokers - sum(t.is_joker for t in host.tiles))
        extra = sorted((host_real - source_real).elements(), key=lambda t: (not rack_left[t], t.sort_key))
        return freed, Counter(extra[:freed])
    colour = next(t.colour for t in source.tiles if not t.is_joker)
    if next(t.colour for t in host.tiles if not t.is_joker) != colour:
        return None
    host_at = {host.run_start + host.run_step * i: tile for i, tile in enumerate(host.tiles)}  # type: ignore[operator]
    freed, replaced = 0, Counter()
    for i, tile in enumerate(source.tiles):
        number = source.run_start + source.run_step * i  # type: ignore[operator]
        there = host_at.get(number)
        if there is None:
            return None
        if tile.is_joker:
            if not there.is_joker:
                freed += 1
                replaced[there] += 1
        elif there != tile:
            return None
    return freed, replaced


def _jokers_kept_in_pieces(source: MeldCheck, after_checks, hosts) -> int:
    """World: jokers of a split set still standing for the same tile beside one of its tiles."""
    kept = 0
    used: Counter = Counter()
    source_real = {t for t in source.tiles if not t.is_joker}
    for joker in source.jokers:
        for a in hosts:
            meld = after_checks[a]
            if meld.kind is not source.kind or not source_real & set(meld.tiles):
                continue
            same = [
                j for j in meld.jokers if j.number == joker.number and (meld.kind is MeldKind.GROUP or j.colour == joker.colour)
            ]
            if len(same) > used[a]:
                used[a] += 1
                kept += 1
                break
    return kept


def _sorted(tiles: Counter | Iterable[Tile]) -> tuple[Tile, ...]:
    elements = tiles.elements() if isinstance(tiles, Counter) else tiles
    return tuple(sorted(elements, key=lambda tile: tile.sort_key))


def _codes(tiles: Iterable[Tile]) -> list[str]:
    return [tile.code for tile in tiles]


def _list(tiles: Counter) -> str:
    return ", ".join(tile.code for tile in _sorted(tiles))
