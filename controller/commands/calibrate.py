"""`tileref calibrate PHOTO... --out club-set.json`: learn a club's tile set from photos of it.

Lay the set out as the layout says (the default: every colour in two rows 1..13, the two
jokers at the end of the red rows; `--show-layout` prints it), photograph it from above,
and give the photos here. `read`, `play` and `demo` then take `--profile club-set.json`.
A photo that does not show the layout stops (exit 2) naming the row and position.
"""
from __future__ import annotations

from pathlib import Path

from vision import VisionError, load_image
from vision.calibrate import calibrate
from vision.layouts import DEFAULT_LAYOUT, load_layout
from vision.profile import save_profile

from .json_out import add_json_option, emit

ERRORS: tuple[type[BaseException], ...] = (VisionError,)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="learn a club's tile set from photos of it laid out in order",
        description="Fit a set profile from photos of the whole set laid out as a layout says.",
    )
    parser.add_argument("photos", nargs="*", metavar="PHOTO", help="photo(s) of the set laid out; one per layout page")
    parser.add_argument("--out", metavar="FILE.json", help="where to write the profile")
    parser.add_argument("--layout", metavar="FILE", help="layout file (rows of codes, '---' between pages); default: the whole set")
    parser.add_argument("--name", help="the set's name in the profile (default: the --out file name)")
    parser.add_argument("--show-layout", action="store_true", help="print the layout (default or --layout) and stop")
    add_json_option(parser, '{"name", "out", "layout", "photos", "tiles", "seconds", "shipped_right", "fit_before", '
                    '"fit_after", "misread": [{"code", "read_as"}]}; with --show-layout: {"layout", "tiles", "text"}')
    parser.set_defaults(handler=run_calibrate)


def run_calibrate(args) -> int:
    layout = load_layout(args.layout) if args.layout else DEFAULT_LAYOUT
    if args.show_layout:
        if args.json:
            emit({"layout": layout.name, "tiles": layout.tile_count, "text": layout.to_text()})
            return 0
        print(f"# layout {layout.name}: {layout.tile_count} tiles, rows top to bottom, each left to right")
        print(layout.to_text(), end="")
        return 0
    if not args.photos or not args.out:
        raise VisionError("calibrate needs PHOTO... and --out FILE.json (or --show-layout)")
    photos = [(Path(path).name, load_image(path)) for path in args.photos]
    name = args.name or Path(args.out).stem
    result = calibrate(photos, layout, name=name)
    save_profile(result.profile, args.out)
    before, after = result.profile.fit_accuracy
    misread = [t for t in result.tiles if t.read_as != t.code]
    if args.json:
        emit({"name": name, "out": args.out, "layout": layout.name, "photos": len(photos), "tiles": len(result.tiles),
              "seconds": round(result.seconds, 2), "shipped_right": result.shipped_right, "fit_before": float(before),
              "fit_after": float(after), "misread": [{"code": t.code, "read_as": t.read_as} for t in misread]})
        return 0
    print(f"calibrated {name!r} on {len(result.tiles)} tiles of {len(photos)} photo(s), layout {layout.name!r}, "
          f"in {result.seconds:.1f} s")
    print(f"  shipped reading of the calibration tiles: {result.shipped_right}/{len(result.tiles)} codes right")
    print(f"  fit on the calibration crops (training figures, not a measure of reading): "
          f"{100 * before:.1f}% before, {100 * after:.1f}% after")
    if misread:
        words = [f"{t.code} read as {t.read_as}" for t in misread]
        print(f"  the shipped reading misread: {', '.join(words[:12])}{' ...' if len(words) > 12 else ''}")
    print(f"profile written to {args.out}; use it with --profile {args.out}")
    return 0
