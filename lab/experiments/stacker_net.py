"""The stacker network of lab/experiments/stack_nets.py (lab/decisions/stack.txt): not shipped."""
from __future__ import annotations

from torch import nn


class OccluderStacker(nn.Module):
    """A learned second stage over the probabilities of several occluder nets (one channel each),
    in place of their mean (lab/experiments/stack_nets.py): one 3 x 3 conv to a logit, or with `hidden`
    channels a 3 x 3 conv, ReLU and a 1 x 1 conv. Only convs, so it goes into ONNX node by node."""

    def __init__(self, members: int, hidden: int = 0):
        super().__init__()
        layers = [nn.Conv2d(members, hidden or 1, 3, padding=1)]
        if hidden:
            layers += [nn.ReLU(), nn.Conv2d(hidden, 1, 1)]
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x)

    def convs(self) -> list[tuple]:
        """(weight, bias) numpy arrays of each conv in order; a ReLU lies between consecutive ones."""
        return [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
                for m in self.layers if isinstance(m, nn.Conv2d)]
