"""A find of the occluder net away from the frame's edges whose cells, off the tiles read, look as on the
last settled table (light matched), or as the bare top the game began on, is nothing new over the table
(`EyesSettings.net_finds_on_unchanged_table`): tiles taken back leave the table as it lay, and tiles that lie
as they lay are the reference's own, read or not. Anything put down, a hand included, is changed there."""
from __future__ import annotations

import cv2
import pytest

from vision.eyes import Covered, Eyes, EyesSettings, Reference

from eyes_scenes import still, table_photo
from test_eyes import ORANGE_RUN, Sees, first_settled, run, tile_box

SETTINGS = EyesSettings()
ORANGE_BOX = (190.0, 214.0, 396.0, 285.0)  # inside the bundled photo's middle run, orange 9 10 11 12
LAID = (300, 392, 352, 468)  # a tile laid on the bare wood below the run
AROUND_LAID = (290.0, 382.0, 362.0, 478.0)
OFF = EyesSettings(net_finds_on_unchanged_table=False)


@pytest.fixture(scope="module")
def table():
    return table_photo()


def laid_on(table):
    laid = table.copy()
    cv2.rectangle(laid, LAID[:2], LAID[2:], (225, 232, 236), -1)
    return laid


def covered_by_the_net(answers) -> bool:
    return any(isinstance(look, Covered) and look.reason == "the occluder net" for _, look in answers)


@pytest.mark.parametrize("settings, settles", [(SETTINGS, True), (OFF, False)])
def test_a_find_where_tiles_were_taken_back_unread_holds_nothing_up(table, settings, settles):
    """A restore: the tile is taken back, the wait reads nothing, the net takes the place it left for a hand."""
    eyes = Eyes(settings, occluders=Sees(AROUND_LAID))
    eyes.begin(0.0, Reference(laid_on(table), (tile_box(*LAID),), bare=table))
    answers = run(eyes, still(table, 2.0), tiles=lambda frame: None)
    assert (first_settled(answers) is not None) is settles
    assert covered_by_the_net(answers) is not settles


@pytest.mark.parametrize("settings, settles", [(SETTINGS, True), (OFF, False)])
def test_a_find_on_tiles_that_lie_as_they_lay_holds_nothing_up_unread(table, settings, settles):
    """A turn's start: nothing is read, the run lies as on the last settled table, the net sees a hand in it."""
    eyes = Eyes(settings, occluders=Sees(ORANGE_BOX))
    eyes.begin(0.0, Reference(table, ORANGE_RUN))
    answers = run(eyes, still(table, 2.0), tiles=lambda frame: None)
    assert (first_settled(answers) is not None) is settles
    if settles:
        assert "what the occluder net saw lies on tiles read, away from the border" in first_settled(answers).checks


def test_a_hand_over_tiles_that_lay_there_is_changed_and_covers(table):
    """The net sees a hand lying over the run (no arm seen), nothing read under it: the hand is changed."""
    handed = table.copy()
    cv2.ellipse(handed, (292, 250), (90, 40), 0, 0, 360, (120, 150, 205), -1)  # skin over the run
    eyes = Eyes(occluders=Sees((196.0, 204.0, 388.0, 296.0)))
    eyes.begin(0.0, Reference(table, ORANGE_RUN, bare=table))
    answers = run(eyes, still(handed, SETTINGS.ask_after_seconds + 1.0), tiles=lambda frame: ())
    assert first_settled(answers) is None
    assert covered_by_the_net(answers)
    assert any(look.ask_arbiter for _, look in answers if isinstance(look, Covered))


def test_a_cup_where_a_tile_was_taken_back_is_no_bare_table_and_covers(table):
    cupped = table.copy()
    cv2.circle(cupped, (326, 430), 34, (230, 230, 235), -1)
    cv2.circle(cupped, (326, 430), 22, (40, 60, 90), -1)
    eyes = Eyes(occluders=Sees(AROUND_LAID))
    eyes.begin(0.0, Reference(laid_on(table), (tile_box(*LAID),), bare=table))
    answers = run(eyes, still(cupped, 2.0), tiles=lambda frame: None)
    assert first_settled(answers) is None
    assert covered_by_the_net(answers)


def test_with_no_reference_a_find_in_the_middle_still_covers(table):
    """A first wait compares with its own first frame, which may hold the hand: nothing is unchanged there."""
    eyes = Eyes(occluders=Sees(ORANGE_BOX))
    eyes.begin(0.0, None)
    answers = run(eyes, still(table, 2.0), tiles=lambda frame: None)
    assert first_settled(answers) is None
    assert covered_by_the_net(answers)


@pytest.mark.parametrize("settings, settles", [(SETTINGS, True), (OFF, False)])
def test_a_find_where_a_tile_was_taken_back_beside_one_that_stays_holds_nothing_up(table, settings, settles):
    """No bare table known (a resumed game): the cells of the tile taken back show bare table as the reference's
    tiles explain it, and the one cell it shared with the tile that stayed is one of the few a change check lets pass."""
    taken, stays = (296, 392, 348, 468), (349, 392, 401, 468)
    laid = table.copy()
    for box in (taken, stays):
        cv2.rectangle(laid, box[:2], box[2:], (225, 232, 236), -1)
    left = table.copy()
    cv2.rectangle(left, stays[:2], stays[2:], (225, 232, 236), -1)
    eyes = Eyes(settings, occluders=Sees((286.0, 382.0, 372.0, 478.0)))
    eyes.begin(0.0, Reference(laid, (tile_box(*taken), tile_box(*stays))))
    answers = run(eyes, still(left, 2.0), tiles=lambda frame: None)
    assert (first_settled(answers) is not None) is settles


def test_a_phone_half_over_a_tile_still_read_there_covers(table):
    """A phone put down over the lower half of the run's 10 and the wood below it: the 10's upper half is
    still read there, half the old tile. That tile read explains its own cells only, not the phone's; the old
    outline explains what shows bare table, not what a phone hides; the few cells the phone covers on the wood
    are enough where the net sees it."""
    phoned = table.copy()
    cv2.rectangle(phoned, (244, 250), (300, 318), (25, 25, 30), -1)
    upper_half_of_10 = tile_box(240, 216, 291, 252)
    read = (ORANGE_RUN[0], upper_half_of_10, ORANGE_RUN[2], ORANGE_RUN[3])
    eyes = Eyes(SETTINGS, occluders=Sees((240.0, 246.0, 304.0, 322.0)))
    eyes.begin(0.0, Reference(table, ORANGE_RUN, bare=table))
    answers = run(eyes, still(phoned, 2.0), tiles=lambda frame: read)
    assert first_settled(answers) is None
    assert covered_by_the_net(answers)
