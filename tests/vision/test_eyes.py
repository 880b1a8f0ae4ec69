"""The eyes fed frame sequences, as a protocol library is fed bytes: a real table photo (bundled,
never trained on) with an arm drawn over it entering from an edge, resting with a tremor and
leaving; a cup left at the edge; a lamp switched on; the first wait of a game with no reference.
The occluder net is the shipped one unless a test says otherwise."""
from __future__ import annotations

import numpy as np
import pytest

from vision.eyes import (
    Covered, Eyes, EyesSettings, Moving, ReadFrames, Reference, SettledLook, TimedFrame,
)
from vision.occluders import Occluders

from eyes_scenes import FPS, hand_visit, noisy, still, table_photo, with_cup

SETTINGS = EyesSettings()


class Blind:
    """An occluder net that never sees anything: what remains are the eyes' own checks."""

    def __call__(self, frame, reference):
        return Occluders((), np.zeros((1, 1), np.float32))


def run(eyes: Eyes, frames, tiles=lambda frame: ()):
    """Feed the frames as a runner does (reading what the eyes offer); every answer, by frame."""
    answers = []
    for frame in frames:
        look = eyes.feed(frame)
        if isinstance(look, ReadFrames):
            look = eyes.explain(look.frames, tuple(tiles(f) for f in look.frames))
        answers.append((frame, look))
    return answers


def first_settled(answers):
    return next((look for _, look in answers if isinstance(look, SettledLook)), None)


@pytest.fixture(scope="module")
def table():
    return table_photo()


@pytest.mark.parametrize("tremor", [1.0, 0.0], ids=["tremor", "no-tremor"])
@pytest.mark.parametrize("edge", ["right", "left", "top", "bottom"])
@pytest.mark.parametrize("net", ["shipped-net", "blind-net"])
def test_a_hand_that_rests_is_never_settled_on_and_the_table_is_soon_after_it_leaves(table, edge, net, tremor):
    frames, entered, gone = hand_visit(table, edge, rest_seconds=2.0, seed=3, tremor=tremor)
    eyes = Eyes(occluders=Blind() if net == "blind-net" else None)
    eyes.begin(0.0, Reference(table))
    answers = run(eyes, frames)
    for frame, look in answers:
        if isinstance(look, SettledLook):
            assert all(f.at < entered or f.at >= gone for f in look.frames), (frame.at, [f.at for f in look.frames])
    after = [(frame, look) for frame, look in answers if frame.at >= gone]
    settled = first_settled(after)
    assert settled is not None and settled.at - gone <= 1.0
    assert all(f.at >= gone for f in settled.frames)
    assert settled.frames[-1].at - settled.frames[0].at >= SETTINGS.still_seconds


def test_a_hand_resting_perfectly_still_is_said_covered_at_its_edge(table):
    frames, entered, gone = hand_visit(table, "right", rest_seconds=2.0, seed=5, tremor=0.0)
    eyes = Eyes(occluders=Blind())  # the net misses it: the border still tells
    eyes.begin(0.0, Reference(table))
    covered = [look for frame, look in run(eyes, frames) if isinstance(look, Covered)]
    assert covered and all("right" in look.where for look in covered)
    assert covered[0].reason == "entered at the right edge and has not left"
    assert not any(look.ask_arbiter for look in covered)  # two seconds is not long


def test_a_settled_look_rests_on_frames_spread_over_half_a_second_and_names_its_checks(table):
    eyes = Eyes()
    eyes.begin(0.0, Reference(table))
    settled = first_settled(run(eyes, still(table, 1.0)))
    assert len(settled.frames) == SETTINGS.look_frames
    times = [f.at for f in settled.frames]
    assert times == sorted(times) and times[-1] - times[0] >= SETTINGS.still_seconds
    assert times[-1] - times[0] <= SETTINGS.still_seconds + 2 / FPS
    assert any("occluder net" in check for check in settled.checks)
    assert any("lies on a tile" in check for check in settled.checks)


def test_a_cup_left_at_the_edge_asks_the_arbiter_and_is_never_settled_on_until_accepted(table):
    cupped = with_cup(table, "right")
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(table))
    answers = run(eyes, still(cupped, SETTINGS.ask_after_seconds + 2.0))
    assert first_settled(answers) is None
    covered = [look for _, look in answers if isinstance(look, Covered)]
    assert covered and all("right edge" in look.where for look in covered)
    asked = [look for look in covered if look.ask_arbiter]
    assert asked and asked[0].at - asked[0].since >= SETTINGS.ask_after_seconds
    assert all(not look.ask_arbiter for look in covered if look.at - look.since < SETTINGS.ask_after_seconds)
    # the arbiter accepts the table as it is: from then on the cup is part of it
    last = answers[-1][0]
    reference = eyes.accept(last)
    assert reference.image is last.image
    settled = first_settled(run(eyes, still(cupped, 1.0, start=last.at + 1 / FPS)))
    assert settled is not None and settled.frames[0].at > last.at


def test_a_cup_put_down_in_the_middle_is_a_change_no_tile_explains(table):
    h, w = table.shape[:2]
    cupped = table.copy()
    import cv2

    cv2.circle(cupped, (w // 2, h // 2), h // 8, (230, 230, 235), -1)
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(table))
    answers = run(eyes, still(cupped, 2.0))
    assert first_settled(answers) is None
    covered = [look for _, look in answers if isinstance(look, Covered)]
    assert covered and covered[0].reason == "a change no tile explains" and covered[0].where == "middle"
    # read as a tile there (the reader saw one), the same change is explained
    outline = ((w / 2 - h / 8, h / 2 - h / 8), (w / 2 + h / 8, h / 2 - h / 8), (w / 2 + h / 8, h / 2 + h / 8),
               (w / 2 - h / 8, h / 2 + h / 8))
    eyes.begin(0.0, Reference(table))
    assert first_settled(run(eyes, still(cupped, 2.0), tiles=lambda frame: (outline,))) is not None


@pytest.mark.parametrize("gain, offset", [(1.2, 0), (1.15, 8), (0.8, -5), (0.7, 10)],
                         ids=["lamp-on", "brighter-and-lifted", "cloud", "dimmer-and-lifted"])
def test_a_change_of_light_alone_does_not_hold_the_table_up(table, gain, offset):
    lit = np.clip(table.astype(np.float32) * gain + offset, 0, 255).astype(np.uint8)
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(table))
    frames = still(table, 0.3) + still(lit, 1.2, start=0.3)
    settled = first_settled(run(eyes, frames))
    assert settled is not None and settled.frames[0].at >= 0.3 and settled.at <= 0.3 + 1.0


def test_the_first_wait_without_a_reference_settles_on_a_clear_table(table):
    eyes = Eyes()
    eyes.begin(0.0, None)
    settled = first_settled(run(eyes, still(table, 1.0)))
    assert settled is not None and settled.at <= SETTINGS.still_seconds + 2 / FPS
    assert "the border as when the wait began" in settled.checks


@pytest.mark.parametrize("edge", ["right", "bottom"])
def test_the_first_wait_without_a_reference_waits_for_a_hand_that_entered_to_leave(table, edge):
    frames, entered, gone = hand_visit(table, edge, rest_seconds=2.0, seed=11, tremor=0.0)
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, None)
    answers = run(eyes, frames[int(0.2 * FPS):])  # the wait begins on the clear table
    for _, look in answers:
        if isinstance(look, SettledLook):
            assert all(f.at < entered or f.at >= gone for f in look.frames)
    settled = first_settled([(frame, look) for frame, look in answers if frame.at >= gone])
    assert settled is not None and settled.at - gone <= 1.0


def test_a_first_wait_that_begins_with_a_hand_over_the_edge_settles_once_the_net_sees_it_gone(table):
    frames, entered, gone = hand_visit(table, "right", rest_seconds=1.0, seed=2)
    resting = [f for f in frames if entered + 0.4 <= f.at < gone]
    eyes = Eyes()
    eyes.begin(resting[0].at, None)
    answers = run(eyes, resting + [f for f in frames if f.at >= gone])
    settled = first_settled(answers)
    assert settled is not None and all(f.at >= gone for f in settled.frames)


def test_a_still_table_covered_for_long_at_a_first_wait_asks_the_arbiter(table):
    h, w = table.shape[:2]
    seen = []

    def net_that_sees_a_sleeve(frame, reference):
        from vision.occluders import OccluderRegion

        seen.append(reference is None)
        region = OccluderRegion(0.1, (0.0, 0.0, w / 4, h / 2), ("left",), 0.9)
        return Occluders((region,), np.ones((1, 1), np.float32))

    eyes = Eyes(occluders=net_that_sees_a_sleeve)
    eyes.begin(0.0, None)
    answers = run(eyes, still(table, SETTINGS.ask_after_seconds + 1.0))
    assert first_settled(answers) is None and all(seen)
    asked = [look for _, look in answers if isinstance(look, Covered) and look.ask_arbiter]
    assert asked and asked[0].reason == "the occluder net" and asked[0].where == "left edge"


def test_frames_before_the_wait_began_do_not_count(table):
    eyes = Eyes()
    eyes.begin(5.0, Reference(table))
    looks = [eyes.feed(frame) for frame in still(table, 1.0)]
    assert all(isinstance(look, Moving) and look.where == "before the wait" for look in looks)


def test_explain_refuses_tiles_that_do_not_match_the_frames(table):
    eyes = Eyes()
    eyes.begin(0.0, Reference(table))
    frame = TimedFrame(noisy(table, 0), 0.0)
    with pytest.raises(ValueError, match="2 frames but 1 tile lists"):
        eyes.explain((frame, frame), ((),))


def fingertips(table: np.ndarray, edge: str, depth: int) -> np.ndarray:
    """The table with fingertips reaching `depth` pixels in across the middle of `edge` (nothing if 0)."""
    import cv2

    image = table.copy()
    if depth <= 0:
        return image
    h, w = image.shape[:2]
    centre = {"right": (w, h // 2), "left": (-1, h // 2), "top": (w // 2, -1), "bottom": (w // 2, h)}[edge]
    axes = (depth, 9) if edge in ("left", "right") else (9, depth)
    cv2.ellipse(image, centre, axes, 0, 0, 360, (140, 170, 225), -1, cv2.LINE_AA)
    return image


@pytest.mark.parametrize("edge", ["right", "top"])
def test_fingertips_resting_a_few_pixels_across_the_border_are_seen_to_leave_before_a_look(table, edge):
    # 4 pixels of a 640-pixel frame: 12 at 1080p, far below the eyes' cells
    frames = still(fingertips(table, edge, 4), 1.5)
    leaving = [TimedFrame(noisy(fingertips(table, edge, depth), 100 + k), 1.5 + k / FPS)
               for k, depth in enumerate((3, 2, 1))]
    gone = 1.5 + len(leaving) / FPS
    frames += leaving + still(table, 1.5, start=gone)
    eyes = Eyes(occluders=Blind())  # the net misses them: the fine border band tells
    eyes.begin(0.0, Reference(table))
    answers = run(eyes, frames)
    covered = [look for frame, look in answers if isinstance(look, Covered) and frame.at < gone]
    assert covered and covered[0].reason == f"entered at the {edge} edge and has not left"
    settled = first_settled(answers)
    assert settled is not None and all(f.at >= gone + SETTINGS.border_margin_seconds for f in settled.frames)
    assert settled.at - gone <= 1.0


def tile_box(x0: int, y0: int, x1: int, y1: int):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


# the bundled photo's bottom-left meld, red 10 11 12 (640-pixel frame)
RED_10, RED_11, RED_12 = tile_box(50, 322, 103, 398), tile_box(104, 322, 156, 398), tile_box(157, 322, 211, 398)


def test_a_phone_over_old_tiles_is_not_explained_by_their_outlines(table):
    import cv2

    phoned = table.copy()
    cv2.rectangle(phoned, (110, 326), (206, 394), (25, 25, 30), -1)  # lying over the 11 and the 12
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(table, (RED_10, RED_11, RED_12)))
    answers = run(eyes, still(phoned, 2.0), tiles=lambda frame: (RED_10,))  # the 11 and 12 are hidden
    assert first_settled(answers) is None
    covered = [look for _, look in answers if isinstance(look, Covered)]
    assert covered and covered[0].reason == "a change no tile explains" and covered[0].where == "middle"
    # the same change with the tiles read there again (a tile put back over the old place) is explained
    eyes.begin(0.0, Reference(table, (RED_10, RED_11, RED_12)))
    assert first_settled(run(eyes, still(phoned, 2.0), tiles=lambda frame: (RED_10, RED_11, RED_12))) is not None


def test_a_tile_taken_away_cleanly_leaves_bare_table_its_old_outline_explains(table):
    import cv2

    laid = table.copy()
    cv2.rectangle(laid, (300, 392), (352, 468), (225, 232, 236), -1)  # a tile on the bare wood, then taken away
    taken = tile_box(300, 392, 352, 468)
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(laid, (RED_10, RED_11, RED_12, taken)))
    settled = first_settled(run(eyes, still(table, 1.0), tiles=lambda frame: (RED_10, RED_11, RED_12)))
    assert settled is not None


# the bundled photo's middle run, orange 9 10 11 12, as the reader outlines it (640-pixel frame)
ORANGE_RUN = (((188, 212), (239, 213), (239, 287), (188, 286)), ((240, 216), (291, 217), (291, 286), (240, 286)),
              ((295, 215), (345, 215), (346, 286), (296, 286)), ((347, 215), (398, 215), (398, 287), (348, 286)))


def without_orange_12(table: np.ndarray) -> np.ndarray:
    """The photo with the run's last tile taken away: the wood just below it laid over its place."""
    bare = table.copy()
    bare[208:296, 340:408] = table[300:388, 340:408]
    return bare


def test_a_phone_over_part_of_an_old_tile_between_tiles_that_lie_as_they_lay_asks_and_never_settles(table):
    import cv2

    phoned = table.copy()  # over the lower part of the orange 11 and the table just below it
    cv2.rectangle(phoned, (292, 246), (352, 300), (28, 26, 30), -1)
    cv2.rectangle(phoned, (292, 246), (352, 300), (150, 150, 155), 2)
    read = ORANGE_RUN[:2] + ORANGE_RUN[3:]  # the 11 is hidden; its neighbours share the cells along its edges
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(table, ORANGE_RUN))
    answers = run(eyes, still(phoned, SETTINGS.ask_after_seconds + 1.0), tiles=lambda frame: read)
    assert first_settled(answers) is None
    covered = [look for _, look in answers if isinstance(look, Covered)]
    assert covered and all(look.reason == "a change no tile explains" for look in covered)
    asked = [look for look in covered if look.ask_arbiter]
    assert asked and asked[0].at - asked[0].since >= SETTINGS.ask_after_seconds
    assert all(not look.ask_arbiter for look in covered if look.at - look.since < SETTINGS.ask_after_seconds)


@pytest.mark.parametrize("change", ["taken-away", "laid"])
def test_a_tile_taken_from_or_laid_at_the_end_of_a_run_settles_at_once(table, change):
    bare = without_orange_12(table)
    before, after = (table, bare) if change == "taken-away" else (bare, table)
    tiles_before, tiles_after = (ORANGE_RUN, ORANGE_RUN[:3]) if change == "taken-away" else (ORANGE_RUN[:3], ORANGE_RUN)
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(before, tiles_before))
    settled = first_settled(run(eyes, still(after, 1.5), tiles=lambda frame: tiles_after))
    assert settled is not None and settled.at <= SETTINGS.still_seconds + 2 / FPS


@pytest.mark.parametrize("gains", [(1.14, 1.19, 1.24), (1.1, 1.18, 1.27)], ids=["warm-lamp", "warmer-lamp"])
def test_a_lamp_that_clips_the_bright_faces_at_white_does_not_hold_the_table_up(table, gains):
    # a bright table: faces and highlights near white, so a brighter lamp clips them at 255
    bright = np.clip(table.astype(np.float32) * 1.25 + 10, 0, 255).astype(np.uint8)
    lit = np.clip(bright.astype(np.float32) * np.float32(gains), 0, 255).astype(np.uint8)
    assert (lit == 255).mean() > 0.05
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(bright))
    settled = first_settled(run(eyes, still(bright, 0.3) + still(lit, 1.2, start=0.3)))
    assert settled is not None and settled.frames[0].at >= 0.3


def test_a_white_card_put_down_under_a_lamp_that_clips_is_still_a_change(table):
    import cv2

    bright = np.clip(table.astype(np.float32) * 1.25 + 10, 0, 255).astype(np.uint8)
    lit = np.clip(bright.astype(np.float32) * np.float32((1.14, 1.19, 1.24)), 0, 255).astype(np.uint8)
    h, w = table.shape[:2]
    carded = lit.copy()
    cv2.rectangle(carded, (w // 2 - h // 8, h // 2 - h // 10), (w // 2 + h // 8, h // 2 + h // 10), (255, 255, 255), -1)
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(bright))
    answers = run(eyes, still(bright, 0.3) + still(carded, 1.5, start=0.3))
    assert first_settled(answers) is None
    assert any(isinstance(look, Covered) and look.reason == "a change no tile explains" for _, look in answers)


def test_a_wait_that_reads_nothing_is_not_explained_by_old_outlines_under_a_phone(table):
    import cv2

    phoned = table.copy()
    cv2.rectangle(phoned, (110, 326), (206, 394), (25, 25, 30), -1)  # lying over the 11 and the 12
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(table, (RED_10, RED_11, RED_12)))
    answers = run(eyes, still(phoned, 2.0), tiles=lambda frame: None)  # a turn's start: nothing is read
    assert first_settled(answers) is None
    covered = [look for _, look in answers if isinstance(look, Covered)]
    assert covered and covered[0].reason == "a change no tile explains"
    # the table as it lay settles without a reading
    eyes.begin(0.0, Reference(table, (RED_10, RED_11, RED_12)))
    assert first_settled(run(eyes, still(table, 1.0), tiles=lambda frame: None)) is not None


def striped(table: np.ndarray) -> np.ndarray:
    """The photo with a strongly grained patch of top (dark and pale stripes) where a tile will be laid."""
    top = table.copy()
    for y in range(380, 480, 12):
        top[y: y + 6, 280:380] = (40, 60, 90)
        top[y + 6: y + 12, 280:380] = (150, 175, 205)
    return top


def test_tiles_taken_back_in_a_restore_leave_the_top_as_it_was_at_the_turns_start(table):
    import cv2

    start = striped(table)
    laid = start.copy()
    cv2.rectangle(laid, (300, 392), (352, 468), (225, 232, 236), -1)  # laid in the turn, to be taken back
    outline = tile_box(300, 392, 352, 468)
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(laid, (RED_10, RED_11, RED_12, outline)))
    read = (RED_10, RED_11, RED_12)
    alone = run(eyes, still(start, 2.0), tiles=lambda frame: read)
    assert first_settled(alone) is None  # the grain is no bare table the old outline can tell
    eyes.begin(0.0, Reference(laid, (RED_10, RED_11, RED_12, outline), earlier=start))
    assert first_settled(run(eyes, still(start, 1.0), tiles=lambda frame: read)) is not None
    # a phone put down where the tile lay looks like neither table
    phoned = start.copy()
    cv2.rectangle(phoned, (296, 388), (372, 476), (25, 25, 30), -1)
    eyes.begin(0.0, Reference(laid, (RED_10, RED_11, RED_12, outline), earlier=start))
    answers = run(eyes, still(phoned, 2.0), tiles=lambda frame: read)
    assert first_settled(answers) is None and any(isinstance(look, Covered) for _, look in answers)


class Sees:
    """An occluder net that always sees one region at `box` (frame pixels): a tile box it takes for a hand."""

    def __init__(self, box):
        self.box = box

    def __call__(self, frame, reference):
        from vision.occluders import OccluderRegion

        h, w = frame.shape[:2]
        x0, y0, x1, y1 = self.box
        region = OccluderRegion((x1 - x0) * (y1 - y0) / (w * h), self.box, (), 0.6)
        return Occluders((region,), np.zeros((1, 1), np.float32))


def middle_area(table, share=0.6):
    h, w = table.shape[:2]
    a, b = (1 - share) / 2, (1 + share) / 2
    return ((a * w, a * h), (b * w, a * h), (b * w, b * h), (a * w, b * h)), (w, h)


@pytest.mark.parametrize("reference", [True, False], ids=["against-the-last-table", "first-wait"])
def test_what_the_net_finds_beyond_the_marked_play_area_holds_nothing_up(table, reference):
    import cv2

    h, w = table.shape[:2]
    beside = (0.03 * w, 0.3 * h, 0.15 * w, 0.6 * h)  # left of the area, clear of the frame's border band
    drawing = table.copy()  # a player's hand at the tile box there: changed since the last settled table
    cv2.rectangle(drawing, (int(0.05 * w), int(0.35 * h)), (int(0.13 * w), int(0.55 * h)), (120, 150, 205), -1)
    corners, size = middle_area(table)
    for area, settles in ((None, False), (corners, True)):
        eyes = Eyes(occluders=Sees(beside))
        eyes.watch_area(area, size)
        eyes.begin(0.0, Reference(table) if reference else None)
        answers = run(eyes, still(drawing if reference else table, 2.0))
        assert (first_settled(answers) is not None) == settles, area
    # a region reaching into the area is over the table, marked or not
    eyes = Eyes(occluders=Sees((0.03 * w, 0.3 * h, 0.3 * w, 0.6 * h)))
    eyes.watch_area(corners, size)
    eyes.begin(0.0, Reference(table) if reference else None)
    answers = run(eyes, still(drawing if reference else table, 2.0))
    assert first_settled(answers) is None and any(isinstance(look, Covered) for _, look in answers)


def test_a_change_beyond_the_marked_play_area_is_none_the_table_must_explain(table):
    import cv2

    h, w = table.shape[:2]
    changed = table.copy()
    cv2.circle(changed, (int(0.1 * w), h // 2), int(0.04 * w), (40, 40, 200), -1)  # a tile taken from the box
    corners, size = middle_area(table)
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, Reference(table))
    covered = [look for _, look in run(eyes, still(changed, 2.0)) if isinstance(look, Covered)]
    assert covered and covered[0].reason == "a change no tile explains"
    eyes.watch_area(corners, size)
    eyes.begin(0.0, Reference(table))
    assert first_settled(run(eyes, still(changed, 2.0))) is not None
    # the same change inside the area still holds the table up; the area's corners follow the frame's size
    inside = table.copy()
    cv2.circle(inside, (w // 2, h // 2), int(0.04 * w), (40, 40, 200), -1)
    eyes.watch_area(tuple((2 * x, 2 * y) for x, y in corners), (2 * w, 2 * h))
    eyes.begin(0.0, Reference(table))
    assert first_settled(run(eyes, still(inside, 2.0))) is None


def test_a_play_area_needs_three_corners():
    with pytest.raises(ValueError, match=r"three corners, got \(\(1, 2\),\)"):
        Eyes(occluders=Blind()).watch_area(((1, 2),), (640, 480))
