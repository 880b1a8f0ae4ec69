"""The one base exception of the vision layer and its specific kinds."""
from __future__ import annotations


class VisionError(Exception):
    """Base of every error raised by vision; a caller may catch only this."""


class ImageReadError(VisionError):
    """The input is not a usable image (missing, empty, truncated, not an image, too small)."""


class ModelLoadError(VisionError):
    """A shipped model file is missing or cannot be loaded by onnxruntime."""


class ImageWriteError(VisionError):
    """An output image (annotation) cannot be written where asked."""


class ProfileError(VisionError):
    """A set profile file is missing, malformed, or fitted to another classifier."""


class CalibrationError(VisionError):
    """Calibration photos do not show the layout: a row or tile missing, a tile out of place."""


class LayoutError(CalibrationError):
    """A calibration layout file cannot be used (unknown code, empty, uneven pages)."""
