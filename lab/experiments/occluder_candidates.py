"""Score averages of occluder nets before building them, by the rule of lab/decisions/occ11.txt.

    python -m lab.experiments.occluder_candidates maps models/work/occ14/occluder.onnx models/work/occ14/maps.pkl
    python -m lab.experiments.occluder_candidates score F=occ8.pkl+occ9b.pkl+occ11.pkl+occ13.pkl F+14=occ8.pkl+occ9b.pkl+occ11.pkl+occ13.pkl+occ14.pkl

`maps` runs one net over the validation photos, the rendered validation tables and the train
photos (models/recipe/occluder_eval.py's cases, the same every run; a few minutes) and keeps its
probability maps; `pool` max-pools them (lab/decisions/occpool.txt). `score` takes the mean of
members' maps, which is what models/recipe/average_nets.py builds into one file, so a candidate average
is judged without building it. For each candidate it
prints the thresholds chosen on validation + rendered validation, the mistakes there (the score),
the mistakes on train, and the columns the rule's guards read:
validation refused, accepted per design; rendered refused, accepted; train refused, accepted per design.
A candidate written NAME=A.pkl+B.pkl@SHARE holds its min share at SHARE; only its threshold is chosen
(lab/decisions/occ24.txt). With `--shipped NAME` it also names the rule's winner among the other
candidates, or why there is none (`judge`, the reading of lab/decisions/occ22.txt: rank first, then
hold the first against the bars).
The test split and the rendered test tables are never read here (benchmarks/bench_settle.py reads them,
once, for a winner). Members taken out of the shipped file: `python -m models.recipe.average_nets --take K`.
A maps file is a pickle of our own making: never load one from elsewhere.
"""
from __future__ import annotations

import argparse
import pickle
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from lab.experiments.two_thresholds import choose_two_thresholds
from models.recipe.occluder_eval import (DESIGNS, RENDERED_VALIDATION, SHARES, Case, choose_thresholds, covered_maps,
                                  rendered_maps, tally)

SPLITS = ("validation", "rendered", "train")
FORMAT = "tileref occluder maps 1"
# the guards of lab/decisions/occ9.txt, with occ12.txt's figures: the first shipped net's columns (validation;
# rendered; train), which no column of a winner may exceed by more than COLUMN_SLACK, and the most train mistakes
ORIGINAL_COLUMNS = ((1, 2, 6, 1), (2, 0), (1, 12, 15, 2))
COLUMN_SLACK = 2
MOST_TRAIN_MISTAKES = 30


class CandidateError(ValueError):
    """Member maps that cannot be scored: the message names the file and what is wrong."""


def member_maps(model_path: Path, photos: dict[str, list], rendered: range = RENDERED_VALIDATION) -> dict:
    """{split: [(case, map)]} for one net: `photos["validation"]`, the rendered tables, `photos["train"]`.
    The frames are dropped, so a file holds only names, truths, designs and maps."""
    found = {"validation": covered_maps(photos["validation"], model_path=model_path),
             "rendered": rendered_maps(rendered, model_path=model_path),
             "train": covered_maps(photos["train"], model_path=model_path)}
    return {split: [(Case(case.name, case.covered, None, case.design), covered) for case, covered in rows]
            for split, rows in found.items()}


def save_maps(maps: dict, path: Path) -> None:
    with open(path, "wb") as f:
        pickle.dump({"format": FORMAT, "maps": maps}, f)


def load_maps(path: Path) -> dict:
    try:
        with open(path, "rb") as f:
            held = pickle.load(f)
    except OSError as e:
        raise CandidateError(f"member maps {str(path)!r} cannot be read: {e.strerror}") from None
    except Exception as e:  # pickle raises whatever the garbled bytes lead it to
        raise CandidateError(f"member maps {str(path)!r} are not a maps file ({type(e).__name__} on unpickling)") from None
    if not isinstance(held, dict) or held.get("format") != FORMAT:
        raise CandidateError(f"member maps {str(path)!r} are not a maps file of {FORMAT!r}")
    return held["maps"]


def mean_maps(members: list[dict], names: list[str]) -> dict:
    """The mean map per case over the members, which must hold the same cases in the same order."""
    first = members[0]
    for split in SPLITS:
        ours = [case.name for case, _ in first[split]]
        for member, name in zip(members[1:], names[1:]):
            theirs = [case.name for case, _ in member[split]]
            if theirs != ours:
                raise CandidateError(f"member maps {name!r} hold other {split} cases than {names[0]!r} "
                                     f"({len(theirs)} against {len(ours)})")
    return {split: [(case, np.mean([member[split][k][1] for member in members], axis=0))
                    for k, (case, _) in enumerate(first[split])] for split in SPLITS}


def pooled_maps(maps: dict, size: int) -> dict:
    """Each map with every cell raised to the highest of its size x size neighbourhood (a max pool, stride 1), so
    that members marking neighbouring cells of one arm agree in their mean (lab/decisions/occpool.txt)."""
    if size < 1 or size % 2 == 0:
        raise CandidateError(f"pool size {size} is not an odd number of cells")
    square = np.ones((size, size), np.uint8)
    return {split: [(case, cv2.dilate(covered, square, borderType=cv2.BORDER_REPLICATE)) for case, covered in rows]
            for split, rows in maps.items()}


@dataclass(frozen=True)
class CandidateScore:
    name: str
    threshold: float
    min_share: float
    score: int  # mistakes on validation + rendered validation, at the thresholds chosen there
    train: int  # mistakes on the train photos at those thresholds
    columns: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # validation; rendered; train
    misses: tuple[str, ...]  # the validation and rendered validation mistakes
    peak: float | None = None  # a two-threshold decision's peak (lab/experiments/two_thresholds.py)
    members: int = 1  # nets averaged: fewer wins a tie

    def line(self) -> str:
        columns = "; ".join(",".join(map(str, c)) for c in self.columns)
        peak = "" if self.peak is None else f" peak {self.peak}"
        return f"{self.name}  {self.threshold}{peak} / {self.min_share}: {self.score} / {self.train}   ({columns})"


def _photo_columns(rows, threshold: float, min_share: float, peak: float | None) -> tuple[int, ...]:
    return (tally(rows, threshold, min_share, peak=peak).refused,
            *(tally(rows, threshold, min_share, design=d, peak=peak).accepted for d in DESIGNS))


def score_candidate(name: str, maps: dict, two_thresholds: bool = False,
                    held_share: float | None = None) -> CandidateScore:
    """`held_share` holds the minimum share, so only the threshold is chosen (lab/decisions/occ24.txt)."""
    chosen_on = maps["validation"] + maps["rendered"]
    if two_thresholds and held_share is not None:
        raise CandidateError(f"candidate {name!r}: a held min share ({held_share}) goes with one threshold only")
    if two_thresholds:
        threshold, peak, min_share, chosen = choose_two_thresholds(chosen_on)
    else:
        shares = SHARES if held_share is None else (held_share,)
        (threshold, min_share, chosen), peak = choose_thresholds(chosen_on, shares), None
    rendered = tally(maps["rendered"], threshold, min_share, peak=peak)
    train = _photo_columns(maps["train"], threshold, min_share, peak)
    return CandidateScore(name, threshold, min_share, chosen.refused + chosen.accepted, sum(train),
                          (_photo_columns(maps["validation"], threshold, min_share, peak),
                           (rendered.refused, rendered.accepted), train), chosen.misses, peak)


@dataclass(frozen=True)
class RuleVerdict:
    winner: CandidateScore | None
    reason: str  # one line: why the winner replaces what ships, or why nothing does

    def line(self) -> str:
        if self.winner is None:
            return f"rule: no winner ({self.reason})"
        return f"rule: {self.winner.name} replaces what ships ({self.reason})"


def _rank_key(candidate: CandidateScore) -> tuple:
    # occ12.txt-occ22.txt: lowest score, then fewer train mistakes, then fewer nets, then the largest min share
    return candidate.score, candidate.train, candidate.members, -candidate.min_share


def judge(shipped: CandidateScore, candidates: list[CandidateScore]) -> RuleVerdict:
    """The rule's verdict, read as lab/decisions/occ22.txt settled it: rank every candidate, then hold only the
    first against the bars, so a candidate that fails a bar never lets a lower-ranked one through.

    Bars: the guards of occ9.txt (ORIGINAL_COLUMNS, COLUMN_SLACK, MOST_TRAIN_MISTAKES); a lower score than what
    ships, or the same score and fewer train mistakes; and, since occ20.txt, no more train mistakes than what ships.
    The cost guard (bench_settle, <= 30 ms per 1080p frame) and the rule's last tie (the middle thresholds) are
    left to the one who runs it: a tie that reaches them is named, not broken."""
    others = sorted((c for c in candidates if c.name != shipped.name), key=_rank_key)
    if not others:
        return RuleVerdict(None, f"no candidate besides {shipped.name!r}")
    first = others[0]
    tied = [c.name for c in others[1:] if _rank_key(c) == _rank_key(first)]
    if tied:
        return RuleVerdict(None, f"{first.name!r} ties {', '.join(map(repr, tied))} on score, train, nets and min "
                                 f"share: the middle thresholds decide")
    said = f"{first.name!r} ranks first at {first.score} / {first.train}"
    if first.train > MOST_TRAIN_MISTAKES:
        return RuleVerdict(None, f"{said}, but makes more than {MOST_TRAIN_MISTAKES} train mistakes")
    for ours, original in zip(first.columns, ORIGINAL_COLUMNS):
        for mistakes, limit in zip(ours, original):
            if mistakes > limit + COLUMN_SLACK:
                return RuleVerdict(None, f"{said}, but one column holds {mistakes} mistakes against the first "
                                         f"shipped net's {limit} (more than {COLUMN_SLACK} worse)")
    against = f"what ships ({shipped.name!r}, {shipped.score} / {shipped.train})"
    if first.train > shipped.train:
        return RuleVerdict(None, f"{said}, but makes more train mistakes than {against}")
    if (first.score, first.train) >= (shipped.score, shipped.train):
        return RuleVerdict(None, f"{said}, no better than {against}")
    return RuleVerdict(first, f"{first.score} / {first.train} against {against}; its cost is bench_settle's to check")


def parse_candidate(spec: str) -> tuple[str, str, float | None]:
    """NAME=A.pkl+B.pkl, or NAME=A.pkl+B.pkl@SHARE to hold the min share: (name, paths, held share or None)."""
    name, sep, rest = spec.partition("=")
    paths, at, share = rest.rpartition("@") if "@" in rest else (rest, "", "")
    if not sep or not name or not paths:
        raise CandidateError(f"candidate {spec!r} is not NAME=A.pkl+B.pkl (or NAME=A.pkl+B.pkl@SHARE)")
    if not at:
        return name, paths, None
    try:
        held = float(share)
    except ValueError:
        raise CandidateError(f"candidate {spec!r}: held min share {share!r} is not a number") from None
    if not 0 < held < 1:
        raise CandidateError(f"candidate {spec!r}: held min share {held} is not between 0 and 1")
    return name, paths, held


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.experiments.occluder_candidates", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    maps = commands.add_parser("maps", help="one net's maps over validation, rendered validation and train")
    maps.add_argument("model", type=Path)
    maps.add_argument("out", type=Path)
    pool = commands.add_parser("pool", help="one net's maps, each max-pooled over a square of cells")
    pool.add_argument("maps", type=Path)
    pool.add_argument("out", type=Path)
    pool.add_argument("--size", type=int, default=3, help="cells on a side of the square (odd; default 3)")
    score = commands.add_parser("score", help="candidates NAME=a.pkl+b.pkl, each the mean of its members' maps")
    score.add_argument("candidates", nargs="+", metavar="NAME=A.pkl+B.pkl[@SHARE]",
                       help="@SHARE holds that candidate's min share; only its threshold is chosen")
    score.add_argument("--misses", action="store_true", help="also list each candidate's mistakes on validation")
    score.add_argument("--two-thresholds", action="store_true",
                       help="also try a region's peak above a higher threshold (lab/decisions/occ16.txt)")
    score.add_argument("--shipped", metavar="NAME",
                       help="the candidate that ships: also print the rule's winner among the others, or why none")
    args = parser.parse_args(argv)
    try:
        if args.command in ("maps", "pool") and not args.out.parent.is_dir():  # found out now, not after minutes of maps
            raise CandidateError(f"maps file {str(args.out)!r}: its folder does not exist")
        if args.command == "maps":
            from models.recipe.realdata import load_splits

            if not args.model.is_file():
                raise CandidateError(f"net {str(args.model)!r} is not a file")
            save_maps(member_maps(args.model, load_splits()), args.out)
            print(f"{args.model}: maps written to {args.out}")
            return 0
        if args.command == "pool":
            save_maps(pooled_maps(load_maps(args.maps), args.size), args.out)
            print(f"{args.maps}: maps max-pooled over {args.size} x {args.size} cells written to {args.out}")
            return 0
        candidates = [parse_candidate(spec) for spec in args.candidates]  # every spec checked before any file is read
        names = [name for name, _, _ in candidates]
        if args.shipped is not None and args.shipped not in names:
            raise CandidateError(f"shipped {args.shipped!r} is none of the candidates ({', '.join(map(repr, names))})")
        loaded = {}  # candidates share members: each file is read once
        scored = []
        for name, paths, held_share in candidates:
            files = paths.split("+")
            for path in files:
                if path not in loaded:
                    loaded[path] = load_maps(Path(path))
            result = score_candidate(name, mean_maps([loaded[p] for p in files], files), args.two_thresholds,
                                     held_share)
            scored.append(replace(result, members=len(files)))
            print(result.line())
            for miss in result.misses if args.misses else ():
                print("   ", miss)
        if args.shipped is not None:
            print(judge(scored[names.index(args.shipped)], scored).line())
    except CandidateError as e:
        print(f"occluder_candidates: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
