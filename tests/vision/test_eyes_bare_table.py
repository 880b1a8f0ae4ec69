"""The bare table the game began on (`Reference.bare`): tiles moved away from a grained or veined top leave
it as it was when the game began, which no estimate of the table under them can tell; a cell that looks as
it did then is bare table. Nothing put down there, and no hand, looks so."""
from __future__ import annotations

import cv2
import pytest

from vision.eyes import Covered, Eyes, Reference

from eyes_scenes import still, table_photo
from test_eyes import RED_10, RED_11, RED_12, Blind, first_settled, run, striped, tile_box


@pytest.fixture(scope="module")
def table():
    return table_photo()


def moved_away(table):
    """The striped top (the game's bare table), a tile laid on it at a turn, and its outline."""
    bare = striped(table)
    laid = bare.copy()
    cv2.rectangle(laid, (300, 392), (352, 468), (225, 232, 236), -1)
    return bare, laid, tile_box(300, 392, 352, 468)


def test_a_tile_moved_away_leaves_the_top_as_the_game_began_and_settles(table):
    bare, laid, outline = moved_away(table)
    read = (RED_10, RED_11, RED_12)
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(laid, read + (outline,)))
    assert first_settled(run(eyes, still(bare, 2.0), tiles=lambda frame: read)) is None  # the stripes: no bare table
    eyes.begin(0.0, Reference(laid, read + (outline,), bare=bare))
    settled = first_settled(run(eyes, still(bare, 1.0), tiles=lambda frame: read))
    assert settled is not None


def test_a_phone_where_the_tile_lay_is_no_bare_table(table):
    bare, laid, outline = moved_away(table)
    read = (RED_10, RED_11, RED_12)
    phoned = bare.copy()
    cv2.rectangle(phoned, (296, 388), (372, 476), (25, 25, 30), -1)
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(laid, read + (outline,), bare=bare))
    answers = run(eyes, still(phoned, 2.0), tiles=lambda frame: read)
    assert first_settled(answers) is None
    assert any(isinstance(look, Covered) for _, look in answers)


def test_the_arbiters_acceptance_keeps_the_bare_table(table):
    bare, laid, outline = moved_away(table)
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(laid, (outline,), bare=bare))
    frame = still(laid, 0.1)[-1]
    assert eyes.accept(frame).bare is bare
