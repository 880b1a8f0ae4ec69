"""Calibrating a club's set: a rendered photo of an edition and typeface the model never
trained on -> a profile -> that edition's tables read through it; layout mistakes named."""
import json

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision import TableReader
from vision.calibrate import LayoutTile, _check_in_place, calibrate
from vision.errors import CalibrationError, LayoutError, ProfileError
from vision.config import DEFAULT_CALIBRATION
from vision.layouts import DEFAULT_LAYOUT, parse_layout
from vision.profile import load_profile, save_profile
from models.recipe.synth import render_layout, unseen_designs
from models.recipe.typefaces import HELD_OUT_FAMILY, font_families

# The held-out edition always; its held-out typeface where the training fonts are installed
# (CI has no fonts: the numbers are then drawn in OpenCV's Hershey faces).
UNSEEN = dict(edition=unseen_designs()["edition"], wood="walnut",
              font_family=HELD_OUT_FAMILY if HELD_OUT_FAMILY in font_families() else None)
ROWS = [list(row) for row in DEFAULT_LAYOUT.pages[0]]


@pytest.fixture(scope="module")
def unseen_photo():
    return render_layout(ROWS, 1920, 1080, seed=5, **UNSEEN).image


@pytest.fixture(scope="module")
def unseen_calibration(unseen_photo):
    return calibrate([("unseen-set.png", unseen_photo)], DEFAULT_LAYOUT, name="ivory club")


def _codes_right(reading, rendered) -> int:
    centres = np.array([t.corners.mean(axis=0) for t in rendered.tiles])
    width = float(np.linalg.norm(rendered.tiles[0].corners[1] - rendered.tiles[0].corners[0]))
    right = 0
    for tile in reading.tiles:
        distance = np.hypot(*(centres - np.array(tile.center)).T)
        k = int(distance.argmin())
        right += distance[k] < width / 2 and rendered.tiles[k].code == tile.code
    return right


def test_every_tile_of_the_layout_is_placed_in_order(unseen_calibration):
    tiles = unseen_calibration.tiles
    assert len(tiles) == 106
    assert [t.code for t in tiles] == [code for row in ROWS for code in row]
    assert {(t.row, t.position) for t in tiles} == {(r + 1, p + 1) for r, row in enumerate(ROWS) for p in range(len(row))}


def test_profile_reads_another_photo_of_the_set_at_least_as_well(unseen_calibration):
    """Same camera and table as the calibration photo, another seed: the tiles lie and
    jitter differently. The profile must not read worse than the shipped model."""
    profile = unseen_calibration.profile
    assert profile.tiles == 106 and profile.fit_accuracy[1] >= profile.fit_accuracy[0]
    rows = [list(row) for row in ROWS]
    for row in rows:
        np.random.default_rng(len(row)).shuffle(row)  # other neighbours than at calibration
    rendered = render_layout(rows, 1920, 1080, seed=11, **UNSEEN)
    shipped = _codes_right(TableReader().read(rendered.image), rendered)
    calibrated = _codes_right(TableReader(profile=profile).read(rendered.image), rendered)
    assert calibrated >= shipped
    assert calibrated >= 100


def test_swapped_tiles_are_named_with_their_row_and_position():
    rows = [list(row) for row in ROWS]
    rows[2][4], rows[2][7] = rows[2][7], rows[2][4]  # B5 and B8 change places in the third row
    photo = render_layout(rows, 1920, 1080, seed=5, **UNSEEN).image
    with pytest.raises(CalibrationError) as caught:
        calibrate([("swapped.png", photo)], DEFAULT_LAYOUT)
    message = str(caught.value)
    assert "'swapped.png', row 3, position 5: B5 belongs there" in message or \
        "'swapped.png', row 3, position 8: B8 belongs there" in message, message


def test_rows_that_converge_under_a_steep_camera_are_still_placed_in_order():
    """At 30 degrees the far end of one row lies as low in the photo as the near end of the
    next: rows come from the reader's sets, each along its own line, not from bands of height."""
    photo = render_layout(ROWS, 1920, 1080, seed=6, perspective_deg=30, rotation_deg=3, **UNSEEN).image
    tiles = calibrate([("steep.png", photo)], DEFAULT_LAYOUT).tiles
    assert [t.code for t in tiles] == [code for row in ROWS for code in row]
    assert [t.row for t in tiles] == [r + 1 for r, row in enumerate(ROWS) for _ in row]


def _placed(codes_read: list[tuple]) -> list[LayoutTile]:
    """(code laid, code read[, confidence of the reading]) per tile."""
    return [LayoutTile("p.png", 1, k + 1, code, read, rest[0] if rest else 1.0, ((0, 0), (1, 0), (1, 1), (0, 1)))
            for k, (code, read, *rest) in enumerate(codes_read)]


def _embedding(looks: list[str]) -> np.ndarray:
    """One direction per code a tile looks like, the copies of a code a little apart."""
    names = sorted(set(looks))
    rng = np.random.default_rng(0)
    out = np.zeros((len(looks), len(names) + 4))
    for i, look in enumerate(looks):
        out[i, names.index(look)] = 1.0
        out[i, len(names):] = rng.normal(0, 0.1, 4)
    return out


# Each case: (code laid there, code read there) per tile, and the code each tile looks like.
IN_PLACE_CASES = {
    "a swap": ([("B5", "B8"), ("B8", "B5"), ("B5", "B5"), ("B8", "B8"), ("B1", "B1"), ("B1", "B1")],
               ["B8", "B5", "B5", "B8", "B1", "B1"], True),
    "a swap whose partner is read unsure": ([("B5", "B8"), ("B8", "B5", 0.5), ("B5", "B5"), ("B8", "B8"), ("B1", "B1"),
                                             ("B1", "B1")], ["B8", "B5", "B5", "B8", "B1", "B1"], True),
    "a misread the embedding shares": ([("B4", "B5"), ("B4", "B4"), ("B5", "B5"), ("B5", "B5"), ("B1", "B1"), ("B1", "B1")],
                                       ["B5", "B4", "B5", "B5", "B1", "B1"], False),
    "two codes drawn alike": ([("R11", "R7"), ("R1", "R7"), ("R11", "R11"), ("R1", "R1"), ("R7", "R7"), ("R7", "R7")],
                              ["R1-or-R11", "R1-or-R11", "R11", "R1", "R7", "R7"], False),
}


@pytest.mark.parametrize("case", IN_PLACE_CASES, ids=list(IN_PLACE_CASES))
def test_only_a_tile_whose_partner_place_is_disturbed_is_out_of_place(case):
    codes_read, looks, misplaced = IN_PLACE_CASES[case]
    placed = _placed(codes_read)
    if misplaced:
        with pytest.raises(CalibrationError, match=r"position 1: B5 belongs there, but the tile there looks like the B8"):
            _check_in_place(placed, _embedding(looks), DEFAULT_CALIBRATION)
    else:
        _check_in_place(placed, _embedding(looks), DEFAULT_CALIBRATION)


def test_a_missing_tile_names_the_row_and_counts():
    rows = [list(row) for row in ROWS]
    del rows[1][12]  # K13 of the second row left in the box
    photo = render_layout(rows, 1920, 1080, seed=5, **UNSEEN).image
    with pytest.raises(CalibrationError, match=r"'short.png', row 2: 12 tiles seen, the layout has 13 \(K1 \.\. K13\)"):
        calibrate([("short.png", photo)], DEFAULT_LAYOUT)


def test_a_photo_of_the_wrong_rows_says_how_many_rows_it_saw():
    photo = render_layout(ROWS[:6], 1920, 1080, seed=6, **UNSEEN).image
    with pytest.raises(CalibrationError, match=r"'six-rows.png': 6 rows of tiles seen .* the layout has 8 rows"):
        calibrate([("six-rows.png", photo)], DEFAULT_LAYOUT)


def test_layout_text_errors_name_the_line_and_code():
    with pytest.raises(LayoutError, match=r"line 2: unknown tile code 'Q5'"):
        parse_layout("K1 K2 K3\nQ5 K6\n", "club.txt")
    with pytest.raises(LayoutError, match=r"K1 listed more than the 2 copies"):
        parse_layout("K1 K1\nK1\n", "club.txt")
    two_pages = parse_layout("# first photo\nK1 K2\n---\nB1 B2  # second\n", "club.txt")
    assert two_pages.pages == ((("K1", "K2"),), (("B1", "B2"),))
    assert parse_layout(DEFAULT_LAYOUT.to_text(), "again").pages == DEFAULT_LAYOUT.pages


def test_profile_round_trips_and_refuses_another_classifier(unseen_calibration, tmp_path):
    path = tmp_path / "club.json"
    save_profile(unseen_calibration.profile, path)
    again = load_profile(path)
    assert np.array_equal(again.weight, unseen_calibration.profile.weight)
    assert again.name == "ivory club" and again.photos == ("unseen-set.png",)
    other = tmp_path / "other_cls.onnx"
    other.write_bytes(b"not the shipped classifier")
    with pytest.raises(ProfileError, match="was fitted to classifier sha256"):
        again.check_classifier(other)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"format": "tileref-set-profile", "version": 1, "name": "x"}))
    with pytest.raises(ProfileError, match=r"broken.json.*malformed profile"):
        load_profile(broken)


def test_calibrate_then_read_with_the_profile_on_the_command_line(unseen_photo, tmp_path, capsys):
    photo = tmp_path / "set.png"
    cv2.imwrite(str(photo), unseen_photo)
    profile = tmp_path / "club-set.json"
    assert main(["calibrate", str(photo), "--out", str(profile)]) == 0
    out = capsys.readouterr().out
    assert "calibrated 'club-set' on 106 tiles" in out and f"--profile {profile}" in out
    assert main(["read", str(photo), "--json", "--profile", str(profile)]) == 0
    reading = json.loads(capsys.readouterr().out)
    assert len(reading["tiles"]) >= 100
    assert main(["read", str(photo), "--profile", str(tmp_path / "none.json")]) == 2
    assert "none.json' does not exist" in capsys.readouterr().err

    # a game's readings record the profile they were read with (name and file digest), so an audit
    # can tell; without one they keep their old shape
    from controller.adapters.reader import VisionReader
    from controller.game.reading import TableReading
    read = VisionReader(str(profile)).read(unseen_photo)
    assert read.profile is not None and read.profile.startswith("club-set (") and len(read.profile) == len("club-set ()") + 16
    assert TableReading.from_json(read.to_json()).profile == read.profile  # (the rest is rounded in JSON)
    assert "profile" not in VisionReader().read(unseen_photo).to_json()


def test_show_layout_prints_the_default_rows(capsys):
    assert main(["calibrate", "--show-layout"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    assert lines[0].split() == [f"K{n}" for n in range(1, 14)]
    assert lines[-1].split()[-1] == "J" and len(lines) == 8


def test_the_game_reader_reads_through_a_profile_and_a_missing_one_stops_demo(unseen_calibration, unseen_photo,
                                                                           tmp_path, capsys):
    from controller.adapters.reader import VisionReader

    path = tmp_path / "club.json"
    save_profile(unseen_calibration.profile, path)
    reading = VisionReader(str(path)).read(unseen_photo)
    assert len(reading.tiles) >= 100
    assert main(["demo", "--profile", str(tmp_path / "lost.json"), "--out", str(tmp_path / "demo")]) == 2
    assert "lost.json' does not exist" in capsys.readouterr().err
