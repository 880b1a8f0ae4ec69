"""The two mahjong events: the Ron champion cup (seed 001) and health mahjong (seed 004).

Ron cup: 16 players, 3 qualifying hanchan with new pairings each (no repeated opponents
where the lots allow); the top 8 by total go on, a tie going to the better place in the
previous hanchan; scores reset; semi-finals pair odd and even qualifier ranks (1,3,5,7 /
2,4,6,8); the top 2 of each semi-final table reach the final; the top of the final wins;
a tie at the end of a final-stage hanchan goes to the better qualifier rank.

Readings (where the seed is silent):
- "previous hanchan" place is the place at the table by hanchan score (tied scores share
  a place); if still level the hanchan before it decides, then the round's lot.
- Overall order: final places 1-4, then the semi-finalists who went out (by semi place,
  then semi score, then qualifier rank), then the rest by the qualifier ranking.
- Seats: the wind draw (East is the first dealer).

Health mahjong: 2 hanchan per player with new pairings, 30,000 start and return, the
rank points a setting (`rank_points`, default +20/+10/-10/-20, the seed has none);
standings by total, a tie going to the better place in the later hanchan, then the lot.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal

from ..draws import draw_tables_avoiding, wind_seats
from ..errors import FormatError, PlayerListError
from ..mahjong import RON_CUP_SCORING, MahjongScoring, health_scoring
from ..model import DrawEntry, Event, GameKind, Standings, StandingRow, StandingsSection, Table
from .base import (
    EventFormat,
    RoundPlan,
    check_count,
    check_hanchan_sum,
    hanchan_places,
    hanchan_totals,
    lot_rank,
    need_positive,
    round_complete,
)


def opponents_met(event: Event, rounds) -> frozenset[frozenset[str]]:
    met = set()
    for number in rounds:
        for table in event.round(number).tables:
            met.update(frozenset((a, b)) for a in table.seats for b in table.seats if a != b)
    return frozenset(met)


def qualifying_round_plan(event: Event, number: int, name: str, rng: random.Random) -> RoundPlan:
    met = opponents_met(event, range(1, number))
    players = event.active_players()
    if len(players) % 4:
        raise PlayerListError(
            f"{len(players)} players left cannot sit at tables of 4: enter a late entry "
            f"(tileref tournament late-entry) or withdraw a player (tileref tournament withdraw)")
    groups, draw, repeats = draw_tables_avoiding(players, [4] * (len(players) // 4), met, rng)
    if repeats:
        draw.append(DrawEntry("-", f"{repeats} repeated pairing(s)", "fewest the lots allowed"))
    return seat_tables(name, groups, draw, rng)


def seat_tables(name: str, groups, draw, rng: random.Random) -> RoundPlan:
    tables = []
    for number, group in enumerate(groups, start=1):
        seats, seat_draw = wind_seats(group, rng)
        draw = list(draw) + seat_draw
        tables.append(Table(number, tuple(seats), 1))
    return RoundPlan(name, tuple(tables), tuple(draw))


def qualifier_ranking(event: Event, rounds: tuple[int, ...]) -> list[str]:
    """Total score, then the better place in the previous hanchan, and the one before."""
    totals = hanchan_totals(event, rounds)
    places = {number: hanchan_places(event, number) for number in rounds}
    lots = lot_rank(event.round(rounds[-1]))
    played = dict.fromkeys(p for n in rounds for p in event.round(n).players())
    return sorted(
        played,
        key=lambda p: (-totals[p], *(places[n].get(p, 5) for n in reversed(rounds)), lots.get(p, len(lots))),
    )


def total_rows(event, order, rounds, notes=None) -> tuple[StandingRow, ...]:
    totals = hanchan_totals(event, rounds)
    per_round = {n: hanchan_totals(event, (n,)) for n in rounds}
    notes = notes or {}
    return tuple(
        StandingRow(place, p, (*(per_round[n].get(p, Decimal("0.0")) for n in rounds), totals[p]), notes.get(p, ""))
        for place, p in enumerate(order, start=1)
    )


@dataclass(frozen=True)
class RonCupSettings:
    qualifying_hanchan: int = 3

    def check(self) -> None:
        need_positive(self, "qualifying_hanchan")


class RonCup(EventFormat):
    name = "ron-cup"
    game_kind = GameKind.MAHJONG
    settings_type = RonCupSettings
    summary = "Mahjong, 16 players: 3 qualifying hanchan, top 8 to semi-finals (odd/even), top 2 per table to the final"
    scoring: MahjongScoring = RON_CUP_SCORING

    def check_players(self, players, settings) -> None:
        check_count(self.name, players, lambda n: n >= 8 and n % 4 == 0, "a multiple of 4, at least 8 (the seed: 16)")

    def round_count(self, event: Event) -> int:
        return event.settings.qualifying_hanchan + 2

    def late_entry_rounds(self, event: Event) -> int:
        """A late entry sits in for the qualifying hanchan left (a hanchan missed scores 0.0)."""
        return event.settings.qualifying_hanchan - 1

    def qualifying(self, event: Event) -> tuple[int, ...]:
        return tuple(range(1, event.settings.qualifying_hanchan + 1))

    def plan_round(self, event: Event, number: int, rng: random.Random) -> RoundPlan:
        last_qualifier = event.settings.qualifying_hanchan
        if number <= last_qualifier:
            return qualifying_round_plan(event, number, f"qualifying hanchan {number}", rng)
        ranks = self.qualifier_ranks(event)
        gone = event.withdrawn()
        if number == last_qualifier + 1:
            qualified = [p for p in sorted(ranks, key=ranks.get) if p not in gone][:8]
            groups = [qualified[0::2], qualified[1::2]]  # odd ranks, even ranks
            return seat_tables("semi-final", groups, [], rng)
        semi = event.round(last_qualifier + 1)
        finalists = [p for table in semi.tables
                     for p in [q for q in self.table_order(event, table.seats, semi.number) if q not in gone][:2]]
        return seat_tables("final", [finalists], [], rng)

    def qualifier_ranks(self, event: Event) -> dict[str, int]:
        order = qualifier_ranking(event, self.qualifying(event))
        return {p: rank for rank, p in enumerate(order, start=1)}

    def table_order(self, event: Event, players, round_number: int) -> list[str]:
        """A final-stage hanchan: score, a tie to the better qualifier rank."""
        scores = hanchan_totals(event, (round_number,))
        ranks = self.qualifier_ranks(event)
        return sorted(players, key=lambda p: (-scores[p], ranks[p]))

    def check_scores(self, event, table, result) -> None:
        check_hanchan_sum(result, self.scoring)

    def standings(self, event: Event) -> Standings:
        if not event.rounds:
            rows = tuple(StandingRow(i, p, (Decimal("0.0"),)) for i, p in enumerate(event.active_players(), 1))
            return Standings(event.name, self.name, False, (StandingsSection("Standings", ("total",), rows),))
        last_q = event.settings.qualifying_hanchan
        drawn = len(event.rounds)
        qualifying = self.qualifying(event)[:drawn]
        order = qualifier_ranking(event, qualifying)
        semi_players = set(event.round(last_q + 1).players()) if drawn > last_q else set()
        notes = {p: "semi-finalist" for p in semi_players}
        sections = [
            StandingsSection(
                "Qualifying hanchan",
                (*(f"hanchan {n}" for n in qualifying), "total"),
                total_rows(event, order, qualifying, notes),
            )
        ]
        overall: list[tuple[str, str, Decimal]] = []
        finished = False
        if drawn == last_q + 2:
            final = event.round(last_q + 2)
            final_order = self.table_order(event, final.players(), final.number)
            scores = hanchan_totals(event, (final.number,))
            sections.insert(0, StandingsSection(
                "Final", ("score",), tuple(StandingRow(i, p, (scores[p],)) for i, p in enumerate(final_order, 1))
            ))
            overall += [(p, "final", scores[p]) for p in final_order]
            finished = round_complete(event, final.number)
        if drawn > last_q:
            semi = event.round(last_q + 1)
            scores = hanchan_totals(event, (semi.number,))
            ranks = self.qualifier_ranks(event)
            finalists = set(event.round(last_q + 2).players()) if drawn == last_q + 2 else set()
            place_at = {}
            rows = []
            for table in semi.tables:
                for place, p in enumerate(self.table_order(event, table.seats, semi.number), start=1):
                    place_at[p] = place
                    rows.append(StandingRow(place, p, (table.number, ranks[p], scores[p]),
                                            "finalist" if p in finalists else ""))
            sections.insert(len(sections) - 1, StandingsSection(
                "Semi-final (place at table)", ("table", "qualifier rank", "score"), tuple(rows)
            ))
            placed = {p for p, _, _ in overall}
            out = sorted(
                (p for p in semi.players() if p not in placed),
                key=lambda p: (place_at[p], -scores[p], ranks[p]),
            )
            overall += [(p, "semi-final", scores[p]) for p in out]
        placed = {p for p, _, _ in overall}
        totals = hanchan_totals(event, qualifying)
        overall += [(p, "qualifying", totals[p]) for p in order if p not in placed]
        rows = tuple(
            StandingRow(i, p, (stage, score), "winner" if finished and i == 1 else "")
            for i, (p, stage, score) in enumerate(overall, start=1)
        )
        return Standings(event.name, self.name, finished,
                         (StandingsSection("Standings", ("stage", "score"), rows), *sections))


@dataclass(frozen=True)
class HealthMahjongSettings:
    hanchan: int = 2
    rank_points: tuple = (Decimal("20"), Decimal("10"), Decimal("-10"), Decimal("-20"))

    def check(self) -> None:
        need_positive(self, "hanchan")
        if len(self.rank_points) != 4:
            raise FormatError(f"setting rank_points needs 4 values, got {len(self.rank_points)}")


class HealthMahjong(EventFormat):
    name = "health-mahjong"
    game_kind = GameKind.MAHJONG
    settings_type = HealthMahjongSettings
    summary = "Mahjong, 2 hanchan per player with new pairings, totals; rank points a setting"

    def scoring(self, event: Event) -> MahjongScoring:
        return health_scoring(tuple(event.settings.rank_points))

    def check_players(self, players, settings) -> None:
        check_count(self.name, players, lambda n: n >= 4 and n % 4 == 0, "a multiple of 4 players")

    def round_count(self, event: Event) -> int:
        return event.settings.hanchan

    def late_entry_rounds(self, event: Event) -> int:
        return event.settings.hanchan - 1

    def plan_round(self, event: Event, number: int, rng: random.Random) -> RoundPlan:
        return qualifying_round_plan(event, number, f"hanchan {number}", rng)

    def check_scores(self, event, table, result) -> None:
        check_hanchan_sum(result, self.scoring(event))

    def standings(self, event: Event) -> Standings:
        rounds = tuple(range(1, len(event.rounds) + 1))
        if not rounds:
            rows = tuple(StandingRow(i, p, (Decimal("0.0"),)) for i, p in enumerate(event.active_players(), 1))
            return Standings(event.name, self.name, False, (StandingsSection("Standings", ("total",), rows),))
        order = qualifier_ranking(event, rounds)
        finished = len(rounds) == self.round_count(event) and round_complete(event, rounds[-1])
        rows = total_rows(event, order, rounds)
        if finished:
            rows = (StandingRow(rows[0].place, rows[0].player, rows[0].values, "winner"), *rows[1:])
        return Standings(event.name, self.name, finished, (
            StandingsSection("Standings", (*(f"hanchan {n}" for n in rounds), "total"), rows),
        ))
