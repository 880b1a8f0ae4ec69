"""The league table as values: every rated game of every club's verified log, each player's points
the players they finished ahead of (a Rummikub win at a table of four: 3), by registry ID.

Pure: `RatedGame`s in (ratings.py), rows out. The same games make the league's ratings.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .ratings import RatedGame


@dataclass(frozen=True)
class LeagueRow:
    place: int
    player_id: str
    name: str  # the name used in the player's latest game
    clubs: tuple[str, ...]
    events: int
    games: int
    wins: int
    points: int


def league_table(games: Iterable[RatedGame]) -> tuple[LeagueRow, ...]:
    """Points, then wins, then fewer games, then ID; equal on all but the ID share a place."""
    tally: dict[str, dict] = {}
    for game in sorted(games, key=lambda g: (g.at, g.origin, g.event, g.game)):
        for player_id, place in game.places:
            row = tally.setdefault(player_id, {"clubs": set(), "events": set(), "games": 0, "wins": 0, "points": 0})
            row["clubs"].add(game.origin)
            row["events"].add((game.origin, game.event))
            row["games"] += 1
            row["wins"] += place == 1
            row["points"] += sum(1 for _, other in game.places if other > place)
            row["name"] = game.names[player_id]
    ordered = sorted(tally.items(), key=lambda item: (-item[1]["points"], -item[1]["wins"], item[1]["games"],
                                                       item[0]))
    rows: list[LeagueRow] = []
    for index, (player_id, row) in enumerate(ordered, start=1):
        key = (row["points"], row["wins"], row["games"])
        place = rows[-1].place if rows and (rows[-1].points, rows[-1].wins, rows[-1].games) == key else index
        rows.append(LeagueRow(place, player_id, row["name"], tuple(sorted(row["clubs"])), len(row["events"]),
                              row["games"], row["wins"], row["points"]))
    return tuple(rows)
