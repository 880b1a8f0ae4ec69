"""Knockout with a losers' bracket (seed 004, shogi and othello).

The players seeded for their results at the last event take the seed positions of a
standard bracket (1 and 2 can only meet in the final); everyone else is placed by lot;
byes fall opposite the top seeds. The losers of the first round play their own
knockout ("1回戦の敗者は敗者戦を行う").

Readings (settings where it matters):
- `seeded`: the seeded players, best first (also read from a `seed` column of the
  players CSV).
- The losers' bracket is drawn by lot when the first round is complete, with byes
  when the losers are not a power of two; it runs alongside the main bracket.
- No match for third place: players out in the same main round share a place.
- `game` (shogi or othello) only names the game the results are entered for.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from ..errors import FormatError
from ..model import DrawEntry, Event, GameKind, Standings, StandingRow, StandingsSection, Table
from .base import EventFormat, RoundPlan, check_count, round_complete

MAIN, LOSERS = "main", "losers"


@dataclass(frozen=True)
class KnockoutSettings:
    game: str = "shogi"
    seeded: tuple = ()
    losers_bracket: bool = True
    CHOICES: ClassVar[dict] = {"game": ("shogi", "othello")}

    def check(self) -> None:
        if len(set(self.seeded)) != len(self.seeded):
            raise FormatError(f"setting seeded names a player twice: {list(self.seeded)!r}")


def bracket_size(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return size


def seed_positions(size: int) -> list[int]:
    """Seed number at each bracket position: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def place_lineup(seeded, unseeded, rng: random.Random, bracket: str):
    """Seeded players by number, the rest by lot; positions past the entry are byes."""
    drawn = list(unseeded)
    rng.shuffle(drawn)
    by_seed = list(seeded) + drawn
    size = bracket_size(len(by_seed))
    lineup = tuple(by_seed[s - 1] if s <= len(by_seed) else None for s in seed_positions(size))
    draw = [
        DrawEntry(p, "seed" if p in seeded else "lot", f"{bracket} bracket position {i}")
        for i, p in enumerate(lineup, start=1) if p is not None
    ]
    draw += [
        DrawEntry(a if b is None else b, "bye", f"{bracket} bracket: through to the next round")
        for a, b in zip(lineup[0::2], lineup[1::2]) if (a is None) != (b is None)
    ]
    return lineup, draw


@dataclass(frozen=True)
class Bracket:
    """A bracket as far as results go: each round's slots, None for a bye."""

    rounds: tuple[tuple[str | None, ...], ...]
    losers: dict  # player -> bracket round they lost in

    @property
    def champion(self) -> str | None:
        last = self.rounds[-1]
        return last[0] if len(last) == 1 else None


class Knockout(EventFormat):
    name = "knockout"
    game_kind = GameKind.MATCH
    settings_type = KnockoutSettings
    summary = "Shogi/othello knockout, seeds for last event's best, the rest by lot, losers' bracket for first-round losers"

    def check_players(self, players, settings: KnockoutSettings) -> None:
        check_count(self.name, players, lambda n: n >= 2, "at least 2 players")
        strangers = [p for p in settings.seeded if p not in players]
        if strangers:
            raise FormatError(f"seeded player(s) {', '.join(map(repr, strangers))} not in the player list")

    def check_entry(self, players, settings) -> None:
        check_count(self.name, players, lambda n: n >= 2, "at least 2 players")

    def round_count(self, event: Event) -> int:
        entry = len([p for p in event.round(1).lineup if p]) if event.rounds else len(event.active_players())
        size = bracket_size(entry)
        main_rounds = size.bit_length() - 1
        first_round_losers = entry - size // 2
        loser_rounds = 0
        if event.settings.losers_bracket and first_round_losers >= 2:
            loser_rounds = bracket_size(first_round_losers).bit_length() - 1
        return max(main_rounds, 1 + loser_rounds)

    def advance(self, event: Event, lineup, bracket: str, first_round: int) -> Bracket:
        rounds = [tuple(lineup)]
        losers: dict[str, int] = {}
        number = first_round
        gone = event.withdrawn()
        while len(rounds[-1]) > 1 and number <= len(event.rounds):
            slots = rounds[-1]
            tables = [t for t in event.round(number).tables if t.bracket == bracket]
            winners = []
            for a, b in zip(slots[0::2], slots[1::2]):
                if a is None or b is None:
                    winners.append(a if b is None else b)
                    continue
                table = next((t for t in tables if set(t.seats) == {a, b}), None)
                if table is None:  # not drawn: a withdrawn player's opponent goes through (walkover)
                    winners.append(None if a in gone and b in gone else b if a in gone else a)
                    for p in (a, b):
                        if p in gone:
                            losers[p] = len(rounds)
                    continue
                result = event.results.get(f"R{number}-T{table.number}-G1")
                if result is None:
                    return Bracket(tuple(rounds), losers)
                winners.append(result.winner)
                losers[b if result.winner == a else a] = len(rounds)
            rounds.append(tuple(winners))
            number += 1
        return Bracket(tuple(rounds), losers)

    def main_bracket(self, event: Event) -> Bracket:
        return self.advance(event, event.round(1).lineup, MAIN, 1)

    def losers_bracket(self, event: Event) -> Bracket | None:
        if len(event.rounds) < 2 or not event.round(2).lineup:
            return None
        return self.advance(event, event.round(2).lineup, LOSERS, 2)

    def plan_round(self, event: Event, number: int, rng: random.Random) -> RoundPlan:
        settings: KnockoutSettings = event.settings
        draw: list[DrawEntry] = []
        lineup: tuple = ()
        tables: list[Table] = []
        if number == 1:
            seeded = list(settings.seeded)
            entry = event.active_players()
            seeded = [p for p in seeded if p in entry]
            lineup, draw = place_lineup(seeded, [p for p in entry if p not in seeded], rng, MAIN)
            pairs = {MAIN: list(zip(lineup[0::2], lineup[1::2]))}
        else:
            main = self.main_bracket(event)
            pairs = {}
            if main.champion is None:
                slots = main.rounds[-1]
                pairs[MAIN] = list(zip(slots[0::2], slots[1::2]))
            losers_lineup = None
            if number == 2 and settings.losers_bracket:
                first_losers = sorted(p for p, r in main.losers.items() if r == 1 and p not in event.withdrawn())
                if len(first_losers) >= 2:
                    losers_lineup, losers_draw = place_lineup([], first_losers, rng, LOSERS)
                    draw += losers_draw
                    lineup = losers_lineup
                    pairs[LOSERS] = list(zip(losers_lineup[0::2], losers_lineup[1::2]))
            elif number > 2:
                losers = self.losers_bracket(event)
                if losers is not None and losers.champion is None:
                    slots = losers.rounds[-1]
                    pairs[LOSERS] = list(zip(slots[0::2], slots[1::2]))
        gone = event.withdrawn()
        for bracket, bracket_pairs in pairs.items():
            for a, b in bracket_pairs:
                if a is not None and b is not None and a not in gone and b not in gone:
                    tables.append(Table(len(tables) + 1, (a, b), 1, bracket))
        name = f"round {number}" + (" (main and losers' brackets)" if LOSERS in pairs else "")
        return RoundPlan(name, tuple(tables), tuple(draw), lineup)

    def standings(self, event: Event) -> Standings:
        if not event.rounds:
            rows = tuple(StandingRow(None, p, ("entered",)) for p in event.active_players())
            return Standings(event.name, self.name, False, (StandingsSection("Standings", ("status",), rows),))
        main = self.main_bracket(event)
        depth = len(event.round(1).lineup).bit_length() - 1
        sections = [self.bracket_section("Main bracket", main, depth)]
        losers = self.losers_bracket(event)
        if losers is not None:
            losers_depth = len(losers.rounds[0]).bit_length() - 1
            sections.append(self.bracket_section("Losers' bracket", losers, losers_depth))
        finished = len(event.rounds) == self.round_count(event) and round_complete(event, len(event.rounds))
        return Standings(event.name, self.name, finished, tuple(sections))

    def bracket_section(self, title: str, bracket: Bracket, depth: int) -> StandingsSection:
        rows = []
        still_in = [p for p in bracket.rounds[-1] if p is not None]
        champion = bracket.champion
        for p in still_in:
            rows.append(StandingRow(1 if champion else None, p, ("winner" if champion else "still in",)))
        for lost_round in range(len(bracket.rounds) - 1, 0, -1):
            out = sorted(p for p, r in bracket.losers.items() if r == lost_round)
            place = 2 ** (depth - lost_round) + 1
            for p in out:
                rows.append(StandingRow(place, p, (f"lost in round {lost_round}",)))
        return StandingsSection(title, ("result",), tuple(rows))
