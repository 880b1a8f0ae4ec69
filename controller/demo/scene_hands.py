"""A player's arm reaching over the table, for rendered scenes of a real-looking table.

Players sit on all four sides, so the arm comes in from any edge; skin runs from very light
to very dark, and a sleeve often covers the forearm up to the wrist (the settling step must
not rely on bare skin reaching the picture's edge). The arm is shaded along its length and
casts a soft shadow on the table, as under a ceiling lamp.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

# BGR, from very light to very dark skin
SKIN_TONES = (
    (182, 204, 238), (150, 178, 226), (118, 152, 206), (92, 126, 178), (66, 96, 146), (44, 64, 104), (32, 44, 72),
)
# BGR sleeves: navy, charcoal, white shirt, dark red, olive, light blue denim
SLEEVES = ((92, 40, 28), (58, 56, 54), (226, 228, 230), (40, 36, 140), (52, 96, 90), (150, 110, 70))
EDGES = ("bottom", "top", "left", "right")


def _smooth(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    small = rng.standard_normal((max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _pt(p: np.ndarray) -> tuple[int, int]:
    return int(round(p[0])), int(round(p[1]))


def draw_arm(image: np.ndarray, target: tuple[float, float], rng: np.random.Generator,
             edge: str | None = None, sleeve: bool | None = None) -> np.ndarray:
    """Draw an arm from `edge` (random if None) to a hand over `target`; returns its mask (uint8)."""
    H, W = image.shape[:2]
    edge = edge or EDGES[int(rng.integers(len(EDGES)))]
    tx, ty = target
    start = {"bottom": (tx + rng.uniform(-0.15, 0.15) * W, H + 40.0), "top": (tx + rng.uniform(-0.15, 0.15) * W, -40.0),
             "left": (-40.0, ty + rng.uniform(-0.2, 0.2) * H), "right": (W + 40.0, ty + rng.uniform(-0.2, 0.2) * H)}[edge]
    start = np.array(start, np.float64)
    tip = np.array(target, np.float64)
    direction = tip - start
    direction /= max(np.linalg.norm(direction), 1e-6)
    normal = np.array([-direction[1], direction[0]])
    size = rng.uniform(0.11, 0.14) * max(W, H)  # a hand's length

    palm = tip - direction * size * 0.45
    wrist = palm - direction * size * 0.4
    arm_width = size * rng.uniform(0.42, 0.5)
    skin_mask = np.zeros((H, W), np.uint8)
    cv2.line(skin_mask, _pt(start), _pt(wrist), 255, int(arm_width))
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    cv2.ellipse(skin_mask, _pt(palm), (int(size * 0.3), int(size * 0.24)), angle, 0, 360, 255, -1)
    spread = rng.uniform(0.8, 1.2)
    for k, reach in zip(range(-2, 2), (0.34, 0.42, 0.44, 0.38)):  # four fingers, the middle ones longest
        base = palm + direction * size * 0.18 + normal * (k + 0.5) * size * 0.11 * spread
        finger_tip = base + (direction + normal * (k + 0.5) * 0.08) * size * reach * rng.uniform(0.9, 1.1)
        cv2.line(skin_mask, _pt(base), _pt(finger_tip), 255, max(3, int(size * 0.085)))
    thumb_base = palm - direction * size * 0.05 + normal * size * 0.22 * rng.choice([-1, 1])
    cv2.line(skin_mask, _pt(thumb_base), _pt(thumb_base + direction * size * 0.25 + (thumb_base - palm) * 0.3),
             255, max(3, int(size * 0.09)))

    sleeve_mask = np.zeros((H, W), np.uint8)
    if sleeve if sleeve is not None else rng.random() < 0.6:
        cuff = wrist - direction * size * rng.uniform(0.1, 0.5)
        cv2.line(sleeve_mask, _pt(start - direction * 60), _pt(cuff), 255, int(arm_width * 1.25))

    everything = cv2.max(skin_mask, sleeve_mask)
    # a soft shadow of the whole arm on the table, offset away from the lamp
    shadow = cv2.GaussianBlur(everything, (0, 0), size * 0.12).astype(np.float32) / 255.0
    shift = np.float32([[1, 0, size * 0.12], [0, 1, size * 0.16]])
    shadow = cv2.warpAffine(shadow, shift, (W, H), borderMode=cv2.BORDER_REPLICATE)
    out = image.astype(np.float32) * (1 - 0.35 * shadow[..., None])

    # shading: rounder across the arm (darker at its sides), blotchy along it
    shade = 0.95 + 0.05 * _smooth(rng, H, W, max(8, int(size * 0.25)))
    edges_dark = cv2.GaussianBlur(cv2.erode(everything, np.ones((5, 5), np.uint8)), (0, 0), size * 0.05)
    shade = shade * (0.8 + 0.2 * edges_dark.astype(np.float32) / 255.0)
    skin = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32) * rng.uniform(0.92, 1.06)
    cloth = np.array(SLEEVES[int(rng.integers(len(SLEEVES)))], np.float32)
    for mask, colour in ((skin_mask, skin), (sleeve_mask, cloth)):
        soft = cv2.GaussianBlur(mask, (0, 0), 1.2).astype(np.float32)[..., None] / 255.0
        out = out * (1 - soft) + (colour[None, None, :] * shade[..., None]) * soft
    image[:] = np.clip(out, 0, 255).astype(np.uint8)
    return everything
