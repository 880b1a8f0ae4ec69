"""Build the real tile faces and table tops that recorded-game scenes paste together.

    python -m models.recipe.scene_assets            # -> controller/demo/scene_data/
    python -m models.recipe.scene_assets --sheet /tmp/faces.png   # also a labelled contact sheet to look at

From the training photos of the real set (models/split/train.txt; Roboflow Universe
rummikue/rummikub-nvypk-8cwem v1, CC BY 4.0) it cuts the face of every labelled tile,
rectified upright, and keeps CROPS_PER_CODE of each of the 53 codes, each from a different
photo (so copy 0 and copy 1 of a code on a rendered table look like two tiles; which of the
set's two physical tiles a photo shows is not known).

Labels carry no orientation, so a crop may be upside down. The shipped classifier
(models/tile_cls.onnx, through vision's own crop and normalisation code) decides: a crop
is kept only when it reads as its label with probability >= MIN_SURE either upright
(kept as cut) or turned half round (kept turned). That is a filter for readable crops:
the scenes built from them test the game flow on real faces, they say nothing about how
well the reader reads (docs/vision.md has the held-out figures for that). Crops whose lamp
colour is too far off to balance to one face white, or whose rim shows table (a loose
label), are dropped too.

Table tops: the photo set holds no tile-free wooden top, so "wood" is a training photo of
the wooden table whose labelled tiles are painted out with wood from the same rows a
little to the side (the grain runs along the rows). "grey" and "white" are two of the
tile-free rummyBackground photos. All are cut to 16:9 and re-encoded small, and each must
look bare to the shipped occluder net (models/occluder.onnx), or no game on it could settle.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
from vision.codes import CODE_INDEX, CODES
from vision.config import DEFAULT_CONFIG
from vision.geometry import flip_quad, normalise_crops, quad_size, rectify
from vision.models import CLASSIFIER_FILE, load_model

from models.recipe.realdata import DEFAULT_DATASET, Photo, load_splits

OUT_DIR = REPO / "controller" / "demo" / "scene_data"
CELL = (72, 96)  # atlas cell, width x height: multiples of 8 so JPEG blocks never straddle two faces
ATLAS_COLUMNS = 14
CROPS_PER_CODE = 2
MIN_SURE = 0.9  # P(label, orientation) the classifier must give a crop for it to be kept
MIN_FACE_HEIGHT = 90  # px in the photo: smaller faces come out soft when scaled to a cell
FACE_WHITE = (214.0, 228.0, 236.0)  # BGR the bright part of every face is balanced to (one lamp per table)
INSET = 0.03  # share of the face cut off each side: labels are hand-drawn and often take in a sliver of table
MAX_GAIN = 1.5  # a face needing more (or less than 1/1.5) on a channel was shot under another lamp
MAX_TINT = 1.25  # largest ratio between two channels' gains
BACKGROUND_SIZE = (1280, 720)
BACKGROUND_QUALITY = 80
ATLAS_QUALITY = 90

WOOD_PHOTO = "rummy-16_jpeg"  # wooden table, grain along the rows, sets spread with wood between (train split)
# (name, photo stem prefix, turn 90 degrees): the tile-free table tops shipped as they are
BACKGROUNDS = (("grey", "rummyBackground-8_jpeg", False), ("white", "rummyBackground-6_jpeg", True))


@dataclass(frozen=True)
class Crop:
    code: str
    photo: str
    face: np.ndarray  # CELL-sized BGR, upright
    sure: float
    turned: bool  # the label's quad had the tile upside down
    height: float  # px in the photo


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def _cell_warp(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    w, h = CELL
    quad = np.asarray(quad, np.float64)
    quad = quad.mean(axis=0) + (quad - quad.mean(axis=0)) * (1 - 2 * INSET)
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    M = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(image, M, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _balanced(face: np.ndarray) -> np.ndarray | None:
    """Gain per channel so the face's bright level is FACE_WHITE (photos differ in lamp colour);
    None when the lamp is too far off to balance without the face looking dyed."""
    x = face.astype(np.float32)
    bright = np.percentile(x.reshape(-1, 3), 85, axis=0)
    gain = np.array(FACE_WHITE, np.float32) / np.maximum(bright, 1.0)
    if gain.max() > MAX_GAIN or gain.min() < 1 / MAX_GAIN or gain.max() / gain.min() > MAX_TINT:
        return None
    return np.clip(x * gain, 0, 255).astype(np.uint8)


def _clean_edges(face: np.ndarray) -> bool:
    """The crop's rim is tile, not table: a loose or tilted label leaves dark table along an edge."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
    bright = np.percentile(grey, 85)
    band = 3
    h, w = grey.shape
    corner = int(0.12 * w)  # rounded corners show table on every tile
    edges = [grey[:band, corner:w - corner], grey[-band:, corner:w - corner],
             grey[corner:h - corner, :band], grey[corner:h - corner, -band:]]
    return all(float((e < 0.6 * bright).mean()) < 0.12 for e in edges)


def readable_crops(photos: list[Photo]) -> list[Crop]:
    """Every labelled face big enough, kept when the classifier reads it as its label upright
    (or turned half round, then it is turned), with probability >= MIN_SURE."""
    model = load_model(CLASSIFIER_FILE, DEFAULT_CONFIG.threads)
    out = []
    for photo in photos:
        image = cv2.imread(str(photo.image_path), cv2.IMREAD_COLOR)
        tiles = [(code, quad) for code, quad in photo.tiles if quad_size(quad)[1] >= MIN_FACE_HEIGHT]
        if not tiles:
            continue
        quads = [q for _, q in tiles] + [flip_quad(q) for _, q in tiles]
        p = _softmax(model(normalise_crops(np.stack([rectify(image, q) for q in quads]))))
        n = len(tiles)
        for k, (code, quad) in enumerate(tiles):
            up = 2 * CODE_INDEX[code]  # output 2i: code i upright in the crop
            # as cut, upright; or cut the other way round, upright (both crops must agree)
            as_cut, other_way = float(p[k, up]), float(p[n + k, up])
            if as_cut >= MIN_SURE and p[k, up + 1] < 1 - MIN_SURE:
                chosen, turned, sure = quad, False, as_cut
            elif other_way >= MIN_SURE and p[n + k, up + 1] < 1 - MIN_SURE:
                chosen, turned, sure = flip_quad(quad), True, other_way
            else:
                continue
            face = _balanced(_cell_warp(image, chosen))
            if face is None or not _clean_edges(face):
                continue
            out.append(Crop(code, photo.stem, face, sure, turned, quad_size(quad)[1]))
    return out


def _session(stem: str) -> str:
    return stem.split("-")[0]  # "rummy2-14_jpeg..." -> "rummy2": photos shot in one sitting


def choose(crops: list[Crop]) -> list[Crop]:
    """CROPS_PER_CODE per code, each from a different photo, different sittings first,
    the surest and largest first."""
    chosen = []
    for code in CODES:
        mine = sorted((c for c in crops if c.code == code), key=lambda c: (-round(c.sure, 2), -c.height, c.photo))
        picked: list[Crop] = []
        for pass_ in (0, 1):  # first one per sitting, then any photo not used yet
            for crop in mine:
                if len(picked) == CROPS_PER_CODE:
                    break
                if any(crop.photo == p.photo for p in picked):
                    continue
                if pass_ == 0 and any(_session(crop.photo) == _session(p.photo) for p in picked):
                    continue
                picked.append(crop)
        if len(picked) < CROPS_PER_CODE:
            raise SystemExit(f"code {code}: only {len(picked)} readable crops (need {CROPS_PER_CODE}); "
                             f"lower MIN_SURE or MIN_FACE_HEIGHT")
        chosen += picked
    return chosen


def atlas(crops: list[Crop]) -> tuple[np.ndarray, list[dict]]:
    w, h = CELL
    rows = -(-len(crops) // ATLAS_COLUMNS)
    sheet = np.full((rows * h, ATLAS_COLUMNS * w, 3), 255, np.uint8)
    index = []
    for k, crop in enumerate(crops):
        r, c = divmod(k, ATLAS_COLUMNS)
        sheet[r * h: (r + 1) * h, c * w: (c + 1) * w] = crop.face
        index.append({"code": crop.code, "cell": [r, c], "photo": crop.photo, "sure": round(crop.sure, 4),
                      "turned": crop.turned, "face_height_px": round(crop.height)})
    return sheet, index


def _sixteen_nine(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    target = BACKGROUND_SIZE[0] / BACKGROUND_SIZE[1]
    if w / h > target:
        cw = int(round(h * target))
        image = image[:, (w - cw) // 2: (w - cw) // 2 + cw]
    else:
        ch = int(round(w / target))
        image = image[(h - ch) // 2: (h - ch) // 2 + ch]
    return cv2.resize(image, BACKGROUND_SIZE, interpolation=cv2.INTER_AREA if image.shape[1] > BACKGROUND_SIZE[0]
                      else cv2.INTER_CUBIC)


def _lighting(image: np.ndarray, valid: np.ndarray, sigma: float = 40.0) -> np.ndarray:
    """The slow change of light over the table, estimated from the valid (tile-free) pixels only
    and carried smoothly under the tiles."""
    weight = cv2.GaussianBlur(valid.astype(np.float32), (0, 0), sigma)
    light = cv2.GaussianBlur(image.astype(np.float32) * valid[..., None], (0, 0), sigma)
    return light / np.maximum(weight, 1e-3)[..., None]


def paint_out_tiles(image: np.ndarray, quads: list[np.ndarray], grow: int = 22) -> np.ndarray:
    """Cover each labelled tile (with its side and shadow) with wood from the same rows beside it.

    The grain runs along the rows in these photos, so wood copied sideways from the same rows
    continues the lines it lands between. Copies come from tile-free wood of the original photo
    only; the light is taken out before copying and put back after, so a patch copied from a
    brighter part of the table does not show as a lighter rectangle."""
    h, w = image.shape[:2]
    kernel = np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)
    patches = []
    for quad in sorted(quads, key=lambda q: float(np.mean(q[:, 0]))):
        one = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(one, np.round(quad).astype(np.int32), 255)
        patches.append(cv2.dilate(one, kernel))
    covered = np.maximum.reduce(patches)
    light = _lighting(image, covered == 0)
    texture = image.astype(np.float32) / np.maximum(light, 1.0)
    filled = texture.copy()
    # sideways first; a step up or down breaks the grain where the patch meets the wood
    offsets = sorted(((dx, dy) for dx in range(-w, w, 2) for dy in range(-h // 4, h // 4, 2)),
                     key=lambda o: abs(o[0]) + 12 * abs(o[1]))
    for patch in patches:
        ys, xs = np.nonzero(patch)
        pad = 6
        x0, y0 = max(0, xs.min() - pad), max(0, ys.min() - pad)
        x1, y1 = min(w, xs.max() + 1 + pad), min(h, ys.max() + 1 + pad)
        for dx, dy in offsets:
            if x0 + dx < 0 or x1 + dx > w or y0 + dy < 0 or y1 + dy > h:
                continue
            if not covered[y0 + dy:y1 + dy, x0 + dx: x1 + dx].any():
                break
        else:
            raise SystemExit(f"no tile-free wood for the tile patch at x={x0}, y={y0} in {WOOD_PHOTO}")
        alpha = cv2.GaussianBlur(patch[y0:y1, x0:x1], (0, 0), 2).astype(np.float32)[..., None] / 255
        src = texture[y0 + dy:y1 + dy, x0 + dx: x1 + dx]
        filled[y0:y1, x0:x1] = filled[y0:y1, x0:x1] * (1 - alpha) + src * alpha
    return np.clip(filled * light, 0, 255).astype(np.uint8)


def backgrounds(dataset: Path, photos: list[Photo]) -> dict[str, np.ndarray]:
    by_stem = {p.stem: p for p in photos}
    out = {}
    wood = next(p for stem, p in by_stem.items() if stem.startswith(WOOD_PHOTO))
    image = cv2.imread(str(wood.image_path), cv2.IMREAD_COLOR)
    out["wood"] = _sixteen_nine(paint_out_tiles(image, [q for _, q in wood.tiles]))
    for name, prefix, turn in BACKGROUNDS:
        photo = next(p for stem, p in by_stem.items() if stem.startswith(prefix))
        if photo.tiles:
            raise SystemExit(f"background photo {photo.stem!r} has labelled tiles")
        image = cv2.imread(str(photo.image_path), cv2.IMREAD_COLOR)
        out[name] = _sixteen_nine(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE) if turn else image)
    return out


def _json_lines(meta: dict) -> str:
    """Indented JSON with one line per face: small, and a diff shows which crop changed."""
    faces = ",\n".join("  " + json.dumps(face) for face in meta["faces"])
    rest = json.dumps({k: v for k, v in meta.items() if k != "faces"}, indent=1)
    return rest[:-2] + ',\n "faces": [\n' + faces + "\n ]\n}\n"


def check_bare(tops: dict[str, np.ndarray]) -> None:
    """Each top, bare, must look bare to the shipped occluder net: at a game's first wait there is no
    earlier frame to compare with, and a patch it takes for an arm would keep the table from settling
    (a first painted-out wood, rummy-26, had one). Skipped when the net is not built yet."""
    from vision.models import OCCLUDER_FILE
    from vision.occluders import find_occluders

    if not OCCLUDER_FILE.is_file():
        print(f"note: {OCCLUDER_FILE} missing; table tops not checked against the occluder net")
        return
    for name, image in tops.items():
        seen = find_occluders(image)
        if not seen.clear:
            raise SystemExit(f"table top {name!r}: the occluder net sees {seen.describe()}; pick another photo")


def contact_sheet(sheet: np.ndarray, index: list[dict]) -> np.ndarray:
    big = cv2.resize(sheet, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    w, h = CELL
    for entry in index:
        r, c = entry["cell"]
        cv2.putText(big, entry["code"], (c * w * 2 + 4, r * h * 2 + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 160, 0), 2)
    return big


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET))
    parser.add_argument("--out", default=str(OUT_DIR))
    parser.add_argument("--sheet", help="also write a contact sheet with each crop's label (PNG)")
    args = parser.parse_args(argv)
    dataset, out = Path(args.dataset), Path(args.out)
    splits = load_splits(dataset)
    train = splits["train"]
    crops = readable_crops(train)
    chosen = choose(crops)
    sheet, index = atlas(chosen)
    out.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out / "faces.jpg"), sheet, [cv2.IMWRITE_JPEG_QUALITY, ATLAS_QUALITY])
    tops = backgrounds(dataset, train)
    check_bare(tops)
    for name, image in tops.items():
        cv2.imwrite(str(out / f"table-{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, BACKGROUND_QUALITY])
    labelled = sum(1 for p in train for code, q in p.tiles if quad_size(q)[1] >= MIN_FACE_HEIGHT)
    meta = {
        "source": "Roboflow Universe rummikue/rummikub-nvypk-8cwem v1, CC BY 4.0 (training split, models/split/train.txt)",
        "built_by": "python -m models.recipe.scene_assets",
        "cell": list(CELL),
        "filter": {"min_sure": MIN_SURE, "min_face_height_px": MIN_FACE_HEIGHT, "faces_big_enough": labelled,
                   "faces_readable_and_clean": len(crops), "faces_kept": len(chosen),
                   "turned_back_upright": sum(c.turned for c in chosen)},
        "faces": index,
        "tables": {"wood": f"{WOOD_PHOTO}: its labelled tiles painted out with wood from the same rows",
                   **{name: prefix for name, prefix, _ in BACKGROUNDS}},
    }
    (out / "faces.json").write_text(_json_lines(meta), encoding="utf-8")
    if args.sheet:
        cv2.imwrite(args.sheet, contact_sheet(sheet, index))
    size = sum(f.stat().st_size for f in out.iterdir() if f.suffix in (".jpg", ".json"))
    print(f"{len(chosen)} faces ({len(crops)} readable, balanced and clean-edged of {labelled} big enough in {len(train)} training photos), "
          f"{len(tops)} table tops -> {out} ({size / 1024:.0f} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
