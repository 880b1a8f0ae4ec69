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

from .solver_states import COLOUR_COUNT, STATE_RADIX, colour_options
from .tiles import HIGHEST_NUMBER

_WEIGHTS = tuple(STATE_RADIX**colour for colour in range(COLOUR_COUNT))

_JOKER_STATES = 3  # 0, 1 or 2 jokers laid so far


def _numbers_left(number: int) -> int:
    return min(HIGHEST_NUMBER - number, 2)


Counts = tuple[tuple[int, ...], ...]


def can_lay_all(digits: Counts, jokers: int) -> bool:
    """Whether every tile (and every joker) fits into valid sets.

    A depth-first walk that stops at the first full laying and remembers dead ends.
    Where a table fails is often only found late in one direction and early in the
    other (a tile near 13 nothing can hold), and runs read the same both ways; so the
    walk goes upward and downward in turn, each with a node budget that doubles, each
    keeping the dead ends it has proved."""
    flipped = (digits[0], *reversed(digits[1 : HIGHEST_NUMBER + 1]), *digits[HIGHEST_NUMBER + 1 :])
    walks = (_Walk(digits, jokers), _Walk(flipped, jokers))
    budget = 2_000
    while True:
        for walk in walks:
            answer = walk.run(budget)
            if answer is not None:
                return answer
        budget *= 2


class _Walk:
    """The depth-first walk of can_lay_all in one direction."""

    def __init__(self, digits: Counts, jokers: int) -> None:
        self.digits = digits
        self.jokers = jokers
        self.dead: set[int] = set()

    def run(self, budget: int) -> bool | None:
        """True or False, or None when `budget` nodes were not enough to tell."""
        digits = self.digits
        jokers = self.jokers
        dead = self.dead
        visits = 0

        def walk(number: int, colour: int, state: int, laid: int, gmax: int, gsum: int) -> bool | None:
            nonlocal visits
            if colour == COLOUR_COUNT:
                if 3 * gmax > gsum:
                    return False
                if number == HIGHEST_NUMBER:
                    return laid == jokers
                number += 1
                colour = gmax = gsum = 0
            memo_key = ((((state * 3 + laid) * 5 + gmax) * 17 + gsum) * 4 + colour) * 16 + number
            if memo_key in dead:
                return False
            visits += 1
            if visits > budget:
                return None
            weight = _WEIGHTS[colour]
            here = state // weight % STATE_RADIX
            options = colour_options(
                here,
                digits[number][colour],
                0,
                jokers - laid,
                _numbers_left(number),
                digits[number + 1][colour],
                digits[number + 2][colour],
            )
            base = state - here * weight
            for nxt, _, jokers_used, to_groups, _, _ in options:
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
            dead.add(memo_key)
            return False

        return walk(1, 0, 0, 0, 0, 0)


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
    tiles: better when the walk meets the most valuable numbers first (see solver.py)."""
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
    best_value = -1
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

    walk(1, 0, 0, 0, 0, 0, 0)
    if best_value < 0:
        return None
    return Laying(
        best_value,
        sum(step[1] for step in best_steps),
        _group_steps(best_steps) if keep_choices else (),
    )


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
