"""The networks behind `tileref read` and the settle check (torch; training only, inference runs their ONNX export).

TileSegNet: a light U-Net that marks, at half the input resolution, every pixel of a tile
face (channel 0) and of the face shrunk to its middle (channel 1, "core"); cores of
touching tiles stay apart, so each core blob is one tile.

TileClassNet: a small CNN over one rectified face crop; it outputs 2 x 53 + 1 logits:
for each code, "upright" and "turned half round", then "not a tile".
"""
from __future__ import annotations

from torch import nn
import torch.nn.functional as F

from vision.codes import CLASS_COUNT  # the output layout is vision's contract


def _conv(cin, cout, kernel=3, stride=1, dilation=1):
    padding = (kernel // 2) * dilation if kernel % 2 else 0
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel, stride, padding, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class TileSegNet(nn.Module):
    """Works at a quarter of the input resolution (dense convs there are cheap on a CPU) and
    reaches half resolution at the end by pixel shuffle, so the cores of small touching
    tiles still come out apart. Dilated convs give a ~120 px reach for close-up tiles."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(_conv(3, 32, kernel=4, stride=4), _conv(32, 32))  # 1/4
        self.context = nn.Sequential(_conv(32, 64, stride=2), _conv(64, 64, dilation=2), _conv(64, 64, dilation=4))  # 1/8
        self.lateral = nn.Conv2d(64, 32, 1)
        self.fuse = _conv(32, 32)
        self.head = nn.Conv2d(32, 2 * 4, 1)  # 2 maps x (2 x 2 sub-pixels)

    def forward(self, x):
        near = self.stem(x)
        far = self.context(near)
        mixed = self.fuse(near + self.lateral(F.interpolate(far, size=near.shape[-2:], mode="nearest")))
        return F.pixel_shuffle(self.head(mixed), 2)


def _channels(width: float, base: int) -> int:
    """`base` channels scaled by `width`, in whole eights (what the CPU's vector units take at once), at least 16."""
    return max(16, int(round(base * width / 8)) * 8)


class TileClassNet(nn.Module):
    """`width` scales every layer's channels (1.0: the nets the shipped classifier averages; narrower
    nets taught by that average were tried as a faster classifier: lab/decisions/cls_fast.txt)."""

    def __init__(self, width: float = 1.0):
        super().__init__()
        c1, c2, c3, c4, c5 = (_channels(width, base) for base in (24, 32, 48, 64, 96))
        # the first conv keeps full crop resolution: the strokes that tell 1 from 7 and 11
        # from 12 are a pixel or two wide in a 40 x 56 crop of a small tile
        self.features = nn.Sequential(
            _conv(3, c1), _conv(c1, c2, stride=2), _conv(c2, c3), nn.MaxPool2d(2),  # 14 x 10
            _conv(c3, c4), _conv(c4, c4), nn.MaxPool2d(2),  # 7 x 5
            _conv(c4, c5),
        )
        # flatten, not global pooling: where the number sits on the face tells up from down
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.2), nn.Linear(c5 * 7 * 5, 128), nn.ReLU(inplace=True), nn.Linear(128, CLASS_COUNT)
        )

    def forward(self, x):
        return self.classifier(self.features(x))

    def with_embedding(self, x):
        """(logits, embedding): the embedding is what the last layer sees, so a club's set
        profile (vision/profile.py) can refit that layer without torch."""
        embedding = self.classifier[:-1](self.features(x))
        return self.classifier[-1](embedding), embedding


class ExportedClassifier(nn.Module):
    """The classifier as it ships: logits and the embedding both as outputs."""

    def __init__(self, net: TileClassNet):
        super().__init__()
        self.net = net

    def forward(self, x):
        return self.net.with_embedding(x)


class OccluderNet(nn.Module):
    """Marks what covers the table (hands, arms, sleeves, phones, cups) on a grid at 1/4 of a
    192-pixel frame. Tiny on purpose: it runs on every frame while the table settles. Dilated
    convs at 1/8 see most of the frame, because a forearm is told from a wood plank of the
    same colour by its shape and where it comes from, not by its colour."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(_conv(3, 24, stride=2), _conv(24, 32, stride=2), _conv(32, 32))  # 1/4
        self.context = nn.Sequential(
            _conv(32, 64, stride=2), _conv(64, 64, dilation=2), _conv(64, 64, dilation=4), _conv(64, 64, dilation=8),
        )  # 1/8
        self.lateral = nn.Conv2d(64, 32, 1)
        self.fuse = _conv(32, 32)
        self.head = nn.Conv2d(32, 1, 1)

    def forward(self, x):
        near = self.stem(x)
        far = self.context(near)
        return self.head(self.fuse(near + self.lateral(F.interpolate(far, size=near.shape[-2:], mode="bilinear",
                                                                     align_corners=False))))
