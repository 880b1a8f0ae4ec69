"""One camera's frames, read one after another, go straight to the size the detector looked at last
(`vision.DetectorLooks`); a frame whose tiles no longer fit that size is looked at as ever."""
from __future__ import annotations

import dataclasses
from collections import Counter

import cv2
import numpy as np

import vision.pipeline as pipeline
from models.recipe.synth import random_melds, render_table
from vision import DetectorLooks, read_image


def _counting(monkeypatch) -> list[int]:
    sizes: list[int] = []
    detect_at = pipeline._detect_at

    def counted(image, long_side, config, detector):
        sizes.append(long_side)
        return detect_at(image, long_side, config, detector)

    monkeypatch.setattr(pipeline, "_detect_at", counted)
    return sizes


def test_a_cameras_next_frame_is_looked_at_once_at_the_size_chosen_before(monkeypatch):
    table = render_table(random_melds(np.random.default_rng(5), 18), width=1920, height=1080, seed=5, background="wood")
    sizes = _counting(monkeypatch)
    alone = read_image(table.image)
    assert len(sizes) == 2 and sizes[0] != sizes[1]  # small tiles in a big frame: the detector looks again
    looks = DetectorLooks()
    first = read_image(table.image, looks=looks)
    sizes.clear()
    again = read_image(table.image, looks=looks)
    assert sizes == [looks.chosen(table.image.shape)] and len(sizes) == 1
    assert Counter(again.codes) == Counter(first.codes) == Counter(alone.codes)


def test_tiles_that_no_longer_fit_the_size_kept_are_looked_at_as_ever(monkeypatch):
    table = render_table(random_melds(np.random.default_rng(6), 18), width=1920, height=1080, seed=6, background="wood")
    looks = DetectorLooks()
    read_image(table.image, looks=looks)
    kept = looks.chosen(table.image.shape)
    # the camera zoomed in: a third of the frame, blown up to the frame's size, tiles three times as wide
    close = cv2.resize(table.image[:360, :640], (1920, 1080), interpolation=cv2.INTER_LINEAR)
    sizes = _counting(monkeypatch)
    alone = read_image(close)
    expected = list(sizes)
    sizes.clear()
    zoomed = read_image(close, looks=looks)
    assert sizes[0] == kept and sizes[1:] == expected  # the size kept, then as ever
    assert Counter(zoomed.codes) == Counter(alone.codes)
    assert looks.chosen(close.shape) == expected[-1]


def test_a_second_look_near_a_whole_fraction_of_the_frame_is_taken_there():
    from vision.config import DEFAULT_CONFIG
    from vision.pipeline import _whole_fraction

    assert _whole_fraction((2160, 3840), 1393, DEFAULT_CONFIG) == 1280  # a third of a 4K frame, 8% smaller
    assert _whole_fraction((1080, 1920), 1000, DEFAULT_CONFIG) == 960
    assert _whole_fraction((1080, 1920), 1506, DEFAULT_CONFIG) == 1506  # the whole frame is 27% larger
    assert _whole_fraction((1081, 1920), 1000, DEFAULT_CONFIG) == 1000  # a half would not be a whole number of rows
    assert _whole_fraction((4320, 7680), 1450, DEFAULT_CONFIG) == 1536  # a fifth of an 8K frame
    plain = dataclasses.replace(DEFAULT_CONFIG, detect_whole_fraction=0.0)
    assert _whole_fraction((2160, 3840), 1393, plain) == 1393


def test_a_4k_table_looked_at_a_whole_fraction_of_the_frame_is_read_whole(monkeypatch):
    from vision.config import DEFAULT_CONFIG

    table = render_table(random_melds(np.random.default_rng(4242), 40), width=3840, height=2160, seed=7, hands=0,
                         layout="rows")
    sizes = _counting(monkeypatch)
    small_first = dataclasses.replace(DEFAULT_CONFIG, detect_large_frame=0)
    twice = read_image(table.image, small_first)
    assert sizes == [640, 1280]  # a third of the frame, near the size the tiles asked for
    assert Counter(twice.codes) == Counter(table.codes)
    sizes.clear()
    computed = read_image(table.image, dataclasses.replace(small_first, detect_whole_fraction=0.0))
    assert len(sizes) == 2 and 3840 % sizes[1] != 0
    assert not Counter(computed.codes) - Counter(table.codes)  # (there this table's K11 is missed)


def test_a_4k_frame_is_first_looked_at_a_third_of_its_size_and_reads_as_when_looked_at_twice(monkeypatch):
    table = render_table(random_melds(np.random.default_rng(4242), 40), width=3840, height=2160, seed=7, hands=0,
                         layout="rows")
    sizes = _counting(monkeypatch)
    once = read_image(table.image)
    # at 640 a 4K frame's tiles are too small to read; that look only chose this one
    assert sizes == [1280]
    assert Counter(once.codes) == Counter(table.codes)
    sizes.clear()
    hd = cv2.resize(table.image, (1920, 1080), interpolation=cv2.INTER_AREA)
    read_image(hd)
    assert sizes[0] == 640  # a smaller frame is first looked at as before


def test_the_first_look_of_a_frame_by_its_size():
    from vision.config import DEFAULT_CONFIG
    from vision.pipeline import _first_look

    assert _first_look((2160, 3840), DEFAULT_CONFIG) == 1280
    assert _first_look((1440, 2560), DEFAULT_CONFIG) == 1280  # a half of a 1440p frame
    assert _first_look((1080, 1920), DEFAULT_CONFIG) == 640
    assert _first_look((750, 1000), DEFAULT_CONFIG) == 640
    assert _first_look((2160, 3840), dataclasses.replace(DEFAULT_CONFIG, detect_large_frame=0)) == 640
