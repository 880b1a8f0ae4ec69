"""Whether a frame shows the table exactly as a frame already read did, answered as cheaply as it can be.

A look rests on several still frames; a reading is made of one and kept for another in which the
table lies as it lay there (`controller.table.eyes.TableEyes.kept_reading`). The question is the one
`vision.eyes_tiles.lies_as` answers (every tile's patch unchanged, and no block a third of a tile
wide changed anywhere else in the play area, the room's light matched) and the answer is the same;
only the order differs: the coarse blocks first, on a small copy, then the tiles' patches one by one,
each stopping at the first that changed. A frame in which tiles were laid or taken (the usual case
when it is compared with the last table judged after a turn's play) is told apart in a few
milliseconds, without comparing every tile's patch at full size.
"""
from __future__ import annotations

import cv2
import numpy as np

from .eyes_tiles import blocks_unchanged, light_between, unchanged_tiles
from .eyes_values import EyesSettings

DEFAULTS = EyesSettings()


def lies_as_read(reference: np.ndarray, outlines, image: np.ndarray, area=None, light=None,
                 settings: EyesSettings = DEFAULTS) -> bool:
    """`vision.eyes_tiles.lies_as`, the blocks first and the patches one at a time (the same answer, sooner
    when the table changed). `light`: the gain and offset of `light_between`, fitted here when None."""
    if reference.shape != image.shape or reference.ndim != 3:
        return False
    light = light if light is not None else light_between(reference, image)
    if not blocks_unchanged(reference, outlines, image, area, light, settings):
        return False
    return all(unchanged_tiles(reference, (outline,), image, light, settings)[0] for outline in outlines or ())


def still_as_read(reference: np.ndarray, outlines, image: np.ndarray, area=None,
                  settings: EyesSettings = DEFAULTS) -> bool:
    """Whether two frames of one still table show it alike by `lies_as`'s measures without matching the
    light: no block changed (`blocks_unchanged`) and no tile's patch (`unchanged_tiles`), both compared
    pixel by pixel as they are. Stricter than `lies_as_read` (a lamp turned up between the two frames makes
    them differ, and the frame is read), and without its light fit, the dearest part of a comparison: for
    the frames of one look, a fraction of a second apart."""
    if reference.shape != image.shape or reference.ndim != 3:
        return False
    if not blocks_unchanged(reference, outlines, image, area, (1.0, 0.0), settings):
        return False
    h, w = image.shape[:2]
    for outline in outlines or ():
        points = np.asarray(outline, np.float64)
        if len(points) < 3:
            return False
        x0, y0 = np.floor(points.min(axis=0)).astype(int)
        x1, y1 = np.ceil(points.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 - x0 < 3 or y1 - y0 < 3:
            return False
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round(points - (x0, y0)).astype(np.int32)], 1)
        patch = cv2.absdiff(cv2.blur(image[y0:y1, x0:x1], (3, 3)), cv2.blur(reference[y0:y1, x0:x1], (3, 3)))
        inside = mask.astype(bool)
        if not inside.any() or float((patch.max(axis=-1)[inside] > settings.patch_level).mean()) > settings.patch_share:
            return False
    return True
