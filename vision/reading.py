"""What a read returns: the tiles, the sets they form, and warnings; frozen values."""
from __future__ import annotations

from dataclasses import dataclass

from .area import PlayArea


@dataclass(frozen=True)
class TileReading:
    code: str  # "R5", "K13", "J"
    confidence: float  # 0..1: P(a tile) x P(this code)
    center: tuple[float, float]  # image pixels
    corners: tuple[tuple[float, float], ...]  # 4 points: top-left, top-right, bottom-right, bottom-left of the upright face
    alternatives: tuple[tuple[str, float], ...]  # runner-up codes with their probabilities, best first

    def to_json_dict(self) -> dict:
        return {
            "code": self.code,
            "confidence": round(self.confidence, 4),
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "alternatives": [[code, round(p, 4)] for code, p in self.alternatives],
        }


@dataclass(frozen=True)
class SetReading:
    tiles: tuple[int, ...]  # indices into FrameReading.tiles, in the set's reading order
    codes: tuple[str, ...]

    def to_json_dict(self) -> dict:
        return {"tiles": list(self.tiles), "codes": list(self.codes)}


@dataclass(frozen=True)
class EdgeTile:
    """A tile lying across the play area's edge: named so that it is moved, never read."""

    side: str  # "left", "top", "right", "bottom": the area's side it lies across
    center: tuple[float, float]  # image pixels
    at_image_border: bool = False  # that side is the image's own border: the photo, not the table, cuts the tile

    def describe(self) -> str:
        where = f"({self.center[0]:.0f}, {self.center[1]:.0f})"
        if self.at_image_border:
            return (f"the tile at {where} is cut by the image's {self.side} border and not read: "
                    f"move it, or the camera, so that it lies whole in view")
        return f"move the tile at the {self.side} edge inside the table (at {where})"

    def to_json_dict(self) -> dict:
        return {"side": self.side, "center": list(self.center), "at_image_border": self.at_image_border,
                "message": self.describe()}


@dataclass(frozen=True)
class FrameReading:
    """What the reader saw on one frame, in that frame's pixels (the game keeps its own
    `TableReading`, made from one or several of these)."""

    width: int
    height: int
    tiles: tuple[TileReading, ...]
    sets: tuple[SetReading, ...]  # two or more tiles side by side; a lone tile is in `tiles` only
    warnings: tuple[str, ...]
    area: PlayArea | None = None  # the play area read (vision/area.py); None: the whole frame
    edge_tiles: tuple[EdgeTile, ...] = ()  # tiles across the area's edge, not read

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]

    def to_json_dict(self, image_path: str | None = None) -> dict:
        return {
            "image": None if image_path is None else str(image_path),
            "width": self.width,
            "height": self.height,
            "tiles": [t.to_json_dict() for t in self.tiles],
            "sets": [s.to_json_dict() for s in self.sets],
            "warnings": list(self.warnings),
            "area": None if self.area is None else self.area.to_json_dict(),
            "edge_tiles": [t.to_json_dict() for t in self.edge_tiles],
        }
