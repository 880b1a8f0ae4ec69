"""Ratings from signed results alone: the games of every rated event, as its verified log says they
ended (entered, imported or played results, with each amendment and deletion applied), in a fixed
order, through openskill's Plackett-Luce model (docs/league.md says why that model).

Pure: verified logs in, `Ratings` out. Nothing is stored: a club or a league rebuilds the same
ratings from the same logs, so a rating can always be checked against the records.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from openskill.models import PlackettLuce

from controller.tournament.history import PLAYED, RESULT, LogEntry
from controller.tournament.log_checks import LogState
from controller.tournament.model import GAME_ID, ChangeKind

# openskill's defaults: a new player is 25 +- 25/3; shown as the conservative ordinal mu - 3 sigma
MODEL = PlackettLuce()


@dataclass(frozen=True)
class RatedGame:
    """One game of a rated event: each player's registry ID and finishing place (1 best; ties share)."""

    origin: str  # the club the event was played at ("" for this club)
    event: str
    game: str
    at: str  # when the event's log began: events are rated in that order
    places: tuple[tuple[str, int], ...]
    names: Mapping[str, str]  # {registry ID: the name used in the event}


@dataclass(frozen=True)
class Rating:
    player_id: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatingStep:
    """A player's rating after one game."""

    player_id: str
    origin: str
    event: str
    game: str
    name_used: str
    place: int
    of: int
    rating: Rating


@dataclass(frozen=True)
class Ratings:
    table: tuple[Rating, ...]  # best first (ordinal, then mu, then ID)
    steps: tuple[RatingStep, ...]

    def history(self, player_id: str) -> tuple[RatingStep, ...]:
        return tuple(step for step in self.steps if step.player_id == player_id)

    def of(self, player_id: str) -> Rating | None:
        return next((r for r in self.table if r.player_id == player_id), None)


def settled_results(log: list[LogEntry]) -> dict[str, Mapping[str, object]]:
    """{game: result as signed} the log leaves standing: entered or played, then amended or deleted."""
    results: dict[str, Mapping[str, object]] = {}
    for entry in log:
        game = str(entry.data.get("game", ""))
        if entry.kind in (RESULT, PLAYED):
            results.setdefault(game, entry.data["result"])
        elif entry.kind == ChangeKind.AMEND.value and entry.data.get("result") is not None:
            results[game] = entry.data["result"]
        elif entry.kind == ChangeKind.DELETE.value:
            results.pop(game, None)
    return results


def places(result: Mapping[str, object], seats: tuple[str, ...]) -> dict[str, int]:
    """Each player's place in one game: the higher score places first (Rummikub, mahjong); in a match
    the winner first. Equal scores share a place."""
    if result.get("kind") == "match":
        players = tuple(result.get("players") or ()) or seats
        winner = result.get("winner")
        return {p: (1 if p == winner or winner not in players else 2) for p in players}
    scores = {str(name): float(value) for name, value in dict(result["scores"]).items()}
    return {name: 1 + sum(1 for other in scores.values() if other > score) for name, score in scores.items()}


def rated_games(origin: str, event_name: str, log: list[LogEntry], state: LogState) -> list[RatedGame]:
    """The games of one event its verified log makes, when it is rated (registered players, rated)."""
    if not state.rated or not log:
        return []
    seats = {(r.number, t.number): t.seats for r in state.rounds for t in r.tables}
    by_name = dict(state.entrants)
    games = []
    for game, result in settled_results(log).items():
        found = GAME_ID.fullmatch(game)
        table = seats.get((int(found.group(1)), int(found.group(2)))) if found else None
        if table is None:
            continue  # a round taken back holds no result (undo.py); nothing else lacks a table
        placed = places(result, table)
        if len(placed) < 2 or any(name not in by_name for name in placed):
            continue
        games.append(RatedGame(origin, event_name, game, str(log[0].data["at"]),
                               tuple(sorted((by_name[name], place) for name, place in placed.items())),
                               {by_name[name]: name for name in placed}))
    return games


def _order(game: RatedGame) -> tuple:
    found = GAME_ID.fullmatch(game.game)
    numbers = tuple(int(n) for n in found.groups()) if found else (0, 0, 0)
    return (game.at, game.origin, game.event, numbers)


def rate(games: Iterable[RatedGame]) -> Ratings:
    """Every game in order (events by when their logs began, then round, table, game), each updating
    its players' ratings with the Plackett-Luce model."""
    current: dict[str, object] = {}
    counts: dict[str, int] = {}
    steps: list[RatingStep] = []
    for game in sorted(games, key=_order):
        ids = [pid for pid, _ in game.places]
        teams = [[current.get(pid) or MODEL.rating(name=pid)] for pid in ids]
        updated = MODEL.rate(teams, ranks=[place for _, place in game.places])
        for pid, (team,) in zip(ids, updated):
            current[pid] = team
            counts[pid] = counts.get(pid, 0) + 1
            steps.append(RatingStep(pid, game.origin, game.event, game.game, game.names[pid], dict(game.places)[pid],
                                    len(ids), Rating(pid, team.mu, team.sigma, counts[pid])))
    table = [Rating(pid, r.mu, r.sigma, counts[pid]) for pid, r in current.items()]
    table.sort(key=lambda r: (-round(r.ordinal, 9), -round(r.mu, 9), r.player_id))
    return Ratings(tuple(table), tuple(steps))


def club_games(store) -> list[RatedGame]:
    """The rated games of every event in a club's TournamentStore, each event's log verified."""
    games = []
    for name, _ in store.event_names():
        _, log, state = store.verified(name)
        games.extend(rated_games("", name, log, state))
    return games
