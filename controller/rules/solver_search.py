"""The solver's dynamic programme over numbers 1..13 (see solver_states for the states).

Tiles come in as two count tables, `required` (must all be laid, like the tiles already
on the table) and `optional` (may be laid, like a rack): `counts[number][colour]` for
numbers 0..15 (0, 14 and 15 empty, so looking two numbers ahead needs no test), plus
required and optional joker counts.

Both searches walk depth first, one colour of one number at a time, carrying the
combined run state (one base-35 digit per colour), the jokers laid, and the running
maximum and sum of the copies sent to groups at the current number (which settle the
groups once the last colour is done). `can_lay_all` stops at the first full laying
and remembers dead ends; `best_laying` is a branch and bound over the same walk.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .solver_states import COLOUR_COUNT, COLOUR_STATES, STATE_RADIX, colour_options
from .tiles import HIGHEST_NUMBER

_WEIGHTS = tuple(STATE_RADIX**colour for colour in range(COLOUR_COUNT))

_JOKER_STATES = 3  # 0, 1 or 2 jokers laid so far


def _numbers_left(number: int) -> int:
    return min(HIGHEST_NUMBER - number, 2)


Counts = tuple[tuple[int, ...], ...]


def can_lay_all(digits: Counts, jokers: int) -> bool:
    """Whether every tile (and every joker) fits into valid sets.

    First a walk that may leave jokers out (cheaper: a partial state proved dead with
    some jokers left is dead with fewer, so the dead ends need no joker count). If it
    finds no laying, none exists. If it finds one that leaves jokers out, those spare
    jokers are usually absorbed by its sets (`_absorbs`); only when they are not does
    the exact walk, which must lay every joker, decide.

    Each walk goes upward and downward in turn (where a table fails is often found late
    in one direction and early in the other, and runs read the same both ways), each
    with a node budget that doubles, each keeping the dead ends it has proved."""
    if jokers == 0:
        return _walk_both_ways(digits, 0, relaxed=False) is not None
    laying = _walk_both_ways(digits, jokers, relaxed=True)
    if laying is None:
        return False
    laid, choices = laying
    if laid == jokers or _absorbs(choices, jokers - laid):
        return True
    return _walk_both_ways(digits, jokers, relaxed=False) is not None


def _walk_both_ways(digits: Counts, jokers: int, relaxed: bool) -> tuple[int, tuple] | None:
    flipped = _flip(digits)
    walks = (_Walk(digits, jokers, relaxed), _Walk(flipped, jokers, relaxed))
    budget = 2_000
    while True:
        for upward, walk in zip((True, False), walks):
            answer = walk.run(budget)
            if answer is False:
                return None
            if answer is not None:
                laid, steps = answer
                choices = _group_steps(steps)
                return laid, (choices if upward else tuple(reversed(choices)))
        budget *= 2


def _flip(digits: Counts) -> Counts:
    return (digits[0], *reversed(digits[1 : HIGHEST_NUMBER + 1]), *digits[HIGHEST_NUMBER + 1 :])


def _absorbs(choices: tuple, spare: int) -> bool:
    """Whether the laying given by `choices` can take `spare` (1 or 2) more jokers.

    Any run takes one or two jokers: one of length 3..11 grows at an end that has
    room; a longer one splits into two runs of 3+ and each grows by a joker standing
    for the other's end tile (`[1..6 J=7] [7..13]`; a joker may stand for a tile whose
    real copies are laid). A 3-tile group takes one joker (a missing colour); two
    3-tile groups take one each; a 4-tile group takes two (`[a J J]` is a run or group
    of a, and `[b c d]` a group). True only when the jokers do fit; False (a laying
    of groups only, rare) sends the table to the exact walk, so no feasible table is
    ever called infeasible here."""
    runs = groups3 = groups4 = 0
    for step in choices:
        group_copies = [real + jokers - to_runs for real, jokers, to_runs, _ in step]
        if any(to_runs for _, _, to_runs, _ in step):
            runs += 1
        tallest = max(group_copies, default=0)
        # a relaxed walk leaves the jokers its groups lack out of `choices`
        total = max(sum(group_copies), 3 * tallest)
        # tallest groups; 4 * tallest - total of them hold 3 tiles (see solver_states)
        groups3 += 4 * tallest - total
        groups4 += total - 3 * tallest
    if runs:
        return True
    if spare == 1:
        return groups3 >= 1
    return groups4 >= 1 or groups3 >= 2


@lru_cache(maxsize=None)
def _walk_options(restrict: int, here: int, real: int, left: int, *key: int) -> tuple:
    """colour_options for _Walk as (next state, jokers used, copies to groups, step):
    all of them when `restrict` is -1 (the exact walk); for the relaxed walk only those
    that put no joker into groups and, when `restrict` is 1, start no run with a joker
    and extend long runs with jokers only as far as next number's real copies could
    carry those runs on (see _Walk)."""
    open_runs = _OPEN_RUNS[here]
    short_runs = _SHORT_RUNS[here]
    real_next = key[1]
    kept = []
    for nxt, _, jokers_used, to_groups, real_used, to_runs in colour_options(here, real, 0, left, *key):
        if restrict >= 0 and (
            to_groups > real_used
            or (
                restrict == 1
                and (
                    to_runs - open_runs > real_used - to_groups
                    or jokers_used - short_runs > real_next
                )
            )
        ):
            continue
        kept.append((nxt, jokers_used, to_groups, (real_used, jokers_used, to_runs, to_groups)))
    return tuple(kept)


def _missing_table() -> tuple:
    """[colour state][real copies at the next number][at the one after]: jokers its
    short runs need at least (a run of 1 needs both numbers, a run of 2 the next)."""
    return tuple(
        tuple(
            tuple(max(0, short1 + short2 - ahead1) + max(0, short1 - ahead2) for ahead2 in range(3))
            for ahead1 in range(3)
        )
        for short1, short2, _ in COLOUR_STATES
    )


_MISSING = _missing_table()


def _joker_demand(digits: Counts, number: int, state: int) -> int:
    """A lower bound on the jokers still needed by the runs open before `number`: a run
    of 1 needs a copy of its colour at this number and the next, a run of 2 at this one;
    each copy that is not there takes a joker."""
    demand = 0
    here_row, next_row = digits[number], digits[number + 1]
    for colour in range(COLOUR_COUNT):
        digit = state % STATE_RADIX
        state //= STATE_RADIX
        if digit:
            demand += _MISSING[digit][here_row[colour]][next_row[colour]]
    return demand


# Open runs of each colour state.
_OPEN_RUNS = tuple(sum(state) for state in COLOUR_STATES)
_SHORT_RUNS = tuple(state[0] + state[1] for state in COLOUR_STATES)
# A joker starting a run at this number or below can move to the run's other end.
_LAST_START_TO_SHIFT = HIGHEST_NUMBER - 4


class _Walk:
    """A depth-first walk over one direction's numbers for can_lay_all.

    `relaxed` lets jokers stay out, so it need only find a laying that uses as few
    jokers as possible: in one, no joker can be taken out of its set (else fewer would
    do). That prunes the joker choices, each step proved in docs/solver.md:
    - groups take no joker by choice: once a number is done its groups take exactly
      the jokers they lack, `3 * max(g) - sum(g)` (g: real copies per colour);
    - below number 10 no joker starts a run: in such a laying a run a joker starts
      has exactly 3 tiles (`[J x y]`, `[J x J]`, `[J J y]`; one more and the joker
      could go), and the same tiles read `[x y J]`, `[x J J]`, `[y J J]` with the
      jokers at the far end, which fits while the run stays within 13;
    - below number 10, jokers beyond the colour's short runs extend runs of 3+ and
      each such run must go on with a real tile at the next number: after the joker
      it holds 1 or 2 more tiles (3+ and the joker could go); 2 is `[..] [J x y]`,
      a run the joker starts (above); 1 must be real (a joker there could go).
    The pruning is argued, not machine-proved: the oracle tests check it against an
    ILP, and it was checked against the unpruned exact walk on 45,000 inputs.
    A relaxed dead end is kept with the most jokers it was proved dead with (a
    partial state with fewer jokers left can do no more); the exact walk keeps the
    set of joker counts it proved dead."""

    def __init__(self, digits: Counts, jokers: int, relaxed: bool) -> None:
        self.digits = digits
        self.jokers = jokers
        self.relaxed = relaxed
        self.dead: dict[int, int] = {}

    def run(self, budget: int) -> tuple[int, list] | bool | None:
        """(jokers laid, steps) for a laying, False when there is none, or None when
        `budget` nodes were not enough to tell."""
        digits = self.digits
        jokers = self.jokers
        relaxed = self.relaxed
        dead = self.dead
        visits = 0
        laid_at_end = 0
        steps: list[tuple] = []
        # real tiles of each number from each colour on
        rest = [[sum(row[colour:]) for colour in range(COLOUR_COUNT + 1)] for row in digits]

        def walk(number: int, colour: int, state: int, laid: int, gmax: int, gsum: int) -> bool | None:
            nonlocal visits, laid_at_end
            if colour == COLOUR_COUNT:
                if 3 * gmax > gsum:
                    if not relaxed:
                        return False
                    # relaxed: the groups take exactly the jokers they lack
                    laid += 3 * gmax - gsum
                    if laid > jokers:
                        return False
                if number == HIGHEST_NUMBER:
                    laid_at_end = laid
                    return relaxed or laid == jokers
                number += 1
                colour = gmax = gsum = 0
            memo_key = (((state * 5 + gmax) * 17 + gsum) * 4 + colour) * 16 + number
            left = jokers - laid
            # relaxed: dead with `proved` jokers left means dead with fewer;
            # exact: `proved` is a bit set of the joker counts proved dead
            proved = dead.get(memo_key, -1)
            if relaxed:
                if proved >= left:
                    return False
            elif proved >= 0 and proved >> left & 1:
                return False
            visits += 1
            if visits > budget:
                return None
            if (
                3 * gmax - gsum - rest[number][colour] > left
                or colour == 0 and _joker_demand(digits, number, state) > left
            ):
                # the groups of this number, or the short runs, lack more than is left
                dead[memo_key] = left if relaxed else (proved if proved >= 0 else 0) | 1 << left
                return False
            weight = _WEIGHTS[colour]
            here = state // weight % STATE_RADIX
            options = _walk_options(
                -1 if not relaxed else 1 if number <= _LAST_START_TO_SHIFT else 0,
                here,
                digits[number][colour],
                left,
                _numbers_left(number),
                digits[number + 1][colour],
                digits[number + 2][colour],
            )
            base = state - here * weight
            for nxt, jokers_used, to_groups, step in options:
                steps.append(step)
                found = walk(
                    number,
                    colour + 1,
                    base + nxt * weight,
                    laid + jokers_used,
                    gmax if gmax >= to_groups else to_groups,
                    gsum + to_groups,
                )
                if found is None or found:
                    return found
                steps.pop()
            if relaxed:
                dead[memo_key] = left
            else:
                dead[memo_key] = (proved if proved >= 0 else 0) | 1 << left
            return False

        found = walk(1, 0, 0, 0, 0, 0)
        if found:
            return laid_at_end, steps
        return found


@dataclass(frozen=True, slots=True)
class Laying:
    """The best laying found: its value, the jokers it lays and, per number 1..13, the
    per-colour choice (real tiles used, jokers, copies to runs, copies to groups)."""

    value: int
    jokers_laid: int
    choices: tuple[tuple[tuple[int, int, int, int], ...], ...]


def best_laying(
    required_digits: Counts,
    optional_digits: Counts,
    jokers_required: int,
    jokers_optional: int,
    unit_values: tuple[int, ...],
    keep_choices: bool = True,
    jokers_early: bool = False,
    enough: int | None = None,
) -> Laying | None:
    """The laying that uses every required tile and maximises the value of the optional
    tiles laid; `unit_values[n]` is what one optional tile of number n is worth.

    Depth first, one colour of one number at a time, trying the options that lay the
    most optional tiles first (branch and bound): a branch is cut when even every
    playable optional tile left could not beat the best laying found, when the same
    partial state was already reached with at least as much value, or when it was
    already found to have no laying at all. A joker is worth the number it stands for.
    When some jokers are required and some optional, the optional ones count as the
    last jokers laid: numbers rise as the walk goes, so those are the most valuable
    places, which is where a player would put their own jokers (jokers are
    interchangeable). None when the required tiles cannot all be laid.

    `jokers_early` tries options laying jokers before others that lay as many real
    tiles: better when the walk meets the most valuable numbers first (see solver.py).

    `enough` turns the search into a yes/no question: only layings worth at least that
    much count (the bound cuts everything below it from the start), and the first one
    found ends the search; None when there is none."""
    jokers = jokers_required + jokers_optional
    available = [
        tuple(r + o for r, o in zip(req, opt))
        for req, opt in zip(required_digits, optional_digits)
    ]
    still_to_gain = _gain_bounds(optional_digits, available, jokers, unit_values)
    # A joker laid from here on is worth at most the best unit still to come.
    top_unit_from = [
        max(unit_values[number : HIGHEST_NUMBER + 1], default=0)
        for number in range(HIGHEST_NUMBER + 2)
    ]
    best_value = -1 if enough is None else enough - 1
    best_steps: list[tuple] = []
    steps: list[tuple] = []
    reached: dict[int, int] = {}
    dead: set[int] = set()
    DEAD, LIVE = 0, 1

    def walk(number: int, colour: int, state: int, laid: int, gmax: int, gsum: int, value: int) -> int:
        nonlocal best_value, best_steps
        if colour == COLOUR_COUNT:
            if 3 * gmax > gsum:
                return DEAD
            if number == HIGHEST_NUMBER:
                if laid < jokers_required:
                    return DEAD
                if value > best_value:
                    best_value = value
                    best_steps = list(steps)
                    if enough is not None:
                        raise _EnoughFound
                return LIVE
            number += 1
            colour = gmax = gsum = 0
        memo_key = ((((state * 3 + laid) * 5 + gmax) * 17 + gsum) * 4 + colour) * 16 + number
        if memo_key in dead:
            return DEAD
        jokers_to_count = jokers - (laid if laid > jokers_required else jokers_required)
        if value + still_to_gain[number][colour] + jokers_to_count * top_unit_from[number] <= best_value:
            return LIVE  # cannot beat the best; whether it could lay at all is moot
        if reached.get(memo_key, -1) >= value:
            return LIVE
        reached[memo_key] = value
        weight = _WEIGHTS[colour]
        here = state // weight % STATE_RADIX
        options = _greedy_options(
            jokers_early,
            here,
            required_digits[number][colour],
            optional_digits[number][colour],
            jokers - laid,
            _numbers_left(number),
            available[number + 1][colour],
            available[number + 2][colour],
        )
        base = state - here * weight
        unit = unit_values[number]
        outcome = DEAD
        for nxt, optional_used, jokers_used, to_groups, real, to_runs in options:
            steps.append((real, jokers_used, to_runs, to_groups))
            if walk(
                number,
                colour + 1,
                base + nxt * weight,
                laid + jokers_used,
                gmax if gmax >= to_groups else to_groups,
                gsum + to_groups,
                value + (optional_used + _joker_gain(laid, jokers_used, jokers_required)) * unit,
            ):
                outcome = LIVE
            steps.pop()
        if outcome == DEAD:
            dead.add(memo_key)
        return outcome

    try:
        walk(1, 0, 0, 0, 0, 0, 0)
    except _EnoughFound:
        pass
    if not best_steps:  # no laying reached the end of the walk (or `enough`)
        return None
    return Laying(
        best_value,
        sum(step[1] for step in best_steps),
        _group_steps(best_steps) if keep_choices else (),
    )


class _EnoughFound(Exception):
    """Ends a yes/no search at its first laying worth `enough`."""


def _group_steps(steps: list[tuple]) -> tuple:
    return tuple(
        tuple(steps[index : index + COLOUR_COUNT]) for index in range(0, len(steps), COLOUR_COUNT)
    )


def _joker_gain(laid: int, jokers_used: int, jokers_required: int) -> int:
    counted = laid + jokers_used - (laid if laid > jokers_required else jokers_required)
    return counted if counted > 0 else 0


def _playable(available: list[tuple[int, ...]], jokers: int, number: int, colour: int) -> bool:
    """Whether some run or group could hold tile (colour, number) given what is there."""
    for start in range(max(1, number - 2), min(number, HIGHEST_NUMBER - 2) + 1):
        missing = sum(1 for step in range(3) if not available[start + step][colour])
        if missing <= jokers:
            return True
    others = sum(1 for other in range(COLOUR_COUNT) if other != colour and available[number][other])
    return others + jokers >= 2


def _gain_bounds(
    optional_digits: Counts,
    available: list[tuple[int, ...]],
    jokers: int,
    unit_values: tuple[int, ...],
) -> list[list[int]]:
    """bound[number][colour]: the most the optional real tiles from (number, colour) on,
    in programme order, could still add (playable tiles only)."""
    bound = [[0] * (COLOUR_COUNT + 1) for _ in range(HIGHEST_NUMBER + 2)]
    running = 0
    for number in range(HIGHEST_NUMBER, 0, -1):
        bound[number][COLOUR_COUNT] = running
        for colour in range(COLOUR_COUNT - 1, -1, -1):
            optional = optional_digits[number][colour]
            if optional and _playable(available, jokers, number, colour):
                running += optional * unit_values[number]
            bound[number][colour] = running
    return bound


@lru_cache(maxsize=None)
def _greedy_options(jokers_early: bool, *key: int) -> tuple:
    """A colour's options, those laying the most optional tiles first; among equals the
    fewest jokers first, or with `jokers_early` jokers counted as laid tiles."""
    if jokers_early:
        return tuple(sorted(colour_options(*key), key=lambda option: -(option[1] + option[2])))
    return tuple(sorted(colour_options(*key), key=lambda option: (-option[1], option[2])))
