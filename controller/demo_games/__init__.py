"""The recorded games `tileref demo` plays, shipped with the package (found through importlib.resources).

`game.json`: felt and rendered tile faces, 11 turns (the golden game of the tests);
`wood-game.json`: a wooden top and tile faces cut from real photos, 22 turns;
`world-game.json`: world rules (003), a redeal after the deal and a failed turn whose table
cannot be restored.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

GAMES = ("game", "wood-game", "world-game")


def bundled_game(name: str) -> Path | None:
    """The path of a bundled game by name ("game", "wood-game"), or None if `name` is not one."""
    if name.removesuffix(".json") not in GAMES:
        return None
    return Path(str(resources.files(__name__) / f"{name.removesuffix('.json')}.json"))
