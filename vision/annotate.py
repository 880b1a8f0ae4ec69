"""Draw a FrameReading on its photo: each face outlined with its code, each set joined by a line."""
from __future__ import annotations

import os

import cv2
import numpy as np

from .errors import ImageWriteError
from .reading import FrameReading

_SET_COLOURS = ((0, 200, 0), (255, 160, 0), (200, 0, 200), (0, 180, 255), (255, 0, 80), (0, 255, 255))
_LONE = (160, 160, 160)
_UNSURE = (0, 0, 255)


def annotate(image: np.ndarray, reading: FrameReading, low_confidence: float = 0.6) -> np.ndarray:
    out = image.copy()
    scale = max(out.shape[:2]) / 1000.0
    thick = max(1, int(round(2 * scale)))
    colour_of = {}
    for k, s in enumerate(reading.sets):
        for i in s.tiles:
            colour_of[i] = _SET_COLOURS[k % len(_SET_COLOURS)]
    for s in reading.sets:
        pts = np.array([reading.tiles[i].center for i in s.tiles], np.int32)
        cv2.polylines(out, [pts], False, colour_of[s.tiles[0]], thick, cv2.LINE_AA)
    for i, t in enumerate(reading.tiles):
        colour = colour_of.get(i, _LONE)
        quad = np.round(np.array(t.corners)).astype(np.int32)
        cv2.polylines(out, [quad], True, colour, thick, cv2.LINE_AA)
        cv2.line(out, tuple(quad[0]), tuple(quad[1]), _UNSURE if t.confidence < low_confidence else (255, 255, 255), thick * 2)
        label = t.code
        font_scale = 0.6 * scale
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thick)
        # on the lower half of the face (the logo), so the printed number stays visible
        bottom = (np.array(t.corners[2]) + np.array(t.corners[3])) / 2
        spot = np.array(t.center) + 0.55 * (bottom - np.array(t.center))
        x, y = int(spot[0] - tw / 2), int(spot[1] + th / 2)
        cv2.rectangle(out, (x - 2, y - th - 2), (x + tw + 2, y + 3), (0, 0, 0), -1)
        cv2.putText(out, label, (x, y), cv2.FONT_HERSHEY_SIMPLEX, font_scale,
                    _UNSURE if t.confidence < low_confidence else (255, 255, 255), thick, cv2.LINE_AA)
    return out


def write_annotated(path: str | os.PathLike, image: np.ndarray, reading: FrameReading, low_confidence: float = 0.6) -> None:
    drawn = annotate(image, reading, low_confidence)
    ext = os.path.splitext(str(path))[1].lower() or ".png"
    try:
        ok, data = cv2.imencode(ext, drawn)
    except cv2.error:
        ok = False
    if not ok:
        raise ImageWriteError(f"{str(path)!r}: cannot encode an image with extension {ext!r} (use .png or .jpg)")
    try:
        with open(path, "wb") as f:
            f.write(data.tobytes())
    except OSError as error:
        raise ImageWriteError(f"{str(path)!r}: cannot write the annotated image ({error.strerror or error})") from None
