"""Club rule files, game records, start draws and turn details beyond the variant table."""
from __future__ import annotations

import dataclasses

import pytest

from controller.rules.errors import InputFileError, RulesError, RuleSetError, StartDrawError
from controller.rules.judge import Outcome
from controller.rules.scoring import GameRecord, score_game
from controller.rules.start import doubled_tiles, start_order
from controller.rules.tiles import parse_tile
from controller.rules.variants import (
    CLASSIC,
    JAPAN_2017,
    RULESETS,
    WORLD,
    RearrangeFrom,
    RuleSet,
    get_ruleset,
    load_ruleset,
    ruleset_from_mapping,
)

from .helpers import judge, rules, tiles


def test_rulesets_are_frozen_values():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CLASSIC.seconds_per_turn = 10  # type: ignore[misc]
    assert set(RULESETS) == {"classic", "japan-2017", "world"}


def test_variants_differ_only_in_named_fields():
    differing = {f.name for f in dataclasses.fields(RuleSet) if len({getattr(r, f.name) for r in RULESETS.values()}) > 1}
    assert {"seconds_per_turn", "rearrange_from", "joker_policy", "penalty_draw", "penalty_points", "joker_rack_value",
            "winner_bonus", "relief_one_straight_movement", "big_points"} <= differing


def test_club_file_extends_a_variant(tmp_path):
    path = tmp_path / "club.toml"
    path.write_text('name = "kuwana-club"\nextends = "japan-2017"\nseconds_per_turn = 90\nrearrange_from = "same-turn"\n')
    club = load_ruleset(path)
    assert club.name == "kuwana-club"
    assert club.seconds_per_turn == 90
    assert club.rearrange_from is RearrangeFrom.SAME_TURN
    assert club.penalty_points == JAPAN_2017.penalty_points
    # and the judge follows it: adding to the table while opening is now allowed (same turn)
    verdict = judge(club, "K1 K2 K3", "K1 K2 K3 K4 | R10 R11 R12", opened=False)
    assert verdict.outcome is Outcome.LEGAL


@pytest.mark.parametrize(
    "data, words",
    [
        pytest.param({"name": "x", "extends": "chess"}, "'chess'", id="unknown-base"),
        pytest.param({"name": "x", "joker_policy": "wild"}, "'wild'", id="unknown-enum-value"),
        pytest.param({"name": "x", "seconds_per_turn": "sixty"}, "seconds_per_turn", id="wrong-type"),
        pytest.param({"name": "x", "relief_six_tile_split": 1}, "relief_six_tile_split", id="int-for-bool"),
        pytest.param({"name": "x", "colour": "red"}, "'colour'", id="unknown-field"),
        pytest.param({"extends": "world"}, "'name'", id="name-required"),
    ],
)
def test_bad_club_rule_sets_are_refused(data, words):
    with pytest.raises(RuleSetError) as raised:
        ruleset_from_mapping(data)
    assert words in str(raised.value)


def test_bad_toml_file(tmp_path):
    path = tmp_path / "club.toml"
    path.write_text("name = \n")
    with pytest.raises(InputFileError, match="not valid TOML"):
        load_ruleset(path)
    with pytest.raises(InputFileError, match="does not exist"):
        load_ruleset(tmp_path / "missing.toml")


def test_unknown_variant_name():
    with pytest.raises(RuleSetError, match="'go'"):
        get_ruleset("go")


# --- turns -------------------------------------------------------------------------------


def test_rack_shows_where_tiles_came_from():
    verdict = judge("classic", "R1 R2 R3", "R1 R2 R3 R4", rack="K5 K6")
    assert rules(verdict) == ["tile-not-from-rack"]
    assert verdict.outcome is Outcome.PENALTY
    assert judge("classic", "R1 R2 R3", "R1 R2 R3 R4", rack="R4 K6").outcome is Outcome.LEGAL


def test_legal_turn_reports_the_initial_meld():
    verdict = judge("world", "", "R10 R11 R12", opened=False)
    assert verdict.opened_now and verdict.initial_meld_points == 33
    assert not judge("world", "", "R1 R2 R3", opened=False).opened_now


def test_relief_reports_the_move_and_the_fixed_table():
    verdict = judge("japan-2017", "B3 B4 B5", "B3 B4 B6 B5")
    assert verdict.relief.tiles == tiles("B6") or verdict.relief.tiles == tiles("B5")
    assert verdict.relief.table.check().valid
    assert "move [" in verdict.relief.describe()


def test_relief_needs_the_rest_of_the_turn_legal():
    # one move fixes the sets, but a table tile vanished: no relief for that
    verdict = judge("japan-2017", "B3 B4 B5 | K7 R7 O7", "B3 B4 B6 B5 | K7 R7")
    assert verdict.outcome is Outcome.PENALTY


# --- game records ------------------------------------------------------------------------


def _game(**changes):
    data = {
        "players": ["A", "B"],
        "starter": "A",
        "end": "empty-rack",
        "winner": "A",
        "racks": {"A": [], "B": ["R1"]},
        "opened": {"A": True, "B": True},
        "penalties": {},
    }
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "changes, words",
    [
        pytest.param({"players": ["A", "A"]}, "distinct", id="duplicate-player"),
        pytest.param({"winner": None}, "winner's name", id="empty-rack-needs-winner"),
        pytest.param({"winner": "Q"}, "'Q'", id="unknown-winner"),
        pytest.param({"racks": {"A": []}}, "'B'", id="missing-rack"),
        pytest.param({"racks": {"A": [], "B": ["R1"], "Z": []}}, "'Z'", id="rack-of-unknown-player"),
        pytest.param({"penalties": {"B": -1}}, "-1", id="negative-penalties"),
        pytest.param({"opened": {"B": "no"}}, "'no'", id="opened-not-bool"),
        pytest.param({"racks": {"A": [], "B": ["J", "J", "J"]}}, "'J'", id="three-jokers"),
        pytest.param({"end": "pool-out", "winner": "B"}, "lowest rack", id="pool-out-wrong-winner"),
    ],
)
def test_bad_game_records(changes, words):
    with pytest.raises(RulesError) as raised:
        score_game(GameRecord.from_dict(_game(**changes)), CLASSIC)
    assert words in str(raised.value)


def test_world_unopened_rule_not_applied_on_pool_out_by_default():
    data = _game(end="pool-out", winner=None, racks={"A": ["R1"], "B": ["R10", "R11", "R12"]}, opened={"B": False})
    result = score_game(GameRecord.from_dict(data), WORLD)
    assert result.scores == {"A": 32, "B": -32}


# --- start draws -------------------------------------------------------------------------


def test_doubled_tiles_ignore_jokers():
    assert [t.code for t in doubled_tiles(tiles("R1 R1 J J K2 K2 K2"))] == ["K2", "R1"]


def test_start_draw_errors():
    with pytest.raises(StartDrawError, match="'b'"):
        start_order([{"a": parse_tile("R1"), "b": parse_tile("R1")}, {"a": parse_tile("R2")}], JAPAN_2017)
    with pytest.raises(StartDrawError, match="not needed"):
        start_order([{"a": parse_tile("R1"), "b": parse_tile("R2")}, {"c": parse_tile("R2")}], JAPAN_2017)
    with pytest.raises(StartDrawError):
        start_order([], CLASSIC)


def test_invalid_rack_only_set_in_an_opening_is_not_touching_the_table():
    verdict = judge("world", "K1 K2 K3", "K1 K2 K3 | R10 R11 R12 | O5 O6 O8", opened=False)
    assert rules(verdict) == ["invalid-set"]


def test_world_tile_count_mismatch_disqualifies():
    assert WORLD.count_mismatch_disqualifies and not CLASSIC.count_mismatch_disqualifies


def test_relieved_initial_meld_counts_the_corrected_table():
    # R11 laid in the wrong place: one move makes [R10 R11 R12] and the meld reaches 33
    verdict = judge("japan-2017", "", "R10 R12 R11", opened=False)
    assert verdict.outcome is Outcome.RELIEVED
    assert verdict.initial_meld_points == 33 and verdict.opened_now


def test_bundled_club_rule_file_loads():
    from pathlib import Path

    club = load_ruleset(Path(__file__).resolve().parents[2] / "examples" / "rulesets" / "kuwana-club.toml")
    assert (club.name, club.seconds_per_turn, club.penalty_points) == ("kuwana-club", 90, 30)
    assert club.joker_policy is JAPAN_2017.joker_policy


def test_relief_and_six_tile_exception_together():
    verdict = judge("japan-2017", "B3 B4 B5", "B3 B4 B6 B5 | R1 R1 K1 | B1 B1 O1")
    assert verdict.outcome is Outcome.RELIEVED
    assert verdict.relief is not None
