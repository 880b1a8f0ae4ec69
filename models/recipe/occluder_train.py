"""Train models/occluder.onnx: what covers the table, per cell (run by `python -m models.recipe.train --only occluder`).

Samples come from models/recipe/occluder_data.py: the real training photos (models/split/train.txt),
tables drawn by models/recipe/synth.py and plain tops, with procedural occluders composited on
them. They are drawn once (seeded), then the net trains on them with flips.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from models.recipe.fitting import export, fit_steps, pool_map
from models.recipe.occluder_data import AIMED, HARD, TRAIN_SEED, HardSamples, compose, net_target, table_frame
from vision.occluders import occluder_input


@dataclass(frozen=True)
class OccluderRecipe:
    samples: int = 10000
    steps: int = 15000  # 6,000 before 2026-11-23: longer training made far fewer mistakes on validation (models/README.md)
    batch: int = 24
    lr: float = 3e-3
    seed: int = TRAIN_SEED
    # harder samples (models/recipe/occluder_data.py `hard`: arms and sleeves in the table's colour, thinner
    # arms, more phones and renderer hands, more glare, blurred bright backgrounds): one of the four
    # shipped members (a single net at a larger input on them was worse: CHANGELOG.md, 2026-11-22)
    hard: HardSamples | None = None


OCCLUDER_SMOKE = OccluderRecipe(samples=6, steps=3, batch=2)

# The shipped models/occluder.onnx is the average of six nets trained apart (models/recipe/average_nets.py):
# a 12,000-step net, a 15,000-step net (these two share their seed), one with another seed, one on the
# harder samples with a fourth seed and two on the aimed samples. Averaged, they make fewer mistakes on validation than any one of them or any smaller
# average tried (lab/decisions/occens.txt, occ11.txt, occ12.txt, occ14.txt, occ16.txt).
OCCLUDER_MEMBERS = (OccluderRecipe(steps=12000), OccluderRecipe(), OccluderRecipe(seed=TRAIN_SEED + 1_000_000),
                    OccluderRecipe(seed=TRAIN_SEED + 3_000_000, hard=HARD),
                    OccluderRecipe(seed=TRAIN_SEED + 6_000_000, hard=AIMED), OccluderRecipe(seed=TRAIN_SEED + 7_000_000, hard=AIMED))
OCCLUDER_SMOKE_MEMBERS = (OCCLUDER_SMOKE, replace(OCCLUDER_SMOKE, seed=TRAIN_SEED + 1, hard=HARD))


def _draw(seed, photo_paths, hard: HardSamples | None = None):
    rng = np.random.default_rng(seed)
    photos = _photo_cache(photo_paths)
    sample = compose(rng, table_frame(rng, photos, seed, hard=hard is not None), hard=hard)
    x, _ = occluder_input(sample.image)
    return x[0], net_target(sample.mask)


_PHOTOS: dict[tuple, list[np.ndarray]] = {}


def _photo_cache(paths: tuple[str, ...]) -> list[np.ndarray]:
    """Each worker decodes the photos once (small copies: samples are 384 pixels long)."""
    if paths not in _PHOTOS:
        photos = []
        for p in paths:
            image = cv2.imread(p)
            scale = 768 / max(image.shape[:2])
            photos.append(cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
        _PHOTOS[paths] = photos
    return _PHOTOS[paths]


def draw_samples(recipe: OccluderRecipe, photo_paths: tuple[str, ...], workers: int):
    drawn = pool_map(_draw, [(recipe.seed + 300000 + i, photo_paths, recipe.hard) for i in range(recipe.samples)], workers)
    buckets: dict[tuple[int, int], list] = {}
    for x, y in drawn:
        buckets.setdefault(x.shape[1:], []).append((x, y))
    return {shape: (np.stack([x for x, _ in items]), np.stack([y for _, y in items]).astype(np.float32))
            for shape, items in buckets.items()}


def train_averaged_occluder(members: tuple[OccluderRecipe, ...], train_photos, out_path: Path, workers: int, log) -> None:
    """Train each member beside `out_path` (occluder-member-K.onnx), then write their average to `out_path`."""
    from models.recipe.average_nets import train_and_average

    train_and_average(out_path, [(str(member), lambda path, member=member: train_occluder(member, train_photos, path, workers, log))
                                 for member in members], "sigmoid", "occluder", log)


def flipped_batches(buckets: dict, batch: int, rng: np.random.Generator):
    """A call giving one batch of (input, target) tensors: a frame shape drawn by its share of the samples,
    `batch` samples of it, flipped left-right and upside down half the time each."""
    import torch

    shapes = sorted(buckets)
    sizes = np.array([len(buckets[s][0]) for s in shapes], float)

    def next_batch():
        xs, ys = buckets[shapes[int(rng.choice(len(shapes), p=sizes / sizes.sum()))]]
        pick = rng.integers(len(xs), size=batch)
        x, y = xs[pick], ys[pick]
        if rng.random() < 0.5:
            x, y = x[..., ::-1], y[..., ::-1]
        if rng.random() < 0.5:
            x, y = x[..., ::-1, :], y[..., ::-1, :]
        return torch.from_numpy(np.ascontiguousarray(x)), torch.from_numpy(np.ascontiguousarray(y))[:, None]

    return next_batch


def occluder_loss(logits, y):
    """Per-cell BCE (covered cells weigh twice) plus half a soft dice over the batch."""
    import torch
    import torch.nn.functional as F

    bce = F.binary_cross_entropy_with_logits(logits, y, pos_weight=torch.tensor(2.0))
    p = torch.sigmoid(logits)
    dice = 1 - (2 * (p * y).sum() + 1) / (p.sum() + y.sum() + 1)
    return bce + 0.5 * dice


def train_occluder(recipe: OccluderRecipe, train_photos, out_path: Path, workers: int, log) -> None:
    import torch

    from models.recipe.nets import OccluderNet

    t0 = time.time()
    buckets = draw_samples(recipe, tuple(str(p.image_path) for p in train_photos), workers)
    shapes = sorted(buckets)
    sizes = np.array([len(buckets[s][0]) for s in shapes], float)
    covered = sum(float((y > 0.5).mean()) * len(y) for _, y in buckets.values()) / sizes.sum()
    log(f"occluder data: {int(sizes.sum())} samples in {len(shapes)} frame shapes, {covered:.1%} of cells covered "
        f"({time.time() - t0:.0f} s)")
    rng = np.random.default_rng(recipe.seed + 11)
    torch.manual_seed(recipe.seed)
    net = OccluderNet()
    fit_steps(net, recipe.steps, recipe.lr, flipped_batches(buckets, recipe.batch, rng), occluder_loss, log, "occluder", t0)
    export(net, torch.zeros(1, 3, 144, 192), out_path, {"image": {0: "n", 2: "h", 3: "w"}, "covered": {0: "n", 2: "h4", 3: "w4"}},
           "image", "covered")
