"""The training recipe runs end to end (a few steps) and its ONNX files load; skipped without torch."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from models.recipe.realdata import DEFAULT_DATASET  # noqa: E402


@pytest.mark.skipif(not DEFAULT_DATASET.is_dir(), reason="real photo set not present")
def test_smoke_recipe_writes_loadable_models(tmp_path):
    from models.recipe.train import main
    from vision import TableReader
    from models.recipe.synth import render_table

    assert main(["--smoke", "--out", str(tmp_path), "--workers", "1"]) == 0
    reader = TableReader(detector_path=tmp_path / "tile_seg.onnx", classifier_path=tmp_path / "tile_cls.onnx")
    reading = reader.read(render_table([["R1", "R2", "R3"]], 320, 240, seed=1).image)
    assert reading.width == 320  # an untrained model reads nonsense, but the whole chain runs

    # the classifier and the occluder are each the average of their members, as the shipped ones
    assert sorted(p.name for p in tmp_path.glob("tile_cls*.onnx")) == [
        "tile_cls-member-0.onnx", "tile_cls-member-1.onnx", "tile_cls.onnx"]
    from vision.models import load_model
    from vision.occluders import find_occluders

    assert sorted(p.name for p in tmp_path.glob("occluder*.onnx")) == [
        "occluder-member-0.onnx", "occluder-member-1.onnx", "occluder.onnx"]
    frame = render_table([["R1", "R2", "R3"]], 320, 240, seed=1).image
    covered = find_occluders(frame, net=load_model(tmp_path / "occluder.onnx", 1)).covered
    members = [find_occluders(frame, net=load_model(tmp_path / f"occluder-member-{k}.onnx", 1)).covered for k in (0, 1)]
    assert abs(covered - (members[0] + members[1]) / 2).max() < 1e-4


@pytest.mark.skipif(not DEFAULT_DATASET.is_dir(), reason="real photo set not present")
def test_one_occluder_net_comes_out_byte_for_byte_the_same_from_the_same_seed(tmp_path):
    # the members' recipes are kept so that a member can be trained again; that holds only if a seed fixes the bytes
    from models.recipe.train import main

    def trained(seed: int, name: str) -> bytes:
        out = tmp_path / name
        assert main(["--smoke", "--only", "occluder", "--occluder-shaded", "--occluder-seed", str(seed),
                     "--workers", "1", "--threads", "1", "--out", str(out)]) == 0
        return (out / "occluder.onnx").read_bytes()

    first = trained(5, "first")
    assert trained(5, "again") == first
    assert trained(6, "other seed") != first


@pytest.mark.skipif(not DEFAULT_DATASET.is_dir(), reason="real photo set not present")
def test_the_stacker_recipe_writes_a_stacked_occluder_that_reads_a_frame(tmp_path):
    # lab/decisions/stack.txt: the shipped members with a fitted stacker in place of their mean
    from lab.experiments.stack_nets import main
    from vision.models import OCCLUDER_FILE, load_model
    from vision.occluders import find_occluders
    from models.recipe.synth import render_table

    assert main([str(OCCLUDER_FILE), "--out-dir", str(tmp_path), "--hidden", "0", "4", "--smoke",
                 "--workers", "1", "--threads", "1"]) == 0
    frame = render_table([["R1", "R2", "R3"]], 320, 240, seed=1).image
    shipped = find_occluders(frame).covered
    for name in ("stacked-h0.onnx", "stacked-h4.onnx"):
        stacked = find_occluders(frame, net=load_model(tmp_path / name, 1)).covered
        assert stacked.shape == shipped.shape
        assert abs(stacked - shipped).max() > 1e-3  # a three-step stacker is not the mean it replaces


@pytest.mark.skipif(not DEFAULT_DATASET.is_dir(), reason="real photo set not present")
def test_a_narrow_classifier_learns_from_a_teacher_and_names_it(tmp_path):
    import onnx

    from models.recipe.train import TEACHER_KEY, main
    from vision.models import CLASSIFIER_FILE, load_model
    from vision.profile import file_sha256

    assert main(["--smoke", "--only", "classifier", "--out", str(tmp_path), "--workers", "1", "--cls-width", "0.5",
                 "--cls-teacher", str(CLASSIFIER_FILE), "--cls-distil", "0.5"]) == 0
    taught = tmp_path / "tile_cls.onnx"
    props = {p.key: p.value for p in onnx.load(str(taught)).metadata_props}
    assert props[TEACHER_KEY] == file_sha256(CLASSIFIER_FILE)
    wide = sum(int(np.prod(t.dims)) for t in onnx.load(str(CLASSIFIER_FILE)).graph.initializer)
    narrow = sum(int(np.prod(t.dims)) for t in onnx.load(str(taught)).graph.initializer)
    assert narrow * 4 < wide  # half the channels of one net, where the shipped file holds two
    logits = load_model(taught, 1)(np.zeros((2, 3, 56, 40), np.float32))
    assert logits.shape == (2, 107)
