"""Real tile faces and real table tops for rendered scenes, bundled with the package.

`controller/demo/scene_data/` holds an atlas of face crops cut from real photos of one
Rummikub set (two different crops of every code) and a few table-top photos, built by
`python -m models.recipe.scene_assets` (see scene_data/README.md for the source and licence).
They are found through the package (importlib.resources), not through the repository, so
an installed tileref has them too.
"""
from __future__ import annotations

import functools
import json
from importlib import resources

import cv2
import numpy as np

from controller.adapters.errors import AdapterError

DATA_PACKAGE = "controller.demo.scene_data"
TABLE_TOPS = ("wood", "grey", "white")


class SceneDataError(AdapterError):
    """The bundled scene data is missing or damaged (names the file)."""


def _read(name: str) -> bytes:
    try:
        return resources.files(DATA_PACKAGE).joinpath(name).read_bytes()
    except (FileNotFoundError, ModuleNotFoundError, OSError) as error:
        raise SceneDataError(f"bundled scene file {DATA_PACKAGE}/{name} cannot be read: {error}") from None


def _decode(name: str) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(_read(name), np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise SceneDataError(f"bundled scene file {DATA_PACKAGE}/{name} is not a readable image")
    return image


@functools.lru_cache(maxsize=1)
def face_crops() -> dict[str, tuple[np.ndarray, ...]]:
    """{code: (crop, crop, ...)}: upright BGR faces of the real set, each from a different photo."""
    try:
        index = json.loads(_read("faces.json"))
        cell_w, cell_h = index["cell"]
        atlas = _decode("faces.jpg")
        out: dict[str, list[np.ndarray]] = {}
        for entry in index["faces"]:
            r, c = entry["cell"]
            crop = atlas[r * cell_h: (r + 1) * cell_h, c * cell_w: (c + 1) * cell_w]
            if crop.shape[:2] != (cell_h, cell_w):
                raise SceneDataError(f"bundled scene file {DATA_PACKAGE}/faces.json: cell {r},{c} lies outside faces.jpg")
            out.setdefault(entry["code"], []).append(crop.copy())
    except (KeyError, TypeError, ValueError) as error:
        raise SceneDataError(f"bundled scene file {DATA_PACKAGE}/faces.json is malformed: {error!r}") from None
    return {code: tuple(crops) for code, crops in out.items()}


@functools.lru_cache(maxsize=4)
def _table_top(name: str) -> np.ndarray:
    if name not in TABLE_TOPS:
        raise SceneDataError(f"table top {name!r} is not one of the bundled ones: {', '.join(TABLE_TOPS)}")
    return _decode(f"table-{name}.jpg")


def table_top(name: str, width: int, height: int) -> np.ndarray:
    """The bundled photo `name`, scaled to cover width x height and cut to it around its centre."""
    photo = _table_top(name)
    h, w = photo.shape[:2]
    scale = max(width / w, height / h)
    size = (max(width, int(np.ceil(w * scale))), max(height, int(np.ceil(h * scale))))
    resized = cv2.resize(photo, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    y0, x0 = (resized.shape[0] - height) // 2, (resized.shape[1] - width) // 2
    return np.ascontiguousarray(resized[y0: y0 + height, x0: x0 + width])
