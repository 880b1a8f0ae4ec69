"""The sequences benchmarks/bench_watch.py feeds the eyes: their truth must be the frames' truth.

Built over a bundled real photo (tests/vision/data), so no shared data is needed: what a frame
says is covered is where it differs from the clear table, a hand comes in by the edge its kind
names and stays joined to it, the timestamps are spaced by the frame rate asked, and the time
the hand left is when the last covered frame ends.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks.watch_scenes import EDGES, HEIGHT, KINDS, WIDTH, build_sequence, plan, table_frame
from models.recipe.realdata import Photo

PHOTO = Photo(Path(__file__).with_name("data") / "melds.jpg", ())
BORDER = {"top": (slice(0, 1), slice(None)), "bottom": (slice(HEIGHT - 1, HEIGHT), slice(None)),
          "left": (slice(None), slice(0, 1)), "right": (slice(None), slice(WIDTH - 1, WIDTH))}


def covered_indices(sequence) -> list[int]:
    return [i for i in range(sequence.frame_count) if sequence.covered(i)]


def test_the_clear_table_is_the_photo_cropped_to_a_1080p_frame():
    frame = table_frame(PHOTO)
    assert frame.shape == (HEIGHT, WIDTH, 3)
    assert frame.std() > 10  # a table with tiles, not a blank


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_frame_differs_from_the_clear_table_where_its_truth_says_covered(seed):
    sequence = build_sequence(0, "hand from the right", PHOTO, seed)
    covered = covered_indices(sequence)
    middle = covered[len(covered) // 2]
    for index in (0, middle, sequence.frame_count - 1):
        frame = sequence.frame(index)
        mask = sequence.mask(index)
        assert frame.covered == mask.any()
        assert frame.covered_share == pytest.approx(mask.mean(), abs=1e-9)
        changed = np.abs(frame.image.astype(int) - sequence.clear_frame(index).astype(int)).max(axis=2) > 12
        if frame.covered:
            assert changed[mask].mean() > 0.5  # the occluder shows where its mask is
        else:
            assert not changed.any()  # nothing over the table: the clear frame, noise and all
    assert sequence.frame(middle).covered_share > 0.005


@pytest.mark.parametrize("edge", EDGES)
def test_a_hand_comes_in_by_the_edge_its_kind_names_and_stays_joined_to_it(edge):
    sequence = build_sequence(3, f"hand from the {edge}", PHOTO, 50 + EDGES.index(edge))
    covered = covered_indices(sequence)
    first, middle = covered[0], covered[len(covered) // 2]
    assert sequence.frame(first).covered_share < sequence.frame(middle).covered_share  # it slides in
    for index in (first, middle):
        mask = sequence.mask(index)
        assert mask[BORDER[edge]].any(), f"frame {index} covers nothing of the {edge} edge"
    assert not sequence.covered(0)  # out of sight when the wait begins


def test_timestamps_are_spaced_by_the_frame_rate_asked():
    sequence = build_sequence(0, "hand from the top", PHOTO, 7, fps=25.0)
    times = [frame.at for frame, _ in zip(sequence.frames(), range(10))]
    assert np.allclose(np.diff(times), 1 / 25.0)
    assert times[0] == 0.0


def test_the_hand_left_when_its_last_covered_frame_ended():
    sequence = build_sequence(0, "hand from the bottom", PHOTO, 11)
    covered = covered_indices(sequence)
    assert covered == list(range(covered[0], covered[-1] + 1))  # in, rest and out, no gap
    assert sequence.left_at == pytest.approx(sequence.at(covered[-1] + 1))
    assert sequence.duration - sequence.left_at >= 2.0  # time left to judge the clear table


def test_a_resting_hand_trembles_by_a_pixel_or_two():
    sequence = build_sequence(0, "hand through a resume", PHOTO, 5)
    mover = sequence.movers[0]
    resting = [i for i in range(sequence.frame_count) if mover.track.resting(sequence.at(i))]
    offsets = np.array([mover.offset(sequence.at(i), i, sequence.seed) for i in resting])
    assert len(resting) >= 25 and sequence.covered(0)
    assert len({tuple(o) for o in offsets}) > 1
    assert np.abs(np.diff(offsets, axis=0)).max() <= 2 * mover.track.tremor <= 4


def test_a_cup_stays_at_the_edge_for_the_whole_wait():
    sequence = build_sequence(0, "cup at the edge", PHOTO, 9, ask_after=4.0)
    assert sequence.duration == pytest.approx(7.0)
    assert all(sequence.covered(i) for i in range(0, sequence.frame_count, 10))
    assert sequence.left_at is None


def test_a_first_wait_has_no_reference_and_begins_clear():
    sequence = build_sequence(0, "hand at the first wait", PHOTO, 13)
    assert not sequence.has_reference
    assert not sequence.covered(0) and sequence.entered_at > 0


def test_a_phone_stays_after_the_hand_that_put_it_down_has_gone():
    sequence = build_sequence(0, "phone put down", PHOTO, 17)
    phone, hand = sequence.movers
    alone = [i for i in range(sequence.frame_count)
             if phone.sprite.covered_pixels(phone.offset(sequence.at(i), i, sequence.seed))
             and not hand.sprite.covered_pixels(hand.offset(sequence.at(i), i, sequence.seed))]
    assert len(alone) >= sequence.fps  # at least a second with the phone alone


def test_the_light_changes_while_the_hand_rests():
    sequence = build_sequence(0, "light change", PHOTO, 19)
    before, after = sequence.frame(0).image, sequence.frame(sequence.frame_count - 1).image
    assert abs(float(after.mean()) - float(before.mean())) > 5


def test_the_plan_takes_the_kinds_in_turn_over_the_photos_given():
    sequences = list(plan([PHOTO], 3, seed=1))
    assert [s.kind for s in sequences] == list(KINDS[:3])
    assert {s.photo for s in sequences} == {PHOTO}


def test_an_unknown_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="'a dog'"):
        build_sequence(0, "a dog", PHOTO, 1)
