"""The table's reader (`VisionReader`) reads a frame in its kept play area again only where it changed since
its last whole read, and reads whole when the table looks again (`ReadsInPart`)."""
from __future__ import annotations

import numpy as np

from controller.adapters.reader import VisionReader
from controller.table.ports import ReadsInPart
from models.recipe.synth import random_melds, render_table


def test_the_reader_reads_in_part_in_its_kept_area_and_whole_when_asked():
    table = render_table(random_melds(np.random.default_rng(31), 20), width=1280, height=720, seed=31, background="wood")
    reader = VisionReader()
    assert isinstance(reader, ReadsInPart)
    height, width = table.image.shape[:2]
    reader.keep_area(((0, 0), (width, 0), (width, height), (0, height)), width, height)
    first = reader.read(table.image)
    again = reader.read(table.image)
    assert (reader.memory.whole_reads, reader.memory.part_reads) == (1, 1)
    assert again == first
    reader.read_whole_next()
    assert reader.read(table.image) == first
    assert (reader.memory.whole_reads, reader.memory.part_reads) == (2, 1)


def test_without_a_play_area_every_frame_is_read_whole():
    table = render_table(random_melds(np.random.default_rng(32), 12), width=1280, height=720, seed=32, background="wood")
    reader = VisionReader()
    reader.read(table.image)
    reader.read(table.image)
    assert (reader.memory.whole_reads, reader.memory.part_reads) == (2, 0)
