"""Time `read` per image on this machine and report peak memory.

    python benchmarks/bench_read.py [--repeat 15] [--quick]

Cases and targets: a 1000x750 real photo with about 50 tiles (< 150 ms median),
a 3840x2160 synthetic frame with all 106 tiles (< 600 ms median); peak resident memory of
the reading process (< 500 MB; the synthetic frame is drawn in a child process); then
`calibrate` on one rendered photo of the whole set (<= 60 s). Reading starts from a decoded BGR array (as the camera gives
it); decoding a JPEG file is timed separately.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vision import load_image, read_image  # noqa: E402

BUNDLED_PHOTO = REPO / "tests" / "vision" / "data" / "full_grid.jpg"


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _time(fn, repeat):
    fn()  # warm-up: first call loads the models
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def _line(name, times, target_ms, tiles):
    med = statistics.median(times) * 1000
    verdict = "meets" if med < target_ms else "MISSES"
    return (f"{name}: median {med:.0f} ms, min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms over {len(times)} reads; "
            f"{tiles} tiles read; target < {target_ms} ms: {verdict}")


def _render_elsewhere(width: int, height: int, seed: int) -> np.ndarray:
    """Draw the synthetic frame in a child process, so the renderer's own memory does not
    count towards the reader's peak."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "frame.png"
        code = (
            "import sys, cv2, numpy as np; sys.path.insert(0, %r); "
            "from vision.synth import random_melds, render_table; "
            "r = render_table(random_melds(np.random.default_rng(%d), 106), %d, %d, seed=%d, hands=0, layout='rows'); "
            "cv2.imwrite(%r, r.image)"
        ) % (str(REPO), seed, width, height, seed, str(path))
        subprocess.run([sys.executable, "-c", code], check=True)
        return cv2.imread(str(path))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--photo", type=Path, default=BUNDLED_PHOTO, help="a ~1000x750 photo with about 50 tiles")
    parser.add_argument("--no-calibration", action="store_true", help="skip timing `calibrate`")
    parser.add_argument("--quick", action="store_true",
                        help="the same cases with fewer repeats (5 reads, one calibration): rougher medians")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat = min(args.repeat, 5)

    print(f"peak memory before reading: {_peak_mb():.0f} MB")
    photo = load_image(args.photo)
    n_photo = len(read_image(photo).tiles)
    print(_line(f"photo {args.photo.name} {photo.shape[1]}x{photo.shape[0]}", _time(lambda: read_image(photo), args.repeat), 150, n_photo))
    decode = _time(lambda: load_image(args.photo), args.repeat)
    print(f"  (decoding the JPEG file: median {statistics.median(decode) * 1000:.1f} ms, not included above)")

    frame = _render_elsewhere(3840, 2160, seed=4242)
    n_frame = len(read_image(frame).tiles)
    print(_line("synthetic 3840x2160, 106 tiles", _time(lambda: read_image(frame), max(5, args.repeat // 2)), 600, n_frame))
    peak = _peak_mb()
    print(f"peak memory (max resident set of this process): {peak:.0f} MB; target < 500 MB: {'meets' if peak < 500 else 'MISSES'}")
    if not args.no_calibration:
        _calibration(runs=1 if args.quick else 3)
    return 0


def _calibration(runs: int = 3) -> None:
    """`tileref calibrate` on one rendered 1920x1080 photo of the held-out set (target <= 60 s)."""
    from vision.calibrate import calibrate
    from vision.errors import CalibrationError
    from vision.layouts import DEFAULT_LAYOUT
    from vision.synth import render_layout, unseen_designs

    from vision.typefaces import HELD_OUT_FAMILY, font_families

    family = HELD_OUT_FAMILY if HELD_OUT_FAMILY in font_families() else None  # None: no training fonts here
    design = dict(edition=unseen_designs()["edition"], font_family=family, wood="walnut")
    for seed in (3, 4, 5):  # a club whose photo is refused (a tile not found) takes another, as models.evaluate does
        photo = render_layout(DEFAULT_LAYOUT.pages[0], 1920, 1080, seed=seed, **design).image
        try:
            times = [calibrate([("set", photo)], DEFAULT_LAYOUT).seconds for _ in range(runs)]
            break
        except CalibrationError as error:
            print(f"calibration photo (render seed {seed}) refused, another taken: {error}")
    else:
        print("calibration: three photos refused, no time measured")
        return
    median = statistics.median(times)
    print(f"calibration, one 1920x1080 photo of 106 tiles: median {median:.1f} s over {len(times)} "
          f"(min {min(times):.1f}, max {max(times):.1f}); target <= 60 s: {'meets' if median <= 60 else 'MISSES'}")


if __name__ == "__main__":
    sys.exit(main())
