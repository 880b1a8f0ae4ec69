"""`python -m models.recipe.evaluate --real --splits ...` reads the splits asked for and no other.

A candidate model is compared on train and validation; the frozen test split must stay unread
until the decision, so the option has to keep it out, and a misspelt split must not fall back
to reading everything.
"""
import pytest

from models.recipe.evaluate import SPLIT_TITLES, main
from models.recipe.realdata import DEFAULT_DATASET

pytestmark = pytest.mark.skipif(not DEFAULT_DATASET.is_dir(), reason="real photo set not present")


def test_only_the_named_split_is_read(capsys):
    assert main(["--real", "--splits", "validation", "--show-mistakes", "0"]) == 0
    out = capsys.readouterr().out
    assert SPLIT_TITLES["validation"] in out
    assert SPLIT_TITLES["test"] not in out
    assert SPLIT_TITLES["train"] not in out


def test_an_unknown_split_is_refused_by_name(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--real", "--splits", "train,tset"])
    assert stopped.value.code == 2
    assert "'tset'" in capsys.readouterr().err


def test_synthetic_tables_can_hold_fewer_tiles_than_a_full_set():
    # a board in mid-game, where the copy limit (vision/copies.py) rarely binds: --tiles
    from models.recipe.evaluate import evaluate_synthetic
    from vision import TableReader

    board, _ = evaluate_synthetic(TableReader(), 1920, 1080, 1, "original", tiles=30)
    assert board.labelled == 30
    assert board.found >= 28


@pytest.mark.parametrize("setting,named", [("perspective_of_line_both=False", "'perspective_of_line_both'"),
                                           ("copy_limit=maybe", "'maybe'")],
                         ids=["unknown-field", "not-a-literal"])
def test_a_config_change_that_cannot_be_made_is_refused_by_name(capsys, setting, named):
    with pytest.raises(SystemExit) as stopped:
        main(["--real", "--splits", "validation", "--config", setting])
    assert stopped.value.code == 2
    assert named in capsys.readouterr().err


def test_a_config_change_reaches_the_reading(monkeypatch):
    import models.recipe.evaluate as evaluate

    seen = []
    monkeypatch.setattr(evaluate, "evaluate_real", lambda reader, photos, split: seen.append(reader.config) or _NoMistakes())
    assert main(["--real", "--splits", "validation", "--config", "copy_limit=False", "--config", "perspective_min_share=0.25"]) == 0
    assert not seen[0].copy_limit and seen[0].perspective_min_share == 0.25


class _NoMistakes:
    mistakes = ()

    def lines(self, title):
        return [title]
