"""A contact sheet of the tile designs models/recipe/synth.py draws, to check them by eye.

    python -m models.recipe.design_sheet /tmp/editions.png [--size 96] [--tables]

Rows of tile faces: every edition (all four inks, two jokers each), then every typeface
family found on this machine (font_families(); "held out" marks HELD_OUT_FAMILY and
HELD_OUT_EDITION). With --tables, a strip of small tables drawn with training_designs().
Nothing here is used by training or reading.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from models.recipe.synth import (
    EDITIONS,
    HELD_OUT_EDITION,
    HELD_OUT_FAMILY,
    font_families,
    random_melds,
    render_table,
    table_face_style,
    tile_face,
    training_designs,
)

EDITION_CODES = ("K4", "B7", "O9", "R12", "K1", "B13", "O6", "R11", "J", "J")
FONT_CODES = ("K1", "B4", "O6", "R7", "K9", "B10", "O11", "R13", "J")
LABEL_W = 230
PAPER = (128, 128, 128)  # mid grey, so white faces and black inks both stand out


def _on_paper(face: np.ndarray) -> np.ndarray:
    a = face[..., 3:4].astype(np.float32) / 255.0
    return (face[..., :3] * a + np.array(PAPER, np.float32) * (1 - a)).astype(np.uint8)


def _row(label: str, faces: list[np.ndarray], size: int) -> np.ndarray:
    gap = 6
    width = LABEL_W + sum(f.shape[1] + gap for f in faces)
    row = np.full((size + 2 * gap, width, 3), PAPER, np.uint8)
    cv2.putText(row, label, (6, size // 2 + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1, cv2.LINE_AA)
    x = LABEL_W
    for f in faces:
        row[gap: gap + f.shape[0], x: x + f.shape[1]] = _on_paper(f)
        x += f.shape[1] + gap
    return row


def _stack(rows: list[np.ndarray]) -> np.ndarray:
    width = max(r.shape[1] for r in rows)
    return np.vstack([np.pad(r, ((0, 0), (0, width - r.shape[1]), (0, 0)), constant_values=PAPER[0]) for r in rows])


def sheet(size: int = 96, tables: bool = False) -> np.ndarray:
    rows = []
    for i, name in enumerate(EDITIONS):
        rng = np.random.default_rng(100 + i)
        fs = table_face_style(rng, name)
        mark = " (held out)" if name == HELD_OUT_EDITION else ""
        rows.append(_row(name + mark, [tile_face(c, size, rng, fs) for c in EDITION_CODES], size))
    for i, family in enumerate(font_families()):
        rng = np.random.default_rng(200 + i)
        faces = []
        for k, code in enumerate(FONT_CODES):
            fs = table_face_style(rng, "original", family)  # a new cut and weight for each tile
            faces.append(tile_face(code, size, rng, fs))
        mark = " (held out)" if family == HELD_OUT_FAMILY else ""
        rows.append(_row(family + mark, faces, size))
    if tables:
        strip = []
        for seed in range(4):
            melds = random_melds(np.random.default_rng(seed), 30)
            strip.append(render_table(melds, 480, 300, seed=seed, **training_designs()).image)
        rows.append(np.hstack(strip))
    return _stack(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--size", type=int, default=96, help="face height in pixels")
    ap.add_argument("--tables", action="store_true", help="add a strip of tables drawn with training_designs()")
    args = ap.parse_args(argv)
    if not cv2.imwrite(str(args.out), sheet(args.size, args.tables)):
        print(f"design_sheet: cannot write {args.out}", file=sys.stderr)
        return 2
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
