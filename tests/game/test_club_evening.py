"""A recorded club evening, end to end: three table games one after another in one club database, each
through `tileref play` as its own process with a folder as its camera and the emulated box on a pty
(a classic game, a japan-2017 game whose clocks start at the player's first press, a warsaw table
game by the world rules with its redeal window), the last rack of one game laid open one tile short,
which the referee types at the console, and one Ctrl-C in the middle of a game, resumed with
`play --resume`. Every game must finish scored, every record must hold, and the console must say
it all in words (no name the code uses inside, tests/internal_names.py).

The people at the table are this test (tests/game/test_real_table_game.py's FolderTable): it watches
the records, drops into the camera folder the frames a camera app would, and presses the buttons.
Each game is short (Ann opens, Ben goes out with all fourteen tiles) so the evening runs in CI.
"""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from controller.demo.recorded_game import GameScript
from controller.demo.scene import Scene
from controller.game.events import GameScored, RackRevealed, RefereeCorrection, TurnJudged, TurnStarted
from controller.game.machine import GameModel, State, apply
from controller.records import Records
from firmware_bridge.emulator_process import EmulatorProcess
from test_real_table_game import STILL_FRAMES, FolderTable
from tests.internal_names import INTERNAL_NAME

PLAYERS = ("Ann", "Ben")
OPENING = [{"at": [0, 0], "tiles": ["K10", "K11", "K12"]}]  # Ann's 33 points
GOING_OUT = OPENING + [{"at": [1, 0], "tiles": [f"R{n}" for n in range(1, 8)]},  # Ben's 14 tiles, 56 points
                       {"at": [2, 0], "tiles": [f"B{n}" for n in range(1, 8)]}]
ANN_RACK = ("O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9", "K1", "K2")  # 14 dealt, 3 laid
CLOCK_RATE = 15.0  # box seconds per real second
FIRST_PRESS = 0.4  # s after the turn is recorded
PRESS_AGAIN = 1.5  # s: a press before the clock ran (or japan-2017's first press) is followed by another
STALL = 45.0  # s without a new event: the game is stuck


def script(variant: str, rack: tuple[str, ...] = ANN_RACK) -> GameScript:
    return GameScript.from_dict({
        "variant": variant, "players": list(PLAYERS), "starter": "Ann",
        "layout": {"width": 1280, "height": 720, "tile_width": 40, "seed": 11},
        "turns": [{"player": "Ann", "action": "press", "expect": "legal", "table": OPENING},
                  {"player": "Ben", "action": "press", "expect": "legal", "table": GOING_OUT}],
        "racks": {"Ann": list(rack)},
    }, f"the {variant} game")


class Table:
    """One game at the table: the `play` process (and its resumed run), the camera folder, the box."""

    def __init__(self, tmp: Path, name: str, game_script: GameScript, box: EmulatorProcess, db: Path) -> None:
        self.tmp, self.name, self.box, self.db = tmp, name, box, db
        self.log = tmp / f"{name}.log"
        self.runs = 0
        self.table = FolderTable(game_script, box.press, self.new_folder())
        self.table.drop(Scene(()))  # the empty table before anyone sits down
        self.command = ["--variant", game_script.variant, "--players", ",".join(PLAYERS), "--starter", "Ann"]
        self.process = self.start(self.command)

    def new_folder(self) -> Path:
        """A camera folder for each run of `play`: a new run takes a folder's images from the first."""
        folder = self.tmp / f"{self.name}-camera-{self.runs}"
        folder.mkdir()
        return folder

    def start(self, rules: list[str]) -> subprocess.Popen:
        self.runs += 1
        command = [sys.executable, "-m", "controller.cli", "play", "--camera", str(self.table.folder),
                   "--timer", self.box.port, "--db", str(self.db), *rules]
        with open(self.log, "ab") as out:
            return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def interrupt_and_resume(self, game_id: int) -> None:
        """Ctrl-C, as the organiser would press it; then `play --resume` on a camera still seeing the table."""
        self.process.send_signal(signal.SIGINT)
        assert self.process.wait(timeout=30) == 130, self.output()[-3000:]
        assert f"tileref play --resume --db {self.db} --game {game_id}" in self.output(), self.output()[-3000:]
        self.table.folder = self.new_folder()
        for _ in range(STILL_FRAMES):
            self.table.drop(self.table.scene)
        self.process = self.start(["--resume", "--game", str(game_id)])

    def type(self, line: str) -> None:
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def latest_game(db: Path):
    """The latest game's id and events (None, None while the other process is creating the file)."""
    try:
        with Records(db, create=False) as records:
            game = records.latest_game()
            return game, records.events(game)
    except Exception:
        return None, None


def play_one(table: Table, earlier: set, interrupt_after_turn: int | None = None, rack_to_type: tuple[str, ...] = ()):
    """Act as the people at the table until the game is scored (`earlier`: the evening's games before
    it); the game's id and events."""
    model, seen, events, game_id = GameModel(), 0, [], None
    last_progress = time.monotonic()
    press: tuple[int, str, float] | None = None
    interrupted = typed = False
    while model.state is not State.FINISHED:
        now = time.monotonic()
        ended = table.process.poll() is not None
        if now - last_progress > STALL:
            raise AssertionError(f"{table.name}: no progress in {model.state.value}; play said:\n{table.output()[-3000:]}")
        if press is not None and now >= press[2]:
            table.box.press(press[1])
            press = (press[0], press[1], now + PRESS_AGAIN)
        if rack_to_type and not typed and "rack read as" in table.output():
            table.type(" ".join(rack_to_type))  # the referee types the rack laid open one tile short
            typed = True
        latest, found = latest_game(table.db)
        if found is None or latest in earlier or len(found) == seen:  # this game not recorded yet, or nothing new
            if ended:
                raise AssertionError(f"{table.name}: play ended ({table.process.returncode}) in {model.state.value}:\n"
                                     f"{table.output()[-3000:]}")
            time.sleep(0.05)
            continue
        game_id, events = latest, found
        for event in events[seen:]:
            model = apply(model, event)
            table.table.observe(model, event)
            if isinstance(event, TurnStarted):
                table.table.lay(table.table.turn_script(model.turn).table)
                press = (model.turn, str(model.current + 1), time.monotonic() + FIRST_PRESS)
            if isinstance(event, TurnJudged) and press is not None and press[0] == event.turn:
                press = None
        seen = len(events)
        last_progress = time.monotonic()
        if interrupt_after_turn is not None and not interrupted and any(
                isinstance(e, TurnJudged) and e.turn == interrupt_after_turn for e in events):
            interrupted = True
            table.interrupt_and_resume(game_id)
    table.process.wait(timeout=30)
    assert table.process.returncode == 0, table.output()[-3000:]
    return game_id, events


def test_a_club_evening_of_three_table_games_finishes_every_game_scored(tmp_path):
    db = tmp_path / "club.sqlite"
    started = time.perf_counter()
    evening = (("classic", script("classic"), {"interrupt_after_turn": 1}),
               ("japan-2017", script("japan-2017"), {}),
               ("warsaw", script("world", rack=ANN_RACK[:-1]), {"rack_to_type": ANN_RACK}))
    games = {}
    with EmulatorProcess(clock_rate=CLOCK_RATE) as box:
        for name, game_script, how in evening:
            table = Table(tmp_path, name, game_script, box, db)
            try:
                games[name] = (*play_one(table, {g for g, _, _ in games.values()}, **how), table.output())
            finally:
                table.close()
    seconds = time.perf_counter() - started

    with Records(db, create=False) as records:
        assert [records.verify(game).ok for game, _, _ in games.values()] == [True, True, True]
        assert len({game for game, _, _ in games.values()}) == 3
    for name, (game, events, output) in games.items():
        verdicts = [(e.player, e.outcome) for e in events if isinstance(e, TurnJudged)]
        assert verdicts == [("Ann", "legal"), ("Ben", "legal")], (name, verdicts)
        scored = [e for e in events if isinstance(e, GameScored)]
        assert len(scored) == 1 and scored[0].winner == "Ben" and scored[0].end == "empty-rack", (name, scored)
        ann = dict(scored[0].scores)["Ann"]
        assert ann == -sum(int(code[1:]) for code in ANN_RACK), (name, scored[0].scores)
    # the console said it all in words: no name the code uses inside
    for name, (_game, _events, output) in games.items():
        named = [line for line in output.splitlines() if INTERNAL_NAME.search(line)]
        assert not named, (name, named)
    # the Ctrl-C: said how to go on, and the resumed run finished the game it stopped
    assert "stopped: game" in games["classic"][2]
    # the rack laid one tile short was never scored as read: the referee typed it
    shown = [e for e in games["warsaw"][1] if isinstance(e, RackRevealed)]
    assert [len(e.codes) for e in shown] == [len(ANN_RACK) - 1] and shown[0].expected == len(ANN_RACK)
    typed = [e for e in games["warsaw"][1] if isinstance(e, RefereeCorrection)]
    assert len(typed) == 1 and typed[0].rack == ANN_RACK, typed
    print(f"\nthree games, {seconds:.1f} s")
    assert seconds < 120, f"the evening took {seconds:.0f} s"
