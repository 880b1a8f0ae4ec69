"""With the play area given (marked by the referee, or kept for the game), what lies around the table must not
decide what is read on it. The detector first looks at the whole frame; when that look saw no sure face on the
area, because something outside swayed it (a stretch of the frame taken for one huge face, whose size makes the
table's real faces look like specks), the area's own box is looked at again, as when a sure face lay outside."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.pipeline as pipeline
from vision import read_image
from vision.area import PlayArea
from vision.detect import TileCandidate

PHOTO = Path(__file__).parent / "data" / "full_grid.jpg"
TABLE_AT = (1300, 100)  # where the photo lies in the larger frame


@pytest.fixture(scope="module")
def frame():
    """The bundled photo (1000x750, 54 tiles) as the table in a 2400x1500 frame of plain dark floor."""
    photo = cv2.imread(str(PHOTO))
    rng = np.random.default_rng(1)
    floor = np.clip(np.full((1500, 2400, 3), (60, 70, 80), float) + rng.normal(0, 6, (1500, 2400, 1)), 0, 255)
    image = floor.astype(np.uint8)
    x, y = TABLE_AT
    image[y:y + photo.shape[0], x:x + photo.shape[1]] = photo
    corners = ((x, y), (x + photo.shape[1], y), (x + photo.shape[1], y + photo.shape[0]), (x, y + photo.shape[0]))
    return image, PlayArea.marked(corners, image.shape[1], image.shape[0])


@pytest.fixture
def swayed_whole_look(monkeypatch, frame):
    """The detector's look at the whole frame finds one face 500 pixels wide on the bare floor and nothing else:
    the way a pale stretch of a real table beside a box of spare tiles swayed it. Any other look is the real one."""
    image, _ = frame
    real = pipeline.find_tiles
    slab = TileCandidate(np.float64([[150, 300], [650, 300], [650, 975], [150, 975]]), 0.9)
    looks: list[tuple[int, int]] = []

    def swayed(part, *args, **kwargs):
        looks.append(part.shape[:2])
        return (slab,) if part.shape == image.shape else real(part, *args, **kwargs)

    monkeypatch.setattr(pipeline, "find_tiles", swayed)
    return looks


def test_a_marked_area_whose_whole_look_saw_no_sure_face_is_looked_at_again_on_its_own_box(frame, swayed_whole_look):
    image, area = frame
    reading = read_image(image, area=area)
    assert swayed_whole_look == [image.shape[:2], (750, 1000)]
    alone = read_image(cv2.imread(str(PHOTO)))
    shifted = sorted((t.code, t.center[0] - TABLE_AT[0], t.center[1] - TABLE_AT[1]) for t in reading.tiles)
    as_alone = sorted((t.code, *t.center) for t in alone.tiles)
    assert [code for code, _, _ in shifted] == [code for code, _, _ in as_alone]
    assert all(abs(a[1] - b[1]) < 2 and abs(a[2] - b[2]) < 2 for a, b in zip(shifted, as_alone))
    assert len(reading.tiles) == 54


def test_an_area_found_on_the_frame_is_not_looked_at_again_for_want_of_a_sure_face(frame, swayed_whole_look):
    image, _ = frame
    reading = read_image(image)
    assert swayed_whole_look == [image.shape[:2]]
    assert reading.tiles == ()
