"""The eyes: when may the table be judged? Frames with their times go in; "moving", "covered at
<where>", "read these frames" and "settled look" come out.

No camera, clock, box or database inside: whoever drives the eyes feeds them timed frames (a
live camera, a video file, a test's sequence) and reads the frames they ask for. The occluder
net is handed in (by default the shipped one, `vision.occluders.find_occluders`).

A look is settled when every frame it rests on passes every check:

* still: the frames offered span at least `still_seconds` of timestamps, with no cell changing by
  more than `still_level` between consecutive frames, nor between the first and the last;
* the occluder net sees nothing over the table on each of them (against the reference, when
  there is one, so what lay there before does not count);
* the border: a thin band along the frame's edge is as it was in the reference (light matched,
  so a lamp is not a hand), except where a tile is read now or was before. Whatever else changed
  there reaches in from that edge and has not left (`explain`). With no reference (a game's
  first wait) the band is compared with the wait's first frame; a band that differs is taken as
  cleared only when the net saw something at that edge in the first frame and sees nothing there
  now;
* every change against the reference lies on a tile read now or before (`explain`): a phone put
  down, or a hand the net missed, changes cells no tile explains.

Nothing is ever adopted into the table by waiting: covered for `ask_after_seconds`, the answer
says `ask_arbiter`, and only `accept` (the arbiter's decision) makes the frame the reference.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .eyes_cells import band_mask, edges_of, tiles_mask, where_of
from .eyes_values import (
    Covered, EyesSettings, Look, Moving, ReadFrames, Reference, SettledLook, TileOutline, TimedFrame,
)
from .stillness import colour_cells, grey_of, matched_difference

__all__ = ["Covered", "Eyes", "EyesSettings", "Look", "Moving", "ReadFrames", "Reference", "SettledLook",
           "TileOutline", "TimedFrame"]

Net = Callable[[np.ndarray, "np.ndarray | None"], object]  # (frame, reference or None) -> vision.occluders.Occluders


def shipped_net(frame: np.ndarray, reference: np.ndarray | None):
    from .occluders import find_occluders

    return find_occluders(frame, reference)


def _net_edges(seen) -> set[str]:
    return {edge for region in seen.regions for edge in region.edges}


def _net_where(seen) -> str:
    return "; ".join(dict.fromkeys(region.where for region in seen.regions))


class Eyes:
    def __init__(self, settings: EyesSettings = EyesSettings(), occluders: Net | None = None) -> None:
        self.settings = settings
        self.occluders = occluders or shipped_net
        self.begin(float("-inf"), None)

    # ------------------------------------------------------------------ a wait

    def begin(self, at: float, reference: Reference | None) -> None:
        """A new wait (after a press, at a game's start, after a resume): only frames at or after `at` count."""
        self.started = at
        self.reference = reference
        self._previous: np.ndarray | None = None
        self._run: list[tuple[TimedFrame, np.ndarray]] = []  # the still frames since the last motion
        self._covered_since: float | None = None
        # what the border band is compared with: the reference, else the wait's first frame
        self._base: tuple[TimedFrame, np.ndarray] | None = None
        self._base_net = None  # the net's view of a base that is no reference (asked when needed)
        self._exempt: np.ndarray | None = None  # cells the reference's tiles explain
        if reference is not None:
            cells = colour_cells(reference.image)
            self._base = (TimedFrame(reference.image, at), cells)
            self._exempt = self._tiles(reference.tiles, reference.image, cells.shape[:2])

    def feed(self, frame: TimedFrame) -> Look:
        s = self.settings
        if frame.at < self.started:
            return Moving(frame.at, "before the wait")
        now = colour_cells(frame.image)  # the band and the changes are compared in colour, motion in grey
        grey = grey_of(now)
        previous, self._previous = self._previous, grey
        if self._base is None:
            self._base = (frame, now)
        if previous is None or previous.shape != grey.shape:
            self._run = [(frame, grey)]
            return Moving(frame.at, "")
        moved = np.abs(grey - previous) > s.still_level
        if moved.any():
            self._run = [(frame, grey)]
            return Moving(frame.at, where_of(moved, s.edge_cells))
        self._run.append((frame, grey))
        while len(self._run) > 1 and np.abs(self._run[0][1] - grey).max() > s.still_level:
            self._run.pop(0)  # a slow drift: the still span starts after it
        still_for = frame.at - self._run[0][0].at
        if still_for < s.still_seconds:
            return Moving(frame.at, "", still_for)
        if self.reference is None and (edges := self._border_changed(now)):
            self._left(frame, now, edges)  # the band may be cleared of what was there when the wait began
        frames = self._spread()
        self._run = [(frame, grey)]  # whatever the reading shows, the next offer rests on frames yet to come
        reference = self.reference.image if self.reference is not None else None
        for offered in frames:
            seen = self.occluders(offered.image, reference)
            if not seen.clear:
                return self._covered(frame.at, _net_where(seen), "the occluder net")
        return ReadFrames(frames)

    def explain(self, frames: tuple[TimedFrame, ...], tiles: tuple[tuple[TileOutline, ...], ...]) -> SettledLook | Covered:
        """Whether the offered frames, read, may be judged: `tiles` holds the outlines read on each frame."""
        s = self.settings
        if len(frames) != len(tiles):
            raise ValueError(f"explain: {len(frames)} frames but {len(tiles)} tile lists")
        reference = None if self.reference is None else colour_cells(self.reference.image)
        for frame, outlines in zip(frames, tiles):
            now = colour_cells(frame.image)
            exempt = self._tiles(outlines, frame.image, now.shape[:2])
            edges = self._border_changed(now, exempt)
            if edges:
                return self._covered(frame.at, _edge_words(edges), _entered(edges))
            if reference is None:
                continue
            changed = (matched_difference(now, reference) > s.change_level) & ~exempt
            if self._exempt is not None and self._exempt.shape == changed.shape:
                changed &= ~self._exempt
            if changed.mean() > s.least_unexplained_share:
                return self._covered(frame.at, where_of(changed, s.edge_cells), "a change no tile explains")
        span = frames[-1].at - frames[0].at
        checks = (f"still for {span:.2f} s over {len(frames)} frames",
                  "the occluder net saw nothing over the table on each frame",
                  "the border as in the last settled table" if reference is not None else
                  "the border as when the wait began")
        if reference is not None:
            checks += ("every change since the last settled table lies on a tile",)
        return SettledLook(tuple(frames), checks)

    def accept(self, frame: TimedFrame) -> Reference:
        """The arbiter accepts the table as seen: it becomes the reference, and the wait starts afresh."""
        tiles = self.reference.tiles if self.reference is not None else ()
        reference = Reference(frame.image, tiles)
        self.begin(frame.at, reference)
        return reference

    # --------------------------------------------------------------- checks

    def _tiles(self, outlines, image: np.ndarray, grid: tuple[int, int]) -> np.ndarray:
        return tiles_mask(outlines, image.shape[:2], grid, self.settings.tile_margin_cells)

    def _border_changed(self, now: np.ndarray, exempt: np.ndarray | None = None) -> tuple[str, ...]:
        """The edges whose band differs from the base's (cells of tiles read excepted)."""
        s = self.settings
        assert self._base is not None
        changed = (matched_difference(now, self._base[1]) > s.change_level) & band_mask(now.shape[:2], s.edge_cells)
        for known in (exempt, self._exempt):
            if known is not None and known.shape == changed.shape:
                changed &= ~known
        return edges_of(changed, s.edge_cells)

    def _left(self, frame: TimedFrame, now: np.ndarray, edges: tuple[str, ...]) -> bool:
        """No reference: the band differs from the wait's first frame. It was something leaving (and the
        band is clear now: it becomes the base) only if the net saw something at those edges then and
        sees nothing there now."""
        assert self._base is not None
        if self._base_net is None:
            self._base_net = self.occluders(self._base[0].image, None)
        if not set(edges) <= _net_edges(self._base_net):
            return False  # the band was clear when the wait began: something entered
        seen = self.occluders(frame.image, None)
        if set(edges) & _net_edges(seen):
            return False
        self._base, self._base_net = (frame, now), seen
        return True

    def _spread(self) -> tuple[TimedFrame, ...]:
        """`look_frames` frames of the still run, spread evenly over its time (the first and the last included)."""
        count = max(1, self.settings.look_frames)
        run = [frame for frame, _ in self._run]
        if len(run) <= count:
            return tuple(run)
        first, last = run[0].at, run[-1].at
        picked: list[int] = []
        for k in range(count):
            target = first + (last - first) * k / max(1, count - 1)
            index = min(range(len(run)), key=lambda i: abs(run[i].at - target))
            if index not in picked:
                picked.append(index)
        return tuple(run[i] for i in sorted(picked))

    def _covered(self, at: float, where: str, reason: str) -> Covered:
        if self._covered_since is None:
            self._covered_since = at
        since = self._covered_since
        return Covered(at, where, since, reason, at - since >= self.settings.ask_after_seconds)


def _edge_words(edges: tuple[str, ...]) -> str:
    return " and ".join(edges) + (" edges" if len(edges) > 1 else " edge")


def _entered(edges: tuple[str, ...]) -> str:
    return f"entered at the {_edge_words(edges)} and has not left"
