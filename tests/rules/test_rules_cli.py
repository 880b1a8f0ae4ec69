"""`tileref check / judge / score`: exit codes, JSON shapes, one-line errors, golden outputs."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, name: str, content) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return str(path)


TURN = {
    "variant": "japan-2017",
    "opened": True,
    "before": [["R5", "R6", "R7"]],
    "after": [["R5", "R6", "R7", "R9"]],
    "rack": ["R9", "K1"],
}


def test_judge_json_shape(capsys, tmp_path):
    code, out, err = run(capsys, "judge", write(tmp_path, "turn.json", TURN), "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"verdict", "played", "taken", "violations", "penalty", "restore"}
    assert data["verdict"] == "penalty"
    assert data["played"] == ["R9"] and data["taken"] == []
    assert data["violations"][0]["rule"] == "invalid-set"
    assert set(data["violations"][0]) == {"rule", "detail"}
    assert data["penalty"] == {"draw": 1, "points": -50}
    assert data["restore"] == {"to_rack": ["R9"], "table": [["R5", "R6", "R7"]]}


def test_judge_human_output_is_short(capsys, tmp_path):
    code, out, _ = run(capsys, "judge", write(tmp_path, "turn.json", TURN))
    assert code == 0
    assert out.splitlines()[0] == "PENALTY (japan-2017)"
    assert len(out.splitlines()) <= 6


def test_check_json_shape_and_exit_code(capsys, tmp_path):
    table = {"sets": [["J", "R5", "R6"], ["R1", "R1", "K1"]]}
    code, out, _ = run(capsys, "check", write(tmp_path, "table.json", table), "--json")
    data = json.loads(out)
    assert code == 1
    assert data["valid"] is False
    assert [(s["tiles"], s["kind"]) for s in data["sets"]] == [(["J", "R5", "R6"], "run"), (["R1", "R1", "K1"], "invalid")]
    assert data["sets"][0]["reason"] is None and "R1 appears twice" in data["sets"][1]["reason"]
    assert data["sets"][0]["jokers"][0]["stands_for"] == "R4"


def test_check_human_output_names_joker_values(capsys):
    code, out, _ = run(capsys, "check", str(EXAMPLES / "tables" / "valid.json"))
    assert code == 0
    assert "joker R4" in out and "table valid" in out


def test_score_json_shape(capsys):
    code, out, _ = run(capsys, "score", str(EXAMPLES / "games" / "world-unopened.json"), "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"winner", "scores", "wins"}
    code, out, _ = run(capsys, "score", str(EXAMPLES / "games" / "classic-empty-rack.json"), "--json")
    assert set(json.loads(out)) == {"winner", "scores"}


@pytest.mark.parametrize(
    "command, content, words",
    [
        pytest.param("judge", {**TURN, "after": [["R5", "X9"]]}, "'X9'", id="unknown-tile-code"),
        pytest.param("judge", "{not json", "malformed JSON", id="malformed-json"),
        pytest.param("judge", {**TURN, "variant": "monopoly"}, "'monopoly'", id="unknown-variant"),
        pytest.param("judge", {**TURN, "after": [["R9", "R9", "R9"]]}, "'R9' appears 3 times", id="tile-three-times"),
        pytest.param("judge", {**TURN, "rack": ["R5", "R5"]}, "'R5' appears 3 times", id="rack-and-table-over-count"),
        pytest.param("judge", {k: v for k, v in TURN.items() if k != "opened"}, "missing 'opened'", id="missing-key"),
        pytest.param("judge", {**TURN, "opened": "yes"}, "'opened'", id="opened-not-bool"),
        pytest.param("judge", [1, 2], "JSON object", id="not-an-object"),
        pytest.param("check", {"sets": "R5 R6 R7"}, "list of sets", id="sets-not-a-list"),
        pytest.param(
            "score",
            {"variant": "classic", "players": ["A", "B"], "starter": "Z", "end": "empty-rack", "winner": "A", "racks": {"B": []}},
            "starter 'Z'",
            id="unknown-starter",
        ),
        pytest.param(
            "score",
            {"variant": "classic", "players": ["A", "B"], "starter": "A", "end": "draw", "racks": {}},
            "'draw'",
            id="unknown-end",
        ),
        pytest.param(
            "score",
            {"variant": "classic", "players": ["A", "B"], "starter": "A", "end": "empty-rack", "winner": "A", "racks": {"A": ["R1"], "B": []}},
            "still holds tiles",
            id="winner-with-tiles",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, command, content, words):
    code, out, err = run(capsys, command, write(tmp_path, "input.json", content), "--json")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"tileref {command}: ")
    assert words in err
    assert "Traceback" not in err


def test_missing_file_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "judge", str(tmp_path / "nowhere.json"))
    assert code == 2 and "does not exist" in err and "nowhere.json" in err


def test_club_ruleset_file_overrides_the_variant(capsys, tmp_path):
    rules = write(tmp_path, "club.toml", 'name = "club"\nextends = "japan-2017"\npenalty_points = 20\npenalty_draw = 2\n')
    code, out, _ = run(capsys, "judge", write(tmp_path, "turn.json", TURN), "--json", "--ruleset", rules)
    assert code == 0
    assert json.loads(out)["penalty"] == {"draw": 2, "points": -20}


def test_bad_club_ruleset_exits_2(capsys, tmp_path):
    rules = write(tmp_path, "club.toml", 'name = "club"\nseconds_per_turns = 20\n')
    code, _, err = run(capsys, "judge", write(tmp_path, "turn.json", TURN), "--ruleset", rules)
    assert code == 2 and "'seconds_per_turns'" in err


def test_console_script_runs_the_readme_main_job():
    # the installed entry point, as a user runs it
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "judge", str(EXAMPLES / "turns" / "japan-relief.json"), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["verdict"] == "relieved"


EXAMPLE_FILES = sorted(
    [("judge", p) for p in (EXAMPLES / "turns").glob("*.json")]
    + [("check", p) for p in (EXAMPLES / "tables").glob("*.json")]
    + [("score", p) for p in (EXAMPLES / "games").glob("*.json")]
)


@pytest.mark.parametrize("command, path", [pytest.param(c, p, id=f"{c}-{p.stem}") for c, p in EXAMPLE_FILES])
def test_bundled_examples_match_golden_output(capsys, command, path):
    code, out, err = run(capsys, command, str(path), "--json")
    assert code in (0, 1), err
    golden = GOLDEN / f"{command}-{path.stem}.json"
    assert json.loads(out) == json.loads(golden.read_text(encoding="utf-8"))


def test_judge_takes_the_table_at_the_alarm_japan_2017_000(capsys, tmp_path):
    """000: after the alarm no tile may leave the rack; R9 laid after it goes back and the turn stands."""
    turn = {**TURN, "after": [["R5", "R6", "R7", "R8"], ["R9", "R10", "R11"]], "rack": ["R8", "R9", "R10", "R11"],
            "at_alarm": [["R5", "R6", "R7", "R8"]]}
    code, out, err = run(capsys, "judge", write(tmp_path, "turn.json", turn), "--json")
    data = json.loads(out)
    assert code == 0 and err == "" and data["after_alarm"] == ["R9", "R10", "R11"], data
    assert data["played"] == ["R8"] and data["verdict"] == "legal", data
    code, out, _ = run(capsys, "judge", write(tmp_path, "turn.json", turn))
    assert "after the alarm" in out and "R9 R10 R11" in out


@pytest.mark.parametrize("skipped, informed", [pytest.param(True, True, id="skipped-for-a-rearrangement"),
                                               pytest.param(False, False, id="countdown-started")])
def test_judge_takes_the_timer_skip_japan_2017_000(capsys, tmp_path, skipped, informed):
    turn = {**TURN, "after": [["R4", "R5", "R6"], ["R7", "R8", "R9"]], "before": [["R5", "R6", "R7", "R8"]],
            "rack": ["R4", "R9"], "timer_skipped": skipped}  # two tiles and a split: not a simple turn
    code, out, _ = run(capsys, "judge", write(tmp_path, "turn.json", turn), "--json")
    rules = [v["rule"] for v in json.loads(out)["violations"]]
    assert code == 0 and ("timer-skipped" in rules) is informed, rules


def test_judge_refuses_a_timer_skip_that_is_not_true_or_false(capsys, tmp_path):
    code, _, err = run(capsys, "judge", write(tmp_path, "turn.json", {**TURN, "timer_skipped": "yes"}))
    assert code == 2 and "'yes'" in err and "timer_skipped" in err
