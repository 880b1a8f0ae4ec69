"""The game flow's questions to the rules core, turned into the events it records.

Nothing here decides a rule: `controller.rules` judges turns, scores games, checks the
redeal right and the start order. This module only translates between the game model
(tile codes, seats, counts) and the rules core's values.
"""
from __future__ import annotations

from collections import Counter

from controller.rules import judge as rules_judge
from controller.rules import scoring, start
from controller.rules.melds import classify
from controller.rules.table import Table
from controller.rules.tiles import parse_tile, parse_tiles
from controller.rules.variants import PoolOutEnd, RuleSet, get_ruleset

from .events import GameCreated, GameScored, RedealClaimed, StartOrderDrawn, TurnJudged
from .machine import GameModel, TableState

def ruleset_of(model_or_variant: GameModel | str) -> RuleSet:
    variant = model_or_variant.variant if isinstance(model_or_variant, GameModel) else model_or_variant
    return get_ruleset(variant)


def game_created(variant: str, players: tuple[str, ...], turn_seconds: int | None = None) -> GameCreated:
    ruleset = get_ruleset(variant)
    return GameCreated(
        variant=ruleset.name,
        players=tuple(players),
        turn_seconds=int(turn_seconds or ruleset.seconds_per_turn),
        pool_out_ends_at_last_draw=ruleset.pool_out_end is PoolOutEnd.LAST_TILE_DRAWN,
        count_mismatch_disqualifies=ruleset.count_mismatch_disqualifies,
    )


def table_of(state: TableState) -> Table:
    return Table.of(parse_tiles(codes) for codes in state.melds)


def judge(model: GameModel, after: TableState) -> TurnJudged:
    """The verdict on the running turn: the accepted table before it against `after`."""
    ruleset = ruleset_of(model)
    verdict = rules_judge.judge_turn(table_of(model.table), table_of(after), model.opened[model.current], ruleset)
    restore = verdict.restore
    changed = Counter(model.table.melds) != Counter(after.melds)
    restore_required = restore is not None and (verdict.outcome is rules_judge.Outcome.PENALTY or changed)
    return TurnJudged(
        turn=model.turn,
        player=model.player,
        outcome=verdict.outcome.value,
        played=tuple(t.code for t in verdict.played),
        taken=tuple(t.code for t in verdict.taken),
        violations=tuple((v.rule.value, v.detail) for v in verdict.violations),
        draw=int(verdict.tiles_to_draw),
        penalty_points=int(verdict.penalty.points) if verdict.penalty else 0,
        opened_now=bool(verdict.opened_now),
        restore_required=bool(restore_required),
        restore_to_rack=tuple(t.code for t in restore.to_rack) if restore else (),
        restore_table=tuple(tuple(codes) for codes in restore.table.codes()) if restore else (),
    )


def same_table(a: TableState | tuple, b: TableState | tuple) -> tuple[bool, tuple[str, ...]]:
    """Whether two tables hold the same sets (order of sets free; a run either way, a group any order)."""
    melds_a = a.melds if isinstance(a, TableState) else tuple(tuple(m) for m in a)
    melds_b = b.melds if isinstance(b, TableState) else tuple(tuple(m) for m in b)
    key_a = Counter(_identity(m) for m in melds_a)
    key_b = Counter(_identity(m) for m in melds_b)
    if key_a == key_b:
        return True, ()
    missing = [" ".join(m[1]) for m in (key_a - key_b).elements()]
    extra = [" ".join(m[1]) for m in (key_b - key_a).elements()]
    differences = tuple([f"missing: {m}" for m in missing] + [f"not before: {m}" for m in extra])
    return False, differences


def _identity(codes: tuple[str, ...]) -> tuple:
    check = classify(parse_tiles(codes))
    return (check.identity, tuple(codes)) if not check.is_valid else (check.identity, tuple(sorted(codes)))


def start_draw(model: GameModel, draws: tuple[tuple[str, str], ...], photo: str | None) -> StartOrderDrawn:
    """This round's drawn tiles, and the starter if the rounds so far decide one."""
    rounds = [dict((name, parse_tile(code)) for name, code in r) for r in model.start_rounds]
    rounds.append({name: parse_tile(code) for name, code in draws})
    order = start.start_order(rounds, ruleset_of(model))
    return StartOrderDrawn(draws=tuple(draws), starter=order.starter, photo=photo)


def who_draws_next(model: GameModel) -> tuple[str, ...]:
    """The players due to draw for the start order now: everyone, or those told to draw again."""
    if not model.start_rounds:
        return model.players
    rounds = [dict((name, parse_tile(code)) for name, code in r) for r in model.start_rounds]
    order = start.start_order(rounds, ruleset_of(model))
    return tuple(p for p in model.players if p in order.redraw)


def redeal_claim(model: GameModel, shown: tuple[str, ...]) -> RedealClaimed:
    ruleset = ruleset_of(model)
    tiles = parse_tiles(shown)
    granted = start.has_redeal_right(tiles, ruleset)
    doubles = " ".join(t.code for t in start.doubled_tiles(tiles)) or "none"
    reason = (f"{len(start.doubled_tiles(tiles))} doubled tiles shown ({doubles}); "
              f"{ruleset.name} needs {ruleset.redeal_min_doubles}, redeal {ruleset.redeal_when.value}")
    return RedealClaimed(player=model.player, shown=tuple(shown), granted=granted, reason=reason)


def score(model: GameModel) -> GameScored:
    ruleset = ruleset_of(model)
    racks = {name: parse_tiles(codes) for name, codes in model.revealed}
    record = scoring.GameRecord(
        players=model.players,
        starter=model.starter or model.players[0],
        end=scoring.GameEnd(model.end),
        winner=model.winner if model.end == "empty-rack" else None,
        racks=racks,
        opened=dict(zip(model.players, model.opened)),
        penalties=dict(zip(model.players, model.penalties)),
    )
    result = scoring.score_game(record, ruleset)
    return GameScored(
        end=model.end or "",
        winner=result.winner,
        scores=tuple((name, int(result.scores[name])) for name in model.players),
        wins=tuple((name, int(result.wins[name])) for name in model.players) if result.wins is not None else None,
    )


def invalid_sets(table: TableState, melds_reading: dict | None = None) -> int:
    return sum(not classify(parse_tiles(codes), **(melds_reading or {})).is_valid for codes in table.melds)
