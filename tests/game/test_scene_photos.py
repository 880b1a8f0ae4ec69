"""Scenes of a real-looking table: bundled real faces and table tops, arms from any side."""
from __future__ import annotations

from importlib import resources

import numpy as np
import pytest

from controller.demo_games import bundled_game
from controller.demo.recorded_game import GameScript, ScriptError
from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from controller.demo.scene_photos import DATA_PACKAGE, TABLE_TOPS, face_crops, table_top
from vision.codes import CODES

REAL = SceneLayout(width=640, height=400, tile_width=32, seed=3, background="wood", faces="photo", hands="varied")


def test_every_code_has_two_different_real_crops_and_the_data_is_small():
    crops = face_crops()
    assert set(crops) == set(CODES)
    for code, faces in crops.items():
        assert len(faces) >= 2 and not np.array_equal(faces[0], faces[1]), code
    files = [f for f in resources.files(DATA_PACKAGE).iterdir() if f.name.endswith((".jpg", ".json"))]
    assert sum(len(f.read_bytes()) for f in files) < 800_000


def test_both_copies_of_a_code_on_the_table_are_different_tiles():
    renderer = SceneRenderer(REAL)
    a, b = renderer._face("R7", 0), renderer._face("R7", 1)
    assert a.shape == b.shape == (REAL.tile_height, REAL.tile_width, 4)
    assert np.abs(a[..., :3].astype(int) - b[..., :3].astype(int)).mean() > 3


@pytest.mark.parametrize("name", TABLE_TOPS)
def test_a_table_top_photo_covers_any_frame(name):
    for width, height in ((1280, 720), (640, 480), (300, 900)):
        top = table_top(name, width, height)
        assert top.shape == (height, width, 3) and top.std() > 2  # a photo, not a flat fill


def test_the_default_layout_is_still_the_felt_with_rendered_faces():
    layout = SceneLayout()
    assert layout.faces == "rendered" and layout.hands == "plain" and layout.background == (52, 92, 38)
    image = SceneRenderer(SceneLayout(width=320, height=200, tile_width=20, noise=0)).render(Scene(()))
    assert abs(float(image[..., 1].mean()) - 92) < 10  # green felt


def test_an_arm_over_the_table_changes_the_picture_from_an_edge():
    renderer = SceneRenderer(REAL)
    table = Scene.of([{"tiles": ["K10", "K11", "K12"], "at": [1, 2]}])
    changed = np.abs(renderer.render(table.with_hand()).astype(int) - renderer.render(table).astype(int)).max(axis=2) > 40
    edges = changed[0].any() or changed[-1].any() or changed[:, 0].any() or changed[:, -1].any()
    assert edges and 0.01 < changed.mean() < 0.4


@pytest.mark.parametrize("layout, word", [({"background": "carpet"}, "carpet"), ({"faces": "drawn"}, "drawn"),
                                          ({"hands": "gloved"}, "gloved"), ({"background": [1, 2]}, "[1, 2]")])
def test_a_script_with_a_layout_that_does_not_exist_names_it(layout, word):
    data = {"variant": "classic", "players": ["A", "B"], "start_draw": [], "turns": [], "layout": layout}
    with pytest.raises(ScriptError, match=word.replace("[", r"\[").replace("]", r"\]")):
        GameScript.from_dict(data, "x.json")


def test_the_wood_game_script_is_a_legal_whole_game():
    from pathlib import Path

    script = GameScript.load(bundled_game("wood-game"))
    assert len(script.turns) >= 20 and len(script.players) == 4 and script.variant == "classic"
    assert {t.expect for t in script.turns} == {"legal", "draw", "penalty"}
    assert any(t.restoring for t in script.turns) and script.layout.faces == "photo"
