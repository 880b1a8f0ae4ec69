"""Train the models tileref ships: models/tile_seg.onnx and models/tile_cls.onnx (`tileref read`),
models/occluder.onnx (is anything over the table?, models/recipe/occluder_train.py).

One command, from the repository root, after `pip install -e '.[train]'`:

    python -m models.recipe.train            # full recipe (about seven hours on 2 busy CPU cores: two classifiers and four occluder nets)
    python -m models.recipe.train --smoke    # a few steps of everything, seconds; writes to models/work/smoke

Data (details in docs/vision.md):
- synthetic tables drawn by models/recipe/synth.py (seeded, so the same every run);
- the real photos in ../shared/datasets/rummikub-photos (CC BY 4.0, Roboflow Universe
  project rummikue/rummikub-nvypk-8cwem v1), except the photos listed in
  models/split/validation.txt and models/split/test.txt, which are never trained on.

Everything is seeded; torch runs with deterministic settings on CPU.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
from vision.codes import CLASS_COUNT, CODE_INDEX, JOKER_CODE, NOT_A_TILE
from vision.config import CORE_SHRINK, CROP_HEIGHT, CROP_WIDTH
from vision.detect import detector_tensor
from vision.geometry import flip_quad, normalise_crops, order_upright, quad_size, rectify
from models.recipe.synth import HELD_OUT_FAMILY, random_melds, render_table, training_designs, training_families

from models.recipe.fitting import export, fit_steps, pool_map
from models.recipe.occluder_data import AIMED, CORNERED, FOLDED, HARD, SHADED
from models.recipe.occluder_train import (
    OCCLUDER_MEMBERS, OCCLUDER_SMOKE, OCCLUDER_SMOKE_MEMBERS, OccluderRecipe, train_averaged_occluder, train_occluder,
)
from models.recipe.realdata import DEFAULT_DATASET, load_split

MODELS_DIR = REPO / "models"


@dataclass(frozen=True)
class Recipe:
    det_synth_images: int = 600
    cls_synth_tables: int = 160
    real_crop_repeats: int = 8
    cls_epochs: int = 8
    cls_batch: int = 128
    det_steps: int = 7200
    det_batch: int = 12
    det_patch: int = 256
    det_long_side: int = 640
    det_real_weight: int = 5  # each real photo counts as this many synthetic images
    # Share of synthetic tables drawn in another edition and typeface (models.recipe.synth.training_designs:
    # every edition and font family but the held-out ones); the rest keep the original look.
    designs_share: float = 0.6
    # Classifier only: on the tables drawn in another design, the chance that a tile's number
    # or joker is varied procedurally (models.recipe.glyph_variants: stroke, width, slant, bends, 1s
    # with and without flags and feet, 7s with and without crossbars, any joker motif).
    # 0: the old recipe.
    glyph_variation: float = 0.0
    # Classifier only: on those tables, the chance that a tile is drawn as a joker instead
    # (a set has 2 jokers in 106 tiles: too few to learn each edition's joker). 0: the old recipe.
    joker_share: float = 0.0
    # Classifier only: each training crop's number leans by a horizontal shear drawn from
    # +-crop_shear (of the crop's height), on top of the set's own slant, so that a typeface
    # leaning more than the training sets (a slanted 1 with a long flag reads as 7) is still
    # read by its shape. 0: the old recipe (no random number drawn).
    crop_shear: float = 0.0
    # Classifier only: the net's channels scaled by this (models.recipe.nets.TileClassNet); 1.0: the old recipe.
    cls_width: float = 1.0
    # Classifier only: an ONNX classifier (such as the shipped average) that teaches the net: its probabilities,
    # softened by cls_temperature, are what the net learns besides the labels, weighted by cls_distil
    # (0: the labels alone, the old recipe). It reads each crop before the crop's light and blur are
    # varied, so the net learns from a lit, sharp crop what the teacher sees.
    cls_teacher: str = ""
    cls_distil: float = 0.0
    cls_temperature: float = 2.0
    seed: int = 20261122


SMOKE = Recipe(det_synth_images=4, cls_synth_tables=2, real_crop_repeats=1, cls_epochs=1, det_steps=3, det_batch=2)

# The shipped models/tile_cls.onnx is the average of two classifiers of this recipe
# (models/recipe/average_nets.py, softmax probabilities; the embedding a set profile reads is the first's):
# 8 epochs (2026-11-22 15:00) and 16 (2026-11-22 23:40). Averaged they read more seen-design tiles than the first alone
# (lab/decisions/clsens.txt). Any classifier option trains one net instead.
CLASSIFIER_MEMBER_EPOCHS = (8, 16)
SMOKE_CLASSIFIER_MEMBER_EPOCHS = (1, 2)

# ------------------------------------------------------------------ synthetic data


def _designs(rng, share: float) -> dict:
    return training_designs() if rng.random() < share else {}


def _det_sample(seed: int, long_side: int, designs_share: float = 0.0):
    rng = np.random.default_rng(seed)
    aspect = rng.choice([16 / 9, 4 / 3, 3 / 4, 1.0])
    w = int(long_side * rng.uniform(0.8, 1.25))
    w, h = (w, int(w / aspect)) if aspect >= 1 else (int(w * aspect), w)
    kind = rng.random()
    if kind < 0.05:
        melds = []  # empty table: nothing must be found
    elif kind < 0.55:
        melds = random_melds(rng, int(rng.integers(60, 107)))
    else:
        melds = random_melds(rng, int(rng.integers(1, 60)))
    r = render_table(melds, w, h, seed=seed, **_designs(rng, designs_share))
    quads = [order_upright(t.corners) for t in r.tiles if t.visible > 0.5]
    return r.image, quads


def _cls_sample(seed: int, designs_share: float = 0.0, glyph_variation: float = 0.0, joker_share: float = 0.0):
    """Crops of every tile of one synthetic table, each with a known orientation, plus negatives."""
    rng = np.random.default_rng(seed)
    w = int(rng.choice([1280, 1600, 1920]))
    h = int(w * rng.choice([9 / 16, 3 / 4]))
    melds = random_melds(rng, int(rng.integers(40, 107)))
    designs = _designs(rng, designs_share)
    if designs and glyph_variation:
        designs["glyph_variation"] = glyph_variation
    if designs and joker_share:
        melds = [[JOKER_CODE if rng.random() < joker_share else code for code in meld] for meld in melds]
    r = render_table(melds, w, h, seed=seed, **designs)
    crops, masks = [], []
    for t in r.tiles:
        if t.visible < 0.7:
            continue
        quad = _jitter(rng, np.asarray(t.corners))
        flipped = rng.random() < 0.5
        if flipped:
            quad = flip_quad(quad)
        crops.append(rectify(r.image, quad))
        mask = np.zeros(CLASS_COUNT, bool)
        mask[2 * CODE_INDEX[t.code] + int(flipped)] = True
        masks.append(mask)
    crops_n, masks_n = _negatives(rng, r.image, [np.asarray(t.corners) for t in r.tiles], count=len(crops) // 6)
    return crops + crops_n, masks + masks_n


def _jitter(rng, quad: np.ndarray, amount: float = 1.0) -> np.ndarray:
    """Move a face quad the way detector errors do: shift, scale, turn, corner noise."""
    w, h = quad_size(quad)
    c = quad.mean(axis=0)
    theta = math.radians(rng.normal(0, 3 * amount))
    R = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    s = rng.uniform(0.92, 1.1) if amount else 1.0
    q = (quad - c) @ R.T * s + c + rng.normal(0, 0.05 * amount * w, 2)
    return q + rng.normal(0, 0.03 * amount * w, (4, 2))


def _negatives(rng, image, tile_quads, count):
    """Tile-sized quads that are not one tile: empty table, hands, or half of two tiles."""
    crops, masks = [], []
    h, w = image.shape[:2]
    if tile_quads:
        sizes = np.array([quad_size(q) for q in tile_quads])
        tw, th = np.median(sizes, axis=0)
    else:
        tw = rng.uniform(0.03, 0.08) * max(w, h)
        th = tw / 0.74
    centers = np.array([q.mean(axis=0) for q in tile_quads]) if tile_quads else np.zeros((0, 2))
    for _ in range(count):
        if len(tile_quads) and rng.random() < 0.4:
            # straddle: a quad shifted half a tile or more sideways off a real tile
            q = tile_quads[int(rng.integers(len(tile_quads)))]
            right = (q[1] - q[0]) * rng.choice([-1, 1]) * rng.uniform(0.45, 0.6)
            quad = q + right
        else:
            for _attempt in range(20):
                cx, cy = rng.uniform(0, w), rng.uniform(0, h)
                if not len(centers) or np.min(np.hypot(*(centers - [cx, cy]).T)) > 1.2 * th:
                    break
            a = rng.uniform(0, 2 * math.pi)
            R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
            s = rng.uniform(0.7, 1.4)
            quad = np.array([[-tw / 2, -th / 2], [tw / 2, -th / 2], [tw / 2, th / 2], [-tw / 2, th / 2]]) * s @ R.T + [cx, cy]
        crops.append(rectify(image, quad))
        mask = np.zeros(CLASS_COUNT, bool)
        mask[NOT_A_TILE] = True
        masks.append(mask)
    return crops, masks


# ----------------------------------------------------------------- real photo data


def _real_cls(rng, photos, repeats):
    crops, masks = [], []
    for photo in photos:
        image = cv2.imread(str(photo.image_path))
        for code, quad in photo.tiles:
            for _ in range(repeats):
                q = _jitter(rng, quad)
                if rng.random() < 0.5:
                    q = flip_quad(q)
                crops.append(rectify(image, q))
                mask = np.zeros(CLASS_COUNT, bool)
                # photos do not say which end is up: either orientation of the labelled code is right
                mask[2 * CODE_INDEX[code]: 2 * CODE_INDEX[code] + 2] = True
                masks.append(mask)
        n = max(2, len(photo.tiles) // 3) * repeats // 2 + (8 if not photo.tiles else 0)
        c, m = _negatives(rng, image, [q for _, q in photo.tiles], n)
        crops += c
        masks += m
    return crops, masks


def _augment_crops(rng, crops: np.ndarray, shear: float = 0.0) -> np.ndarray:
    """Light, blur, noise and a colour cast on uint8 crops (the normaliser undoes most casts);
    with `shear`, each crop also leans by a shear drawn from +-shear."""
    if shear:
        crops = _sheared(rng, crops, shear)
    x = crops.astype(np.float32)
    n = len(x)
    gain = rng.uniform(0.6, 1.3, (n, 1, 1, 1)) * rng.uniform(0.85, 1.15, (n, 1, 1, 3))
    x = x * gain + rng.normal(0, 8, (n, 1, 1, 1))
    x = x + rng.normal(0, 1, x.shape) * rng.uniform(0, 6, (n, 1, 1, 1))
    # a shadow edge across some crops
    ys = np.arange(CROP_HEIGHT)[None, :, None, None]
    cut = rng.uniform(0, CROP_HEIGHT, (n, 1, 1, 1))
    shade = np.where((ys > cut) & (rng.random((n, 1, 1, 1)) < 0.2), rng.uniform(0.5, 0.85, (n, 1, 1, 1)), 1.0)
    x = x * shade
    out = np.clip(x, 0, 255).astype(np.uint8)
    blur = rng.random(n) < 0.25
    for i in np.nonzero(blur)[0]:
        out[i] = cv2.GaussianBlur(out[i], (0, 0), rng.uniform(0.4, 1.0))
    return out


def _sheared(rng, crops: np.ndarray, shear: float) -> np.ndarray:
    """Each crop leant about its centre by a horizontal shear in [-shear, shear]."""
    out = np.empty_like(crops)
    for i, k in enumerate(rng.uniform(-shear, shear, len(crops))):
        m = np.float32([[1, -k, k * CROP_HEIGHT / 2], [0, 1, 0]])  # the top moves right for k > 0
        out[i] = cv2.warpAffine(crops[i], m, (CROP_WIDTH, CROP_HEIGHT), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    return out


# ------------------------------------------------------------------------ training


def train_averaged_classifier(recipe: Recipe, member_epochs: tuple[int, ...], train_photos, out_path: Path, workers: int,
                              log) -> None:
    """One classifier per entry of `member_epochs` (tile_cls-member-K.onnx beside `out_path`), then their average."""
    from models.recipe.average_nets import train_and_average

    train_and_average(out_path, [(f"{epochs} epochs", lambda path, epochs=epochs: train_classifier(
        replace(recipe, cls_epochs=epochs), train_photos, path, workers, log)) for epochs in member_epochs],
        "softmax", "classifier", log)


def _orientations_swapped(rows: np.ndarray) -> np.ndarray:
    """Per-class columns (each code upright, then turned; "not a tile" last) with each code's two
    orientations swapped, for crops turned half round; without the last column."""
    n = len(rows)
    return rows[:, :-1].reshape(n, -1, 2)[:, :, ::-1].reshape(n, -1)


def _teacher_probabilities(teacher: Path, crops: np.ndarray, temperature: float, log) -> np.ndarray:
    """The teacher classifier's probabilities of each uint8 crop, softened by `temperature`."""
    from scipy.special import softmax

    from vision.classify import crop_logits
    from vision.models import load_model

    t0 = time.time()
    model = load_model(teacher, 2)
    logits = np.concatenate([crop_logits(model, crops[i: i + 256]) for i in range(0, len(crops), 256)])
    log(f"classifier teacher {teacher.name}: {len(crops)} crops read ({time.time() - t0:.0f} s)")
    return softmax(logits / temperature, axis=1).astype(np.float32)


def train_classifier(recipe: Recipe, train_photos, out_path: Path, workers: int, log) -> None:
    import torch

    from models.recipe.nets import ExportedClassifier, TileClassNet

    rng = np.random.default_rng(recipe.seed)
    t0 = time.time()
    seeds = [(recipe.seed + 1000 + i, recipe.designs_share, recipe.glyph_variation, recipe.joker_share) for i in range(recipe.cls_synth_tables)]
    crops, masks = [], []
    for c, m in pool_map(_cls_sample, seeds, workers):
        crops += c
        masks += m
    synth_n = len(crops)
    c, m = _real_cls(rng, train_photos, recipe.real_crop_repeats)
    crops += c
    masks += m
    log(f"classifier data: {synth_n} synthetic crops, {len(c)} real-photo crops ({time.time() - t0:.0f} s)")
    X = np.stack(crops)
    M = np.stack(masks)
    taught = _teacher_probabilities(Path(recipe.cls_teacher), X, recipe.cls_temperature, log) if recipe.cls_teacher else None

    torch.manual_seed(recipe.seed)
    net = TileClassNet(recipe.cls_width)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = recipe.cls_epochs * math.ceil(len(X) / recipe.cls_batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=max(steps, 1), pct_start=0.15)
    step = 0
    for epoch in range(recipe.cls_epochs):
        net.train()
        order = rng.permutation(len(X))
        total, right = 0.0, 0
        for start in range(0, len(X), recipe.cls_batch):
            idx = order[start: start + recipe.cls_batch]
            batch = _augment_crops(rng, X[idx], recipe.crop_shear)
            # half-turns keep the label set for photos; for synthetic crops they swap orientation
            turn = rng.random(len(idx)) < 0.5
            batch[turn] = batch[turn][:, ::-1, ::-1]
            mask = M[idx].copy()
            mask[turn, :-1] = _orientations_swapped(mask)[turn]
            x = torch.from_numpy(normalise_crops(batch))
            logits = net(x)
            logp = torch.log_softmax(logits, dim=1)
            allowed = torch.from_numpy(mask)
            loss = -torch.logsumexp(logp.masked_fill(~allowed, -1e9), dim=1).mean()
            if taught is not None:
                target = taught[idx].copy()
                target[turn, :-1] = _orientations_swapped(target)[turn]
                soft = torch.log_softmax(logits / recipe.cls_temperature, dim=1)
                # scaled by T^2 so the teacher's pull keeps its weight whatever the temperature
                agreement = -(torch.from_numpy(target) * soft).sum(dim=1).mean() * recipe.cls_temperature ** 2
                loss = (1 - recipe.cls_distil) * loss + recipe.cls_distil * agreement
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total += loss.item() * len(idx)
            right += int(allowed[torch.arange(len(idx)), logits.argmax(1)].sum())
        log(f"classifier epoch {epoch + 1}/{recipe.cls_epochs}: loss {total / len(X):.4f}, train acc {right / len(X):.4f} ({time.time() - t0:.0f} s)")
    net.eval()
    export(ExportedClassifier(net), torch.zeros(1, 3, CROP_HEIGHT, CROP_WIDTH), out_path,
           {"crops": {0: "n"}, "logits": {0: "n"}, "embedding": {0: "n"}}, "crops", ("logits", "embedding"))
    if recipe.cls_teacher:
        name_teacher(out_path, Path(recipe.cls_teacher))


TEACHER_KEY = "teacher_sha256"  # a taught net's metadata: the sha256 of the classifier it learnt from


def name_teacher(net: Path, teacher: Path) -> None:
    """Write the teacher's sha256 into the taught net's metadata: which classifier it learnt from."""
    import onnx

    from vision.profile import file_sha256

    model = onnx.load(str(net))
    onnx.helper.set_model_props(model, {TEACHER_KEY: file_sha256(teacher)})
    onnx.save(model, str(net))


def _det_targets(shape, quads, scale):
    """Face and core masks at half resolution for quads given in full-res pixels * scale."""
    h, w = shape
    face = np.zeros((h // 2, w // 2), np.uint8)
    core = np.zeros((h // 2, w // 2), np.uint8)
    for q in quads:
        q = np.asarray(q) * scale / 2
        c = q.mean(axis=0)
        cv2.fillConvexPoly(face, np.round(q * 4).astype(np.int32), 1, cv2.LINE_8, 2)
        cv2.fillConvexPoly(core, np.round(((q - c) * CORE_SHRINK + c) * 4).astype(np.int32), 1, cv2.LINE_8, 2)
    return np.stack([face, core])


def _det_augment(rng, image, quads, long_side, patch):
    """Random scale, quarter turn, mirror and light; then a patch around the tiles."""
    h, w = image.shape[:2]
    scale = long_side / max(h, w) * rng.uniform(0.45, 1.4)
    img = cv2.resize(image, (max(patch, round(w * scale)), max(patch, round(h * scale))), interpolation=cv2.INTER_AREA)
    sx, sy = img.shape[1] / w, img.shape[0] / h
    qs = [np.asarray(q) * [sx, sy] for q in quads]
    k = int(rng.integers(4))
    for _ in range(k):  # rotate 90 degrees clockwise
        H, W = img.shape[:2]
        img = np.ascontiguousarray(np.rot90(img, -1))
        qs = [np.c_[H - q[:, 1], q[:, 0]] for q in qs]
    if rng.random() < 0.5:
        W = img.shape[1]
        img = np.ascontiguousarray(img[:, ::-1])
        qs = [np.c_[W - q[:, 0], q[:, 1]] for q in qs]
    H, W = img.shape[:2]
    if qs and rng.random() < 0.8:
        c = qs[int(rng.integers(len(qs)))].mean(axis=0)
        x0 = int(np.clip(c[0] - rng.uniform(0, patch), 0, W - patch))
        y0 = int(np.clip(c[1] - rng.uniform(0, patch), 0, H - patch))
    else:
        x0, y0 = int(rng.integers(W - patch + 1)), int(rng.integers(H - patch + 1))
    img = img[y0: y0 + patch, x0: x0 + patch].astype(np.float32)
    qs = [q - [x0, y0] for q in qs]
    img = img * rng.uniform(0.6, 1.3) * rng.uniform(0.85, 1.15, 3) + rng.normal(0, 10)
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.5))
    img = np.clip(img + rng.normal(0, rng.uniform(0, 5), img.shape), 0, 255).astype(np.uint8)
    return img, _det_targets((patch, patch), qs, 1.0)


def train_detector(recipe: Recipe, train_photos, out_path: Path, workers: int, log) -> None:
    import torch
    import torch.nn.functional as F

    from models.recipe.nets import TileSegNet

    rng = np.random.default_rng(recipe.seed + 7)
    t0 = time.time()
    args = [(recipe.seed + 50000 + i, recipe.det_long_side, recipe.designs_share) for i in range(recipe.det_synth_images)]
    samples = pool_map(_det_sample, args, workers)
    synth_n = len(samples)
    for photo in train_photos:
        image = cv2.imread(str(photo.image_path))
        samples += [(image, [q for _, q in photo.tiles])] * recipe.det_real_weight  # the real domain weighs more
    log(f"detector data: {synth_n} synthetic images, {len(train_photos)} real photos x{recipe.det_real_weight} ({time.time() - t0:.0f} s)")

    torch.manual_seed(recipe.seed)
    net = TileSegNet()

    def next_batch():
        imgs, tgts = [], []
        for i in rng.integers(len(samples), size=recipe.det_batch):
            image, quads = samples[i]
            img, tgt = _det_augment(rng, image, quads, recipe.det_long_side, recipe.det_patch)
            imgs.append(img)
            tgts.append(tgt)
        return torch.from_numpy(detector_tensor(np.stack(imgs))), torch.from_numpy(np.stack(tgts).astype(np.float32))

    def loss_of(logits, y):
        bce = F.binary_cross_entropy_with_logits(logits, y, pos_weight=torch.tensor([1.0, 2.0]).view(1, 2, 1, 1))
        p = torch.sigmoid(logits)
        dice = 1 - (2 * (p * y).sum((0, 2, 3)) + 1) / (p.sum((0, 2, 3)) + y.sum((0, 2, 3)) + 1)
        return bce + dice.mean()

    fit_steps(net, recipe.det_steps, 4e-3, next_batch, loss_of, log, "detector", t0)
    export(net, torch.zeros(1, 3, 256, 320), out_path, {"image": {0: "n", 2: "h", 3: "w"}, "maps": {0: "n", 2: "h2", 3: "w2"}}, "image", "maps")


# The tile recipe's settings a run may change on the command line: (option, Recipe field,
# type, metavar, help); each defaults to the recipe's own value.
_RECIPE_OPTIONS = (
    ("--glyph-variation", "glyph_variation", float, "P", "classifier: chance a tile of another design is varied procedurally"),
    ("--joker-share", "joker_share", float, "P", "classifier: chance a tile of another design is drawn as a joker"),
    ("--crop-shear", "crop_shear", float, "S", "classifier: each crop leans by a shear in +-S"),
    ("--det-steps", "det_steps", int, "N", "detector: optimiser steps"),
    ("--det-real-weight", "det_real_weight", int, "N", "detector: each real photo counts as N synthetic images"),
    ("--cls-epochs", "cls_epochs", int, "N", "classifier: epochs of one net (without a classifier option: two nets, "
                                              f"{CLASSIFIER_MEMBER_EPOCHS} epochs, averaged)"),
    ("--cls-width", "cls_width", float, "W", "classifier: one net with its channels scaled by W"),
    ("--cls-teacher", "cls_teacher", str, "ONNX", "classifier: one net taught by this classifier's probabilities"),
    ("--cls-distil", "cls_distil", float, "W", "classifier: weight of the teacher's probabilities against the labels"),
    ("--cls-temperature", "cls_temperature", float, "T", "classifier: the teacher's probabilities softened by T"),
)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a few steps of everything, into models/work/smoke")
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--out", type=Path, default=None, help="where the .onnx files go (default models/)")
    parser.add_argument("--only", choices=["classifier", "detector", "occluder"], default=None)
    parser.add_argument("--workers", type=int, default=2, help="processes drawing synthetic data")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (1 is faster on a busy machine)")
    for option, name, kind, metavar, text in _RECIPE_OPTIONS:
        parser.add_argument(option, type=kind, default=None, metavar=metavar, help=f"{text} (default {getattr(Recipe, name)})")
    parser.add_argument("--occluder-steps", type=int, default=None, metavar="N",
                        help=f"occluder: train one net (not the shipped average of six) for N steps (default {OccluderRecipe.steps})")
    parser.add_argument("--occluder-samples", type=int, default=None, metavar="N",
                        help=f"occluder: one net, on N composited frames drawn once (default {OccluderRecipe.samples})")
    parser.add_argument("--occluder-seed", type=int, default=None, metavar="N",
                        help=f"occluder: one net, with this seed for its frames and weights (default {OccluderRecipe.seed})")
    lean = parser.add_mutually_exclusive_group()
    lean.add_argument("--occluder-hard", dest="occluder_lean", action="store_const", const=HARD,
                      help="occluder: one net, on the harder samples of models/recipe/occluder_data.py (as the fourth shipped member)")
    lean.add_argument("--occluder-aimed", dest="occluder_lean", action="store_const", const=AIMED,
                      help="occluder: one net, on harder samples leaning further to thin arms and arms in the table's colour "
                           "(models/recipe/occluder_data.AIMED)")
    lean.add_argument("--occluder-shaded", dest="occluder_lean", action="store_const", const=SHADED,
                      help="occluder: one net, on the aimed samples with shadows cast from out of sight half the time "
                           "(models/recipe/occluder_data.SHADED)")
    lean.add_argument("--occluder-folded", dest="occluder_lean", action="store_const", const=FOLDED,
                      help="occluder: one net, on the shaded samples with sharp-sided folds and creases in the top half the time "
                           "(models/recipe/occluder_data.FOLDED)")
    lean.add_argument("--occluder-cornered", dest="occluder_lean", action="store_const", const=CORNERED,
                      help="occluder: one net, on the folded samples with arms that only cut across a corner of the frame a "
                           "third of the time (models/recipe/occluder_data.CORNERED)")
    args = parser.parse_args(argv)
    given = {name: getattr(args, name) for _, name, *_ in _RECIPE_OPTIONS if getattr(args, name) is not None}
    recipe = replace(SMOKE if args.smoke else Recipe(), **given)
    # with no occluder option the shipped averaged net is trained; with one, a single net (a candidate member)
    one_net = {name: value for name, value in (("steps", args.occluder_steps), ("samples", args.occluder_samples),
                                               ("seed", args.occluder_seed),
                                               ("hard", args.occluder_lean))
               if value is not None}
    occluder_recipe = replace(OCCLUDER_SMOKE if args.smoke else OccluderRecipe(), **one_net) if one_net else None
    out = args.out or (MODELS_DIR / "work" / "smoke" if args.smoke else MODELS_DIR)

    import torch

    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    if args.only in (None, "classifier", "detector") and not args.smoke:
        families = training_families()
        if len(families) < 2:
            parser.error(f"only {families} typeface families found: install the training fonts first "
                         f"(models/recipe/install_training_fonts.sh; the held-out family is {HELD_OUT_FAMILY!r})")
    train_photos, holdout = load_split(args.dataset)
    if args.smoke:
        train_photos = train_photos[:2]
    start = time.time()

    def log(msg):
        print(f"[{time.time() - start:6.0f} s] {msg}", flush=True)

    log(f"{len(train_photos)} training photos, {len(holdout)} validation photos (never trained on); the test split is not loaded")
    if args.only in (None, "classifier"):
        if any(name in given for _, name, _, _, text in _RECIPE_OPTIONS if text.startswith("classifier")):
            train_classifier(recipe, train_photos, out / "tile_cls.onnx", args.workers, log)
        else:
            train_averaged_classifier(recipe, SMOKE_CLASSIFIER_MEMBER_EPOCHS if args.smoke else CLASSIFIER_MEMBER_EPOCHS,
                                      train_photos, out / "tile_cls.onnx", args.workers, log)
    if args.only in (None, "detector"):
        train_detector(recipe, train_photos, out / "tile_seg.onnx", args.workers, log)
    if args.only in (None, "occluder"):
        if occluder_recipe is not None:
            train_occluder(occluder_recipe, train_photos, out / "occluder.onnx", args.workers, log)
        else:
            train_averaged_occluder(OCCLUDER_SMOKE_MEMBERS if args.smoke else OCCLUDER_MEMBERS, train_photos,
                                    out / "occluder.onnx", args.workers, log)
    log(f"done: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
