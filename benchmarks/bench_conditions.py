"""The reading under the cameras a club has: real photos turned, tilted, blurred and scaled.

    python -m benchmarks.bench_conditions [--splits validation,test] [--conditions upright,turn15,tilt20]
                                          [--photos N] [--list]

Each photo of a split is read with the shipped reader (`vision.read_image`) as it is (upright)
and under each condition: turned 15-345 degrees in 15-degree steps (the frame grown so nothing
is cut, the new corners filled with the photo's border colour), 20 degrees off vertical (the
photo as a camera turned 20 degrees about its horizontal axis sees it), Gaussian blur sigma 2,
and scaled to fit a 1280x720 frame. The labels go through the same transform; a read tile is
matched to a label by its centre lying in the label's quad (bench_area's scoring). Printed per
condition: labelled tiles read with the right code, precision (tiles read on a labelled tile /
tiles read), photos read perfectly, and whether the targets (>= 99.5% codes, precision
>= 99.9%) are met. The thresholds of the reading were chosen on the validation split; the test
split is frozen.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from benchmarks.harness import options
from benchmarks.bench_area import score
from models.recipe.realdata import DEFAULT_DATASET, load_splits
from vision import read_image
from vision.config import DEFAULT_CONFIG
from vision.geometry import order_upright

TARGET_CODES = 99.5
TARGET_PRECISION = 99.9
TILT_DEGREES = 20.0
BLUR_SIGMA = 2.0
SMALL_FRAME = (1280, 720)


@dataclass(frozen=True)
class Condition:
    name: str
    # BGR image -> (the frame as the camera sees it, 3x3 homography from photo to frame pixels)
    transform: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


def border_colour(image: np.ndarray) -> tuple[float, ...]:
    """The median colour of the photo's outermost pixels: what a wider view would show there."""
    edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    return tuple(float(v) for v in np.median(edge, axis=0))


def _warp_to_fit(image: np.ndarray, matrix: np.ndarray, size: tuple[int, int] | None = None):
    """The image warped by matrix into a frame that holds all of it (or `size`, centred)."""
    h, w = image.shape[:2]
    corners = cv2.perspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2), matrix).reshape(-1, 2)
    low, high = corners.min(axis=0), corners.max(axis=0)
    if size is None:
        size = (int(np.ceil(high[0] - low[0])), int(np.ceil(high[1] - low[1])))
    shift = np.array([[1, 0, (size[0] - (high[0] - low[0])) / 2 - low[0]],
                      [0, 1, (size[1] - (high[1] - low[1])) / 2 - low[1]], [0, 0, 1]])
    matrix = shift @ matrix
    frame = cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=border_colour(image))
    return frame, matrix


def turned(degrees: float) -> Condition:
    def transform(image):
        h, w = image.shape[:2]
        matrix = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0), [0, 0, 1]])
        return _warp_to_fit(image, matrix)
    return Condition(f"turn{int(degrees)}", transform)


def tilted(degrees: float) -> Condition:
    """A camera at the photo's viewpoint (focal length the long side) turned about its horizontal
    axis: the far side of the table shrinks, the near side grows; scaled back to the photo's area."""
    def transform(image):
        h, w = image.shape[:2]
        f = float(max(h, w))
        k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
        a = np.radians(degrees)
        rotation = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
        matrix = k @ rotation @ np.linalg.inv(k)
        corners = cv2.perspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2), matrix)
        area = abs(cv2.contourArea(corners))
        scale = np.sqrt(w * h / area)
        return _warp_to_fit(image, np.diag([scale, scale, 1.0]) @ matrix)
    return Condition(f"tilt{int(degrees)}", transform)


def _same(image):
    return image, np.eye(3)


def _blurred(image):
    return cv2.GaussianBlur(image, (0, 0), BLUR_SIGMA), np.eye(3)


def _small_frame(image):
    h, w = image.shape[:2]
    scale = min(SMALL_FRAME[0] / w, SMALL_FRAME[1] / h)
    return _warp_to_fit(image, np.diag([scale, scale, 1.0]), SMALL_FRAME)


CONDITIONS = ([Condition("upright", _same)] + [turned(d) for d in range(15, 360, 15)]
              + [tilted(TILT_DEGREES), Condition(f"blur{BLUR_SIGMA:g}", _blurred),
                 Condition(f"{SMALL_FRAME[0]}x{SMALL_FRAME[1]}", _small_frame)])


def moved_labels(labels, matrix: np.ndarray):
    """The labels' quads through the photo's transform, ordered upright again."""
    out = []
    for code, quad in labels:
        moved = cv2.perspectiveTransform(np.float32(quad).reshape(-1, 1, 2), matrix).reshape(-1, 2)
        out.append((code, order_upright(moved)))
    return out


def pick(names: str | None) -> list[Condition]:
    if not names:
        return CONDITIONS
    known = {c.name: c for c in CONDITIONS}
    unknown = [n for n in names.split(",") if n not in known]
    if unknown:
        raise SystemExit(f"--conditions: {unknown[0]!r} is not one of {', '.join(known)}")
    return [known[n] for n in names.split(",")]


def main(argv=None) -> int:
    parser = options(__doc__, splits="validation,test")
    parser.add_argument("--conditions", help="comma-separated names (default: all; --list names them)")
    parser.add_argument("--photos", type=int, help="read only the first N photos of each split (a quick run)")
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--list", action="store_true", help="name the conditions and stop")
    parser.add_argument("--failures", action="store_true", help="name the photos read imperfectly")
    args = parser.parse_args(argv)
    conditions = pick(args.conditions)
    if args.list:
        print(" ".join(c.name for c in CONDITIONS))
        return 0
    if not (args.dataset / "data.yaml").exists():
        print(f"no photo set at {args.dataset}")
        return 2
    splits = load_splits(args.dataset)
    started_all = time.perf_counter()
    for split in args.splits.split(","):
        photos = splits[split][: args.photos]
        images = [cv2.imread(str(p.image_path)) for p in photos]
        labelled_total = sum(len(p.tiles) for p in photos)
        print(f"{split}: {len(photos)} photos, {labelled_total} labelled tiles")
        print(f"{'condition':<10} {'codes right':>20} {'precision':>20} {'perfect':>8} {'targets':>8} {'s':>5}")
        for condition in conditions:
            started = time.perf_counter()
            labelled = read = on_label = right = perfect = 0
            failures = []
            for photo, image in zip(photos, images):
                frame, matrix = condition.transform(image)
                labels = moved_labels(photo.tiles, matrix)
                n_read, n_on, n_right = score(read_image(frame, DEFAULT_CONFIG), labels)
                labelled += len(labels)
                read += n_read
                on_label += n_on
                right += n_right
                perfect += n_read == n_on and n_right == len(labels)
                if n_read != n_on or n_right != len(labels):
                    failures.append(f"{photo.stem.split('.')[0]} -{len(labels) - n_right} +{n_read - n_on}")
            codes = 100.0 * right / max(labelled, 1)
            precision = 100.0 * on_label / max(read, 1)
            met = "met" if codes >= TARGET_CODES and precision >= TARGET_PRECISION else "NOT met"
            print(f"{condition.name:<10} {codes:>7.2f}% ({right:>4}/{labelled:<4}) {precision:>7.2f}% ({on_label:>4}/{read:<4}) "
                  f"{perfect:>3}/{len(photos):<4} {met:>8} {time.perf_counter() - started:>5.0f}")
            if args.failures and failures:
                print(f"{'':<10} {', '.join(failures)}")
    print(f"targets: codes right >= {TARGET_CODES}%, precision >= {TARGET_PRECISION}%; "
          f"{time.perf_counter() - started_all:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
