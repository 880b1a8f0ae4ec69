"""How well the shipped occluder net tells a clear table from one with something over it.

Per split of the real photos (models/split/):
- clear tables: every photo as it is, and again under warm and under dim, cold light with a
  soft shadow (models/recipe/occluder_data.vary_light): none may be refused;
- covered tables: the same photos with occluders composited on them at full resolution,
  drawn from MEASURE_SEED (never trained on): hands, sleeves, phones, cups from
  models/recipe/occluder_data.py; the hands models/recipe/synth.py draws for the tile detector (the
  training draws these too since the net of 15:45, other seeds); and, as a design the net
  never trained on, the arms the recorded games' scenes draw
  (controller/demo/scene_hands.py): none may be accepted.

Every decision is the first wait's (no reference frame): the hardest case. With a reference,
only cells that changed count, which can only turn a refusal into an acceptance of a clear
table. `choose_thresholds` picks VisionConfig.occluder_threshold / occluder_min_share on the
validation split alone.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from models.recipe.occluder_data import MEASURE_SEED, compose, vary_light
from vision.config import DEFAULT_CONFIG, VisionConfig
from vision.models import load_model
from vision.occluders import find_occluders
from controller.demo.scene_hands import draw_arm
from models.recipe.synth import _hands as synth_hands

DESIGNS = ("composited", "renderer hands", "scene arms")  # what covers a covered table
MIN_COVERED_SHARE = 0.005  # a composite covering less than this of the frame is not counted as covered
# Rendered 1920x1080 tables (a camera's frame size, the renderer's wood and cloth): the first
# range chooses with the validation photos, the second is measured only.
RENDERED_VALIDATION = range(0, 40)
RENDERED_TEST = range(1000, 1040)


@dataclass(frozen=True)
class Case:
    name: str  # photo stem and variant
    covered: bool  # the truth: something is over the table
    frame: np.ndarray
    design: str  # "clear", or one of DESIGNS


def clear_cases(photo_path, stem: str, index: int):
    image = cv2.imread(str(photo_path))
    yield Case(f"{stem}", False, image, "clear")
    for k, name in enumerate(("light A", "light B")):
        rng = np.random.default_rng(MEASURE_SEED + 7919 * index + k)
        yield Case(f"{stem} {name}", False, vary_light(rng, image), "clear")


def covered_cases(photo_path, stem: str, index: int, per_photo: int = 3):
    image = cv2.imread(str(photo_path))
    for k in range(per_photo):
        rng = np.random.default_rng(MEASURE_SEED + 104729 * index + k)
        for _ in range(20):  # redraw until the occluders actually cover something
            sample = compose(rng, vary_light(rng, image), occluders=int(rng.integers(1, 3)))
            if sample.covered_share >= MIN_COVERED_SHARE:
                yield Case(f"{stem} #{k} {'+'.join(sample.kinds)}", True, sample.image, "composited")
                break
    rng = np.random.default_rng(MEASURE_SEED + 15485863 + index)
    for _ in range(20):
        drawn = image.copy()
        occluded = np.zeros(drawn.shape[:2], np.uint8)
        synth_hands(rng, drawn, occluded, 1, ())
        if (occluded > 127).mean() >= MIN_COVERED_SHARE:
            yield Case(f"{stem} renderer hand", True, drawn, "renderer hands")
            break
    h, w = image.shape[:2]
    for _ in range(20):  # arms drawn by the recorded games' scenes: a design the net never trained on
        drawn = image.copy()
        mask = draw_arm(drawn, (rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h), rng)
        if (mask > 127).mean() >= MIN_COVERED_SHARE:
            yield Case(f"{stem} scene arm", True, drawn, "scene arms")
            break


def rendered_cases(count: int, start: int = 0):
    """Clear tables drawn by models/recipe/synth.py at 1920x1080, every background and wood tone, and the
    same with occluders composited (a camera frame, not a photo: other scale, other grain)."""
    from models.recipe.synth import BACKGROUNDS, random_melds, render_table

    for k in range(start, start + count):
        rng = np.random.default_rng(MEASURE_SEED + 31 * k)
        background = BACKGROUNDS[k % len(BACKGROUNDS)]
        melds = random_melds(rng, int(rng.choice([20, 60, 106])))
        frame = render_table(melds, 1920, 1080, seed=MEASURE_SEED + k, hands=0, background=background, wood="random").image
        yield Case(f"rendered {background} #{k}", False, frame, "clear")
        for _ in range(20):
            sample = compose(rng, frame, occluders=1)
            if sample.covered_share >= MIN_COVERED_SHARE:
                yield Case(f"rendered {background} #{k} {'+'.join(sample.kinds)}", True, sample.image, "composited")
                break


def covered_maps(photos, config: VisionConfig = DEFAULT_CONFIG, model_path=None):
    """(case, probability map) for every case of these photos (the shipped model unless another is named)."""
    net = None if model_path is None else load_model(Path(model_path), config.threads)
    out = []
    for index, photo in enumerate(photos):
        for case in list(clear_cases(photo.image_path, photo.stem, index)) + list(covered_cases(photo.image_path, photo.stem, index)):
            out.append((case, find_occluders(case.frame, config=config, net=net).covered))
    return out


def rendered_maps(seeds: range, config: VisionConfig = DEFAULT_CONFIG, model_path=None):
    net = None if model_path is None else load_model(Path(model_path), config.threads)
    out = []
    for case in rendered_cases(len(seeds), seeds.start):
        out.append((case, find_occluders(case.frame, config=config, net=net).covered))
    return out


def decide(covered_map: np.ndarray, threshold: float, min_share: float, peak: float | None = None) -> bool:
    """True when something is over the table (the same rule as vision.occluders, from a map).

    With `peak` (a two-threshold decision, lab/decisions/occ16.txt): a region of cells above
    `threshold` counts only when its highest cell reaches `peak`."""
    least = min_share * covered_map.size
    return any(area >= least and (peak is None or top >= peak)
               for area, top in regions_of(covered_map, threshold, peaks=peak is not None))


def regions_of(covered_map: np.ndarray, threshold: float, peaks: bool = True) -> list[tuple[int, float | None]]:
    """(cells, highest probability) of each region of cells above `threshold`; without `peaks` the
    highest is not looked for (None: the one-threshold rule needs none, and finding them is slow)."""
    mask = (covered_map > threshold).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return [(int(stats[k, cv2.CC_STAT_AREA]), float(covered_map[labels == k].max()) if peaks else None)
            for k in range(1, count)]


@dataclass(frozen=True)
class Tally:
    clear: int
    refused: int  # clear tables taken for covered
    covered: int
    accepted: int  # covered tables taken for clear
    misses: tuple[str, ...]

    def line(self) -> str:
        return (f"clear tables refused {self.refused}/{self.clear}; covered tables accepted as settled "
                f"{self.accepted}/{self.covered}")


def tally(maps, threshold: float, min_share: float, design: str | None = None, peak: float | None = None) -> Tally:
    clear = refused = covered = accepted = 0
    misses = []
    for case, covered_map in maps:
        if design is not None and case.design != design and case.design != "clear":
            continue
        said = decide(covered_map, threshold, min_share, peak)
        if case.covered:
            covered += 1
            if not said:
                accepted += 1
                misses.append(f"accepted: {case.name}")
        else:
            clear += 1
            if said:
                refused += 1
                misses.append(f"refused: {case.name}")
    return Tally(clear, refused, covered, accepted, tuple(misses))


THRESHOLDS = [round(t, 2) for t in np.arange(0.2, 0.96, 0.05)]
SHARES = [0.001, 0.002, 0.003, 0.004, 0.006, 0.008, 0.012]


def choose_thresholds(validation_maps, shares: tuple[float, ...] | list[float] = SHARES) -> tuple[float, float, Tally]:
    """The threshold and minimum share with the fewest mistakes on validation; among equals, the
    largest minimum share (a stray cell or two should never decide), then the middle threshold.
    `shares` narrows the minimum shares tried: one share holds it (lab/decisions/occ24.txt)."""
    scores = {(t, s): tally(validation_maps, t, s) for t in THRESHOLDS for s in shares}
    best = min(x.refused + x.accepted for x in scores.values())
    good = [k for k, x in scores.items() if x.refused + x.accepted == best]
    s = max(k[1] for k in good)
    options = sorted(k[0] for k in good if k[1] == s)
    t = options[len(options) // 2]
    return t, s, scores[(t, s)]


def with_thresholds(config: VisionConfig, threshold: float, min_share: float) -> VisionConfig:
    return dataclasses.replace(config, occluder_threshold=threshold, occluder_min_share=min_share)
