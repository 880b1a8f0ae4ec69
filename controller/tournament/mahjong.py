"""Scoring one mahjong hanchan, exactly, in points of 0.1.

Ron cup (seed 001): (points - 30,000) / 1,000, rank points +50/+10/-10/-30, riichi
sticks left on the table to the top, tied players share rank points and sticks
equally with any 0.1 left over going 0.1 each to the tied players nearest the first
dealer, -20 per chombo after the ranks are settled. Everything is counted in whole
tenths (ints) so no float ever touches a score.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Mapping

from .errors import InputFileError, ScoreError

PLAYERS_AT_TABLE = 4


@dataclass(frozen=True)
class MahjongScoring:
    name: str
    start_points: int
    return_points: int
    rank_points: tuple[Decimal, ...]  # for places 1..4
    chombo_penalty: Decimal  # added per chombo, after ranks are settled
    riichi_stick: int = 1000


RON_CUP_SCORING = MahjongScoring(
    name="ron-cup",
    start_points=25_000,
    return_points=30_000,
    rank_points=tuple(Decimal(v) for v in ("50", "10", "-10", "-30")),
    chombo_penalty=Decimal("-20"),
)


def health_scoring(rank_points: tuple[Decimal, ...]) -> MahjongScoring:
    """Health mahjong (seed 004): 30,000 start and return; chombo is paid in points
    (3,000 to each other player) so it costs nothing more in the score."""
    return MahjongScoring(
        name="health-mahjong",
        start_points=30_000,
        return_points=30_000,
        rank_points=rank_points,
        chombo_penalty=Decimal("0"),
    )


@dataclass(frozen=True)
class Hanchan:
    points: Mapping[str, int]
    seat_order: tuple[str, ...]  # first dealer first
    riichi_left: int = 0
    chombo: Mapping[str, int] | None = None


MAX_SCORE = 10**9  # larger than any game or hanchan scores; refused before it is made a Python int


def tenths(value: Decimal, what: str) -> int:
    if not value.is_finite() or value.adjusted() > 9 or abs(value) > MAX_SCORE:
        raise ScoreError(f"{what} {_short(value)} is not a score (at most {MAX_SCORE:,} either way)")
    scaled = value * 10
    if scaled != scaled.to_integral_value():
        raise ScoreError(f"{what} {value} is finer than 0.1")
    return int(scaled)


def _short(value: object, limit: int = 40) -> str:
    text = str(value)
    return text if len(text) <= limit else f"{text[:limit - 3]}... ({len(text)} characters)"


def from_tenths(count: int) -> Decimal:
    return Decimal(count).scaleb(-1)


def parse_hanchan(data: object, source: str = "hanchan") -> Hanchan:
    """Read the documented HANCHAN JSON object, refusing anything else by name."""
    if not isinstance(data, dict):
        raise InputFileError(f"{source}: expected a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - {"points", "seat_order", "riichi_left", "chombo"})
    if unknown:
        raise InputFileError(f"{source}: unknown key(s) {', '.join(map(repr, unknown))}")
    points = data.get("points")
    if not isinstance(points, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in points.values()
    ):
        raise InputFileError(f"{source}: 'points' must map each name to an integer, got {points!r}")
    seat_order = data.get("seat_order")
    if not isinstance(seat_order, list) or not all(isinstance(n, str) for n in seat_order):
        raise InputFileError(f"{source}: 'seat_order' must be a list of names, got {seat_order!r}")
    riichi_left = data.get("riichi_left", 0)
    if not isinstance(riichi_left, int) or isinstance(riichi_left, bool):
        raise InputFileError(f"{source}: 'riichi_left' must be an integer, got {riichi_left!r}")
    chombo = data.get("chombo", {})
    if not isinstance(chombo, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in chombo.values()
    ):
        raise InputFileError(f"{source}: 'chombo' must map names to counts, got {chombo!r}")
    return Hanchan(dict(points), tuple(seat_order), riichi_left, dict(chombo))


def check_hanchan(hanchan: Hanchan, scoring: MahjongScoring) -> None:
    seats = hanchan.seat_order
    if len(seats) != PLAYERS_AT_TABLE or len(set(seats)) != PLAYERS_AT_TABLE:
        raise ScoreError(f"seat_order must name 4 different players, got {list(seats)!r}")
    if set(hanchan.points) != set(seats):
        raise ScoreError(
            f"points are given for {sorted(hanchan.points)!r} but the seats are {sorted(seats)!r}"
        )
    for name, value in hanchan.points.items():
        if value % 100:
            raise ScoreError(f"points of {name!r} are {value}, not a multiple of 100")
    if hanchan.riichi_left < 0:
        raise ScoreError(f"riichi_left is {hanchan.riichi_left}, below zero")
    for name, count in (hanchan.chombo or {}).items():
        if name not in seats:
            raise ScoreError(f"chombo for {name!r}, who is not at this table")
        if count < 0:
            raise ScoreError(f"chombo count of {name!r} is {count}, below zero")
    on_table = sum(hanchan.points.values()) + hanchan.riichi_left * scoring.riichi_stick
    expected = PLAYERS_AT_TABLE * scoring.start_points
    if on_table != expected:
        raise ScoreError(
            f"points do not add up: {sum(hanchan.points.values()):,} in hand + "
            f"{hanchan.riichi_left} riichi stick(s) = {on_table:,}, expected {expected:,}"
        )


def score_hanchan(hanchan: Hanchan, scoring: MahjongScoring) -> dict[str, Decimal]:
    """Scores in seat order (first dealer first), each a Decimal with one decimal place."""
    check_hanchan(hanchan, scoring)
    seats = hanchan.seat_order
    rank_tenths = [tenths(v, "rank points") for v in scoring.rank_points]
    stick_tenths = hanchan.riichi_left * scoring.riichi_stick // 100
    penalty_tenths = tenths(scoring.chombo_penalty, "chombo penalty")
    score = {name: (hanchan.points[name] - scoring.return_points) // 100 for name in seats}
    by_points = sorted(seats, key=lambda name: -hanchan.points[name])
    place = 0
    while place < len(by_points):
        tied = [n for n in by_points if hanchan.points[n] == hanchan.points[by_points[place]]]
        shared = sum(rank_tenths[place : place + len(tied)])
        if place == 0:
            shared += stick_tenths
        each, left_over = divmod(shared, len(tied))
        # seat_order runs from the first dealer, so its order is "nearest the first dealer"
        for position, name in enumerate(sorted(tied, key=seats.index)):
            score[name] += each + (1 if position < left_over else 0)
        place += len(tied)
    for name, count in (hanchan.chombo or {}).items():
        score[name] += penalty_tenths * count
    return {name: from_tenths(score[name]) for name in seats}


def format_score(value: Decimal) -> str:
    return f"{value:.1f}"


def scores_json(scores: Mapping[str, Decimal]) -> str:
    """`{"scores": {name: number}}`, every number written with exactly one decimal."""
    import json

    body = ", ".join(f"{json.dumps(name)}: {format_score(v)}" for name, v in scores.items())
    return '{"scores": {' + body + "}}"


def parse_decimal_score(value: object, what: str) -> Decimal:
    """A score read from JSON or CSV text; floats from JSON are taken by their text."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise InputFileError(f"{what}: {value!r} is not a number")
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        raise InputFileError(f"{what}: {value!r} is not a number") from None
    if not number.is_finite():
        raise InputFileError(f"{what}: {value!r} is not a number")
    tenths(number, what)
    return number.quantize(Decimal("0.1"))
