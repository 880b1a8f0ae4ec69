"""Kuwana qualifier (seed 000, Rummikub, japan-2017 scoring).

8 players are drawn into tables of 4 and play three games; points are added up.
The top 2 of each table reach the final table carrying half their first-round points,
rounded up; the final order is by final points (carried + final games).

Readings where the seed is silent (settings):
- `final_games` (default 3): the seed does not say how many games the final plays;
  3, like the first round.
- `final_entry` for 12 (or 16) players, where the seed only says "the way to the final
  changes": the final stays one table of 4, filled by the table winners first and then
  the best runners-up by first-round points (`winners-then-runners-up`, the default;
  with 8 players this is exactly the seed's top 2 of each table). `overall-points`
  takes the top 4 by first-round points regardless of table.
- "rounded up" is towards plus infinity (-35 carries -17).
- Ties: points, then wins, then (final) first-round points, then the round's lot.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from ..draws import draw_tables, tile_seats
from ..errors import FormatError
from ..model import Event, GameKind, Standings, StandingRow, StandingsSection, Table
from .base import (
    EventFormat,
    RoundPlan,
    check_count,
    check_rummikub_japan,
    lot_rank,
    need_positive,
    rummikub_tally,
)

FIRST_ROUND, FINAL = 1, 2


@dataclass(frozen=True)
class KuwanaSettings:
    first_round_games: int = 3
    final_games: int = 3
    final_entry: str = "winners-then-runners-up"
    CHOICES: ClassVar[dict] = {"final_entry": ("winners-then-runners-up", "overall-points")}

    def check(self) -> None:
        need_positive(self, "first_round_games", "final_games")


def carried(points: int) -> int:
    """Half the first-round points, rounded up (towards plus infinity)."""
    return -((-points) // 2)


class Kuwana(EventFormat):
    name = "kuwana"
    game_kind = GameKind.RUMMIKUB
    variant = "japan-2017"
    settings_type = KuwanaSettings
    summary = "Rummikub, 8/12/16 players at tables of 4, three games, final table of 4 with half points carried"

    def check_players(self, players, settings) -> None:
        check_count(self.name, players, lambda n: n in (8, 12, 16), "8, 12 or 16 players")

    def round_count(self, event: Event) -> int:
        return 2

    def plan_round(self, event: Event, number: int, rng: random.Random) -> RoundPlan:
        settings: KuwanaSettings = event.settings
        if number == FIRST_ROUND:
            players = event.active_players()
            groups, draw = draw_tables(players, [4] * (len(players) // 4), rng)
            name, games = "first round", settings.first_round_games
        else:
            groups, draw = [list(self.finalists(event))], []
            name, games = "final", settings.final_games
        tables = []
        for number_, group in enumerate(groups, start=1):
            seats, seat_draw = tile_seats(group, rng)
            draw += seat_draw
            tables.append(Table(number_, tuple(seats), games))
        return RoundPlan(name, tuple(tables), tuple(draw))

    def check_scores(self, event, table, result) -> None:
        check_rummikub_japan(result)

    # --- standings ---------------------------------------------------------------------

    def first_round_order(self, event: Event) -> dict[int, list[str]]:
        """Each table's players best first."""
        tally = rummikub_tally(event, [FIRST_ROUND])
        lots = lot_rank(event.round(FIRST_ROUND))
        return {
            table.number: sorted(
                table.seats, key=lambda p: (-tally[p].points, -tally[p].wins, lots[p])
            )
            for table in event.round(FIRST_ROUND).tables
        }

    def overall_first_round(self, event: Event, players) -> list[str]:
        tally = rummikub_tally(event, [FIRST_ROUND])
        lots = lot_rank(event.round(FIRST_ROUND))
        return sorted(players, key=lambda p: (-tally[p].points, -tally[p].wins, lots[p]))

    def finalists(self, event: Event) -> tuple[str, ...]:
        """A player who withdrew after the first round gives their place to the next in line: at
        their table (the table's next best) or overall, as `final_entry` says."""
        settings: KuwanaSettings = event.settings
        gone = event.withdrawn()
        by_table = {number: [p for p in order if p not in gone]
                    for number, order in self.first_round_order(event).items()}
        by_table = {number: order for number, order in by_table.items() if order}
        if settings.final_entry == "overall-points":
            return tuple(self.overall_first_round(event, [p for p in event.round(FIRST_ROUND).players()
                                                          if p not in gone])[:4])
        if settings.final_entry != "winners-then-runners-up":
            raise FormatError(f"kuwana final_entry {settings.final_entry!r} is unknown")
        chosen = [order[0] for order in by_table.values()][:4]
        for place in range(1, 4):
            if len(chosen) == 4:
                break
            runners_up = self.overall_first_round(event, [o[place] for o in by_table.values() if len(o) > place])
            chosen += runners_up[: 4 - len(chosen)]
        return tuple(chosen)

    def standings(self, event: Event) -> Standings:
        sections = []
        overall: list[tuple[str, tuple, str]] = []
        if event.rounds:
            first = rummikub_tally(event, [FIRST_ROUND])
            by_table = self.first_round_order(event)
            finalists = event.round(FINAL).players() if len(event.rounds) > 1 else ()
            rows = []
            for number, order in by_table.items():
                for place, player in enumerate(order, start=1):
                    t = first[player]
                    rows.append(
                        StandingRow(
                            place, player, (number, t.games, t.wins, t.points, carried(t.points)),
                            "finalist" if player in finalists else "",
                        )
                    )
            first_section = StandingsSection(
                "First round (place at table)",
                ("table", "games", "wins", "points", "carried"),
                tuple(rows),
            )
            if len(event.rounds) > 1:
                final = rummikub_tally(event, [FINAL])
                lots = lot_rank(event.round(FINAL))
                order = sorted(
                    finalists,
                    key=lambda p: (
                        -(carried(first[p].points) + final[p].points),
                        -final[p].wins,
                        -first[p].points,
                        lots[p],
                    ),
                )
                final_rows = tuple(
                    StandingRow(
                        place, p,
                        (carried(first[p].points), final[p].games, final[p].wins, final[p].points,
                         carried(first[p].points) + final[p].points),
                    )
                    for place, p in enumerate(order, start=1)
                )
                sections.append(
                    StandingsSection(
                        "Final", ("carried", "games", "wins", "final points", "total"), final_rows
                    )
                )
                overall += [(p, ("final", carried(first[p].points) + final[p].points), "") for p in order]
            rest = self.overall_first_round(
                event, [p for p in event.round(FIRST_ROUND).players() if p not in finalists]
            )
            overall += [(p, ("first round", first[p].points), "") for p in rest]
            sections.append(first_section)
        else:
            overall = [(p, ("entered", 0), "") for p in event.active_players()]
        finished = len(event.rounds) == 2 and not event.missing_games(FINAL)
        overall_rows = tuple(
            StandingRow(place, p, values, "winner" if finished and place == 1 else note)
            for place, (p, values, note) in enumerate(overall, start=1)
        )
        return Standings(
            event.name, self.name, finished,
            (StandingsSection("Standings", ("stage", "points"), overall_rows), *sections),
        )
