from __future__ import annotations

import pytest

from controller.rules.errors import SetShapeError, TileCodeError, TileCountError
from controller.rules.melds import MeldKind, classify
from controller.rules.table import Table
from controller.rules.tiles import Colour

from .helpers import tiles


@pytest.mark.parametrize(
    "codes, kind, jokers",
    [
        pytest.param("R5 R6 R7", MeldKind.RUN, [], id="run"),
        pytest.param("J R5 R6", MeldKind.RUN, ["R4"], id="leading-joker-is-r4"),
        pytest.param("R5 J R7", MeldKind.RUN, ["R6"], id="middle-joker"),
        pytest.param("R7 R6 J", MeldKind.RUN, ["R5"], id="descending-run-read-either-way"),
        pytest.param("R13 R12 J", MeldKind.RUN, ["R11"], id="joker-after-13-12-reads-descending"),
        pytest.param("J J R1", MeldKind.RUN, ["R3", "R2"], id="two-jokers-before-1-descending"),
        pytest.param("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13", MeldKind.RUN, [], id="run-of-13"),
        pytest.param("K9 B9 O9 R9", MeldKind.GROUP, [], id="group-of-four"),
        pytest.param("K9 B9 J", MeldKind.GROUP, ["?9"], id="group-joker-colour-open"),
        pytest.param("K9 B9 O9 J", MeldKind.GROUP, ["R9"], id="group-joker-colour-settled"),
        pytest.param("R5 J J", MeldKind.RUN, ["R6", "R7"], id="ambiguous-reads-as-run"),
    ],
)
def test_valid_sets(codes, kind, jokers):
    check = classify(tiles(codes))
    assert check.kind is kind
    assert check.reason is None
    assert [joker.code for joker in check.jokers] == jokers


def test_group_joker_lists_missing_colours():
    (joker,) = classify(tiles("K9 B9 J")).jokers
    assert joker.colour is None
    assert joker.colours == (Colour.ORANGE, Colour.RED)


@pytest.mark.parametrize(
    "codes, words",
    [
        pytest.param("R5 R6", "at least 3", id="too-short"),
        pytest.param("R5 R7 R8", "not consecutive", id="gap"),
        pytest.param("K12 K13 K1", "not consecutive", id="13-1-does-not-wrap"),
        pytest.param("K12 K13 J", "outside 1..13", id="joker-would-be-14-or-11"),
        pytest.param("R1 R1 K1", "R1 appears twice", id="group-repeats-colour"),
        pytest.param("R5 B6 K7", "neither a run", id="mixed"),
        pytest.param("K9 B9 O9 R9 J", "at most 4", id="group-of-five"),
        pytest.param("J J", "at least 3", id="jokers-only"),
    ],
)
def test_invalid_sets_say_why(codes, words):
    check = classify(tiles(codes))
    assert check.kind is MeldKind.INVALID
    assert words in check.reason


def test_readings_are_settings():
    assert classify(tiles("R7 R6 R5"), descending_runs=False).kind is MeldKind.INVALID
    assert classify(tiles("R5 J J"), ambiguous_kind=MeldKind.GROUP).kind is MeldKind.GROUP
    assert classify(tiles("R5 J J"), ambiguous_kind=MeldKind.GROUP).points == 15
    assert classify(tiles("R5 J J")).points == 18


def test_points_count_jokers_as_what_they_stand_for():
    assert classify(tiles("J R10 R11")).points == 30
    assert classify(tiles("K9 B9 J")).points == 27


def test_same_set_laid_differently_has_one_identity():
    assert classify(tiles("J R5 R6")).identity == classify(tiles("R6 R5 J")).identity
    assert classify(tiles("K9 B9 O9")).identity == classify(tiles("O9 K9 B9")).identity
    assert classify(tiles("J R5 R6")).identity != classify(tiles("R5 R6 J")).identity


@pytest.mark.parametrize(
    "sets, error, quoted",
    [
        pytest.param([["R5", "X6", "R7"]], TileCodeError, "'X6'", id="unknown-code"),
        pytest.param([["R5", "R14", "R7"]], TileCodeError, "'R14'", id="number-14"),
        pytest.param([["R5", "R6", "R7"], ["R5", "R6", "R7"], ["R5", "B5", "K5"]], TileCountError, "'R5'", id="tile-three-times"),
        pytest.param([["J", "R5", "J"], ["J", "K1", "K2"]], TileCountError, "'J'", id="three-jokers"),
        pytest.param("R5 R6 R7", SetShapeError, "'R5 R6 R7'", id="not-a-list"),
        pytest.param([["R5"], "R6"], SetShapeError, "set 2", id="set-not-a-list"),
    ],
)
def test_bad_tables_are_refused_with_the_value_quoted(sets, error, quoted):
    with pytest.raises(error) as raised:
        Table.from_codes(sets)
    assert quoted in str(raised.value)
