"""The table's eyes alone (controller.table.eyes.TableEyes): what the eyes at the camera say and the
readings go in, a typed decision comes out; no camera, reader, box or records."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.game.reading import ReadTile, TableReading
from controller.table.eyes import (
    AskArbiter, EyesMode, LookAgain, ReadFirst, ReadingStands, ReadOffered, TableEyes,
)
from vision.eyes_values import Covered, Moving, ReadFrames, Reference, SettledLook, TimedFrame


def reading(*codes: str) -> TableReading:
    tiles = tuple(ReadTile(code, 0.99, (100.0 + 40 * k, 120.0),
                           ((85.0 + 40 * k, 100.0), (115.0 + 40 * k, 100.0), (115.0 + 40 * k, 140.0), (85.0 + 40 * k, 140.0)))
                  for k, code in enumerate(codes))
    return TableReading(tiles, (tuple(range(len(tiles))),) if tiles else ())


def frames(count: int, start: float = 0.0) -> tuple[TimedFrame, ...]:
    return tuple(TimedFrame(np.full((90, 120, 3), 100 + k, np.uint8), start + 0.25 * k) for k in range(count))


def covered(at: float, ask: bool) -> Covered:
    return Covered(at, "right edge", 0.0, "the occluder net", ask)


def test_a_wait_reads_what_is_offered_and_the_fused_reading_stands():
    eyes = TableEyes()
    assert eyes.mode is EyesMode.IDLE
    assert eyes.begin(turn=1) is False  # nothing watched: nothing carried
    assert eyes.mode is EyesMode.WAITING
    assert isinstance(eyes.heard(Moving(0.0, "right edge")), LookAgain)
    offered = frames(3)
    decision = eyes.heard(ReadFrames(offered))
    assert isinstance(decision, ReadOffered) and decision.to_read == offered
    for frame in offered:
        eyes.read(frame, reading("K1", "K2", "K3"), 5.0)
    shown, tiles = eyes.explain()
    assert shown == offered and all(len(outlines) == 3 for outlines in tiles)
    assert eyes.explain(unread=True)[1] == (None, None, None)
    stands = eyes.heard(SettledLook(offered, ("still",)))
    assert isinstance(stands, ReadingStands) and eyes.mode is EyesMode.IDLE
    assert [tile.code for tile in stands.fusion.reading.tiles] == ["K1", "K2", "K3"]
    assert stands.read_ahead == 0 and [elapsed for _, elapsed in stands.readings] == [5.0, 5.0, 5.0]
    eyes.judged_as(offered[-1].image, stands.fusion.reading)
    assert eyes.reference is eyes.judged and eyes.judged.codes == ("K1", "K2", "K3")


def test_frames_worth_reading_early_are_read_once_and_not_again_when_offered():
    eyes = TableEyes()
    eyes.begin()
    first, middle, last = frames(3)
    decision = eyes.heard(Moving(0.25, "", 0.25, (first,)))
    assert decision == ReadFirst((first,))
    eyes.read_early(first, reading("R5"), 7.0)
    assert isinstance(eyes.heard(Moving(0.3, "", 0.3, (first,))), LookAgain)  # already read
    assert eyes.heard(Moving(0.4, "", 0.4, (first, middle))) == ReadFirst((middle,))
    decision = eyes.heard(ReadFrames((first, middle, last)))
    assert decision.to_read == (middle, last)


def test_covered_too_long_asks_the_arbiter_and_an_acceptance_lets_the_wait_go_on():
    eyes = TableEyes()
    eyes.begin()
    assert isinstance(eyes.heard(covered(1.0, ask=False)), LookAgain)
    offered = frames(2)
    eyes.heard(ReadFrames(offered))
    decision = eyes.heard(covered(11.0, ask=True))  # the offered frames, read, do not explain the table
    assert isinstance(decision, AskArbiter) and decision.frame is offered[-1]
    assert eyes.mode is EyesMode.ASKING and eyes.asking[1] is offered[-1].image
    eyes.accepted()
    assert eyes.mode is EyesMode.WAITING and eyes.asking is None


def test_frames_read_ahead_while_the_turn_ran_stand_in_the_wait_that_carries_them():
    eyes = TableEyes()
    assert eyes.watch(turn=3) is True and eyes.mode is EyesMode.WATCHING
    assert eyes.watch(turn=3) is False  # already watched
    ahead = frames(2)
    eyes.glanced(None)
    assert eyes.next_to_read() is None
    from vision.eyes_values import ReadAhead

    eyes.glanced(ReadAhead(ahead))
    while (frame := eyes.next_to_read()) is not None:
        eyes.read_ahead(frame, reading("B7"), 30.0)
    assert eyes.begin(turn=3, carry=True) is True
    assert eyes.heard(ReadFrames(ahead)).to_read == ()
    stands = eyes.heard(SettledLook(ahead, ("still",)))
    assert stands.read_ahead == 2 and stands.read_ahead_ms == pytest.approx(60.0)


def test_a_wait_for_another_turn_drops_what_was_read_ahead():
    eyes = TableEyes()
    eyes.watch(turn=3)
    offered = frames(1)
    eyes.read_ahead(offered[0], reading("B7"), 30.0)
    assert eyes.begin(turn=4, carry=True) is False
    assert eyes.heard(ReadFrames(offered)).to_read == offered  # read again


def test_a_wait_that_reads_nothing_moves_the_reference_and_keeps_its_tiles_without_codes():
    eyes = TableEyes()
    eyes.begin()
    look = SettledLook(frames(2), ("still",))
    assert eyes.settled_unread(look).border_only  # the clear table as the game began
    tiles = (((0.0, 0.0), (1.0, 0.0), (1.0, 1.0)),)
    eyes.reference = Reference(frames(1)[0].image, tiles, ("K1",))
    moved = eyes.settled_unread(look)
    assert moved.image is look.frames[-1].image and moved.tiles == tiles and moved.codes == ()


def test_the_referee_answer_replaces_what_readings_are_steadied_against():
    eyes = TableEyes()
    tiles = tuple(tile.corners for tile in reading("K1", "K2").tiles)
    eyes.judged = Reference(frames(1)[0].image, tiles, ("K1", "K2"))
    eyes.answered(((0, "K9"),), tiles_read=2)
    assert eyes.judged.codes == ("K9", "K2")
    assert eyes.kept_reading(frames(1)[0].image) is None  # no table read yet to keep


def test_a_look_is_read_once_against_a_table_read_and_afresh_once_its_reading_explains_nothing():
    image = np.full((120, 160, 3), 90, np.uint8)
    eyes = TableEyes(reference=Reference(image.copy(), ()))
    eyes.begin(1)
    offered = tuple(TimedFrame(image.copy(), 0.1 * k) for k in range(3))
    eyes.heard(ReadFrames(offered))
    eyes.read(offered[0], reading("R1"), 5.0)
    assert [t.code for t in eyes.kept_reading(offered[1].image).tiles] == ["R1"]  # lies as the frame read
    eyes.heard(covered(0.3, False))  # the readings do not explain the table
    assert eyes.kept_reading(offered[2].image) is None  # read afresh
    # the game's first look, against the clear table's border only: every frame is read
    first = TableEyes(reference=Reference(image.copy(), (), border_only=True))
    first.begin(1)
    first.heard(ReadFrames(offered))
    first.read(offered[0], reading("R1"), 5.0)
    assert first.kept_reading(offered[1].image) is None


def look_missing_a_tile(table: np.ndarray):
    """Three still frames of `table`; the reader finds K3 on the first only."""
    offered = tuple(TimedFrame(table.copy(), 0.25 * k) for k in range(3))
    return offered, (reading("K1", "K2", "K3"), reading("K1", "K2"), reading("K1", "K2"))


@pytest.mark.parametrize("laid_now, unsure", [(True, 0), (False, 1)])
def test_a_tile_some_frames_missed_lies_there_where_the_table_changed_since_it_settled(laid_now, unsure):
    """The frames of a settled look show the same pixels: a tile read alike and sure where the table changed
    since the last settled one lies there, however many frames missed it; where the table lies as it did,
    the referee says whether it does."""
    bare = np.full((200, 300, 3), 90, np.uint8)
    table = bare.copy()
    cv2.rectangle(table, (85, 100), (235, 140), (230, 235, 240), -1)  # K1 K2 K3 laid this turn
    eyes = TableEyes(reference=Reference(bare if laid_now else table))
    eyes.begin(turn=1, keep_unsure=True)
    offered, readings = look_missing_a_tile(table)
    eyes.heard(ReadFrames(offered))
    for frame, read in zip(offered, readings):
        eyes.read(frame, read, 5.0)
    stands = eyes.heard(SettledLook(offered, ("still",)))
    assert [tile.code for tile in stands.fusion.reading.tiles] == ["K1", "K2", "K3"]
    assert len(stands.fusion.unsure) == unsure
