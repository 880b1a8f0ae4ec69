"""Procedural variation of tile numbers and jokers, for training only.

A classifier trained on a few dozen typefaces learns their exact glyph shapes; a club's set
in another typeface then reads its 1 as 7 or its joker as a number. With
`render_table(..., glyph_variation=p)` each tile of the table is drawn, with chance p, with
numbers composed digit by digit from:

- procedural strokes for 1 (flag of any length and angle or none, foot or none), 4 (open
  or closed) and 7 (straight or curved stem, with or without a crossbar, serif on the bar);
- the table's typeface for the other digits;

each digit then thickened or thinned, condensed or widened, slanted and bent by a smooth
random field; and jokers drawn as any motif (the edition's, other editions', hearts, suns,
crowns, rings) in any of the set's inks, so that "joker" is learnt as "not a digit".

Nothing here is drawn unless asked: `glyph_variation` defaults to 0 and then no random
number is taken (the original look's images are unchanged). The run-time reader never
imports this module. The held-out typeface is never drawn by it (it only varies the
table's own typeface, which training never draws from the held-out family).
"""
from __future__ import annotations

import math

import cv2
import numpy as np

_H = 112  # procedural glyphs are drawn this tall (white on black) before being scaled onto the face


def _canvas(width: int) -> np.ndarray:
    return np.zeros((_H + 16, width + 16), np.uint8)


def _line(img, p, q, t) -> None:
    cv2.line(img, (int(round(p[0] * 16)) + 128, int(round(p[1] * 16)) + 128),
             (int(round(q[0] * 16)) + 128, int(round(q[1] * 16)) + 128), 255, max(1, int(round(t))), cv2.LINE_AA, 4)


def _poly(img, pts, t) -> None:
    a = np.round(np.asarray(pts, np.float64) * 16 + 128).astype(np.int32)
    cv2.polylines(img, [a], False, 255, max(1, int(round(t))), cv2.LINE_AA, 4)


def _crop(img: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(img > 20)
    if len(ys) == 0:
        return img
    return img[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def _one(rng) -> np.ndarray:
    """A 1: a stem, a flag going left (none, a tick, or long and nearly level), a foot or none."""
    t = _H * rng.uniform(0.09, 0.2)
    img = _canvas(_H)
    x = _H * 0.55
    top, bottom = 0.0, float(_H)
    _line(img, (x, top + t / 2), (x, bottom - t / 2), t)
    kind = rng.random()
    if kind < 0.85:  # a flag
        length = _H * rng.uniform(0.12, 0.42)
        angle = math.radians(rng.uniform(12, 65))  # below the level, going left
        end = (x - length * math.cos(angle), top + t / 2 + length * math.sin(angle))
        if rng.random() < 0.3:  # curved flag
            mid = ((x + end[0]) / 2 + rng.uniform(-0.05, 0.05) * _H, (top + end[1]) / 2 - rng.uniform(0, 0.06) * _H)
            _poly(img, _bezier((x, top + t / 2), mid, end), t * rng.uniform(0.7, 1.0))
        else:
            _line(img, (x, top + t / 2), end, t * rng.uniform(0.7, 1.0))
    if rng.random() < 0.4:  # a foot
        half = _H * rng.uniform(0.15, 0.35)
        _line(img, (x - half, bottom - t / 2), (x + half, bottom - t / 2), t * rng.uniform(0.6, 1.0))
    return _crop(img)


def _bezier(p0, p1, p2, n: int = 16):
    s = np.linspace(0, 1, n)[:, None]
    return (1 - s) ** 2 * np.array(p0) + 2 * (1 - s) * s * np.array(p1) + s ** 2 * np.array(p2)


def _seven(rng) -> np.ndarray:
    """A 7: a bar, a stem straight or curved down to the left, maybe a crossbar or a serif."""
    t = _H * rng.uniform(0.09, 0.2)
    w = _H * rng.uniform(0.45, 0.7)
    img = _canvas(int(w + t) + 4)
    x0, x1, y = t / 2, w, t / 2
    _line(img, (x0, y), (x1, y), t)
    foot_x = w * rng.uniform(0.15, 0.55)
    if rng.random() < 0.5:
        stem = [(x1, y), (foot_x, _H - t / 2)]
        _line(img, stem[0], stem[1], t)
        mid = ((x1 + foot_x) / 2, _H / 2)
    else:  # curved: steep at the foot or at the top
        bow = rng.uniform(-0.25, 0.25) * w
        ctrl = ((x1 + foot_x) / 2 + bow, _H * rng.uniform(0.35, 0.65))
        pts = _bezier((x1, y), ctrl, (foot_x, _H - t / 2))
        _poly(img, pts, t)
        mid = tuple(pts[len(pts) // 2])
    if rng.random() < 0.25:  # crossbar
        half = w * rng.uniform(0.18, 0.3)
        _line(img, (mid[0] - half, mid[1]), (mid[0] + half, mid[1]), t * 0.8)
    if rng.random() < 0.3:  # a serif down from the bar's left end
        _line(img, (x0, y), (x0, y + _H * rng.uniform(0.08, 0.2)), t * 0.8)
    return _crop(img)


def _four(rng) -> np.ndarray:
    """A 4: a stem on the right, a bar, and a diagonal (closed) or an upright (open) on the left."""
    t = _H * rng.uniform(0.09, 0.2)
    w = _H * rng.uniform(0.55, 0.75)
    img = _canvas(int(w + t) + 4)
    stem_x = w * rng.uniform(0.62, 0.78)
    bar_y = _H * rng.uniform(0.62, 0.75)
    _line(img, (stem_x, 0 if rng.random() < 0.7 else _H * 0.3), (stem_x, _H - t / 2), t)
    _line(img, (t / 2, bar_y), (w, bar_y), t * rng.uniform(0.7, 1.0))
    if rng.random() < 0.6:
        _line(img, (stem_x, t / 2), (t / 2, bar_y), t * rng.uniform(0.7, 1.0))
    else:
        _line(img, (t / 2 + w * 0.05, t / 2), (t / 2, bar_y), t * rng.uniform(0.8, 1.0))
    return _crop(img)


_PROCEDURAL = {"1": _one, "4": _four, "7": _seven}


def _distort(rng, glyph: np.ndarray) -> np.ndarray:
    """Thicker or thinner strokes, condensed or wide, slanted, and bent by a smooth field."""
    g = np.pad(glyph, 12)
    h, w = g.shape
    k = int(round(h * rng.uniform(0.0, 0.04)))
    if k >= 1:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
        g = cv2.dilate(g, kernel) if rng.random() < 0.6 else cv2.erode(g, kernel) if k <= 2 or g.mean() > 60 else g
    sx = rng.uniform(0.75, 1.25)
    shear = rng.normal(0, 0.08)
    out_w = int(w * sx + abs(shear) * h) + 2
    M = np.float32([[sx, -shear, max(0.0, shear * h)], [0, 1, 0]])
    g = cv2.warpAffine(g, M, (out_w, h), flags=cv2.INTER_LINEAR)
    amp = h * rng.uniform(0.0, 0.035)
    if amp > 0.5:
        cell = max(4, h // 4)
        fx = cv2.resize(rng.normal(0, 1, (h // cell + 2, out_w // cell + 2)).astype(np.float32), (out_w, h),
                        interpolation=cv2.INTER_CUBIC)
        fy = cv2.resize(rng.normal(0, 1, (h // cell + 2, out_w // cell + 2)).astype(np.float32), (out_w, h),
                        interpolation=cv2.INTER_CUBIC)
        xx, yy = np.meshgrid(np.arange(out_w, dtype=np.float32), np.arange(h, dtype=np.float32))
        g = cv2.remap(g, xx + amp * fx, yy + amp * fy, cv2.INTER_LINEAR)
    return _crop(g)


def varied_number(rng, text: str, font_glyph) -> np.ndarray:
    """`text` (one or two digits) as a white-on-black glyph: each digit procedural or of the
    table's typeface (`font_glyph(digit)`), distorted, set side by side on one height."""
    parts = []
    for ch in text:
        make = _PROCEDURAL.get(ch)
        g = make(rng) if make is not None and rng.random() < 0.5 else np.asarray(font_glyph(ch))
        parts.append(_distort(rng, g))
    height = _H
    scaled = [cv2.resize(p, (max(2, int(round(p.shape[1] * height / p.shape[0]))), height),
                         interpolation=cv2.INTER_AREA) for p in parts]
    gap = int(round(height * rng.uniform(0.04, 0.16)))
    out = scaled[0]
    for p in scaled[1:]:
        out = np.hstack([out, np.zeros((height, gap), np.uint8), p])
    return out


# ------------------------------------------------------------------ jokers


def _heart(img, rng, c, r, inks, t) -> None:
    s = np.linspace(0, 2 * math.pi, 60)
    x = 16 * np.sin(s) ** 3
    y = -(13 * np.cos(s) - 5 * np.cos(2 * s) - 2 * np.cos(3 * s) - np.cos(4 * s))
    pts = np.c_[x, y] / 17 * r + c
    a = np.round(pts * 16).astype(np.int32)
    if rng.random() < 0.6:
        cv2.fillPoly(img, [a], inks[0] + (255,), cv2.LINE_AA, 4)
    else:
        cv2.polylines(img, [a], True, inks[0] + (255,), t, cv2.LINE_AA, 4)


def _sun(img, rng, c, r, inks, t) -> None:
    n = int(rng.integers(6, 13))
    cv2.circle(img, (int(c[0]), int(c[1])), int(r * 0.45), inks[0] + (255,), -1 if rng.random() < 0.5 else t,
               cv2.LINE_AA)
    for k in range(n):
        a = 2 * math.pi * k / n
        p = (c[0] + 0.6 * r * math.cos(a), c[1] + 0.6 * r * math.sin(a))
        q = (c[0] + r * math.cos(a), c[1] + r * math.sin(a))
        cv2.line(img, (int(p[0]), int(p[1])), (int(q[0]), int(q[1])), inks[k % len(inks)] + (255,), t, cv2.LINE_AA)


def _crown(img, rng, c, r, inks, t) -> None:
    pts = np.array([(-1, 0.6), (-1, -0.5), (-0.5, 0.05), (0, -0.7), (0.5, 0.05), (1, -0.5), (1, 0.6)]) * r * 0.9 + c
    a = np.round(pts * 16).astype(np.int32)
    if rng.random() < 0.5:
        cv2.fillPoly(img, [a], inks[0] + (255,), cv2.LINE_AA, 4)
    else:
        cv2.polylines(img, [a], True, inks[0] + (255,), t, cv2.LINE_AA, 4)
    for k, x in enumerate((-1, 0, 1)):
        cv2.circle(img, (int(c[0] + x * r * 0.9), int(c[1] - r * (0.7 if x == 0 else 0.5) * 0.9 - t)), max(1, t),
                   inks[(k + 1) % len(inks)] + (255,), -1, cv2.LINE_AA)


def _rings(img, rng, c, r, inks, t) -> None:
    for k in range(int(rng.integers(2, 4))):
        cv2.circle(img, (int(c[0]), int(c[1])), max(1, int(r * (1 - 0.3 * k))), inks[k % len(inks)] + (255,), t,
                   cv2.LINE_AA)
    if rng.random() < 0.5:
        cv2.circle(img, (int(c[0]), int(c[1])), max(1, int(r * 0.15)), inks[-1] + (255,), -1, cv2.LINE_AA)


_EXTRA_MOTIFS = {"heart": _heart, "sun": _sun, "crown": _crown, "rings": _rings}


def varied_joker(face, rng, fs, tw: int, th: int, base_motifs, ink_of) -> None:
    """A joker in any motif (the renderer's own `base_motifs` or the extra ones here), any of
    the set's inks, one or several, somewhat larger or smaller and off centre."""
    roles = list(fs.shades)
    n_inks = 1 if rng.random() < 0.5 else int(rng.integers(2, 5))
    picked = [roles[int(rng.integers(len(roles)))] for _ in range(n_inks)]
    inks = [ink_of(rng, fs, role) for role in picked]
    centre = (int(tw / 2 + rng.normal(0, 0.03) * tw), int(th * rng.uniform(0.36, 0.5)))
    names = list(base_motifs) + list(_EXTRA_MOTIFS)
    name = names[int(rng.integers(len(names)))]
    if name in base_motifs:
        base_motifs[name](face, rng, fs, centre, tw, th, inks)
        return
    r = tw * rng.uniform(0.24, 0.36)
    t = max(1, int(round(r * rng.uniform(0.08, 0.18))))
    _EXTRA_MOTIFS[name](face, rng, np.array(centre, np.float64), r, inks, t)
