"""A learned second stage over the members of an averaged occluder net (lab/decisions/stack.txt).

    python -m lab.experiments.stack_nets models/occluder.onnx --hidden 0 8 --out-dir models/work/stack

The shipped models/occluder.onnx runs six nets and takes the mean of their probabilities
(models/recipe/average_nets.py). Here a small stacker (lab/experiments/stacker_net.OccluderStacker) is fitted to read
the six probabilities of each cell and its neighbours instead. It is fitted on training samples
only (models/recipe/occluder_train._draw over the train photos, its own seeds), through the members as
they ship, which stay unchanged. Each stacker is written as the averaged file with its mean
replaced by the stacker (`stacked-h<hidden>.onnx`: same input, output 'covered' a logit as
before), so a candidate is scored exactly as it would ship:
`python -m lab.experiments.occluder_candidates maps stacked-h0.onnx ...`. Training only: needs torch and onnx.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from models.recipe.average_nets import AverageError, members_in
from models.recipe.occluder_data import CORNERED

STACK_SEED = 38261122  # no occluder member's seed: the stacker's samples are draws no member trained on


@dataclass(frozen=True)
class StackRecipe:
    hidden: int = 0  # 0: one 3 x 3 conv; else a 3 x 3 conv to this many channels, ReLU, a 1 x 1 conv
    samples: int = 4000  # even seeds plain samples, odd seeds CORNERED (lab/decisions/stack.txt)
    steps: int = 3000
    batch: int = 32
    lr: float = 0.01
    seed: int = STACK_SEED


STACK_SMOKE = StackRecipe(samples=8, steps=3, batch=2)


class StackError(ValueError):
    """A net that cannot be stacked: the message names the file and what is wrong."""


def _members_graph(path: Path):
    """The averaged net at `path` without its mean: (model, the members' probability names, output name)."""
    import onnx

    try:
        model = onnx.load(str(path))
    except Exception as error:  # protobuf raises whatever the garbled bytes lead it to
        raise StackError(f"{path}: not an ONNX file ({type(error).__name__})") from None
    try:
        count = members_in(model, path)
    except AverageError as error:
        raise StackError(str(error)) from None
    probabilities = [f"member{k}/probability" for k in range(count)]
    made = {name for node in model.graph.node for name in node.output}
    missing = [name for name in probabilities if name not in made]
    if missing:
        raise StackError(f"{path}: no member probabilities {missing} (only a sigmoid average has them)")
    output = model.graph.output[0].name
    kept = [node for node in model.graph.node
            if output not in node.output and not any(name.startswith("average/") for name in node.output)]
    del model.graph.node[:]
    model.graph.node.extend(kept)
    initializers = [t for t in model.graph.initializer if not t.name.startswith("average/")]
    del model.graph.initializer[:]
    model.graph.initializer.extend(initializers)
    return model, probabilities, output


def _finish(model, path: Path, how: str):
    import onnx

    onnx.helper.set_model_props(model, {"stacks": f"{path}:{hashlib.sha256(path.read_bytes()).hexdigest()[:16]}",
                                        "how": how})
    onnx.checker.check_model(model)
    return model


def probabilities_model(path: Path):
    """The averaged net at `path` giving its members' probabilities (N x members x h x w, output 'probabilities')."""
    from onnx import TensorProto, helper

    model, probabilities, output = _members_graph(path)
    shape = [d.dim_param or d.dim_value for d in model.graph.output[0].type.tensor_type.shape.dim]
    model.graph.node.append(helper.make_node("Concat", probabilities, ["probabilities"], axis=1))
    del model.graph.output[:]
    model.graph.output.append(helper.make_tensor_value_info("probabilities", TensorProto.FLOAT,
                                                            [shape[0], len(probabilities), *shape[2:]]))
    return _finish(model, path, "the members' sigmoid probabilities, one channel each")


def stacked_model(path: Path, convs: list[tuple[np.ndarray, np.ndarray]]):
    """The averaged net at `path` with a stacker in place of its mean: `convs` ((weight, bias) of each conv,
    ReLU between) over the members' probabilities, giving the logit under the mean's output name."""
    from onnx import helper, numpy_helper

    model, probabilities, output = _members_graph(path)
    if convs[0][0].shape[1] != len(probabilities):
        raise StackError(f"{path}: the stacker reads {convs[0][0].shape[1]} members, the net has {len(probabilities)}")
    nodes = [helper.make_node("Concat", probabilities, ["stack/probabilities"], axis=1)]
    current = "stack/probabilities"
    for k, (weight, bias) in enumerate(convs):
        if k:
            nodes.append(helper.make_node("Relu", [current], [f"stack/relu{k}"]))
            current = f"stack/relu{k}"
        pad = weight.shape[-1] // 2
        model.graph.initializer.extend([numpy_helper.from_array(weight.astype(np.float32), f"stack/conv{k}/weight"),
                                        numpy_helper.from_array(bias.astype(np.float32), f"stack/conv{k}/bias")])
        last = k == len(convs) - 1
        nodes.append(helper.make_node("Conv", [current, f"stack/conv{k}/weight", f"stack/conv{k}/bias"],
                                      [output if last else f"stack/conv{k}"], pads=[pad] * 4,
                                      kernel_shape=list(weight.shape[-2:])))
        current = f"stack/conv{k}"
    model.graph.node.extend(nodes)
    sizes = " -> ".join(f"{w.shape[0]} ({w.shape[-2]} x {w.shape[-1]})" for w, _ in convs)
    return _finish(model, path, f"a stacker over the {len(probabilities)} members' probabilities: convs to {sizes}, "
                                f"ReLU between; the logit of {output!r}")


def draw_features(recipe: StackRecipe, path: Path, photo_paths: tuple[str, ...], workers: int, threads: int, log):
    """{frame shape: (members' probabilities N x K x h x w, targets N x h x w)} over the stacker's samples."""
    import onnxruntime as ort

    from models.recipe.fitting import pool_map
    from models.recipe.occluder_train import _draw, _photo_cache

    t0 = time.time()
    _photo_cache(photo_paths)  # decoded once here, before the workers fork
    drawn = pool_map(_draw, [(recipe.seed + i, photo_paths, None if i % 2 == 0 else CORNERED)
                             for i in range(recipe.samples)], workers)
    log(f"stacker data: {len(drawn)} samples drawn ({time.time() - t0:.0f} s)")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    session = ort.InferenceSession(probabilities_model(path).SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    buckets: dict[tuple[int, int], list] = {}
    for x, y in drawn:
        features = session.run(None, {name: x[None]})[0][0]
        buckets.setdefault(y.shape, []).append((features, y))
    log(f"stacker data: members' probabilities of {len(drawn)} samples ({time.time() - t0:.0f} s)")
    return {shape: (np.stack([f for f, _ in items]), np.stack([y for _, y in items]).astype(np.float32))
            for shape, items in buckets.items()}


def fit_stacker(recipe: StackRecipe, buckets: dict, log) -> list[tuple[np.ndarray, np.ndarray]]:
    """The stacker's convs fitted by the members' own loss and batches (models/recipe/occluder_train.py)."""
    import torch

    from models.recipe.fitting import fit_steps
    from lab.experiments.stacker_net import OccluderStacker
    from models.recipe.occluder_train import flipped_batches, occluder_loss

    members = next(iter(buckets.values()))[0].shape[1]
    torch.manual_seed(recipe.seed)
    net = OccluderStacker(members, recipe.hidden)
    batches = flipped_batches(buckets, recipe.batch, np.random.default_rng(recipe.seed + 11))
    fit_steps(net, recipe.steps, recipe.lr, batches, occluder_loss, log, f"stacker h{recipe.hidden}", time.time())
    return net.convs()


def stack(path: Path, recipes: list[StackRecipe], photo_paths: tuple[str, ...], out_dir: Path, workers: int,
          threads: int, log) -> list[Path]:
    """Fit each recipe's stacker on one draw of samples (the recipes differ only in `hidden`) and write
    `out_dir/stacked-h<hidden>.onnx` for each."""
    import onnx

    buckets = draw_features(recipes[0], path, photo_paths, workers, threads, log)
    written = []
    for recipe in recipes:
        out = out_dir / f"stacked-h{recipe.hidden}.onnx"
        onnx.save(stacked_model(path, fit_stacker(recipe, buckets, log)), str(out))
        log(f"stacker h{recipe.hidden}: written to {out}")
        written.append(out)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.experiments.stack_nets", description=__doc__.split("\n\n")[0])
    parser.add_argument("averaged", type=Path, metavar="AVERAGED.onnx")
    parser.add_argument("--out-dir", type=Path, required=True)
    parser.add_argument("--hidden", type=int, nargs="+", default=[0],
                        help="one stacker per value: 0 is one 3 x 3 conv, N a 3 x 3 conv to N channels, ReLU, 1 x 1 conv")
    parser.add_argument("--smoke", action="store_true", help="a few samples and steps: checks the recipe runs")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        if not args.averaged.is_file():
            raise StackError(f"net {str(args.averaged)!r} is not a file")
        if not args.out_dir.is_dir():
            raise StackError(f"output folder {str(args.out_dir)!r} does not exist")
        if any(h < 0 for h in args.hidden) or len(set(args.hidden)) != len(args.hidden):
            raise StackError(f"hidden sizes {args.hidden} are not distinct counts of channels (0 or more)")
        probabilities_model(args.averaged)  # a net that is no average is named now, not after minutes of drawing
        from models.recipe.realdata import load_splits

        base = STACK_SMOKE if args.smoke else StackRecipe()
        photos = load_splits()["train"]
        started = time.time()
        stack(args.averaged, [replace(base, hidden=h) for h in args.hidden],
              tuple(str(p.image_path) for p in photos), args.out_dir, args.workers, args.threads,
              lambda line: print(f"[{time.time() - started:6.0f} s] {line}", flush=True))
    except StackError as error:
        print(f"stack_nets: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
