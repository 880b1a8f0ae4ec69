"""Average several trained nets of one kind into one ONNX file (the shipped occluder.onnx and tile_cls.onnx).

    python -m models.recipe.average_nets models/work/occ8/occluder.onnx models/work/occ9b/occluder.onnx models/work/occ11/occluder.onnx models/work/occ13/occluder.onnx --out models/occluder.onnx
    python -m models.recipe.average_nets A/tile_cls.onnx B/tile_cls.onnx --activation softmax --out tile_cls.onnx
    python -m models.recipe.average_nets --take 2 models/occluder.onnx --out occ11.onnx   (member 2 back out, as it was trained)

Every member takes the same input and gives the same outputs under the same names. The file made
runs each member on the input, averages their probabilities and gives the average back as a
logit (or a log-probability), so whatever reads the single net reads the average unchanged
(vision/occluders.py, vision/classify.py).
Nets trained apart (another seed, other steps) err in different places; averaging flips of one
net did not help (models/README.md). Training only: it needs the `onnx` package.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from typing import Callable

# a probability this close to 0 or 1 is clipped before its logit, so the logit stays finite
PROBABILITY_FLOOR = 1e-6


class AverageError(ValueError):
    """The members cannot be averaged: the message names the file and what differs."""


ACTIVATIONS = ("sigmoid", "softmax")


def _opset(model) -> int:
    return max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))


def train_and_average(out_path: Path, members: list[tuple[str, Callable[[Path], None]]], activation: str, what: str,
                      log) -> None:
    """Train each member (its label, and a call writing it to a path) into `<out stem>-member-K.onnx`
    beside `out_path`, then write their average to `out_path`."""
    paths = []
    for k, (label, train) in enumerate(members):
        path = out_path.with_name(f"{out_path.stem}-member-{k}.onnx")
        log(f"{what} member {k + 1} of {len(members)}: {label}")
        train(path)
        paths.append(path)
    average_logit_nets(paths, out_path, activation)
    log(f"{what}: {out_path.name} averages {', '.join(p.name for p in paths)}")


def average_logit_nets(paths: list[Path], out_path: Path, activation: str = "sigmoid") -> None:
    """Write to `out_path` one net running every member in `paths`. Its first output is the mean of
    the members' probabilities (`activation` of their first outputs: sigmoid per cell, or softmax over
    axis 1), given back as a logit (sigmoid) or a log-probability (softmax), so the same activation
    reads it. Any further output (the classifier's embedding) is the first member's."""
    import onnx
    from onnx import TensorProto, compose, helper

    if activation not in ACTIVATIONS:
        raise AverageError(f"activation {activation!r} is not one of {ACTIVATIONS}")
    if len(paths) < 2:
        raise AverageError(f"averaging needs at least two nets, got {[str(p) for p in paths]}")
    members = [onnx.load(str(p)) for p in paths]
    first = members[0]
    if len(first.graph.input) != 1:
        raise AverageError(f"{paths[0]}: a member must have one input")
    input_name = first.graph.input[0].name
    output_names = [o.name for o in first.graph.output]
    opset = _opset(first)
    for path, member in zip(paths[1:], members[1:]):
        names = ([i.name for i in member.graph.input], [o.name for o in member.graph.output])
        if names != ([input_name], output_names):
            raise AverageError(f"{path}: input and outputs {names} differ from {paths[0]}'s "
                               f"({[input_name]}, {output_names})")
        if _opset(member) != opset:
            raise AverageError(f"{path}: opset {_opset(member)} differs from {paths[0]}'s {opset}")

    averaged = output_names[0]
    nodes, initializers, probabilities = [], [], []
    for k, member in enumerate(members):
        prefix = f"member{k}/"
        graph = compose.add_prefix(member, prefix).graph
        for node in graph.node:
            node.input[:] = [input_name if name == prefix + input_name else name for name in node.input]
        nodes.extend(graph.node)
        if k == 0:  # the outputs that are not averaged are the first member's, under their own names
            nodes.extend(helper.make_node("Identity", [prefix + name], [name]) for name in output_names[1:])
        initializers.extend(graph.initializer)
        probability = f"{prefix}probability"
        if activation == "sigmoid":
            nodes.append(helper.make_node("Sigmoid", [prefix + averaged], [probability]))
        else:
            nodes.append(helper.make_node("Softmax", [prefix + averaged], [probability], axis=1))
        probabilities.append(probability)

    initializers += [
        helper.make_tensor("average/count", TensorProto.FLOAT, [], [float(len(members))]),
        helper.make_tensor("average/floor", TensorProto.FLOAT, [], [PROBABILITY_FLOOR]),
        helper.make_tensor("average/ceiling", TensorProto.FLOAT, [], [1.0 - PROBABILITY_FLOOR]),
    ]
    nodes += [
        helper.make_node("Sum", probabilities, ["average/sum"]),
        helper.make_node("Div", ["average/sum", "average/count"], ["average/mean"]),
        helper.make_node("Clip", ["average/mean", "average/floor", "average/ceiling"], ["average/p"]),
        helper.make_node("Log", ["average/p"], ["average/log_p"]),
    ]
    if activation == "sigmoid":
        initializers.append(helper.make_tensor("average/one", TensorProto.FLOAT, [], [1.0]))
        nodes += [
            helper.make_node("Sub", ["average/one", "average/p"], ["average/q"]),
            helper.make_node("Log", ["average/q"], ["average/log_q"]),
            helper.make_node("Sub", ["average/log_p", "average/log_q"], [averaged]),
        ]
    else:
        nodes.append(helper.make_node("Identity", ["average/log_p"], [averaged]))
    graph = helper.make_graph(nodes, "average of " + ", ".join(str(p) for p in paths),
                              [first.graph.input[0]], list(first.graph.output), initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="tileref models.recipe.average_nets")
    model.ir_version = first.ir_version
    helper.set_model_props(model, {
        "averages": " ".join(f"{p}:{hashlib.sha256(p.read_bytes()).hexdigest()[:16]}" for p in paths),
        "how": f"mean of the members' {activation} probabilities of {averaged!r}"
               + (f"; {', '.join(map(repr, output_names[1:]))} from the first member" if len(output_names) > 1 else ""),
    })
    onnx.checker.check_model(model)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out_path))


def member_count(path: Path) -> int:
    """How many nets the averaged net at `path` averages."""
    import onnx

    return members_in(onnx.load(str(path)), path)


def members_in(model, path: Path) -> int:
    """How many nets the loaded averaged net `model` (read from `path`, which errors name) averages."""
    members = {name.split("/", 1)[0] for node in model.graph.node for name in node.output
               if name.startswith("member") and "/" in name}
    if not members:
        raise AverageError(f"{path}: not an average of nets (no member in it); only a file this module wrote has members")
    return len(members)


def take_member(path: Path, k: int, out_path: Path) -> None:
    """Write to `out_path` member `k` of the averaged net at `path`, under its own names again: the
    members of a shipped average need not be kept beside it to be averaged anew."""
    import onnx
    from onnx import utils

    model = onnx.shape_inference.infer_shapes(onnx.load(str(path)))
    count = members_in(model, path)
    if not 0 <= k < count:
        raise AverageError(f"{path}: no member {k} (it averages {count} nets, numbered from 0)")
    prefix = f"member{k}/"
    input_name = model.graph.input[0].name
    output_names = [o.name for o in model.graph.output]
    member = utils.Extractor(model).extract_model([input_name], [prefix + name for name in output_names])

    def own(name: str) -> str:
        return name[len(prefix):] if name.startswith(prefix) else name

    for node in member.graph.node:
        node.name = own(node.name)
        node.input[:] = [own(name) for name in node.input]
        node.output[:] = [own(name) for name in node.output]
    for tensor in [*member.graph.initializer, *member.graph.output, *member.graph.value_info]:
        tensor.name = own(tensor.name)
    member.ir_version = model.ir_version
    onnx.helper.set_model_props(member, {"taken from": f"{path}:{hashlib.sha256(path.read_bytes()).hexdigest()[:16]} member {k}"})
    onnx.checker.check_model(member)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(member, str(out_path))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("members", nargs="+", type=Path, metavar="NET.onnx")
    parser.add_argument("--out", type=Path, required=True, metavar="OUT.onnx")
    parser.add_argument("--activation", choices=ACTIVATIONS, default="sigmoid",
                        help="how the first output becomes probabilities: sigmoid per cell (the occluder, default) "
                             "or softmax over classes (the tile classifier)")
    parser.add_argument("--take", type=int, default=None, metavar="K",
                        help="the other way: write member K (from 0) of one averaged net to --out")
    args = parser.parse_args(argv)
    for path in args.members:
        if not path.is_file():
            parser.exit(2, f"models.recipe.average_nets: no net at {path}\n")
    if args.take is not None and len(args.members) != 1:
        parser.exit(2, f"models.recipe.average_nets: --take reads one averaged net, got {[str(p) for p in args.members]}\n")
    try:
        if args.take is not None:
            take_member(args.members[0], args.take, args.out)
            made = f"member {args.take} of {args.members[0]}"
        else:
            average_logit_nets(args.members, args.out, args.activation)
            made = f"the average of {len(args.members)} nets"
    except AverageError as error:
        parser.exit(2, f"models.recipe.average_nets: {error}\n")
    print(f"{args.out}: {made}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
