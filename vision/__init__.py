"""Reading a Rummikub table from a photo: tiles, their codes, and the sets they form.

Stages (one public function each): load_image -> find_tiles -> classify -> find_groups /
place_group (orientation and reading order) -> FrameReading. `read_image` and `read_path`
run them all; with a camera's `TableMemory`, a frame in a play area is read again only where it
changed (vision/changes.py). vision never imports controller.
"""
from .changes import TableMemory
from .config import DEFAULT_CONFIG, VisionConfig
from .errors import ImageReadError, ImageWriteError, ModelLoadError, VisionError
from .image import load_image
from .occluders import OccluderRegion, Occluders, find_occluders
from .pipeline import DetectorLooks, TableReader, find_tiles, read_image, read_path
from .reading import FrameReading, SetReading, TileReading

__all__ = [
    "DEFAULT_CONFIG",
    "FrameReading",
    "ImageReadError",
    "ImageWriteError",
    "ModelLoadError",
    "OccluderRegion",
    "Occluders",
    "SetReading",
    "TableReader",
    "TileReading",
    "VisionConfig",
    "VisionError",
    "find_occluders",
    "find_tiles",
    "load_image",
    "read_image",
    "DetectorLooks",
    "TableMemory",
    "read_path",
]
