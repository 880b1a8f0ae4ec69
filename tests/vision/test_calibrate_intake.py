"""What calibration takes in: a tile cut by a photo's border is refused by where it lies, and a
tile shown in two photos of a several-photo layout is the same tile seen twice."""
from __future__ import annotations

import re

import numpy as np
import pytest

from vision import read_image
from vision.calibrate import calibrate, place_layout
from vision.errors import CalibrationError, LayoutError
from vision.layouts import parse_layout
from models.recipe.synth import render_layout

ROWS = [["K1", "K2", "K3", "K4", "K5"], ["B1", "B2", "B3", "B4", "B5"]]


def test_a_tile_cut_by_the_photos_border_is_named_by_where_it_lies():
    rendered = render_layout(ROWS, 1280, 720, seed=4)
    right_most = max(rendered.tiles, key=lambda t: t.corners[:, 0].mean())
    cut_at = int(right_most.corners[:, 0].mean())  # through the middle of the right-most tile
    photo = np.ascontiguousarray(rendered.image[:, :cut_at])
    reading = read_image(photo)
    with pytest.raises(CalibrationError) as refused:
        place_layout(reading, tuple(tuple(r) for r in ROWS), "cut.png")
    said = str(refused.value)
    assert re.search(r"'cut.png': the tile at \d+,\d+ is cut by the photo's right border; lay it inside", said), said
    x, y = (int(v) for v in re.search(r"at (\d+),(\d+)", said).groups())
    assert abs(x - cut_at) < 0.6 * np.linalg.norm(right_most.corners[1] - right_most.corners[0])
    assert abs(y - right_most.corners[:, 1].mean()) < 40


def test_the_whole_layout_inside_the_photo_is_placed():
    rendered = render_layout(ROWS, 1280, 720, seed=4)
    placed = place_layout(read_image(rendered.image), tuple(tuple(r) for r in ROWS), "whole.png")
    assert [t.code for t in placed] == [c for row in ROWS for c in row]


def test_a_joker_shown_in_two_photos_is_one_joker_seen_twice():
    layout = parse_layout("K1 K2 K3 J\n---\nB1 B2 B3 J\n---\nO1 O2 O3 J\n", "three-photos.txt")
    assert [page[0][-1] for page in layout.pages] == ["J", "J", "J"]
    pages = [[list(row) for row in page] for page in layout.pages[:2]]
    two = parse_layout("K1 K2 K3 J\n---\nB1 B2 B3 J\n", "two-photos.txt")
    photos = [(f"part-{k}.png", render_layout(rows, 1280, 720, seed=20 + k).image) for k, rows in enumerate(pages)]
    result = calibrate(photos, two, name="two photos")
    assert [t.code for t in result.tiles].count("J") == 2
    assert {t.photo for t in result.tiles if t.code == "J"} == {"part-0.png", "part-1.png"}


def test_one_photo_still_shows_at_most_two_copies():
    with pytest.raises(LayoutError, match=r"'club.txt' page 2: J listed more than the 2 copies a set has"):
        parse_layout("K1 J\n---\nJ J J\n", "club.txt")
