"""`tileref area PHOTO [--corners x1,y1,...] --out AREA.json`: a table's play area.

The play area is where the game's tiles lie; nothing outside it is read (racks, the tile box,
its lid, phones, the floor). Given four corners (the referee's marks on a photo from the
table's camera) they are checked and written; without them the area found on the photo is
written. `read` and `play` take `--area AREA.json`; without it each frame's area is found.
"""
from __future__ import annotations

import argparse

from vision import VisionError, load_image, read_image
from vision.area import PlayArea, save_area

ERRORS: tuple[type[BaseException], ...] = (VisionError,)


def corner_list(text: str) -> list[tuple[float, float]]:
    """'x1,y1,x2,y2,x3,y3,x4,y4' as four points; argparse says what is wrong (exit 2)."""
    try:
        values = [float(v) for v in text.replace(" ", "").split(",") if v]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: corners are numbers, x1,y1,x2,y2,x3,y3,x4,y4") from None
    if len(values) != 8:
        raise argparse.ArgumentTypeError(f"{text!r}: four corners are eight numbers, x1,y1,x2,y2,x3,y3,x4,y4")
    return [(values[k], values[k + 1]) for k in range(0, 8, 2)]


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "area",
        help="mark or find a table's play area on a photo from its camera",
        description="Write the play area (four corners in the photo's pixels): the corners given, or the area found.",
    )
    parser.add_argument("photo", metavar="PHOTO", help="a photo from the table's camera")
    parser.add_argument("--corners", type=corner_list, metavar="X1,Y1,...,X4,Y4",
                        help="the area's four corners in the photo's pixels (any order); without: found on the photo")
    parser.add_argument("--out", metavar="AREA.json", help="where to write the area (default: print it only)")
    parser.set_defaults(handler=run_area)


def run_area(args) -> int:
    image = load_image(args.photo)
    height, width = image.shape[:2]
    if args.corners is not None:
        area = PlayArea.marked(args.corners, width, height)
        how = "marked"
    else:
        reading = read_image(image)
        area = reading.area or PlayArea.whole_frame(width, height)
        how = f"found ({len(reading.tiles)} tiles inside)"
    if args.out:
        save_area(area, args.out, width, height)
    print(f"{args.photo}: play area {how}: {area.describe()} ({width}x{height})"
          + (f"; written to {args.out}" if args.out else ""))
    return 0
