"""`tileref read`: JSON per image, annotation file, human table."""
import json
from pathlib import Path

import cv2

from controller.cli import main

DATA = Path(__file__).parent / "data"


def test_one_image_prints_one_json_object(capsys):
    assert main(["read", str(DATA / "melds.jpg"), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["image"] == str(DATA / "melds.jpg")
    assert (d["width"], d["height"]) == (1000, 750)
    assert len(d["tiles"]) >= 15


def test_several_images_print_one_object_per_line_and_annotate_each(tmp_path, capsys):
    out = tmp_path / "seen.png"
    images = [str(DATA / "single.jpg"), str(DATA / "empty.jpg")]
    assert main(["read", *images, "--json", "--annotate", str(out)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [json.loads(line)["image"] for line in lines] == images
    for stem in ("single", "empty"):
        drawn = cv2.imread(str(tmp_path / f"seen-{stem}.png"))
        assert drawn is not None and drawn.shape[:2] == (750, 1000) or drawn.shape[:2] == (1000, 750)


def test_human_table_lists_sets(capsys):
    assert main(["read", str(DATA / "melds.jpg")]) == 0
    out = capsys.readouterr().out
    assert "melds.jpg:" in out and "set  1:" in out


def test_annotation_to_an_unwritable_place_exits_2(tmp_path, capsys):
    target = tmp_path / "no" / "such" / "dir" / "out.png"
    assert main(["read", str(DATA / "single.jpg"), "--annotate", str(target)]) == 2
    assert str(target) in capsys.readouterr().err
