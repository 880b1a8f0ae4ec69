"""Frame sequences for the eyes' tests, built from a real bundled photo (tests/vision/data): an arm
drawn by the demo's own arm painter (controller/demo/scene_hands.py) enters from an edge, rests with
a slight tremor, and leaves; a cup stands at the edge; the room's light changes."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.eyes import TimedFrame

DATA = Path(__file__).with_name("data")
FPS = 30.0


def table_photo(name: str = "melds.jpg", width: int = 640) -> np.ndarray:
    photo = cv2.imread(str(DATA / name))
    h, w = photo.shape[:2]
    return cv2.resize(photo, (width, int(round(h * width / w))), interpolation=cv2.INTER_AREA)


def noisy(image: np.ndarray, index: int) -> np.ndarray:
    """A camera's sensor noise, different in every frame."""
    rng = np.random.default_rng(index)
    return np.clip(image.astype(np.int16) + rng.normal(0, 2.0, image.shape).astype(np.int16), 0, 255).astype(np.uint8)


def with_arm(table: np.ndarray, target: tuple[float, float], edge: str, seed: int) -> tuple[np.ndarray, bool]:
    """The table with an arm reaching from `edge` to `target`, and whether any of it is in the frame."""
    from controller.demo.scene_hands import draw_arm

    image = table.copy()
    mask = draw_arm(image, target, np.random.default_rng(seed), edge=edge, sleeve=False)
    return image, bool(mask.any())


def hand_visit(table: np.ndarray, edge: str = "right", rest_seconds: float = 2.0, seed: int = 1,
               before_seconds: float = 0.3, after_seconds: float = 1.5, tremor: float = 1.0
               ) -> tuple[list[TimedFrame], float, float]:
    """Frames of a hand that enters from `edge`, rests over the table with a tremor (pixels), and leaves.
    Returns the frames, the time of the first frame the arm is in, and of the first frame after it left."""
    h, w = table.shape[:2]
    rest = (0.6 * w if edge != "left" else 0.4 * w, 0.5 * h)
    outside = {"right": (w * 1.3, rest[1]), "left": (-0.3 * w, rest[1]), "top": (rest[0], -0.3 * h),
               "bottom": (rest[0], 1.3 * h)}[edge]
    moves = 8  # frames to come in, and to go
    path: list[tuple[float, float] | None] = [None] * int(before_seconds * FPS)
    for k in range(1, moves + 1):
        path.append(tuple(o + (r - o) * k / moves for o, r in zip(outside, rest)))
    shake = np.random.default_rng(seed)
    for _ in range(int(rest_seconds * FPS)):
        path.append((rest[0] + shake.normal(0, tremor), rest[1] + shake.normal(0, tremor)))
    for k in range(moves - 1, 0, -1):
        path.append(tuple(o + (r - o) * k / moves for o, r in zip(outside, rest)))
    path += [None] * int(after_seconds * FPS)
    frames, inside = [], []
    drawn: dict[tuple[float, float], tuple[np.ndarray, bool]] = {}  # a hand resting without a tremor is drawn once
    for index, target in enumerate(path):
        if target is not None and target not in drawn:
            drawn[target] = with_arm(table, target, edge, seed)
        image, there = (table, False) if target is None else drawn[target]
        frames.append(TimedFrame(noisy(image, index), index / FPS))
        inside.append(there)
    first = inside.index(True)
    last = len(inside) - 1 - inside[::-1].index(True)
    return frames, first / FPS, (last + 1) / FPS


def with_cup(table: np.ndarray, edge: str = "right") -> np.ndarray:
    image = table.copy()
    h, w = image.shape[:2]
    centre = {"right": (w - int(0.04 * w), h // 2), "left": (int(0.04 * w), h // 2), "top": (w // 2, int(0.04 * h)),
              "bottom": (w // 2, h - int(0.04 * h))}[edge]
    radius = int(0.08 * max(w, h))
    cv2.circle(image, centre, radius, (235, 235, 240), -1, cv2.LINE_AA)
    cv2.circle(image, centre, int(radius * 0.8), (30, 50, 80), -1, cv2.LINE_AA)
    return image


def still(image: np.ndarray, seconds: float, start: float = 0.0) -> list[TimedFrame]:
    first = int(round(start * FPS))
    return [TimedFrame(noisy(image, first + i), (first + i) / FPS) for i in range(int(seconds * FPS))]
