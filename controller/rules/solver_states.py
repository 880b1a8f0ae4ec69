"""States and per-number steps of the arrangement solver's dynamic programme.

The programme walks the numbers 1..13 in order (the method of van Rijn, Takes and Vis,
"The complexity of Rummikub problems", 2016). Between two numbers all that matters of
the sets laid so far is, for each colour, the runs still open and how long each is,
capped at 3 (a run of 3 or more may stop here or go on; shorter ones must go on).
A colour's state is therefore the count of open runs of length 1, 2 and 3-or-more.

At one number each colour gets `u` tiles (real copies plus jokers standing for that
colour and number). `k` of them extend or start runs, the other `g = u - k` go into
groups of that number. Two facts keep the step small:

- for a given `k` one next state dominates every other choice (extend every short run,
  then as many long runs as possible, start new runs only with what is left): a longer
  open run can do all that a shorter one can, and a run of 3+ can also stop;
- copies of one number split into groups of 3 or 4 distinct colours exactly when
  `3 * max(g) <= sum(g)` (take `max(g)` groups; a colour with `g_c` copies is missing
  from `max(g) - g_c` of them, which are exactly the 3-tile groups needed).

One colour's options at one number depend only on (its state, its copies there, jokers
left, numbers left, its copies at the next two numbers): a small domain, so they are
computed once per process and cached.
"""
from __future__ import annotations

from functools import lru_cache

from .tiles import COLOURS, COPIES_PER_TILE, JOKER_COUNT

COLOUR_COUNT = len(COLOURS)
MAX_COPIES = COPIES_PER_TILE
# Two real copies plus two jokers can stand for the same tile, so up to four runs of
# one colour can be open at once.
MAX_OPEN_RUNS = COPIES_PER_TILE + JOKER_COUNT

# Every (open runs of length 1, of length 2, of length 3+) with at most four runs.
COLOUR_STATES: tuple[tuple[int, int, int], ...] = tuple(
    (short1, short2, long_)
    for total in range(MAX_OPEN_RUNS + 1)
    for short1 in range(total + 1)
    for short2 in range(total - short1 + 1)
    for long_ in (total - short1 - short2,)
)
STATE_RADIX = len(COLOUR_STATES)
_STATE_INDEX = {state: index for index, state in enumerate(COLOUR_STATES)}


def next_colour_state(index: int, to_runs: int, numbers_left: int) -> int:
    """The dominant next state of one colour when `to_runs` tiles go into its runs,
    or -1 when that is impossible (a short run left behind, or one that cannot reach
    length 3 in the numbers that are left)."""
    short1, short2, long_ = COLOUR_STATES[index]
    must_extend = short1 + short2
    if to_runs < must_extend:
        return -1
    spare = to_runs - must_extend
    extended_long = min(spare, long_)
    new_state = (spare - extended_long, short1, short2 + extended_long)
    if numbers_left < 2 and new_state[0]:
        return -1
    if numbers_left < 1 and new_state[1]:
        return -1
    return _STATE_INDEX.get(new_state, -1)


@lru_cache(maxsize=None)
def colour_options(
    index: int,
    required: int,
    optional: int,
    jokers_left: int,
    numbers_left: int,
    ahead1: int = MAX_COPIES,
    ahead2: int = MAX_COPIES,
) -> tuple[tuple[int, int, int, int, int, int], ...]:
    """Every way one colour can take part at one number:
    (next state, optional real tiles used, jokers used, copies to groups,
    real tiles used, copies to runs).

    `ahead1` and `ahead2` are the copies of this colour at the next two numbers: a
    next state whose short runs could not be fed from them and the jokers still left is
    left out here rather than found dead one number later."""
    options = []
    for real in range(required, required + optional + 1):
        for jokers in range(jokers_left + 1):
            used = real + jokers
            for to_runs in range(used + 1):
                nxt = next_colour_state(index, to_runs, numbers_left)
                if nxt < 0:
                    continue
                short1, short2, _ = COLOUR_STATES[nxt]
                missing = max(0, short1 + short2 - ahead1) + max(0, short1 - ahead2)
                if missing > jokers_left - jokers:
                    continue
                options.append((nxt, real - required, jokers, used - to_runs, real, to_runs))
    return tuple(options)
