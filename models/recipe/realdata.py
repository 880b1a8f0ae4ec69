"""The real photo set (Roboflow Universe rummikue/rummikub-nvypk-8cwem v1, CC BY 4.0) and its
frozen three-way split.

Labels are polygons; a tile is taken as the minimum-area rectangle around its polygon.
Class ids index data.yaml's alphabetical `names` list ("black_1", "black_10", ...), so
they are always mapped through that list. The split lives in models/split/: `train.txt`
(trained on), `validation.txt` (everything is chosen on these) and `test.txt` (frozen:
neither trained on nor looked at to choose anything), one file stem per line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import order_upright

REPO = Path(__file__).resolve().parents[2]
DEFAULT_DATASET = REPO.parent / "shared" / "datasets" / "rummikub-photos"
SPLIT_DIR = REPO / "models" / "split"
SPLITS = ("train", "validation", "test")

_COLOUR_LETTER = {"black": "K", "blue": "B", "orange": "O", "red": "R"}


@dataclass(frozen=True)
class Photo:
    image_path: Path
    tiles: tuple[tuple[str, np.ndarray], ...]  # (code, quad TL TR BR BL in pixels, top towards image top)

    @property
    def stem(self) -> str:
        return self.image_path.stem


def class_names(dataset: Path) -> list[str]:
    """data.yaml's names list, read without a YAML dependency (it is a plain block list)."""
    text = (dataset / "data.yaml").read_text()
    block = text.split("names:", 1)[1]
    names = []
    for line in block.splitlines()[1:]:
        m = re.match(r"^\s*-\s*(\S+)\s*$", line)
        if not m:
            break
        names.append(m.group(1))
    return names


def name_to_code(name: str) -> str:
    if name == "joker":
        return "J"
    colour, number = name.split("_")
    return f"{_COLOUR_LETTER[colour]}{int(number)}"


def load_photo(dataset: Path, image_path: Path, names: list[str]) -> Photo:
    label_path = dataset / "train" / "labels" / (image_path.stem + ".txt")
    h, w = cv2.imread(str(image_path), cv2.IMREAD_GRAYSCALE).shape[:2]
    tiles = []
    for line in label_path.read_text().splitlines():
        parts = line.split()
        if not parts:
            continue
        poly = np.array(parts[1:], float).reshape(-1, 2) * [w, h]
        box = cv2.boxPoints(cv2.minAreaRect(poly.astype(np.float32))).astype(np.float64)
        tiles.append((name_to_code(names[int(parts[0])]), order_upright(box)))
    return Photo(image_path, tuple(tiles))


def all_photos(dataset: Path = DEFAULT_DATASET) -> list[Photo]:
    names = class_names(dataset)
    images = sorted((dataset / "train" / "images").glob("*.jpg"))
    return [load_photo(dataset, p, names) for p in images]


def split_stems(split: str) -> set[str]:
    if split not in SPLITS:
        raise ValueError(f"split {split!r} is not one of {SPLITS}")
    lines = (SPLIT_DIR / f"{split}.txt").read_text().splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def load_splits(dataset: Path = DEFAULT_DATASET) -> dict[str, list[Photo]]:
    """{"train": [...], "validation": [...], "test": [...]}; a photo in no list is an error."""
    stems = {split: split_stems(split) for split in SPLITS}
    photos = all_photos(dataset)
    unlisted = [p.stem for p in photos if not any(p.stem in s for s in stems.values())]
    if unlisted:
        raise ValueError(f"photos in {str(dataset)!r} not in any split of {str(SPLIT_DIR)!r}: {unlisted[:3]}")
    return {split: [p for p in photos if p.stem in stems[split]] for split in SPLITS}


def load_split(dataset: Path = DEFAULT_DATASET) -> tuple[list[Photo], list[Photo]]:
    """(training photos, validation photos) for the tile models' recipe. The test split is left out."""
    splits = load_splits(dataset)
    return splits["train"], splits["validation"]
