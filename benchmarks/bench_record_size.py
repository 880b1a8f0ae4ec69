"""Memory to read an open game record: refused by its size before a byte is read, or parsed.

    python -m benchmarks.bench_record_size [--huge-mb 200]

Each figure is the peak resident memory (VmHWM) of a fresh process that imports the record
reader and does one thing: nothing (the baseline); `load_record` on a sparse file of --huge-mb
(refused by its size, never read); `load_record` on a record just under the size limit
(`record_checks.MAX_RECORD_BYTES`: the demo game's record padded with copies of its photos,
parsed strictly to the end and checked).
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.harness import REPO, options
from controller.cli import main as tileref
from controller.records.verification.record_checks import MAX_RECORD_BYTES

MEASURE = """
import sys
from controller.records.errors import RecordFormatError
from controller.records.record_file import load_record
path = sys.argv[1]
outcome = "nothing read"
if path != "-":
    try:
        load_record(path)
        outcome = "read"
    except RecordFormatError as error:
        outcome = "refused: " + str(error)[:110]
with open("/proc/self/status") as status:  # VmHWM: this process's peak (ru_maxrss survives exec)
    peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print(peak_kb // 1024, outcome)
"""


def peak(path: str) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-c", MEASURE, path], capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    megabytes, outcome = done.stdout.strip().split(" ", 1)
    return int(megabytes), outcome


def padded_record(folder: Path) -> Path:
    """The demo game's record with copies of its photos up to just under the size limit."""
    assert tileref(["demo", "--out", str(folder / "demo"), "--quiet"]) == 0
    assert tileref(["export", "--db", str(folder / "demo" / "demo.sqlite"), "--out", str(folder / "g.json")]) == 0
    document = json.loads((folder / "g.json").read_text())
    photos = list(document["photos"])
    text = json.dumps(document)
    each = sum(len(json.dumps(p)) + 1 for p in photos) / len(photos)
    copies = int((MAX_RECORD_BYTES - len(text) - 4096) / each)
    document["photos"] = photos + [photos[k % len(photos)] for k in range(copies)]
    out = folder / "near-limit.json"
    out.write_text(json.dumps(document))
    return out


def main() -> None:
    parser = options(__doc__)
    parser.add_argument("--huge-mb", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tileref-bench-record-") as name:
        folder = Path(name)
        huge = folder / "huge.json"
        with open(huge, "wb") as stream:
            stream.truncate(args.huge_mb * 2 ** 20)  # sparse: no disk blocks, the size is what counts
        near = padded_record(folder)
        print(f"record size limit: {MAX_RECORD_BYTES / 2 ** 20:.0f} MB")
        for label, path in (("baseline (imports only)", "-"), (f"{args.huge_mb} MB sparse file", str(huge)),
                            (f"{near.stat().st_size / 2 ** 20:.1f} MB record (under the limit)", str(near))):
            megabytes, outcome = peak(path)
            print(f"{label:42s} peak {megabytes:5d} MB  {outcome}")


if __name__ == "__main__":
    main()
