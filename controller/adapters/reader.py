"""The photo reader adapter: vision's `read_image` turned into the game's `TableReading`."""
from __future__ import annotations

import dataclasses
import hashlib
import os
import time
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from controller.game.reading import ReadTile, TableReading

from .errors import ReaderError


PROFILE_DIGEST_HEX = 16  # of the profile file's sha256: tells two fits of one set apart


class TableReader(Protocol):
    def read(self, frame: np.ndarray) -> TableReading: ...


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def convert(result: Any, width: int = 0, height: int = 0) -> TableReading:
    """Accept vision's reading object (attributes) or its JSON form (dict)."""
    tiles = []
    for tile in _get(result, "tiles", ()):
        center = _get(tile, "center")
        corners = _get(tile, "corners", ()) or ()
        alternatives = _get(tile, "alternatives", ()) or ()
        tiles.append(ReadTile(
            code=str(_get(tile, "code")),
            confidence=float(_get(tile, "confidence", 0.0)),
            center=(float(center[0]), float(center[1])),
            corners=tuple((float(x), float(y)) for x, y in np.asarray(corners, dtype=float).reshape(-1, 2)),
            alternatives=tuple((str(code), float(p)) for code, p in alternatives),
        ))
    sets = []
    for s in _get(result, "sets", ()):
        indices = _get(s, "tiles", s)
        sets.append(tuple(int(i) for i in indices))
    warnings = tuple(str(w) for w in (_get(result, "warnings", ()) or ()))
    width, height = int(_get(result, "width", width) or width), int(_get(result, "height", height) or height)
    return TableReading(tuple(tiles), tuple(sets), warnings, width, height, area=_area_corners(result, width, height))


def _area_corners(result: Any, width: int, height: int) -> tuple[tuple[float, float], ...] | None:
    """The play area the reading was read in; None when it was the whole frame (nothing left out)."""
    area = _get(result, "area")
    corners = _get(area, "corners") if area is not None else None
    if not corners:
        return None
    points = tuple((round(float(x), 1), round(float(y), 1)) for x, y in corners)
    whole = ((0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height)))
    return None if points == whole else points


class VisionReader:
    """The real reader: the ONNX model of `vision/`, loaded once and kept."""

    def __init__(self, profile_path: str | None = None, area_path: str | None = None,
                 area_settings: str | None = None) -> None:
        """`profile_path`: a club set's profile from `tileref calibrate` (None: the shipped reading);
        `area_path`: the table's play area from `tileref area` (None: found on each frame);
        `area_settings`: the table's area file the referee page's marks are kept in (`mark_area`,
        `find_area`; None: the page cannot mark one)."""
        try:
            import vision
            from vision.area import fit_to_frame, load_table_area
            from vision.profile import load_profile
            self._read = vision.read_image
            self._vision_error = vision.VisionError
        except (ImportError, AttributeError) as error:
            raise ReaderError(f"the photo reader (vision.read_image) is not available: {error}") from None
        try:
            self.profile = None if profile_path is None else load_profile(profile_path)
        except vision.VisionError as error:
            raise ReaderError(str(error)) from None
        try:
            self.area = None if area_path is None else load_table_area(area_path)
        except vision.VisionError as error:
            raise ReaderError(str(error)) from None
        self.area_file = None if area_settings is None else Path(area_settings)
        self.kept = None  # (PlayArea, (width, height)) found on the clear table as the game began
        self._fit_area = fit_to_frame
        self.profile_id = None  # what every reading records it was read by
        if self.profile is not None:
            digest = hashlib.sha256(Path(profile_path).read_bytes()).hexdigest()[:PROFILE_DIGEST_HEX]
            self.profile_id = f"{self.profile.name} ({digest})"
        self.last_ms = 0.0
        self.looks = vision.DetectorLooks()  # the camera's frames are read one after another
        self.memory = vision.TableMemory()  # in a play area, a frame is read again only where it changed

    # -- the table's play area (the referee page marks it; the table's area file keeps it) ---------
    def area_in_force(self) -> tuple[tuple[tuple[float, float], ...], int, int] | None:
        """The marked area the next look is read in (corners, and the frame size they are in); None:
        the area is found on each frame."""
        if self.area is None:
            return None
        area, (width, height) = self.area
        return tuple(area.corners), width, height

    def mark_area(self, corners, width: int, height: int) -> None:
        """The referee's area from the next look on, kept in the table's area file (written whole, then
        put in place: a crash never leaves half a file). ReaderError names what is wrong."""
        from vision.area import marked_on_frame, save_area

        try:
            area = marked_on_frame(corners, width, height)
        except self._vision_error as error:
            raise ReaderError(str(error)) from None
        self._keep(lambda path: save_area(area, path, width, height))
        self.area = (area, (int(width), int(height)))

    def find_area(self) -> None:
        """No marked area from the next look on: it is found on each frame (and the area file says so)."""
        from vision.area import save_area_found

        self._keep(save_area_found)
        self.area = self.kept = None

    # -- an area found once, on the clear table, and kept for the game (never written to the area file) --
    def find_area_on(self, frame: np.ndarray) -> tuple[tuple[tuple[float, float], ...], int, int] | None:
        """The play area found on a frame of the clear table (corners, and the frame's size); None when
        the frame shows no table edge to keep (it is read whole). ReaderError names a frame it cannot take."""
        started = time.perf_counter()
        try:
            result = self._read(frame, profile=self.profile, area=None)
        except (self._vision_error, cv2.error) as error:
            raise ReaderError(f"finding the play area on the table photo failed: {error}") from error
        self.last_ms = (time.perf_counter() - started) * 1000
        width, height = frame.shape[1], frame.shape[0]
        corners = _area_corners(result, width, height)
        return None if corners is None else (corners, width, height)

    def keep_area(self, corners, width: int, height: int) -> None:
        """Read in an area the table found (`find_area_on`) until the game ends or an area is marked;
        ReaderError names corners that make no area."""
        from vision.area import PlayArea

        try:
            area = dataclasses.replace(PlayArea.marked(corners, width, height), found=True)
        except self._vision_error as error:
            raise ReaderError(str(error)) from None
        self.kept = (area, (int(width), int(height)))

    def area_read_in(self) -> tuple[tuple[tuple[float, float], ...], int, int] | None:
        """The area the next look is read in: the marked one, else the one kept; None: found on each frame."""
        area = self.area or self.kept
        if area is None:
            return None
        return tuple(area[0].corners), area[1][0], area[1][1]

    def _keep(self, write) -> None:
        if self.area_file is None:
            raise ReaderError("this table keeps no play area file: start `tileref play` with --area AREA.json, "
                              "or let it keep play-area.json beside its records")
        partial = self.area_file.with_name(self.area_file.name + ".partial")
        try:
            write(partial)
            os.replace(partial, self.area_file)
        except OSError as error:
            raise ReaderError(f"the play area could not be written to {str(self.area_file)!r}: {error}") from None

    def read_whole_next(self) -> None:
        """The next frame is read whole, not only where it changed since the last whole read."""
        self.memory.forget()

    def read(self, frame: np.ndarray) -> TableReading:
        started = time.perf_counter()
        try:
            area = self.area or self.kept
            area = None if area is None else self._fit_area(area[0], area[1], frame.shape[1], frame.shape[0])
            result = self._read(frame, profile=self.profile, area=area, looks=self.looks, memory=self.memory)
        except (self._vision_error, cv2.error) as error:
            # the vision layer's own errors and OpenCV's on a frame it cannot take are the frame's
            # fault; anything else is a bug and goes up as it is (tileref exits 1 naming the log)
            raise ReaderError(f"reading the table photo failed: {error}") from error
        self.last_ms = (time.perf_counter() - started) * 1000
        return dataclasses.replace(convert(result, frame.shape[1], frame.shape[0]), profile=self.profile_id)
