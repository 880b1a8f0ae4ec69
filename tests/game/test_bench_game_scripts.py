"""The scripted games of benchmarks/bench_games.py: their claimed verdicts must be what the rules say.

Pure (no camera, no reader): a legal turn leaves only valid sets, a failed one leaves a set the
rules refuse or an opening under the minimum, a draw leaves the table as it was, no code lies on
the table more often than a set has it, every kind of play the benchmark names is played, and
about one turn in eight fails.
"""
from __future__ import annotations

from collections import Counter

import pytest

from benchmarks.game_scripts import ALL_TILES, KINDS, PENALTY_SHARE, Grid, scripted_game
from controller.rules.melds import is_valid_set
from controller.rules.tiles import parse_tiles

PLAYERS = ("Ann", "Ben", "Cat")


@pytest.fixture(scope="module")
def games():
    return [scripted_game(PLAYERS, 52, seed, Grid(6, 22)) for seed in range(6)]


def valid(melds) -> bool:
    return all(is_valid_set(tuple(parse_tiles(m.tiles))) for m in melds)


def test_every_claimed_verdict_matches_the_table_the_turn_leaves(games):
    for game in games:
        before = ()
        for n, turn in enumerate(game, start=1):
            where = f"turn {n} ({turn.kind})"
            if turn.verdict == "legal":
                assert valid(turn.melds) and turn.melds != before, where
                before = turn.melds
            elif turn.verdict == "draw":
                assert turn.melds == before, where
            else:
                assert turn.verdict == "penalty" and turn.expired, where
                assert not valid(turn.melds) or not turn.model.opened[PLAYERS.index(turn.player)], where


def test_no_code_lies_on_the_table_more_often_than_a_set_has_it(games):
    for game in games:
        for turn in game:
            on_table = Counter(t for m in turn.melds for t in m.tiles)
            assert not on_table - ALL_TILES, on_table - ALL_TILES


def test_every_kind_is_played_and_about_one_turn_in_eight_fails(games):
    kinds = Counter(turn.kind for game in games for turn in game)
    assert set(kinds) == set(KINDS), set(KINDS) - set(kinds)
    failed = sum(turn.verdict == "penalty" for game in games for turn in game) / sum(len(g) for g in games)
    assert PENALTY_SHARE / 2 <= failed <= PENALTY_SHARE * 1.6, failed


def test_racks_never_run_out_so_the_game_lasts_its_turns(games):
    for game in games:
        assert len(game) == 52
        assert min(min(turn.model.racks) for turn in game) >= 2
