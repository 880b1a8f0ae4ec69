"""A camera reading as the game flow sees it (the reader adapter converts the vision result).

Same shape as `tileref read --json`: tiles with code, confidence, centre, corners and the
runner-up codes; sets as tile indices in reading order; warnings.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any

from .errors import EventDataError

# In tile widths: a tile that seems to have shifted less than this is the same tile (on another frame
# or after a turn). Under half the step to the next tile of a meld (about 1.02 widths), so a
# meld's neighbour is never taken for it, and wide enough for the jitter of the reader's centres.
SAME_TILE_RADIUS = 0.45


@dataclass(frozen=True)
class ReadTile:
    code: str
    confidence: float
    center: tuple[float, float]
    corners: tuple[tuple[float, float], ...] = ()
    alternatives: tuple[tuple[str, float], ...] = ()

    @property
    def width(self) -> float | None:
        """The shorter side of the face in pixels (a tile's width), from its corners."""
        if len(self.corners) != 4:
            return None
        sides = [math.dist(self.corners[i], self.corners[(i + 1) % 4]) for i in range(4)]
        return min(sides)


@dataclass(frozen=True)
class TableReading:
    tiles: tuple[ReadTile, ...]
    sets: tuple[tuple[int, ...], ...]
    warnings: tuple[str, ...] = ()
    width: int = 0
    height: int = 0
    # the club set's profile it was read with ("NAME (sha256 prefix of the file)"); None: the shipped
    # reading. Stored with every reading, so an audit shows what the camera read the tiles by.
    profile: str | None = None
    # the play area read (four corners, frame pixels: `tileref area` or found on the frame); None: the
    # whole frame. Stored with the reading, so an audit shows what was left out of it.
    area: tuple[tuple[float, float], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "tiles": [
                {
                    "code": t.code,
                    "confidence": round(float(t.confidence), 4),
                    "center": [round(float(t.center[0]), 2), round(float(t.center[1]), 2)],
                    "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in t.corners],
                    "alternatives": [[code, round(float(p), 4)] for code, p in t.alternatives],
                }
                for t in self.tiles
            ],
            "sets": [{"tiles": list(s), "codes": [self.tiles[i].code for i in s]} for s in self.sets],
            "warnings": list(self.warnings),
            **({"profile": self.profile} if self.profile is not None else {}),  # absent: readings keep their old shape
            **({"area": [[x, y] for x, y in self.area]} if self.area is not None else {}),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> "TableReading":
        """From `tileref read --json` output (or `to_json`)."""
        try:
            tiles = tuple(
                ReadTile(
                    code=str(t["code"]),
                    confidence=float(t["confidence"]),
                    center=(float(t["center"][0]), float(t["center"][1])),
                    corners=tuple((float(x), float(y)) for x, y in t.get("corners", ())),
                    alternatives=tuple((str(c), float(p)) for c, p in t.get("alternatives", ())),
                )
                for t in data["tiles"]
            )
            sets = tuple(tuple(int(i) for i in s["tiles"]) for s in data.get("sets", ()))
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise EventDataError(f"not a table reading: {error!r}") from None
        for s in sets:
            for i in s:
                if not 0 <= i < len(tiles):
                    raise EventDataError(f"a set names tile {i!r} but the reading has {len(tiles)} tiles")
        profile = data.get("profile")
        if profile is not None and not isinstance(profile, str):
            raise EventDataError(f"a reading's profile must be text, got {profile!r}")
        area = data.get("area")
        if area is not None:
            try:
                area = tuple((float(x), float(y)) for x, y in area)
            except (TypeError, ValueError):
                raise EventDataError(f"a reading's area is four corners [x, y], got {area!r}") from None
            if len(area) != 4:
                raise EventDataError(f"a reading's area is four corners [x, y], got {data.get('area')!r}")
        return TableReading(tiles, sets, tuple(data.get("warnings", ())), int(data.get("width", 0)),
                            int(data.get("height", 0)), profile, area)


def tile_width(reading: TableReading) -> float:
    """The reading's median tile width in pixels (40 when no tile's corners tell it): the yardstick of
    every distance the game flow measures on a table (fusing frames, rebuilding, matching tiles)."""
    widths = [w for w in (t.width for t in reading.tiles) if w]
    return statistics.median(widths) if widths else 40.0
