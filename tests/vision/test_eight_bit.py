"""The eight-bit copy of the tile classifier (models/recipe/quantize.py): made from the float net that
ships beside it, read with by default, never with a set profile (fitted to the float classifier)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import onnx

import vision.pipeline as pipeline
from vision import TableReader, load_image
from vision.codes import CLASS_COUNT
from vision.config import DEFAULT_CONFIG
from vision.models import CLASSIFIER_FILE, CLASSIFIER_INT8_FILE, DETECTOR_FILE, FLOAT_SOURCE_KEY, eight_bit
from vision.profile import SetProfile, file_sha256

PHOTO = Path(__file__).parent / "data" / "full_grid.jpg"


def test_the_eight_bit_copy_was_made_from_the_float_classifier_that_ships():
    # a retrained float net leaves its old copy behind: python -m models.recipe.quantize makes it again
    props = {p.key: p.value for p in onnx.load(str(CLASSIFIER_INT8_FILE), load_external_data=False).metadata_props}
    assert props.get(FLOAT_SOURCE_KEY) == file_sha256(CLASSIFIER_FILE)


def test_only_the_shipped_classifier_has_an_eight_bit_copy(tmp_path):
    assert eight_bit(CLASSIFIER_FILE) == CLASSIFIER_INT8_FILE and eight_bit(DETECTOR_FILE) == DETECTOR_FILE
    assert eight_bit(tmp_path / "tile_cls.onnx") == tmp_path / "tile_cls.onnx"  # a net of one's own is read as it is


def _nets_read_with(monkeypatch, reader: TableReader, image) -> set:
    loaded = set()
    real = pipeline.load_model

    def load_model(path, threads):
        loaded.add(path)
        return real(path, threads)

    monkeypatch.setattr(pipeline, "load_model", load_model)
    reader.read(image)
    return loaded


def test_a_reading_takes_the_eight_bit_classifier_but_the_float_one_with_a_profile(monkeypatch):
    image = load_image(PHOTO)
    assert _nets_read_with(monkeypatch, TableReader(), image) == {DETECTOR_FILE, CLASSIFIER_INT8_FILE}
    floats = TableReader(replace(DEFAULT_CONFIG, eight_bit=False))
    assert _nets_read_with(monkeypatch, floats, image) == {DETECTOR_FILE, CLASSIFIER_FILE}
    # a profile's residual reads the float classifier's embedding, and names that file
    profile = SetProfile("club set", file_sha256(CLASSIFIER_FILE), np.zeros((CLASS_COUNT, 128), np.float32),
                         np.zeros(CLASS_COUNT, np.float32), "default", ("set.png",), 106)
    assert _nets_read_with(monkeypatch, TableReader(profile=profile), image) == {DETECTOR_FILE, CLASSIFIER_FILE}


def test_the_eight_bit_classifier_reads_the_bundled_photo_as_the_float_one_does():
    image = load_image(PHOTO)
    fast = TableReader().read(image)
    floats = TableReader(replace(DEFAULT_CONFIG, eight_bit=False)).read(image)
    assert len(fast.tiles) == len(floats.tiles) > 40
    assert sorted(t.code for t in fast.tiles) == sorted(t.code for t in floats.tiles)
    for a, b in zip(sorted(fast.tiles, key=lambda t: t.center), sorted(floats.tiles, key=lambda t: t.center)):
        assert np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) < 3.0
        assert abs(a.confidence - b.confidence) < 0.1


def test_the_eight_bit_classifier_stays_in_eight_bits_from_one_convolution_to_the_next():
    # each convolution's ReLU folded into it (lab/decisions/relu8.txt): no float ReLU between two convolutions,
    # the crops quantised once on the way in
    graph = onnx.load(str(CLASSIFIER_INT8_FILE), load_external_data=False).graph
    made_by = {output: node.op_type for node in graph.node for output in node.output}
    convolutions = [node for node in graph.node if node.op_type == "QLinearConv"]
    assert convolutions
    for node in convolutions:
        assert made_by.get(node.input[0]) in {"QuantizeLinear", "QLinearConv", "MaxPool"}, node.name
    assert sum(node.op_type == "QuantizeLinear" for node in graph.node) == 1
