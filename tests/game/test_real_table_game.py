"""A whole game watched on a real-looking table, end to end through `tileref play`.

The table is controller/demo_games/wood-game.json: a wooden top and tile faces cut from real photos
(controller/demo/scene_data/), arms reaching in from any side with any skin tone. `play`
runs as its own process with a folder as its camera and the emulated box on a pty; this test
is the people at the table: it watches the records, drops into the folder the frames a
camera app would (an arm resting over the table for a few frames, then the still table with
sensor noise), and presses the box's buttons. `play` asks its referee questions on stdin,
which is closed here: a doubt ends `play` with an error instead of hanging the test.

What it shows: every verdict is the scripted one, every table read is the table laid, the
penalty's restore is refused while wrong and accepted when right, the racks laid open are read
and the game is scored, and the record's hash chain holds. The faces were chosen as ones the
shipped reader reads (models/recipe/scene_assets.py): this is a test of the game flow on a real-looking
table, not a measure of the reader.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2

from controller.demo_games import bundled_game
from controller.demo.recorded_game import GameScript, RecordedTable
from controller.demo.scene import Scene
from controller.game.events import (
    GameScored, RackRevealed, RefereeCorrection, RestoreChecked, StartOrderDrawn, TableRead, TurnEnded, TurnJudged,
    TurnStarted,
)
from controller.game.judging import same_table
from controller.game.machine import GameModel, State, TableState, apply
from controller.records import Records
from controller.records.reports.moves import check_notation, game_notation_of, game_reading
from controller.records.reports.notation import format_notation
from firmware_bridge.emulator_process import EmulatorProcess

SCRIPT = bundled_game("wood-game")
HAND_FRAMES = 3  # an arm resting over the table: still frames, so it is the check for something over it that refuses them
STILL_FRAMES = 4  # then the table alone, each frame with its own sensor noise
CLOCK_RATE = 15.0  # box seconds per real second: the 60 s turn that runs out takes 4 s
FIRST_PRESS = 0.4  # s after the turn is recorded: the clock is started just after
PRESS_AGAIN = 1.5  # s: a press that reached the box before its clock started was dropped; press again
STALL = 60.0  # s without a new event: the game is stuck
GAME_LIMIT = 300.0  # s for the whole game


class FolderTable(RecordedTable):
    """The recorded game's table as a camera app gives it: JPEG snapshots dropped into a folder,
    each written under a hidden name and renamed when complete."""

    def __init__(self, script: GameScript, press, folder: Path) -> None:
        super().__init__(script, press)
        self.folder = folder
        self.written = 0
        self.lays = 0
        self.restore_lays = 0  # lays while the table is being restored: each is waited for, never carried
        self.restore_steps: dict[int, int] = {}  # turn: restore attempts the camera refused

    def observe(self, model: GameModel, event) -> None:
        """As a recorded table, except that a restore attempt is changed only once the camera has
        refused it (from another process, a refusal of the table as it lay before may come first)."""
        if model.state is not State.RESTORING:
            super().observe(model, event)
            return
        restoring = self.turn_script(model.turn).restoring
        step = self.restore_steps.get(model.turn, 0)
        if isinstance(event, RestoreChecked) and not event.matches and step < len(restoring) and \
                same_table(codes(event.tiles, event.sets), tuple(tuple(m) for m in restoring[step].codes()))[0]:
            step = self.restore_steps[model.turn] = step + 1
        lays = self.lays
        self.lay(restoring[step] if step < len(restoring) else self.table_before(model.turn))
        self.restore_lays += self.lays - lays

    def lay(self, scene: Scene) -> None:
        if scene == self.scene:
            return
        self.scene = scene
        self.lays += 1
        for _ in range(HAND_FRAMES):
            self.drop(scene.with_hand())
        for _ in range(STILL_FRAMES):
            self.drop(scene)

    def drop(self, scene: Scene) -> None:
        self.written += 1
        ok, data = cv2.imencode(".jpg", self.renderer.frame(scene, self.written), [cv2.IMWRITE_JPEG_QUALITY, 92])
        assert ok
        name = f"{self.written:06d}.jpg"
        (self.folder / f".{name}").write_bytes(data.tobytes())
        os.replace(self.folder / f".{name}", self.folder / name)


def read_events(db: Path):
    # read only, as a referee's page reads: a watcher that opened the file to write could hold the lock
    # that play, making the file, waits on
    try:
        with Records(db, create=False, read_only=True) as records:
            return records.events(records.latest_game())
    except Exception:  # the other process is still creating the file
        return None


def play_the_game(db: Path, table: FolderTable, box: EmulatorProcess, player: subprocess.Popen, log: Path):
    """Watch the records and act as the people at the table until the game is over."""
    def stuck(why: str) -> AssertionError:
        return AssertionError(f"{why}; play said:\n{log.read_text(errors='replace')[-4000:]}")

    model, seen = GameModel(), 0
    started = last_progress = time.monotonic()
    press: tuple[int, str, float] | None = None  # (turn, seat button, when to press)
    while model.state is not State.FINISHED:
        now = time.monotonic()
        ended = player.poll() is not None  # checked before the read: play may write its last events, then exit
        if now - last_progress > STALL or now - started > GAME_LIMIT:
            raise stuck(f"no progress in state {model.state.value} (turn {model.turn})")
        if press is not None and now >= press[2]:
            box.press(press[1])
            press = (press[0], press[1], now + PRESS_AGAIN)
        events = read_events(db)
        if events is None or len(events) == seen:
            if ended:
                raise stuck(f"play ended (exit {player.returncode}) in state {model.state.value}")
            time.sleep(0.05)
            continue
        for event in events[seen:]:
            model = apply(model, event)
            table.observe(model, event)
            if isinstance(event, TurnStarted):
                scripted = table.turn_script(model.turn)
                assert scripted.player == model.player, f"turn {model.turn}: the script has {scripted.player}"
                table.lay(scripted.table)  # the player plays, then ends the turn (or the clock runs out)
                if scripted.action == "press":
                    press = (model.turn, str(model.current + 1), time.monotonic() + FIRST_PRESS)
            if isinstance(event, TurnEnded) and press is not None and press[0] == event.turn:
                press = None
        seen = len(events)
        last_progress = time.monotonic()
    return events


def codes(tiles, sets) -> TableState:
    return TableState(tuple(tiles), tuple(sets))


def test_a_whole_game_on_a_real_looking_table_through_play(tmp_path):
    script = GameScript.load(SCRIPT)
    assert len(script.turns) >= 20 and len(script.players) == 4
    assert script.layout.background == "wood" and script.layout.faces == "photo"
    frames = tmp_path / "camera"
    frames.mkdir()
    db, log = tmp_path / "club.sqlite", tmp_path / "play.log"
    started = time.perf_counter()
    with EmulatorProcess(clock_rate=CLOCK_RATE) as box:
        table = FolderTable(script, box.press, frames)
        table.drop(Scene(()))  # the empty table before anyone sits down
        command = [sys.executable, "-m", "controller.cli", "play", "--camera", str(frames), "--timer", box.port,
                   "--variant", script.variant, "--players", ",".join(script.players), "--db", str(db)]
        with open(log, "wb") as out:
            player = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
            try:
                events = play_the_game(db, table, box, player, log)
                player.wait(timeout=30)
            finally:
                if player.poll() is None:
                    player.send_signal(signal.SIGINT)
                    try:
                        player.wait(timeout=30)
                    except subprocess.TimeoutExpired:
                        player.kill()
                        player.wait()
    seconds = time.perf_counter() - started
    output = log.read_text(errors="replace")
    assert player.returncode == 0, output[-4000:]

    # the start order was read off the table
    drawn = next(e for e in events if isinstance(e, StartOrderDrawn))
    assert [code for _, code in drawn.draws] == list(script.start_draw), drawn

    # every verdict is the scripted one, and every table read is the table laid
    verdicts = [e for e in events if isinstance(e, TurnJudged)]
    assert [(v.player, v.outcome) for v in verdicts] == [(t.player, t.expect) for t in script.turns]
    reads = [e for e in events if isinstance(e, TableRead) and e.purpose == "turn"]
    assert len(reads) == len(script.turns)
    for n, (read, turn) in enumerate(zip(reads, script.turns), start=1):
        same, differences = same_table(codes(read.tiles, read.sets), tuple(tuple(m) for m in turn.table.codes()))
        assert same and not read.doubts, f"turn {n}: {differences} {read.doubts}"
    assert not [e for e in events if isinstance(e, RefereeCorrection)]

    # the penalty: the wrong restore is refused, the right one accepted by the camera
    penalty = next(n for n, t in enumerate(script.turns, start=1) if t.expect == "penalty")
    first = events.index(verdicts[penalty - 1])
    checks = [e for e in events[first:] if isinstance(e, RestoreChecked)]
    checks = checks[: next(k for k, c in enumerate(checks) if c.matches) + 1]
    assert checks[-1].matches and not checks[-1].by_referee
    wrong = script.turns[penalty - 1].restoring[0]
    assert any(same_table(codes(c.tiles, c.sets), tuple(tuple(m) for m in wrong.codes()))[0]
               for c in checks[:-1]), [c.differences for c in checks]

    # the game ends: the winner's rack is empty, the others are read off the table and scored
    revealed = {e.player: e for e in events if isinstance(e, RackRevealed)}
    assert set(revealed) == set(script.racks)
    for name, rack in script.racks.items():
        assert sorted(revealed[name].codes) == sorted(rack) and revealed[name].expected == len(rack), revealed[name]
    scored = next(e for e in events if isinstance(e, GameScored))
    value = {name: sum(30 if c == "J" else int(c[1:]) for c in rack) for name, rack in script.racks.items()}
    assert scored.end == "empty-rack" and scored.winner == script.turns[-1].player
    assert dict(scored.scores) == {**{n: -v for n, v in value.items()}, scored.winner: sum(value.values())}

    # the record holds together
    with Records(db, create=False) as records:
        assert records.verify(records.latest_game()).ok
        # its notation (docs/notation.md) reads back as what the events say, line by line
        notation = game_notation_of(records, records.latest_game())
        assert check_notation(format_notation(notation), notation,
                              game_reading(records.recorded(records.latest_game()))) == len(verdicts)

    # the arms over the table were waited out: an arm in a frame or two keeps the table "moving" for the
    # eyes (a look rests on half a second of still frames), so the tables above stay right. At a turn's
    # end the arm may already have been watched out while the turn ran (the look carries that watch, and
    # nothing is said); a restore is waited for afresh, so each restore laid is waited out aloud
    assert table.restore_lays and output.count("waiting: table moving") >= table.restore_lays, output[-4000:]
    print(f"\n{len(verdicts)} turns judged, {table.written} frames written, {seconds:.1f} s")
