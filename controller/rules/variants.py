"""Rule variants as data: one frozen `RuleSet` per variant, every difference a named field.

`CLASSIC` (box manual, seed 002), `JAPAN_2017` (association tournament rules, seed 000) and
`WORLD` (Polish / World Championship rules, seed 003). `get_ruleset(name)` finds a bundled
one; `ruleset_from_mapping(data)` builds a club's own from parsed TOML (pure), and
`load_ruleset(path)` is the one function here that touches a file.

A club file names a base and overrides fields; enum fields take their string value:

    name = "kuwana-club"
    extends = "japan-2017"
    seconds_per_turn = 90
    rearrange_from = "same-turn"

Fields whose value is a *reading* of an ambiguous seed are marked "reading" below and in
docs/rules.md.
"""
from __future__ import annotations

import dataclasses
import enum
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .errors import InputFileError, RuleSetError
from .melds import MeldKind


class RearrangeFrom(enum.Enum):
    """From which turn a player may touch the sets already on the table."""

    SAME_TURN = "same-turn"  # in the turn the initial meld is laid, once it is laid
    NEXT_TURN = "next-turn"  # only from the turn after the initial meld


class JokerPolicy(enum.Enum):
    """What may happen to a joker that lies on the table."""

    FREE = "free"  # moves like any tile (japan-2017: the pre-1997 limits are gone)
    CLASSIC = "classic"  # swap only for a rack tile; its set may grow but never split
    WORLD = "world"  # rack or table tile may replace it, sets may split; freeing costs a rack tile


class FreedJokerCompanion(enum.Enum):
    """Where the rack tile must be that goes with a freed joker."""

    SAME_SET = "same-set"  # in the set that takes the joker
    SAME_TURN = "same-turn"  # anywhere in the same turn


class UnrestorableTiles(enum.Enum):
    """Who gets tiles nobody can put back after a failed turn (the camera usually can)."""

    END_OF_POOL = "end-of-pool"
    OFFENDER_TAKES = "offender-takes"
    OFFENDER_TAKES_LOOSE = "offender-takes-loose"  # every tile not in a valid set


class PoolOutLoss(enum.Enum):
    """What a loser scores when the pool ran out."""

    DIFFERENCE_TO_WINNER = "difference-to-winner"  # minus (own rack - winner's rack)
    OWN_RACK = "own-rack"  # minus own rack


class PoolOutEnd(enum.Enum):
    """When a game whose pool is empty ends (for the game flow)."""

    LAST_TILE_DRAWN = "last-tile-drawn"
    NOBODY_CAN_PLAY = "nobody-can-play"


class TieBreak(enum.Enum):
    """Who wins among players tied for the lowest rack."""

    NEAREST_STARTER = "nearest-starter"  # the starter, then clockwise from them
    FIRST_SEAT = "first-seat"  # seat order as listed, ignoring the starter


class LateInvalidSet(enum.Enum):
    """An invalid set the verdict missed (a misread, an arbiter's acceptance) that someone notices later."""

    PENALTY_BEFORE_NEXT_TURN = "penalty-before-next-turn"  # the turn is judged again until the next turn starts; then it stands
    STANDS = "stands"  # the verdict given stands whenever it is noticed


class StartBy(enum.Enum):
    """How the first player is chosen."""

    TILE_DRAW = "tile-draw"  # each draws a tile, highest starts (start_draw_joker, start_draw_ties)
    LOT = "lot"  # the youngest, or drawn by lot (e.g. by an app): named by the arbiter or drawn by the controller


class RedealWhen(enum.Enum):
    """When the redeal right (enough doubled tiles in the deal) may be used."""

    NEVER = "never"
    OWN_FIRST_TURN = "own-first-turn"  # at the start of that player's own first turn
    AFTER_DEAL = "after-deal"


class StartDrawJoker(enum.Enum):
    """A joker drawn to decide who starts."""

    HIGHEST = "highest"
    DRAW_AGAIN = "draw-again"


class StartDrawTies(enum.Enum):
    """Which equal draws must be drawn again."""

    ALL = "all"  # every tie: the draw also decides the seats
    TOP = "top"  # only a tie for the highest: the draw decides the starter only


@dataclass(frozen=True)
class RuleSet:
    name: str
    description: str = ""
    # Timer.
    seconds_per_turn: int = 60
    rack_locked_after_alarm: bool = False
    timer_skip_for_simple_turns: bool = False
    # Initial meld and rearranging.
    initial_meld_points: int = 30
    rearrange_from: RearrangeFrom = RearrangeFrom.SAME_TURN
    # Jokers on the table.
    joker_policy: JokerPolicy = JokerPolicy.CLASSIC
    freed_joker_companion: FreedJokerCompanion = FreedJokerCompanion.SAME_SET
    freed_joker_into_other_set: bool = False  # it may not go back into the set it was freed from
    # A turn with no tile played.
    no_play_keeps_rearrangement: bool = False
    no_play_draw: int = 1
    # A failed turn.
    penalty_draw: int = 3
    penalty_points: int = 0  # subtracted per penalty, never collected by the winner
    unrestorable_tiles: UnrestorableTiles = UnrestorableTiles.END_OF_POOL
    unrestorable_keeps_penalty_draw: bool = True  # the penalty draw still applies when the table cannot be restored
    relief_one_straight_movement: bool = False
    relief_six_tile_split: bool = False
    unchanged_invalid_sets_stand: bool = True
    late_invalid_set: LateInvalidSet = LateInvalidSet.PENALTY_BEFORE_NEXT_TURN
    # Reading the sets.
    descending_runs: bool = True
    ambiguous_joker_set: MeldKind = MeldKind.RUN
    # Deal and start.
    redeal_min_doubles: int = 3
    redeal_when: RedealWhen = RedealWhen.NEVER
    start_by: StartBy = StartBy.TILE_DRAW
    start_draw_joker: StartDrawJoker = StartDrawJoker.DRAW_AGAIN
    start_draw_ties: StartDrawTies = StartDrawTies.TOP
    # Scoring.
    joker_rack_value: int = 30
    winner_bonus: int = 0
    winner_collects_losses: bool = True
    pool_out_loss: PoolOutLoss = PoolOutLoss.DIFFERENCE_TO_WINNER
    pool_out_end: PoolOutEnd = PoolOutEnd.NOBODY_CAN_PLAY
    tie_break: TieBreak = TieBreak.NEAREST_STARTER
    big_points: bool = False
    unopened_points: int | None = None  # scored instead of the rack by a player never opened
    unopened_could_open_points: int | None = None  # the same, when the rack could have opened
    unopened_rule_on_pool_out: bool = False
    # Tournament: a tile count at a table that differs from the start disqualifies its players.
    count_mismatch_disqualifies: bool = False

    def melds_reading(self) -> dict[str, Any]:
        """Keyword arguments for `melds.classify` under this rule set's readings."""
        return {"descending_runs": self.descending_runs, "ambiguous_kind": self.ambiguous_joker_set}

    def to_dict(self) -> dict[str, Any]:
        return {
            field.name: (value.value if isinstance(value, enum.Enum) else value)
            for field in dataclasses.fields(self)
            for value in [getattr(self, field.name)]
        }


CLASSIC = RuleSet(
    name="classic",
    description="The box manual (seed 002).",
    seconds_per_turn=60,
    initial_meld_points=30,
    rearrange_from=RearrangeFrom.SAME_TURN,  # reading: "from the turn in which the 30 were laid"
    joker_policy=JokerPolicy.CLASSIC,
    freed_joker_companion=FreedJokerCompanion.SAME_SET,  # reading of "together with another rack tile"
    no_play_keeps_rearrangement=False,  # reading: a turn without a tile is a draw, table as before
    penalty_draw=3,
    penalty_points=0,
    unrestorable_tiles=UnrestorableTiles.END_OF_POOL,
    unrestorable_keeps_penalty_draw=True,  # "restore ... draw 3; the tiles left over go to the end of the pool"
    unchanged_invalid_sets_stand=True,  # reading: not stated
    late_invalid_set=LateInvalidSet.PENALTY_BEFORE_NEXT_TURN,  # reading: not stated; as japan-2017, the only seed that says
    redeal_when=RedealWhen.NEVER,
    start_by=StartBy.TILE_DRAW,
    start_draw_joker=StartDrawJoker.DRAW_AGAIN,  # reading: not stated
    start_draw_ties=StartDrawTies.TOP,
    joker_rack_value=30,
    winner_bonus=0,
    winner_collects_losses=True,
    pool_out_loss=PoolOutLoss.DIFFERENCE_TO_WINNER,
    pool_out_end=PoolOutEnd.NOBODY_CAN_PLAY,
    tie_break=TieBreak.NEAREST_STARTER,  # reading: not stated
)

JAPAN_2017 = RuleSet(
    name="japan-2017",
    description="Rummikub association tournament rules, August 2017 (seed 000).",
    seconds_per_turn=60,
    rack_locked_after_alarm=True,
    timer_skip_for_simple_turns=True,
    initial_meld_points=30,
    rearrange_from=RearrangeFrom.NEXT_TURN,
    joker_policy=JokerPolicy.FREE,
    freed_joker_companion=FreedJokerCompanion.SAME_TURN,  # unused under FREE
    no_play_keeps_rearrangement=True,
    penalty_draw=1,
    penalty_points=50,
    unrestorable_tiles=UnrestorableTiles.OFFENDER_TAKES,
    unrestorable_keeps_penalty_draw=True,  # "restore, the offender draws 1; tiles that cannot be restored he takes"
    relief_one_straight_movement=True,  # reading of "one straight movement": see relief.py
    relief_six_tile_split=True,
    unchanged_invalid_sets_stand=True,
    late_invalid_set=LateInvalidSet.PENALTY_BEFORE_NEXT_TURN,
    redeal_when=RedealWhen.OWN_FIRST_TURN,
    start_by=StartBy.TILE_DRAW,
    start_draw_joker=StartDrawJoker.HIGHEST,
    start_draw_ties=StartDrawTies.ALL,
    joker_rack_value=50,
    winner_bonus=100,
    winner_collects_losses=False,
    pool_out_loss=PoolOutLoss.DIFFERENCE_TO_WINNER,  # reading of "lose with zero points"
    pool_out_end=PoolOutEnd.LAST_TILE_DRAWN,
    tie_break=TieBreak.NEAREST_STARTER,
)

WORLD = RuleSet(
    name="world",
    description="Polish / World Championship rules as quoted for Warsaw 2019 (seed 003).",
    seconds_per_turn=40,
    initial_meld_points=30,
    rearrange_from=RearrangeFrom.NEXT_TURN,
    joker_policy=JokerPolicy.WORLD,
    freed_joker_companion=FreedJokerCompanion.SAME_TURN,
    freed_joker_into_other_set=True,  # "w innej serii lub grupie"
    no_play_keeps_rearrangement=False,
    penalty_draw=1,
    penalty_points=0,
    unrestorable_tiles=UnrestorableTiles.OFFENDER_TAKES_LOOSE,
    unrestorable_keeps_penalty_draw=True,  # reading: the failed turn's draw 1 stands beside taking the loose tiles
    unchanged_invalid_sets_stand=True,  # reading: not stated
    late_invalid_set=LateInvalidSet.PENALTY_BEFORE_NEXT_TURN,  # reading: not stated; as japan-2017
    redeal_when=RedealWhen.AFTER_DEAL,
    start_by=StartBy.LOT,  # "the youngest, or drawn (e.g. by an app)"
    start_draw_joker=StartDrawJoker.DRAW_AGAIN,  # reading: as classic
    start_draw_ties=StartDrawTies.TOP,  # reading: as classic
    joker_rack_value=50,
    winner_bonus=0,
    winner_collects_losses=True,  # "plus the sum of the others' points": their -100/-200 too (reading)
    pool_out_loss=PoolOutLoss.DIFFERENCE_TO_WINNER,  # reading: as classic
    pool_out_end=PoolOutEnd.NOBODY_CAN_PLAY,  # reading: as classic
    tie_break=TieBreak.NEAREST_STARTER,  # reading: not stated
    big_points=True,
    unopened_points=-100,
    unopened_could_open_points=-200,
    unopened_rule_on_pool_out=False,  # reading: "when another player finishes" = empties the rack
    count_mismatch_disqualifies=True,
)

RULESETS: dict[str, RuleSet] = {ruleset.name: ruleset for ruleset in (CLASSIC, JAPAN_2017, WORLD)}


def get_ruleset(name: object) -> RuleSet:
    if isinstance(name, RuleSet):
        return name
    ruleset = RULESETS.get(name) if isinstance(name, str) else None
    if ruleset is None:
        known = ", ".join(RULESETS)
        raise RuleSetError(f"unknown variant {name!r}: expected one of {known}")
    return ruleset


_FIELDS = {field.name: field for field in dataclasses.fields(RuleSet)}


def ruleset_from_mapping(data: Mapping[str, Any], where: str = "rule set") -> RuleSet:
    """A club's rule set from parsed TOML: `extends` a bundled variant (default classic)."""
    if not isinstance(data, Mapping):
        raise RuleSetError(f"{where}: expected a table of fields, got {data!r}")
    values = dict(data)
    base = get_ruleset(values.pop("extends", "classic"))
    if "name" not in values:
        raise RuleSetError(f"{where}: a club rule set needs a 'name'")
    changes: dict[str, Any] = {}
    for key, raw in values.items():
        field = _FIELDS.get(key)
        if field is None:
            raise RuleSetError(f"{where}: unknown field {key!r}")
        changes[key] = _coerce(key, raw, getattr(base, key), where)
    return dataclasses.replace(base, **changes)


def _coerce(key: str, raw: Any, current: Any, where: str) -> Any:
    if isinstance(current, enum.Enum):
        try:
            return type(current)(raw)
        except ValueError:
            choices = ", ".join(repr(member.value) for member in type(current))
            raise RuleSetError(f"{where}: {key} = {raw!r} is not one of {choices}") from None
    if key in ("unopened_points", "unopened_could_open_points"):
        if raw is None or raw is False or raw == "none":
            return None
        expected: tuple[type, ...] = (int,)
    else:
        expected = (type(current),)
    if isinstance(raw, bool) and bool not in expected:
        raise RuleSetError(f"{where}: {key} = {raw!r} must be {expected[0].__name__}")
    if not isinstance(raw, expected):
        raise RuleSetError(f"{where}: {key} = {raw!r} must be {expected[0].__name__}")
    if isinstance(raw, int) and not isinstance(raw, bool):
        low, high = _INT_RANGES.get(key, (-_INT_LIMIT, _INT_LIMIT))
        if not low <= raw <= high:
            raise RuleSetError(f"{where}: {key} = {raw!r} is outside {low}..{high}")
    return raw


# Whole-number fields: seconds as the timer box takes them (86400 at most), counts of tiles a
# 106-tile set can hold; points within what any scoring sheet writes.
_INT_LIMIT = 1_000_000
_INT_RANGES = {
    "seconds_per_turn": (1, 86_400),
    "initial_meld_points": (0, 1_000),
    "no_play_draw": (0, 106),
    "penalty_draw": (0, 106),
    "redeal_min_doubles": (0, 14),
}


def ruleset_from_record(data: Mapping[str, Any], where: str = "recorded rule set") -> RuleSet:
    """The whole rule set a game recorded when it was created (`RuleSet.to_dict()`), field by field.

    Unlike a club file nothing is inherited from a bundled variant, so a game resumed or audited
    later is judged by what it recorded, whatever the code's variants say by then. A field the
    record lacks (recorded before the field existed) takes the RuleSet default, which is the
    behaviour tileref had before that field."""
    if not isinstance(data, Mapping):
        raise RuleSetError(f"{where}: expected a table of fields, got {data!r}")
    if "name" not in data:
        raise RuleSetError(f"{where}: a recorded rule set needs a 'name'")
    defaults = RuleSet(name=str(data["name"]))
    changes: dict[str, Any] = {}
    for key, raw in data.items():
        if key not in _FIELDS:
            raise RuleSetError(f"{where}: unknown field {key!r}")
        changes[key] = _coerce(key, raw, getattr(defaults, key), where)
    return dataclasses.replace(defaults, **changes)


def load_ruleset(path: str | Path) -> RuleSet:
    """Read a club's rule set from a TOML file (the only file access of the rules core)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputFileError(f"rule file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputFileError(f"rule file {str(path)!r} cannot be read: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise InputFileError(f"rule file {str(path)!r} is not valid TOML: {error}") from None
    return ruleset_from_mapping(data, where=f"rule file {str(path)!r}")
