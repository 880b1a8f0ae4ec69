"""`--json` on the commands that report: one JSON object on standard output (what a game says while
it plays goes to standard error), its fields true to the records; bad input still exits 2 with one
line on standard error and no object. One demo game is recorded for the whole module."""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from controller import cli
from controller.game.machine import fold
from controller.records import Records


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def run_json(*args: str, code: int = 0) -> dict:
    got, out, err = run(*args, "--json")
    assert got == code, err
    return json.loads(out)  # the whole of standard output is one object


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[Path, dict, str]:
    out = tmp_path_factory.mktemp("json-demo")
    code, stdout, stderr = run("demo", "--out", out, "--quiet", "--json")
    assert code == 0, stderr
    return out / "demo.sqlite", json.loads(stdout), stderr


def test_demo_prints_one_summary_object_and_its_progress_on_stderr(demo):
    db, summary, stderr = demo
    assert "demo finished" in stderr and "records:" in stderr
    with Records(db, create=False, read_only=True) as records:
        model = fold(records.events(summary["game"]))
        assert summary["events"] == records.head(summary["game"])[0] == summary["check"]["events"]
    assert summary["state"] == model.state.value == "finished" and summary["turns"] == model.turn
    assert summary["scores"] == dict(model.scores) and summary["winner"] == model.winner
    assert max(summary["scores"], key=summary["scores"].get) == summary["winner"]
    assert sum(summary["penalties"].values()) == len(summary["penalty_turns"]) >= 1
    assert summary["check"]["ok"] and summary["check"]["status"] == "intact"
    assert len(summary["audit_pages"]) == summary["turns"] and all(Path(p).is_file() for p in summary["audit_pages"])


def test_verify_reports_each_game_and_a_tampered_one(demo, tmp_path):
    db, summary, _ = demo
    held = run_json("verify", "--db", db)
    assert held["all_hold"] and held["tampered"] == 0 and [g["game"] for g in held["games"]] == [summary["game"]]
    assert held["games"][0]["head"] == summary["check"]["head"]
    copy = tmp_path / "edited.sqlite"
    shutil.copy(db, copy)
    with contextlib.closing(sqlite3.connect(copy)) as raw, raw:
        raw.execute("UPDATE events SET payload = replace(payload, '\"Ben\"', '\"Bob\"') WHERE game_id = 1 AND seq = 1")
    broken = run_json("verify", "--db", copy, code=3)
    game = broken["games"][0]
    assert not broken["all_hold"] and broken["tampered"] == 1
    assert game["status"] == "tampered" and not game["ok"] and game["first_bad_seq"] == 1 and game["problem"]


def test_export_import_and_verify_a_record_file(demo, tmp_path):
    db, summary, _ = demo
    inline = run_json("export", "--db", db)
    assert inline["out"] is None and inline["record"]["head"]["events"] == summary["events"]
    record = tmp_path / "game.json"
    written = run_json("export", "--db", db, "--out", record)
    assert "record" not in written and json.loads(record.read_text())["head"] == inline["record"]["head"]
    target = tmp_path / "club.sqlite"
    first = run_json("import", record, "--db", target)
    again = run_json("import", record, "--db", target)
    assert (first["written"], again["written"]) == (True, False) and first["check"]["head"] == summary["check"]["head"]
    assert first["check"]["trust"] == "unknown"  # the new club has no keyring yet
    checked = run_json("verify", "--record", record)
    assert checked["game"]["ok"] and checked["game"]["events"] == summary["events"]


def test_correct_scores_again_with_the_rack_as_laid_open(demo, tmp_path):
    db, summary, _ = demo
    copy = tmp_path / "corrected.sqlite"
    shutil.copy(db, copy)
    with Records(copy, create=False, read_only=True) as records:
        player, tiles = next((p, t) for p, t in fold(records.events(1)).revealed if t)
    result = run_json("correct", "--db", copy, "--rack", player, "--tiles", " ".join(tiles))
    assert result["scored_again"] and result["rack"] == player and result["tiles"] == list(tiles)
    assert result["scores"] == summary["scores"]  # the same tiles: the same score


def test_bad_input_exits_2_with_one_line_and_no_object(demo, tmp_path):
    db, _, _ = demo
    code, out, err = run("correct", "--db", db, "--rack", "Nobody", "--tiles", "R5", "--json")
    assert code == 2 and out == "" and err.count("\n") == 1 and "'Nobody'" in err
    code, out, err = run("verify", "--db", tmp_path / "missing.sqlite", "--json")
    assert code == 2 and out == "" and "missing.sqlite" in err


def test_key_new_and_show_agree(tmp_path):
    made = run_json("key", "new", "--out", tmp_path / "t.key")
    shown = run_json("key", "show", "--key", made["public"])
    assert shown["fingerprint"] == made["fingerprint"] and Path(made["private"]).is_file()


def test_calibrate_shows_its_layout(tmp_path):
    layout = run_json("calibrate", "--show-layout")
    assert layout["tiles"] == 106 and len(layout["text"].split()) == layout["tiles"]


def every_action(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("tileref",)):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield (*path, name), "(the command)", helps.get(name)
                yield from every_action(sub, (*path, name))
        elif not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            yield path, "/".join(action.option_strings) or action.dest, action.help


def test_every_command_and_option_has_a_help_text():
    parser, _ = cli.build_parser()
    found = list(every_action(parser))
    assert len(found) > 100
    missing = [f"{' '.join(path)} {name}" for path, name, text in found if not text]
    assert missing == []
