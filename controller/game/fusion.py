"""One reading of a still table from several frames: a flicker in one frame never reaches the judge.

The reader looks at each frame on its own, so glare or sensor noise can turn a tile's code
in one frame. The table lies still between the frames, so a tile lies in the same place in
each of them:

1. Tiles are matched across frames by position: a tile within `match_radius` tile widths
   of a track (the mean position of the tile so far; one to one, nearest first) is that
   track's tile, else it starts a track of its own.
2. A tile is kept when more than half of the frames see it. A frame that misses it counts
   as absent there: it votes on whether the tile is there, not on its code. With
   `keep_unsure` (a turn's table), a tile fewer frames see is kept as well: the referee,
   not a vote, says whether it lies there.
3. Its code is the one most of the frames that see it read (a strict majority), so a code
   one frame in three reads never survives, however sure that frame was; without a majority
   (two frames that disagree) the code with the highest mean probability. Each code's
   probability is its mean over the frames that see the tile (a frame that does not list a
   code gives it 0), so a tile that flickered is less sure than its frames: rebuilding then
   settles it by the rules or asks the referee, it is not passed on as sure.
4. Its position is the mean of the frames' centres; its corners are one frame's, shifted
   to that centre (corners of different frames need not start at the same one).
5. The sets are those of the anchor, the frame most in agreement with the fused codes. A
   kept tile the anchor missed joins the anchor's set of its neighbour in a frame that saw
   it in a set; without one it lies alone, as a tile in no set does.

6. Every kept tile the frames disagree on (not seen in every frame, or read as different
   codes) is named in `unsure`, with what the frames saw: a vote settles a flicker, but
   where frames disagree the reader is unsteady on that tile, and the referee may be asked.

Fusing a single reading gives that reading back.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, replace
from typing import NamedTuple, Sequence

from .errors import GameError
from .reading import SAME_TILE_RADIUS, ReadTile, TableReading, tile_width

@dataclass(frozen=True)
class FusionSettings:
    match_radius: float = SAME_TILE_RADIUS  # how far a still tile may seem to shift between frames
    keep_unsure: bool = False  # keep a tile half the frames or fewer see (unsure), rather than drop it
    # a kept tile some frames of a still look missed lies there when every frame that saw it read the same
    # code, on average at least this sure, and its patch changed since the last settled table
    # (`settle_presence`): the frames show the same pixels, so the frames that missed it are the reader's
    present_confidence: float = 0.85


class Unsure(NamedTuple):
    """A fused tile its frames disagree on."""

    index: int  # into the fused reading's tiles
    seen: int  # frames that saw it
    frames: int  # frames fused
    reads: tuple[str, ...]  # the codes the frames that saw it read, frame by frame

    @property
    def presence(self) -> bool:
        """Some frames saw no tile there."""
        return self.seen < self.frames

    def describe(self) -> str:
        read = ", ".join(self.reads)
        if self.presence:
            return f"seen in {self.seen} of {self.frames} frames ({read})"
        return f"read as {read} in {self.frames} frames"


@dataclass(frozen=True)
class Fusion:
    reading: TableReading
    anchor: int  # index of the frame whose sets the fused reading keeps
    disagreements: tuple[str, ...]  # tiles not seen in every frame, or read as different codes
    unsure: tuple[Unsure, ...] = ()  # the kept tiles among them

    @property
    def agree(self) -> bool:
        return not self.disagreements


def fuse_readings(readings: Sequence[TableReading], settings: FusionSettings = FusionSettings()) -> TableReading:
    return fuse(readings, settings).reading


def fuse(readings: Sequence[TableReading], settings: FusionSettings = FusionSettings()) -> Fusion:
    if not readings:
        raise GameError("fusing readings needs at least one reading, got none")
    frames = len(readings)
    tracks = _tracks(readings, settings.match_radius * _width(readings))
    kept = [track for track in tracks if 2 * len(track) > frames or settings.keep_unsure]
    codes = [_pool([readings[f].tiles[i] for f, i in sorted(track.items())]) for track in kept]
    anchor = max(range(frames), key=lambda f: _agreement(f, readings[f], kept, codes))
    reading, index_of = _assemble(readings, anchor, kept, codes)
    unsure = []
    for k, track in enumerate(kept):
        reads = tuple(readings[f].tiles[i].code for f, i in sorted(track.items()))
        if len(track) < frames or len(set(reads)) > 1:
            unsure.append(Unsure(index_of[k], len(track), frames, reads))
    return Fusion(reading, anchor, _disagreements(readings, tracks), tuple(sorted(unsure)))


PRESENT = ": it lies there, read alike in every frame that saw it, where the table changed since the last settled one"


def settle_presence(fusion: Fusion, changed: Sequence[bool], settings: FusionSettings = FusionSettings()) -> Fusion:
    """A still look's fusion with the tiles some frames missed settled as lying there where the reader
    cannot be in doubt of them: every frame that saw the tile read the same code, on average at least
    `present_confidence` sure, and the tile's patch changed since the last settled table (`changed`, one
    flag per tile of the fused reading). The frames of a settled look show the same pixels (the eyes
    saw no motion between them), so a tile is there in all of them or in none; a patch that changed holds
    something new, and what the reader read on it, alike and sure, is there. A tile on an unchanged
    patch, or read as different codes, stays unsure: the referee, not the pixels, says what lies there."""
    if len(changed) != len(fusion.reading.tiles):
        raise ValueError(f"settling presence needs one flag per fused tile, got {len(changed)} flags for "
                         f"{len(fusion.reading.tiles)} tiles")
    kept, warnings = [], list(fusion.reading.warnings)
    for u in fusion.unsure:
        tile = fusion.reading.tiles[u.index]
        if (u.presence and u.seen > 0 and len(set(u.reads)) == 1 and tile.confidence >= settings.present_confidence
                and changed[u.index]):
            warnings.append(f"tile {tile.code} at ({tile.center[0]:.0f}, {tile.center[1]:.0f}) {u.describe()}{PRESENT}")
            continue
        kept.append(u)
    if len(kept) == len(fusion.unsure):
        return fusion
    return replace(fusion, reading=replace(fusion.reading, warnings=tuple(warnings)), unsure=tuple(kept))


def _width(readings: Sequence[TableReading]) -> float:
    return statistics.median(tile_width(r) for r in readings)


def _tracks(readings: Sequence[TableReading], radius: float) -> list[dict[int, int]]:
    """Each track maps frame index -> tile index in that frame."""
    tracks: list[dict[int, int]] = []
    for f, reading in enumerate(readings):
        centres = [_centre(readings, track) for track in tracks]
        pairs = sorted(
            (math.dist(tile.center, centre), t, i)
            for i, tile in enumerate(reading.tiles)
            for t, centre in enumerate(centres)
            if math.dist(tile.center, centre) <= radius
        )
        used_tracks: set[int] = set()
        used_tiles: set[int] = set()
        for _, t, i in pairs:
            if t not in used_tracks and i not in used_tiles:
                used_tracks.add(t)
                used_tiles.add(i)
                tracks[t][f] = i
        tracks.extend({f: i} for i in range(len(reading.tiles)) if i not in used_tiles)
    return tracks


def _centre(readings: Sequence[TableReading], track: dict[int, int]) -> tuple[float, float]:
    points = [readings[f].tiles[i].center for f, i in track.items()]
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def _distribution(tile: ReadTile) -> dict[str, float]:
    probabilities = {tile.code: tile.confidence}
    for code, p in tile.alternatives:
        probabilities[code] = max(p, probabilities.get(code, 0.0))
    return probabilities


def _pool(tiles: list[ReadTile]) -> tuple[str, float, tuple[tuple[str, float], ...]]:
    """(code, confidence, alternatives) from the same tile seen in several frames."""
    distributions = [_distribution(tile) for tile in tiles]
    candidates = list(dict.fromkeys(code for d in distributions for code in d))  # first seen first
    mean = {code: sum(d.get(code, 0.0) for d in distributions) / len(tiles) for code in candidates}
    code, votes = Counter(tile.code for tile in tiles).most_common(1)[0]
    if 2 * votes <= len(tiles):
        code = max(candidates, key=lambda c: mean[c])  # ties: the code seen first
    rest = sorted((c for c in candidates if c != code), key=lambda c: -mean[c])
    keep = max(len(tile.alternatives) for tile in tiles)
    return code, mean[code], tuple((c, mean[c]) for c in rest[:keep])


def _agreement(f: int, reading: TableReading, kept, codes) -> tuple[int, int, int]:
    """Tiles this frame reads as fused, then fewer tiles of its own that were dropped, then the earlier frame."""
    agreeing = sum(1 for track, (code, _, _) in zip(kept, codes) if f in track and reading.tiles[track[f]].code == code)
    dropped = len(reading.tiles) - sum(1 for track in kept if f in track)
    return agreeing, -dropped, -f


def _assemble(readings: Sequence[TableReading], anchor: int, kept, codes) -> tuple[TableReading, dict[int, int]]:
    """The fused reading, and where each kept track lies in it."""
    base = readings[anchor]
    order = sorted((k for k, track in enumerate(kept) if anchor in track), key=lambda k: kept[k][anchor])
    extra = [k for k, track in enumerate(kept) if anchor not in track]
    extra.sort(key=lambda k: tuple(reversed(_centre(readings, kept[k]))))  # top to bottom, left to right
    order += extra
    index_of = {k: n for n, k in enumerate(order)}
    tiles = []
    for k in order:
        track = kept[k]
        x, y = _centre(readings, track)
        f = anchor if anchor in track else min(track)
        own = readings[f].tiles[track[f]]
        dx, dy = x - own.center[0], y - own.center[1]
        code, confidence, alternatives = codes[k]
        tiles.append(ReadTile(code, confidence, (x, y), tuple((cx + dx, cy + dy) for cx, cy in own.corners),
                              alternatives))
    fused_of = {track[anchor]: index_of[k] for k, track in enumerate(kept) if anchor in track}
    sets = [[fused_of[i] for i in members if i in fused_of] for members in base.sets]
    for k in extra:
        _join_neighbour(readings, kept, k, index_of, sets)
    return TableReading(tuple(tiles), tuple(tuple(s) for s in sets if s), base.warnings, base.width, base.height,
                        base.profile, base.area), index_of


def _join_neighbour(readings, kept, k: int, index_of: dict[int, int], sets: list[list[int]]) -> None:
    """Put a tile the anchor missed into the anchor set of its neighbour in a frame that saw both."""
    track_of = {(f, i): t for t, track in enumerate(kept) for f, i in track.items()}
    for f, i in sorted(kept[k].items()):
        for members in readings[f].sets:
            if i not in members:
                continue
            at = members.index(i)
            for neighbour, after in ((members[at - 1] if at else None, True),
                                     (members[at + 1] if at + 1 < len(members) else None, False)):
                t = track_of.get((f, neighbour))
                if neighbour is None or t is None or t not in index_of:
                    continue
                for fused in sets:
                    if index_of[t] in fused:
                        where = fused.index(index_of[t])
                        fused.insert(where + 1 if after else where, index_of[k])
                        return


def _disagreements(readings: Sequence[TableReading], tracks) -> tuple[str, ...]:
    frames = len(readings)
    found = []
    for track in tracks:
        x, y = _centre(readings, track)
        read = [readings[f].tiles[i].code for f, i in sorted(track.items())]
        if len(track) < frames:
            found.append(f"tile at ({x:.0f}, {y:.0f}) seen in {len(track)} of {frames} frames ({', '.join(read)})")
        elif len(set(read)) > 1:
            found.append(f"tile at ({x:.0f}, {y:.0f}) read as {', '.join(read)}")
    return tuple(found)
