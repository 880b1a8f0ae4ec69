"""Every row of the variant table in RULES.md, per variant, as a turn, a score or a setting."""
from __future__ import annotations

import pytest

from controller.rules.judge import Outcome
from controller.rules.scoring import GameEnd, GameRecord, score_game
from controller.rules.start import has_redeal_right, start_order
from controller.rules.tiles import parse_tile
from controller.rules.variants import (
    CLASSIC,
    JAPAN_2017,
    WORLD,
    JokerPolicy,
    PoolOutEnd,
    RearrangeFrom,
    RedealWhen,
    UnrestorableTiles,
)

from .helpers import judge, rules, tiles

# --- seconds per turn ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset, seconds, locked, skippable",
    [
        pytest.param(CLASSIC, 60, False, False, id="classic-60-seconds"),
        pytest.param(JAPAN_2017, 60, True, True, id="japan-60-seconds-rack-locked-after-alarm-timer-skippable"),
        pytest.param(WORLD, 40, False, False, id="world-40-seconds"),
    ],
)
def test_seconds_per_turn(ruleset, seconds, locked, skippable):
    assert ruleset.seconds_per_turn == seconds
    assert ruleset.rack_locked_after_alarm is locked
    assert ruleset.timer_skip_for_simple_turns is skippable


# --- initial meld -------------------------------------------------------------------------

VARIANTS = ["classic", "japan-2017", "world"]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(
    "after, points, legal",
    [
        pytest.param("O2 O3 O4 | B8 R8 K8", 33, True, id="two-sets-33-points"),
        pytest.param("O2 O3 O4 | B7 R7 K7", 30, True, id="exactly-30"),
        pytest.param("O2 O3 O4 | B6 R6 K6 O6", 33, True, id="group-of-four"),
        pytest.param("O2 O3 O4 | B5 R5 K5", 24, False, id="24-is-too-low"),
        pytest.param("J R10 R11", 30, True, id="joker-counts-as-the-r9-it-stands-for"),
        pytest.param("R10 R11 J", 33, True, id="joker-counts-as-the-r12-it-stands-for"),
        pytest.param("K9 B9 J", 27, False, id="group-joker-counts-as-a-9"),
    ],
)
def test_initial_meld_minimum(variant, after, points, legal):
    verdict = judge(variant, "K1 K2 K3", "K1 K2 K3 | " + after, opened=False)
    assert verdict.initial_meld_points == points
    assert (verdict.outcome is Outcome.LEGAL) is legal
    assert ("initial-meld-under-minimum" in rules(verdict)) is (not legal)


@pytest.mark.parametrize("variant", VARIANTS)
def test_initial_meld_counts_only_rack_tiles(variant):
    # 12+13 added to a table run are not rack-only sets: they do not count toward the 30.
    verdict = judge(variant, "K9 K10 K11", "K9 K10 K11 K12 K13 | O2 O3 O4", opened=False)
    assert "initial-meld-under-minimum" in rules(verdict)
    assert verdict.outcome is Outcome.PENALTY


# --- rearranging the table ----------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, outcome, broken",
    [
        pytest.param("classic", Outcome.LEGAL, [], id="classic-may-add-to-table-in-the-meld-turn"),
        pytest.param("japan-2017", Outcome.PENALTY, ["initial-meld-touches-table"], id="japan-only-from-next-turn"),
        pytest.param("world", Outcome.PENALTY, ["initial-meld-touches-table"], id="world-not-during-the-meld"),
    ],
)
def test_adding_to_table_in_the_initial_meld_turn(variant, outcome, broken):
    verdict = judge(variant, "K1 K2 K3", "K1 K2 K3 K4 | R10 R11 R12", opened=False, rack="K4 R10 R11 R12")
    assert verdict.outcome is outcome
    assert rules(verdict) == broken


@pytest.mark.parametrize(
    "variant, outcome",
    [
        pytest.param("classic", Outcome.LEGAL, id="classic-may-rearrange-once-the-30-lie"),
        pytest.param("japan-2017", Outcome.PENALTY, id="japan-may-not-rearrange-in-meld-turn"),
        pytest.param("world", Outcome.PENALTY, id="world-may-not-rearrange-in-meld-turn"),
    ],
)
def test_rearranging_in_the_initial_meld_turn(variant, outcome):
    verdict = judge(variant, "K1 K2 K3 K4", "K1 K2 K3 | K4 K5 K6 | R10 R11 R12", opened=False)
    assert verdict.outcome is outcome
    if outcome is Outcome.PENALTY:
        assert "rearranged-too-early" in rules(verdict)


@pytest.mark.parametrize("variant", VARIANTS)
def test_rearranging_without_enough_points_is_too_early_everywhere(variant):
    verdict = judge(variant, "K1 K2 K3 K4", "K1 K2 K3 | K4 K5 K6", opened=False)
    assert verdict.outcome is Outcome.PENALTY
    assert {"initial-meld-under-minimum", "rearranged-too-early"} <= set(rules(verdict))


def test_rearrange_from_fields():
    assert CLASSIC.rearrange_from is RearrangeFrom.SAME_TURN
    assert JAPAN_2017.rearrange_from is RearrangeFrom.NEXT_TURN
    assert WORLD.rearrange_from is RearrangeFrom.NEXT_TURN


# --- turn with no tile played -------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, restores",
    [
        pytest.param("classic", True, id="classic-draw-and-table-restored"),
        pytest.param("japan-2017", False, id="japan-rearranging-without-play-allowed-table-kept"),
        pytest.param("world", True, id="world-draw-and-table-restored"),
    ],
)
def test_rearranging_without_playing(variant, restores):
    verdict = judge(variant, "R1 R2 R3 R4 R5 R6", "R1 R2 R3 | R4 R5 R6")
    assert verdict.outcome is Outcome.DRAW
    assert rules(verdict) == ["no-tile-played"]
    assert verdict.tiles_to_draw == 1
    assert verdict.penalty is None
    assert (verdict.restore is not None) is restores
    if restores:
        assert verdict.restore.table.codes() == [["R1", "R2", "R3", "R4", "R5", "R6"]]
        assert verdict.restore.to_rack == ()


@pytest.mark.parametrize("variant", VARIANTS)
def test_plain_draw_needs_no_restore(variant):
    verdict = judge(variant, "R1 R2 R3", "R1 R2 R3")
    assert verdict.outcome is Outcome.DRAW and verdict.restore is None and verdict.tiles_to_draw == 1


def test_japan_rearranging_without_play_that_leaves_loose_tiles_is_a_penalty():
    verdict = judge("japan-2017", "R1 R2 R3 R4 R5 R6 R7 | K9 B9 O9", "R1 R2 | R3 R4 R5 R6 | R7 K9 B9 O9")
    assert verdict.outcome is Outcome.PENALTY
    assert verdict.penalty.points == -50


# --- jokers on the table ------------------------------------------------------------------

SWAP_BEFORE = "R4 J R6 | K9 B9 O9"


@pytest.mark.parametrize(
    "variant, before, after, opened, outcome, broken",
    [
        pytest.param(
            "classic", SWAP_BEFORE, "R4 R5 R6 | K9 B9 O9 | J O10 O11", True, Outcome.LEGAL, [],
            id="classic-joker-swap-for-rack-tile-freed-joker-laid-with-rack-tiles",
        ),
        pytest.param(
            "classic", "R4 J R6 | R5 B5 K5 O5", "R4 R5 R6 | B5 K5 O5 | J K7 K8", True, Outcome.PENALTY,
            ["joker-swapped-with-table-tile"], id="classic-joker-swap-with-table-tile-refused",
        ),
        pytest.param(
            "classic", SWAP_BEFORE, "R4 R5 R6 | K9 B9 O9 J", True, Outcome.PENALTY,
            ["freed-joker-without-rack-tile"], id="classic-freed-joker-laid-with-table-tiles-only",
        ),
        pytest.param(
            "world", SWAP_BEFORE, "R4 R5 R6 | K9 B9 O9 J", True, Outcome.LEGAL, [],
            id="world-freed-joker-needs-a-rack-tile-anywhere-in-the-move",
        ),
        pytest.param(
            "classic", "R4 J R6 R7", "R4 J R6 R7 R8", True, Outcome.LEGAL, [],
            id="classic-joker-set-may-be-added-to",
        ),
        pytest.param(
            "classic", "R4 J R6 R7 R8 R9", "R4 J R6 | R7 R8 R9", False, Outcome.PENALTY,
            ["rearranged-too-early", "joker-set-split", "no-tile-played"], id="classic-joker-set-split-refused-before-meld",
        ),
        pytest.param(
            "classic", "R4 J R6 R7 R8 R9", "R4 J R6 | R7 R8 R9 R10", True, Outcome.PENALTY,
            ["joker-set-split"], id="classic-joker-set-never-split",
        ),
        pytest.param(
            "classic", SWAP_BEFORE, "R4 R5 R6 | K9 B9 O9 | J O10 O11", False, Outcome.PENALTY,
            ["initial-meld-under-minimum", "initial-meld-touches-table", "rearranged-too-early"],
            id="classic-joker-swap-only-after-initial-meld",
        ),
        pytest.param(
            "japan-2017", "R4 J R6 | R5 B5 K5 O5", "R4 R5 R6 | B5 K5 O5 | J K7 K8", True, Outcome.LEGAL, [],
            id="japan-joker-moves-freely-table-tile-replaces-it",
        ),
        pytest.param(
            "japan-2017", "R4 J R6 R7 R8 R9", "R4 J R6 | R7 R8 R9 R10", True, Outcome.LEGAL, [],
            id="japan-joker-set-may-be-split",
        ),
        pytest.param(
            "world", "R4 J R6 | R5 B5 K5 O5", "R4 R5 R6 | B5 K5 O5 | J K7 K8", True, Outcome.LEGAL, [],
            id="world-joker-replaced-by-table-tile-with-rack-tiles-played",
        ),
        pytest.param(
            "world", "R4 J R6 | R5 B5 K5 O5", "R4 R5 R6 | B5 K5 O5 J", True, Outcome.PENALTY,
            ["freed-joker-without-rack-tile", "no-tile-played"], id="world-joker-freed-by-table-tile-needs-rack-tile",
        ),
        pytest.param(
            "world", "R3 R4 J R6 R7 R8", "R3 R4 J | R6 R7 R8 | K1 K2 K3", True, Outcome.LEGAL, [],
            id="world-joker-set-may-be-split",
        ),
        pytest.param(
            "world", "R4 J R6", "R4 R5 R6", True, Outcome.PENALTY,
            ["table-tile-taken", "freed-joker-not-played"], id="world-freed-joker-must-be-played-same-move",
        ),
    ],
)
def test_joker_rules(variant, before, after, opened, outcome, broken):
    verdict = judge(variant, before, after, opened=opened)
    assert rules(verdict) == broken
    assert verdict.outcome is outcome


def test_joker_policy_fields():
    assert (CLASSIC.joker_policy, JAPAN_2017.joker_policy, WORLD.joker_policy) == (
        JokerPolicy.CLASSIC,
        JokerPolicy.FREE,
        JokerPolicy.WORLD,
    )


# --- failure when time runs out -----------------------------------------------------------


@pytest.mark.parametrize(
    "variant, draw, points, unrestorable",
    [
        pytest.param("classic", 3, 0, UnrestorableTiles.END_OF_POOL, id="classic-restore-draw-3"),
        pytest.param("japan-2017", 1, -50, UnrestorableTiles.OFFENDER_TAKES, id="japan-restore-draw-1-minus-50"),
        pytest.param("world", 1, 0, UnrestorableTiles.OFFENDER_TAKES_LOOSE, id="world-restore-draw-1"),
    ],
)
def test_failed_turn(variant, draw, points, unrestorable):
    verdict = judge(variant, "R1 R2 R3 R4 | K9 B9 O9", "R1 R2 | R3 R4 K7 | K9 B9 O9 B12")
    assert verdict.outcome is Outcome.PENALTY
    assert verdict.penalty.to_dict() == {"draw": draw, "points": points}
    assert verdict.restore.table.codes() == [["R1", "R2", "R3", "R4"], ["K9", "B9", "O9"]]
    assert sorted(t.code for t in verdict.restore.to_rack) == ["B12", "K7"]
    assert verdict.tiles_to_draw == draw
    from controller.rules.variants import get_ruleset

    assert get_ruleset(variant).unrestorable_tiles is unrestorable


# --- relief -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "before, after, rack",
    [
        pytest.param("B3 B4 B5 | K7 R7 O7", "B3 B4 B6 B5 | K7 R7 O7", None, id="tile-within-a-set"),
        pytest.param("B3 B4 B5 | K7 R7 O7", "B3 B4 B5 K7 | R7 O7 B7", None, id="tile-to-another-set"),
        pytest.param("K1 K2 K3 K4 K5 | B9 O9 R9", "K1 K2 | K3 K4 K5 B9 O9 R9 K9", None, id="block-to-another-set"),
        pytest.param("K1 K2 K3 K4 | B9 O9 R9", "K1 K2 K3 K4 B9 O9 R9 K9", None, id="block-out-as-new-set"),
        pytest.param("B3 B4 B5", "B3 B4 B5 B7 B6", "B7 B6", id="even-a-winning-play"),
    ],
)
def test_japan_relief_one_straight_movement(before, after, rack):
    verdict = judge("japan-2017", before, after, rack=rack)
    assert verdict.outcome is Outcome.RELIEVED
    assert verdict.penalty is None and verdict.restore is None
    assert verdict.relief is not None and verdict.relief.table.check().valid
    for variant in ("classic", "world"):
        assert judge(variant, before, after, rack=rack).outcome is Outcome.PENALTY


def test_japan_no_relief_when_two_movements_are_needed():
    verdict = judge("japan-2017", "B3 B4 B5", "B5 B4 B7 B3 B6")
    assert verdict.outcome is Outcome.PENALTY


@pytest.mark.parametrize(
    "after, outcome",
    [
        pytest.param("R1 R1 K1 | B1 B1 O1", Outcome.RELIEVED, id="six-tile-exception-r1-r1-k1-b1-b1-o1"),
        pytest.param("R1 K1 K1 | B1 B1 R1", Outcome.RELIEVED, id="six-tile-exception-three-colours"),
        pytest.param("R1 R1 K1 | B1 B1 O2", Outcome.PENALTY, id="six-tile-exception-needs-one-number"),
    ],
)
def test_japan_six_tile_exception(after, outcome):
    verdict = judge("japan-2017", "K5 K6 K7", "K5 K6 K7 | " + after)
    assert verdict.outcome is outcome
    assert judge("classic", "K5 K6 K7", "K5 K6 K7 | " + after).outcome is Outcome.PENALTY


# --- an invalid set nobody noticed --------------------------------------------------------


@pytest.mark.parametrize(
    "after, outcome",
    [
        pytest.param("R4 R5 R6 R6 R7 | K1 K2 K3", Outcome.LEGAL, id="japan-unnoticed-invalid-set-stands"),
        pytest.param("R4 R5 R6 R6 R7 B7 | K1 K2 K3", Outcome.PENALTY, id="japan-adding-to-it-must-make-it-valid"),
        pytest.param("R4 R5 R6 | R6 R7 R8 | K1 K2 K3", Outcome.LEGAL, id="japan-rearranging-it-valid-is-fine"),
    ],
)
def test_japan_unnoticed_invalid_set(after, outcome):
    verdict = judge("japan-2017", "R4 R5 R6 R6 R7 | K1 K2", after)
    assert verdict.outcome is outcome


# --- tiles left from hand -----------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_table_tile_never_goes_back_to_a_rack(variant):
    verdict = judge(variant, "R1 R2 R3 R4 | K9 B9 O9", "R1 R2 R3 | K9 B9 O9")
    assert verdict.outcome is Outcome.PENALTY
    assert [t.code for t in verdict.taken] == ["R4"]
    assert "table-tile-taken" in rules(verdict)


# --- three doubled tiles in the deal ------------------------------------------------------

DEALT_THREE_DOUBLES = "R1 R1 B4 B4 K13 K13 O2 O3 O5 R7 R9 B11 J J"
DEALT_TWO_DOUBLES = "R1 R1 B4 B4 K13 K12 O2 O3 O5 R7 R9 B11 J J"


@pytest.mark.parametrize(
    "ruleset, when, three, two",
    [
        pytest.param(CLASSIC, RedealWhen.NEVER, False, False, id="classic-no-redeal"),
        pytest.param(JAPAN_2017, RedealWhen.OWN_FIRST_TURN, True, False, id="japan-redeal-right-at-own-first-turn"),
        pytest.param(WORLD, RedealWhen.AFTER_DEAL, True, False, id="world-reshuffle-for-everyone"),
    ],
)
def test_redeal_right(ruleset, when, three, two):
    assert ruleset.redeal_when is when
    assert has_redeal_right(tiles(DEALT_THREE_DOUBLES), ruleset) is three
    assert has_redeal_right(tiles(DEALT_TWO_DOUBLES), ruleset) is two  # the joker pair does not count


# --- end by an empty rack -----------------------------------------------------------------


def _record(end="empty-rack", winner="A", racks=None, opened=None, penalties=None, starter="A"):
    racks = racks if racks is not None else {"A": "", "B": "R5 J", "C": "K13 O1"}
    return GameRecord(
        players=("A", "B", "C"),
        starter=starter,
        end=GameEnd(end),
        winner=winner,
        racks={name: tiles(text) if text else () for name, text in racks.items()},
        opened=opened or {},
        penalties=penalties or {},
    )


@pytest.mark.parametrize(
    "ruleset, scores, wins",
    [
        pytest.param(CLASSIC, {"A": 49, "B": -35, "C": -14}, None, id="classic-winner-sums-losers-joker-30"),
        pytest.param(JAPAN_2017, {"A": 100, "B": -55, "C": -14}, None, id="japan-winner-100-joker-50"),
        pytest.param(WORLD, {"A": 69, "B": -55, "C": -14}, {"A": 1, "B": 0, "C": 0}, id="world-big-point-and-small-points-joker-50"),
    ],
)
def test_empty_rack_scores(ruleset, scores, wins):
    result = score_game(_record(), ruleset, could_open=lambda rack, rs: False)
    assert result.winner == "A"
    assert result.scores == scores
    assert result.wins == wins


def test_japan_penalty_points_never_go_to_the_winner():
    result = score_game(_record(penalties={"B": 2, "A": 1}), JAPAN_2017)
    assert result.scores == {"A": 50, "B": -155, "C": -14}


# --- initial meld never made --------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset, could_open, expected_b",
    [
        pytest.param(WORLD, False, -100, id="world-never-opened-minus-100"),
        pytest.param(WORLD, True, -200, id="world-could-have-opened-minus-200"),
        pytest.param(CLASSIC, True, -35, id="classic-no-unopened-rule"),
        pytest.param(JAPAN_2017, True, -55, id="japan-no-unopened-rule"),
    ],
)
def test_initial_meld_never_made(ruleset, could_open, expected_b):
    result = score_game(_record(opened={"B": False}), ruleset, could_open=lambda rack, rs: could_open)
    assert result.scores["B"] == expected_b


@pytest.mark.parametrize(
    "rack, expected",
    [
        pytest.param("R10 R11 R12 K3", -200, id="world-real-search-run-of-33"),
        pytest.param("R10 R11 J K3", -200, id="world-real-search-joker-makes-r12"),
        pytest.param("R1 R2 R3 B9 K9 O9 K1", -200, id="world-real-search-33-needs-both-sets"),
        pytest.param("R1 R2 R3 B5 K5 O5 K1", -100, id="world-real-search-21-too-low"),
        pytest.param("R10 R11 K3 O7", -100, id="world-real-search-no-set"),
    ],
)
def test_world_could_have_opened_uses_exact_search(rack, expected):
    pytest.importorskip("controller.rules.solver")
    result = score_game(_record(racks={"A": "", "B": rack, "C": "K13"}, opened={"B": False}), WORLD)
    assert result.scores["B"] == expected


# --- pool runs out ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset, scores",
    [
        pytest.param(CLASSIC, {"A": 28, "B": -19, "C": -9}, id="classic-lowest-wins-losers-pay-difference"),
        pytest.param(JAPAN_2017, {"A": 100, "B": -19, "C": -9}, id="japan-lowest-wins-100"),
        pytest.param(WORLD, {"A": 28, "B": -19, "C": -9}, id="world-as-classic"),
    ],
)
def test_pool_out(ruleset, scores):
    racks = {"A": "R5", "B": "K12 O12", "C": "B7 R7"}
    result = score_game(_record(end="pool-out", winner=None, racks=racks), ruleset)
    assert result.winner == "A"
    assert result.scores == scores


@pytest.mark.parametrize(
    "starter, winner",
    [
        pytest.param("A", "B", id="japan-tie-nearest-starter-clockwise"),
        pytest.param("C", "C", id="japan-tie-starter-itself-nearest"),
    ],
)
def test_pool_out_tie_goes_to_seat_nearest_starter(starter, winner):
    racks = {"A": "K13", "B": "R3 R4", "C": "O7"}
    result = score_game(_record(end="pool-out", winner=None, racks=racks, starter=starter), JAPAN_2017)
    assert result.winner == winner
    loser = ({"B", "C"} - {winner}).pop()
    assert result.scores[loser] == 0  # "loses with zero points"
    assert result.scores["A"] == -6


def test_pool_out_end_fields():
    assert JAPAN_2017.pool_out_end is PoolOutEnd.LAST_TILE_DRAWN
    assert CLASSIC.pool_out_end is PoolOutEnd.NOBODY_CAN_PLAY


# --- who starts ---------------------------------------------------------------------------


def _draws(**drawn):
    return {name: parse_tile(code) for name, code in drawn.items()}


@pytest.mark.parametrize(
    "ruleset, rounds, order, redraw",
    [
        pytest.param(CLASSIC, [_draws(a="R5", b="K12", c="B3")], ("b", "a", "c"), (), id="classic-highest-starts"),
        pytest.param(JAPAN_2017, [_draws(a="R5", b="K12", c="J")], ("c", "b", "a"), (), id="japan-joker-is-highest"),
        pytest.param(CLASSIC, [_draws(a="R5", b="K12", c="J")], None, ("c",), id="classic-joker-drawn-again"),
        pytest.param(JAPAN_2017, [_draws(a="R5", b="K5", c="J")], None, ("a", "b"), id="japan-equal-numbers-draw-again"),
        pytest.param(
            JAPAN_2017, [_draws(a="R5", b="K5", c="J"), _draws(a="O2", b="O9")], ("c", "b", "a"), (),
            id="japan-redraw-decides-seats",
        ),
        pytest.param(CLASSIC, [_draws(a="R5", b="K5", c="O9")], ("c", "a", "b"), (), id="classic-only-top-tie-matters"),
        pytest.param(WORLD, [_draws(a="R9", b="K9", c="O2")], None, ("a", "b"), id="world-top-tie-draws-again"),
    ],
)
def test_start_order(ruleset, rounds, order, redraw):
    result = start_order(rounds, ruleset)
    assert result.order == order
    assert result.redraw == redraw
