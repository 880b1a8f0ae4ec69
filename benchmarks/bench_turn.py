"""Button press to verdict on a 60-tile table, the whole pipeline, on this machine.

    python -m benchmarks.bench_turn [--turns 15] [--still-before 1.0] [--width 1920 --height 1080]

A table of 56 tiles lies still; at each turn the player lays 4 more (60 on the table), a
hand over the table first, lifts the hand, and `--still-before` seconds later presses the
seat button of the emulated timer box (a separate process on a real pty, read through
pyserial by the real driver). While the turn runs the eyes watch the table and the frames a
look would rest on are read ahead. The clock runs from the press to the verdict being
recorded: the press crossing the pty, the frames until the table is still and the hand gone
(at least one frame after the press), whatever reading is left (the real ONNX reader), the
photos (JPEG), fusing, rebuilding the table, the rules core's judgement and the SQLite
transactions. Prints the median (target under 1 s) and the parts. `--still-before 0`: the
press comes as the hand leaves, so the whole still span and every reading follow it.
"""
from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.harness import median, options
from controller.adapters.display import ConsoleDisplay
from controller.adapters.reader import VisionReader
from controller.demo.recorded_game import FPS, HAND_FRAMES, GameScript, RecordedTable, RecordedTimer
from controller.adapters.referee import ScriptedReferee
from controller.table import STEPS, TableDevices, TableRunner
from controller.demo.scene import Scene
from controller.adapters.timer import open_timer
from controller.game import judging
from controller.game.events import TurnJudged
from controller.game.machine import State, TableState
from controller.game.rebuild import rebuild
from controller.records import Records

BEFORE = [
    {"at": [0, 0], "tiles": [f"K{n}" for n in range(1, 14)]},
    {"at": [0, 15], "tiles": [f"B{n}" for n in range(1, 14)]},
    {"at": [1, 0], "tiles": [f"O{n}" for n in range(1, 14)]},
    {"at": [1, 15], "tiles": [f"R{n}" for n in range(1, 14)]},
    {"at": [2, 0], "tiles": ["K5", "B5", "O5", "R5"]},
]
PLAYED = {"at": [2, 6], "tiles": ["B10", "B11", "B12", "B13"]}


def main() -> int:
    parser = options(__doc__)
    parser.add_argument("--turns", type=int, default=15)
    parser.add_argument("--still-before", type=float, default=1.0,
                        help="seconds the table lies still between the hand leaving and the press")
    parser.add_argument("--width", type=int, default=1920)
    parser.add_argument("--height", type=int, default=1080)
    args = parser.parse_args()
    tile_width = int(args.width / 34)
    players = ("Ann", "Ben")
    script = GameScript.from_dict({
        "variant": "classic", "players": list(players), "start_draw": ["K1", "K2"], "clock_rate": 1,
        "think_seconds": args.still_before + HAND_FRAMES / FPS,
        "layout": {"width": args.width, "height": args.height, "tile_width": tile_width, "seed": 11},
        "turns": [{"player": players[k % 2], "action": "press", "table": BEFORE + [PLAYED]} for k in range(args.turns)],
    }, "benchmark script")

    with tempfile.TemporaryDirectory() as tmp:
        records = Records(Path(tmp) / "bench.sqlite")
        game = records.new_game("classic", players)
        records.append(game, judging.game_created("classic", players))
        timer = open_timer("emulator", 1.0)
        table = RecordedTable(script, timer.emulator.press)
        pressed: list[float] = []
        verdicts: list[float] = []
        outcomes: list[str] = []

        def press(button: str) -> None:
            pressed.append(time.perf_counter())
            timer.emulator.press(button)

        table.press = press

        def observe(model, event) -> None:
            if isinstance(event, TurnJudged):
                verdicts.append(time.perf_counter())
                outcomes.append(event.outcome)

        runner: TableRunner | None = None
        devices = TableDevices(table, RecordedTimer(timer, table, lambda: runner.model), VisionReader(),
                               ConsoleDisplay(out=open(os.devnull, "w"), quiet=True), ScriptedReferee())
        runner = TableRunner(records, game, devices, observer=observe)
        # a game in progress with the 56-tile table accepted and everyone opened
        before_scene = Scene.of(BEFORE)
        table.lay(before_scene)
        for _ in range(4):
            frame = table.read()
        accepted = rebuild(devices.reader.read(frame), TableState()).table  # also loads the models
        base = dataclasses.replace(
            runner.model, state=State.TURN_READY, starter="Ann", racks=(25, 25), pool=106 - 50 - 56,
            opened=(True, True), had_turn=(True, True), table=accepted, alert_turn=-1)
        if accepted.tile_count != 56:
            print(f"warning: the reader found {accepted.tile_count} of the 56 tiles before the turn")
        try:
            for turn in range(args.turns):
                runner.model = dataclasses.replace(base, turn=turn, current=turn % 2)
                table.queue, table.scene = [], before_scene
                while runner.model.state is not State.TURN_READING:
                    STEPS[runner.model.state](runner)
                runner.step_turn_reading()
                if runner.model.state is State.REFEREE_CHECK:
                    raise SystemExit(f"turn {turn}: the reader left doubts: {runner.model.pending_doubts}")
                runner.step_turn_judging()
        finally:
            timer.close()
            records.close()
    seconds = [v - p for p, v in zip(pressed, verdicts)]
    parts = runner.turns.timings
    print(f"button press to verdict, {len(seconds)} turns, table of 56 + 4 = 60 tiles, "
          f"{args.width}x{args.height} frames, still {args.still_before:g} s before the press, real reader, "
          f"emulator on a pty, SQLite records:")
    print(f"  median {median(seconds) * 1000:.0f} ms, min {min(seconds) * 1000:.0f} ms, "
          f"max {max(seconds) * 1000:.0f} ms (target: median under 1000 ms)")
    counts = {outcome: outcomes.count(outcome) for outcome in sorted(set(outcomes))}
    print(f"  verdicts: {counts} (all should be legal: B10-B13 laid by an opened player); tiles read before the "
          f"turn: {accepted.tile_count} of 56")
    median_of = lambda key: median([key(p) for p in parts])  # noqa: E731
    late = median([sec * 1000 - p["press_to_verdict_ms"] for sec, p in zip(seconds, parts)])
    print(f"  of which: the press reaching the runner {late:.0f} ms (a reading ahead under way is finished first), "
          f"waiting for the look {median_of(lambda p: p['settle_ms']):.0f} ms "
          f"(median {median_of(lambda p: p['frames']):.0f} frames after the press; reading after the press "
          f"{median_of(lambda p: p['read_ms'] - p['read_ahead_ms']):.0f} ms for "
          f"{median_of(lambda p: p['reads'] - p['read_ahead']):.0f} of {median_of(lambda p: p['reads']):.0f} "
          f"frames fused), "
          f"the rest {median_of(lambda p: p['press_to_verdict_ms'] - p['settle_ms']):.0f} ms (the turn's end recorded, "
          f"photos, fusing, rebuilding, judging, recording)")
    print(f"  read ahead while the turn ran (not in the figures above): {median_of(lambda p: p['read_ahead']):.0f} "
          f"frames, {median_of(lambda p: p['read_ahead_ms']):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
