"""Calibrate a club's tile set: photos of the set in a known layout -> a `SetProfile`.

Stages: read each photo with the shipped models -> arrange the tiles into the layout's rows
(`place_layout`) -> check no tile is out of place (each tile's nearest look-alike must be
its own copy) -> crop every tile many times with jitter, plus bare table -> fit a residual
last layer on the classifier's embeddings (numpy, no torch). A photo that does not show
the layout stops with `CalibrationError` naming the photo, row and position.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Sequence

import cv2
import numpy as np

from .codes import CLASS_COUNT, CODE_INDEX, JOKER_CODE, NOT_A_TILE
from .config import DEFAULT_CALIBRATION, DEFAULT_CONFIG, CalibrationConfig, VisionConfig
from .errors import CalibrationError
from .geometry import normalise_crops, quad_size, rectify
from .image import check_image
from .layouts import DEFAULT_LAYOUT, Layout
from .models import load_model
from .pipeline import TableReader
from .profile import SetProfile, file_sha256
from .reading import FrameReading

_BATCH = 256


@dataclass(frozen=True)
class LayoutTile:
    """A tile at its place in the calibration layout: the code laid there and what the shipped reader saw."""

    photo: str
    row: int  # 1-based, as a person counts
    position: int  # 1-based, left to right
    code: str  # what the layout puts there
    read_as: str  # what the shipped reader saw
    confidence: float
    corners: tuple[tuple[float, float], ...]  # upright face, image pixels


@dataclass(frozen=True)
class Calibration:
    profile: SetProfile
    tiles: tuple[LayoutTile, ...]
    seconds: float = 0.0

    @property
    def shipped_right(self) -> int:
        return sum(t.read_as == t.code for t in self.tiles)


def calibrate(photos: Sequence[tuple[str, np.ndarray]], layout: Layout = DEFAULT_LAYOUT, name: str = "club set",
              config: VisionConfig = DEFAULT_CONFIG, settings: CalibrationConfig = DEFAULT_CALIBRATION,
              reader: TableReader | None = None) -> Calibration:
    """Fit a profile of the set shown by `photos` ((label, BGR image) pairs) laid out as `layout`."""
    started = time.perf_counter()
    if not photos:
        raise CalibrationError("no calibration photo given")
    if len(layout.pages) > 1 and len(photos) != len(layout.pages):
        raise CalibrationError(f"layout {layout.name!r} has {len(layout.pages)} pages, one per photo, "
                               f"but {len(photos)} photo(s) were given")
    reader = reader or TableReader(config)
    reader = replace(reader, config=replace(reader.config, min_tile_confidence=settings.min_tile_confidence))
    classifier = load_model(reader.classifier_path, config.threads)
    placed: list[LayoutTile] = []
    images: list[np.ndarray] = []
    for k, (label, image) in enumerate(photos):
        image = check_image(image)
        page = layout.pages[k % len(layout.pages)]
        placed += place_layout(reader.read(image), page, label, settings)
        images.append(image)
    by_photo = {label: image for (label, _), image in zip(photos, images)}
    upright = np.stack([rectify(by_photo[t.photo], np.array(t.corners)) for t in placed])
    _check_in_place(placed, _embed(classifier, upright)[1], settings)

    crops, targets = _training_crops(placed, by_photo, settings)
    logits, embedding = _embed(classifier, crops)
    weight, bias = fit_residual(logits, embedding, targets, settings)
    profile = SetProfile(
        name=name,
        classifier_sha256=file_sha256(reader.classifier_path),
        weight=weight,
        bias=bias,
        layout=layout.name,
        photos=tuple(label for label, _ in photos),
        tiles=len(placed),
        fit_accuracy=(_accuracy(logits, targets), _accuracy(logits + embedding @ weight.T + bias, targets)),
    )
    return Calibration(profile, tuple(placed), time.perf_counter() - started)


def place_layout(reading: FrameReading, page: tuple[tuple[str, ...], ...], photo: str,
                 settings: CalibrationConfig = DEFAULT_CALIBRATION) -> list[LayoutTile]:
    """The tiles of one photo in the page's rows; CalibrationError where they do not fit."""
    expected = sum(len(row) for row in page)
    _check_whole_tiles(reading, photo)
    if not reading.tiles:
        raise CalibrationError(f"photo {photo!r}: no tiles seen; the layout page has {expected}")
    rows, pitch = _rows(reading, settings)
    if len(rows) != len(page):
        seen = ", ".join(str(len(r)) for r in rows)
        raise CalibrationError(f"photo {photo!r}: {len(rows)} rows of tiles seen ({seen} tiles), "
                               f"the layout has {len(page)} rows ({', '.join(str(len(r)) for r in page)} tiles)")
    placed = []
    for r, (row, codes) in enumerate(zip(rows, page), start=1):
        if len(row) != len(codes):
            raise CalibrationError(_row_mismatch(photo, r, row, codes, pitch, reading, settings))
        for position, ((index, _x), code) in enumerate(zip(row, codes), start=1):
            tile = reading.tiles[index]
            placed.append(LayoutTile(photo, r, position, code, tile.code, tile.confidence, tile.corners))
    return placed


def _check_whole_tiles(reading: FrameReading, photo: str) -> None:
    """A tile cut by the photo's border would be learned from a bad crop, and one across the layout's
    area edge is read by no one: either stops calibration, naming where the tile lies."""
    for tile in reading.tiles:
        corners = np.asarray(tile.corners)
        cut = [side for side, off in (("left", corners[:, 0].min() < 1), ("top", corners[:, 1].min() < 1),
                                      ("right", corners[:, 0].max() > reading.width - 2),
                                      ("bottom", corners[:, 1].max() > reading.height - 2)) if off]
        if cut:
            x, y = tile.center
            raise CalibrationError(f"photo {photo!r}: the tile at {x:.0f},{y:.0f} is cut by the photo's {cut[0]} border; "
                                   "lay it inside")
    if reading.edge_tiles:
        raise CalibrationError(f"photo {photo!r}: {reading.edge_tiles[0].describe()}")


def _rows(reading: FrameReading, settings: CalibrationConfig = DEFAULT_CALIBRATION) -> tuple[list[list[tuple[int, float]]], float]:
    """Tiles grouped into rows along the tiles' own reading direction: (index, x along the row).

    A camera at a slant makes the rows converge, so that one row's far end can lie as low in
    the photo as the next row's near end. The reader's sets follow each row's own line, so
    rows grow from the longest sets: a shorter set or a lone tile joins the row whose line it
    lies on (within `row_gap` tile heights), or starts a row of its own.
    """
    corners = np.array([t.corners for t in reading.tiles], np.float64)  # N x 4 x 2, upright faces
    right = (corners[:, 1] - corners[:, 0] + corners[:, 2] - corners[:, 3]) / 2
    angle = np.arctan2(right[:, 1], right[:, 0])
    # the mean of doubled angles ignores a tile lying the other way round; the majority then picks the sign
    axis = 0.5 * math.atan2(np.sin(2 * angle).mean(), np.cos(2 * angle).mean())
    along = np.array([math.cos(axis), math.sin(axis)])
    if (right @ along < 0).sum() > len(right) / 2:
        along = -along
    down = np.array([-along[1], along[0]])
    centres = corners.mean(axis=1)
    height = float(np.median([quad_size(c)[1] for c in corners]))
    in_sets = {i for s in reading.sets for i in s.tiles}
    groups = [list(s.tiles) for s in reading.sets] + [[i] for i in range(len(centres)) if i not in in_sets]
    groups.sort(key=lambda g: (-len(g), float(centres[g].mean(axis=0) @ down)))
    rows: list[list[int]] = []
    lines: list[tuple[np.ndarray, np.ndarray]] = []  # (a point on the row, its direction)
    for group in groups:
        points = centres[group]
        near = [k for k, (origin, direction) in enumerate(lines)
                if np.abs((points - origin) @ np.array([-direction[1], direction[0]])).max() < settings.row_gap * height]
        if near:
            k = min(near, key=lambda k: abs(float((points.mean(axis=0) - lines[k][0]) @ down)))
            rows[k] += group
            lines[k] = _line_through(centres[rows[k]], along, height)
        else:
            rows.append(list(group))
            lines.append(_line_through(points, along, height))
    arranged = []
    for row, (_, direction) in sorted(zip(rows, lines), key=lambda pair: float(centres[pair[0]].mean(axis=0) @ down)):
        arranged.append(sorted(((i, float(centres[i] @ direction)) for i in row), key=lambda item: item[1]))
    steps = [b[1] - a[1] for row in arranged for a, b in zip(row, row[1:])]
    pitch = float(np.median(steps)) if steps else height * 0.75
    return arranged, pitch


def _line_through(points: np.ndarray, along: np.ndarray, height: float) -> tuple[np.ndarray, np.ndarray]:
    """The line a row's centres lie on, pointing the photo's way along the rows; tiles
    spanning less than a tile's height give no direction of their own and take the photo's."""
    origin = points.mean(axis=0)
    if len(points) < 2 or np.ptp(points @ along) < height:
        return origin, along
    direction = np.linalg.svd(points - origin, full_matrices=False)[2][0]
    return origin, direction if direction @ along >= 0 else -direction


def _row_mismatch(photo, r, row, codes, pitch, reading, settings) -> str:
    head = f"photo {photo!r}, row {r}: {len(row)} tiles seen, the layout has {len(codes)} ({codes[0]} .. {codes[-1]})"
    if len(row) > len(codes):
        extra = " ".join(reading.tiles[i].code for i, _ in row)
        return f"{head}; read there: {extra}"
    gaps = [k for k, (a, b) in enumerate(zip(row, row[1:])) if b[1] - a[1] > settings.missing_gap * pitch]
    if gaps:
        position = gaps[0] + 2
        return f"{head}; nothing at position {position}, where {codes[position - 1]} belongs"
    return (f"{head}; a tile is missing at one end: nothing at position 1 ({codes[0]}) "
            f"or position {len(codes)} ({codes[-1]})")


def _check_in_place(placed: list[LayoutTile], embedding: np.ndarray, settings: CalibrationConfig) -> None:
    """A tile is out of place when the shipped reading confidently disagrees with the layout,
    its nearest look-alike is another code's tile, not its own code's copy, and a place of
    that code is disturbed as well (read as another code).

    The shipped reading alone cannot judge a set it never saw (that is why we calibrate),
    but the set's two copies of a code look alike whatever the set; either test alone
    takes a misread or a look-alike number for a misplaced tile. Together they still take a
    misread whose embedding follows it (the reading comes from that embedding), which a
    misplaced tile's missing partner tells apart.
    """
    unit = embedding / np.maximum(np.linalg.norm(embedding, axis=1, keepdims=True), 1e-9)
    similarity = unit @ unit.T
    np.fill_diagonal(similarity, -np.inf)
    codes = np.array([t.code for t in placed])
    look_alike: dict[int, int] = {}  # suspect tile -> the other code's tile it looks like
    for i, tile in enumerate(placed):
        if tile.read_as == tile.code or tile.confidence < settings.out_of_place_confidence or tile.code == JOKER_CODE:
            continue  # the shipped reading agrees, or is unsure; a set's two jokers need not look alike
        same = codes == tile.code
        same[i] = False
        if not same.any():
            continue  # a code laid once: nothing to compare it with
        own = similarity[i, same].max()
        others = np.where((codes != tile.code) & (codes != JOKER_CODE))[0]
        j = int(others[np.argmax(similarity[i, others])])
        if similarity[i, j] - own > settings.out_of_place_margin:
            look_alike[i] = j
    # A tile laid in another code's place came from somewhere: a place of the code it looks
    # like is disturbed too, read as another code however unsure (a swap, or a longer round).
    # A suspect whose look-alike's code reads right everywhere is a misread the embedding
    # shares (this typeface's 4 read as 5), not a misplaced tile. And two suspects that look
    # like each other are two codes the typeface draws alike (its 1 and 11 both read as 7):
    # a misplaced tile looks like its code's other copy, which lies in place.
    disturbed = {t.code for t in placed if t.read_as != t.code}
    wrong = []
    for i, j in look_alike.items():
        if look_alike.get(j) == i or placed[j].code not in disturbed:
            continue
        tile, near = placed[i], placed[j]
        wrong.append(f"photo {tile.photo!r}, row {tile.row}, position {tile.position}: {tile.code} belongs there, "
                     f"but the tile there looks like the {near.code} at row {near.row}, position {near.position} "
                     f"(read as {tile.read_as}, {tile.confidence:.2f})")
    if wrong:
        more = f" (and {len(wrong) - 3} more)" if len(wrong) > 3 else ""
        raise CalibrationError("tile out of place: " + "; ".join(wrong[:3]) + more)


def _training_crops(placed: list[LayoutTile], images: dict[str, np.ndarray], settings: CalibrationConfig):
    """Every tile re-cropped with jitter, each crop also turned half round, plus bare table."""
    rng = np.random.default_rng(settings.seed)
    crops, targets = [], []
    for tile in placed:
        image = images[tile.photo]
        quad = np.array(tile.corners, np.float64)
        index = CODE_INDEX[tile.code]
        for k in range(settings.jitters + 1):
            crop = rectify(image, quad if k == 0 else _jittered(quad, rng, settings))
            if k:
                crop = _relit(crop, rng)
            crops += [crop, crop[::-1, ::-1]]
            targets += [2 * index, 2 * index + 1]
    for photo, image in images.items():
        tiles = [t for t in placed if t.photo == photo]
        crops += _bare_table(image, tiles, settings.background_crops * len(tiles), rng)
    targets += [NOT_A_TILE] * (len(crops) - len(targets))
    return np.stack(crops), np.array(targets)


def _jittered(quad: np.ndarray, rng: np.random.Generator, settings: CalibrationConfig) -> np.ndarray:
    width, _ = quad_size(quad)
    centre = quad.mean(axis=0)
    turn = math.radians(rng.uniform(-settings.jitter_angle_deg, settings.jitter_angle_deg))
    scale = 1.0 + rng.uniform(-settings.jitter_scale, settings.jitter_scale)
    rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    shift = rng.uniform(-settings.jitter_shift, settings.jitter_shift, 2) * width
    corners = rng.uniform(-settings.jitter_corner, settings.jitter_corner, (4, 2)) * width  # a tilted camera
    return (quad - centre) @ rotation.T * scale + centre + shift + corners


def _relit(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same face under other light and a worse lens: a table in play is rarely as sharp."""
    out = crop.astype(np.float32) * rng.uniform(0.75, 1.15) * rng.uniform(0.92, 1.08, 3)
    if rng.random() < 0.4:  # a smaller tile: fewer pixels across the number
        factor = rng.uniform(0.45, 0.9)
        small = cv2.resize(out, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.0))
    out += rng.normal(0, rng.uniform(0, 5), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        _, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 95))])
        out = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return out


def _bare_table(image: np.ndarray, tiles: list[LayoutTile], count: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Tile-sized crops that hold no whole tile (table, edges of tiles, gaps between rows)."""
    if not tiles:
        return []
    quads = np.array([t.corners for t in tiles], np.float64)
    centres = quads.mean(axis=1)
    width, height = np.median([quad_size(q) for q in quads], axis=0)
    h, w = image.shape[:2]
    out = []
    for _ in range(count * 20):
        if len(out) >= count:
            break
        centre = rng.uniform([0, 0], [w, h])
        if np.hypot(*(centres - centre).T).min() < 0.6 * width:
            continue
        turn = rng.uniform(0, 2 * math.pi)
        box = np.array([[-width / 2, -height / 2], [width / 2, -height / 2], [width / 2, height / 2], [-width / 2, height / 2]])
        rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        out.append(rectify(image, box @ rotation.T + centre))
    return out


def _embed(classifier, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    parts = [classifier.outputs(normalise_crops(crops[i: i + _BATCH]), ("logits", "embedding"))
             for i in range(0, len(crops), _BATCH)]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def fit_residual(logits: np.ndarray, embedding: np.ndarray, targets: np.ndarray,
                 settings: CalibrationConfig = DEFAULT_CALIBRATION) -> tuple[np.ndarray, np.ndarray]:
    """Residual last layer (weight, bias) minimising cross-entropy of logits + residual,
    with weight decay towards zero; full-batch Adam in numpy."""
    n, size = embedding.shape
    weight = np.zeros((CLASS_COUNT, size), np.float64)
    bias = np.zeros(CLASS_COUNT, np.float64)
    scale = max(float(np.percentile(np.linalg.norm(embedding, axis=1), 50)), 1e-6)
    x = embedding.astype(np.float64) / scale  # a unit-sized input keeps one learning rate right for every model
    onehot = np.zeros((n, CLASS_COUNT))
    onehot[np.arange(n), targets] = 1.0
    moments = [np.zeros_like(weight), np.zeros_like(weight), np.zeros_like(bias), np.zeros_like(bias)]
    beta1, beta2 = 0.9, 0.999
    for step in range(1, settings.steps + 1):
        z = logits + x @ weight.T + bias
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        error = (p - onehot) / n
        grads = (error.T @ x + settings.weight_decay * weight, error.sum(axis=0))
        for k, (param, grad) in enumerate(zip((weight, bias), grads)):
            m, v = moments[2 * k], moments[2 * k + 1]
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            if k == 1 and not settings.fit_bias:
                continue
            param -= settings.learning_rate * (m / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step)) + 1e-8)
    return (weight / scale).astype(np.float32), bias.astype(np.float32)


def _accuracy(logits: np.ndarray, targets: np.ndarray) -> float:
    """Share of crops whose best class, orientation aside, is the right code (or not-a-tile)."""
    codes = np.where(targets == NOT_A_TILE, -1, targets // 2)
    best = logits.argmax(axis=1)
    guessed = np.where(best == NOT_A_TILE, -1, best // 2)
    return float((guessed == codes).mean())


__all__ = ["Calibration", "LayoutTile", "calibrate", "fit_residual", "place_layout"]
