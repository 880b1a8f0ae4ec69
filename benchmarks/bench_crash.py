"""Crash safety: `tileref demo` killed (SIGKILL, the controller and its emulated box) at random
moments, resumed, and compared with an uninterrupted run of the same recorded game.

    python -m benchmarks.bench_crash [--kills 100] [--per-game 5] [--seed 15] [--script game]

One uninterrupted run first: its semantic log (controller.records.reports.views.semantic_log: what
happened at the table, without photo hashes, positions or timer incidents), its audit pages and
its printed verdicts and scores are the reference. Then games are played until `--kills` kills
were made: each game is killed up to `--per-game` times, each kill a random moment (uniform over
the time an uninterrupted run takes) after its process started, and resumed with `demo --resume`
(started afresh when the kill came before the game was created); a run that ends before its kill
ends the game's kills, and a last run goes to the end. Compared with the reference:
- the records: one game, the hash chain intact, the same semantic log;
- the audit pages: one per turn, the same once photos, hashes, the records path, event numbers and
  counts and timer incidents are left out;
- what was printed: the same scores at the end, and every turn's verdict printed by some run.
Prints one line per game and the totals; exits 1 if any game differs.
"""
from __future__ import annotations

import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.harness import REPO, options
from controller.records import Records
from controller.records.reports.views import semantic_log


def demo(out: Path, script: str, resume: bool) -> subprocess.Popen:
    command = [sys.executable, "-m", "controller.cli", "demo", "--out", str(out), "--quiet", "--script", script]
    return subprocess.Popen(command + (["--resume"] if resume else []), cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def has_game(db: Path) -> bool:
    if not db.exists():
        return False
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2)
        try:
            return bool(con.execute("SELECT 1 FROM events LIMIT 1").fetchall())
        finally:
            con.close()
    except sqlite3.Error:
        return False


def kill_after(process: subprocess.Popen, seconds: float) -> tuple[str, bool]:
    """SIGKILL the process group after `seconds` (unless it ended first): its output, and whether it was killed."""
    try:
        output, _ = process.communicate(timeout=seconds)
        return output, False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return output, True


HEX = re.compile(r"\b[0-9a-f]{8,64}\b")
PHOTO = re.compile(r"data:image/[a-z]+;base64,[A-Za-z0-9+/=]+")  # the frames differ with when they were taken
EVENTS = re.compile(r"\b\d+ events\b")
ROW = re.compile(r"<tr>(?:(?!</tr>).)*timer-incident(?:(?!</tr>).)*</tr>", re.S)
SEQ = re.compile(r"<tr>\s*<td>\d+</td>")  # an event's number in the record moves with the incidents before it
SPACE = re.compile(r"\s+")


def page_text(path: Path, out: Path) -> str:
    text = path.read_text(encoding="utf-8").replace(str(out), "OUT")
    text = SEQ.sub("<tr><td>N</td>", ROW.sub("", PHOTO.sub("PHOTO", text)))
    return SPACE.sub(" ", EVENTS.sub("N events", HEX.sub("H", text)))


def pages(out: Path) -> dict[str, str]:
    return {p.name: page_text(p, out) for p in sorted(out.glob("audit-turn-*.html"))}


VERDICT = re.compile(r"^turn +\d+ .*$", re.M)
SCORES = re.compile(r"^game over .*\n(?:    \S+ +[+-]\d+\n)+", re.M)


def outcome(out: Path, outputs: list[str]) -> dict:
    with Records(out / "demo.sqlite", create=False) as records:
        games = records.game_ids()
        game = games[-1]
        report = records.verify(game)
        events = [r.event for r in records.recorded(game)]
    printed = "\n".join(outputs)
    return {"games": len(games), "intact": report.ok, "log": semantic_log(events), "pages": pages(out),
            "verdicts": sorted(set(VERDICT.findall(printed))), "scores": SCORES.findall(printed)[-1:]}


def main() -> int:
    parser = options(__doc__, seed=15)
    parser.add_argument("--kills", type=int, default=100, help="kills in all")
    parser.add_argument("--per-game", type=int, default=5, help="kills per game at most")
    parser.add_argument("--script", default="game")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="tileref-crash-"))
    os.environ.setdefault("TILEREF_KEY_DIR", str(work / "keys"))

    started = time.monotonic()
    base = work / "base"
    output, _ = kill_after(demo(base, args.script, False), 600)
    run_seconds = time.monotonic() - started
    reference = outcome(base, [output])
    print(f"uninterrupted run: {run_seconds:.1f} s, {len(reference['log'])} events, {len(reference['pages'])} pages, "
          f"{len(reference['verdicts'])} verdict lines", flush=True)

    kills = killed_before_game = finished_before_kill = 0
    equal = games = 0
    failures: list[str] = []
    while kills < args.kills:
        games += 1
        g = games
        out = work / f"game-{g}"
        outputs: list[str] = []
        moments = []
        for _ in range(args.per_game):
            moment = rng.uniform(0.0, run_seconds)
            resume = has_game(out / "demo.sqlite")
            output, killed = kill_after(demo(out, args.script, resume), moment)
            outputs.append(output)
            moments.append(f"{moment:.1f}{'' if killed else '(ended)'}")
            kills += killed
            killed_before_game += killed and not has_game(out / "demo.sqlite")
            if not killed:
                finished_before_kill += 1
                break  # the game ended before this kill: the last run below resumes the finished game
        final = demo(out, args.script, has_game(out / "demo.sqlite"))
        output, _ = kill_after(final, 600)
        outputs.append(output)
        problems = []
        if final.returncode != 0:
            problems.append(f"last run exit {final.returncode}: {output.strip().splitlines()[-1:]}")
        else:
            got = outcome(out, outputs)
            for key in ("games", "intact", "log", "pages", "verdicts", "scores"):
                if got[key] != reference[key]:
                    detail = ""
                    if key == "pages":
                        differ = [n for n in reference["pages"] if got["pages"].get(n) != reference["pages"][n]]
                        detail = f": {differ or sorted(set(got['pages']) ^ set(reference['pages']))}"
                    elif key == "verdicts":
                        detail = f": missing {sorted(set(reference['verdicts']) - set(got['verdicts']))[:3]}"
                    problems.append(f"{key} differ{detail}")
        equal += not problems
        print(f"game {g:3d}: kills at {', '.join(moments)} s -> " + ("equal" if not problems else "; ".join(problems)),
              flush=True)
        if problems:
            failures.append(f"game {g}: {'; '.join(problems)} (records in {out})")
    print(json.dumps({"games": games, "kills": kills, "runs_ended_before_their_kill": finished_before_kill,
                      "kills_before_the_game_was_created": killed_before_game, "resumed_games_equal": equal,
                      "seconds": round(time.monotonic() - started)}))
    for failure in failures:
        print("FAIL", failure)
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
