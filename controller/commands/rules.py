"""`tileref check`, `tileref judge`, `tileref score`: the rules core on JSON files.

    tileref check TABLE.json [--json] [--variant NAME | --ruleset FILE.toml]
    tileref judge TURN.json [--json] [--ruleset FILE.toml]
    tileref score GAME.json [--json] [--ruleset FILE.toml]

`check` exits 1 when the table is not valid; `judge` and `score` exit 0 whatever the verdict.
Bad input (missing file, malformed JSON, unknown tile code or variant, a tile more than twice)
exits 2 through controller.cli with one line naming the problem.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from controller import json_text
from controller.rules.errors import InputFileError, RulesError
from controller.rules.judge import Outcome, judge_turn
from controller.rules.scoring import GameRecord, score_game
from controller.rules.table import Table
from controller.rules.tiles import parse_tiles
from controller.rules.variants import CLASSIC, RuleSet, get_ruleset, load_ruleset

ERRORS: tuple[type[BaseException], ...] = (RulesError,)


def register(subparsers) -> None:
    check = subparsers.add_parser("check", help="classify the sets of a table (TABLE.json)")
    check.add_argument("table", metavar="TABLE.json", help='{"sets": [["R5","R6","R7"], ...]}')
    check.add_argument("--variant", help="variant whose readings apply (default: the file's, else classic)")
    _common(check)
    check.set_defaults(handler=run_check)

    judge = subparsers.add_parser("judge", help="judge one turn (TURN.json)")
    judge.add_argument("turn", metavar="TURN.json", help='{"variant", "opened", "before", "after", "rack"?, "at_alarm"?, "timer_skipped"?}')
    _common(judge)
    judge.set_defaults(handler=run_judge)

    score = subparsers.add_parser("score", help="score a finished game (GAME.json)")
    score.add_argument("game", metavar="GAME.json", help='{"variant", "players", "starter", "end", ...}')
    _common(score)
    score.set_defaults(handler=run_score)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON (the contract other tools read)")
    parser.add_argument("--ruleset", metavar="FILE.toml", help="a club's rule set (overrides the variant)")


def run_check(args: argparse.Namespace) -> int:
    data = _read_json(args.table)
    ruleset = get_ruleset(args.variant) if args.variant is not None and not args.ruleset else _ruleset(args, data, args.table, CLASSIC.name)
    table = Table.from_codes(_field(data, "sets", args.table), where=f"{args.table}: sets")
    result = table.check(ruleset)
    if args.json:
        _print_json(result.to_dict())
    else:
        for index, meld in enumerate(result.melds, 1):
            line = f"set {index}: [{' '.join(meld.codes)}] {meld.kind.value}"
            if meld.reason:
                line += f": {meld.reason}"
            if meld.jokers:
                line += "; joker " + ", ".join(f"{joker.code}" + (f" ({'/'.join(c.letter for c in joker.colours)})" if joker.colour is None else "") for joker in meld.jokers)
            print(line)
        print(f"table {'valid' if result.valid else 'NOT valid'} ({len(result.melds)} sets, {table.tile_count} tiles)")
    return 0 if result.valid else 1


def run_judge(args: argparse.Namespace) -> int:
    data = _read_json(args.turn)
    ruleset = _ruleset(args, data, args.turn)
    opened = _field(data, "opened", args.turn)
    if not isinstance(opened, bool):
        raise InputFileError(f"{args.turn}: 'opened' must be true or false, got {opened!r}")
    before = Table.from_codes(_field(data, "before", args.turn), where=f"{args.turn}: before")
    after = Table.from_codes(_field(data, "after", args.turn), where=f"{args.turn}: after")
    rack = None
    if data.get("rack") is not None:
        if not isinstance(data["rack"], list):
            raise InputFileError(f"{args.turn}: 'rack' must be a list of tile codes, got {data['rack']!r}")
        rack = parse_tiles(data["rack"])
    at_alarm = None
    if data.get("at_alarm") is not None:
        at_alarm = Table.from_codes(data["at_alarm"], where=f"{args.turn}: at_alarm")
    timer_skipped = data.get("timer_skipped", False)
    if not isinstance(timer_skipped, bool):
        raise InputFileError(f"{args.turn}: 'timer_skipped' must be true or false, got {timer_skipped!r}")
    verdict = judge_turn(before, after, opened, ruleset, rack, at_alarm=at_alarm, timer_skipped=timer_skipped)
    if args.json:
        _print_json(verdict.to_dict())
        return 0
    print(f"{verdict.outcome.value.upper()} ({ruleset.name})")
    print(f"  played: {' '.join(t.code for t in verdict.played) or '-'}")
    if verdict.taken:
        print(f"  taken from the table: {' '.join(t.code for t in verdict.taken)}")
    if verdict.after_alarm:
        print(f"  left the rack after the alarm (back to the rack): {' '.join(t.code for t in verdict.after_alarm)}")
    for violation in verdict.violations:
        print(f"  {violation.rule.value}: {violation.detail}")
    if verdict.relief is not None:
        print(f"  relieved by one straight movement: {verdict.relief.describe()}")
    if verdict.penalty is not None:
        print(f"  penalty: draw {verdict.penalty.draw}, {verdict.penalty.points} points")
    elif verdict.outcome is Outcome.DRAW:
        print(f"  draw {verdict.tiles_to_draw}")
    if verdict.restore is not None:
        back = " ".join(t.code for t in verdict.restore.to_rack) or "nothing"
        print(f"  restore: {back} back to the rack; table {verdict.restore.table}")
    return 0


def run_score(args: argparse.Namespace) -> int:
    data = _read_json(args.game)
    ruleset = _ruleset(args, data, args.game)
    try:
        record = GameRecord.from_dict(data)
    except RulesError as error:
        raise type(error)(f"{args.game}: {error}") from None
    result = score_game(record, ruleset)
    if args.json:
        _print_json(result.to_dict())
        return 0
    print(f"winner: {result.winner} ({ruleset.name})")
    for name in record.players:
        wins = f"  win {result.wins[name]}" if result.wins is not None else ""
        print(f"  {name}: {result.scores[name]:+d}{wins}  (rack {result.rack_values[name]})")
    for note in result.notes:
        print(f"  note: {note}")
    return 0


def _read_json(path: str) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputFileError(f"file {path!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputFileError(f"file {path!r} cannot be read: {error}") from None
    try:
        data = json_text.loads(text)
    except json.JSONDecodeError as error:
        raise InputFileError(f"{path}: malformed JSON: {error}") from None
    if not isinstance(data, dict):
        raise InputFileError(f"{path}: expected a JSON object, got {type(data).__name__}")
    bad = _lone_surrogate(data)
    if bad is not None:
        raise InputFileError(f"{path}: the string {bad!r} holds a lone surrogate (a \\ud800-\\udfff escape), "
                             "not a character")
    return data


def _lone_surrogate(data: Any, depth: int = 0) -> str | None:
    """The first string (value or key) holding a lone UTF-16 surrogate, or None: JSON's "\\ud800"
    parses to one, and it can be neither printed nor stored as UTF-8."""
    if isinstance(data, str):
        try:
            data.encode("utf-8")
        except UnicodeEncodeError:
            return data
        return None
    if depth > 200:
        return None  # deeper than any input of ours; the shape checks refuse it
    items = [*data.keys(), *data.values()] if isinstance(data, dict) else data if isinstance(data, list) else ()
    for item in items:
        found = _lone_surrogate(item, depth + 1)
        if found is not None:
            return found
    return None


def _field(data: dict[str, Any], key: str, path: str) -> Any:
    if key not in data:
        raise InputFileError(f"{path}: missing {key!r}")
    return data[key]


def _ruleset(args: argparse.Namespace, data: dict[str, Any], path: str, default: str | None = None) -> RuleSet:
    """--ruleset FILE wins; else the file's "variant" (required unless a default is given)."""
    if args.ruleset:
        return load_ruleset(args.ruleset)
    name = data.get("variant", default) if default is not None else _field(data, "variant", path)
    return get_ruleset(name)


def _print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))
