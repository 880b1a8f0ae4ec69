"""lab.experiments.occluder_candidates: an average of occluder nets judged from its members' maps, before it is built."""
from pathlib import Path

import numpy as np
import pytest

from lab.experiments.occluder_candidates import (CandidateError, CandidateScore, judge, load_maps, main, mean_maps, pooled_maps,
                                        save_maps, score_candidate)
from models.recipe.occluder_eval import Case

SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "rummikub-photos"


def _map(level: float) -> np.ndarray:
    """A 20x20 map, zero but for a 6x6 blob at `level` (9% of the map: above every minimum share)."""
    covered = np.zeros((20, 20), np.float32)
    covered[5:11, 5:11] = level
    return covered


def _maps(levels: dict[str, float]) -> dict:
    """One member's maps: two clear and one covered validation table, one of each rendered, one covered train table."""
    cases = {"validation": [Case("clear 1", False, None, "clear"), Case("clear 2", False, None, "clear"),
                            Case("hand", True, None, "composited")],
             "rendered": [Case("rendered clear", False, None, "clear"), Case("rendered hand", True, None, "composited")],
             "train": [Case("train hand", True, None, "composited")]}
    return {split: [(case, _map(levels.get(case.name, 0.0))) for case in rows] for split, rows in cases.items()}


# each member takes a different clear table for covered, more surely than it sees the hand
MEMBER_A = _maps({"clear 1": 0.9, "hand": 0.8, "rendered hand": 0.8, "train hand": 0.3})
MEMBER_B = _maps({"clear 2": 0.9, "hand": 0.8, "rendered hand": 0.8, "train hand": 0.3})


@pytest.mark.parametrize("member", [MEMBER_A, MEMBER_B], ids=["member A", "member B"])
def test_either_member_alone_makes_a_mistake_on_validation(member):
    assert score_candidate("alone", member).score == 1


def test_the_mean_of_members_that_err_apart_makes_none():
    result = score_candidate("A+B", mean_maps([MEMBER_A, MEMBER_B], ["a", "b"]))
    assert result.score == 0 and result.misses == ()
    assert 0.45 <= result.threshold < 0.8
    # the train hand (0.3 in both) lies below any threshold that clears both clear tables
    assert result.train == 1 and result.columns[2] == (0, 1, 0, 0)
    assert result.columns[:2] == ((0, 0, 0, 0), (0, 0))


def _blob_map(level: float, peak: float | None = None) -> np.ndarray:
    """A 40x40 map with a 6x6 blob at `level` (2% of it) and maybe one cell at `peak` (0.06%: under every minimum share)."""
    covered = np.zeros((40, 40), np.float32)
    covered[10:16, 10:16] = level
    if peak is not None:
        covered[12, 12] = peak
    return covered


def test_a_peak_threshold_tells_a_faint_arm_with_a_strong_cell_from_a_middling_patch():
    """lab/decisions/occ16.txt: no one threshold both clears a patch at 0.6 and sees a blob at 0.5 whose one
    strong cell is too small to count alone; cells above a low threshold that must reach a peak do."""
    maps = {"validation": [(Case("knot", False, None, "clear"), _blob_map(0.6)),
                           (Case("faint arm", True, None, "composited"), _blob_map(0.5, peak=0.9))],
            "rendered": [], "train": [(Case("train arm", True, None, "composited"), _blob_map(0.5, peak=0.9))]}
    assert score_candidate("one", maps).score == 1 and score_candidate("one", maps).peak is None
    two = score_candidate("two", maps, two_thresholds=True)
    assert two.score == 0 and two.train == 0 and two.threshold < 0.5 and 0.6 < two.peak <= 0.9
    assert f"{two.threshold} peak {two.peak} /" in two.line()


def test_a_peak_is_taken_only_when_one_threshold_does_worse():
    result = score_candidate("A+B", mean_maps([MEMBER_A, MEMBER_B], ["a", "b"]), two_thresholds=True)
    assert result.peak is None and result.score == 0
    assert result == score_candidate("A+B", mean_maps([MEMBER_A, MEMBER_B], ["a", "b"]))


def test_members_holding_other_cases_are_refused_naming_both():
    other = _maps({})
    other["train"] = other["train"] + other["train"]
    with pytest.raises(CandidateError, match=r"'b' hold other train cases than 'a' \(2 against 1\)"):
        mean_maps([MEMBER_A, other], ["a", "b"])


def test_the_command_scores_saved_maps_and_names_a_bad_file(tmp_path, capsys):
    save_maps(MEMBER_A, tmp_path / "a.pkl")
    save_maps(MEMBER_B, tmp_path / "b.pkl")
    (tmp_path / "notes.txt").write_text("not maps\n")
    assert main(["score", "--misses", f"A={tmp_path / 'a.pkl'}", f"AB={tmp_path / 'a.pkl'}+{tmp_path / 'b.pkl'}"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("A  ") and ": 1 / 1" in lines[0] and lines[1].strip().startswith("refused: clear 1")
    assert lines[2].startswith("AB  ") and ": 0 / 1" in lines[2] and len(lines) == 3
    assert main(["score", f"X={tmp_path / 'notes.txt'}"]) == 2
    err = capsys.readouterr().err
    assert "notes.txt" in err and "not a maps file" in err
    assert main(["score", "X"]) == 2
    assert "'X' is not NAME=A.pkl+B.pkl" in capsys.readouterr().err


def _small_hand_maps() -> dict:
    """A clear table and a hand of 4 cells in 1600 (a share of 0.0025: seen at a min share of 0.002, not 0.003)."""
    hand = np.zeros((40, 40), np.float32)
    hand[10:12, 10:12] = 0.8
    return {"validation": [(Case("clear", False, None, "clear"), np.zeros((40, 40), np.float32)),
                           (Case("small hand", True, None, "composited"), hand)],
            "rendered": [], "train": []}


def test_a_held_min_share_chooses_only_the_threshold():
    """lab/decisions/occ24.txt: a held share cannot be traded for a smaller one that sees the small hand."""
    free = score_candidate("free", _small_hand_maps())
    held = score_candidate("held", _small_hand_maps(), held_share=0.003)
    assert free.score == 0 and free.min_share < 0.003
    assert held.score == 1 and held.min_share == 0.003 and held.misses == ("accepted: small hand",)
    with pytest.raises(CandidateError, match="'held': a held min share \\(0.003\\) goes with one threshold only"):
        score_candidate("held", _small_hand_maps(), two_thresholds=True, held_share=0.003)


@pytest.mark.parametrize("suffix, why", [("@x", "held min share 'x' is not a number"),
                                         ("@1.5", "held min share 1.5 is not between 0 and 1")],
                         ids=["not a number", "not a share"])
def test_the_command_holds_a_candidates_share_and_names_a_bad_one(tmp_path, capsys, suffix, why):
    save_maps(_small_hand_maps(), tmp_path / "a.pkl")
    a = tmp_path / "a.pkl"
    assert main(["score", f"FREE={a}", f"HELD={a}@0.003"]) == 0
    free, held = capsys.readouterr().out.splitlines()
    assert free.startswith("FREE  ") and ": 0 / 0" in free
    assert held.startswith("HELD  ") and " / 0.003: 1 / 0" in held
    assert main(["score", f"HELD={a}{suffix}"]) == 2
    assert why in capsys.readouterr().err


def _scored(name: str, score: int, train: int, members: int = 6, min_share: float = 0.003,
            columns=((0, 0, 0, 0), (2, 1), (0, 1, 3, 0))) -> CandidateScore:
    return CandidateScore(name, 0.3, min_share, score, train, columns, (), members=members)


SHIPPED = _scored("S", 3, 4)


@pytest.mark.parametrize("candidate", [_scored("S+x", 2, 4, members=7), _scored("S+x", 3, 3, members=7)],
                         ids=["lower score", "same score, fewer train mistakes"])
def test_a_candidate_better_than_what_ships_wins(candidate):
    verdict = judge(SHIPPED, [SHIPPED, candidate])
    assert verdict.winner == candidate and verdict.line().startswith("rule: S+x replaces what ships")


@pytest.mark.parametrize("candidate, why", [
    (_scored("S+x", 3, 4, members=7), "no better than what ships ('S', 3 / 4)"),
    (_scored("S+x", 1, 5, members=7), "more train mistakes than what ships ('S', 3 / 4)"),
    (_scored("S+x", 1, 31, members=7, columns=((0, 0, 0, 0), (0, 0), (1, 12, 15, 3))), "more than 30 train mistakes"),
    (_scored("S+x", 1, 4, members=7, columns=((0, 0, 0, 0), (0, 0), (4, 0, 0, 0))), "holds 4 mistakes against the "
                                                                                      "first shipped net's 1"),
], ids=["a tie with what ships", "more train mistakes", "over the train guard",
        "one column too far over the first net"])
def test_a_candidate_that_fails_a_bar_does_not_win_and_the_verdict_says_why(candidate, why):
    verdict = judge(SHIPPED, [SHIPPED, candidate])
    assert verdict.winner is None and why in verdict.reason and "'S+x' ranks first" in verdict.reason


def test_only_the_first_ranked_is_held_against_the_bars():
    """lab/decisions/occ22.txt: a first that fails a bar does not let the next one through."""
    first, second = _scored("all ten", 1, 5, members=10), _scored("S+23", 3, 3, members=7)
    verdict = judge(SHIPPED, [SHIPPED, second, first])
    assert verdict.winner is None and "'all ten' ranks first at 1 / 5" in verdict.reason
    assert judge(SHIPPED, [SHIPPED, second]).winner == second


def test_fewer_nets_then_a_larger_min_share_break_ties_and_a_deeper_tie_is_named():
    seven, eight = _scored("seven", 2, 3, members=7), _scored("eight", 2, 3, members=8)
    assert judge(SHIPPED, [eight, seven]).winner == seven
    wider = _scored("wider", 2, 3, members=7, min_share=0.004)
    assert judge(SHIPPED, [seven, wider]).winner == wider
    verdict = judge(SHIPPED, [seven, _scored("twin", 2, 3, members=7)])
    assert verdict.winner is None and "'seven' ties 'twin'" in verdict.reason


def test_the_command_names_the_rules_verdict_and_a_shipped_name_it_does_not_know(tmp_path, capsys):
    save_maps(MEMBER_A, tmp_path / "a.pkl")
    save_maps(MEMBER_B, tmp_path / "b.pkl")
    a, b = tmp_path / "a.pkl", tmp_path / "b.pkl"
    assert main(["score", "--shipped", "A", f"A={a}", f"AB={a}+{b}"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("rule: AB replaces what ships (0 / 1 against what ships ('A', 1 / 1)")
    assert main(["score", "--shipped", "B", f"A={a}"]) == 2
    assert "shipped 'B' is none of the candidates ('A')" in capsys.readouterr().err


def test_a_file_that_is_no_maps_file_is_a_clear_error(tmp_path):
    (tmp_path / "notes.txt").write_text("not maps\n")
    with pytest.raises(CandidateError, match="notes.txt.*not a maps file"):
        load_maps(tmp_path / "notes.txt")
    with pytest.raises(CandidateError, match="missing.pkl.*cannot be read"):
        load_maps(tmp_path / "missing.pkl")


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared real photos are not beside the repository")
def test_the_mean_of_the_members_maps_is_the_shipped_averages_map(tmp_path):
    """What makes scoring member maps honest: the shipped file's map is the mean of its members' maps."""
    from models.recipe.average_nets import main as average_main, member_count
    from lab.experiments.occluder_candidates import member_maps
    from models.recipe.realdata import load_splits
    from vision.occluders import OCCLUDER_FILE

    splits = load_splits(SHARED)
    photos = {"validation": splits["validation"][:1], "train": splits["train"][:1]}
    shipped = member_maps(OCCLUDER_FILE, photos, range(0, 1))
    members = []
    count = member_count(OCCLUDER_FILE)
    assert count == 6  # four members and the two aimed ones (lab/decisions/occ12.txt, occ16.txt)
    for k in range(count):
        path = tmp_path / f"member{k}.onnx"
        average_main(["--take", str(k), str(OCCLUDER_FILE), "--out", str(path)])
        members.append(member_maps(path, photos, range(0, 1)))
    mean = mean_maps(members, [f"member {k}" for k in range(count)])
    assert len(shipped["validation"]) >= 5 and len(shipped["rendered"]) == 2
    for split in ("validation", "rendered", "train"):
        for (case, ours), (same, theirs) in zip(mean[split], shipped[split]):
            assert case.name == same.name
            # the file clips probabilities to [1e-6, 1 - 1e-6] before its logit
            np.testing.assert_allclose(ours, theirs, atol=1e-5)


def _one_cell_maps(row: int, col: int) -> dict:
    """Maps of one covered validation table whose only marked cell is (row, col) at 1.0."""
    covered = np.zeros((20, 20), np.float32)
    covered[row, col] = 1.0
    return {"validation": [(Case("hand", True, None, "composited"), covered)], "rendered": [], "train": []}


def test_pooled_members_marking_neighbouring_cells_agree_in_their_mean():
    apart = [_one_cell_maps(8, 8), _one_cell_maps(9, 10)]
    assert mean_maps(apart, ["a", "b"])["validation"][0][1].max() == 0.5
    pooled = mean_maps([pooled_maps(m, 3) for m in apart], ["a", "b"])["validation"][0][1]
    assert pooled.max() == 1.0 and pooled[7:11, 9].tolist() == [0.5, 1.0, 1.0, 0.5]  # both neighbourhoods hold rows 8-9
    assert pooled[0, 0] == 0.0 and pooled[12, 12] == 0.0  # beyond both neighbourhoods nothing rises


def test_the_pool_command_writes_pooled_maps_and_refuses_an_even_size(tmp_path, capsys):
    save_maps(_one_cell_maps(0, 19), tmp_path / "a.pkl")
    assert main(["pool", str(tmp_path / "a.pkl"), str(tmp_path / "b.pkl")]) == 0
    pooled = load_maps(tmp_path / "b.pkl")["validation"][0][1]
    assert pooled[0:2, 18:20].min() == 1.0 and pooled[2, 17] == 0.0  # a corner cell spreads inward only
    assert main(["pool", str(tmp_path / "a.pkl"), str(tmp_path / "c.pkl"), "--size", "2"]) == 2
    assert "pool size 2 is not an odd number" in capsys.readouterr().err and not (tmp_path / "c.pkl").exists()
    assert main(["pool", str(tmp_path / "a.pkl"), str(tmp_path / "no" / "d.pkl")]) == 2
    assert "its folder does not exist" in capsys.readouterr().err
