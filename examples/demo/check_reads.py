"""Does the shipped reader read the demo game right? Per layout (seed, tile width), offline.

    python -m examples.demo.check_reads [--seeds 7,8,9,10] [--tile-widths 40,44,48]

Replays the turns of controller/demo_games/game.json the way the table controller sees them: each
turn's table is rendered (stable positions, sensor noise), read by the real reader (up to three
looks, as the runner does) and rebuilt against the table accepted before it; then the racks laid
open and the start draw. Prints, per layout, the turns whose table came out wrong. The demo's
layout (`layout` in game.json) should be one with no mistake; after a new model is shipped, run
this and, if needed, pick another seed and regenerate the golden log
(`TILEREF_UPDATE_GOLDEN=1 python -m pytest tests/game/test_end_to_end.py`).
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time

from controller.adapters.reader import VisionReader
from controller.demo.recorded_game import RACK_ROW, GameScript
from controller.demo.scene import Scene, SceneRenderer
from controller.demo_games import bundled_game
from controller.game.judging import invalid_sets, same_table
from controller.game.machine import TableState
from controller.game.reading import SAME_TILE_RADIUS, tile_width
from controller.game.rebuild import match_by_position, rebuild

SCRIPT = bundled_game("game")


def check(script: GameScript, reader: VisionReader, seed: int, width: int) -> list[str]:
    renderer = SceneRenderer(dataclasses.replace(script.layout, seed=seed, tile_width=width))
    frame_index = 0

    def look(scene: Scene, before: TableState):
        nonlocal frame_index
        best = None
        for _ in range(3):
            frame_index += 1
            reading = reader.read(renderer.frame(scene, frame_index))
            rebuilt = rebuild(reading, before)
            score = (rebuilt.problems, invalid_sets(rebuilt.table))
            if best is None or score < best[0]:
                best = (score, rebuilt, reading)
            if score == (0, 0):
                break
        return best[1], best[2]

    wrong: list[str] = []
    before = TableState()
    for n, turn in enumerate(script.turns, start=1):
        rebuilt, _ = look(turn.table, before)
        same, differences = same_table(rebuilt.table, tuple(tuple(m) for m in turn.table.codes()))
        if not same or rebuilt.doubts:
            wrong.append(f"turn {n}: {'; '.join(differences) or 'doubts ' + str([d[1] for d in rebuilt.doubts])}")
        if turn.expect not in ("penalty", "redeal"):
            before = rebuilt.table
    final = script.turns[-1].table
    for player, rack in script.racks.items():
        laid = Scene(final.melds + Scene.of([{"tiles": list(rack), "at": [RACK_ROW, 0]}]).melds)
        _, reading = look(laid, before)
        table_tiles = match_by_position(reading, before, SAME_TILE_RADIUS * tile_width(reading))
        got = sorted(t.code for i, t in enumerate(reading.tiles) if i not in table_tiles)
        if got != sorted(rack):
            wrong.append(f"rack {player}: read {' '.join(got)}")
    draw = reader.read(renderer.frame(Scene.of([{"tiles": list(script.start_draw), "at": [RACK_ROW, 0]}]), 0))
    if [t.code for t in sorted(draw.tiles, key=lambda t: t.center[0])] != list(script.start_draw):
        wrong.append(f"start draw: read {' '.join(t.code for t in draw.tiles)}")
    return wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--script", default=str(SCRIPT))
    parser.add_argument("--seeds", default="7,8,9,10")
    parser.add_argument("--tile-widths", default="40,44,48")
    args = parser.parse_args()
    script = GameScript.load(args.script)
    reader = VisionReader()
    print(f"demo layout in the script: seed {script.layout.seed}, tile width {script.layout.tile_width}")
    for width in (int(w) for w in args.tile_widths.split(",")):
        for seed in (int(s) for s in args.seeds.split(",")):
            started = time.perf_counter()
            wrong = check(script, reader, seed, width)
            verdict = "reads the whole game right" if not wrong else f"{len(wrong)} wrong: " + " | ".join(wrong[:3])
            print(f"seed {seed:>3}, tile width {width}: {verdict} ({time.perf_counter() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
