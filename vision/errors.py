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
