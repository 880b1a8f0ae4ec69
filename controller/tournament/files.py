"""Reading the files an organiser hands in: the player list and results (JSON or CSV).

Parsing is pure (text in, core values out); errors name the file, the line or entry
and the offending value.

Players CSV: a header with a `name` column; an optional `seed` column (1 = best of the
last event) marks seeded players for a knockout.

Results JSON: `{"results": [entry, ...]}` (or just the list), each entry with `game`
(e.g. "R1-T2-G3") and one of:
- Rummikub: `"winner": name, "scores": {name: int}`
- mahjong, already scored: `"scores": {name: number}` (0.1 steps)
- mahjong, raw: `"hanchan": {"points": ..., "seat_order": ..., "riichi_left": 0, "chombo": {}}`
- knockout: `"winner": name` (optional `"detail"`), or `"othello": {"black", "white",
  "black_discs", "white_discs", "draw_right"}`, or `"shogi": {"sente", "gote",
  "outcomes": ["repetition", "gote"]}`

Results CSV (hand entry): header `game,player,score,winner`, one row per player and game;
`winner` is 1/yes/x on the winner's row. Knockout rows need only `game,player,winner`
(the winner's row is enough).
"""
from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

from controller import json_text
from .boardgames import OthelloCount, othello_result, shogi_result
from .errors import InputFileError, TournamentError
from .formats import get_format
from .mahjong import MAX_SCORE, parse_decimal_score, parse_hanchan, score_hanchan
from .model import Event, GameKind, HanchanResult, MatchResult, Result, RummikubGameResult

TRUE_MARKS = {"1", "yes", "y", "x", "true", "w", "winner"}


def read_players_csv(text: str, source: str = "players CSV") -> tuple[list[str], list[str]]:
    """The names in file order, and the seeded names best first."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    if "name" not in header:
        raise InputFileError(f"{source}: needs a header with a 'name' column, found {reader.fieldnames!r}")
    reader.fieldnames = header
    names: list[str] = []
    seeds: list[tuple[int, str]] = []
    for line, row in enumerate(reader, start=2):
        name = (row.get("name") or "").strip()
        if not name:
            if any((v or "").strip() for v in row.values() if isinstance(v, str)):
                raise InputFileError(f"{source} line {line}: empty name")
            continue
        names.append(name)
        seed = (row.get("seed") or "").strip()
        if seed:
            try:
                seeds.append((int(seed), name))
            except ValueError:
                raise InputFileError(f"{source} line {line}: seed {seed!r} of {name!r} is not a whole number") from None
    numbers = [n for n, _ in seeds]
    if len(set(numbers)) != len(numbers):
        raise InputFileError(f"{source}: seed numbers repeat: {sorted(numbers)}")
    return names, [name for _, name in sorted(seeds)]


def _int_score(value: object, what: str) -> int:
    if isinstance(value, bool):
        raise InputFileError(f"{what}: {value!r} is not a whole number")
    if isinstance(value, int):
        if abs(value) > MAX_SCORE:
            raise InputFileError(f"{what}: {value} is larger than any score (at most {MAX_SCORE:,} either way)")
        return value
    if isinstance(value, (dict, list)) or value is None:
        raise InputFileError(f"{what}: {value!r} is not a whole number")
    try:
        number = Decimal(str(value).strip())
    except ArithmeticError:
        raise InputFileError(f"{what}: {value!r} is not a whole number") from None
    if number.is_finite() and number.adjusted() > 9:  # before any arithmetic: 1e999999999 overflows it
        raise InputFileError(f"{what}: {value!r} is larger than any score (at most {MAX_SCORE:,} either way)")
    if not number.is_finite() or number != number.to_integral_value():
        raise InputFileError(f"{what}: {value!r} is not a whole number")
    if abs(number) > MAX_SCORE:
        raise InputFileError(f"{what}: {value!r} is larger than any score (at most {MAX_SCORE:,} either way)")
    return int(number)


def _name_map(value: object, what: str) -> dict:
    if not isinstance(value, dict):
        raise InputFileError(f"{what}: expected an object of name: score, got {value!r}")
    return value


def result_from_entry(event: Event, entry: object, where: str) -> Result:
    """One results-JSON entry, read for the kind of game the event plays."""
    if not isinstance(entry, dict):
        raise InputFileError(f"{where}: expected an object, got {entry!r}")
    game = entry.get("game")
    if not isinstance(game, str) or not game:
        raise InputFileError(f"{where}: missing 'game' (e.g. \"R1-T1-G1\")")
    where = f"{where} ({game})"
    kind = get_format(event.format).game_kind
    try:
        if kind is GameKind.RUMMIKUB:
            scores = _name_map(entry.get("scores"), f"{where} scores")
            winner = entry.get("winner")
            if not isinstance(winner, str):
                raise InputFileError(f"{where}: 'winner' must name the player who won, got {winner!r}")
            return RummikubGameResult(
                game, {str(k): _int_score(v, f"{where} score of {k!r}") for k, v in scores.items()}, winner
            )
        if kind is GameKind.MAHJONG:
            if "hanchan" in entry:
                scoring = get_format(event.format).scoring
                scoring = scoring(event) if callable(scoring) else scoring
                return HanchanResult(game, score_hanchan(parse_hanchan(entry["hanchan"], where), scoring))
            scores = _name_map(entry.get("scores"), f"{where} scores")
            return HanchanResult(
                game, {str(k): parse_decimal_score(v, f"{where} score of {k!r}") for k, v in scores.items()}
            )
        if "othello" in entry:
            o = entry["othello"]
            if not isinstance(o, dict):
                raise InputFileError(f"{where}: 'othello' must be an object, got {o!r}")
            return othello_result(game, OthelloCount(
                str(o.get("black")), str(o.get("white")),
                _int_score(o.get("black_discs"), f"{where} black_discs"),
                _int_score(o.get("white_discs"), f"{where} white_discs"),
                o.get("draw_right"),
            ))
        if "shogi" in entry:
            s = entry["shogi"]
            if not isinstance(s, dict) or not isinstance(s.get("outcomes"), list):
                raise InputFileError(f"{where}: 'shogi' needs sente, gote and a list of outcomes, got {s!r}")
            return shogi_result(game, str(s.get("sente")), str(s.get("gote")), tuple(map(str, s["outcomes"])))
        winner = entry.get("winner")
        if not isinstance(winner, str):
            raise InputFileError(f"{where}: 'winner' must name the player who won, got {winner!r}")
        return MatchResult(game, winner, str(entry.get("detail", "")))
    except InputFileError:
        raise
    except TournamentError as error:
        raise type(error)(f"{where}: {error}") from None


def read_results_json(event: Event, text: str, source: str = "results JSON") -> list[Result]:
    try:
        data = json_text.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as error:
        raise InputFileError(f"{source}: not JSON ({error})") from None
    entries = data.get("results") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise InputFileError(f"{source}: expected {{\"results\": [...]}} or a list of results")
    return [result_from_entry(event, e, f"{source} entry {i}") for i, e in enumerate(entries, start=1)]


def read_results_csv(event: Event, text: str, source: str = "results CSV") -> list[Result]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    kind = get_format(event.format).game_kind
    needed = ["game", "player"] + (["score"] if kind is not GameKind.MATCH else ["winner"])
    if kind is GameKind.RUMMIKUB:
        needed.append("winner")
    missing = [c for c in needed if c not in header]
    if missing:
        raise InputFileError(f"{source}: header lacks column(s) {', '.join(missing)}; found {reader.fieldnames!r}")
    reader.fieldnames = header
    games: dict[str, dict] = {}
    for line, row in enumerate(reader, start=2):
        game = (row.get("game") or "").strip()
        player = (row.get("player") or "").strip()
        if not game and not player:
            continue
        if not game or not player:
            raise InputFileError(f"{source} line {line}: needs both game and player")
        entry = games.setdefault(game, {"game": game, "scores": {}, "winners": [], "line": line})
        if player in entry["scores"]:
            raise InputFileError(f"{source} line {line}: {player!r} appears twice in {game}")
        if kind is not GameKind.MATCH:
            entry["scores"][player] = (row.get("score") or "").strip()
        else:
            entry["scores"][player] = ""
        if (row.get("winner") or "").strip().lower() in TRUE_MARKS:
            entry["winners"].append(player)
    results = []
    for game, entry in games.items():
        where = f"{source} line {entry['line']}"
        data: dict = {"game": game}
        if kind is GameKind.MAHJONG:
            data["scores"] = entry["scores"]
        else:
            if len(entry["winners"]) != 1:
                raise InputFileError(
                    f"{where} ({game}): mark exactly one winner, found {len(entry['winners'])}"
                )
            data["winner"] = entry["winners"][0]
            if kind is GameKind.RUMMIKUB:
                data["scores"] = entry["scores"]
        results.append(result_from_entry(event, data, where))
    return results
