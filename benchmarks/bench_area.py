"""Only the play area is read: real photos with a box of spare tiles, its lid and a rack beside the table.

    python -m benchmarks.bench_area [--splits validation,test] [--no-baseline] [--scenes N] [--config FIELD=VALUE]

Each photo of a split becomes the table in the middle of a larger frame, with the floor around
it and a box of spare tiles, a lid (printed logo and tile art) and a rack of tiles on the floor
(models/recipe/area_scenes.py; the spare faces are cut from photos of the train split). Printed per
split: tiles invented (read where no labelled tile of the table lies) and precision, labelled
tiles read with the right code, tiles named as lying across the area's edge, and the same photo
read alone for comparison; "left out" counts the labelled tiles lying on the table (at least 90% of
the label within the photo: the floor covers what the photo's border cut off) whose middle the area
found leaves outside, alone, beside the objects and kept, with the same count over every label beside
it and, of the first, those on which no tile is read ("not read": a tile outside the area that lies on
the table's own surface is read); with the baseline, the same frames read with the area switched off.
`--scenes N` composes each photo beside the objects N times, each drawn anew.
"Kept" is the table's own way in a game: the area is found once on the clear table (the photo with
its labelled tiles painted out, beside the same objects) and the photo is read in it; printed are
the photos on which an area was found (not the whole frame), tiles invented, precision, codes right
and photos perfect. "Marked" is the area the referee confirms by dragging its corners onto the table top
(`tileref play --confirm-area`, the referee page): tiles invented and codes right read in it.
The area's thresholds (VisionConfig.play_area_*) were chosen on the validation split; only the
test split is held out.
"""
from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import cv2
import numpy as np

from benchmarks.harness import options
from models.recipe.area_scenes import compose, cut_faces
from models.recipe.evaluate import config_changes
from models.recipe.realdata import DEFAULT_DATASET, load_splits
from vision import read_image
from vision.area import PlayArea
from vision.config import DEFAULT_CONFIG

SPARE_PHOTOS = ("rummy-4_jpeg", "rummy-6_jpeg")  # train split: whole sets laid out
SEED = 20261126


def spare_faces(dataset: Path) -> list[np.ndarray]:
    train = {p.stem.split(".")[0]: p for p in load_splits(dataset)["train"]}
    faces = []
    for stem in SPARE_PHOTOS:
        photo = train[stem]
        faces += cut_faces(cv2.imread(str(photo.image_path)), [quad for _, quad in photo.tiles])
    return faces


def cleared(image: np.ndarray, labels) -> np.ndarray:
    """The photo with its labelled tiles painted out by their surroundings: the table as it lay
    before the game, where a table finds the area it keeps for the game."""
    mask = np.zeros(image.shape[:2], np.uint8)
    for _, quad in labels:
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255)
    mask = cv2.dilate(mask, np.ones((9, 9), np.uint8))
    return cv2.inpaint(image, mask, 5, cv2.INPAINT_TELEA)


def kept_area_reading(image: np.ndarray, labels, faces, seed: int, config):
    """The photo beside the objects read in the area found on its cleared table beside the same objects
    (the whole frame's finding when that area is the whole frame), and the frame's offset."""
    clear = compose(cleared(image, labels), faces, seed)
    x, y = clear.offset
    played = clear.image.copy()
    played[y: y + image.shape[0], x: x + image.shape[1]] = image
    area = read_image(clear.image, config).area
    h, w = played.shape[:2]
    whole = area is None or area.corners == PlayArea.whole_frame(w, h).corners
    return read_image(played, config, area=None if whole else area), clear.offset, not whole


def score(reading, labels, offset=(0, 0)) -> tuple[int, int, int]:
    """(tiles read, of them on a labelled tile, labelled tiles read with the right code)."""
    used, on_label, right = set(), 0, 0
    for code, quad in labels:
        quad = np.float32(quad + np.asarray(offset)).reshape(-1, 1, 2)
        hits = [i for i, t in enumerate(reading.tiles) if i not in used
                and cv2.pointPolygonTest(quad, tuple(map(float, t.center)), False) >= 0]
        if hits:
            used.add(hits[0])
            on_label += 1
            right += reading.tiles[hits[0]].code == code
    return len(reading.tiles), on_label, right


ON_PHOTO = 0.9  # this share of a label's area within the photo's border: a tile lying on the table


def on_photo(labels, width: int, height: int) -> list:
    """The labels lying on the photo (`ON_PHOTO`): in a composed scene the floor covers what the photo's
    border cut off, and a tile cut by it lies half on the floor, not on the table."""
    border = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    kept = []
    for code, quad in labels:
        quad = np.float32(quad)
        size = abs(cv2.contourArea(quad))
        inside, _ = cv2.intersectConvexConvex(quad, border)
        if size > 0 and inside >= ON_PHOTO * size:
            kept.append((code, quad))
    return kept


def _outside(area: PlayArea | None, labels, offset=(0, 0)) -> list[np.ndarray]:
    """The labels' quads (moved by `offset`) whose middle lies outside the play area read in."""
    if area is None:
        return []
    edge = area.quad.astype(np.float32).reshape(-1, 1, 2)
    quads = [np.asarray(quad, float) + np.asarray(offset) for _, quad in labels]
    return [q for q in quads if cv2.pointPolygonTest(edge, tuple(map(float, q.mean(axis=0))), False) < 0]


def left_out(area: PlayArea | None, labels, offset=(0, 0)) -> int:
    """Labelled tiles whose middle lies outside the play area read in."""
    return len(_outside(area, labels, offset))


def dropped(reading, labels, offset=(0, 0)) -> int:
    """Labelled tiles whose middle lies outside the play area read in and on which no tile is read: the
    left out that the table's own surface did not bring back (`vision.area.split_on_table`)."""
    return sum(not any(cv2.pointPolygonTest(np.float32(quad).reshape(-1, 1, 2), tuple(map(float, t.center)), False) >= 0
                       for t in reading.tiles)
               for quad in _outside(reading.area, labels, offset))


def left_counts(reading, labels, lying, offset=(0, 0)) -> np.ndarray:
    """(tiles lying on the photo left out, every label left out, tiles lying on the photo left out and not read)."""
    return np.array([left_out(reading.area, lying, offset), left_out(reading.area, labels, offset),
                     dropped(reading, lying, offset)])


def main(argv=None) -> int:
    parser = options(__doc__, splits="validation,test")
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--no-baseline", action="store_true", help="skip reading the frames with the area switched off")
    parser.add_argument("--scenes", type=int, default=1, metavar="N",
                        help="compose each photo beside the objects N times (carpet, box, lid and rack drawn anew; "
                             "the first is the one scene read by default)")
    parser.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE",
                        help="read with this VisionConfig field changed (a Python literal; repeatable), e.g. a "
                             "candidate rule measured on validation before a decision")
    args = parser.parse_args(argv)
    if args.scenes < 1:
        parser.error(f"--scenes must be at least 1, not {args.scenes}")
    config = dataclasses.replace(DEFAULT_CONFIG, **config_changes(parser, args.config, DEFAULT_CONFIG))
    if not (args.dataset / "data.yaml").exists():
        print(f"no photo set at {args.dataset}")
        return 2
    faces = spare_faces(args.dataset)
    splits = load_splits(args.dataset)
    no_area = dataclasses.replace(config, play_area=False)
    if args.scenes > 1:
        print(f"each photo composed beside the objects {args.scenes} times: beside, kept and marked count every scene")
    print(f"{'split':<11} {'photos':>6} {'labelled':>8} | {'alone: invented':>15} {'codes right':>12} | "
          f"{'beside: invented':>16} {'precision':>9} {'codes right':>12} {'across':>6} {'perfect':>8} | "
          f"{'kept: found':>11} {'invented':>8} {'precision':>9} {'codes right':>12} {'perfect':>8} | "
          f"{'marked: invented':>16} {'codes right':>12} | {'no area: invented':>17} | "
          f"{'left out: alone':>15} {'beside':>6} {'kept':>4} {'(all labels)':>12} {'not read':>8}")
    for split in args.splits.split(","):
        started = time.perf_counter()
        totals = np.zeros(9, int)
        kept_totals = np.zeros(5, int)  # areas found on the clear table, tiles read, on a label, right, perfect
        marked_totals = np.zeros(3, int)  # in the area marked on the table top: tiles read, on a label, right
        # rows: labelled tiles on the photo outside the area found; the same over every label (those the photo's
        # border cuts too); of the first, those no tile is read on. Columns: alone, beside, kept
        left = np.zeros((3, 3), int)
        worst = []
        n = len(splits[split])
        for k, photo in enumerate(splits[split]):
            image = cv2.imread(str(photo.image_path))
            labels = [(code, quad) for code, quad in photo.tiles]
            lying = on_photo(labels, image.shape[1], image.shape[0])
            alone_reading = read_image(image, config)
            alone = score(alone_reading, labels)
            totals[[1, 2]] += [alone[0] - alone[1], alone[2]]
            alone_left = left_counts(alone_reading, labels, lying)
            left[:, 0] += alone_left
            for r in range(args.scenes):
                name = photo.stem.split(".")[0] + (f"#{r}" if r else "")
                seed = SEED + k + 1000 * r
                scene = compose(image, faces, seed)
                beside_reading = read_image(scene.image, config)
                beside = score(beside_reading, labels, scene.offset)
                invented = beside[0] - beside[1]
                baseline = 0
                if not args.no_baseline:
                    read_all = score(read_image(scene.image, config=no_area), labels, scene.offset)
                    baseline = read_all[0] - read_all[1]
                kept_reading, kept_offset, found = kept_area_reading(image, labels, faces, seed, config)
                kept = score(kept_reading, labels, kept_offset)
                beside_left = left_counts(beside_reading, labels, lying, scene.offset)
                kept_left = left_counts(kept_reading, labels, lying, kept_offset)
                left[:, 1] += beside_left
                left[:, 2] += kept_left
                if beside_left[0] or kept_left[0] or (r == 0 and alone_left[0]):
                    worst.append(f"{name} left out {alone_left[0]}/{beside_left[0]}/{kept_left[0]}")
                kept_totals += [found, kept[0], kept[1], kept[2],
                                kept[0] == kept[1] and kept[2] == len(labels) and not kept_reading.edge_tiles]
                if kept[0] > kept[1]:
                    worst.append(f"{name} kept +{kept[0] - kept[1]}")
                fh, fw = scene.image.shape[:2]
                marked = score(read_image(scene.image, config, area=PlayArea.marked(tuple(map(tuple, scene.table)), fw, fh)),
                               labels, scene.offset)
                marked_totals += marked
                if marked[0] > marked[1]:
                    worst.append(f"{name} marked +{marked[0] - marked[1]}")
                perfect = invented == 0 and beside[2] == len(labels) and not beside_reading.edge_tiles
                totals[[0, 3, 4, 5, 6, 7, 8]] += [len(labels), invented, beside[0], beside[2],
                                                  len(beside_reading.edge_tiles), perfect, baseline]
                if invented or beside[2] < alone[2]:
                    worst.append(f"{name} +{invented} -{alone[2] - beside[2]}")
        scenes, alone_inv, alone_right, inv, read, right, across, perfect, base = totals
        labelled = scenes // args.scenes
        kept_found, kept_read, kept_on_label, kept_right, kept_perfect = kept_totals
        m = n * args.scenes
        precision = 100.0 * (read - inv) / max(read, 1)
        print(f"{split:<11} {n:>6} {labelled:>8} | {alone_inv:>15} {100 * alone_right / max(labelled, 1):>11.2f}% | "
              f"{inv:>16} {precision:>8.2f}% {100 * right / max(scenes, 1):>11.2f}% {across:>6} {perfect:>4}/{m:<3} | "
              f"{kept_found:>7}/{m:<3} {kept_read - kept_on_label:>8} "
              f"{100.0 * kept_on_label / max(kept_read, 1):>8.2f}% {100 * kept_right / max(scenes, 1):>11.2f}% "
              f"{kept_perfect:>4}/{m:<3} | "
              f"{marked_totals[0] - marked_totals[1]:>16} {100 * marked_totals[2] / max(scenes, 1):>11.2f}% | "
              f"{'-' if args.no_baseline else base:>17} | "
              f"{left[0, 0]:>15} {left[0, 1]:>6} {left[0, 2]:>4} {'/'.join(map(str, left[1])):>12} "
              f"{'/'.join(map(str, left[2])):>8}"
              f"   ({time.perf_counter() - started:.0f} s)")
        if worst:
            print(f"{'':<11} photos with tiles invented or lost beside the objects: {', '.join(worst)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
