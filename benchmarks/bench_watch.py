"""Never judge a table it cannot see: the eyes (vision/eyes.py) over hands, sleeves, phones and cups.

    python -m benchmarks.bench_watch [--sequences 300] [--seed 40] [--fps 30] [--quick] [--only INDEX ...] [--jobs N]
                                     [--save FILE] [--merge FILE ...]

`--save` writes each sequence's outcome and costs to FILE as it ends (one JSON line each), so a
plan can be run in parts (`--only`) at once; `--merge` prints the figures of saved parts together.

Builds `--sequences` waits (benchmarks/watch_scenes.py) from the shared real photos of the
train split: each photo turned landscape, scaled to cover 1920x1080 and cropped in the middle,
at `--fps` timestamps, with occluders of the project's own making sliding in from an edge and
out again (no photographed hand: none that may be credited is available offline). The kinds
take turns: a hand or forearm from each of the four edges, a sleeve in the table's colour, a
phone put down and taken away, a cup left at the table's edge, a hand resting through a resume
(the reference is the clear table, the first frames are covered already), a hand at a game's
first wait, a light change while a hand rests, a hand resting perfectly still (no tremor), and a
hand already over the table as a game's first wait begins. A game's first wait compares with the
table as the game began, clear of tiles (the runner settles on it before the first wait): the
photo with its tiles painted out. `--drop SHARE` loses that share of the frames at random, as a
camera that drops frames does.

The eyes are driven as the runner drives them: `begin(0, reference)`, then every frame to
`feed`; frames it asks to be read go through the real reader (vision.pipeline.read_image, each
tile's four corners as its outline) and back to `explain`; a settled look ends the wait, its
readings steadied and fused with the runner's own functions (controller.table.eyes.steadied,
controller.game.fusion.fuse): on each frame, where a patch is unchanged since the reference, a
tile keeps the reference's code, a missed tile is put back and a tile read on bare table is taken
out (controller.game.steady; the reference is the clear table with its fused reading's outlines
and codes, as the runner's last table judged, or after a resume its `last_judged`), then the
frames' readings are fused. Each frame's truth is
whether an occluder's composited mask covers any of it, and each sequence knows when the last
occluder left. The clear table's reading, per photo, is the fusion of three noisy clear frames.

Printed per kind and overall (targets of the club's test):
- turns judged from a covered frame: a settled look resting on any covered frame (target 0);
- false penalties: the table a verdict would rest on differs from the clear table (target 0). That
  table is the runner's: the look's frames fused keeping the tiles they disagree on as unsure,
  rebuilt on the table before (the clear table, or nothing at a game's first wait) with the rules
  settling what they can, and each doubt left answered by a referee who looks at the photo (the
  clear table's code where one of its tiles lies, else "no tile"). A table that differs from the
  clear reading only where the photo's labels side with it (a labelled tile the clear reading
  misread, read right) is right, not false: where the reader is unsteady on a photo, the clear
  reading itself can be wrong; those on photos whose clear frames already read unsteadily are
  counted apart. Looks that asked the referee, and frames that misread on their own (outvoted, or
  asked about), are counted beside it;
- clear tables judged late: the look's last frame more than 1 s after the last occluder left,
  or no look at all before the sequence ends (target 0);
- false asks: the arbiter asked for while the table had lain clear for 1.5 s or more (target 0);
- cups never asked about: a cup stays at the edge for the whole wait and the arbiter is never
  asked (target 0: the eyes never settle with it there, and never wait for ever);
- the cost per 1920x1080 frame of `Eyes.feed` (median and p95; target <= 30 ms on 2 cores), of
  `explain`, and apart from it of reading a frame (the eyes ask for a few frames per look only).
"""
from __future__ import annotations

import dataclasses
import json
import math
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from benchmarks.harness import REPO, load_average, machine, median, options, percentile, pool_map
from benchmarks.watch_scenes import KINDS, Sequence, empty_table, labelled_table, plan
from controller.adapters.reader import convert
from controller.game.events import NO_TILE
from controller.game.fusion import fuse
from controller.game.machine import TableState
from controller.game.rebuild import rebuild
from controller.game.reading import tile_width
from controller.game.reading import TableReading
from controller.game.steady import KEPT_CODE, PUT_BACK, TAKEN_OUT
from controller.table.eyes import steadied
from controller.table.settings import RunnerSettings
from models.recipe.realdata import Photo, load_splits
from vision.eyes import Covered, Eyes, EyesSettings, ReadFrames, Reference, SettledLook, TimedFrame
from vision.occluders import find_occluders
from vision.pipeline import read_image
from vision.same_table import still_as_read

DATASET = REPO.parent / "shared" / "datasets" / "rummikub-photos"  # beside this repository, whichever eyes are measured
LATE_AFTER = 1.0  # seconds after the last occluder left: a clear table judged later is late
CLEAR_BEFORE_ASK = 1.5  # seconds the table lay clear before an ask: a false ask
QUICK_SEQUENCES = 20
COVER_BINS = (0.0005, 0.002, 0.01)  # shares of the frame: a fingertip at the border, a finger, a hand's part
CLEAR_FRAMES = 3  # noisy clear frames read and fused for a photo's clear reading
FUSION = RunnerSettings().fusion  # the runner steadies and fuses the frames' readings with it
READ_ONCE = RunnerSettings().read_once  # the runner reads a still table once per look
REBUILD = RunnerSettings().rebuild  # ... and rebuilds the fused reading on the table before with it


@dataclass(frozen=True)
class ClearTable:
    """What the reader makes of a photo's table with nothing over it."""
    reading: TableReading  # fused from CLEAR_FRAMES noisy clear frames
    outlines: tuple[tuple[tuple[float, float], ...], ...]  # of the fused reading's tiles (the reference's)
    steady: bool  # every clear frame read the same codes
    labelled: Counter  # the photo's labelled codes wholly in the frame
    cut: int  # labelled tiles the frame's edge cuts (read or not, any code)

    @property
    def codes(self) -> Counter:
        return Counter(t.code for t in self.reading.tiles)


@dataclass
class Costs:
    feed: list[float] = field(default_factory=list)  # seconds per frame
    explain: list[float] = field(default_factory=list)  # seconds per call
    read: list[float] = field(default_factory=list)  # seconds per frame read
    net: list[float] = field(default_factory=list)  # seconds per occluder net call (inside feed or explain)


@dataclass(frozen=True)
class Outcome:
    index: int  # in the plan (`--only` runs it again)
    kind: str
    design: str
    photo: str
    frames_fed: int
    judged: bool  # a settled look came
    judged_covered: bool  # ... resting on a covered frame
    covered_share: float  # the largest share of the frame covered on a frame the look rests on
    false_penalty: bool  # ... whose table, once the referee answered its doubts, lacks tiles or reads other codes
    unsteady_photo: bool  # the photo's clear frames already read unsteadily
    delay: float | None  # the look's last frame minus when the last occluder left (None: no look, or left never)
    before_occluder: bool  # the look came before anything was over the table (nothing measured)
    asked: bool  # the arbiter was asked
    false_ask: bool  # ... while the table had lain clear for CLEAR_BEFORE_ASK s or more
    note: str  # what a reader of the figures may want to look at
    kept: int = 0  # tiles of the look's frames whose code was kept from the reference (read otherwise)
    put_back: int = 0  # tiles of the look's frames the reader missed, put back from the reference
    taken_out: int = 0  # tiles of the look's frames read on bare table, taken out
    labels_not_clear: bool = False  # a reading of the look differs from the clear reading, and reads the labelled table
    doubts: int = 0  # tiles of the look left to the referee
    frames_misread: int = 0  # frames of the look whose own reading lacks tiles or reads other codes


def outline(tile) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in tile.corners)


def clear_table(sequence: Sequence, costs: Costs) -> ClearTable:
    readings = []
    for k in range(CLEAR_FRAMES):
        frame = sequence.clear_frame(k)
        start = time.perf_counter()
        readings.append(read_image(frame))
        costs.read.append(time.perf_counter() - start)
    converted = [convert(r, 1920, 1080) for r in readings]
    steady = len({tuple(sorted(t.code for t in r.tiles)) for r in converted}) == 1
    reading = fuse(converted).reading
    labelled, cut = labelled_table(sequence.photo)
    return ClearTable(reading, tuple(tuple(t.corners) for t in reading.tiles), steady, labelled, cut)


def wrong_codes(codes: Counter, clear: ClearTable) -> str:
    """'' when `codes` (a table's or a reading's, code -> tiles) are the clear table's, or the photo's
    labelled table (the clear reading itself can be wrong where the reader is unsteady); else what
    differs from the clear table."""
    if codes == clear.codes or reads_labels(codes, clear):
        return ""
    missing, extra = clear.codes - codes, codes - clear.codes
    return f"{sum(codes.values())} tiles for {len(clear.reading.tiles)}" + (
        f", missing {' '.join(sorted(missing.elements()))}" if missing else "") + (
        f", extra {' '.join(sorted(extra.elements()))}" if extra else "")


def read_codes(reading: TableReading) -> Counter:
    return Counter(t.code for t in reading.tiles)


def reads_labels(codes: Counter, clear: ClearTable) -> bool:
    """Where the reading differs from the clear reading, the photo's labels side with the reading: what
    it holds beyond the clear reading is labelled and the clear reading lacked it, what it lacks is
    not labelled (a clear reading's misread or invented tile)."""
    extra, missing = codes - clear.codes, clear.codes - codes
    return not (extra - (clear.labelled - clear.codes)) and not (missing - (clear.codes - clear.labelled))


def watch(sequence: Sequence, clear: ClearTable, settings: EyesSettings, costs: Costs, drop: float = 0.0) -> Outcome:
    """Drive a fresh Eyes over the sequence as the runner does, until a settled look or the last frame; `drop`:
    the share of frames (after the first) the camera loses, at random (drawn from the sequence's seed)."""

    def occluders(frame, reference):
        image = getattr(frame, "image", frame)
        reference = getattr(reference, "image", reference)
        start = time.perf_counter()
        found = find_occluders(image, reference)
        costs.net.append(time.perf_counter() - start)
        return found

    eyes = Eyes(settings, occluders)
    # a game's first wait compares with the table as the game began, clear of tiles (the runner settles on it first)
    # the table as it lay clear when the game began (its tiles painted out) is the game's bare table too
    bare = empty_table(sequence.photo, clear.outlines)
    reference = (Reference(sequence.clear_frame(0), clear.outlines, tuple(t.code for t in clear.reading.tiles),
                           bare=bare)
                 if sequence.has_reference else Reference(bare, border_only=True, bare=bare))
    lost = np.random.default_rng((sequence.seed, 7))
    eyes.begin(0.0, reference)
    left_at = sequence.left_at
    last_covered = None  # time of the last covered frame fed
    asked = false_ask = False
    look = None
    readings: list[TableReading] = []
    last_read = None  # the frame last read in this wait, and its reading
    fed = 0
    for scene in sequence.frames():
        fed += 1
        if scene.covered:
            last_covered = scene.at
        if drop and fed > 1 and lost.random() < drop:
            continue  # the camera lost this frame
        start = time.perf_counter()
        seen = eyes.feed(TimedFrame(scene.image, scene.at))
        costs.feed.append(time.perf_counter() - start)
        if isinstance(seen, ReadFrames):
            raw = []
            for frame in seen.frames:
                # as the runner reads a look (RunnerSettings.read_once): a frame in which the table lies as on
                # the frame last read in this wait keeps that reading (controller.table.eyes.TableEyes.kept_reading)
                if READ_ONCE and sequence.has_reference and last_read is not None and still_as_read(
                        last_read[0], tuple(outline(t) for t in last_read[1].tiles), frame.image,
                        convert(last_read[1], 1920, 1080).area, settings):
                    raw.append(last_read[1])
                    continue
                start = time.perf_counter()
                raw.append(read_image(frame.image))
                costs.read.append(time.perf_counter() - start)
                last_read = (frame.image, raw[-1])
            start = time.perf_counter()
            seen = eyes.explain(seen.frames, tuple(tuple(outline(t) for t in r.tiles) for r in raw))
            costs.explain.append(time.perf_counter() - start)
            if isinstance(seen, Covered):
                last_read = None  # the readings do not explain the table: the next look is read afresh
            if isinstance(seen, SettledLook):
                look = seen
                readings = [steadied(reference, frame.image, convert(r, 1920, 1080), FUSION.match_radius)
                            for r, frame in zip(raw, seen.frames)]
                break
        if isinstance(seen, Covered) and seen.ask_arbiter and not asked:
            asked = True
            clear_since = 0.0 if last_covered is None else last_covered + 1 / sequence.fps
            false_ask = scene.at - clear_since >= CLEAR_BEFORE_ASK
            if left_at is None:  # a cup: the runner now waits for the arbiter
                break
    steadying = {name: sum(sum(1 for w in r.warnings if mark in w) for r in readings)
                 for name, mark in (("kept", KEPT_CODE), ("put_back", PUT_BACK), ("taken_out", TAKEN_OUT))}
    known = dict(**steadying, index=sequence.index, kind=sequence.kind, design=sequence.design, photo=sequence.photo.stem,
                 frames_fed=fed, unsteady_photo=not clear.steady, asked=asked, false_ask=false_ask)
    if look is None:
        return Outcome(**known, judged=False, judged_covered=False, covered_share=0.0, false_penalty=False, delay=None,
                       before_occluder=False, note="asked the arbiter" if asked else "no look")
    covered = [i for i in (round(frame.at * sequence.fps) for frame in look.frames) if sequence.covered(i)]
    shares = {i: sequence.covered_pixels(i) / (1920 * 1080) for i in covered}
    table, doubts = judged_table(readings, sequence.has_reference, clear)
    wrong = wrong_codes(table, clear)
    frames_misread = sum(1 for r in readings if wrong_codes(read_codes(r), clear))
    labels_not_clear = not wrong and any(codes != clear.codes for codes in [table] + [read_codes(r) for r in readings])
    last = max(frame.at for frame in look.frames)
    before = sequence.entered_at is not None and last < sequence.entered_at
    note = "; ".join(filter(None, [
        ("judged from frame(s) " + ", ".join(f"{i} ({100 * share:.2f}% covered)" for i, share in shares.items())
         if covered else ""),
        f"read {wrong}" if wrong else "",
        f"{doubts} tile(s) asked of the referee" if doubts and wrong else ""]))
    delay = None if (left_at is None or before or last < left_at) else last - left_at  # none while still covered
    return Outcome(**known, judged=True, judged_covered=bool(covered), covered_share=max(shares.values(), default=0.0),
                   false_penalty=bool(wrong), delay=delay, before_occluder=before, note=note,
                   labels_not_clear=labels_not_clear, doubts=doubts, frames_misread=frames_misread)


def judged_table(readings: list[TableReading], has_reference: bool, clear: ClearTable) -> tuple[Counter, int]:
    """The codes of the table a verdict on the look would rest on, and how many tiles the referee was
    asked about: the steadied frames fused as the runner fuses a turn's table, rebuilt on the table
    before (the clear table, or nothing at a game's first wait), each doubt answered as a referee
    looking at the photo would (the clear table's code where one of its tiles lies, else no tile)."""
    fusion = fuse(readings, dataclasses.replace(FUSION, keep_unsure=True))
    before = TableState(tuple((t.code, *t.center) for t in clear.reading.tiles)) if has_reference else TableState()
    rebuilt = rebuild(fusion.reading, before, REBUILD, None, fusion.unsure)
    reach = REBUILD.keep_radius * tile_width(fusion.reading)
    answers = []
    for index, _, _ in rebuilt.doubts:
        _, x, y = rebuilt.table.tiles[index]
        near = [t for t in clear.reading.tiles if math.dist(t.center, (x, y)) <= reach]
        answers.append((index, near[0].code if near else NO_TILE))
    return Counter(code for code, _, _ in rebuilt.table.with_codes(answers).tiles), len(rebuilt.doubts)


def ms(times: list[float], q: float) -> str:
    if not times:
        return "n/a"
    return f"{1000 * percentile(times, q):.1f}"


def report(outcomes: list[Outcome], costs: Costs, elapsed: float, photos: int, load: float) -> bool:
    head = (f"{'kind':<24} {'seqs':>4} {'judged':>6} {'covered':>7} {'false pen':>9} {'late >1s':>8} "
            f"{'no look':>7} {'median delay':>12} {'asked':>5} {'false ask':>9} {'referee':>7}")
    print(head)
    print("-" * len(head))
    groups = [(kind, [o for o in outcomes if o.kind == kind]) for kind in KINDS] + [("all", outcomes)]
    for name, group in groups:
        if not group:
            continue
        if name == "all":
            print("-" * len(head))
        delays = [o.delay for o in group if o.delay is not None]
        late = sum(1 for o in group if o.delay is not None and o.delay > LATE_AFTER)
        no_look = sum(1 for o in group if not o.judged and o.kind != "cup at the edge")
        print(f"{name:<24} {len(group):>4} {sum(o.judged for o in group):>6} {sum(o.judged_covered for o in group):>7} "
              f"{sum(o.false_penalty for o in group):>9} {late:>8} {no_look:>7} "
              f"{(f'{median(delays):.2f} s' if delays else 'n/a'):>12} {sum(o.asked for o in group):>5} "
              f"{sum(o.false_ask for o in group):>9} {sum(1 for o in group if o.doubts):>7}")
    judged_covered = sum(o.judged_covered for o in outcomes)
    false_penalties = sum(o.false_penalty for o in outcomes)
    unsteady = sum(o.false_penalty and o.unsteady_photo for o in outcomes)
    with_covered = sum(o.false_penalty and o.judged_covered for o in outcomes)
    late = sum(1 for o in outcomes if o.delay is not None and o.delay > LATE_AFTER)
    no_look = sum(1 for o in outcomes if not o.judged and o.kind != "cup at the edge")
    false_asks = sum(o.false_ask for o in outcomes)
    cups = [o for o in outcomes if o.kind == "cup at the edge"]
    cups_not_asked = sum(1 for o in cups if not o.asked)
    before = sum(o.before_occluder for o in outcomes)
    feed_median = median(costs.feed) * 1000
    frames = len(costs.feed)
    print()
    checks = [
        (f"turns judged from a covered frame: {judged_covered} of {len(outcomes)} sequences", judged_covered == 0),
        (f"false penalties (the table judged, the referee's answers given, lacks tiles or reads other codes): "
         f"{false_penalties}"
         f" ({with_covered} resting on a covered frame; {unsteady} on photos whose clear frames already read unsteadily)",
         false_penalties == 0),
        (f"clear tables judged more than {LATE_AFTER:.0f} s after the last occluder left: {late}, and never judged: "
         f"{no_look}", late == no_look == 0),
        (f"arbiter asked for after the table lay clear {CLEAR_BEFORE_ASK} s or more: {false_asks}", false_asks == 0),
        (f"cups left at the edge the arbiter was never asked about: {cups_not_asked} of {len(cups)}", cups_not_asked == 0),
        (f"Eyes.feed per 1920x1080 frame: median {feed_median:.1f} ms, p95 {ms(costs.feed, 0.95)} ms over {frames} frames"
         f" (target <= 30 ms)", feed_median <= 30),
    ]
    for line, meets in checks:
        print(f"{line}: {'meets' if meets else 'MISSES'}")
    if judged_covered:
        shares = [o.covered_share for o in outcomes if o.judged_covered]
        bins = [(f"under {COVER_BINS[0]:.2%}", lambda x: x < COVER_BINS[0])] + [
            (f"{lo:.2%}-{hi:.2%}", lambda x, lo=lo, hi=hi: lo <= x < hi) for lo, hi in zip(COVER_BINS, COVER_BINS[1:])] + [
            (f"{COVER_BINS[-1]:.0%} or more", lambda x: x >= COVER_BINS[-1])]
        print("    the covered frames they rest on, by the share of the frame covered: "
              + ", ".join(f"{name}: {sum(map(test, shares))}" for name, test in bins))
    print(f"Eyes.explain per call: median {ms(costs.explain, 0.5)} ms, p95 {ms(costs.explain, 0.95)} ms over "
          f"{len(costs.explain)} calls; feed and explain together, spread over every frame fed: "
          f"{1000 * (sum(costs.feed) + sum(costs.explain)) / max(frames, 1):.1f} ms a frame on average")
    print(f"occluder net per call (inside feed/explain): median {ms(costs.net, 0.5)} ms, p95 {ms(costs.net, 0.95)} ms, "
          f"run on {len(costs.net)} of {frames} frames fed")
    print(f"reading a 1920x1080 frame (apart from the eyes): median {ms(costs.read, 0.5)} ms, p95 {ms(costs.read, 0.95)} ms "
          f"over {len(costs.read)} frames read ({CLEAR_FRAMES} per photo for its clear reading, {photos} photos)")
    judged = [o for o in outcomes if o.judged]
    for name, what in (("kept", "codes kept from the reference on unchanged patches (read otherwise)"),
                       ("put_back", "missed tiles put back from the reference on unchanged patches"),
                       ("taken_out", "tiles read on unchanged bare table taken out")):
        counts = [getattr(o, name) for o in judged]
        print(f"{what}: {sum(counts)} tile readings in {sum(1 for k in counts if k)} of {len(counts)} looks")
    asked = [o for o in judged if o.doubts]
    print(f"looks that left tiles to the referee (column 'referee'): {len(asked)} of {len(judged)}, "
          f"{sum(o.doubts for o in asked)} tiles; frames that misread on their own (outvoted by the other frames, "
          f"or asked about): {sum(o.frames_misread for o in judged)} in "
          f"{sum(1 for o in judged if o.frames_misread)} looks")
    print(f"looks whose readings differ from the clear reading only where the photo's labels side with them (not false): "
          f"{sum(o.labels_not_clear for o in judged)} of {len(judged)}")
    if before:
        print(f"{before} look(s) came before anything was over the table (nothing measured there)")
    for o in outcomes:
        if o.note and (o.judged_covered or o.false_penalty or (o.delay or 0) > LATE_AFTER or o.false_ask
                       or (not o.judged and o.kind != "cup at the edge") or (o.kind == "cup at the edge" and not o.asked)):
            print(f"    #{o.index} {o.kind} ({o.design}) on {o.photo}: {o.note}"
                  + (f", judged {o.delay:.2f} s after it left" if o.delay is not None else "")
                  + (", a false ask" if o.false_ask else ""))
    print(f"{len(outcomes)} sequences, {frames} frames fed, in {elapsed / 60:.1f} min on {machine(load)} "
          f"(costs rise with it)")
    return all(meets for _, meets in checks)


_CLEAR: dict[str, ClearTable] = {}  # a worker's clear readings, per photo


def _watch_one(work) -> tuple[Outcome, Costs, str]:
    """One sequence of the plan in a worker process (`--jobs`): its outcome, its costs, its photo."""
    photos, count, seed, fps, settings, index, drop = work
    costs = Costs()
    sequence = next(plan(photos, count, seed, fps, settings.ask_after_seconds, frozenset({index})))
    stem = sequence.photo.stem
    if stem not in _CLEAR:
        _CLEAR[stem] = clear_table(sequence, costs)
    return watch(sequence, _CLEAR[stem], settings, costs, drop), costs, stem


def main(argv=None) -> int:
    parser = options(__doc__, seed=40, quick=f"{QUICK_SEQUENCES} sequences, to try the bench out",
                     jobs="sequences watched at once by this many processes (the costs then share the cores)")
    parser.add_argument("--sequences", type=int, default=300)
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--only", type=int, nargs="+", metavar="INDEX",
                        help="run just these sequences of the plan (as numbered in the list of misses)")
    parser.add_argument("--save", type=Path, help="append each sequence's outcome and costs to this file (JSON lines)")
    parser.add_argument("--merge", type=Path, nargs="+", metavar="FILE",
                        help="print the figures of the parts saved in these files, and nothing else")
    parser.add_argument("--drop", type=float, default=0.0, metavar="SHARE",
                        help="the share of frames the camera loses, at random (0 to below 1)")
    args = parser.parse_args(argv)
    if args.merge:
        return merge(args.merge)
    if not args.dataset.is_dir():
        print(f"bench_watch: the shared photos are not at {args.dataset}", file=sys.stderr)
        return 2
    if not 0 <= args.drop < 1:
        print(f"bench_watch: --drop must be a share from 0 to below 1, got {args.drop}", file=sys.stderr)
        return 2
    if args.sequences < 1 or args.fps <= 0 or args.jobs < 1:
        print(f"bench_watch: --sequences, --fps and --jobs must be positive, got {args.sequences}, {args.fps} and "
              f"{args.jobs}", file=sys.stderr)
        return 2
    count = QUICK_SEQUENCES if args.quick else args.sequences
    photos: list[Photo] = load_splits(args.dataset)["train"]
    settings = EyesSettings()
    costs = Costs()
    clear: dict[str, ClearTable] = {}
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    load = load_average()
    print(f"{count} sequences over {len(photos)} train-split photos at {args.fps:g} fps, seed {args.seed}; "
          f"eyes: still {settings.still_seconds} s, ask after {settings.ask_after_seconds} s"
          + (f"; {args.drop:.0%} of frames lost at random" if args.drop else ""))
    only = None if args.only is None else frozenset(args.only)
    if only is not None and not all(0 <= i < count for i in only):
        print(f"bench_watch: --only {sorted(only)} names sequences outside the plan's 0..{count - 1}", file=sys.stderr)
        return 2
    if args.jobs > 1:
        indices = sorted(only) if only is not None else list(range(count))
        work = [(photos, count, args.seed, args.fps, settings, i, args.drop) for i in indices]
        for outcome, spent, stem in pool_map(_watch_one, work, args.jobs, start="fork"):
            outcomes.append(outcome)
            saved(args.save, outcome)
            clear.setdefault(stem, None)  # type: ignore[arg-type]
            for name in ("feed", "explain", "read", "net"):
                getattr(costs, name).extend(getattr(spent, name))
            if len(outcomes) % 25 == 0:
                print(f"  {len(outcomes)}/{len(indices)} sequences, {(time.perf_counter() - started) / 60:.1f} min: "
                      f"{sum(o.judged_covered for o in outcomes)} judged from a covered frame, "
                      f"{sum(o.false_penalty for o in outcomes)} false penalties so far", file=sys.stderr)
        outcomes.sort(key=lambda o: o.index)
    for sequence in (plan(photos, count, args.seed, args.fps, settings.ask_after_seconds, only) if args.jobs == 1 else ()):
        stem = sequence.photo.stem
        if stem not in clear:
            clear[stem] = clear_table(sequence, costs)
        outcomes.append(watch(sequence, clear[stem], settings, costs, args.drop))
        saved(args.save, outcomes[-1])
        if len(outcomes) % 25 == 0 and only is None:
            print(f"  {len(outcomes)}/{count} sequences, {(time.perf_counter() - started) / 60:.1f} min: "
                  f"{sum(o.judged_covered for o in outcomes)} judged from a covered frame, "
                  f"{sum(o.false_penalty for o in outcomes)} false penalties so far", file=sys.stderr)
    elapsed = time.perf_counter() - started
    if args.save is not None:
        with args.save.open("a") as out:
            out.write(json.dumps({"costs": dataclasses.asdict(costs), "elapsed": elapsed, "load": load,
                                  "photos": sorted(clear)}) + "\n")
    report(outcomes, costs, elapsed, len(clear), load)
    return 0


def saved(path: Path | None, outcome: Outcome) -> None:
    """A sequence's outcome appended to `--save`'s file as soon as it is known."""
    if path is not None:
        with path.open("a") as out:
            out.write(json.dumps({"outcome": dataclasses.asdict(outcome)}) + "\n")


def merge(paths: list[Path]) -> int:
    """The figures of parts of a plan run apart (`--save`), printed together."""
    outcomes: list[Outcome] = []
    costs = Costs()
    elapsed, loads, photos = 0.0, [], set()
    for path in paths:
        try:
            lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        except (OSError, ValueError) as error:
            print(f"bench_watch: --merge {path}: {error}", file=sys.stderr)
            return 2
        for line in lines:
            if "outcome" in line:
                outcomes.append(Outcome(**line["outcome"]))
            else:
                for name in ("feed", "explain", "read", "net"):
                    getattr(costs, name).extend(line["costs"][name])
                elapsed = max(elapsed, line["elapsed"])  # the parts ran at once
                loads.append(line["load"] if isinstance(line["load"], float) else line["load"][0])
                photos.update(line["photos"])
    outcomes.sort(key=lambda o: o.index)
    print(f"{len(outcomes)} sequences merged from {len(paths)} part(s) run at once")
    report(outcomes, costs, elapsed, len(photos), max(loads, default=load_average()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
