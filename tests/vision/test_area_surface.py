"""The found play area decides which faces are dropped, not which pixels are read: a face outside the
quadrilateral that lies on the table's own surface, beside the area or in a set with faces inside it, is
read; one on another surface (a box's tray, a rack) is not. Frames are drawn here or rendered; the spare
faces of the box are cut from train-split photos (models/split/train.txt; nothing here chooses a threshold).
"""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from models.recipe.area_scenes import FACE_HEIGHT, FACE_WIDTH, cut_faces, place_face
from models.recipe.realdata import DEFAULT_DATASET, class_names, load_photo, split_stems
from models.recipe.synth import random_melds, render_table
from vision import read_image
from vision.area import PlayArea, _filled, find_play_area, find_table, split_faces, split_on_table
from vision.config import DEFAULT_CONFIG

SPARE_PHOTOS = ("rummy-4_jpeg", "rummy-6_jpeg")  # whole sets laid out (train split)
needs_photos = pytest.mark.skipif(not (DEFAULT_DATASET / "data.yaml").exists(), reason="the shared photo set is not beside the repository")


def _face(x: float, y: float, width: float = 40.0) -> np.ndarray:
    return np.float64([[x, y], [x + width, y], [x + width, y + 1.35 * width], [x, y + 1.35 * width]])


def _drawn_table():
    """A grey cloth (with a lamp's fall-off) under three rows of faces, and a box of faces on a dark tray
    beside it on a red floor: faces as drawn, the rows' and the box's."""
    rng = np.random.default_rng(4)
    h, w = 600, 900
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = (40, 40, 160)  # the floor
    ys, xs = np.mgrid[0:h, 0:w]
    light = 1.0 - 0.25 * ((xs - 450) ** 2 + (ys - 330) ** 2) / (450 ** 2 + 330 ** 2)
    cloth = np.clip(np.float64([150, 150, 150])[None, None] * light[..., None] + rng.normal(0, 6, (h, w, 1)), 0, 255)
    frame[60:, 170:] = cloth[60:, 170:].astype(np.uint8)
    cv2.rectangle(frame, (60, 120), (160, 560), (30, 30, 150), -1)  # the box's walls, just beside the cloth
    cv2.rectangle(frame, (68, 128), (152, 552), (45, 35, 30), -1)  # its tray
    rows = [[_face(230 + 44 * k, y) for k in range(12)] for y in (80, 220, 380)]
    box = [_face(100, 150 + 75 * r) for r in range(5)]
    for face in [f for row in rows for f in row] + box:
        cv2.fillConvexPoly(frame, np.round(face).astype(np.int32), (235, 240, 245))
        cv2.putText(frame, "7", tuple(np.int32(face[0] + (10, 40))), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (20, 20, 200), 2)
    return frame, rows, box


def test_a_row_on_the_tables_cloth_cut_off_by_the_area_is_kept_and_the_box_beside_is_not():
    frame, rows, box = _drawn_table()
    faces = [f for row in rows for f in row] + box
    table = find_table(frame, faces)
    assert table.on_table is not None
    # an area that cut the top row off, as one found beside a box lying above the table did
    cut = dataclasses.replace(table, area=PlayArea(((170.0, 150.0), (900.0, 150.0), (900.0, 600.0), (170.0, 600.0))))
    plain = split_faces(cut.area, faces)
    assert set(range(12)) <= set(plain.outside)  # the top row lies outside it
    assert set(range(36, 41)) <= set(plain.outside)  # and so does the box, as near the area's edge
    split = split_on_table(cut, faces, [True] * len(faces))
    assert set(range(12)) <= set(split.inside)
    assert not set(range(36, 41)) & set(split.inside)  # the box's faces lie on its tray


def test_a_face_on_the_cloth_far_from_the_area_and_in_no_set_with_its_faces_is_dropped():
    frame, rows, _ = _drawn_table()
    lone = _face(800, 520)
    cv2.fillConvexPoly(frame, np.round(lone).astype(np.int32), (235, 240, 245))
    faces = rows[1] + [lone]
    table = find_table(frame, faces)
    small = dataclasses.replace(table, area=PlayArea(((200.0, 200.0), (780.0, 200.0), (780.0, 300.0), (200.0, 300.0))))
    split = split_on_table(small, faces, [True] * len(faces))
    assert len(faces) - 1 not in split.inside  # three tile widths below the area, alone
    assert set(range(12)) <= set(split.inside)


def test_a_face_not_sure_to_be_a_tile_is_never_taken_in():
    frame, rows, _ = _drawn_table()
    faces = [f for row in rows for f in row]
    table = find_table(frame, faces)
    cut = dataclasses.replace(table, area=PlayArea(((170.0, 150.0), (900.0, 150.0), (900.0, 600.0), (170.0, 600.0))))
    split = split_on_table(cut, faces, [k >= 12 for k in range(len(faces))])
    assert not set(range(12)) & set(split.inside)


def test_the_fill_takes_the_colour_around_a_hole_and_leaves_the_rest():
    image = np.zeros((64, 96, 3), np.uint8)
    image[:32] = (10, 20, 30)
    image[32:] = (200, 150, 100)
    holes = np.zeros((64, 96), np.uint8)
    holes[36:60, 10:40] = 255  # in the lower colour
    holes[:, 80:] = 255  # a strip across both
    filled = _filled(image, holes)
    assert (filled[holes == 0] == image[holes == 0]).all()
    assert np.abs(filled[40:56, 15:35].astype(int) - (200, 150, 100)).max() <= 2
    assert np.abs(filled[2, 90].astype(int) - (10, 20, 30)).max() <= 40
    assert np.abs(filled[62, 90].astype(int) - (200, 150, 100)).max() <= 40


def test_a_frame_all_holes_is_filled_with_no_error():
    image = np.full((20, 30, 3), 77, np.uint8)
    assert _filled(image, np.full((20, 30), 255, np.uint8)).shape == image.shape


@pytest.fixture(scope="module")
def spare_faces():
    names = class_names(DEFAULT_DATASET)
    faces = []
    for stem in split_stems("train"):
        if stem.split(".")[0] in SPARE_PHOTOS:
            photo = load_photo(DEFAULT_DATASET, DEFAULT_DATASET / "train" / "images" / f"{stem}.jpg", names)
            faces += cut_faces(cv2.imread(str(photo.image_path)), [quad for _, quad in photo.tiles])
    return faces


def _box_above(frame: np.ndarray, bottom: int, faces, tile_height: float, seed: int) -> None:
    """A box of spare tiles across the top of the frame, its lower wall at `bottom`."""
    rng = np.random.default_rng(seed)
    width = frame.shape[1]
    cv2.rectangle(frame, (50, 0), (width - 50, bottom), (30, 30, 150), -1)
    cv2.rectangle(frame, (58, 8), (width - 58, bottom - 8), (40, 45, 30), -1)
    face_width = tile_height * FACE_WIDTH / FACE_HEIGHT
    for c in range(int((width - 116) // (1.2 * face_width))):
        centre = (58 + (c + 0.5) * 1.2 * face_width, 8 + 0.55 * tile_height)
        place_face(frame, faces[int(rng.integers(len(faces)))], centre, face_width, float(rng.uniform(-10, 10)))


@needs_photos
def test_a_table_whose_top_row_lies_just_below_a_box_is_read_whole_and_the_box_not(spare_faces):
    """The cloth table fills the frame below a box of spare tiles lying across its top; the area found
    stops short of the top row and cuts a corner (main 4e825d2 read 21 of the 24 tiles here), all on the cloth."""
    frame, rendered, top = _table_below_a_box(spare_faces, seed=4)
    reading = read_image(frame)
    on_table = [np.float32(t.corners - (0, top - 150)).reshape(-1, 1, 2) for t in rendered.tiles]
    read_on = sum(any(cv2.pointPolygonTest(q, tuple(map(float, t.center)), False) >= 0 for t in reading.tiles) for q in on_table)
    assert read_on == len(rendered.tiles)
    assert all(t.center[1] > 150 for t in reading.tiles)  # nothing from the box


def _table_below_a_box(spare_faces, seed):
    rendered = render_table(random_melds(np.random.default_rng(seed), 24), width=1000, height=600, seed=seed,
                            background="cloth", layout="rows", perspective_deg=0.0, rotation_deg=0.0, fill=0.9,
                            hands=0, shadows=0)
    tile_height = float(np.median([np.linalg.norm(t.corners[3] - t.corners[0]) for t in rendered.tiles]))
    top = int(min(t.corners[:, 1].min() for t in rendered.tiles) - 0.3 * tile_height)
    body = rendered.image[top:]
    frame = np.zeros((150 + body.shape[0], 1000, 3), np.uint8)
    frame[150:] = body
    _box_above(frame, 150, spare_faces, tile_height, seed)
    return frame, rendered, top


def test_find_play_area_is_the_area_of_find_table():
    rendered = render_table([["R5", "R6", "R7"], ["K9", "B9", "O9"]], width=960, height=540, seed=2, background="wood")
    quads = [t.corners for t in rendered.tiles]
    assert find_play_area(rendered.image, quads) == find_table(rendered.image, quads, DEFAULT_CONFIG).area


def test_colour_distance_in_place_is_the_formulas_to_the_last_bit():
    from vision.area import _distance

    rng = np.random.default_rng(3)
    surface = rng.uniform(-130, 130, (37, 53, 3)).astype(np.float32)
    centre = rng.uniform(-50, 50, 3).astype(np.float32)
    spread = rng.uniform(3, 20, 3).astype(np.float32)
    for scale in (spread, spread * (2.0, 1.0, 1.0)):
        expected = np.sqrt((((surface - centre) / scale) ** 2).sum(axis=2))
        got = _distance(surface, centre, scale)
        assert got.dtype == expected.dtype and np.array_equal(got, expected)


@pytest.mark.parametrize("spike", [
    pytest.param([(250, 60), (250, 110), (310, 70)], id="spike-to-a-lid-on-the-right"),
    pytest.param([(180, 150), (250, 150), (240, 188)], id="spike-to-a-box-below"),
    pytest.param([(60, 110), (60, 150), (5, 140)], id="spike-to-a-rack-on-the-left"),
])
def test_a_spike_of_the_table_towards_a_lid_takes_no_corner(spike):
    from vision.area import _hull, _quadrilateral

    region = np.zeros((190, 320), np.uint8)
    cv2.rectangle(region, (60, 10), (250, 150), 1, -1)
    cv2.fillConvexPoly(region, np.int32(spike), 1)
    hull = _hull(region).reshape(-1, 2).astype(float)
    table = np.float64([(60, 10), (250, 10), (250, 150), (60, 150)])
    # the hull simplified alone takes the spike's tip for a corner and cuts one of the table's off
    assert np.abs(_quadrilateral(hull) - table).max() > 20
    assert np.abs(_quadrilateral(hull, region) - table).max() <= 2


def _wood_table(with_corner_tile: bool):
    """A brown top on a blue floor with three rows of faces, and one face at the top's bottom-right corner
    (nearer the edge than a tile's width): the frame, the rows' faces and the corner face."""
    rng = np.random.default_rng(5)
    h, w = 600, 900
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = (150, 80, 30)
    frame[40:570, 100:820] = np.clip(np.float64([40, 70, 120])[None, None] + rng.normal(0, 5, (530, 720, 1)), 0, 255)
    rows = [_face(200 + 34 * k, y, 30) for k in range(12) for y in (150, 280, 400)]
    corner = _face(765, 505, 30)
    for face in rows + ([corner] if with_corner_tile else []):
        cv2.fillConvexPoly(frame, np.round(face).astype(np.int32), (235, 240, 245))
        cv2.putText(frame, "5", tuple(np.int32(face[0] + (10, 40))), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (200, 20, 20), 2)
    return frame, rows, corner


def test_a_doubted_face_at_the_tables_corner_is_painted_out_and_cuts_no_corner_off():
    frame, rows, corner = _wood_table(with_corner_tile=True)
    without_the_tile = find_table(_wood_table(with_corner_tile=False)[0], rows).area.quad
    # left on the surface, the face and the strip of top beyond it are cut from the table: a corner goes
    assert np.abs(find_table(frame, rows).area.quad - without_the_tile).max() > 40
    assert np.abs(find_table(frame, rows, doubted=[corner]).area.quad - without_the_tile).max() <= 12


@pytest.mark.parametrize("sizes, sure, painted", [
    pytest.param([30, 30, 30, 30], [True, True, True, False], [3], id="a-doubted-face-of-a-tiles-size"),
    pytest.param([30, 30, 30, 15], [True, True, True, False], [3], id="a-doubted-half-of-a-tile"),
    pytest.param([30, 30, 30, 300], [True, True, True, False], [], id="a-doubted-stretch-as-large-as-the-table"),
    pytest.param([300, 30], [False, True], [], id="too-few-faces-to-know-a-tiles-size"),
    pytest.param([30, 30, 30], [True, True, True], [], id="every-face-sure"),
])
def test_only_doubted_faces_no_larger_than_a_tile_are_painted(sizes, sure, painted):
    from vision.pipeline import _doubted_faces

    outlines = [_face(50.0 * k, 0.0, width) for k, width in enumerate(sizes)]
    got = _doubted_faces(outlines, sure, DEFAULT_CONFIG)
    assert [next(k for k, o in enumerate(outlines) if o is g) for g in got] == painted
