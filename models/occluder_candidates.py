"""Score averages of occluder nets before building them, by the rule of models/decisions/occ11.txt.

    python -m models.occluder_candidates maps models/work/occ14/occluder.onnx models/work/occ14/maps.pkl
    python -m models.occluder_candidates score F=occ8.pkl+occ9b.pkl+occ11.pkl+occ13.pkl F+14=occ8.pkl+occ9b.pkl+occ11.pkl+occ13.pkl+occ14.pkl

`maps` runs one net over the validation photos, the rendered validation tables and the train
photos (models/occluder_eval.py's cases, the same every run; a few minutes) and keeps its
probability maps. `score` takes the mean of members' maps, which is what models/average_nets.py
builds into one file, so a candidate average is judged without building it. For each candidate it
prints the thresholds chosen on validation + rendered validation, the mistakes there (the score),
the mistakes on train, and the columns the rule's guards read:
validation refused, accepted per design; rendered refused, accepted; train refused, accepted per design.
The test split and the rendered test tables are never read here (benchmarks/bench_settle.py reads them,
once, for a winner). Members taken out of the shipped file: `python -m models.average_nets --take K`.
A maps file is a pickle of our own making: never load one from elsewhere.
"""
from __future__ import annotations

import argparse
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from models.occluder_eval import (DESIGNS, RENDERED_VALIDATION, Case, choose_thresholds, choose_two_thresholds,
                                  covered_maps, rendered_maps, tally)

SPLITS = ("validation", "rendered", "train")
FORMAT = "tileref occluder maps 1"


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


@dataclass(frozen=True)
class CandidateScore:
    name: str
    threshold: float
    min_share: float
    score: int  # mistakes on validation + rendered validation, at the thresholds chosen there
    train: int  # mistakes on the train photos at those thresholds
    columns: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # validation; rendered; train
    misses: tuple[str, ...]  # the validation and rendered validation mistakes
    peak: float | None = None  # a two-threshold decision's peak (models/occluder_eval.choose_two_thresholds)

    def line(self) -> str:
        columns = "; ".join(",".join(map(str, c)) for c in self.columns)
        peak = "" if self.peak is None else f" peak {self.peak}"
        return f"{self.name}  {self.threshold}{peak} / {self.min_share}: {self.score} / {self.train}   ({columns})"


def _photo_columns(rows, threshold: float, min_share: float, peak: float | None) -> tuple[int, ...]:
    return (tally(rows, threshold, min_share, peak=peak).refused,
            *(tally(rows, threshold, min_share, design=d, peak=peak).accepted for d in DESIGNS))


def score_candidate(name: str, maps: dict, two_thresholds: bool = False) -> CandidateScore:
    chosen_on = maps["validation"] + maps["rendered"]
    if two_thresholds:
        threshold, peak, min_share, chosen = choose_two_thresholds(chosen_on)
    else:
        (threshold, min_share, chosen), peak = choose_thresholds(chosen_on), None
    rendered = tally(maps["rendered"], threshold, min_share, peak=peak)
    train = _photo_columns(maps["train"], threshold, min_share, peak)
    return CandidateScore(name, threshold, min_share, chosen.refused + chosen.accepted, sum(train),
                          (_photo_columns(maps["validation"], threshold, min_share, peak),
                           (rendered.refused, rendered.accepted), train), chosen.misses, peak)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.occluder_candidates", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    maps = commands.add_parser("maps", help="one net's maps over validation, rendered validation and train")
    maps.add_argument("model", type=Path)
    maps.add_argument("out", type=Path)
    score = commands.add_parser("score", help="candidates NAME=a.pkl+b.pkl, each the mean of its members' maps")
    score.add_argument("candidates", nargs="+", metavar="NAME=A.pkl+B.pkl")
    score.add_argument("--misses", action="store_true", help="also list each candidate's mistakes on validation")
    score.add_argument("--two-thresholds", action="store_true",
                       help="also try a region's peak above a higher threshold (models/decisions/occ16.txt)")
    args = parser.parse_args(argv)
    try:
        if args.command == "maps":
            from models.realdata import load_splits

            if not args.model.is_file():
                raise CandidateError(f"net {str(args.model)!r} is not a file")
            if not args.out.parent.is_dir():  # found out now, not after minutes of maps
                raise CandidateError(f"maps file {str(args.out)!r}: its folder does not exist")
            save_maps(member_maps(args.model, load_splits()), args.out)
            print(f"{args.model}: maps written to {args.out}")
            return 0
        loaded = {}  # candidates share members: each file is read once
        for spec in args.candidates:
            name, sep, paths = spec.partition("=")
            if not sep or not paths:
                raise CandidateError(f"candidate {spec!r} is not NAME=A.pkl+B.pkl")
            files = paths.split("+")
            for path in files:
                if path not in loaded:
                    loaded[path] = load_maps(Path(path))
            result = score_candidate(name, mean_maps([loaded[p] for p in files], files), args.two_thresholds)
            print(result.line())
            for miss in result.misses if args.misses else ():
                print("   ", miss)
    except CandidateError as e:
        print(f"occluder_candidates: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
