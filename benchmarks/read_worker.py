"""One side of `bench_read --against`: read frames with the `vision` of a given checkout and print
each read's seconds (on the clock, and of the process's CPU time over all its threads) and what was
read, as one JSON line.

    PYTHONPATH=CHECKOUT python benchmarks/read_worker.py CHECKOUT --repeat 3 FRAME.png ...

It imports nothing of the checkout it lies in, so the same file times any checkout's reading: the
checkout is the one on PYTHONPATH, and the worker refuses to time any other.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="the repository whose vision/ reads")
    parser.add_argument("frames", type=Path, nargs="+", help="lossless image files (PNG)")
    parser.add_argument("--repeat", type=int, default=3, help="timed reads of each frame, after one untimed read")
    args = parser.parse_args(argv)
    checkout = args.checkout.resolve()
    import cv2
    import vision
    from vision import read_image

    if not Path(vision.__file__).resolve().is_relative_to(checkout):
        print(f"vision was imported from {vision.__file__}, not from {checkout}", file=sys.stderr)
        return 2
    out = {}
    for path in args.frames:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        reading = read_image(image)  # the first read loads the models
        times, cpu = [], []
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            read_image(image)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        out[path.name] = {"seconds": times, "cpu_seconds": cpu, "reading": reading.to_json_dict()}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
