"""`tileref read IMAGE... [--json] [--annotate OUT.png] [--profile SET.json]`: read table photos.

One image with --json prints one JSON object; several print one object per line (JSON
Lines), in the order given. Without --json a person gets a short table of sets per image.
Every file is checked before any is read, so a bad file stops the command (exit 2,
naming the file) before anything is printed.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from vision import ImageWriteError, VisionError, load_image, read_image
from vision.annotate import write_annotated
from vision.area import fit_to_frame, load_table_area
from vision.config import DEFAULT_CONFIG
from vision.profile import load_profile

ERRORS: tuple[type[BaseException], ...] = (VisionError,)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "read",
        help="read the tiles and sets in table photos",
        description="Find every tile in each photo, read its code, and group the sets.",
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo or video frame of the table")
    parser.add_argument("--json", action="store_true", help="print one JSON object per image (JSON Lines for several)")
    parser.add_argument("--profile", metavar="FILE.json", help="the club set's profile from `tileref calibrate`")
    parser.add_argument("--area", metavar="AREA.json", help="the table's play area from `tileref area` (default: found on each photo)")
    parser.add_argument(
        "--annotate",
        metavar="OUT.png",
        help="draw the result on the photo and save it here; with several images, OUT-<image name>.png each",
    )
    parser.set_defaults(handler=run_read)


def annotation_path(out: str, image: str, several: bool) -> Path:
    target = Path(out)
    if not several:
        return target
    return target.with_name(f"{target.stem}-{Path(image).stem}{target.suffix or '.png'}")


ANNOTATE_SUFFIXES = (".png", ".jpg", ".jpeg")


def check_annotate(out: str | None) -> None:
    """--annotate must name an image file of a kind it can be written as, before anything is read."""
    if out is None:
        return
    target = Path(out)
    if not out.strip() or target.suffix.lower() not in ANNOTATE_SUFFIXES:
        raise ImageWriteError(f"--annotate {out!r}: name a {', '.join(ANNOTATE_SUFFIXES)} file, e.g. out.png")
    if target.is_dir():
        raise ImageWriteError(f"--annotate {out!r} is a directory; name a file in it, e.g. {str(target / 'out.png')!r}")
    if not target.parent.is_dir():
        raise ImageWriteError(f"--annotate {out!r}: directory {str(target.parent)!r} does not exist")


def run_read(args) -> int:
    check_annotate(args.annotate)
    profile = load_profile(args.profile) if args.profile else None
    area = load_table_area(args.area) if args.area else None  # a file that says "found": found on each photo
    images = [(path, load_image(path)) for path in args.images]
    several = len(images) > 1
    for path, image in images:
        marked = None if area is None else fit_to_frame(area[0], area[1], image.shape[1], image.shape[0])
        reading = read_image(image, profile=profile, area=marked)
        if args.annotate is not None:
            annotated = annotation_path(args.annotate, path, several)
            write_annotated(annotated, image, reading, DEFAULT_CONFIG.low_confidence)
            print(f"{path}: annotated image written to {annotated}", file=sys.stderr)
        if args.json:
            print(json.dumps(reading.to_json_dict(path)))
        else:
            print(human_summary(path, reading))
    return 0


def human_summary(path: str, reading) -> str:
    lines = [f"{path}: {len(reading.tiles)} tiles, {len(reading.sets)} sets ({reading.width}x{reading.height})"]
    for k, s in enumerate(reading.sets, 1):
        low = min(reading.tiles[i].confidence for i in s.tiles)
        lines.append(f"  set {k:2d}: {' '.join(s.codes):<40} (lowest confidence {low:.2f})")
    in_sets = {i for s in reading.sets for i in s.tiles}
    lone = [t.code for i, t in enumerate(reading.tiles) if i not in in_sets]
    if lone:
        lines.append(f"  lone tiles: {' '.join(lone)}")
    for w in reading.warnings:
        lines.append(f"  warning: {w}")
    return "\n".join(lines)
