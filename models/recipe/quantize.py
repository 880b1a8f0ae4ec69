"""An eight-bit copy of the shipped tile classifier, for speed (lab/decisions/int8.txt, relu8.txt).

    python -m models.recipe.quantize [--out models/] [--photos N] [--detector]

Static quantisation by onnxruntime: int8 weights per output channel, uint8 activations whose
ranges are the minima and maxima seen on TRAIN split photos only (the classifier's rectified
crops as the float nets read them; with --detector, also the detector's input at each look the
reading takes of them, and of the same photos dimmed and brightened again as a read brightens a dim
frame: that copy ships not, it lost tiles of the play area kept from a clear table).
Weights keep 7 bits (reduce_range): without AVX-VNNI, onnxruntime's u8 x s8 products are summed in
pairs into 16 bits, which saturate with full-range weights. The convolutions, the ReLU folded into
each and the pooling between them are quantised, so the activations stay uint8 from the first
convolution to the dense layers; the detector's last 1x1 convolution, whose logits are thresholded, and
the classifier's dense layers, whose logits become the confidences and whose embedding a club's set
profile is fitted to, stay in float.
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from vision.config import DEFAULT_CONFIG
from vision.exposure import expose
from vision.geometry import normalise_crops, rectify
from vision.image import load_image
from vision.models import CLASSIFIER_FILE, CLASSIFIER_INT8_FILE, DETECTOR_FILE, FLOAT_SOURCE_KEY, load_model
from vision.profile import file_sha256
from vision.pipeline import find_tiles
from models.recipe.realdata import DEFAULT_DATASET, split_stems

BATCH = 64
# each convolution's ReLU is folded into it (activations stay uint8 from one convolution to the next); quantising
# only "Conv" left each output dequantised, passed through a float ReLU and quantised again: a third of the
# classifier's time (lab/decisions/relu8.txt)
QUANTISED_OPERATORS = ("Conv", "MaxPool", "Relu")
# the detector's calibration also sees dim frames brightened, whose amplified noise the photos' ranges missed
DETECTOR_DIMMED = (0.45, 0.25)
DIM_NOISE_SIGMA = 2.0
DIM_NOISE_SEED = 7


class _Recorder:
    """A model that passes its inputs on and keeps them."""

    def __init__(self, model):
        self.model, self.inputs = model, []

    def __call__(self, x):
        self.inputs.append(np.array(x))
        return self.model(x)


def calibration_inputs(photos: list[Path], dimmed: tuple[float, ...] = ()) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(detector inputs, classifier input batches) of the float pipeline reading `photos`; with `dimmed`, the
    detector's inputs also of each photo dimmed by those factors (`dim`) and brightened as a read brightens it
    (vision.exposure), whose crops are not kept: the classifier's calibration is the photos as they are."""
    config = DEFAULT_CONFIG
    detector = _Recorder(load_model(DETECTOR_FILE, config.threads))
    crops = []
    noise = np.random.default_rng(DIM_NOISE_SEED)
    for path in photos:
        photo = load_image(path)
        image = expose(photo, config).image
        for candidate in find_tiles(image, config, detector):
            crops += [rectify(image, quad) for quad in (candidate.corners, *candidate.other_turns)]
        for factor in dimmed:
            find_tiles(expose(dim(photo, factor, noise), config).image, config, detector)
    crops = np.stack(crops)
    batches = [normalise_crops(crops[i: i + BATCH]) for i in range(0, len(crops), BATCH)]
    return detector.inputs, batches


def dim(photo: np.ndarray, factor: float, noise: np.random.Generator) -> np.ndarray:
    """The photo as a room's dimmed light shows it: each pixel times `factor`, with a camera's noise
    (Gaussian, DIM_NOISE_SIGMA grey levels)."""
    dimmed = photo.astype(np.float32) * factor + noise.normal(0.0, DIM_NOISE_SIGMA, photo.shape).astype(np.float32)
    return np.clip(np.rint(dimmed), 0, 255).astype(np.uint8)


def quantise(source: Path, target: Path, name: str, inputs: list[np.ndarray], exclude: list[str]) -> None:
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType, quant_pre_process,
                                          quantize_static)

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.left = iter(inputs)

        def get_next(self):
            x = next(self.left, None)
            return None if x is None else {name: x}

    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        quantize_static(str(prepared), str(target), Reader(), quant_format=QuantFormat.QOperator,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                        reduce_range=True, op_types_to_quantize=list(QUANTISED_OPERATORS), nodes_to_exclude=exclude)
    import onnx

    # the float net it was made from, so that a copy left behind by a retrained net is caught
    # (tests/vision/test_eight_bit.py)
    model = onnx.load(str(target))
    onnx.helper.set_model_props(model, {FLOAT_SOURCE_KEY: file_sha256(source)})
    onnx.save(model, str(target))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=CLASSIFIER_INT8_FILE.parent)
    parser.add_argument("--detector", action="store_true", help="also an eight-bit detector, tile_seg_int8.onnx (not shipped: lab/decisions/relu8.txt)")
    parser.add_argument("--photos", type=int, default=60, help="train split photos to calibrate on (every k-th, sorted)")
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    args = parser.parse_args(argv)
    stems = sorted(split_stems("train"))
    photos = [args.dataset / "train" / "images" / f"{stem}.jpg" for stem in stems]
    photos = [p for p in photos if p.is_file()]
    photos = photos[::max(1, len(photos) // args.photos)][:args.photos]
    detector_inputs, crop_batches = calibration_inputs(photos, DETECTOR_DIMMED if args.detector else ())
    print(f"{len(photos)} train photos: {len(detector_inputs)} detector looks, {sum(map(len, crop_batches))} crops")
    args.out.mkdir(parents=True, exist_ok=True)
    quantise(CLASSIFIER_FILE, args.out / CLASSIFIER_INT8_FILE.name, "crops", crop_batches, [])
    print(f"wrote {args.out / CLASSIFIER_INT8_FILE.name}")
    if args.detector:
        quantise(DETECTOR_FILE, args.out / "tile_seg_int8.onnx", "image", detector_inputs, ["/head/Conv"])
        print(f"wrote {args.out / 'tile_seg_int8.onnx'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
