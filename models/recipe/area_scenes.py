"""A table photo with things beside the table: a box of spare tiles, its lid, a rack, the floor.

The photo becomes the table in the middle of a larger frame; the floor (carpet of a colour far
from the table's) fills the rest, and the objects lie on the floor, outside the play area:
the box holds spare tile faces cut from real photos of the train split, the lid carries a
printed logo and tile art, the rack holds a row of tile faces. Used by tests/vision/test_area.py
and benchmarks/bench_area.py; deterministic per seed.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import order_upright

FACE_WIDTH, FACE_HEIGHT = 37, 50  # a spare face as cut (pixels; scaled to the box and rack)
_CARPETS = ((60, 60, 150), (150, 90, 40), (70, 140, 70), (200, 200, 210), (40, 40, 40), (120, 60, 130))  # BGR


@dataclass(frozen=True)
class AreaScene:
    image: np.ndarray  # the whole frame, BGR
    table: np.ndarray  # (4, 2) the photo's corners in the frame: TL TR BR BL
    offset: tuple[int, int]  # where the photo's top-left lies in the frame (x, y)
    objects: tuple[str, ...]  # what was placed beside the table
    spare: tuple[np.ndarray, ...] = ()  # (4, 2) corners of every tile face placed beside the table


def cut_faces(image: np.ndarray, quads) -> list[np.ndarray]:
    """Upright FACE_WIDTH x FACE_HEIGHT crops of labelled tile faces."""
    target = np.float32([[0, 0], [FACE_WIDTH, 0], [FACE_WIDTH, FACE_HEIGHT], [0, FACE_HEIGHT]])
    out = []
    for quad in quads:
        quad = order_upright(np.asarray(quad, float))
        w, h = np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])
        if w > h:  # a tile lying on its side: start the quad at its top-left as it reads
            quad = np.roll(quad, -1, axis=0)
        m = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
        out.append(cv2.warpPerspective(image, m, (FACE_WIDTH, FACE_HEIGHT), flags=cv2.INTER_AREA))
    return out


def compose(photo: np.ndarray, faces: list[np.ndarray], seed: int,
            objects: tuple[str, ...] = ("box", "lid", "rack")) -> AreaScene:
    """The photo as the table in a larger frame with `objects` ("box", "lid", "rack") on the floor."""
    rng = np.random.default_rng(seed)
    h, w = photo.shape[:2]
    side = int(0.36 * w)  # the floor left and right of the table
    below = int(0.3 * h)
    above = int(0.06 * h)
    frame_h, frame_w = h + above + below, w + 2 * side
    frame = _carpet(rng, frame_h, frame_w, photo)
    frame[above:above + h, side:side + w] = photo
    table = np.float64([[side, above], [side + w, above], [side + w, above + h], [side, above + h]])
    spare: list[np.ndarray] = []
    if "box" in objects:
        spare += _box(rng, frame, (int(0.08 * side), above + int(0.1 * h), int(0.84 * side), int(0.7 * h)), faces)
    if "lid" in objects:
        _lid(rng, frame, (side + w + int(0.08 * side), above + int(0.05 * h), int(0.84 * side), int(0.75 * h)))
    if "rack" in objects:
        spare += _rack(rng, frame, (side + int(0.12 * w), above + h + int(0.22 * below), int(0.76 * w), int(0.62 * below)), faces)
    return AreaScene(frame, table, (side, above), objects, tuple(spare))


def place_face(frame: np.ndarray, face: np.ndarray, centre, width: float, angle: float = 0.0) -> np.ndarray:
    """Paste a tile face onto the frame, `width` pixels wide, turned `angle` degrees; its corners."""
    scale = width / FACE_WIDTH
    m = cv2.getRotationMatrix2D((FACE_WIDTH / 2, FACE_HEIGHT / 2), angle, scale)
    m[:, 2] += np.asarray(centre, float) - np.float64([FACE_WIDTH / 2, FACE_HEIGHT / 2])
    h, w = frame.shape[:2]
    warped = cv2.warpAffine(face, m, (w, h), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.full(face.shape[:2], 255, np.uint8), m, (w, h), flags=cv2.INTER_LINEAR)
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    frame[:] = (frame * (1 - alpha) + warped * alpha).astype(np.uint8)
    corners = np.float64([[0, 0], [FACE_WIDTH, 0], [FACE_WIDTH, FACE_HEIGHT], [0, FACE_HEIGHT]])
    return corners @ m[:, :2].T + m[:, 2]


def _carpet(rng, h, w, photo) -> np.ndarray:
    edge = np.concatenate([photo[:8].reshape(-1, 3), photo[-8:].reshape(-1, 3), photo[:, :8].reshape(-1, 3),
                           photo[:, -8:].reshape(-1, 3)]).astype(float).mean(axis=0)
    far = sorted(_CARPETS, key=lambda c: -np.linalg.norm(np.float64(c) - edge))[:3]
    base = np.float64(far[rng.integers(len(far))])
    pile = rng.normal(0, 14, (h // 3 + 1, w // 3 + 1, 1))
    pile = cv2.resize(pile, (w, h), interpolation=cv2.INTER_LINEAR)[..., None] if pile.ndim == 3 else pile
    image = np.clip(base + pile + rng.normal(0, 6, (h, w, 1)), 0, 255)
    return image.astype(np.uint8)


def _box(rng, frame, rect, faces):
    x, y, bw, bh = rect
    cv2.rectangle(frame, (x, y), (x + bw, y + bh), (30, 30, 150), -1)  # the box's walls
    wall = max(3, bw // 14)
    tray = (int(rng.integers(20, 60)), int(rng.integers(20, 60)), int(rng.integers(20, 60)))
    cv2.rectangle(frame, (x + wall, y + wall), (x + bw - wall, y + bh - wall), tray, -1)
    cols, rows = 3, 5
    pitch_x, pitch_y = (bw - 2 * wall) / cols, (bh - 2 * wall) / rows
    width = 0.72 * min(pitch_x, pitch_y * FACE_WIDTH / FACE_HEIGHT)
    placed = []
    for r in range(rows):
        for c in range(cols):
            if rng.random() < 0.1:
                continue
            face = faces[int(rng.integers(len(faces)))]
            centre = (x + wall + (c + 0.5) * pitch_x, y + wall + (r + 0.5) * pitch_y)
            placed.append(place_face(frame, face, centre, width, float(rng.uniform(-20, 20))))
    return placed


def _lid(rng, frame, rect):
    x, y, lw, lh = rect
    colour = tuple(int(v) for v in rng.integers(90, 200, 3))
    cv2.rectangle(frame, (x, y), (x + lw, y + lh), colour, -1)
    cv2.rectangle(frame, (x + 4, y + 4), (x + lw - 4, y + lh - 4), (240, 240, 240), 2)
    cx, cy = x + lw // 2, y + lh // 3
    cv2.ellipse(frame, (cx, cy), (lw // 3, lh // 10), 0, 0, 360, (250, 250, 250), -1)
    cv2.putText(frame, "RUMMY", (cx - lw // 4, cy + lh // 40), cv2.FONT_HERSHEY_DUPLEX, lw / 260, (20, 20, 200), 2)
    tile_w = lw // 5  # the printed tile art: white faces with numbers
    for k in range(3):
        tx, ty = x + lw // 8 + k * (tile_w + lw // 16), y + lh // 2
        cv2.rectangle(frame, (tx, ty), (tx + tile_w, ty + int(tile_w * 1.35)), (235, 240, 245), -1)
        cv2.putText(frame, str(int(rng.integers(1, 14))), (tx + tile_w // 6, ty + tile_w), cv2.FONT_HERSHEY_SIMPLEX,
                    tile_w / 40, ((200, 60, 20), (20, 20, 20), (20, 20, 200))[k], 2)
    for k in range(4):
        cv2.circle(frame, (x + lw // 6 + k * lw // 5, y + lh - lh // 8), lw // 16,
                   tuple(int(v) for v in rng.integers(0, 255, 3)), -1)


def _rack(rng, frame, rect, faces):
    x, y, rw, rh = rect
    cv2.rectangle(frame, (x, y), (x + rw, y + rh), (25, 25, 28), -1)
    width = 0.62 * rh * FACE_WIDTH / FACE_HEIGHT
    count = int(rw / (width * 1.05)) - 1
    return [place_face(frame, faces[int(rng.integers(len(faces)))], (x + width * (0.8 + 1.05 * k), y + rh / 2), width, 0.0)
            for k in range(count)]
