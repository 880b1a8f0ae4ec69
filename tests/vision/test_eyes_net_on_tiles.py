"""What the occluder net sees away from the frame's edges holds a look up only until its frames are read
(`EyesSettings.net_finds_on_tiles_read`): freshly laid tiles, blurred, on a dark top look like a hand
to the net. Read, a find that lies on tiles read, with the border as in the reference, holds nothing
up; one over something that is no tile, or joined to an arm across the border, still does."""
from __future__ import annotations

import cv2
import pytest

from vision.eyes import Covered, Eyes, EyesSettings, Reference

from eyes_scenes import hand_visit, still, table_photo
from test_eyes import ORANGE_RUN, Sees, first_settled, run  # Sees: a find at a box, reaching no edge

SETTINGS = EyesSettings()
ORANGE_BOX = (190.0, 214.0, 396.0, 285.0)  # inside the bundled photo's middle run, orange 9 10 11 12


@pytest.fixture(scope="module")
def table():
    return table_photo()


def test_a_find_on_the_tiles_read_holds_nothing_up(table):
    eyes = Eyes(occluders=Sees(ORANGE_BOX))
    eyes.begin(0.0, Reference(table, ORANGE_RUN))
    settled = first_settled(run(eyes, still(table, 2.0), tiles=lambda frame: ORANGE_RUN))
    assert settled is not None
    assert "what the occluder net saw lies on tiles read, away from the border" in settled.checks
    assert "the occluder net saw nothing over the table on each frame" not in settled.checks


def test_with_the_setting_off_a_find_on_tiles_holds_the_table_up(table):
    eyes = Eyes(EyesSettings(net_finds_on_tiles_read=False), occluders=Sees(ORANGE_BOX))
    eyes.begin(0.0, Reference(table, ORANGE_RUN))
    answers = run(eyes, still(table, 2.0), tiles=lambda frame: ORANGE_RUN)
    assert first_settled(answers) is None
    covered = [look for _, look in answers if isinstance(look, Covered)]
    assert covered and all(look.reason == "the occluder net" for look in covered)


def test_a_find_over_a_cup_beside_the_tiles_read_still_covers(table):
    cupped = table.copy()
    cv2.circle(cupped, (470, 250), 40, (230, 230, 235), -1)  # on the bare table right of the run
    eyes = Eyes(occluders=Sees((190.0, 210.0, 512.0, 292.0)))  # the run and the cup, as one find
    eyes.begin(0.0, Reference(table, ORANGE_RUN))
    answers = run(eyes, still(cupped, SETTINGS.ask_after_seconds + 1.0), tiles=lambda frame: ORANGE_RUN)
    assert first_settled(answers) is None
    covered = [look for _, look in answers if isinstance(look, Covered)]
    assert covered and covered[0].reason == "the occluder net" and covered[0].where == "middle"
    assert any(look.ask_arbiter for look in covered)  # the arbiter is asked, as for any still object


@pytest.mark.parametrize("edge", ["right", "bottom"])
def test_a_hand_the_net_sees_only_in_the_middle_is_never_settled_on(table, edge):
    """The net sees only the hand (not the arm) and the reader reads a tile under it: the arm across the
    border still holds the table up, whether it trembles or not."""
    frames, entered, gone = hand_visit(table, edge, rest_seconds=2.0, seed=7, tremor=0.0)
    h, w = table.shape[:2]
    rest = (0.6 * w, 0.5 * h)
    box = (rest[0] - 60, rest[1] - 50, rest[0] + 60, rest[1] + 50)
    under_the_hand = ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
    eyes = Eyes(occluders=Sees(box))
    eyes.begin(0.0, Reference(table, ORANGE_RUN))
    answers = run(eyes, frames, tiles=lambda frame: ORANGE_RUN + (under_the_hand,))
    for frame, look in answers:
        if look is not None and hasattr(look, "checks"):
            assert all(f.at < entered or f.at >= gone for f in look.frames), (frame.at, [f.at for f in look.frames])
    assert any(isinstance(look, Covered) and look.at < gone for _, look in answers)
