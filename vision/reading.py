"""What a read returns: the tiles, the sets they form, and warnings; frozen values."""
from __future__ import annotations

from dataclasses import dataclass


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
    tiles: tuple[int, ...]  # indices into TableReading.tiles, in the set's reading order
    codes: tuple[str, ...]

    def to_json_dict(self) -> dict:
        return {"tiles": list(self.tiles), "codes": list(self.codes)}


@dataclass(frozen=True)
class TableReading:
    width: int
    height: int
    tiles: tuple[TileReading, ...]
    sets: tuple[SetReading, ...]  # two or more tiles side by side; a lone tile is in `tiles` only
    warnings: tuple[str, ...]

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
        }
