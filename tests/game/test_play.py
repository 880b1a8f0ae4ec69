"""`tileref play` wired to real parts: a folder of images as the camera, an emulated box on its own
pty that the test presses (as players would), the real reader, and an SQLite file; then a
second `play --resume` continues the same game."""
from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import pytest

from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from controller.game.events import TurnJudged, TurnStarted
from controller.game.machine import State, fold
from controller.records import Records
from firmware_bridge.emulator_process import EmulatorProcess
from game_helpers import play_command, wait_for


def test_play_with_a_folder_camera_and_the_box_on_a_pty(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    renderer = SceneRenderer(SceneLayout(seed=5))
    cv2.imwrite(str(frames / "0001.png"), renderer.render(Scene.of([{"tiles": ["K10", "K11", "K12"], "at": [0, 0]}])))
    db = tmp_path / "club.sqlite"
    with EmulatorProcess(clock_rate=5) as box:
        player = subprocess.Popen(play_command(frames, box.port, db, "--variant", "classic"), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            wait_for(db, lambda ev: fold(ev).state is State.DEALING)
            box.press("A")  # dealt
            wait_for(db, lambda ev: fold(ev).state is State.TURN_RUNNING)
            time.sleep(1.0)  # the turn is recorded first, then the clock starts: a player presses after that
            box.press("1")  # Ann ends her turn: the three tiles are her opening
            events = wait_for(db, lambda ev: any(isinstance(e, TurnJudged) for e in ev) and
                              fold(ev).state is State.TURN_RUNNING)
        finally:
            player.send_signal(signal.SIGINT)
            output = player.communicate(timeout=30)[0].decode()
        assert player.returncode == 130, output
        verdict = next(e for e in events if isinstance(e, TurnJudged))
        assert verdict.player == "Ann" and verdict.outcome == "legal" and sorted(verdict.played) == ["K10", "K11", "K12"]

        # the table stays as it is; Ben's turn was running when play stopped: resume it
        resumed = subprocess.Popen([sys.executable, "-m", "controller.cli", "play", "--camera", str(frames),
                                    "--timer", box.port, "--db", str(db), "--resume"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            wait_for(db, lambda ev: sum(isinstance(e, TurnJudged) for e in ev) == 1 and
                     any(e.kind.value == "timer-incident" for e in ev))
            time.sleep(1.0)
            box.press("2")  # Ben plays nothing: he draws
            events = wait_for(db, lambda ev: sum(isinstance(e, TurnJudged) for e in ev) == 2)
        finally:
            resumed.send_signal(signal.SIGINT)
            output = resumed.communicate(timeout=30)[0].decode()
    second = [e for e in events if isinstance(e, TurnJudged)][1]
    assert second.player == "Ben" and second.outcome == "draw", output
    with Records(db, create=False) as records:
        assert len(records.games()) == 1 and records.verify(1).ok
        model = fold(records.events(1))
    assert model.racks == (11, 15) and model.tiles_counted == 106


@pytest.mark.parametrize("spec", ["/dev/no-such-serial-port"])
def test_play_with_a_missing_timer_port_is_bad_input(tmp_path, spec, capsys):
    from controller.cli import main

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "a.png"), SceneRenderer(SceneLayout(width=320, height=200, tile_width=20)).render(Scene(())))
    code = main(["play", "--camera", str(frames), "--timer", spec, "--players", "A,B", "--db", str(tmp_path / "g.sqlite")])
    assert code == 2 and spec in capsys.readouterr().err


REAL_PHOTOS = Path(__file__).resolve().parents[1] / "vision" / "data"


@pytest.mark.parametrize("photo", ["melds.jpg", "full_grid.jpg"], ids=["melds-on-wood", "full-grid-on-wood"])
def test_play_on_a_real_wooden_table_photo_reaches_the_first_turn_at_once(tmp_path, photo):
    """The first wait of a game has no earlier frame to compare with: the table must settle on the
    net's word alone (the skin-colour rule of old took the wood for a hand and waited 600 frames)."""
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(REAL_PHOTOS / photo, frames / "0001.jpg")
    db = tmp_path / "club.sqlite"
    with EmulatorProcess(clock_rate=5) as box:
        player = subprocess.Popen(play_command(frames, box.port, db, "--variant", "classic"), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            wait_for(db, lambda ev: fold(ev).state is State.DEALING)
            box.press("A")  # dealt
            events = wait_for(db, lambda ev: fold(ev).state is State.TURN_RUNNING, timeout=30.0)
        finally:
            player.send_signal(signal.SIGINT)
            output = player.communicate(timeout=30)[0].decode()
    assert any(isinstance(e, TurnStarted) for e in events), output
    assert "something over the table" not in output and "did not settle" not in output, output


def kuwana_event(db: Path, tmp_path: Path, trusted: bool = True) -> tuple[str, ...]:
    """A japan-2017 event (kuwana) with its first round drawn into `db`; the seats of table 1. `trusted`:
    the database's keyring trusts this table's key (a game for an event is played only then)."""
    from controller.cli import main
    from controller.records.keyring import KeyRole
    from controller.records.signing import default_table_key, new_key_pair
    from controller.tournament import TournamentStore

    players = tmp_path / "players.csv"
    players.write_text("name\n" + "".join(f"{p}\n" for p in ("Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "Hal")))
    assert main(["tournament", "create", "Club night", "--format", "kuwana", "--players", str(players),
                 "--db", str(db)]) == 0
    # the director signs the event's log with a key of their own; the table signs its games with its own
    director = new_key_pair(tmp_path / "director.key")
    if trusted:
        with Records(db) as records:
            records.keyring().trust(director.public, "director", KeyRole.DIRECTOR)
            records.keyring().trust(default_table_key().public, "table 1")
    assert main(["tournament", "draw", "Club night", "--seed", "7", "--db", str(db),
                 "--director-key", str(director.path)]) == 0
    with TournamentStore(str(db)) as store:
        return tuple(store.load("Club night").round(1).tables[0].seats)


def test_play_for_an_event_without_variant_plays_by_the_events_rules(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), SceneRenderer(SceneLayout(seed=5)).render(Scene(())))
    db = tmp_path / "club.sqlite"
    seats = kuwana_event(db, tmp_path)
    with EmulatorProcess(clock_rate=5) as box:
        player = subprocess.Popen([sys.executable, "-m", "controller.cli", "play", "--camera", str(frames),
                                   "--timer", box.port, "--db", str(db), "--event", "Club night", "--stage", "1",
                                   "--table", "1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            events = wait_for(db, lambda ev: len(ev) >= 1)
        finally:
            player.send_signal(signal.SIGINT)
            output = player.communicate(timeout=30)[0].decode()
    created = events[0]
    assert created.variant == "japan-2017" and created.players == seats, output
    assert dict(created.ruleset)["name"] == "japan-2017"


@pytest.mark.parametrize("variant", ["classic", "world"])
def test_play_for_an_event_with_another_variant_is_refused_naming_both(tmp_path, capsys, variant):
    from controller.cli import main

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), SceneRenderer(SceneLayout(seed=5)).render(Scene(())))
    db = tmp_path / "club.sqlite"
    kuwana_event(db, tmp_path, trusted=False)  # (a keyring would make the records' tables)
    capsys.readouterr()
    code = main(["play", "--camera", str(frames), "--timer", "/dev/no-such-serial-port", "--db", str(db),
                 "--event", "Club night",
                 "--stage", "1", "--table", "1", "--variant", variant])
    err = capsys.readouterr().err
    assert code == 2 and f"'{variant}'" in err and "'japan-2017'" in err and "'Club night'" in err, err
    assert len(err.strip().splitlines()) == 1
    import sqlite3

    tables = {name for (name,) in sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "games" not in tables  # nothing of a game was written


def test_play_for_an_event_with_a_key_its_database_does_not_trust_is_refused_before_the_game(tmp_path, capsys):
    """The standings and replay count a result only from a trusted table: playing on with another key
    would lose the game's result at the end, so it is refused at the start, nothing recorded."""
    from controller.cli import main
    from controller.records.signing import default_table_key

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), SceneRenderer(SceneLayout(seed=5)).render(Scene(())))
    db = tmp_path / "club.sqlite"
    kuwana_event(db, tmp_path, trusted=False)
    capsys.readouterr()
    code = main(["play", "--camera", str(frames), "--timer", "emulator", "--db", str(db), "--event", "Club night",
                 "--stage", "1", "--table", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert default_table_key().public.fingerprint in err and "tileref key trust" in err and "'Club night'" in err
    with Records(db, create=False) as records:
        assert records.games() == []
