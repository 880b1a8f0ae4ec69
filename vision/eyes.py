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
  there reaches in from that edge and has not left (`explain`). The band is watched twice: at
  the eyes' cells, and at fine cells (vision.eyes_border, 8 x 16 pixels at 1080p) where the last
  fingertips of a hand leaving still show. Motion in the fine band is motion, and the frames
  offered begin `border_margin_seconds` after the last of it; every frame of the still span must
  show the fine band as in the reference (for a reference known clear only at its border,
  `Reference.border_only`, the table a game began on: this check and no more). With no reference
  (the clear table a fresh game settles on first, a resume with no settled photo) the band is
  compared with the wait's first frame; a
  band that differs is taken as cleared only when the net saw something at that edge in the first
  frame and sees nothing there now;
* every change against the reference lies on a tile read now (and around it only if it was moved
  or laid), or on a tile of the reference that is still accounted for: half covered by a tile
  read now, or taken away leaving bare table (vision.eyes_tiles), or looking as it did on the
  table before the reference (`Reference.earlier`: a restore's turn start, so tiles taken back
  leave the wood as it was). A phone put down, a phone over part of an old tile, or a hand the
  net missed change cells no tile explains.

With the play area marked (`watch_area`: the referee's four corners), only the play area is the
table: a region the net finds that reaches no more than a cell into it (the tile box lying against
the table's edge, its lid, a player drawing a tile) and changes on cells whose centre lies outside
it (tiles taken from the box) hold nothing up. The border band is watched as ever: a hand
reaching in from beyond the frame still crosses it.

While a still run grows, the eyes name the frames a look would rest on were it to hold
(`Moving.worth_reading`: its first, then its middle), so they can be read before the run is long
enough; the look then rests on them, and the net is asked once about each frame of a wait.

Nothing is ever adopted into the table by waiting: covered for `ask_after_seconds`, the answer
says `ask_arbiter`, and only `accept` (the arbiter's decision) makes the frame the reference.

The eyes may also watch the table before a wait begins (`watch`: a turn under way). A player
lifts the hand, then presses the button, so the table has often been still for longer than
`still_seconds` at the press: the still run watched up to the press carries into the wait
(`begin(..., carry=True)`), and the frames it offers (`ReadAhead`, clear to the net) may be read
ahead. They are offered for the wait only once a frame at or after the press shows the table
still since them; any motion before (or at) the press starts the run afresh, as in any wait.
"""
from __future__ import annotations

import dataclasses
import enum
from typing import Callable

import cv2
import numpy as np

from .eyes_border import border_cells, border_edges, border_grid, tiles_on_border
from .eyes_cells import band_mask, cell_centres, edges_of, tiles_mask, where_of
from .eyes_tiles import explained_by_reference, explained_by_tiles_read, laid_anew, table_under_tiles
from .eyes_values import (
    Covered, EyesAnswer, EyesSettings, Moving, ReadAhead, ReadFrames, Reference, SettledLook, TileOutline, TimedFrame,
)
from .stillness import (
    CELL, UNCLIPPED, WORK_WIDTH, cells_of_small, grey_of, light_change, light_fit, matched_difference, small_colour,
)

__all__ = ["Covered", "Eyes", "EyesAnswer", "EyesSettings", "FeedMode", "Moving", "ReadAhead", "ReadFrames", "Reference",
           "SettledLook", "TileOutline", "TimedFrame"]

CELLS_ACROSS = WORK_WIDTH / CELL  # the eyes' cells across a frame's width (40)
Net = Callable[[np.ndarray, "np.ndarray | None"], object]  # (frame, reference or None) -> vision.occluders.Occluders


def shipped_net(frame: np.ndarray, reference: np.ndarray | None):
    from .occluders import find_occluders

    return find_occluders(frame, reference)


def _net_edges(seen) -> set[str]:
    return {edge for region in seen.regions for edge in region.edges}


def _net_where(seen) -> str:
    return "; ".join(dict.fromkeys(region.where for region in seen.regions))


class FeedMode(enum.Enum):
    """What the frames fed are for."""

    WAITING = "waiting"  # a wait (`begin`): still frames are offered for a verdict (`ReadFrames`)
    WATCHING = "watching"  # a turn under way (`watch`): still frames are offered only to read ahead (`ReadAhead`)


class Eyes:
    def __init__(self, settings: EyesSettings = EyesSettings(), occluders: Net | None = None) -> None:
        self.settings = settings
        self.occluders = occluders or shipped_net
        self.mode = FeedMode.WAITING
        self.area: tuple[tuple[tuple[float, float], ...], tuple[int, int]] | None = None
        self._area_pixels_of: dict[tuple[int, int], np.ndarray] = {}  # the area's raster, per frame size
        self._area_cells: dict[tuple, np.ndarray] = {}  # its cells, per frame size and grid
        self.begin(float("-inf"), None)

    @property
    def _watching(self) -> bool:
        return self.mode is FeedMode.WATCHING

    def watch_area(self, corners, size: tuple[int, int] | None = None) -> None:
        """Watch only the play area: `corners` in the pixels of a frame `size` (width, height) wide, scaled
        to each frame fed; None: the whole frame."""
        area = None if corners is None else (tuple((float(x), float(y)) for x, y in corners), size)
        if area is not None and len(area[0]) < 3:
            raise ValueError(f"watch_area: a play area needs at least three corners, got {corners!r}")
        if area != self.area:
            self.area, self._area_pixels_of, self._area_cells = area, {}, {}

    def _area_pixels(self, image_shape: tuple[int, ...]) -> np.ndarray | None:
        """1 on the frame's pixels inside the play area (its corners scaled to the frame); None: no area."""
        if self.area is None:
            return None
        fh, fw = image_shape[:2]
        if (fh, fw) not in self._area_pixels_of:
            corners, size = self.area
            sx, sy = (fw / size[0], fh / size[1]) if size else (1.0, 1.0)
            canvas = np.zeros((fh, fw), np.uint8)
            cv2.fillPoly(canvas, [np.round([(x * sx, y * sy) for x, y in corners]).astype(np.int32)], 1)
            self._area_pixels_of[(fh, fw)] = canvas
        return self._area_pixels_of[(fh, fw)]

    def _in_area(self, image_shape: tuple[int, ...], grid: tuple[int, int]) -> np.ndarray | None:
        """The cells (on `grid`) whose centre lies in the play area; None: no area marked."""
        pixels = self._area_pixels(image_shape)
        if pixels is None:
            return None
        key = (image_shape[:2], grid)
        if key not in self._area_cells:
            self._area_cells[key] = cell_centres(pixels, grid).astype(bool)
        return self._area_cells[key]

    def _net(self, image: np.ndarray, reference: np.ndarray | None):
        """The net's finds on a frame, less those that reach no further than a cell into the play area:
        the net's boxes come in steps of its own coarse cells, so a tile box lying against the table's
        edge seems to touch it."""
        seen = self.occluders(image, reference)
        area = None if seen.clear else self._area_pixels(image.shape)
        if area is None:
            return seen
        step = CELL * image.shape[1] / float(WORK_WIDTH)  # one of the eyes' cells (no smaller than the net's)

        def reaches_in(box) -> bool:
            inner = (box[0] + step, box[1] + step, box[2] - step, box[3] - step)
            x0, y0, x1, y1 = (max(int(round(v)), 0) for v in inner)
            return x1 > x0 and y1 > y0 and bool(area[y0:y1, x0:x1].any())

        kept = tuple(region for region in seen.regions if reaches_in(region.box))
        return seen if len(kept) == len(seen.regions) else dataclasses.replace(seen, regions=kept)

    # ------------------------------------------------------------------ a wait

    def begin(self, at: float, reference: Reference | None, carry: bool = False) -> None:
        """A new wait (after a press, at a game's start, after a resume): only frames at or after `at` count.
        With `carry`, after `watch` against the same reference, the still run watched up to `at` carries
        into the wait; a look resting on it is offered once a frame at or after `at` shows it still."""
        carried = carry and self.mode is FeedMode.WATCHING and reference is self.reference
        self.mode = FeedMode.WAITING
        if carried:
            self.started, self._covered_since = at, None
            return
        # while watching: None, nothing offered yet; (), the net saw something (nothing more is offered until
        # the table moves); else the frames offered to read ahead, which a wait begun with `carry` offers
        self._ahead: tuple[TimedFrame, ...] | None = None
        self._folded: np.ndarray | None = None  # fine border cells changed on watched frames let go of
        self.started = at
        self.reference = reference
        self._previous: np.ndarray | None = None
        self._run: list[tuple[TimedFrame, np.ndarray, np.ndarray, np.ndarray]] = []  # the still frames since the last motion
        self._covered_since: float | None = None
        self._early: tuple[TimedFrame, ...] = ()  # frames of the still run named worth reading early
        self._seen: dict[float, tuple[np.ndarray, object]] = {}  # the net's finds on the run's frames, by time
        # what the border band is compared with: the reference, else the wait's first frame
        self._base: tuple[TimedFrame, np.ndarray] | None = None
        self._base_small: np.ndarray | None = None  # the base's small copy (vision.stillness.small_colour)
        self._earlier_small: np.ndarray | None = None  # the small copy of the reference's `earlier` table
        self._bare_small: np.ndarray | None = None  # the small copy of the reference's `bare` table
        self._base_net = None  # the net's view of a base that is no reference (asked when needed)
        self._exempt: np.ndarray | None = None  # cells the reference's tiles may explain
        self._bare_table: np.ndarray | None = None  # the reference's cells as bare table, its tiles taken away
        self._base_band: np.ndarray | None = None  # the fine border cells the band is compared with
        self._previous_band: np.ndarray | None = None
        self._border_moved_at = float("-inf")  # the last motion in the fine border band
        self._offered_band: np.ndarray | None = None  # fine border cells changed on any frame of the offer's span
        self._doubted: dict[float, object] = {}  # the net's finds on offered frames, by time, that their tiles may explain
        if reference is not None:
            small = small_colour(reference.image)
            cells = cells_of_small(small)
            self._base, self._base_small = (TimedFrame(reference.image, at), cells), small
            if reference.earlier is not None and reference.earlier.shape == reference.image.shape:
                self._earlier_small = small_colour(reference.earlier)
            if reference.bare is not None and reference.bare.shape == reference.image.shape:
                self._bare_small = small_colour(reference.bare)
            self._exempt = self._tiles(reference.tiles, reference.image, cells.shape[:2])
            self._bare_table = table_under_tiles(cells, self._tiles(reference.tiles, reference.image, cells.shape[:2], 0))
            self._base_band = border_cells(reference.image)

    def watch(self, since: float, reference: Reference | None) -> None:
        """Watch the table before a wait begins (a turn under way): frames at or after `since` build the
        still run, and once it spans `still_seconds` its frames are offered once to read ahead
        (`ReadAhead`); nothing is offered for a verdict until `begin(..., carry=True)`."""
        self.begin(since, reference)
        self.mode = FeedMode.WATCHING

    def feed(self, frame: TimedFrame) -> EyesAnswer:
        s = self.settings
        if frame.at < self.started:
            return Moving(frame.at, "before the wait")
        small = small_colour(frame.image)
        now = cells_of_small(small)  # the band and the changes are compared in colour, motion in grey
        grey = grey_of(now)
        band = border_cells(frame.image)
        previous, self._previous = self._previous, grey
        previous_band, self._previous_band = self._previous_band, band
        if self._base is None:
            self._base, self._base_small = (frame, now), small
        if self._base_band is None or self._base_band.shape != band.shape:
            self._base_band = band
        if previous is None or previous.shape != grey.shape or previous_band is None or previous_band.shape != band.shape:
            self._run = [(frame, grey, band, now)]
            return Moving(frame.at, "")
        moved = np.abs(grey - previous) > s.still_level
        band_moved = np.abs(grey_of(band) - grey_of(previous_band)) > s.still_level
        if band_moved.any():
            self._border_moved_at = frame.at
        if moved.any() or band_moved.any():
            self._run, self._ahead, self._folded = [(frame, grey, band, now)], None, None
            where = where_of(moved, s.edge_cells) if moved.any() else _edge_words(
                border_edges(border_grid(frame.image.shape[:2]), band_moved))
            return Moving(frame.at, where)
        self._run.append((frame, grey, band, now))
        while len(self._run) > 1 and (np.abs(self._run[0][1] - grey).max() > s.still_level
                                      or self._run[0][0].at < self._border_moved_at + s.border_margin_seconds):
            self._run.pop(0)  # a slow drift, or the first frames after motion at the border: the span starts after
        if self._ahead and self._run[0][0] is not self._ahead[0]:
            self._run, self._ahead, self._folded = self._run[-1:], None, None  # drifted off what was read ahead
        still_for = frame.at - self._run[0][0].at
        if still_for < s.still_seconds:
            return Moving(frame.at, "", still_for, self._worth_reading(still_for))
        if self._watching:
            return self._read_ahead(frame.at, still_for)
        if self.reference is None and (edges := self._border_changed(light_change(small, self._base_small))
                                       or self._band_edges(band, now, frame.image)):
            self._left(frame, now, small, edges)  # the band may be cleared of what was there when the wait began
        frames, ahead = self._spread(), self._ahead
        self._offered_band = self._band_changed([(b, c) for _, _, b, c in self._run])
        if self._offered_band is not None and self._folded is not None:
            self._offered_band |= self._folded
        self._run, self._ahead, self._folded = [(frame, grey, band, now)], None, None  # the next offer rests on frames yet to come
        self._doubted = {}
        if ahead:
            return ReadFrames(ahead)  # watched still up to now, and clear to the net against this reference
        reference = self.reference.image if self.reference is not None else None
        doubted = {}
        for offered in frames:
            seen = self._net_on(offered, reference)
            if seen.clear:
                continue
            if not self._may_lie_on_tiles(seen):
                return self._covered(frame.at, _net_where(seen), "the occluder net")
            doubted[offered.at] = seen
        self._doubted = doubted
        return ReadFrames(frames)

    def explain(self, frames: tuple[TimedFrame, ...],
                tiles: tuple[tuple[TileOutline, ...] | None, ...]) -> SettledLook | Covered:
        """Whether the offered frames, read, may be judged: `tiles` holds the outlines read on each frame
        (None for a frame not read: a tile of the reference then explains a change only where it left
        bare table, so a wait that reads nothing settles on a table as it lay, or with tiles taken away)."""
        s = self.settings
        if len(frames) != len(tiles):
            raise ValueError(f"explain: {len(frames)} frames but {len(tiles)} tile lists")
        reference = None if self.reference is None else self._base[1]  # the reference's cells
        for frame, outlines in zip(frames, tiles):
            small = small_colour(frame.image)
            now = cells_of_small(small)
            # with a reference, the base is the reference: one comparison serves the border and the rest
            difference = light_change(small, self._base_small)
            exempt = self._read_now(outlines, frame.image, now.shape[:2])
            known = self._known(outlines, frame.image, now, reference)
            backs = tuple(back for back in (self._as_earlier(small), self._as_bare(small))
                          if back is not None and back.shape == difference.shape)
            for back in backs:
                if known is not None and back.shape == known.shape:
                    known = known | back
            edges = self._border_changed(difference, exempt, known)
            if not edges:
                edges = self._fine_border_changed(frame.image, outlines)
            if edges:
                return self._covered(frame.at, _edge_words(edges), _entered(edges))
            seen = self._doubted.get(frame.at)
            if seen is not None and self._new_to_the_table(
                    self._off_tiles(seen, outlines, frame.image, now.shape[:2]), difference,
                    backs + (self._known(outlines, frame.image, now, reference, read_there=False),)):
                return self._covered(frame.at, _net_where(seen), "the occluder net")
            if reference is None or self.reference.border_only:
                continue
            changed = (difference > s.change_level) & ~exempt
            if known is not None and known.shape == changed.shape:
                changed &= ~known
            area = self._in_area(frame.image.shape, changed.shape)
            if area is not None:
                changed &= area
            if changed.mean() > s.least_unexplained_share:
                return self._covered(frame.at, where_of(changed, s.edge_cells), "a change no tile explains")
        span = frames[-1].at - frames[0].at
        checks = (f"still for {span:.2f} s over {len(frames)} frames",
                  "the occluder net saw nothing over the table on each frame",
                  "the border as in the last settled table" if reference is not None else
                  "the border as when the wait began")
        if reference is not None and not self.reference.border_only:
            checks += ("every change since the last settled table lies on a tile",)
        if any(frame.at in self._doubted for frame in frames):
            checks = checks[:1] + ("what the occluder net saw lies on tiles read, away from the border",) + checks[2:]
        return SettledLook(tuple(frames), checks)

    def accept(self, frame: TimedFrame) -> Reference:
        """The arbiter accepts the table as seen: it becomes the reference, and the wait starts afresh."""
        tiles = self.reference.tiles if self.reference is not None else ()
        reference = Reference(frame.image, tiles, bare=self.reference.bare if self.reference is not None else None)
        self.begin(frame.at, reference)
        return reference

    # --------------------------------------------------------------- checks

    def _tiles(self, outlines, image: np.ndarray, grid: tuple[int, int], margin: int | None = None) -> np.ndarray:
        margin = self.settings.tile_margin_cells if margin is None else margin
        return tiles_mask(outlines, image.shape[:2], grid, margin)

    def _read_now(self, outlines, image: np.ndarray, grid: tuple[int, int]) -> np.ndarray:
        """The cells the tiles read on a frame explain (with the stricter rule, a tile lying as it lay
        explains only its own cells)."""
        if not self.settings.outlines_need_a_tile or self.reference is None:
            return self._tiles(outlines or (), image, grid)
        return explained_by_tiles_read(outlines or (), self.reference.tiles, image.shape[:2], grid,
                                       self.settings.tile_margin_cells, self.settings)

    def _known(self, outlines, image: np.ndarray, now: np.ndarray, reference: np.ndarray | None,
               read_there: bool = True) -> np.ndarray | None:
        """The cells the reference's tiles explain on a frame read as `outlines` (None: a frame nobody read,
        where nothing is known to lie on them, so they explain only cells that show bare table again).
        Without `read_there`, only their places that show bare table (`explained_by_reference`): what they
        explain under a find of the net, where a tile read there may be half a tile under a phone."""
        if (not self.settings.outlines_need_a_tile or self.reference is None or reference is None
                or reference.shape != now.shape):
            return self._exempt
        assert self._bare_table is not None
        return explained_by_reference(self.reference.tiles, outlines or (), image.shape[:2], now.shape[:2],
                                      self.settings.tile_margin_cells, now, reference, self._bare_table,
                                      self.settings, read_there)

    def _as_earlier(self, small: np.ndarray) -> np.ndarray | None:
        """The cells of a frame (its small copy) that look as they did on the table before the reference
        (`Reference.earlier`: a restore's turn start): a tile taken back leaves the wood as it was,
        whatever its grain. An object put down differs from both tables, so nothing over the table is
        explained so."""
        if self._earlier_small is None or self._earlier_small.shape != small.shape:
            return None
        return light_change(small, self._earlier_small) <= self.settings.change_level

    def _may_lie_on_tiles(self, seen) -> bool:
        """Whether the net's finds on a frame may yet be explained by the tiles read on it: none reaches a frame edge."""
        return self.settings.net_finds_on_tiles_read and all(not region.edges for region in seen.regions)

    def _off_tiles(self, seen, outlines, image: np.ndarray, grid: tuple[int, int]) -> np.ndarray:
        """The cells inside the net's finds on a frame (their boxes) that no tile read on it covers: a tile
        laid anew with its margin (a fresh tile, blurred, is what the net mistakes for a hand), a tile read
        where an old one lay only its own cells (what covers the rest of an old tile is no part of it)."""
        size = CELL * image.shape[1] / float(WORK_WIDTH)  # a cell's side in frame pixels
        ys, xs = (np.arange(grid[0]) + 0.5) * size, (np.arange(grid[1]) + 0.5) * size
        found = np.zeros(grid, bool)
        for region in seen.regions:
            x0, y0, x1, y1 = region.box
            found |= np.outer((ys >= y0) & (ys < y1), (xs >= x0) & (xs < x1))
        if self.reference is None or not self.settings.net_finds_on_unchanged_table:
            return found & ~self._tiles(outlines or (), image, grid)
        return found & ~(self._tiles(outlines or (), image, grid, 0)
                         | self._tiles(laid_anew(outlines, self.reference.tiles, self.settings), image, grid))

    def _new_to_the_table(self, cells: np.ndarray, difference: np.ndarray, explained) -> bool:
        """Whether `cells` (a net's find, off the tiles read) may show something new over the table. With a
        settled table to compare with (the reference), a cell that looks as it did there, light matched, or
        whose change the reference's tiles explain as the change check does (`explained`: taken away leaving
        bare table, looking as the table before it or the bare top did), shows nothing put there since; the
        few cells a change check lets pass (`least_unexplained_share`: a cell half on a tile taken away, half
        on one that stayed) are let pass here too, down to half as many (`net_least_unexplained_share`). A
        hand is changed against every table it was not on, and is no bare table, over many cells; with no
        reference the wait's first frame may hold the hand itself, so every cell counts."""
        s = self.settings
        if self.reference is None or not s.net_finds_on_unchanged_table or difference.shape != cells.shape:
            return bool(cells.any())
        new = cells & (difference > s.change_level)
        for mask in explained:
            if mask is not None and mask.shape == new.shape:
                new &= ~mask
        return new.mean() > s.net_least_unexplained_share

    def _as_bare(self, small: np.ndarray) -> np.ndarray | None:
        """The cells of a frame that look as they did on the bare table the game began on (`Reference.bare`):
        bare table, whatever lay there since. Nothing put down, and no hand, looks as the bare top did."""
        if self._bare_small is None or self._bare_small.shape != small.shape:
            return None
        return light_change(small, self._bare_small) <= self.settings.change_level

    def _border_changed(self, difference: np.ndarray, exempt: np.ndarray | None = None,
                        known: np.ndarray | None = None) -> tuple[str, ...]:
        """The edges whose band differs from the base's by `difference` (a frame's `light_change` from
        the base; cells of tiles read, and of the reference's tiles still accounted for (`known`),
        excepted)."""
        s = self.settings
        changed = (difference > s.change_level) & band_mask(difference.shape, s.edge_cells)
        for mask in (exempt, known if known is not None else self._exempt):
            if mask is not None and mask.shape == changed.shape:
                changed &= ~mask
        return edges_of(changed, s.edge_cells)

    def _band_changed(self, bands: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray | None:
        """The fine border cells that differ from the base's on any of `bands` (each with its frame's
        colour cells), with the light matched two ways: over the band's cells, and by showing the
        base's band pixels under the frame's light (fitted over the whole frame's unclipped cells)
        clipped as the camera clips. A band of even table spans too few grey levels to fit a lamp's
        gain by, and a near-white edge saturates under a brighter lamp. A hand differs either way."""
        base = self._base_band
        if base is None or not bands or self._base is None:
            return None
        changed = np.zeros(len(base), bool)
        shown = None
        for band, cells in reversed(bands):  # the still span's light is the last frame's
            if band.shape != base.shape or cells.shape != self._base[1].shape:
                continue
            if shown is None:
                gain, offset = light_fit(self._base[1], cells, below=UNCLIPPED)  # the base into this light
                shown = border_cells(self._base[0].image, (gain, offset))
            over_frame = np.abs(band - shown).max(axis=-1)
            over_band = matched_difference(band[:, None], base[:, None])[:, 0]
            changed |= np.minimum(over_frame, over_band) > self.settings.border_level
        return changed

    def _band_edges(self, band: np.ndarray, now: np.ndarray, image: np.ndarray) -> tuple[str, ...]:
        changed = self._band_changed([(band, now)])
        if changed is None or not changed.any():
            return ()
        return border_edges(border_grid(image.shape[:2]), changed)

    def _fine_border_changed(self, image: np.ndarray, outlines) -> tuple[str, ...]:
        """The edges where a fine border cell changed over the offer's still span and no tile explains it."""
        changed = self._offered_band
        if changed is None or not changed.any():
            return ()
        grid = border_grid(image.shape[:2])
        if len(changed) != len(grid.boxes):
            return ()
        margin = self.settings.tile_margin_cells * image.shape[1] / CELLS_ACROSS  # as the eyes' cells' margin, in pixels
        changed = changed & ~tiles_on_border(grid, outlines or (), margin)
        if self.reference is not None and self.reference.tiles:
            changed &= ~tiles_on_border(grid, self.reference.tiles, margin)
        return border_edges(grid, changed)

    def _left(self, frame: TimedFrame, now: np.ndarray, small: np.ndarray, edges: tuple[str, ...]) -> bool:
        """No reference: the band differs from the wait's first frame. It was something leaving (and the
        band is clear now: it becomes the base) only if the net saw something at those edges then and
        sees nothing there now."""
        assert self._base is not None
        if self._base_net is None:
            self._base_net = self._net(self._base[0].image, None)
        if not set(edges) <= _net_edges(self._base_net):
            return False  # the band was clear when the wait began: something entered
        seen = self._net(frame.image, None)
        if set(edges) & _net_edges(seen):
            return False
        self._base, self._base_net, self._base_small = (frame, now), seen, small
        self._base_band = border_cells(frame.image)
        return True

    def _read_ahead(self, at: float, still_for: float) -> EyesAnswer:
        """While watching: the frames a wait begun now would rest on, offered once to read ahead when the net
        sees nothing over them. Afterwards the run keeps only them and the newest frame (a turn may be
        still for minutes): what the fine border showed on the frames let go of is folded in."""
        if self._ahead is None:
            frames = self._spread()
            reference = self.reference.image if self.reference is not None else None
            if all(self._net_on(offered, reference).clear for offered in frames):
                self._ahead = frames
                self._folded = self._band_changed([(b, c) for _, _, b, c in self._run])
                self._run = [entry for entry in self._run if any(entry[0] is f for f in frames) or entry is self._run[-1]]
                return ReadAhead(frames)
            self._ahead = ()  # the net saw something: nothing more is read ahead until the table moves
        if not self._ahead:
            self._run = self._run[-1:]  # kept short: a look after the press rests on little from before it
            return Moving(at, "", still_for)
        newest = self._run[-1]
        for entry in self._run[len(self._ahead):-1]:  # the newest but one: let go of, its border kept
            changed = self._band_changed([entry[2:]])
            if changed is not None and self._folded is not None and changed.shape == self._folded.shape:
                self._folded |= changed
        self._run = self._run[: len(self._ahead)] + [newest]
        return Moving(at, "", still_for)

    def _worth_reading(self, still_for: float) -> tuple[TimedFrame, ...]:
        """The frames of a growing still run a look would rest on were it to hold: its first once it has
        been still `read_early_seconds`, and its middle once it spans half of `still_seconds`; none while
        watching (the table is read ahead then) or while the net sees something over them."""
        s = self.settings
        if self._watching or still_for < s.read_early_seconds or len(self._run) < 2:
            return ()
        first = self._run[0][0]
        worth = [first]
        # the first frame at or after the middle: a live camera that let frames go by while one was read
        # hands over a later frame next, which then stands in for the middle (see `_spread`)
        middle = next((entry[0] for entry in self._run[1:] if entry[0].at >= first.at + s.still_seconds / 2), None)
        if middle is not None:
            worth.append(middle)
        reference = self.reference.image if self.reference is not None else None
        if not all(self._net_on(f, reference).clear for f in worth):
            return ()
        self._early = tuple(worth)
        return self._early

    def _net_on(self, frame: TimedFrame, reference: np.ndarray | None):
        """The net's finds on a frame of the still run, asked once per frame in a wait."""
        known = self._seen.get(frame.at)
        if known is not None and known[0] is frame.image:
            return known[1]
        seen = self._net(frame.image, reference)
        if len(self._seen) > self.settings.net_memory_looks * max(1, self.settings.look_frames):
            oldest = self._run[0][0].at if self._run else frame.at
            self._seen = {at: entry for at, entry in self._seen.items() if at >= oldest}
        self._seen[frame.at] = (frame.image, seen)
        return seen

    def _spread(self) -> tuple[TimedFrame, ...]:
        """`look_frames` frames of the still run, spread evenly over its time (the first and the last
        included); between them a frame named worth reading early stands in for the one nearest its
        place when it lies within a quarter of the span of it."""
        count = max(1, self.settings.look_frames)
        run = [frame for frame, *_ in self._run]
        if len(run) <= count:
            return tuple(run)
        first, last = run[0].at, run[-1].at
        early = [i for i, frame in enumerate(run) if any(frame is named for named in self._early)]
        picked: list[int] = []
        for k in range(count):
            target = first + (last - first) * k / max(1, count - 1)
            near = ([i for i in early if abs(run[i].at - target) <= (last - first) * self.settings.early_stand_in_share]
                    if 0 < k < count - 1 else [])
            index = min(near or range(len(run)), key=lambda i: abs(run[i].at - target))
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
