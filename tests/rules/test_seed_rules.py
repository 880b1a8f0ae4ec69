"""The seeds' rules at the level of the rules core: each rule a test whose id cites its seed
(000 japan-2017 association rules, 002 classic box manual, 003 world / Warsaw 2019)."""
from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.judge import Outcome, late_invalid_set_rejudged, without_tiles
from controller.rules.melds import classify
from controller.rules.restore import settle_unrestorable
from controller.rules.start import starter_by_lot
from controller.rules.table import Table
from controller.rules.tiles import full_set
from controller.rules.variants import (
    CLASSIC,
    JAPAN_2017,
    RULESETS,
    WORLD,
    LateInvalidSet,
    StartBy,
    ruleset_from_mapping,
    ruleset_from_record,
)

from .helpers import judge, rules, table

# --- the joker-swap bug -------------------------------------------------------------------


@pytest.mark.parametrize(
    "before, after, rack",
    [
        # 002: a set holding a joker may be added to (K3 from the table), and the joker exchanged for a
        # missing colour from the rack (O3): which added tile freed the joker prefers the rack tile
        pytest.param("R3 B3 J | K3 K4 K5 K6", "R3 B3 O3 K3 | K4 K5 K6 | B11 B12 J", "O3 B11 B12",
                     id="classic/002-joker-freed-by-the-rack-tile-not-the-table-tile-added-beside-it"),
        pytest.param("R3 B3 J | O3 O4 O5 O6", "R3 B3 K3 O3 | O4 O5 O6 | B11 B12 J", "K3 B11 B12",
                     id="classic/002-joker-swap-mirrored-colours-legal"),
    ],
)
def test_classic_joker_swap_prefers_a_rack_tile(before, after, rack):
    for known_rack in (rack, None):
        verdict = judge("classic", before, after, rack=known_rack)
        assert verdict.outcome is Outcome.LEGAL and rules(verdict) == []


def test_classic_002_a_joker_swapped_only_with_table_tiles_is_still_refused():
    verdict = judge("classic", "R3 B3 J | K3 K4 K5 K6 | O3 O4 O5 O6", "R3 B3 O3 K3 | K4 K5 K6 | O4 O5 O6 J")
    assert "joker-swapped-with-table-tile" in rules(verdict)


# --- world: the freed joker goes into another run or group --------------------------------


@pytest.mark.parametrize(
    "variant, after, broken",
    [
        pytest.param("world", "R4 R5 R6 J | K9 B9 O9", ["freed-joker-into-same-set"],
                     id="world/003-freed-joker-back-into-its-own-set-refused"),
        pytest.param("world", "R4 R5 R6 | K9 B9 O9 J", [], id="world/003-freed-joker-into-another-group"),
        pytest.param("japan-2017", "R4 R5 R6 J | K9 B9 O9", [], id="japan-2017/000-joker-moves-freely"),
    ],
)
def test_freed_joker_into_another_set(variant, after, broken):
    verdict = judge(variant, "R4 J R6 | K9 B9 O9", after)
    assert rules(verdict) == broken
    assert (verdict.outcome is Outcome.PENALTY) is bool(broken)


# --- japan-2017: after the alarm no tile may leave the rack -------------------------------


def test_japan_2017_000_alarm_locks_rack_tiles_laid_after_it_go_back():
    verdict = judge("japan-2017", "K1 K2 K3", "K1 K2 K3 K4 | B9 B10 B11 B12", rack=None)
    assert verdict.outcome is Outcome.LEGAL  # without the alarm table everything counts
    locked = _judge_at_alarm("japan-2017", "K1 K2 K3", at_alarm="K1 K2 K3 | B9 B10 B11",
                             after="K1 K2 K3 K4 | B9 B10 B11 B12")
    assert locked.outcome is Outcome.LEGAL and sorted(t.code for t in locked.after_alarm) == ["B12", "K4"]
    assert sorted(t.code for t in locked.played) == ["B10", "B11", "B9"]
    assert rules(locked) == ["laid-after-alarm"]
    assert locked.restore is not None and locked.restore.table.codes() == [["K1", "K2", "K3"], ["B9", "B10", "B11"]]


def test_japan_2017_000_a_set_left_invalid_by_the_late_tiles_going_back_is_a_penalty():
    verdict = _judge_at_alarm("japan-2017", "K1 K2 K3", at_alarm="K1 K2 K3 | B9 B10", after="K1 K2 K3 | B9 B10 B11")
    assert verdict.outcome is Outcome.PENALTY and "invalid-set" in rules(verdict)
    assert sorted(t.code for t in verdict.restore.to_rack) == ["B10", "B11", "B9"]


@pytest.mark.parametrize("variant", ["classic", "world"])
def test_classic_002_and_world_003_have_no_rack_lock(variant):
    verdict = _judge_at_alarm(variant, "K1 K2 K3", at_alarm="K1 K2 K3 | B9 B10", after="K1 K2 K3 | B9 B10 B11")
    assert verdict.outcome is Outcome.LEGAL and verdict.after_alarm == ()


def _judge_at_alarm(variant, before, at_alarm, after):
    from controller.rules.judge import judge_turn
    from controller.rules.variants import get_ruleset

    return judge_turn(table(before), table(after), True, get_ruleset(variant), at_alarm=table(at_alarm))


def test_a_tile_taken_from_the_middle_of_a_set_leaves_two_sets():
    assert without_tiles(table("R1 R2 R3 R4 R5"), Counter(table("R3").tiles())).codes() == [["R1", "R2"], ["R4", "R5"]]


# --- japan-2017: the timer may be skipped for an immediate draw or a one-tile play --------


@pytest.mark.parametrize(
    "before, after, simple",
    [
        pytest.param("K1 K2 K3", "K1 K2 K3", True, id="japan-2017/000-timer-skip-immediate-draw"),
        pytest.param("K1 K2 K3", "K1 K2 K3 K4", True, id="japan-2017/000-timer-skip-one-tile-play"),
        pytest.param("K1 K2 K3", "K1 K2 K3 K4 K5", False, id="japan-2017/000-timer-skip-two-tiles-is-bad-manners"),
        pytest.param("K1 K2 K3 K4 K5 K6", "K1 K2 K3 | K4 K5 K6", False, id="japan-2017/000-timer-skip-rearranging"),
    ],
)
def test_japan_timer_skip_for_simple_turns(before, after, simple):
    from controller.rules.judge import judge_turn

    verdict = judge_turn(table(before), table(after), True, JAPAN_2017, timer_skipped=True)
    assert ("timer-skipped" in rules(verdict)) is (not simple)
    assert verdict.outcome is not Outcome.PENALTY  # 000 calls it bad manners, not a penalty


# --- an invalid set noticed late ----------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset, started, again",
    [
        pytest.param(JAPAN_2017, False, True, id="japan-2017/000-invalid-set-noticed-before-next-turn-is-a-penalty"),
        pytest.param(JAPAN_2017, True, False, id="japan-2017/000-invalid-set-noticed-after-next-turn-stands"),
        pytest.param(CLASSIC, False, True, id="classic/002-silent-default-as-japan"),
        pytest.param(WORLD, True, False, id="world/003-silent-default-as-japan"),
        pytest.param(dataclasses.replace(CLASSIC, late_invalid_set=LateInvalidSet.STANDS), False, False,
                     id="club-setting-stands"),
    ],
)
def test_invalid_set_noticed_late(ruleset, started, again):
    assert late_invalid_set_rejudged(ruleset, next_turn_started=started) is again


def test_japan_2017_000_whoever_adds_to_a_standing_invalid_set_must_make_it_valid():
    assert judge("japan-2017", "R4 R5 R6 R6 R7 | K1 K2 K3", "R4 R5 R6 R6 R7 | K1 K2 K3 K4").outcome is Outcome.LEGAL
    grown = judge("japan-2017", "R4 R5 R6 R6 R7 | K1 K2 K3", "R4 R5 R6 R6 R7 R8 | K1 K2 K3")
    assert grown.outcome is not Outcome.LEGAL and "invalid-set" in rules(grown)  # relieved only by one movement


# --- a table that cannot be restored ------------------------------------------------------

BEFORE = "R1 R2 R3 R4 | K9 B9 O9"
GIVEN_UP = "R2 R3 R4 R5 | K9 B9 O9 | R1 K7"  # R5 and K7 were played; R1 cannot be placed


@pytest.mark.parametrize(
    "ruleset, to_offender, to_pool, rack_change",
    [
        pytest.param(CLASSIC, [], ["K7", "R1"], -2, id="classic/002-unrestorable-tiles-to-end-of-pool"),
        pytest.param(JAPAN_2017, ["K7", "R1"], [], 0, id="japan-2017/000-unrestorable-tiles-offender-takes"),
        pytest.param(WORLD, ["K7", "R1"], [], 0, id="world/003-offender-takes-every-tile-not-in-a-valid-set"),
    ],
)
def test_unrestorable_tiles(ruleset, to_offender, to_pool, rack_change):
    settled = settle_unrestorable(table(BEFORE), table(GIVEN_UP), ruleset)
    assert sorted(settled.kept.codes()) == [["K9", "B9", "O9"], ["R2", "R3", "R4", "R5"]] and not settled.relay
    assert [t.code for t in settled.to_offender] == to_offender and [t.code for t in settled.to_pool] == to_pool
    assert settled.rack_change == rack_change and settled.missing == ()


def test_world_003_the_exact_solver_lays_the_largest_valid_part_of_the_loose_tiles():
    settled = settle_unrestorable(table(BEFORE), table("R1 R2 | R3 R4 K9 | B9 O9 K7"), WORLD)
    assert settled.relay and [t.code for t in settled.to_offender] == ["K7"]
    assert sorted(map(sorted, settled.kept.codes())) == [["B9", "K9", "O9"], ["R1", "R2", "R3", "R4"]]


def _tables():
    pool = sorted(full_set().elements(), key=lambda t: t.sort_key)
    return st.lists(st.sampled_from(range(len(pool))), min_size=3, max_size=24, unique=True).flatmap(
        lambda picks: st.lists(st.integers(1, 5), min_size=1, max_size=8).map(
            lambda cuts: _cut([pool[i] for i in picks], cuts)))


def _cut(tiles, cuts):
    sets, at = [], 0
    for size in cuts:
        if at < len(tiles):
            sets.append(tuple(tiles[at: at + size]))
            at += size
    if at < len(tiles):
        sets.append(tuple(tiles[at:]))
    return Table(tuple(sets))


@settings(max_examples=80, deadline=None)
@given(before=_tables(), now=_tables(), variant=st.sampled_from(sorted(RULESETS)))
def test_a_settled_table_keeps_every_tile_somewhere_and_only_valid_sets(before, now, variant):
    ruleset = RULESETS[variant]
    settled = settle_unrestorable(before, now, ruleset)
    assert all(classify(tiles).is_valid for tiles in settled.kept.sets)
    assert settled.kept.tiles() + Counter(settled.to_offender) + Counter(settled.to_pool) == now.tiles()
    # the rack change is what keeps the tile count: the table before = kept + pool + the offender's gain
    assert before.tile_count == settled.kept.tile_count + len(settled.to_pool) + settled.rack_change


# --- world: who starts and the redeal -------------------------------------------------------


def test_world_003_the_starter_is_the_youngest_or_drawn_by_lot():
    assert WORLD.start_by is StartBy.LOT and CLASSIC.start_by is JAPAN_2017.start_by is StartBy.TILE_DRAW
    assert {starter_by_lot(("A", "B", "C"), lot) for lot in range(6)} == {"A", "B", "C"}


# --- rules as data ----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(RULESETS.values()), ids=list(RULESETS))
def test_a_recorded_rule_set_comes_back_whole(ruleset):
    assert ruleset_from_record(ruleset.to_dict()) == ruleset


def test_a_recorded_club_rule_set_is_not_its_base_variant():
    club = ruleset_from_mapping({"name": "classic", "initial_meld_points": 40})  # a club that kept the name
    again = ruleset_from_record(club.to_dict())
    assert again.initial_meld_points == 40 and again != CLASSIC
