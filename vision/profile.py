"""A club's set profile: the classifier's last layer nudged to one physical tile set.

The shipped classifier gives, for each crop, its logits and the embedding its last layer
reads (models/tile_cls.onnx has both outputs). A profile holds a residual for that last
layer, fitted by `vision.calibrate` on photos of the club's own set laid out in a known
order, so a teal set's blue reads as blue and a typeface the model never saw reads right:
colour and number become roles learnt from the set itself, not hues fixed at training.

    logits(profile) = logits(shipped) + embedding @ weight.T + bias

A profile is tied to the classifier it was fitted to (its sha256); another classifier
makes `ProfileError`, never a silent misreading. Files are JSON, written and read here.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .codes import CLASS_COUNT
from .errors import ProfileError

PROFILE_FORMAT = "tileref-set-profile"
PROFILE_VERSION = 1


@dataclass(frozen=True, eq=False)
class SetProfile:
    """The residual last layer for one tile set and what it was fitted on."""

    name: str
    classifier_sha256: str  # of the classifier file the residual belongs to
    weight: np.ndarray  # CLASS_COUNT x embedding size
    bias: np.ndarray  # CLASS_COUNT
    layout: str  # the layout the calibration photos showed
    photos: tuple[str, ...]  # file names (or labels) of the calibration photos
    tiles: int  # tiles the residual was fitted on
    fit_accuracy: tuple[float, float] = (0.0, 0.0)  # codes right on the calibration tiles, before / after
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self):
        weight = np.asarray(self.weight, np.float32)
        bias = np.asarray(self.bias, np.float32)
        if weight.ndim != 2 or weight.shape[0] != CLASS_COUNT or bias.shape != (CLASS_COUNT,):
            raise ProfileError(f"profile {self.name!r}: weight {weight.shape} and bias {bias.shape} "
                               f"do not fit {CLASS_COUNT} classes")
        if not (np.isfinite(weight).all() and np.isfinite(bias).all()):
            raise ProfileError(f"profile {self.name!r}: weight or bias holds a non-finite number")
        object.__setattr__(self, "weight", weight)
        object.__setattr__(self, "bias", bias)

    @property
    def embedding_size(self) -> int:
        return int(self.weight.shape[1])

    def adjust(self, logits: np.ndarray, embedding: np.ndarray) -> np.ndarray:
        """The shipped logits (N x CLASS_COUNT) with this set's residual added."""
        if embedding.shape[1] != self.embedding_size:
            raise ProfileError(f"profile {self.name!r} expects embeddings of {self.embedding_size} values, "
                               f"the classifier gives {embedding.shape[1]}")
        return logits + embedding @ self.weight.T + self.bias

    def check_classifier(self, path: Path) -> None:
        digest = file_sha256(path)
        if digest != self.classifier_sha256:
            raise ProfileError(
                f"profile {self.name!r} was fitted to classifier sha256 {self.classifier_sha256[:12]}..., "
                f"but {str(path)!r} is {digest[:12]}...; calibrate the set again (tileref calibrate)")

    def to_json_dict(self) -> dict:
        return {
            "format": PROFILE_FORMAT,
            "version": PROFILE_VERSION,
            "name": self.name,
            "classifier_sha256": self.classifier_sha256,
            "layout": self.layout,
            "photos": list(self.photos),
            "tiles": self.tiles,
            "fit_accuracy": {"before": round(self.fit_accuracy[0], 6), "after": round(self.fit_accuracy[1], 6)},
            "notes": list(self.notes),
            # nine significant digits give back exactly the float32 written
            "weight": [[float(f"{v:.9g}") for v in row] for row in self.weight.tolist()],
            "bias": [float(f"{v:.9g}") for v in self.bias.tolist()],
        }

    @staticmethod
    def from_json_dict(data: dict, source: str = "profile") -> "SetProfile":
        if not isinstance(data, dict) or data.get("format") != PROFILE_FORMAT:
            raise ProfileError(f"{source}: not a tileref set profile (expected \"format\": {PROFILE_FORMAT!r})")
        if data.get("version") != PROFILE_VERSION:
            raise ProfileError(f"{source}: profile version {data.get('version')!r}; this tileref reads version {PROFILE_VERSION}")
        try:
            accuracy = data.get("fit_accuracy", {})
            return SetProfile(
                name=str(data["name"]),
                classifier_sha256=str(data["classifier_sha256"]),
                weight=np.array(data["weight"], np.float32),
                bias=np.array(data["bias"], np.float32),
                layout=str(data["layout"]),
                photos=tuple(str(p) for p in data["photos"]),
                tiles=int(data["tiles"]),
                fit_accuracy=(float(accuracy.get("before", 0.0)), float(accuracy.get("after", 0.0))),
                notes=tuple(str(n) for n in data.get("notes", ())),
            )
        except ProfileError as error:
            raise ProfileError(f"{source}: {error}") from None
        except (KeyError, TypeError, ValueError) as error:
            raise ProfileError(f"{source}: malformed profile ({type(error).__name__}: {error})") from None


def file_sha256(path: Path) -> str:
    stat = Path(path).stat()
    return _sha256_of(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _sha256_of(path: str, _mtime_ns: int, _size: int) -> str:  # keyed by mtime and size: a new file is hashed again
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def load_profile(path: str | os.PathLike) -> SetProfile:
    """Read a profile file; ProfileError names the file and what is wrong with it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProfileError(f"profile file {str(path)!r} does not exist (make one: tileref calibrate)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ProfileError(f"profile file {str(path)!r} cannot be read: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ProfileError(f"profile file {str(path)!r} is not JSON: {error}") from None
    except ValueError as error:  # an integer longer than Python's int-string limit (4300 digits)
        raise ProfileError(f"profile file {str(path)!r}: {str(error).split(';')[0]}") from None
    except RecursionError:
        raise ProfileError(f"profile file {str(path)!r}: JSON nested too deeply to be a profile") from None
    return SetProfile.from_json_dict(data, f"profile file {str(path)!r}")


def save_profile(profile: SetProfile, path: str | os.PathLike) -> None:
    path = Path(path)
    temporary = path.with_name(path.name + ".part")
    try:
        temporary.write_text(json.dumps(profile.to_json_dict(), separators=(",", ":")) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        raise ProfileError(f"profile file {str(path)!r} cannot be written: {error}") from None
