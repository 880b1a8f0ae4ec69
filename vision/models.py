"""The shipped ONNX models, loaded once per process by onnxruntime (offline, from models/)."""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from .errors import ModelLoadError

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
DETECTOR_FILE = MODELS_DIR / "tile_seg.onnx"
CLASSIFIER_FILE = MODELS_DIR / "tile_cls.onnx"
# An eight-bit copy of the classifier, read with for speed (models/recipe/quantize.py, lab/decisions/int8.txt and
# relu8.txt; the detector's copies lost dim, brightened frames or tiles of a kept play area, and it stays float).
# A club's set profile is fitted to the float classifier's embedding and names its sha256: a reading with a
# profile keeps the float classifier.
CLASSIFIER_INT8_FILE = MODELS_DIR / "tile_cls_int8.onnx"
_EIGHT_BIT = {CLASSIFIER_FILE: CLASSIFIER_INT8_FILE}
FLOAT_SOURCE_KEY = "float_source_sha256"  # an eight-bit copy's metadata: the sha256 of the float net it was made from
OCCLUDER_FILE = MODELS_DIR / "occluder.onnx"


class OnnxModel:
    """One onnxruntime session with a single input; calling it gives the first output."""

    def __init__(self, path: Path, threads: int):
        import onnxruntime as ort

        if not Path(path).is_file():
            raise ModelLoadError(f"model file {str(path)!r} is missing; it ships in models/ (retrain: python -m models.recipe.train)")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        # the table box shares its cores with the camera and the timer: wait, don't spin
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise ModelLoadError(f"model file {str(path)!r} cannot be loaded: {error}") from None
        self.input_name = self.session.get_inputs()[0].name
        self.output_names = tuple(o.name for o in self.session.get_outputs())
        self.path = Path(path)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.session.run(self.output_names[:1], {self.input_name: x})[0]

    def outputs(self, x: np.ndarray, names: tuple[str, ...]) -> tuple[np.ndarray, ...]:
        missing = [n for n in names if n not in self.output_names]
        if missing:
            raise ModelLoadError(f"model file {str(self.path)!r} has no output(s) {missing}; it has {list(self.output_names)}")
        return tuple(self.session.run(list(names), {self.input_name: x}))


def eight_bit(path: Path) -> Path:
    """The shipped eight-bit copy of a shipped float net; any other net as it is."""
    return _EIGHT_BIT.get(Path(path), Path(path))


@functools.lru_cache(maxsize=8)
def load_model(path: Path, threads: int) -> OnnxModel:
    return OnnxModel(path, threads)
