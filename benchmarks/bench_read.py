"""Time `read` per image on this machine and report peak memory.

    python -m benchmarks.bench_read [--repeat 15] [--quick]
    python -m benchmarks.bench_read --against /path/to/another/checkout [--rounds 6]

Cases and targets: a 1000x750 real photo with about 50 tiles (< 150 ms median),
a 3840x2160 synthetic frame with all 106 tiles (< 600 ms median); peak resident memory of
the reading process (< 500 MB; the synthetic frame is drawn in a child process); then
`calibrate` on one rendered photo of the whole set (<= 60 s). Reading starts from a decoded BGR array (as the camera gives
it); decoding a JPEG file is timed separately.

`--against` times this checkout's reading beside another's (an earlier commit checked out with
`git worktree add`) on the same frames: four validation photos of 1000x750, the bundled
full_grid.jpg and the rendered 3840x2160 table, written once as PNG files. Each side reads them
in its own process, the two sides taking turns round after round (so a change in the machine's
load falls on both), and each frame's median is printed with the ratio, then the median CPU time of
a read (all the process's threads; a loaded machine moves it less than the clock), beside whether
the two read the frame alike (tiles, codes, corners, confidences, sets, warnings, area).
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from benchmarks.harness import REPO, checkout_env, load_average, median, options, timed
from vision import load_image, read_image

BUNDLED_PHOTO = REPO / "tests" / "vision" / "data" / "full_grid.jpg"
WORKER = Path(__file__).resolve().parent / "read_worker.py"
SIDE_BY_SIDE_PHOTOS = 4  # validation photos of 1000x750 read by --against


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _line(name, times, target_ms, tiles):
    med = median(times) * 1000
    verdict = "meets" if med < target_ms else "MISSES"
    return (f"{name}: median {med:.0f} ms, min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms over {len(times)} reads; "
            f"{tiles} tiles read; target < {target_ms} ms: {verdict}")


def _render_elsewhere(width: int, height: int, seed: int) -> np.ndarray:
    """Draw the synthetic frame in a child process, so the renderer's own memory does not
    count towards the reader's peak."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "frame.png"
        code = (
            "import cv2, numpy as np; "
            "from models.recipe.synth import random_melds, render_table; "
            "r = render_table(random_melds(np.random.default_rng(%d), 106), %d, %d, seed=%d, hands=0, layout='rows'); "
            "cv2.imwrite(%r, r.image)"
        ) % (seed, width, height, seed, str(path))
        subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, env=checkout_env())
        return cv2.imread(str(path))


def main(argv=None) -> int:
    parser = options(__doc__, quick="the same cases with fewer repeats (5 reads, one calibration): rougher medians")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--photo", type=Path, default=BUNDLED_PHOTO, help="a ~1000x750 photo with about 50 tiles")
    parser.add_argument("--no-calibration", action="store_true", help="skip timing `calibrate`")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT",
                        help="time this checkout's reading beside another checkout's, on the same frames")
    parser.add_argument("--rounds", type=int, default=6,
                        help="with --against: turns each side takes (each reads every frame --reads times)")
    parser.add_argument("--reads", type=int, default=3, help="with --against: timed reads of each frame per turn")
    args = parser.parse_args(argv)
    if args.against is not None:
        return side_by_side(args.against, args.rounds, args.reads)
    if args.quick:
        args.repeat = min(args.repeat, 5)

    print(f"peak memory before reading: {_peak_mb():.0f} MB")
    photo = load_image(args.photo)
    n_photo = len(read_image(photo).tiles)
    times = timed(lambda: read_image(photo), args.repeat, warm_up=True)
    print(_line(f"photo {args.photo.name} {photo.shape[1]}x{photo.shape[0]}", times, 150, n_photo))
    decode = timed(lambda: load_image(args.photo), args.repeat, warm_up=True)
    print(f"  (decoding the JPEG file: median {median(decode) * 1000:.1f} ms, not included above)")

    frame = _render_elsewhere(3840, 2160, seed=4242)
    n_frame = len(read_image(frame).tiles)
    times = timed(lambda: read_image(frame), max(5, args.repeat // 2), warm_up=True)
    print(_line("synthetic 3840x2160, 106 tiles", times, 600, n_frame))
    peak = _peak_mb()
    print(f"peak memory (max resident set of this process): {peak:.0f} MB; target < 500 MB: {'meets' if peak < 500 else 'MISSES'}")
    if not args.no_calibration:
        _calibration(runs=1 if args.quick else 3)
    return 0


def side_by_side(other: Path, rounds: int, reads: int) -> int:
    """Median seconds per read of each frame, this checkout beside `other`, taking turns."""
    other = other.resolve()
    if not (other / "vision" / "pipeline.py").is_file():
        print(f"--against {str(other)!r}: no vision/pipeline.py there; give a checkout of this repository")
        return 2
    sides = {"this": REPO, "other": other}
    with tempfile.TemporaryDirectory() as tmp:
        frames = _side_by_side_frames(Path(tmp))
        print(f"this checkout: {REPO}\nother checkout: {other}\nload average before: {load_average():.2f}")
        seconds = {side: {f.name: [] for f in frames} for side in sides}
        cpu = {side: {f.name: [] for f in frames} for side in sides}
        readings: dict[str, dict] = {}
        for round_ in range(rounds):
            for side in (("other", "this") if round_ % 2 == 0 else ("this", "other")):
                result = _read_in_child(sides[side], frames, reads)
                for name, frame in result.items():
                    seconds[side][name] += frame["seconds"]
                    cpu[side][name] += frame["cpu_seconds"]
                    readings.setdefault(side, {})[name] = frame["reading"]
        print(f"load average after: {load_average():.2f}; {rounds} turns each, {reads} timed reads per frame per turn")
        print(f"{'frame':<60} {'other ms':>9} {'this ms':>9} {'speed-up':>9} | {'CPU: other':>10} {'this':>6} {'less':>6} | read alike")
        for f in frames:
            before, after = (median(seconds[side][f.name]) * 1000 for side in ("other", "this"))
            cpu_before, cpu_after = (median(cpu[side][f.name]) * 1000 for side in ("other", "this"))
            alike = _alike(readings["other"][f.name], readings["this"][f.name])
            print(f"{f.name:<60} {before:9.1f} {after:9.1f} {before / after:8.2f}x | {cpu_before:10.1f} {cpu_after:6.1f} "
                  f"{cpu_before / cpu_after:5.2f}x | {alike}")
    return 0


def _side_by_side_frames(folder: Path) -> list[Path]:
    """The frames both sides read, as PNG files: validation photos of 1000x750, the bundled photo and
    the rendered 3840x2160 table."""
    from models.recipe.realdata import DEFAULT_DATASET, split_stems

    stems = sorted(split_stems("validation"))
    photos = [DEFAULT_DATASET / "train" / "images" / f"{stem}.jpg" for stem in stems]
    chosen = [p for p in photos if p.is_file() and load_image(p).shape[:2] == (750, 1000)][:SIDE_BY_SIDE_PHOTOS]
    if len(chosen) < SIDE_BY_SIDE_PHOTOS:
        print(f"only {len(chosen)} validation photos of 1000x750 under {DEFAULT_DATASET}")
    frames = []
    for path in chosen + [BUNDLED_PHOTO]:
        frames.append(folder / f"{path.stem}.png")
        cv2.imwrite(str(frames[-1]), load_image(path))
    frames.append(folder / "rendered_3840x2160_106_tiles.png")
    cv2.imwrite(str(frames[-1]), _render_elsewhere(3840, 2160, seed=4242))
    return frames


def _read_in_child(checkout: Path, frames: list[Path], reads: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run([sys.executable, str(WORKER), str(checkout), "--repeat", str(reads), *map(str, frames)],
                          env=env, cwd=str(checkout), check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _alike(before: dict, after: dict) -> str:
    """'same' when the two readings agree in everything; else what differs."""
    if before == after:
        return "same"
    codes = lambda r: sorted(t["code"] for t in r["tiles"])  # noqa: E731
    if codes(before) != codes(after):
        return f"DIFFERENT CODES: {' '.join(codes(before))} / {' '.join(codes(after))}"
    differ = [key for key in before if before[key] != after[key]]
    return f"same codes; differs in {', '.join(differ)}"


def _calibration(runs: int = 3) -> None:
    """`tileref calibrate` on one rendered 1920x1080 photo of the held-out set (target <= 60 s)."""
    from vision.calibrate import calibrate
    from vision.errors import CalibrationError
    from vision.layouts import DEFAULT_LAYOUT
    from models.recipe.synth import render_layout, unseen_designs

    from models.recipe.typefaces import HELD_OUT_FAMILY, font_families

    family = HELD_OUT_FAMILY if HELD_OUT_FAMILY in font_families() else None  # None: no training fonts here
    design = dict(edition=unseen_designs()["edition"], font_family=family, wood="walnut")
    for seed in (3, 4, 5):  # a club whose photo is refused (a tile not found) takes another, as models.recipe.evaluate does
        photo = render_layout(DEFAULT_LAYOUT.pages[0], 1920, 1080, seed=seed, **design).image
        try:
            times = [calibrate([("set", photo)], DEFAULT_LAYOUT).seconds for _ in range(runs)]
            break
        except CalibrationError as error:
            print(f"calibration photo (render seed {seed}) refused, another taken: {error}")
    else:
        print("calibration: three photos refused, no time measured")
        return
    middle = median(times)
    print(f"calibration, one 1920x1080 photo of 106 tiles: median {middle:.1f} s over {len(times)} "
          f"(min {min(times):.1f}, max {max(times):.1f}); target <= 60 s: {'meets' if middle <= 60 else 'MISSES'}")


if __name__ == "__main__":
    sys.exit(main())
