"""lab.experiments.stack_nets: the averaged occluder with a stacker in place of its mean (lab/decisions/stack.txt)."""
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

import onnxruntime as ort  # noqa: E402

from models.recipe.average_nets import average_logit_nets  # noqa: E402
from lab.experiments.stack_nets import StackError, main, probabilities_model, stacked_model  # noqa: E402
from tests.vision.test_average_nets import _member, _sigmoid  # noqa: E402
from vision.models import load_model  # noqa: E402


@pytest.fixture
def averaged(tmp_path):
    members = [_member(tmp_path / "a.onnx", 3.0, -1.0), _member(tmp_path / "b.onnx", -2.0, 0.5),
               _member(tmp_path / "c.onnx", 0.7, 2.0)]
    average_logit_nets(members, tmp_path / "avg.onnx")
    return tmp_path / "avg.onnx", members


def _run(model, x):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"image": x})[0]


def _conv(features, weight, bias):
    """A plain 'same' convolution (cross-correlation, zero padding) of C x H x W features."""
    k = weight.shape[-1] // 2
    padded = np.pad(features, ((0, 0), (k, k), (k, k)))
    h, w = features.shape[1:]
    out = np.empty((weight.shape[0], h, w), np.float64)
    for o in range(weight.shape[0]):
        for y in range(h):
            for x in range(w):
                out[o, y, x] = (padded[:, y:y + 2 * k + 1, x:x + 2 * k + 1] * weight[o]).sum() + bias[o]
    return out


X = np.random.default_rng(4).uniform(-0.5, 0.5, (1, 3, 6, 8)).astype(np.float32)


def test_the_members_probabilities_come_out_one_channel_each(averaged):
    path, members = averaged
    probabilities = _run(probabilities_model(path), X)
    assert probabilities.shape == (1, 3, 6, 8)
    for k, member in enumerate(members):
        np.testing.assert_allclose(probabilities[0, k], _sigmoid(load_model(member, 1)(X))[0, 0], atol=1e-6)


def test_the_stacked_net_gives_the_stackers_logit_of_the_members_probabilities(averaged, tmp_path):
    path, members = averaged
    rng = np.random.default_rng(7)
    convs = [(rng.normal(0, 1, (4, 3, 3, 3)), rng.normal(0, 1, 4)), (rng.normal(0, 1, (1, 4, 1, 1)), rng.normal(0, 1, 1))]
    onnx.save(stacked_model(path, convs), str(tmp_path / "stacked.onnx"))
    got = load_model(tmp_path / "stacked.onnx", 1)(X)

    probabilities = np.stack([_sigmoid(load_model(m, 1)(X))[0, 0] for m in members]).astype(np.float64)
    hidden = np.maximum(_conv(probabilities, *convs[0]), 0)
    expected = _conv(hidden, *convs[1])
    assert got.shape == (1, 1, 6, 8)
    np.testing.assert_allclose(got[0], expected, atol=1e-4)
    # the mean it replaces would not pass
    assert np.abs(_sigmoid(got) - _sigmoid(load_model(path, 1)(X))).max() > 0.05


def test_a_stacker_for_another_number_of_members_is_refused(averaged):
    path, _ = averaged
    with pytest.raises(StackError, match="reads 6 members, the net has 3"):
        stacked_model(path, [(np.zeros((1, 6, 3, 3)), np.zeros(1))])


def test_a_net_that_is_no_average_is_refused_by_name(tmp_path, capsys):
    single = _member(tmp_path / "single.onnx", 1.0, 0.0)
    with pytest.raises(StackError, match="single.onnx.*not an average"):
        probabilities_model(single)
    assert main([str(single), "--out-dir", str(tmp_path)]) == 2
    said = capsys.readouterr().err
    assert said.startswith("stack_nets: ") and "single.onnx" in said and said.count("\n") == 1
    (tmp_path / "garbled.onnx").write_bytes(b"not a net")
    assert main([str(tmp_path / "garbled.onnx"), "--out-dir", str(tmp_path)]) == 2
    assert "garbled.onnx: not an ONNX file" in capsys.readouterr().err


def test_a_missing_output_folder_or_a_repeated_size_is_refused_before_anything_is_drawn(averaged, tmp_path, capsys):
    path, _ = averaged
    assert main([str(path), "--out-dir", str(tmp_path / "nowhere")]) == 2
    assert "output folder" in capsys.readouterr().err
    assert main([str(path), "--out-dir", str(tmp_path), "--hidden", "8", "8"]) == 2
    assert "[8, 8]" in capsys.readouterr().err
