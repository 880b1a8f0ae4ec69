"""models.recipe.average_nets: one ONNX file that gives the mean of its members' probabilities as a logit."""
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper  # noqa: E402

from models.recipe.average_nets import main  # noqa: E402
from vision.models import load_model  # noqa: E402


def _member(path, weight: float, bias: float, output: str = "covered"):
    """A net of the occluder's shape: image (n x 3 x h x w) -> one logit map, here a 1x1 conv."""
    graph = helper.make_graph(
        [helper.make_node("Conv", ["image", "w", "b"], [output])],
        "member",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["n", 3, "h", "w"])],
        [helper.make_tensor_value_info(output, TensorProto.FLOAT, ["n", 1, "h", "w"])],
        [helper.make_tensor("w", TensorProto.FLOAT, [1, 3, 1, 1], [weight, -weight, 0.5 * weight]),
         helper.make_tensor("b", TensorProto.FLOAT, [1], [bias])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def _refused(argv, capsys) -> str:
    """What models.recipe.average_nets says on stderr when it stops with exit 2 on these arguments."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    return capsys.readouterr().err


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_the_average_gives_the_mean_probability_of_its_members_as_a_logit(tmp_path):
    members = [_member(tmp_path / "a.onnx", 3.0, -1.0), _member(tmp_path / "b.onnx", -2.0, 0.5),
               _member(tmp_path / "c.onnx", 0.7, 2.0)]
    assert main([*map(str, members), "--out", str(tmp_path / "avg.onnx")]) == 0
    x = np.random.default_rng(4).uniform(-0.5, 0.5, (1, 3, 6, 8)).astype(np.float32)

    averaged = _sigmoid(load_model(tmp_path / "avg.onnx", 1)(x))
    expected = np.mean([_sigmoid(load_model(m, 1)(x)) for m in members], axis=0)
    assert averaged.shape == expected.shape == (1, 1, 6, 8)
    np.testing.assert_allclose(averaged, expected, atol=1e-5)
    # neither the first member alone nor the mean of the logits would pass
    assert np.abs(expected - _sigmoid(load_model(members[0], 1)(x))).max() > 0.05
    mean_logit = _sigmoid(np.mean([load_model(m, 1)(x) for m in members], axis=0))
    assert np.abs(expected - mean_logit).max() > 0.01


def test_members_with_other_output_names_are_refused_by_file(tmp_path, capsys):
    a = _member(tmp_path / "a.onnx", 1.0, 0.0)
    b = _member(tmp_path / "b.onnx", 1.0, 0.0, output="mask")
    err = _refused([str(a), str(b), "--out", str(tmp_path / "avg.onnx")], capsys)
    assert "b.onnx" in err and "'mask'" in err
    assert not (tmp_path / "avg.onnx").exists()


def test_a_missing_member_is_named(tmp_path, capsys):
    a = _member(tmp_path / "a.onnx", 1.0, 0.0)
    assert "gone.onnx" in _refused([str(a), str(tmp_path / "gone.onnx"), "--out", str(tmp_path / "avg.onnx")], capsys)


def _classifier(path, seed: int):
    """A net of the tile classifier's shape: crops -> logits over classes, and an embedding."""
    rng = np.random.default_rng(seed)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["crops", "w"], ["logits"]), helper.make_node("MatMul", ["crops", "e"], ["embedding"])],
        "classifier",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", 5]),
         helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["n", 2])],
        [helper.make_tensor("w", TensorProto.FLOAT, [3, 5], rng.normal(0, 2, 15).tolist()),
         helper.make_tensor("e", TensorProto.FLOAT, [3, 2], rng.normal(0, 1, 6).tolist())],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def _softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_a_classifier_average_takes_the_mean_softmax_and_the_first_members_embedding(tmp_path):
    members = [_classifier(tmp_path / "a.onnx", 1), _classifier(tmp_path / "b.onnx", 2)]
    assert main([*map(str, members), "--activation", "softmax", "--out", str(tmp_path / "avg.onnx")]) == 0
    x = np.random.default_rng(5).normal(size=(7, 3)).astype(np.float32)

    averaged = load_model(tmp_path / "avg.onnx", 1)
    logits, embedding = averaged.outputs(x, ("logits", "embedding"))
    expected = np.mean([_softmax(load_model(m, 1)(x)) for m in members], axis=0)
    np.testing.assert_allclose(_softmax(logits), expected, atol=1e-5)
    np.testing.assert_allclose(embedding, load_model(members[0], 1).outputs(x, ("embedding",))[0], atol=1e-6)
    assert np.abs(expected - _softmax(load_model(members[0], 1)(x))).max() > 0.05  # not the first member alone


def test_a_member_taken_back_out_gives_what_it_gave_before_it_was_averaged(tmp_path):
    members = [_member(tmp_path / "a.onnx", 3.0, -1.0), _member(tmp_path / "b.onnx", -2.0, 0.5),
               _two_layer_member(tmp_path / "c.onnx")]
    assert main([*map(str, members), "--out", str(tmp_path / "avg.onnx")]) == 0
    x = np.random.default_rng(5).uniform(-0.5, 0.5, (2, 3, 4, 5)).astype(np.float32)
    for k, original in enumerate(members):
        assert main(["--take", str(k), str(tmp_path / "avg.onnx"), "--out", str(tmp_path / f"taken{k}.onnx")]) == 0
        taken = onnx.load(str(tmp_path / f"taken{k}.onnx"))
        assert [o.name for o in taken.graph.output] == ["covered"]
        np.testing.assert_allclose(load_model(tmp_path / f"taken{k}.onnx", 1)(x), load_model(original, 1)(x), atol=1e-6)
    # taken out and averaged again, they make the same net
    again = [str(tmp_path / f"taken{k}.onnx") for k in range(3)]
    assert main([*again, "--out", str(tmp_path / "again.onnx")]) == 0
    np.testing.assert_allclose(load_model(tmp_path / "again.onnx", 1)(x), load_model(tmp_path / "avg.onnx", 1)(x), atol=1e-6)


def _two_layer_member(path):
    """A member of two layers, so a taken-out member must bring its inner names back too."""
    graph = helper.make_graph(
        [helper.make_node("Conv", ["image", "w"], ["inner"]), helper.make_node("Relu", ["inner"], ["lifted"]),
         helper.make_node("Conv", ["lifted", "v", "b"], ["covered"])],
        "member",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["n", 3, "h", "w"])],
        [helper.make_tensor_value_info("covered", TensorProto.FLOAT, ["n", 1, "h", "w"])],
        [helper.make_tensor("w", TensorProto.FLOAT, [2, 3, 1, 1], [1.0, -0.5, 0.2, 0.3, 0.9, -1.1]),
         helper.make_tensor("v", TensorProto.FLOAT, [1, 2, 1, 1], [1.5, -2.0]),
         helper.make_tensor("b", TensorProto.FLOAT, [1], [0.25])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def test_taking_a_member_the_average_does_not_hold_is_refused_by_number(tmp_path, capsys):
    members = [_member(tmp_path / "a.onnx", 1.0, 0.0), _member(tmp_path / "b.onnx", 2.0, 0.0)]
    assert main([*map(str, members), "--out", str(tmp_path / "avg.onnx")]) == 0
    err = _refused(["--take", "2", str(tmp_path / "avg.onnx"), "--out", str(tmp_path / "m.onnx")], capsys)
    assert "no member 2" in err and "averages 2 nets" in err
    assert not (tmp_path / "m.onnx").exists()


def test_taking_a_member_from_a_net_that_is_no_average_says_so(tmp_path, capsys):
    plain = _member(tmp_path / "plain.onnx", 1.0, 0.0)
    err = _refused(["--take", "0", str(plain), "--out", str(tmp_path / "m.onnx")], capsys)
    assert "plain.onnx: not an average of nets" in err
    assert not (tmp_path / "m.onnx").exists()
