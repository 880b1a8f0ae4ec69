"""Othello by disc count with empty squares split; shogi with repetition replays (seed 004)."""
import pytest

from controller.tournament import OthelloCount, ScoreError, othello_result, shogi_result


def test_othello_empty_squares_are_split_between_both():
    result = othello_result("R1-T1-G1", OthelloCount("Ann", "Ben", 30, 28))
    assert result.winner == "Ann"
    assert "33 - 31" in result.detail  # 6 empty squares: 3 each


def test_othello_odd_number_of_empties_splits_in_halves():
    result = othello_result("R1-T1-G1", OthelloCount("Ann", "Ben", 20, 41))
    assert result.winner == "Ben"
    assert "21.5 - 42.5" in result.detail


def test_othello_level_count_goes_to_the_draw_right_holder():
    result = othello_result("R1-T1-G1", OthelloCount("Ann", "Ben", 30, 30, draw_right="Ben"))
    assert result.winner == "Ben"


def test_othello_level_count_without_draw_right_is_refused():
    with pytest.raises(ScoreError, match="draw right"):
        othello_result("R1-T1-G1", OthelloCount("Ann", "Ben", 32, 32))


@pytest.mark.parametrize("black, white", [(40, 30), (-1, 10)], ids=["over-64", "negative"])
def test_othello_impossible_counts_are_refused(black, white):
    with pytest.raises(ScoreError):
        othello_result("R1-T1-G1", OthelloCount("Ann", "Ben", black, white))


def test_shogi_repetition_is_replayed_with_colours_swapped():
    # Ann has sente; repetition; in the replay Ben has sente and gote (Ann) wins
    result = shogi_result("R1-T1-G1", "Ann", "Ben", ("repetition", "gote"))
    assert result.winner == "Ann"
    assert "Ben (sente) v Ann: Ann wins" in result.detail


def test_shogi_two_repetitions_swap_back():
    result = shogi_result("R1-T1-G1", "Ann", "Ben", ("sennichite", "repetition", "gote"))
    assert result.winner == "Ben"


@pytest.mark.parametrize(
    "outcomes, message",
    [(("repetition",), "still owed"), (("sente", "gote"), "yet more follow"), (("draw",), "'draw'"), ((), "no game")],
    ids=["ends-on-repetition", "result-after-decision", "unknown-outcome", "empty"],
)
def test_shogi_bad_outcome_lists_are_refused(outcomes, message):
    with pytest.raises(ScoreError, match=message):
        shogi_result("R1-T1-G1", "Ann", "Ben", outcomes)
