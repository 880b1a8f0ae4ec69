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
    ChangeError,
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
from .model import (
    Change,
    ChangeKind,
    Disqualification,
    Event,
    HanchanResult,
    MatchResult,
    Result,
    RummikubGameResult,
    Standings,
    StandingRow,
    StandingsSection,
)


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
    if number == 1:  # withdrawals and late entries may have changed the entry since it was made
        event_format.check_entry(list(event.active_players()), event.settings)
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
    if result.game in event.results or result.game in event.result_changes():
        raise DuplicateResultError(
            f"game {result.game!r} already has a result; to put it right: "
            f"tileref tournament amend {event.name!r} {result.game} ... --reason TEXT")
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


def for_seats(event: Event, result: Result) -> Result:
    """The result with each substitute's name replaced by the player whose seat they took: the game
    counts for the seat's player."""
    names = event.substitutes(result.game)
    if not names:
        return result
    if isinstance(result, RummikubGameResult):
        return RummikubGameResult(result.game, {names.get(k, k): v for k, v in result.scores.items()},
                                  names.get(result.winner, result.winner))
    if isinstance(result, HanchanResult):
        return HanchanResult(result.game, {names.get(k, k): v for k, v in result.scores.items()})
    return MatchResult(result.game, names.get(result.winner, result.winner), result.detail,
                       tuple(names.get(p, p) for p in result.players))


def enter_results(event: Event, results: Iterable[Result]) -> Event:
    """All or nothing: the first bad result raises and the event is unchanged. A substitute's
    name is taken as the player they sit in for."""
    recorded = dict(event.results)
    staged = dataclasses.replace(event, results=recorded)
    for result in results:
        result = for_seats(staged, result)
        check_result(staged, result)
        recorded[result.game] = result
    return staged


# --- changes after the fact (each one a signed entry of the event's history) ---------------

def _owed_games(event: Event, player: str) -> list[str]:
    return [game for number in range(1, len(event.rounds) + 1) for game in event.missing_games(number)
            if player in event.table_of_game(game)[1].seats]


def check_change(event: Event, change: Change) -> None:
    """Whether the director may make `change` now; raises ChangeError (or the result's own error)
    naming what stands in the way. Checked before a change is recorded, not when it is replayed."""
    if not change.reason.strip():
        raise ChangeError(f"{change.kind.value}: say why (--reason TEXT); the reason is recorded")
    check_name(change.reason, "reason")
    kind = change.kind
    if kind in (ChangeKind.AMEND, ChangeKind.DELETE, ChangeKind.SUBSTITUTE):
        if event.table_of_game(change.game) is None:
            raise ChangeError(f"game {change.game!r} has not been drawn in event {event.name!r}")
    if kind is ChangeKind.AMEND:
        if change.game not in event.results and change.game not in event.result_changes():
            raise ChangeError(f"game {change.game!r} has no result to amend; enter it with "
                              f"tileref tournament result {event.name!r} {change.game} ...")
        if change.result is None or change.result.game != change.game:
            raise ChangeError(f"an amendment of {change.game!r} needs that game's result")
        without = dict(event.results)
        without.pop(change.game, None)
        check_result(dataclasses.replace(event, results=without,
                                         history=tuple(c for c in event.history if c.game != change.game
                                                       or c.kind is ChangeKind.SUBSTITUTE)),
                     for_seats(event, change.result))
    elif kind is ChangeKind.DELETE:
        if change.game not in event.results:
            raise ChangeError(f"game {change.game!r} has no result to delete")
    elif kind is ChangeKind.WITHDRAW:
        if change.player not in event.players:
            raise UnknownPlayerError(f"unknown player {change.player!r} in event {event.name!r}")
        if change.player in event.withdrawn():
            raise ChangeError(f"{change.player!r} has withdrawn already ({event.withdrawn()[change.player].summary()})")
        if is_finished(event):
            raise EventFinishedError(f"event {event.name!r} is finished: nobody can withdraw")
        owed = _owed_games(event, change.player)
        if owed:
            raise ChangeError(f"{change.player!r} still plays {', '.join(owed)}: a player withdraws between "
                              "rounds; for a game they cannot play, seat a substitute "
                              f"(tileref tournament substitute {event.name!r} {owed[0]} --for {change.player!r} "
                              "--player NAME --reason TEXT)")
    elif kind is ChangeKind.LATE_ENTRY:
        name = change.player
        check_name(name, "player name")
        if not name.strip():
            raise PlayerListError("a late entry needs a name")
        if name in event.players:
            raise PlayerListError(f"player {name!r} is entered already")
        last = get_format(event.format).late_entry_rounds(event)
        if len(event.rounds) > last:
            when = "before the first round is drawn" if last == 0 else f"until round {last + 1} is drawn"
            raise ChangeError(f"the {event.format} format takes late entries only {when}; "
                              f"{len(event.rounds)} round(s) are drawn")
    elif kind is ChangeKind.SUBSTITUTE:
        round_, table = event.table_of_game(change.game)
        check_name(change.substitute, "substitute's name")
        if not change.substitute.strip():
            raise PlayerListError("a substitute needs a name")
        if event.is_disqualified_table(round_.number, table.number):
            raise DisqualifiedError(f"{change.game}: table {table.number} of round {round_.number} is disqualified")
        if change.game in event.results:
            raise ChangeError(f"game {change.game!r} has a result already: a substitute is seated before the game")
        if change.player not in table.seats:
            raise UnknownPlayerError(f"{change.game}: {change.player!r} does not sit at table {table.number} "
                                     f"of round {round_.number} (seats: {', '.join(table.seats)})")
        seated = {p: t.number for t in round_.tables for p in t.seats}
        if change.substitute in seated:
            raise ChangeError(f"{change.game}: {change.substitute!r} plays at table {seated[change.substitute]} "
                              f"of round {round_.number}")
        taken = event.substitutes(change.game)
        if change.substitute in taken or change.player in taken.values():
            raise ChangeError(f"{change.game}: a substitute is seated already "
                              f"({', '.join(f'{s} for {p}' for s, p in taken.items())})")


def apply_change(event: Event, change: Change) -> Event:
    """The event with one history entry applied. Replaying an event's history entry by entry gives
    its present state; nothing is edited in place."""
    results = dict(event.results)
    players = event.players
    if change.kind is ChangeKind.AMEND and change.result is not None:
        results[change.game] = for_seats(event, change.result)
    elif change.kind is ChangeKind.DELETE:
        results.pop(change.game, None)
    elif change.kind is ChangeKind.LATE_ENTRY and change.player not in players:
        players = players + (change.player,)
    return dataclasses.replace(event, players=players, results=results, history=event.history + (change,))


def record_change(event: Event, change: Change) -> Event:
    """Check and apply one change made now (it notes how many rounds are drawn)."""
    change = dataclasses.replace(change, rounds_drawn=len(event.rounds))
    check_change(event, change)
    return apply_change(event, change)


def disqualify_table(event: Event, round_number: int, table_number: int, reason: str) -> Event:
    """Disqualify every player at one table (formats whose rules have it: warsaw)."""
    event_format = get_format(event.format)
    if not event_format.table_disqualification:
        raise DisqualifiedError(
            f"the {event.format} format has no table disqualification; a player who leaves is withdrawn "
            f"between rounds (tileref tournament withdraw {event.name!r} PLAYER --reason TEXT), and a game they "
            "cannot play is given to a substitute (tileref tournament substitute)")
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
    """The format's standings, with every withdrawal noted on its player's rows and every change
    of the event's history listed (`Standings.changes`)."""
    table = get_format(event.format).standings(event)
    gone = event.withdrawn()
    if not gone and not event.history:
        return table
    substituted: dict[str, list[Change]] = {}  # every game someone sat in for a player, in the order seated
    for c in event.history:
        if c.kind is ChangeKind.SUBSTITUTE:
            substituted.setdefault(c.player, []).append(c)
    amended = event.result_changes()

    def note(row: StandingRow) -> str:
        extra = []
        if row.player in gone:
            extra.append(f"withdrew after round {gone[row.player].rounds_drawn}: {gone[row.player].reason}")
        games = sorted(g for g, c in amended.items() if c.kind is ChangeKind.AMEND and c.result is not None
                       and row.player in _names(for_seats(event, c.result)))
        if games:
            extra.append("amended: " + ", ".join(games))
        extra += [f"{c.substitute} played {c.game} for them" for c in substituted.get(row.player, ())]
        return "; ".join(([row.note] if row.note else []) + extra)

    sections = tuple(
        StandingsSection(s.title, s.columns, tuple(dataclasses.replace(r, note=note(r)) for r in s.rows))
        for s in table.sections
    )
    return dataclasses.replace(table, sections=sections, changes=tuple(c.summary() for c in event.history))


def _names(result: Result | None) -> set[str]:
    if result is None:
        return set()
    if isinstance(result, MatchResult):
        return {result.winner, *result.players}
    return set(result.scores)


__all__ = [
    "create_event", "draw_next_round", "enter_results", "check_result", "standings", "is_finished",
    "disqualify_table", "check_change", "apply_change", "record_change", "for_seats",
]
