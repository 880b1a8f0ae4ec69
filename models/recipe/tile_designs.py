"""Tile editions: how the tile sets of different clubs look, as data, for training.

An `Edition` (controller/demo/tile_faces.py, which draws a face from one) holds the inks of
the four colours, the face tint and shape, the logos and where the number sits, and its joker
designs; `EDITIONS` names them. The "original" edition is the photographed sets, the
renderer's and the demo's default; `HELD_OUT_EDITION` is kept out of training to measure how
the reader copes with a set it never saw.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from controller.demo.tile_faces import (  # noqa: F401 - BGR, Ink, JokerDesign and TILE_ASPECT re-exported
    BGR,
    ORIGINAL_EDITION,
    TILE_ASPECT,
    Edition,
    Ink,
    JokerDesign,
    edition_inks as _inks,
)

_ANY_INK = ("K", "B", "O", "R")

_EDITION_LIST = (
    ORIGINAL_EDITION,  # the tiles the renderer always drew, matching the photographed sets
    # Teal for blue and amber for orange on a cool white face: teal was read as black.
    Edition(
        "teal-amber",
        _inks(Ink((30, 30, 30), (50, 50, 55)), Ink((120, 110, 0), (165, 150, 40)),
              Ink((0, 150, 235), (40, 190, 255)), Ink((40, 30, 195), (65, 45, 225))),
        cream_lo=(232, 236, 230), cream_hi=(248, 252, 246),
        radius=(0.1, 0.14), aspect=(0.72, 0.76), number_y=0.40, motif_y=0.42, number_h=(0.30, 0.36),
        logos=(("ring", 1.0),), emboss=True,
        jokers=(JokerDesign("star", _ANY_INK, multicolour=True), JokerDesign("star", _ANY_INK)),
    ),
    # Dark grey instead of black, bright blue and orange; a letter J as the joker.
    Edition(
        "dark-grey",
        _inks(Ink((65, 65, 70), (100, 100, 105)), Ink((175, 70, 20), (210, 100, 45)),
              Ink((15, 110, 235), (40, 140, 255)), Ink((35, 15, 190), (55, 35, 215))),
        cream_lo=(232, 235, 236), cream_hi=(252, 252, 252),
        radius=(0.07, 0.1), number_h=(0.28, 0.35),
        logos=(("shape", 0.9),), emblem="shield", emboss=True,
        jokers=(JokerDesign("letter", _ANY_INK), JokerDesign("letter", ("R", "K", "B", "O"), multicolour=True)),
    ),
    # Golden yellow instead of orange on an ivory face; butterfly jokers.
    Edition(
        "yellow-set",
        _inks(Ink((20, 20, 22), (35, 35, 38)), Ink((165, 75, 5), (200, 110, 40)),
              Ink((0, 160, 215), (40, 200, 245)), Ink((35, 35, 195), (55, 50, 220))),
        cream_lo=(200, 228, 238), cream_hi=(228, 245, 252),
        radius=(0.08, 0.12), number_y=0.39, motif_y=0.41,
        logos=(("text", 0.9),), logo_word="RUMMY", emboss=True,
        jokers=(JokerDesign("butterfly", _ANY_INK),),
    ),
    # Navy blue, crimson and deep orange on a grey-white face, with a pressed frame.
    Edition(
        "navy-crimson",
        _inks(Ink((15, 15, 15), (30, 30, 30)), Ink((110, 35, 15), (155, 65, 30)),
              Ink((20, 95, 220), (40, 125, 240)), Ink((40, 10, 150), (60, 25, 180))),
        cream_lo=(212, 218, 220), cream_hi=(240, 242, 242),
        radius=(0.05, 0.08), aspect=(0.73, 0.76),
        logos=(("border", 0.9), ("text", 0.6)), logo_word="RUMMIKUB", emboss=True,
        jokers=(JokerDesign("smiley", _ANY_INK, multicolour=True), JokerDesign("smiley", _ANY_INK)),
    ),
    # Small travel tiles: narrow, very round, a big number in the middle, no logo.
    Edition(
        "travel",
        _inks(Ink((25, 25, 25), (45, 45, 45)), Ink((190, 110, 30), (220, 140, 60)),
              Ink((25, 125, 235), (45, 150, 250)), Ink((40, 25, 200), (60, 40, 230))),
        cream_lo=(225, 235, 240), cream_hi=(250, 252, 252),
        radius=(0.14, 0.2), aspect=(0.68, 0.72), number_y=0.45, motif_y=0.46, number_h=(0.34, 0.42),
        logos=(),
        jokers=(JokerDesign("smiley", ("R", "K")), JokerDesign("butterfly", ("R", "K"))),
    ),
    # Faded print on old, yellowed tiles.
    Edition(
        "vintage",
        _inks(Ink((45, 45, 50), (70, 70, 75)), Ink((150, 90, 40), (180, 120, 70)),
              Ink((50, 130, 215), (80, 160, 235)), Ink((55, 50, 175), (80, 70, 200))),
        cream_lo=(140, 212, 224), cream_hi=(172, 232, 244),
        radius=(0.06, 0.1), number_y=0.37, motif_y=0.39, number_h=(0.26, 0.32),
        logos=(("text", 0.9), ("ring", 0.5)),
        jokers=(JokerDesign("smiley", ("R",)), JokerDesign("smiley", ("K",))),
    ),
    # Held out of training (HELD_OUT_EDITION): each of its traits is seen in some training
    # edition (teal, amber, dark grey, crimson, ivory, an embossed emblem, butterflies), but
    # never together, so its figure measures a new combination of known traits. A colour no
    # training edition had could not be named by any training, so it would measure nothing.
    Edition(
        "ivory-club",
        _inks(Ink((60, 60, 64), (85, 85, 90)), Ink((125, 115, 5), (160, 145, 35)),
              Ink((5, 145, 225), (35, 180, 250)), Ink((50, 20, 170), (65, 35, 200))),
        cream_lo=(190, 222, 236), cream_hi=(215, 238, 250),
        radius=(0.11, 0.15), aspect=(0.73, 0.77), number_y=0.40, motif_y=0.42, number_h=(0.29, 0.35),
        logos=(("shape", 1.0),), emblem="crown", emboss=True,
        jokers=(JokerDesign("butterfly", _ANY_INK, multicolour=True),),
    ),
)
EDITIONS: Mapping[str, Edition] = MappingProxyType({e.name: e for e in _EDITION_LIST})
HELD_OUT_EDITION = "ivory-club"


def training_editions() -> tuple[str, ...]:
    """Editions the training draws from: all but the held-out one."""
    return tuple(name for name in EDITIONS if name != HELD_OUT_EDITION)
