"""Whole scripted games through the real game flow, each under its own camera: are the verdicts right?

    python -m benchmarks.bench_games [--games 6] [--turns 52] [--seed 43] [--jobs 1] [--quick]
                                     [--area found|marked] [--cameras 2,5]

Each game is scripted first (benchmarks/game_scripts.py): three players, opening melds, new melds,
runs extended and split, groups broken up into runs, jokers laid and won back, draws, and about one
turn in eight running out of time with an invalid table; every verdict the script claims is the
rules core's own on the true table. The game is then played through the real `TableRunner`: the
real eyes watch the frames of benchmarks/game_camera.py (train-split faces on a real table top,
a box of spare tiles and its lid beside the table, a hand over the table whenever tiles change,
one camera per game: turned, tilted, blurred, 1280x720 or 1920x1080, warm or cold light, a light
change in mid-game), the real reader (onnxruntime) reads, the rules core judges, and every event
goes into a real SQLite record. The play area is found by the table itself on its clear frame as
the game begins and kept for the game, or (`--area marked`) marked once by the referee on the table
top's corners, as a club does on the referee page. Buttons are
pressed on the emulated timer box (its own process, on a pty, read through pyserial by the real
driver) in every turn.

Where the eyes ask the arbiter, the arbiter's button is pressed; where the reader leaves a doubt or
a penalty rests on tiles seen nowhere, a referee who sees the true table answers. Each is counted
as a referee prompt. A turn whose verdict or table differs from the script is counted, and the
game is then set back on the script's track (the true table and counts posed into the runner's
model, as benchmarks/bench_turn.py poses a game, and the codes of the last table the eyes judged
corrected, as a referee's correction leaves them), so one misreading is counted once.

Prints per camera and overall: turns, verdicts right, false penalties (a penalty the rules did
not give), missed penalties, tables misread (the table read of the turn, as recorded with the
referee's answers to its doubts, differs from the script's), referee prompts per turn, and
seconds from the button press (or the time running out) to the verdict being recorded: median and
p95. A player presses as the hand leaves the table (the first frame without it), the hardest case
for this figure. The seconds are a live camera's: a frame every 1/30 s, a frame the runner takes
longer over holding up the next as long, the time the bench spends drawing frames left out (a real
camera draws none); the wall seconds, drawing included, follow in brackets. Targets: 0 wrong
verdicts, at most one prompt per 20 turns, median press -> verdict <= 1 s.
"""
from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
import time
from collections import Counter
from functools import partial
from pathlib import Path

import numpy as np

from benchmarks.harness import load_average, machine, median, options, percentile, pool_map
from benchmarks.game_camera import CONDITIONS, ENTER, GRID_COLUMNS, GRID_ROWS, GameCamera, Hand, hand_path, spare_faces
from benchmarks.game_scripts import KINDS, Grid, Meld, scripted_game
from controller.adapters.display import ConsoleDisplay
from controller.adapters.errors import AdapterError
from controller.adapters.reader import VisionReader
from controller.adapters.timer import open_timer
from controller.demo.recorded_game import FPS, GameScript, RecordedTable, RecordedTimer
from controller.demo.scene import Scene
from controller.game import judging
from controller.game.events import (
    NO_TILE, HeldAnswer, RefereeCorrection, RestoreChecked, TableRead, TurnEndCause, TurnEnded, TurnJudged, TurnStarted,
)
from controller.game.machine import State, TableState
from controller.records import Records
from controller.table.eyes import LIES_AS_READ
from controller.table import STEPS, RunnerSettings, TableDevices, TableRunner
from controller.table.looking import Looking
from controller.table.ports import SignalKind

PLAYERS = ("Ann", "Ben", "Cat")
CLOCK_RATE = 60.0  # box seconds per real second: a 60 s turn that runs out takes 1 s
FRAME_BUDGET = 900  # camera frames without a recorded event: the game is stuck (30 s of camera time)
TARGET_PROMPTS = 1 / 20
TARGET_MEDIAN_S = 1.0


class GameStuck(Exception):
    """The game made no progress for FRAME_BUDGET frames."""


class LiveClock:
    """The time at a table with a live camera: frame k is taken at k/FPS; the runner, asking for a
    frame, gets the newest one taken (or waits for the next), so a frame it took long over lets the
    frames taken meanwhile go by unseen. The time the bench spends drawing frames is left out: a
    real camera draws none."""

    def __init__(self) -> None:
        self.frame = 0  # the frame handed over last
        self.handed: float | None = None  # perf_counter when it was handed over

    def next_frame(self) -> int:
        """The frame a live camera hands over now."""
        now = self.now()
        return max(self.frame + 1, int(now * FPS + 1e-9))

    def handed_over(self, frame: int) -> None:
        self.frame, self.handed = frame, time.perf_counter()

    def now(self) -> float:
        at = self.frame / FPS
        return at if self.handed is None else at + time.perf_counter() - self.handed


class GameWorld(RecordedTable):
    """The people at the table and the camera: the recorded game's world seen through a GameCamera at a
    live camera's pace (`LiveClock`). A player presses the button as the hand leaves the table: the first
    frame without the hand."""

    def __init__(self, script: GameScript, press, camera: GameCamera, seed: int) -> None:
        super().__init__(script, press)
        self.camera = camera
        self.items: list[tuple[Scene, Hand | None]] = []
        self.rng = np.random.default_rng(seed)
        self.idle_frames = 0
        self.clock = LiveClock()
        self.button: str | None = None  # pressed as the hand leaves

    def read(self) -> np.ndarray:
        due = self.clock.next_frame()
        hand = None
        while self.frames < due:  # the world goes on through the frames nobody looked at
            self.frames += 1
            self.idle_frames += 1
            hand = None
            if self.items:
                self.scene, hand = self.items.pop(0)
            if self.button is not None and hand is None and not self.items:
                button, self.button = self.button, None
                self.clock.handed_over(self.frames)  # the press is timed at this frame, however late it is seen
                self.press(button)
        if self.idle_frames > FRAME_BUDGET:
            self.idle_frames = 0
            raise GameStuck(f"{FRAME_BUDGET} frames without progress")
        image = self.camera.frame(self.scene, self.frames, hand)
        self.clock.handed_over(self.frames)
        return image

    def press_after_play(self, button: str) -> None:
        self.button = button

    def lay(self, scene: Scene) -> None:
        """A hand comes in over the table as it lies, the tiles change under it, and it leaves."""
        before = self.items[-1][0] if self.items else self.scene
        if scene == before:
            return
        arm = self.camera.arm(self.rng)
        path = hand_path(arm)
        self.items = [(before, Hand(arm, d)) for d in path[:ENTER]] + [(scene, Hand(arm, d)) for d in path[ENTER:]]
        self.items.append((scene, None))

    def set_table(self, scene: Scene) -> None:
        self.items, self.scene, self.button = [], scene, None

    def observe(self, model, event) -> None:
        self.idle_frames = 0
        super().observe(model, event)


class TruthReferee:
    """A referee who looks at the true table: a doubtful tile is the true tile there (or no tile)."""

    def __init__(self, world: GameWorld, verdicts: dict[int, str], prompts: list[tuple[int, str]]) -> None:
        self.world, self.verdicts, self.prompts = world, verdicts, prompts

    def _truth_at(self, x: float, y: float) -> str:
        truth = self.world.camera.true_table(self.world.scene.melds)
        best = min(truth.tiles, key=lambda t: (t[1] - x) ** 2 + (t[2] - y) ** 2, default=None)
        reach = 0.6 * self.world.camera.tile_pixels
        return best[0] if best is not None and (best[1] - x) ** 2 + (best[2] - y) ** 2 <= reach ** 2 else NO_TILE

    def settle_table(self, model, table, doubts):
        self.prompts.append((model.turn, "doubt"))
        return tuple((d.index, self._truth_at(*table.tiles[d.index][1:])) for d in doubts), "the true table"

    def held_penalty(self, model, held):
        self.prompts.append((model.turn, "held penalty"))
        if self.verdicts.get(model.turn) == "penalty":
            return HeldAnswer.CONFIRMED, (), "the rules give a penalty on the true table"
        pending = model.pending or TableState()
        changes = tuple((i, code) for i, (read, x, y) in enumerate(pending.tiles)
                        if (code := self._truth_at(x, y)) != read)
        return HeldAnswer.TILES_THERE, changes, "the tiles are there"

    def notice_table(self, model, table):
        return (), "nothing noticed"

    def check_rack(self, player, codes, expected, doubts):
        return None, "accepted"


class BenchLooking(Looking):
    """The runner's looking, with the arbiter pressing the button whenever the eyes ask."""

    def __init__(self, runner: BenchRunner, looking: Looking) -> None:
        super().__init__(runner, runner.eyes, looking.watch, looking.photos)
        self.pressed = False  # the arbiter pressed for the eyes' ask in this wait, not accepted yet

    def begin_wait(self, carry=False, keep_unsure=False):
        self.pressed = False
        super().begin_wait(carry, keep_unsure)

    def read_table_timed(self, frame, afresh=False):
        reading, elapsed = super().read_table_timed(frame, afresh)
        if LIES_AS_READ in reading.warnings:
            self.table.kept.append(self.table.model.turn)
        return reading, elapsed

    def arbiter_accepts(self, covered, frame) -> bool:
        # the runner's own check polls the box with a zero timeout, which never reads the port
        # (SerialTimer.wait(0.0)), so the press is waited for here, as long as it takes to cross the pty
        runner = self.table
        if not self.pressed:
            runner.asks.append((runner.model.turn + (runner.model.state is State.TURN_READY), covered.reason))
            runner.arbiter_press("A")
            self.pressed = True
        deadline = time.monotonic() + 2.0
        while (left := deadline - time.monotonic()) > 0:
            signal = runner.devices.timer.wait(left)
            if signal is not None and signal.kind == SignalKind.PRESSED and signal.button == "A":
                self.record_accepted(covered, frame.image, "arbiter button")
                self.pressed = False
                return True
        return False


class BenchRunner(TableRunner):
    """The table runner, its looking the bench's (`BenchLooking`)."""

    asks: list[tuple[int, str]]  # the turn each ask of the eyes came in, and the eyes' reason
    arbiter_press = None
    kept: list[int]  # a turn for each frame whose reading was kept, not made again (`Looking.read_table_timed`)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.looking = BenchLooking(self, self.looking)


def eyes_on_the_track(eyes, true_table: TableState, tile_pixels: float) -> None:
    """After a wrong verdict, the table's eyes as a referee's correction leaves them (`TableEyes.answered`):
    the last table judged holds the true code where a true tile lies under an outline, and no reading is
    kept from it (a table that lies as it lay is read again). Without this, a turn misread once is misread
    again by every following turn that keeps or steadies its reading, and counted again each time."""
    eyes.judged_reading = None
    judged = eyes.judged
    if judged is None or not true_table.tiles:
        return
    centres = np.float64([(x, y) for _, x, y in true_table.tiles])
    changes = []
    for index, (outline, code) in enumerate(zip(judged.tiles, judged.codes)):
        distance = np.hypot(*(centres - np.float64(outline).mean(axis=0)).T)
        nearest = int(np.argmin(distance))
        if distance[nearest] <= tile_pixels / 2 and true_table.tiles[nearest][0] != code:
            changes.append((index, true_table.tiles[nearest][0]))
    eyes.answered(tuple(changes), len(judged.tiles))


def play_game(index: int, turns: int, seed: int, area: str = "found", confirm_area: bool = False) -> dict:
    """One scripted game through the runner; per turn what the script says and what the table did.
    `area`: "found" by the table on its clear frame as the game begins, or "marked" by the referee
    once, on the table top's corners (as
    the referee page's area editor marks it: `VisionReader(area_path=...)`)."""
    from models.recipe.realdata import load_splits

    started = time.perf_counter()
    condition = CONDITIONS[index % len(CONDITIONS)]
    game_seed = seed * 1000 + index
    camera = GameCamera(condition, spare_faces(load_splits()["train"]), game_seed)
    planned = scripted_game(PLAYERS, turns, game_seed, Grid(GRID_ROWS, GRID_COLUMNS))
    script = GameScript.from_dict({
        "variant": "classic", "players": list(PLAYERS), "clock_rate": CLOCK_RATE, "starter": PLAYERS[0],
        "turns": [{"player": t.player, "action": "expire" if t.expired else "press", "expect": t.verdict,
                   "table": t.scene()} for t in planned],
    }, f"scripted game {index}")
    standing: list[tuple[Meld, ...]] = []  # the true table once each turn is over
    table: tuple[Meld, ...] = ()
    for t in planned:
        table = t.melds if t.verdict == "legal" else table
        standing.append(table)
    expected = {n: t.verdict for n, t in enumerate(planned, start=1)}

    rows: list[dict] = []
    ended_at: dict[int, tuple[float, float]] = {}  # wall time, live-camera time
    nan = float("nan")
    judged: dict[int, tuple[str, float]] = {}
    read: dict[int, TableState] = {}
    prompts: list[tuple[int, str]] = []
    asks: list[tuple[int, str]] = []
    kept: list[int] = []
    refused: dict[int, RestoreChecked] = {}
    with tempfile.TemporaryDirectory() as tmp:
        records = Records(Path(tmp) / "game.sqlite")
        game = records.new_game("classic", PLAYERS)
        records.append(game, judging.game_created("classic", PLAYERS))
        timer = open_timer("emulator", CLOCK_RATE)
        pressed_at: list[tuple[float, float]] = [(0.0, 0.0)]  # wall time, live-camera time
        area_path = None
        if area == "marked":
            from vision.area import PlayArea, save_area

            area_path = Path(tmp) / "play-area.json"
            c = camera.condition
            save_area(PlayArea.marked(camera.table_corners(), c.width, c.height), area_path, c.width, c.height)

        def press(button: str) -> None:
            pressed_at[0] = (time.perf_counter(), world.clock.now())
            timer.emulator.press(button)

        world = GameWorld(script, press, camera, game_seed)
        mid = max(1, len(planned) // 2)

        def observe(model, event) -> None:
            now = (time.perf_counter(), world.clock.now())
            if isinstance(event, TurnStarted) and event.turn == mid:
                camera.light_from = world.frames + ENTER  # the room's light changes while the hand rests
            if isinstance(event, TurnEnded):
                ended_at[event.turn] = pressed_at[0] if event.cause is TurnEndCause.BUTTON else now
            if isinstance(event, TableRead) and event.purpose == "turn":
                read[model.turn] = TableState(event.tiles, event.sets)
            if isinstance(event, RefereeCorrection) and model.state is State.TURN_JUDGING and model.pending:
                read[model.turn] = model.pending  # the table read, with the referee's answers to its doubts
            if isinstance(event, TurnJudged):
                judged[event.turn] = (str(event.outcome), *now)
            if isinstance(event, RestoreChecked) and not event.matches:
                refused[model.turn] = event
            world.observe(model, event)

        runner: BenchRunner | None = None
        reader = VisionReader(area_path=None if area_path is None else str(area_path))
        devices = TableDevices(world, RecordedTimer(timer, world, lambda: runner.model), reader,
                               ConsoleDisplay(out=sys.stderr if os.environ.get("BENCH_GAMES_SAY") else open(os.devnull, "w"),
                                              quiet=not os.environ.get("BENCH_GAMES_SAY")),
                               TruthReferee(world, expected, prompts))
        runner = BenchRunner(records, game, devices, RunnerSettings(starter=PLAYERS[0], confirm_area=confirm_area),
                             observer=observe)
        runner.asks, runner.arbiter_press, runner.kept = asks, press, kept
        world.observe(runner.model, None)
        if confirm_area:  # as `TableRunner.run` does before its loop: the area found confirmed on the clear table
            runner.start_table()
        else:  # the area the game is read in
            runner.area.record_area_in_force()
        stuck: set[int] = set()
        checked = 0
        try:
            while True:
                model = runner.model
                if model.state is State.TURN_READY and model.turn > checked:
                    checked = model.turn
                    truth = planned[checked - 1]
                    true_table = camera.true_table(standing[checked - 1])
                    got = judged.get(checked, ("none", nan, nan))
                    seen = read.get(checked)
                    misread = seen is None or not judging.same_table(seen, tuple(m.tiles for m in truth.melds))[0]
                    rows.append({
                        "turn": checked, "kind": truth.kind, "expected": truth.verdict, "got": got[0],
                        "seconds": got[2] - ended_at.get(checked, (nan, nan))[1],
                        "wall_seconds": got[1] - ended_at.get(checked, (nan, nan))[0], "misread": misread,
                        "prompts": sum(1 for t, _ in prompts if t == checked) + sum(1 for t, _ in asks if t == checked),
                        "prompt_kinds": [kind for t, kind in prompts if t == checked]
                        + [f"eyes asked the arbiter: {why}" for t, why in asks if t == checked],
                        "stuck": checked in stuck, "expired": truth.expired, "kept": kept.count(checked),
                    })
                    row = rows[-1]
                    print(f"game {index} turn {checked}/{len(planned)} {truth.kind}: rules {truth.verdict}, table {got[0]}"
                          f"{', misread' if row['misread'] else ''}, {row['prompts']} prompt(s), {row['seconds']:.1f} s",
                          file=sys.stderr, flush=True)
                    same = judging.same_table(model.table, true_table)[0] and got[0] == truth.verdict
                    if not same:  # back on the script's track: the true table and counts, and what the eyes hold
                        runner.model = dataclasses.replace(truth.model, table=true_table)
                        eyes_on_the_track(runner.eyes, true_table, camera.tile_pixels)
                    if checked >= len(planned):
                        break
                if runner.model.state is State.RESTORING and runner.model.turn in refused:
                    # the table lies as it must and the camera refuses it: the arbiter accepts the restore
                    wrong = refused.pop(runner.model.turn)
                    prompts.append((runner.model.turn, "restore refused"))
                    runner.record(RestoreChecked(photo=None, reading=None, matches=True, differences=wrong.differences,
                                                 tiles=wrong.tiles, sets=wrong.sets, by_referee=True, referee="arbiter",
                                                 note="the table is restored; the camera misread it"))
                    runner.restore.last_differences = None
                    continue
                try:
                    STEPS[runner.model.state](runner)
                except GameStuck:
                    if os.environ.get("BENCH_GAMES_SAY"):
                        print(f"stuck in {runner.model.state} turn {runner.model.turn}", file=sys.stderr)
                    turn = max(runner.model.turn, checked + 1)
                    stuck.add(turn)
                    try:
                        timer.stop()
                    except AdapterError:
                        pass  # no countdown was running
                    runner.clock.timer_turn, runner.clock.running, runner.clock.pressed_at = None, False, None
                    runner.model = dataclasses.replace(planned[turn - 1].model, table=camera.true_table(standing[turn - 1]))
                    world.set_table(Scene(standing[turn - 1]))
        finally:
            timer.close()
            records.close()
    from controller.table.looking import CONFIRM_REASON

    return {"index": index, "condition": condition.name, "describe": condition.describe(),
            "confirmations": sum(1 for _, why in asks if why == CONFIRM_REASON),
            "tile_px": camera.tile_pixels, "rows": rows, "seconds": time.perf_counter() - started,
            "reads": (reader.memory.whole_reads, reader.memory.part_reads)}


def summary(name: str, rows: list[dict]) -> str:
    n = len(rows)
    right = sum(r["got"] == r["expected"] for r in rows)
    false_pen = sum(r["got"] == "penalty" and r["expected"] != "penalty" for r in rows)
    missed = sum(r["expected"] == "penalty" and r["got"] != "penalty" for r in rows)
    misread = sum(r["misread"] for r in rows)
    prompts = sum(r["prompts"] for r in rows)
    stuck = sum(r["stuck"] for r in rows)
    seconds = [r["seconds"] for r in rows if r["seconds"] == r["seconds"]]
    wall = [r["wall_seconds"] for r in rows if r["wall_seconds"] == r["wall_seconds"]]
    kinds = Counter(kind for r in rows for kind in r["prompt_kinds"])
    said = f" ({', '.join(f'{kind} {count}' for kind, count in kinds.most_common())})" if kinds else ""
    return (f"{name}: {n} turns, verdicts right {right}/{n}, false penalties {false_pen}, missed penalties {missed}, "
            f"tables misread {misread}, referee prompts {prompts} ({prompts / max(n, 1):.3f} per turn{said}), "
            f"stuck {stuck}, "
            f"press -> verdict median {median(seconds):.2f} s, p95 {percentile(seconds, 0.95):.2f} s (with the bench's "
            f"drawing of frames: median {median(wall):.2f} s)")


def print_game(g: dict) -> None:
    print(f"  {summary(g['condition'], g['rows'])}")
    whole, part = g["reads"]
    print(f"      camera: {g['describe']} (tiles {g['tile_px']:.0f} px wide in the frame's middle); {g['seconds']:.0f} s; "
          f"frames read whole {whole}, only where they changed {part}")
    for r in g["rows"]:
        if r["got"] != r["expected"] or r["stuck"]:
            print(f"      turn {r['turn']} ({r['kind']}): the rules say {r['expected']}, the table judged {r['got']}"
                  + (" (stuck)" if r["stuck"] else "") + f"; {r['kept']} reading(s) kept, not made again")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = options(__doc__, seed=43, jobs="games played at once, each in its own process",
                     quick="one short game (a smoke test)")
    parser.add_argument("--games", type=int, default=len(CONDITIONS), help="games, one camera each (in turn)")
    parser.add_argument("--turns", type=int, default=52, help="turns per game")
    parser.add_argument("--cameras", default=None,
                        help=f"the cameras played, e.g. 2,5 (numbers 1-{len(CONDITIONS)} as printed; default: each "
                             "in turn)")
    parser.add_argument("--area", choices=("found", "marked"), default="found",
                        help="the play area found by the table as the game begins, or marked by the referee on the "
                             "table top's corners")
    parser.add_argument("--confirm-area", action="store_true",
                        help="the referee confirms the area found and the clear table as each game begins (the "
                             "arbiter's button; counted apart from the turns' prompts)")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.turns = 1, 4
    try:
        cameras = list(range(len(CONDITIONS))) if args.cameras is None else [
            int(n) - 1 for n in args.cameras.split(",")]
    except ValueError:
        parser.exit(2, f"bench_games: --cameras {args.cameras!r} is not a list of camera numbers\n")
    if not cameras or not all(0 <= n < len(CONDITIONS) for n in cameras):
        parser.exit(2, f"bench_games: --cameras {args.cameras!r}: the cameras are 1-{len(CONDITIONS)}\n")
    # a game's camera and seed follow its camera's number, so a run of some cameras plays their games
    indices = [cameras[k % len(cameras)] + len(CONDITIONS) * (k // len(cameras)) for k in range(args.games)]
    for name, value in (("--games", args.games), ("--turns", args.turns), ("--jobs", args.jobs)):
        if value < 1:
            parser.exit(2, f"bench_games: {name} {value} is not a positive count\n")
    started = time.perf_counter()
    load = load_average()
    games = []
    for game in pool_map(partial(play_game, turns=args.turns, seed=args.seed, area=args.area,
                                 confirm_area=args.confirm_area), indices, args.jobs):
        games.append(game)
        print_game(game)
    games.sort(key=lambda g: g["index"])
    took = time.perf_counter() - started
    everything = [r for g in games for r in g["rows"]]
    kinds = {k: sum(r["kind"] == k for r in everything) for k in KINDS}
    print(f"scripted games through the table runner: {len(games)} games x {args.turns} turns, seed {args.seed}, "
          f"{machine(load)}, "
          f"{args.jobs} job(s), {took:.0f} s in all; play area "
          f"{'marked by the referee' if args.area == 'marked' else 'found by the table as the game began'}"
          + (f", confirmed by the referee as each game began ({sum(g['confirmations'] for g in games)} "
             "confirmations, not counted as prompts)" if args.confirm_area else ""))
    print("  turns by kind: " + ", ".join(f"{k} {v}" for k, v in kinds.items()))
    print("  verdicts the rules give on the true tables: " + ", ".join(
        f"{v} {sum(r['expected'] == v for r in everything)}" for v in ("legal", "draw", "penalty")))
    print(summary("all", everything))
    print(f"  frames read whole {sum(g['reads'][0] for g in games)}, only where they changed since the last whole read "
          f"{sum(g['reads'][1] for g in games)}")
    wrong = sum(r["got"] != r["expected"] for r in everything)
    prompts = sum(r["prompts"] for r in everything) / max(len(everything), 1)
    middle = median([r["seconds"] for r in everything if r["seconds"] == r["seconds"]])
    print(f"targets: 0 wrong verdicts ({wrong}), at most {TARGET_PROMPTS:.2f} referee prompts per turn "
          f"({prompts:.3f}), median press -> verdict <= {TARGET_MEDIAN_S:.0f} s ({middle:.2f} s): "
          f"{'met' if wrong == 0 and prompts <= TARGET_PROMPTS and middle <= TARGET_MEDIAN_S else 'not met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
