"""Turning the programme's per-number choices back into laid-out sets.

Mirrors the moves solver_states counts with: at each number a colour first extends
every run shorter than 3, then as many longer runs as it has copies for, stops the
other long runs and starts new runs with what is left; the copies for groups of that
number are dealt round-robin into `max(g)` groups, which gives each group distinct
colours and 3 or 4 tiles.
"""
from __future__ import annotations

from .tiles import COLOURS, JOKER, Tile

# A placed tile: the tile on the table and the tile it stands for (itself unless a joker).
Placed = tuple[Tile, Tile]


def lay_out(choices) -> list[list[Placed]]:
    sets: list[list[Placed]] = []
    open_runs: list[list[list[Placed]]] = [[] for _ in COLOURS]
    for number, step in enumerate(choices, start=1):
        group_copies: list[list[Placed]] = []
        for colour_index, (real, jokers, to_runs, to_groups) in enumerate(step):
            colour = COLOURS[colour_index]
            face = Tile(colour, number)
            # Real copies go into runs first; where the jokers go does not change validity.
            copies: list[Placed] = [(face, face)] * real + [(JOKER, face)] * jokers
            for_runs, for_groups = copies[:to_runs], copies[to_runs:]
            runs = open_runs[colour_index]
            short = [run for run in runs if len(run) < 3]
            long_ = [run for run in runs if len(run) >= 3]
            spare = len(for_runs) - len(short)  # never negative: the programme extends short runs
            extended = short + long_[:spare]
            sets.extend(long_[spare:])
            for run, copy in zip(extended, for_runs):
                run.append(copy)
            started = [[copy] for copy in for_runs[len(extended):]]
            open_runs[colour_index] = extended + started
            if for_groups:
                group_copies.append(for_groups)
        sets.extend(_deal_groups(group_copies))
    for runs in open_runs:
        sets.extend(runs)
    return sets


def _deal_groups(copies_by_colour: list[list[Placed]]) -> list[list[Placed]]:
    if not copies_by_colour:
        return []
    group_count = max(len(copies) for copies in copies_by_colour)
    # Colours with the most copies first, each colour's copies in consecutive slots:
    # dealing slot i to group i mod group_count puts no colour twice in a group.
    ordered = sorted(copies_by_colour, key=len, reverse=True)
    groups: list[list[Placed]] = [[] for _ in range(group_count)]
    slot = 0
    for copies in ordered:
        for copy in copies:
            groups[slot % group_count].append(copy)
            slot += 1
    for group in groups:
        group.sort(key=lambda placed: placed[1].sort_key)
    return groups
