"""Warsaw championship (seed 003, Rummikub, world scoring: one big point to the winner,
small points zero-sum).

Tables (prepared lots) and seats (dice, highest die seat 1) are drawn before every
stage: eliminations are 2 rounds of 2 games, each round with a new draw, up to 64
players on 16 tables; then a semi-final on 4 tables and a final on 1. Standings:
wins first, then small points.

Readings where the seed is silent (settings):
- A table of 3 plays 3 games in a stage played at one table (`stage_games` - 1); in an
  elimination round it plays the same `elimination_games` (2) as everyone, the seed's
  "3 at a table of 3" being the exception to a stage's 4 games.
- The semi-final takes the top `semi_finalists` (16) of the eliminations (both rounds
  added up); scores reset for every stage.
- `final_entry`: `table-winners` (default: the best of each semi-final table) or
  `overall` (the 4 best semi-finalists by wins, then small points).
- Remaining ties are settled by the lot drawn with the stage's (last) round.
- Overall order: finalists by the final, then the other semi-finalists by the semi-final,
  then everyone else by the eliminations.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from ..draws import dice_seats, draw_tables, table_sizes
from ..errors import FormatError, PlayerListError
from ..model import Event, GameKind, Standings, StandingRow, StandingsSection, Table
from .base import (
    EventFormat,
    RoundPlan,
    check_count,
    check_rummikub_world,
    lot_rank_over,
    need_positive,
    round_complete,
    rummikub_tally,
)

ELIMINATION_ROUNDS = (1, 2)
SEMI_FINAL, FINAL = 3, 4
FINAL_TABLE = 4
MAX_PLAYERS = 64


@dataclass(frozen=True)
class WarsawSettings:
    elimination_games: int = 2
    stage_games: int = 4
    semi_finalists: int = 16
    final_entry: str = "table-winners"
    CHOICES: ClassVar[dict] = {"final_entry": ("table-winners", "overall")}

    def check(self) -> None:
        need_positive(self, "elimination_games", "stage_games")
        if self.semi_finalists < 4 or self.semi_finalists > MAX_PLAYERS:
            raise FormatError(f"setting semi_finalists={self.semi_finalists} must be 4 to {MAX_PLAYERS}")


class Warsaw(EventFormat):
    name = "warsaw"
    game_kind = GameKind.RUMMIKUB
    variant = "world"
    settings_type = WarsawSettings
    summary = "Rummikub, up to 64 players: 2 elimination rounds x 2 games, semi-final 4 tables, final 1"
    table_disqualification = True

    def check_players(self, players, settings: WarsawSettings) -> None:
        least = settings.semi_finalists
        check_count(
            self.name, players, lambda n: least <= n <= MAX_PLAYERS and n >= 6,
            f"{least} to {MAX_PLAYERS} players",
        )

    def round_count(self, event: Event) -> int:
        return 4

    def late_entry_rounds(self, event: Event) -> int:
        """A late entry plays the second elimination round (2 games fewer than the rest)."""
        return 1

    def stage_rounds(self, number: int) -> tuple[int, ...]:
        return ELIMINATION_ROUNDS if number in ELIMINATION_ROUNDS else (number,)

    def ranking(self, event: Event, players, rounds: tuple[int, ...]) -> list[str]:
        tally = rummikub_tally(event, rounds)
        lots = lot_rank_over(event, rounds)
        return sorted(players, key=lambda p: (-tally[p].wins, -tally[p].points, lots[p]))

    def entrants(self, event: Event, number: int) -> list[str]:
        """Who plays round `number`; disqualified players are out of the event, withdrawn players
        give their place to the next in line."""
        settings: WarsawSettings = event.settings
        out = {**event.disqualified(), **event.withdrawn()}
        if number in ELIMINATION_ROUNDS:
            return [p for p in event.players if p not in out]
        if number == SEMI_FINAL:
            played = dict.fromkeys(p for r in ELIMINATION_ROUNDS for p in event.round(r).players())
            ranked = self.ranking(event, [p for p in played if p not in out], ELIMINATION_ROUNDS)
            return ranked[: settings.semi_finalists]
        semi = event.round(SEMI_FINAL)
        in_play = [p for p in semi.players() if p not in out]
        stage_order = self.ranking(event, in_play, (SEMI_FINAL,))
        if settings.final_entry == "overall":
            return stage_order[:FINAL_TABLE]
        winners = [
            self.ranking(event, [p for p in t.seats if p not in out], (SEMI_FINAL,))[0]
            for t in semi.tables
            if not event.is_disqualified_table(SEMI_FINAL, t.number) and any(p not in out for p in t.seats)
        ]
        if len(winners) < FINAL_TABLE:  # fewer than 4 semi tables in play: fill by the stage order
            winners += [p for p in stage_order if p not in winners][: FINAL_TABLE - len(winners)]
        return winners[:FINAL_TABLE]

    def plan_round(self, event: Event, number: int, rng: random.Random) -> RoundPlan:
        settings: WarsawSettings = event.settings
        players = self.entrants(event, number)
        try:
            sizes = table_sizes(len(players))
        except ValueError:
            raise PlayerListError(f"{len(players)} players left cannot sit at tables of 3 or 4") from None
        groups, draw = draw_tables(players, sizes, rng)
        tables = []
        for table_number, group in enumerate(groups, start=1):
            seats, seat_draw = dice_seats(group, rng)
            draw += seat_draw
            if number in ELIMINATION_ROUNDS:
                games = settings.elimination_games
            else:
                games = settings.stage_games - (4 - len(group))
            tables.append(Table(table_number, tuple(seats), max(games, 1)))
        name = {1: "elimination round 1", 2: "elimination round 2", 3: "semi-final", 4: "final"}[number]
        return RoundPlan(name, tuple(tables), tuple(draw))

    def check_scores(self, event, table, result) -> None:
        check_rummikub_world(result)

    def stage_section(self, event: Event, title: str, rounds: tuple[int, ...], notes: dict) -> tuple:
        players = [p for p in dict.fromkeys(p for r in rounds for p in event.round(r).players())]
        order = self.ranking(event, players, rounds)
        tally = rummikub_tally(event, rounds)
        out = event.disqualified()
        tables = {p: t.number for r in rounds for t in event.round(r).tables for p in t.seats}
        rows = tuple(
            StandingRow(place, p, (tables[p], tally[p].games, tally[p].wins, tally[p].points),
                        "disqualified" if p in out else notes.get(p, ""))
            for place, p in enumerate(order, start=1)
        )
        return order, StandingsSection(title, ("table", "games", "wins", "small points"), rows)

    def standings(self, event: Event) -> Standings:
        drawn = len(event.rounds)
        sections = []
        overall: list[str] = []
        stage_of: dict[str, tuple[str, int, int]] = {}
        if drawn >= FINAL:
            order, section = self.stage_section(event, "Final", (FINAL,), {})
            sections.append(section)
            tally = rummikub_tally(event, (FINAL,))
            overall += order
            stage_of.update({p: ("final", tally[p].wins, tally[p].points) for p in order})
        if drawn >= SEMI_FINAL:
            finalists = set(event.round(FINAL).players()) if drawn >= FINAL else set()
            order, section = self.stage_section(
                event, "Semi-final", (SEMI_FINAL,), {p: "finalist" for p in finalists}
            )
            sections.append(section)
            tally = rummikub_tally(event, (SEMI_FINAL,))
            overall += [p for p in order if p not in finalists]
            stage_of.update({p: ("semi-final", tally[p].wins, tally[p].points) for p in order if p not in stage_of})
        if drawn >= 1:
            semi = set(event.round(SEMI_FINAL).players()) if drawn >= SEMI_FINAL else set()
            rounds = ELIMINATION_ROUNDS[: min(drawn, 2)]
            order, section = self.stage_section(
                event, "Eliminations", rounds, {p: "semi-finalist" for p in semi}
            )
            sections.append(section)
            tally = rummikub_tally(event, rounds)
            overall += [p for p in order if p not in semi]
            stage_of.update({p: ("eliminations", tally[p].wins, tally[p].points) for p in order if p not in stage_of})
        else:
            overall = list(event.active_players())
            stage_of = {p: ("entered", 0, 0) for p in overall}
        finished = drawn == FINAL and round_complete(event, FINAL)
        out = event.disqualified()
        rows = tuple(
            StandingRow(place, p, stage_of[p], "winner" if finished and place == 1 else "")
            for place, p in enumerate((p for p in overall if p not in out), start=1)
        ) + tuple(
            StandingRow(None, p, stage_of[p],
                        f"disqualified in round {out[p].round}, table {out[p].table}: {out[p].reason}")
            for p in overall if p in out
        )
        return Standings(
            event.name, self.name, finished,
            (StandingsSection("Standings", ("stage", "wins", "small points"), rows), *sections),
        )
