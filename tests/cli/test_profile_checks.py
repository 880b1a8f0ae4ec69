"""A set profile is checked as it is read, before any photo is read or any game recorded: every
weight in range, numbers where numbers belong, fitted to the shipped classifier. `read`, `play`
and `demo` refuse a bad one with exit 2 and one line naming the file; a fitted profile still loads."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller import cli
from vision.codes import CLASS_COUNT
from vision.errors import ProfileError
from vision.models import CLASSIFIER_FILE
from vision.profile import MAX_PROFILE_VALUE, PROFILE_FORMAT, PROFILE_VERSION, file_sha256, load_profile

ROOT = Path(__file__).resolve().parents[2]
EMBEDDING = 128  # what the shipped classifier's embedding output holds


def profile_document(**changes) -> dict:
    document = {"format": PROFILE_FORMAT, "version": PROFILE_VERSION, "name": "club set",
                "classifier_sha256": file_sha256(CLASSIFIER_FILE), "layout": "default", "photos": ["set.png"],
                "tiles": 106, "fit_accuracy": {"before": 0.5, "after": 0.9}, "notes": [],
                "weight": [[0.01] * EMBEDDING for _ in range(CLASS_COUNT)], "bias": [0.0] * CLASS_COUNT}
    document.update(changes)
    return document


def absurd_weight() -> list:
    weight = [[0.01] * EMBEDDING for _ in range(CLASS_COUNT)]
    weight[3][17] = 1e38
    return weight


PROFILES = {
    "fitted.json": profile_document(),
    "absurd.json": profile_document(weight=absurd_weight()),
    "absurd-bias.json": profile_document(bias=[-5e3] + [0.0] * (CLASS_COUNT - 1)),
    "other-classifier.json": profile_document(classifier_sha256="ab" * 32),
    "not-a-digest.json": profile_document(classifier_sha256="shipped"),
    "text-weight.json": profile_document(weight=[["0.01"] * EMBEDDING for _ in range(CLASS_COUNT)]),
    "bool-bias.json": profile_document(bias=[True] * CLASS_COUNT),
    "text-tiles.json": profile_document(tiles="106"),
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("profiles")
    for name, document in PROFILES.items():
        (d / name).write_text(json.dumps(document), encoding="utf-8")
    (d / "nan.json").write_text(json.dumps(profile_document()).replace('"bias": [0.0', '"bias": [NaN'))
    (d / "not-images").mkdir()
    for i in range(2):
        (d / "not-images" / f"{i:04d}.jpg").write_text("this is not a photo\n")
    return d


def test_a_fitted_profile_loads(folder):
    profile = load_profile(folder / "fitted.json")
    assert profile.weight.shape == (CLASS_COUNT, EMBEDDING) and profile.tiles == 106


@pytest.mark.parametrize("name, words", [
    ("absurd.json", "weight[3][17] = 1e+38"),
    ("absurd-bias.json", "bias[0] = -5000 is"),
    ("nan.json", "bias[0] = nan"),
    ("other-classifier.json", "was fitted to classifier sha256 abababababab"),
    ("not-a-digest.json", "'shipped'"),
    ("text-weight.json", "weight[0][0] is '0.01'"),
    ("bool-bias.json", "bias[0] is True"),
    ("text-tiles.json", "tiles '106'"),
], ids=lambda value: value.split(".")[0] if value.endswith(".json") else "")
def test_a_bad_profile_is_refused_as_it_is_read(folder, name, words):
    with pytest.raises(ProfileError) as caught:
        load_profile(folder / name)
    assert name in str(caught.value) and words in str(caught.value)
    assert f"±{MAX_PROFILE_VALUE:g}" in str(caught.value) or "absurd" not in name


def run_process(argv, cwd, timeout=30) -> subprocess.CompletedProcess:
    env = {**os.environ, "TILEREF_LOG_DIR": str(Path(cwd) / "logs"), "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run([sys.executable, "-m", "controller.cli", *argv], cwd=cwd, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tileref {' '.join(argv)} did not stop within {timeout} s")


@pytest.mark.parametrize("profile", ["absurd.json", "other-classifier.json"])
def test_demo_with_a_bad_profile_stops_at_once_and_records_nothing(folder, profile):
    done = run_process(["demo", "--profile", profile, "--out", f"demo-{profile}"], folder)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and profile in done.stderr
    assert not (folder / f"demo-{profile}" / "demo.sqlite").exists()


@pytest.mark.parametrize("command", [
    ["read", "--profile", "{p}", "not-images/0000.jpg"],
    ["play", "--camera", "not-images", "--timer", "x", "--players", "Ann,Ben", "--db", "p.sqlite", "--profile", "{p}"],
], ids=["read", "play"])
@pytest.mark.parametrize("profile", ["absurd.json", "other-classifier.json"])
def test_read_and_play_refuse_a_bad_profile_before_reading(folder, capsys, monkeypatch, command, profile):
    monkeypatch.chdir(folder)
    monkeypatch.setenv("TILEREF_LOG_DIR", str(folder / "logs"))
    capsys.readouterr()
    code = cli.main([part.replace("{p}", profile) for part in command])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert profile in err
    assert not (folder / "p.sqlite").exists()
