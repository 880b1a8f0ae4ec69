"""Every bad input is a clean error. Each case runs one command on one bad input and
expects exit 2 with one line on stderr that names the input, no traceback, no hang.

Most cases run in-process (`controller.cli.main`, fast); the ones that used to hang, and a
sample of the ones that used to print tracebacks, run as real processes with a timeout.
"""
from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from controller import cli

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 20  # seconds a process may take before the case counts as a hang
READ_ONLY = "/sys/tileref-bad-input"  # refused to every user, root included

GAME = {"variant": "classic", "players": ["Ann", "Ben"], "starter": "Ann", "end": "empty-rack", "winner": "Ann",
        "racks": {"Ann": [], "Ben": ["R5"]}}
TURN = {"variant": "classic", "opened": True, "before": [], "after": [["R5", "R6", "R7"]]}


def _png_header(width: int, height: int) -> bytes:
    """A PNG that is whole (IHDR, a little IDAT, IEND) but claims `width` x `height` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A folder of bad inputs (and a few good ones to point bad options at)."""
    d = tmp_path_factory.mktemp("bad-input")

    def write(name: str, data) -> None:
        (d / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))

    def table(*codes: str) -> str:
        return json.dumps({"sets": [list(codes)]}, ensure_ascii=True)

    write("deep.json", "[" * 100_000 + "]" * 100_000)
    write("deep-sets.json", '{"sets": ' + "[" * 5_000 + "]" * 5_000 + "}")
    write("superscript.json", table("R5", "R6", "R\u00b2"))
    write("digits5000.json", table("R5", "R6", "R" + "7" * 5000))
    write("int5000.json", '{"sets": ' + "1" * 5000 + "}")  # valid JSON syntax, beyond Python's int limit
    write("arabic-indic.json", table("R\u0665", "R6", "R7"))
    write("full-width.json", table("R\uff15", "R6", "R7"))
    write("empty-set.json", json.dumps({"sets": [[]]}))
    write("sets-string.json", json.dumps({"sets": "R5"}))
    write("list.json", "[1, 2]")
    write("empty.json", "")
    write("garbage.json", b"\x00\xff\xfe\x80garbage")
    write("nan.json", '{"sets": NaN}')
    write("valid.json", table("R5", "R6", "R7"))
    write("judge-superscript.json", json.dumps({**TURN, "after": [["R\u00b9", "R2", "R3"]]}))
    write("judge-digits5000.json", json.dumps({**TURN, "after": [["R" + "1" * 5000, "R2", "R3"]]}))
    write("judge-deep.json", '{"variant": "classic", "opened": true, "before": [], "after": ' + "[" * 3000 + "]" * 3000 + "}")
    write("judge-surrogate.json", json.dumps({**TURN, "rack": ["\ud800"]}))
    write("judge-opened-string.json", json.dumps({**TURN, "opened": "yes"}))
    write("score-surrogate.json", json.dumps({**GAME, "players": ["Ann", "B\ud800n"], "racks": {"Ann": [], "B\ud800n": ["R5"]}}))
    write("score-objects.json", json.dumps({**GAME, "players": [{"name": "Ann"}, {"name": "Ben"}]}))
    write("score-one-player.json", json.dumps({**GAME, "players": ["Ann"], "racks": {"Ann": []}}))
    write("score-five-players.json", json.dumps({**GAME, "players": ["Ann", "Ben", "Cy", "Di", "Ed"],
                                                  "racks": {n: [] for n in ["Ben", "Cy", "Di", "Ed"]}}))
    write("score-superscript.json", json.dumps({**GAME, "racks": {"Ann": [], "Ben": ["K\u00b3"]}}))
    write("score-end.json", json.dumps({**GAME, "end": "over"}))
    write("huge-header.png", _png_header(65535, 65535))
    write("big.png", _png_header(20000, 20000))
    write("garbage.png", os.urandom(2000))
    write("empty.png", b"")
    write("truncated.png", _png_header(100, 100)[:-12])
    write("players.csv", "name\n" + "".join(f"P{i}\n" for i in range(8)))
    write("results-huge.json", '{"results": [{"game": "R1-T1-G1", "winner": "P0", "scores": {"P0": 1e999999999}}]}')
    write("results-digits.json", '{"results": [{"game": "R1-T1-G1", "winner": "P0", "scores": {"P0": ' + "9" * 5000 + "}}]}")
    write("results-deep.json", "[" * 100_000 + "]" * 100_000)
    write("hanchan-deep.json", "{" + '"a":' * 1 + "[" * 100_000 + "]" * 100_000 + "}")
    write("a-file", "not a directory")
    write("hanchan.json", json.dumps({"points": {"A": 45000, "B": 33700, "C": 5000, "D": 16300},
                                      "seat_order": ["A", "B", "C", "D"], "riichi_left": 0, "chombo": {}}))
    write("script-list.json", "[]")
    write("script-nan-rate.json", json.dumps({"variant": "classic", "players": ["Ann", "Ben"], "turns": [],
                                              "clock_rate": float("nan")}))
    write("script-deep.json", "[" * 100_000 + "]" * 100_000)
    (d / "a-folder").mkdir()
    notimages = d / "not-images"
    notimages.mkdir()
    for i in range(3):
        (notimages / f"{i:04d}.jpg").write_text("this is not a photo\n")
    # a records file with one game (just created), for the referee tools
    from controller.game import judging
    from controller.game.journal import GameJournal
    from controller.records import Records

    with Records(d / "game.sqlite") as records:
        GameJournal.start(records, judging.game_created("classic", ("Ann", "Ben")))
    # a tournament event (kuwana, 8 players), for result and import
    assert cli.main(["tournament", "create", "Cup", "--format", "kuwana", "--players", str(d / "players.csv"),
                     "--db", str(d / "t.sqlite")]) == 0
    return d


def in_process(argv, capsys, monkeypatch, work) -> tuple[int, str, str]:
    monkeypatch.chdir(work)
    monkeypatch.setenv("TILEREF_LOG_DIR", str(work / "logs"))
    capsys.readouterr()
    try:
        code = cli.main(argv)
    except SystemExit as exit_:  # argparse
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def check_clean(code, out: str, err: str, needle: str) -> None:
    assert "Traceback" not in out + err
    assert code == 2, f"exit {code}, stderr {err!r}"
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0], f"stderr is not one line: {err!r}"
    assert needle in lines[0], f"{needle!r} not named in {lines[0]!r}"


R = READ_ONLY
CASES = [
    # check
    pytest.param(["check", "deep.json"], "deep.json", id="check-deeply-nested-json"),
    pytest.param(["check", "deep-sets.json"], "deep-sets.json", id="check-deeply-nested-sets"),
    pytest.param(["check", "int5000.json"], "int5000.json", id="check-json-integer-5000-digits"),
    pytest.param(["check", "superscript.json"], "R\u00b2", id="check-superscript-digit"),
    pytest.param(["check", "digits5000.json"], "R777", id="check-tile-code-5000-digits"),
    pytest.param(["check", "arabic-indic.json"], "R\u0665", id="check-arabic-indic-digit"),
    pytest.param(["check", "full-width.json"], "R\uff15", id="check-full-width-digit"),
    pytest.param(["check", "--variant", "", "valid.json"], "''", id="check-variant-empty"),
    pytest.param(["check", "--variant", "chess", "valid.json"], "chess", id="check-variant-unknown"),
    pytest.param(["check", "empty-set.json"], "set 1 is empty", id="check-empty-set"),
    pytest.param(["check", "sets-string.json"], "R5", id="check-sets-not-a-list"),
    pytest.param(["check", "list.json"], "list.json", id="check-top-level-list"),
    pytest.param(["check", "empty.json"], "empty.json", id="check-empty-file"),
    pytest.param(["check", "garbage.json"], "garbage.json", id="check-binary-garbage"),
    pytest.param(["check", "nan.json"], "nan", id="check-nan-sets"),
    pytest.param(["check", "missing.json"], "missing.json", id="check-missing-file"),
    pytest.param(["check", "a-folder"], "a-folder", id="check-directory"),
    pytest.param(["check", "--ruleset", "garbage.json", "valid.json"], "garbage.json", id="check-ruleset-garbage"),
    # judge
    pytest.param(["judge", "judge-deep.json"], "judge-deep.json", id="judge-deeply-nested-json"),
    pytest.param(["judge", "judge-superscript.json"], "R\u00b9", id="judge-superscript-digit"),
    pytest.param(["judge", "judge-digits5000.json"], "R111", id="judge-tile-code-5000-digits"),
    pytest.param(["judge", "judge-surrogate.json"], "surrogate", id="judge-surrogate"),
    pytest.param(["judge", "judge-opened-string.json"], "'yes'", id="judge-opened-not-bool"),
    pytest.param(["judge", "valid.json"], "'variant'", id="judge-missing-field"),
    # score
    pytest.param(["score", "deep.json"], "deep.json", id="score-deeply-nested-json"),
    pytest.param(["score", "score-surrogate.json"], "surrogate", id="score-surrogate-in-name"),
    pytest.param(["score", "score-objects.json"], "players", id="score-players-as-objects"),
    pytest.param(["score", "score-one-player.json"], "got 1", id="score-one-player"),
    pytest.param(["score", "score-five-players.json"], "got 5", id="score-five-players"),
    pytest.param(["score", "score-superscript.json"], "K\u00b3", id="score-superscript-digit"),
    pytest.param(["score", "score-end.json"], "'over'", id="score-bad-end"),
    # read
    pytest.param(["read", "huge-header.png"], "65535x65535", id="read-png-header-65535"),
    pytest.param(["read", "big.png"], "20000x20000", id="read-20000x20000"),
    pytest.param(["read", "garbage.png"], "garbage.png", id="read-binary-garbage"),
    pytest.param(["read", "empty.png"], "empty.png", id="read-empty-file"),
    pytest.param(["read", "truncated.png"], "truncated.png", id="read-truncated"),
    pytest.param(["read", "a-folder"], "a-folder", id="read-directory"),
    pytest.param(["read", "missing.png"], "missing.png", id="read-missing-file"),
    pytest.param(["read", "garbage.png", "--annotate", "out"], "'out'", id="read-annotate-no-extension"),
    pytest.param(["read", "garbage.png", "--annotate", ""], "''", id="read-annotate-empty"),
    pytest.param(["read", "garbage.png", "--annotate", "a-folder"], "a-folder", id="read-annotate-directory"),
    pytest.param(["read", "garbage.png", "--annotate", "nowhere/x.png"], "nowhere", id="read-annotate-missing-dir"),
    pytest.param(["read", "garbage.png", "--profile", "deep.json"], "deep.json", id="read-profile-deep-json"),
    pytest.param(["read", "garbage.png", "--profile", "garbage.json"], "garbage.json", id="read-profile-garbage"),
    pytest.param(["read", "garbage.png", "--profile", "int5000.json"], "int5000.json", id="read-profile-integer-5000-digits"),
    # area
    pytest.param(["area", "missing.png"], "missing.png", id="area-missing-photo"),
    pytest.param(["area", "garbage.png"], "garbage.png", id="area-garbage-photo"),
    pytest.param(["area", "garbage.png", "--corners", "1,2,3"], "1,2,3", id="area-three-numbers"),
    # calibrate
    pytest.param(["calibrate", "huge-header.png", "--out", "p.json"], "65535x65535", id="calibrate-huge-header"),
    pytest.param(["calibrate", "missing.png", "--out", "p.json"], "missing.png", id="calibrate-missing-photo"),
    pytest.param(["calibrate", "--show-layout", "--layout", "a-folder"], "a-folder", id="calibrate-layout-directory"),
    pytest.param(["calibrate", "garbage.png"], "--out", id="calibrate-no-out"),
    # timer
    pytest.param(["timer", "check", "--port", "missing-port"], "missing-port", id="timer-check-missing-port"),
    pytest.param(["timer", "check", "--port", "a-folder"], "a-folder", id="timer-check-directory"),
    pytest.param(["timer", "check", "--port", "x", "--samples", "0"], "--samples 0", id="timer-check-samples-zero"),
    pytest.param(["timer", "check", "--port", "x", "--seconds", "-1"], "--seconds -1", id="timer-check-seconds-negative"),
    pytest.param(["timer", "check", "--port", "x", "--seconds", "1e3"], "1e3", id="timer-check-seconds-not-int"),
    pytest.param(["timer-emulator", "--link", "a-folder"], "a-folder", id="timer-emulator-link-folder"),
    pytest.param(["timer-emulator", "--link", f"{R}"], R, id="timer-emulator-link-read-only"),
    pytest.param(["timer-emulator", "--link", "a-file"], "a-file", id="timer-emulator-link-on-a-file"),
    pytest.param(["timer-emulator", "--link", "nowhere/box"], "nowhere", id="timer-emulator-link-missing-dir"),
    pytest.param(["timer-emulator", "--clock-rate", "nan"], "nan", id="timer-emulator-clock-rate-nan"),
    pytest.param(["timer-emulator", "--clock-rate", "0"], "--clock-rate 0", id="timer-emulator-clock-rate-zero"),
    pytest.param(["timer-emulator", "--control", "mouse"], "mouse", id="timer-emulator-bad-enum"),
    # play (everything refused before a camera or box is opened)
    pytest.param(["play", "--camera", "not-images", "--timer", "x", "--players", "Ann,Ben", "--db", "p.sqlite",
                  "--turn-seconds", "100000"], "100000", id="play-turn-seconds-over-box-max"),
    pytest.param(["play", "--camera", "not-images", "--timer", "x", "--players", "Ann,Ben", "--db", "p.sqlite",
                  "--turn-seconds", "0"], "--turn-seconds", id="play-turn-seconds-zero"),
    pytest.param(["play", "--camera", "not-images", "--timer", "x", "--players", "Ann,Ben", "--db", "p.sqlite",
                  "--clock-rate", "nan"], "nan", id="play-clock-rate-nan"),
    pytest.param(["play", "--camera", "not-images", "--timer", "x", "--players", "Ann,B\x00en", "--db", "p.sqlite"],
                 "\\x00", id="play-nul-in-name"),
    pytest.param(["play", "--camera", "not-images", "--timer", "x", "--players", "Ann", "--db", "p.sqlite"],
                 "Ann", id="play-one-player"),
    pytest.param(["play", "--camera", "not-images", "--timer", "x", "--players", "Ann,Ben", "--db", "p.sqlite",
                  "--variant", "chess"], "chess", id="play-unknown-variant"),
    pytest.param(["play", "--camera", "not-images", "--timer", "x", "--players", "Ann,Ben", "--db", "p.sqlite",
                  "--rules", "garbage.json"], "garbage.json", id="play-rules-garbage"),
    pytest.param(["play", "--camera", "not-images", "--timer", "x", "--players", "Ann,Ben", "--db", "p.sqlite",
                  "--game", "-1"], "-1", id="play-game-negative"),
    pytest.param(["play", "--camera", "not-images", "--timer", "x", "--players", "Ann,Ben", "--db", "p.sqlite"],
                 "not-images", id="play-camera-folder-of-non-images"),
    pytest.param(["play", "--camera", "missing-camera", "--timer", "x", "--players", "Ann,Ben", "--db", "p.sqlite"],
                 "missing-camera", id="play-camera-missing"),
    pytest.param(["play", "--camera", "\u00b2", "--timer", "x", "--players", "Ann,Ben", "--db", "p.sqlite"],
                 "\u00b2", id="play-camera-superscript-index"),
    # audit, replay, correct, verify, key
    pytest.param(["audit", "--db", "game.sqlite", "--turn", "0"], "0", id="audit-turn-zero"),
    pytest.param(["audit", "--db", "game.sqlite", "--turn", "99"], "99", id="audit-turn-not-played"),
    pytest.param(["audit", "--db", "game.sqlite", "--turn", "1", "--game", str(10**30)], str(10**30)[:20],
                 id="audit-game-huge"),
    pytest.param(["audit", "--db", "missing.sqlite", "--turn", "1"], "missing.sqlite", id="audit-missing-db"),
    pytest.param(["audit", "--db", "game.sqlite", "--turn", "x"], "'x'", id="audit-turn-not-a-number"),
    pytest.param(["replay", "--db", "game.sqlite", "--game", "99999999999999999999999", "--no-wait"], "9999",
                 id="replay-game-huge"),
    pytest.param(["replay", "--db", "game.sqlite", "--game", "0", "--no-wait"], "0", id="replay-game-zero"),
    pytest.param(["replay", "--db", "game.sqlite", "--game", "7", "--no-wait"], "7", id="replay-game-missing"),
    pytest.param(["replay", "--db", "missing.sqlite", "--no-wait"], "missing.sqlite", id="replay-missing-db"),
    pytest.param(["correct", "--db", "game.sqlite", "--rack", "Ann", "--tiles", "R\u00b2"], "R\u00b2",
                 id="correct-superscript-digit"),
    pytest.param(["correct", "--db", "game.sqlite", "--rack", "Ann", "--tiles", "R" + "5" * 5000], "R555",
                 id="correct-tile-code-5000-digits"),
    pytest.param(["correct", "--db", "game.sqlite", "--rack", "Nobody", "--tiles", "R5"], "Nobody",
                 id="correct-unknown-rack"),
    pytest.param(["correct", "--db", "game.sqlite", "--game", "-3", "--rack", "Ann", "--tiles", "R5"], "-3",
                 id="correct-game-negative"),
    pytest.param(["verify", "--db", "game.sqlite", "--game", "0"], "0", id="verify-game-zero"),
    pytest.param(["verify", "--db", "game.sqlite", "--public-key", "garbage.json"], "garbage.json", id="verify-key-garbage"),
    pytest.param(["verify", "--db", "a-file"], "a-file", id="verify-not-records"),
    pytest.param(["key", "new", "--out", f"{R}/table.key"], R, id="key-new-read-only"),
    pytest.param(["key", "show", "--key", "garbage.json"], "garbage.json", id="key-show-garbage"),
    pytest.param(["key", "show", "--key", "a-folder"], "a-folder", id="key-show-directory"),
    # demo (refused before the game runs)
    pytest.param(["demo", "--out", "a-file"], "a-file", id="demo-out-on-a-file"),
    pytest.param(["demo", "--out", f"{R}/demo"], R, id="demo-out-read-only"),
    pytest.param(["demo", "--script", "script-list.json", "--out", "d"], "script-list.json", id="demo-script-list"),
    pytest.param(["demo", "--script", "script-deep.json", "--out", "d"], "script-deep.json", id="demo-script-deep"),
    pytest.param(["demo", "--script", "int5000.json", "--out", "d"], "int5000.json", id="demo-script-integer-5000-digits"),
    pytest.param(["demo", "--script", "script-nan-rate.json", "--out", "d"], "nan", id="demo-script-nan-clock-rate"),
    pytest.param(["demo", "--script", "missing.json", "--out", "d"], "missing.json", id="demo-script-missing"),
    pytest.param(["demo", "--script", "a-folder", "--out", "d"], "a-folder", id="demo-script-directory"),
    pytest.param(["demo", "--profile", "garbage.json", "--out", "d"], "garbage.json", id="demo-profile-garbage"),
    # tournament, mahjong
    pytest.param(["tournament", "create", "E\x00x", "--format", "kuwana", "--players", "players.csv",
                  "--db", "t2.sqlite"], "\\x00", id="tournament-create-nul-in-name"),
    pytest.param(["tournament", "create", "E\udcffx", "--format", "kuwana", "--players", "players.csv",
                  "--db", "t2.sqlite"], "\\udcff", id="tournament-create-undecodable-name"),
    pytest.param(["tournament", "create", "E", "--format", "chess", "--players", "players.csv",
                  "--db", "t2.sqlite"], "chess", id="tournament-create-bad-format"),
    pytest.param(["tournament", "create", "E", "--format", "kuwana", "--players", "a-folder",
                  "--db", "t2.sqlite"], "a-folder", id="tournament-create-players-directory"),
    pytest.param(["tournament", "create", "E", "--format", "kuwana", "--players", "garbage.json",
                  "--db", "t2.sqlite"], "garbage.json", id="tournament-create-players-garbage"),
    pytest.param(["tournament", "create", "E", "--format", "kuwana", "--players", "players.csv", "--set",
                  "final_games=1e999999999", "--db", "t2.sqlite"], "1e999999999", id="tournament-create-setting-huge"),
    pytest.param(["tournament", "create", "E", "--format", "kuwana", "--players", "players.csv", "--set",
                  "final_games=999999999", "--db", "t2.sqlite"], "999999999", id="tournament-create-setting-too-many"),
    pytest.param(["tournament", "create", "E", "--format", "kuwana", "--players", "players.csv", "--set",
                  "final_games=nan", "--db", "t2.sqlite"], "nan", id="tournament-create-setting-nan"),
    pytest.param(["tournament", "draw", "Cup", "--seed", str(2**64), "--db", "t.sqlite"], str(2**64)[:10],
                 id="tournament-draw-seed-huge"),
    pytest.param(["tournament", "draw", "Cup", "--seed", "-1", "--db", "t.sqlite"], "-1", id="tournament-draw-seed-negative"),
    pytest.param(["tournament", "show", "Cup", "--round", "0", "--db", "t.sqlite"], "0", id="tournament-show-round-zero"),
    pytest.param(["tournament", "show", "Nope", "--db", "t.sqlite"], "Nope", id="tournament-show-unknown-event"),
    pytest.param(["tournament", "disqualify", "Cup", "--round", "1", "--table", str(10**40), "--reason", "x",
                  "--db", "t.sqlite"], "1000000000", id="tournament-disqualify-table-huge"),
    pytest.param(["tournament", "result", "Cup", "R1-T1-G1", "--score", "P0=" + "9" * 5000, "--winner", "P0",
                  "--db", "t.sqlite"], "P0", id="tournament-result-score-5000-digits"),
    pytest.param(["tournament", "result", "Cup", "R1-T1-G1", "--score", "P0=nan", "--winner", "P0",
                  "--db", "t.sqlite"], "nan", id="tournament-result-score-nan"),
    pytest.param(["tournament", "import-json", "Cup", "results-digits.json", "--db", "t.sqlite"],
                 "results-digits.json", id="tournament-import-json-5000-digit-int"),
    pytest.param(["tournament", "import-json", "Cup", "results-deep.json", "--db", "t.sqlite"],
                 "results-deep.json", id="tournament-import-json-deep"),
    pytest.param(["tournament", "import-csv", "Cup", "garbage.json", "--db", "t.sqlite"], "garbage.json",
                 id="tournament-import-csv-garbage"),
    pytest.param(["tournament", "import-play", "Cup", "--game", "R1-T1-G1", "--play-db", "game.sqlite",
                  "--play-game", "0", "--db", "t.sqlite"], "0", id="tournament-import-play-game-zero"),
    pytest.param(["mahjong", "score", "hanchan-deep.json"], "hanchan-deep.json", id="mahjong-score-deep-json"),
    pytest.param(["mahjong", "score", "list.json"], "list.json", id="mahjong-score-list"),
    pytest.param(["mahjong", "score", "garbage.json"], "garbage.json", id="mahjong-score-garbage"),
    pytest.param(["mahjong", "score", "a-folder"], "a-folder", id="mahjong-score-directory"),
    pytest.param(["mahjong", "score", "hanchan.json", "--rules", "health-mahjong", "--rank-points",
                  "1e999999999,1,-1,-1e999999999"], "1e999999999", id="mahjong-rank-points-huge"),
    # clock
    pytest.param(["clock", "shogi", "--timer", "x", "--players", "A,B", "--minutes", "inf", "--db", "c.sqlite"],
                 "inf", id="clock-minutes-inf"),
    pytest.param(["clock", "shogi", "--timer", "x", "--players", "A,B", "--minutes", "nan", "--db", "c.sqlite"],
                 "nan", id="clock-minutes-nan"),
    pytest.param(["clock", "shogi", "--timer", "x", "--players", "A,B", "--minutes", "1e9", "--db", "c.sqlite"],
                 "1e+09", id="clock-minutes-huge"),
    pytest.param(["clock", "shogi", "--timer", "x", "--players", "A,B", "--seconds", "0", "--db", "c.sqlite"],
                 "--seconds 0", id="clock-seconds-zero"),
    pytest.param(["clock", "shogi", "--timer", "x", "--players", "A", "--db", "c.sqlite"], "A", id="clock-one-player"),
    pytest.param(["clock", "shogi", "--timer", "missing-port", "--players", "A,B", "--db", "c.sqlite"],
                 "missing-port", id="clock-missing-port"),
    pytest.param(["clock", "shogi", "--timer", "x", "--event", "Cup", "--stage", "0", "--table", "1",
                  "--db", "t.sqlite"], "0", id="clock-stage-zero"),
    pytest.param(["clock", "go", "--timer", "x"], "go", id="clock-unknown-game"),
    # commands the storage and web work adds (export, import, serve, club): the natural cases
    pytest.param(["export", "--db", "missing.sqlite"], "missing.sqlite", id="export-missing-db"),
    pytest.param(["export", "--db", "game.sqlite", "--game", "7"], "7", id="export-game-missing"),
    pytest.param(["import", "--db", "imported.sqlite", "garbage.json"], "garbage.json", id="import-garbage"),
    pytest.param(["import", "--db", "imported.sqlite", "deep.json"], "deep.json", id="import-deeply-nested-json"),
    pytest.param(["serve", "--db", "game.sqlite", "--web", "nonsense"], "nonsense", id="serve-web-not-host-port"),
    pytest.param(["club", "serve", "--db", "missing.sqlite"], "missing.sqlite", id="club-serve-missing-db"),
    # the game notation and the highlights reel
    pytest.param(["highlights", "--db", "missing.sqlite", "--out", "reel"], "missing.sqlite", id="highlights-missing-db"),
    pytest.param(["highlights", "--db", "game.sqlite", "--game", "7", "--out", "reel"], "7", id="highlights-game-missing"),
    pytest.param(["verify", "--notation", "missing.txt", "--db", "game.sqlite"], "missing.txt",
                 id="verify-notation-missing-file"),
    # argparse itself: one line too
    pytest.param(["check"], "TABLE.json", id="check-no-file"),
    pytest.param(["nonsense"], "nonsense", id="unknown-command"),
    # player registry, ratings, the published site, the league
    pytest.param(["player", "show", "Nobody", "--db", "missing.sqlite"], "missing.sqlite", id="player-show-missing-db"),
    pytest.param(["player", "add", "", "--db", "players.sqlite"], "''", id="player-add-empty-name"),
    pytest.param(["ratings", "--db", "garbage.json"], "garbage.json", id="ratings-db-not-a-database"),
    pytest.param(["publish", "--out", "site", "--db", "missing.sqlite"], "missing.sqlite", id="publish-missing-db"),
    pytest.param(["league", "table", "--db", "garbage.json"], "garbage.json", id="league-db-not-a-database"),
    pytest.param(["league", "add-club", "Birch", "--source", "missing.sqlite", "--director-key", "no-key.pub",
                  "--db", "league.sqlite"], "no-key.pub", id="league-add-club-key-missing"),
]


@pytest.mark.parametrize("argv, needle", CASES)
def test_bad_input_exits_2_with_one_line_naming_it(argv, needle, work, capsys, monkeypatch):
    code, out, err = in_process(argv, capsys, monkeypatch, work)
    check_clean(code, out, err, needle)


def test_every_command_has_bad_input_cases():
    parser, _ = cli.build_parser()
    commands = set(next(a for a in parser._actions if a.dest == "command").choices)
    covered = {param.values[0][0] for param in CASES}
    assert commands <= covered, f"commands without a bad-input case: {sorted(commands - covered)}"


# ------------------------------------------------------------------ real processes


def run_process(argv, cwd, timeout=TIMEOUT) -> subprocess.CompletedProcess:
    env = {**os.environ, "TILEREF_LOG_DIR": str(Path(cwd) / "logs"), "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run([sys.executable, "-m", "controller.cli", *argv], cwd=cwd, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tileref {' '.join(argv)[:120]} hung for {timeout} s")


PROCESS_CASES = [
    # used to hang
    pytest.param(["play", "--camera", "not-images", "--timer", "emulator", "--players", "Ann,Ben",
                  "--db", "hang.sqlite"], "not-images", id="play-camera-folder-of-non-images-no-hang"),
    pytest.param(["tournament", "result", "Cup", "R1-T1-G1", "--score", "P0=1e999999999", "--winner", "P0",
                  "--db", "t.sqlite"], "1e999999999", id="tournament-result-score-1e999999999-no-hang"),
    pytest.param(["tournament", "import-json", "Cup", "results-huge.json", "--db", "t.sqlite"], "1E+999999999",
                 id="tournament-import-json-1e999999999-no-hang"),
    # used to print tracebacks
    pytest.param(["check", "deep.json"], "deep.json", id="process-check-deep-json"),
    pytest.param(["score", "score-surrogate.json"], "surrogate", id="process-score-surrogate"),
    pytest.param(["read", "huge-header.png"], "65535x65535", id="process-read-png-header-65535"),
    pytest.param(["timer-emulator", "--link", "a-folder"], "a-folder", id="process-timer-emulator-link-folder"),
]


@pytest.mark.parametrize("argv, needle", PROCESS_CASES)
def test_bad_input_as_a_process(argv, needle, work):
    done = run_process(argv, work)
    check_clean(done.returncode, done.stdout, done.stderr, needle)


def test_the_tournament_was_not_changed_by_refused_results(work):
    from controller.tournament import TournamentStore

    with TournamentStore(str(work / "t.sqlite")) as store:
        assert not store.load("Cup").results
