"""Helpers the game tests share: tables written as melds, and waiting on another process's records."""
from __future__ import annotations

import sys

from recorded_games import wait_for  # noqa: F401  (the game tests import it from here)
from table_helpers import table  # noqa: F401  (the game tests import it from here)


def play_command(frames, port: str, db, *rules: str) -> list[str]:
    """`tileref play` as its own process: a folder camera, the box on `port`, Ann and Ben, Ann starts.
    `rules`: how the game is ruled, e.g. "--variant", "classic" or "--rules", "club.toml"."""
    return [sys.executable, "-m", "controller.cli", "play", "--camera", str(frames), "--timer", port,
            *rules, "--players", "Ann,Ben", "--starter", "Ann", "--db", str(db)]


def scene_reading(scene, layout):
    """What a reader that never errs reads on `scene` rendered in `layout`: each tile where the layout lays it."""
    from controller.game.reading import ReadTile, TableReading

    codes = [code for meld in scene.melds for code in meld.tiles]
    w, h = layout.tile_width, layout.tile_height
    tiles = [ReadTile(code, 0.97, (outline[0][0] + w / 2, outline[0][1] + h / 2), outline)
             for code, outline in zip(codes, layout.outlines(scene))]
    return TableReading(tuple(tiles), (tuple(range(len(tiles))),) if tiles else ())
