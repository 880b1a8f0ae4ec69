"""The pure life of an event: create it, draw each round from a seed, enter results,
read standings. Every function takes an `Event` and returns a new one; nothing here
touches a file, a database or a clock, so the storage adapter can check a whole batch
before it writes anything.
"""
from __future__ import annotations

import dataclasses
import random
import unicodedata
from typing import Iterable, Mapping, Sequence

from .errors import (
    DisqualifiedError,
    DuplicateResultError,
    EventFinishedError,
    GameNotDrawnError,
    PlayerListError,
    RoundNotCompleteError,
    ScoreError,
    UnknownPlayerError,
)
from .formats import get_format
from .formats.base import RESULT_TYPES, build_round, parse_settings
from .model import Disqualification, Event, MatchResult, Result, RummikubGameResult, Standings


def check_name(text: str, what: str) -> None:
    """A name is printed, stored and put on pages: no control characters (a NUL cuts it short in
    C code and SQLite tools), no lone surrogates (not UTF-8 at all)."""
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None:
        raise PlayerListError(f"{what} {text!r} holds the character {bad!r} (U+{ord(bad):04X}); "
                              "names are printable text")


def create_event(
    name: str, format_name: str, players: Sequence[str], settings: Mapping[str, object] | None = None
) -> Event:
    event_format = get_format(format_name)
    parsed = parse_settings(event_format.settings_type, settings or {})
    clean = [p.strip() for p in players]
    if not name.strip():
        raise PlayerListError("the event needs a name")
    check_name(name, "event name")
    for player in clean:
        check_name(player, "player name")
    empty = [i for i, p in enumerate(clean, start=1) if not p]
    if empty:
        raise PlayerListError(f"player {empty[0]} in the list has an empty name")
    seen: set[str] = set()
    for player in clean:
        if player in seen:
            raise PlayerListError(f"player {player!r} is entered twice")
        seen.add(player)
    event_format.check_players(clean, parsed)
    return Event(name=name, format=format_name, settings=parsed, players=tuple(clean))


def is_finished(event: Event) -> bool:
    event_format = get_format(event.format)
    return len(event.rounds) == event_format.round_count(event) and not event.missing_games(
        len(event.rounds)
    )


def draw_next_round(event: Event, seed: int) -> Event:
    """Draw the next round with `random.Random(seed)`; the same seed gives the same draw."""
    event_format = get_format(event.format)
    number = len(event.rounds) + 1
    if event.rounds:
        missing = event.missing_games(len(event.rounds))
        if missing:
            shown = ", ".join(missing[:6]) + (" ..." if len(missing) > 6 else "")
            raise RoundNotCompleteError(
                f"round {len(event.rounds)} still has {len(missing)} game(s) without a result: {shown}"
            )
    if number > event_format.round_count(event):
        raise EventFinishedError(f"event {event.name!r} is finished: all {number - 1} rounds are drawn")
    rng = random.Random(seed)
    plan = event_format.plan_round(event, number, rng)
    new_round = build_round(number, seed, plan, rng)
    return dataclasses.replace(event, rounds=event.rounds + (new_round,), results=dict(event.results))


def check_result(event: Event, result: Result) -> None:
    event_format = get_format(event.format)
    expected = RESULT_TYPES[event_format.game_kind]
    if not isinstance(result, expected):
        raise ScoreError(
            f"{result.game}: a {event.format} event takes {expected.__name__}, got {type(result).__name__}"
        )
    found = event.table_of_game(result.game)
    if found is None:
        raise GameNotDrawnError(f"game {result.game!r} has not been drawn in event {event.name!r}")
    round_, table = found
    if event.is_disqualified_table(round_.number, table.number):
        raise DisqualifiedError(
            f"{result.game}: table {table.number} of round {round_.number} is disqualified"
        )
    if result.game in event.results:
        raise DuplicateResultError(f"game {result.game!r} already has a result")
    if isinstance(result, MatchResult):
        names = [result.winner, *result.players]
    else:
        names = list(result.scores)
        if isinstance(result, RummikubGameResult):
            names.append(result.winner)
    for name in names:
        if name not in event.players:
            raise UnknownPlayerError(f"{result.game}: unknown player {name!r}")
        if name not in table.seats:
            raise UnknownPlayerError(
                f"{result.game}: {name!r} does not sit at table {table.number} of round {round_.number}"
            )
    if isinstance(result, MatchResult) and result.players and set(result.players) != set(table.seats):
        raise ScoreError(f"{result.game}: the result names {list(result.players)!r}, the board {list(table.seats)!r}")
    if not isinstance(result, MatchResult):
        absent = [p for p in table.seats if p not in result.scores]
        if absent:
            raise ScoreError(f"{result.game}: no score for {', '.join(map(repr, absent))}")
    event_format.check_scores(event, table, result)


def enter_results(event: Event, results: Iterable[Result]) -> Event:
    """All or nothing: the first bad result raises and the event is unchanged."""
    recorded = dict(event.results)
    staged = dataclasses.replace(event, results=recorded)
    for result in results:
        check_result(staged, result)
        recorded[result.game] = result
    return staged


def disqualify_table(event: Event, round_number: int, table_number: int, reason: str) -> Event:
    """Disqualify every player at one table (formats whose rules have it: warsaw)."""
    event_format = get_format(event.format)
    if not event_format.table_disqualification:
        raise DisqualifiedError(f"the {event.format} format has no table disqualification")
    if not 1 <= round_number <= len(event.rounds):
        raise GameNotDrawnError(f"round {round_number} has not been drawn in event {event.name!r}")
    tables = {t.number: t for t in event.round(round_number).tables}
    if table_number not in tables:
        raise GameNotDrawnError(f"round {round_number} has no table {table_number} (tables 1-{len(tables)})")
    if event.is_disqualified_table(round_number, table_number):
        raise DuplicateResultError(f"table {table_number} of round {round_number} is already disqualified")
    if not reason.strip():
        raise DisqualifiedError("a disqualification needs a reason")
    entry = Disqualification(round_number, table_number, tables[table_number].seats, reason.strip())
    return dataclasses.replace(event, disqualifications=event.disqualifications + (entry,))


def standings(event: Event) -> Standings:
    return get_format(event.format).standings(event)


__all__ = [
    "create_event", "draw_next_round", "enter_results", "check_result", "standings", "is_finished",
    "disqualify_table",
]
