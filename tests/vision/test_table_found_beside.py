"""The play area of a frame read without one is found beside the reading: on the other core, from every face
the detector found, while the classifier reads them. It is taken when the classifier calls every face sure;
otherwise it is found again from the sure faces. Either way the reading is the one found after reading."""
from __future__ import annotations

import numpy as np
import pytest

import vision.pipeline as pipeline
from models.recipe.area_scenes import compose
from models.recipe.synth import random_melds, render_table
from vision import read_image
from vision.area import find_table


def _a_rendered_table():
    return render_table(random_melds(np.random.default_rng(5), 24), width=1280, height=720, seed=5, background="wood").image


def _beside_a_box_of_blank_faces():
    """The table beside a box holding blank, tile-sized cards: faces the detector finds that are no tiles."""
    table = _a_rendered_table()
    blank = np.full((60, 44, 3), 236, np.uint8)
    return compose(table, [blank] * 12, seed=3).image


@pytest.fixture
def counted(monkeypatch):
    """How often the table is found on a read, and from how many faces each time."""
    calls: list[int] = []

    def counting(image, faces, config=pipeline.DEFAULT_CONFIG, small=None, doubted=()):
        calls.append(len(faces))
        return find_table(image, faces, config, small, doubted)

    monkeypatch.setattr(pipeline, "find_table", counting)
    return calls


@pytest.mark.parametrize("frame", [_a_rendered_table, _beside_a_box_of_blank_faces],
                         ids=["every face a tile", "blank cards beside"])
def test_the_table_found_beside_reads_as_the_table_found_after_reading(frame, counted, monkeypatch):
    image = frame()
    beside = read_image(image).to_json_dict()
    found_beside = list(counted)
    counted.clear()
    within = pipeline._within_area
    # the long way: the table found again, after reading, from the faces read sure
    monkeypatch.setattr(pipeline, "_within_area", lambda *args, every_face_sure=None, **kw: within(*args, **kw))
    after = read_image(image).to_json_dict()
    assert beside == after
    assert len(counted) == 2 and len(found_beside) in (1, 2)
    if len(found_beside) == 1:  # every face sure: the table found beside was taken, from all of them
        assert found_beside[0] == len(after["tiles"]) + len(after["edge_tiles"])


def test_a_clean_table_is_found_once_while_its_faces_are_read(counted):
    read_image(_a_rendered_table())
    assert len(counted) == 1
