"""A process forked from one that has read a frame reads as well (the recipe's and the benchmarks' worker
pools fork): the worker thread beside the reading is the parent's, and the child starts its own."""
import multiprocessing
from pathlib import Path

from vision import load_image, read_image

PHOTO = Path(__file__).parent / "data" / "full_grid.jpg"


def _tiles_read(path: str) -> int:
    return len(read_image(load_image(path)).tiles)


def test_a_forked_process_reads_a_frame_after_its_parent_did():
    before = _tiles_read(str(PHOTO))
    with multiprocessing.get_context("fork").Pool(1) as pool:
        after = pool.apply_async(_tiles_read, (str(PHOTO),)).get(timeout=120)  # a lost worker thread hangs here
    assert after == before > 0
