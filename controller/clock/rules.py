"""Clock settings as data: one `ClockRules` per game, filled from the event's format (seed 001
and 004) and then overridden from the command line. Pure: no box, no file, no clock."""
from __future__ import annotations

import dataclasses
import enum
import math
from dataclasses import dataclass

from .errors import ClockInputError


class ClockGame(str, enum.Enum):
    SHOGI = "shogi"
    OTHELLO = "othello"
    MAHJONG = "mahjong"


class Reading(str, enum.Enum):
    """How a time limit is read: a bank for each side (the box's DUEL mode: the running
    side's button hands over), or one countdown for the whole game (the box's SESSION mode)."""

    PER_SIDE = "per-side"
    PER_GAME = "per-game"


class Scoring(str, enum.Enum):
    RON_CUP = "ron-cup"
    HEALTH_MAHJONG = "health-mahjong"


@dataclass(frozen=True)
class ClockRules:
    game: ClockGame
    seconds: int | None  # per side (PER_SIDE) or for the game/session (PER_GAME); None: no limit
    reading: Reading
    flag_loses: bool  # the side whose time runs out loses (shogi; othello read per side)
    scoring: Scoring | None = None  # mahjong: the rules `tileref mahjong score` converts with
    rank_points: tuple[str, ...] = ()  # health mahjong: the event's rank points (places 1-4)
    source: str = ""  # where the settings came from, for the record

    @property
    def box_mode(self) -> str:
        return "DUEL" if self.reading is Reading.PER_SIDE else "SESSION"

    def pairs(self) -> tuple[tuple[str, object], ...]:
        """As recorded in the game's first event (JSON-able values)."""
        def plain(value):
            return value.value if isinstance(value, enum.Enum) else value

        return tuple((f.name, plain(getattr(self, f.name))) for f in dataclasses.fields(self))


MINUTE = 60


def default_rules(game: ClockGame, *, final: bool = False, scoring: Scoring | None = None,
                  limited: bool = True, rank_points: tuple[str, ...] = ()) -> ClockRules:
    """The seeds' settings. `final`: the knockout final (shogi 35, othello 40 minutes);
    `limited`: False for a Ron cup final-stage hanchan (no time limit, seed 001)."""
    if game is ClockGame.SHOGI:
        return ClockRules(game, (35 if final else 30) * MINUTE, Reading.PER_SIDE, True,
                          source="seed 004 shogi: 30 minutes each, sudden death (final 35)")
    if game is ClockGame.OTHELLO:
        return ClockRules(game, (40 if final else 30) * MINUTE, Reading.PER_GAME, False,
                          source="seed 004 othello: 30 minutes a game (final 40)")
    scoring = scoring or Scoring.RON_CUP
    if scoring is Scoring.RON_CUP:
        minutes = 60 if limited else None
        source = "seed 001 Ron cup: qualifier hanchan end at the first hand finished after 60 minutes" if limited \
            else "seed 001 Ron cup: no time limit in the final tournament"
    else:
        minutes, source = 50, "seed 004 health mahjong: 50 minutes, the hand at time is the last"
    return ClockRules(game, None if minutes is None else minutes * MINUTE, Reading.PER_GAME, False, scoring,
                      tuple(rank_points) if scoring is Scoring.HEALTH_MAHJONG else (), source)


def override(rules: ClockRules, *, minutes: float | None = None, seconds: int | None = None,
             reading: str | None = None, no_limit: bool = False) -> ClockRules:
    """Command-line overrides; a bad one raises ClockInputError naming it."""
    changes: dict[str, object] = {}
    given = [name for name, value in (("--minutes", minutes), ("--seconds", seconds)) if value is not None]
    if no_limit:
        given.append("--no-limit")
    if len(given) > 1:
        raise ClockInputError(f"{' and '.join(given)}: give one time setting, not both")
    if minutes is not None:
        if not 0 < minutes < math.inf or minutes * MINUTE != int(minutes * MINUTE):
            raise ClockInputError(f"--minutes {minutes:g}: expected a positive number of whole seconds")
        if minutes * MINUTE > 86400:
            raise ClockInputError(f"--minutes {minutes:g}: expected at most 1440 (the box counts 86400 s at most)")
        changes["seconds"] = int(minutes * MINUTE)
    if seconds is not None:
        if not 1 <= seconds <= 86400:
            raise ClockInputError(f"--seconds {seconds}: expected 1..86400")
        changes["seconds"] = seconds
    if no_limit:
        if rules.game is not ClockGame.MAHJONG:
            raise ClockInputError(f"--no-limit: only a mahjong session may run without a limit, not {rules.game.value}")
        changes["seconds"] = None
    if reading is not None:
        try:
            parsed = Reading(reading)
        except ValueError:
            raise ClockInputError(f"--reading {reading!r}: expected per-side or per-game") from None
        if rules.game is not ClockGame.OTHELLO and parsed is not rules.reading:
            raise ClockInputError(f"--reading {reading}: {rules.game.value} is read {rules.reading.value} only")
        changes["reading"] = parsed
        changes["flag_loses"] = parsed is Reading.PER_SIDE or rules.game is ClockGame.SHOGI
    if not changes:
        return rules
    note = "; overridden: " + ", ".join(f"{k}={getattr(v, 'value', v)}" for k, v in changes.items() if k != "flag_loses")
    return dataclasses.replace(rules, **changes, source=rules.source + note)
