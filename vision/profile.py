"""A club's set profile: the classifier's last layer nudged to one physical tile set.

The shipped classifier gives, for each crop, its logits and the embedding its last layer
reads (models/tile_cls.onnx has both outputs). A profile holds a residual for that last
layer, fitted by `vision.calibrate` on photos of the club's own set laid out in a known
order, so a teal set's blue reads as blue and a typeface the model never saw reads right:
colour and number become roles learnt from the set itself, not hues fixed at training.

    logits(profile) = logits(shipped) + embedding @ weight.T + bias

A profile is tied to the classifier it was fitted to (its sha256): `load_profile` checks it
against the shipped classifier as the file is read, so another classifier makes `ProfileError`
before any game is recorded, never a silent misreading. Every weight and bias lies within
±MAX_PROFILE_VALUE: a fitted residual nudges the shipped logits, it never swamps them. Files are
JSON, written and read here.
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
from .models import CLASSIFIER_FILE

PROFILE_FORMAT = "tileref-set-profile"
PROFILE_VERSION = 1
# A fitted residual's values stay well under 1 (`fit_residual`: 300 Adam steps of 0.03 on
# embeddings scaled to unit median norm, then divided by that scale); 100 leaves every honest fit
# room while a value that would drown the shipped logits (or overflow them to inf) is refused.
MAX_PROFILE_VALUE = 100.0
SHA256_HEX = frozenset("0123456789abcdef")


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
        for what, values in (("weight", weight), ("bias", bias)):
            bad = np.argwhere(~(np.abs(values) <= MAX_PROFILE_VALUE))  # NaN fails the comparison too
            if len(bad):
                where = "".join(f"[{int(i)}]" for i in bad[0])
                raise ProfileError(f"profile {self.name!r}: {what}{where} = {float(values[tuple(bad[0])]):.6g} is "
                                   f"outside ±{MAX_PROFILE_VALUE:g} (a fitted profile stays well under 1)")
        if len(self.classifier_sha256) != 64 or not set(self.classifier_sha256) <= SHA256_HEX:
            raise ProfileError(f"profile {self.name!r}: classifier_sha256 {self.classifier_sha256[:80]!r} is not "
                               "the sha256 of a classifier file (64 hex digits)")
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
            _numbers(data["weight"], "weight", depth=2)
            _numbers(data["bias"], "bias", depth=1)
            if not isinstance(data["tiles"], int) or isinstance(data["tiles"], bool):
                raise ProfileError(f"tiles {data['tiles']!r} is not a whole number")
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


def _numbers(value, path: str, depth: int) -> None:
    """`value` is a list (of lists, `depth` deep) of JSON numbers: text or true/false in their place
    would be converted silently by numpy."""
    if not isinstance(value, list):
        raise ProfileError(f"{path} is {type(value).__name__}, not a list of numbers")
    for index, item in enumerate(value):
        where = f"{path}[{index}]"
        if depth > 1:
            _numbers(item, where, depth - 1)
        elif not isinstance(item, (int, float)) or isinstance(item, bool):
            raise ProfileError(f"{where} is {item!r}, not a number")


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


def load_profile(path: str | os.PathLike, classifier: Path | None = CLASSIFIER_FILE) -> SetProfile:
    """Read a profile file and check it was fitted to `classifier` (the shipped one by default;
    None: not checked); ProfileError names the file and what is wrong with it."""
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
    profile = SetProfile.from_json_dict(data, f"profile file {str(path)!r}")
    if classifier is not None:
        try:
            profile.check_classifier(classifier)
        except ProfileError as error:
            raise ProfileError(f"profile file {str(path)!r}: {error}") from None
        except OSError as error:
            raise ProfileError(f"profile file {str(path)!r}: the classifier {str(classifier)!r} cannot be read "
                               f"({error.strerror or error})") from None
    return profile


def save_profile(profile: SetProfile, path: str | os.PathLike) -> None:
    path = Path(path)
    temporary = path.with_name(path.name + ".part")
    try:
        temporary.write_text(json.dumps(profile.to_json_dict(), separators=(",", ":")) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        raise ProfileError(f"profile file {str(path)!r} cannot be written: {error}") from None
