"""Hanchan scoring by the Ron cup rules (seed 001), exact in 0.1 steps."""
import json
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from controller import cli
from controller.tournament import RON_CUP_SCORING, Hanchan, ScoreError, health_scoring, score_hanchan
from controller.tournament.mahjong import parse_hanchan, scores_json

D = Decimal


def score(points, seats=None, riichi=0, chombo=None, scoring=RON_CUP_SCORING):
    seats = tuple(seats or points)
    return score_hanchan(Hanchan(points, seats, riichi, chombo or {}), scoring)


def test_seed_example_16300_is_minus_13_7_before_rank_points():
    result = score({"A": 45_000, "B": 33_700, "C": 5_000, "D": 16_300})
    assert result == {"A": D("65.0"), "B": D("13.7"), "C": D("-55.0"), "D": D("-23.7")}


def test_riichi_sticks_left_go_to_the_top():
    result = score({"A": 40_000, "B": 30_000, "C": 16_300, "D": 12_700}, riichi=1)
    assert result["A"] == D("61.0")
    assert sum(result.values()) == 0


def test_two_tied_for_top_share_rank_points_and_sticks():
    result = score({"A": 35_000, "B": 35_000, "C": 20_000, "D": 8_000}, riichi=2)
    # (50 + 10 + 2) / 2 = 31 each on top of +5.0
    assert result["A"] == result["B"] == D("36.0")
    assert result["C"] == D("-20.0") and result["D"] == D("-52.0")


def test_three_way_tie_left_over_tenth_goes_to_the_player_nearest_the_first_dealer():
    # 50 + 10 - 10 + 1 stick = 51.0 -> 17.0 each, exact; with 2 sticks 52.0 -> 17.3 + 0.1 over
    points = {"A": 30_000, "B": 30_000, "C": 30_000, "D": 8_000}
    result = score(points, seats=("D", "C", "A", "B"), riichi=2)
    assert result["C"] == D("17.4")  # nearest the first dealer D among the tied
    assert result["A"] == D("17.3") and result["B"] == D("17.3")
    assert result["D"] == D("-52.0")
    assert sum(result.values()) == 0


def test_three_way_tie_two_tenths_over_go_one_each_in_seat_order():
    # 50 + 10 - 10 + 3 sticks = 53.0 -> 17.6 each + 0.2 over
    points = {"A": 29_000, "B": 29_000, "C": 29_000, "D": 10_000}
    result = score(points, seats=("B", "D", "C", "A"), riichi=3)
    assert (result["B"], result["C"], result["A"]) == (D("16.7"), D("16.7"), D("16.6"))


def test_chombo_costs_20_each_after_ranks():
    result = score({"A": 40_000, "B": 30_000, "C": 20_000, "D": 10_000}, chombo={"A": 2})
    assert result["A"] == D("20.0")  # 10 + 50 - 40: still first for rank points
    assert sum(result.values()) == D("-40")


@pytest.mark.parametrize(
    "points, riichi, message",
    [
        ({"A": 30_000, "B": 30_000, "C": 20_000, "D": 19_000}, 0, "do not add up"),
        ({"A": 30_050, "B": 30_000, "C": 20_000, "D": 19_950}, 0, "multiple of 100"),
        ({"A": 30_000, "B": 30_000, "C": 20_000, "D": 20_000}, 1, "do not add up"),
    ],
    ids=["short-1000", "odd-50", "stick-not-counted"],
)
def test_points_that_do_not_add_up_are_refused(points, riichi, message):
    with pytest.raises(ScoreError, match=message):
        score(points, riichi=riichi)


def test_chombo_for_someone_not_at_the_table_is_refused():
    with pytest.raises(ScoreError, match="'Z'"):
        score({"A": 25_000, "B": 25_000, "C": 25_000, "D": 25_000}, chombo={"Z": 1})


def test_health_mahjong_rank_points_are_a_setting():
    scoring = health_scoring((D(30), D(10), D(-10), D(-30)))
    result = score({"A": 40_000, "B": 30_000, "C": 30_000, "D": 20_000}, scoring=scoring)
    assert result == {"A": D("40.0"), "B": D("0.0"), "C": D("0.0"), "D": D("-40.0")}


hands = st.lists(st.integers(-200, 800), min_size=3, max_size=3)


@settings(max_examples=200, deadline=None)
@given(hands=hands, riichi=st.integers(0, 4), chombo=st.integers(0, 2), dealer=st.integers(0, 3))
def test_scores_are_exact_tenths_and_add_up(hands, riichi, chombo, dealer):
    names = ["A", "B", "C", "D"]
    points = [h * 100 for h in hands]
    points.append(100_000 - riichi * 1000 - sum(points))
    seats = tuple(names[dealer:] + names[:dealer])
    result = score(dict(zip(names, points)), seats=seats, riichi=riichi, chombo={"B": chombo})
    assert sum(result.values()) == D(-20 * chombo)
    assert all(v == v.quantize(D("0.1")) for v in result.values())
    # without chombo, more points never means a lower score
    plain = score(dict(zip(names, points)), seats=seats, riichi=riichi)
    held = dict(zip(names, points))
    assert all(plain[n] < plain[m] for n in names for m in names if held[n] < held[m])


def test_cli_prints_scores_json_with_one_decimal(tmp_path, capsys):
    path = tmp_path / "hanchan.json"
    path.write_text(json.dumps({
        "points": {"Ann": 40_000, "Ben": 30_000, "Cho": 16_300, "Dai": 12_700},
        "seat_order": ["Ben", "Cho", "Dai", "Ann"], "riichi_left": 1, "chombo": {"Dai": 1},
    }))
    assert cli.main(["mahjong", "score", str(path), "--json"]) == 0
    out = capsys.readouterr().out.strip()
    assert out == '{"scores": {"Ben": 10.0, "Cho": -23.7, "Dai": -67.3, "Ann": 61.0}}'
    assert json.loads(out, parse_float=Decimal)["scores"]["Dai"] == D("-67.3")


def test_cli_refuses_a_hanchan_that_does_not_add_up(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"points": {"A": 30000, "B": 30000, "C": 30000, "D": 0},
                                "seat_order": ["A", "B", "C", "D"], "riichi_left": 0, "chombo": {}}))
    assert cli.main(["mahjong", "score", str(path), "--json"]) == 2
    assert "90,000" in capsys.readouterr().err


def test_unknown_keys_in_hanchan_json_are_named():
    with pytest.raises(Exception, match="'honba'"):
        parse_hanchan({"points": {}, "seat_order": [], "honba": 1})


def test_scores_json_never_goes_through_float_text():
    assert scores_json({"x": D("0.1") + D("0.2")}) == '{"scores": {"x": 0.3}}'
