"""A camera's frame in a play area is read again only where it changed since its last whole read
(`vision.TableMemory`, vision/changes.py): the faces elsewhere keep their readings, and what a whole read
of the same frame says about the tiles is what the read in part says."""
from __future__ import annotations

import dataclasses
from collections import Counter

import cv2
import numpy as np
import pytest

import vision.pipeline as pipeline
from models.recipe.synth import random_melds, render_table
from vision import DEFAULT_CONFIG, DetectorLooks, TableMemory, read_image
from vision.area import PlayArea
from vision.changes import block_means, changed_regions


def _whole_area(image: np.ndarray) -> PlayArea:
    height, width = image.shape[:2]
    return PlayArea.marked([(0, 0), (width, 0), (width, height), (0, height)], width, height)


MELDS = random_melds(np.random.default_rng(21), 40)


@pytest.fixture(scope="module")
def table():
    return render_table(MELDS, width=1920, height=1080, seed=21, background="wood")


def _counting(monkeypatch) -> list[tuple[int, int]]:
    """The (height, width) of every image the detector is given."""
    shapes: list[tuple[int, int]] = []
    detect_at = pipeline._detect_at

    def counted(image, long_side, config, detector):
        shapes.append(image.shape[:2])
        return detect_at(image, long_side, config, detector)

    monkeypatch.setattr(pipeline, "_detect_at", counted)
    return shapes


class Camera:
    """One camera's reads, as the table's reader makes them: its looks and its memory kept between reads."""

    def __init__(self, area: PlayArea, config=None):
        self.area, self.config = area, config
        self.looks, self.memory = DetectorLooks(), TableMemory()

    def read(self, image):
        return read_image(image, self.config, area=self.area, looks=self.looks, memory=self.memory)


def _code_at(reading, place) -> str:
    """The code of the tile read nearest to `place` (within a few pixels)."""
    centres = np.array([t.center for t in reading.tiles])
    distances = np.linalg.norm(centres - np.array(place), axis=1)
    assert distances.min() < 6.0, place
    return reading.tiles[int(np.argmin(distances))].code


def _same_tiles(part, whole, apart_from: np.ndarray | None = None) -> None:
    """The same codes at the same places (to a few pixels) and the same sets' codes; with `apart_from`
    (a mask of the frame), only the tiles whose middles lie off it."""
    def off(reading):
        return [t for t in reading.tiles
                if apart_from is None or not apart_from[int(t.center[1]), int(t.center[0])]]

    assert Counter(t.code for t in off(part)) == Counter(t.code for t in off(whole))
    centres = np.array([t.center for t in whole.tiles])
    for tile in off(part):
        nearest = int(np.argmin(np.linalg.norm(centres - np.array(tile.center), axis=1)))
        assert np.linalg.norm(centres[nearest] - np.array(tile.center)) < 6.0, tile
        assert whole.tiles[nearest].code == tile.code, tile
    if apart_from is None:
        assert Counter(s.codes for s in part.sets) == Counter(s.codes for s in whole.sets)


def test_an_unchanged_frame_is_not_looked_at_again_and_reads_the_same(table, monkeypatch):
    camera = Camera(_whole_area(table.image))
    first = camera.read(table.image)
    shapes = _counting(monkeypatch)
    again = camera.read(table.image)
    assert shapes == []
    assert (camera.memory.whole_reads, camera.memory.part_reads) == (1, 1)
    assert again.to_json_dict() == first.to_json_dict()


def test_a_tile_turned_over_for_another_is_read_again_where_it_lies(table, monkeypatch):
    camera = Camera(_whole_area(table.image))
    first = camera.read(table.image)
    melds = [list(meld) for meld in MELDS]
    was = melds[0][1]
    melds[0][1] = "R7" if was != "R7" else "B7"
    other = render_table(melds, width=1920, height=1080, seed=21, background="wood")  # the same layout
    place = next(t.center for t in table.tiles if t.meld == 0 and t.position == 1)
    assert _code_at(first, place) == was
    shapes = _counting(monkeypatch)
    part = camera.read(other.image)
    assert camera.memory.part_reads == 1
    # only the changed tile's neighbourhood is looked at: within a few tiles of it
    width = float(np.median([np.linalg.norm(t.corners[1] - t.corners[0]) for t in table.tiles]))
    assert shapes and all(max(h, w) < 6 * width for h, w in shapes)
    assert _code_at(part, place) == melds[0][1]
    _same_tiles(part, read_image(other.image, area=camera.area))
    # the tiles away from it were not read again: they lie where the whole read put them, to the last bit
    centres = {t.center for t in part.tiles}
    away = [t for t in first.tiles if np.linalg.norm(np.array(t.center) - np.array(place)) > 1.5 * width]
    assert away and all(t.center in centres for t in away)


def test_a_hand_over_part_of_the_table_and_gone_again(table):
    camera = Camera(_whole_area(table.image))
    first = camera.read(table.image)
    covered = table.image.copy()
    cv2.ellipse(covered, (700, 500), (260, 110), 20, 0, 360, (80, 120, 175), -1)
    part = camera.read(covered)
    # a face the hand half covers reads as the crop round it shows it: the tiles a tile or more away
    # from the hand read as a whole read does
    near = np.zeros(covered.shape[:2], np.uint8)
    cv2.ellipse(near, (700, 500), (260 + 130, 110 + 130), 20, 0, 360, 1, -1)
    _same_tiles(part, read_image(covered, area=camera.area), apart_from=near > 0)
    back = camera.read(table.image)
    assert camera.memory.part_reads == 2
    _same_tiles(back, first)


def test_a_frame_changed_over_most_of_it_is_read_whole(table):
    camera = Camera(_whole_area(table.image))
    camera.read(table.image)
    moved = np.roll(table.image, 60, axis=1)  # the camera knocked sideways
    reading = camera.read(moved)
    assert (camera.memory.whole_reads, camera.memory.part_reads) == (2, 0)
    _same_tiles(reading, read_image(moved, area=camera.area))


def test_every_so_many_frames_in_a_row_one_is_read_whole(table):
    config = dataclasses.replace(DEFAULT_CONFIG, changed_whole_every=2)
    camera = Camera(_whole_area(table.image), config)
    for _ in range(6):
        camera.read(table.image)
    assert (camera.memory.whole_reads, camera.memory.part_reads) == (2, 4)


def test_a_frame_without_a_play_area_or_of_another_size_is_read_whole(table):
    camera = Camera(None)
    camera.read(table.image)
    camera.read(table.image)
    assert camera.memory.part_reads == 0 and camera.memory.last is None
    camera = Camera(_whole_area(table.image))
    camera.read(table.image)
    smaller = cv2.resize(table.image, (1280, 720), interpolation=cv2.INTER_AREA)
    camera.area = _whole_area(smaller)
    camera.read(smaller)
    assert (camera.memory.whole_reads, camera.memory.part_reads) == (2, 0)


def test_the_memory_is_off_when_the_config_says_so(table):
    camera = Camera(_whole_area(table.image), dataclasses.replace(DEFAULT_CONFIG, read_changed_only=False))
    camera.read(table.image)
    camera.read(table.image)
    assert camera.memory.part_reads == 0


@pytest.mark.parametrize("level", [8, 40], ids=["a change too faint", "a change"])
def test_a_block_changes_when_its_mean_moves_by_more_than_the_level(level):
    before = np.full((400, 600, 3), 120, np.uint8)
    after = before.copy()
    after[200:210, 300:310, 1] += level  # one block of 10 pixels, in one channel
    changed = changed_regions(after, block_means(before, 10), 10, 30.0, DEFAULT_CONFIG)
    if level <= DEFAULT_CONFIG.changed_level:
        assert changed.boxes == () and not changed.grown.any()
        return
    assert changed.share == pytest.approx(1 / (40 * 60))
    # grown by a tile's reach (30 pixels: 3 blocks, and one more), read with a tile's context round it
    assert changed.grown.sum() == 9 * 9
    assert changed.holds(np.array([[305.0, 205.0], [305.0 + 40, 205.0], [305.0 + 60, 205.0]])).tolist() == [True, True, False]
    assert changed.boxes == ((260 - 30, 160 - 30, 350 + 30, 250 + 30),)


def test_rectangles_that_overlap_are_made_one():
    before = np.full((400, 600, 3), 120, np.uint8)
    after = before.copy()
    after[100:110, 100:110] = 250
    after[100:110, 200:210] = 250  # near enough: their rectangles overlap
    after[300:310, 500:510] = 250  # far from both
    changed = changed_regions(after, block_means(before, 10), 10, 30.0, DEFAULT_CONFIG)
    assert len(changed.boxes) == 2
    (x0, y0, x1, y1), far = changed.boxes
    assert x0 <= 100 and x1 >= 210 and far[0] > x1


def test_a_change_in_the_frames_last_partial_blocks_is_seen():
    before = np.full((405, 607, 3), 120, np.uint8)
    after = before.copy()
    after[401:405, 601:607] = 250  # a corner narrower than a block
    changed = changed_regions(after, block_means(before, 10), 10, 30.0, DEFAULT_CONFIG)
    assert changed.changed[-1, -1] and changed.changed.sum() == 1
    assert changed.boxes and changed.boxes[-1][2:] == (607, 405)
