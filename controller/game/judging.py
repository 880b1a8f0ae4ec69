"""The game flow's questions to the rules core, turned into the events it records.

Nothing here decides a rule: `controller.rules` judges turns, scores games, checks the
redeal right and the start order. This module only translates between the game model
(tile codes, seats, counts) and the rules core's values.
"""
from __future__ import annotations

from controller.rules import judge as rules_judge
from controller.rules import scoring, start
from controller.rules.melds import classify, set_changes
from controller.rules.restore import settle_unrestorable
from controller.rules.table import Table
from controller.rules.tiles import full_set, parse_tile, parse_tiles
from controller.rules.variants import RuleSet, get_ruleset

from .events import (
    NO_TILE, BrokenRule, GameCreated, GameScored, PenaltyHeld, PlacedTile, PlayerPoints, RedealClaimed, StartDraw, StartOrderDrawn,
    TableUnrestorable, TurnEndCause, TurnJudged,
)
from .machine import GameModel, TableState


def ruleset_of(model_or_variant: GameModel | RuleSet | str) -> RuleSet:
    """The game's rule set as it recorded it when created (a variant name only before there is a game)."""
    if isinstance(model_or_variant, GameModel):
        if model_or_variant.rules is None:
            return get_ruleset(model_or_variant.variant)
        return model_or_variant.rules
    return get_ruleset(model_or_variant)


def game_created(rules: RuleSet | str, players: tuple[str, ...], turn_seconds: int | None = None,
                 watch_delay: int | None = None) -> GameCreated:
    """The first event of a game: the whole rule set (a bundled variant or a club's own) goes into it,
    and the spectator feed's delay where the organiser set one."""
    ruleset = get_ruleset(rules)
    return GameCreated(
        variant=ruleset.name,
        players=tuple(players),
        turn_seconds=int(turn_seconds or ruleset.seconds_per_turn),
        ruleset=tuple(sorted(ruleset.to_dict().items())),
        watch_delay=watch_delay,
    )


def table_of(state: TableState) -> Table:
    return Table.of(parse_tiles(codes) for codes in state.melds)


def judge(model: GameModel, after: TableState) -> TurnJudged:
    """The verdict on the running turn: the accepted table before it against `after`."""
    ruleset = ruleset_of(model)
    at_alarm = table_of(model.at_alarm) if model.at_alarm is not None and model.ended_by is TurnEndCause.EXPIRED else None
    verdict = rules_judge.judge_turn(table_of(model.table), table_of(after), model.opened[model.current], ruleset,
                                     at_alarm=at_alarm, timer_skipped=model.ended_by is TurnEndCause.SKIPPED)
    restore = verdict.restore
    changed = not same_table(model.table, after, ruleset)[0]
    restore_required = restore is not None and (
        verdict.outcome is rules_judge.Outcome.PENALTY or changed or bool(verdict.after_alarm))
    return TurnJudged(
        turn=model.turn,
        player=model.player,
        outcome=verdict.outcome,
        played=tuple(t.code for t in verdict.played),
        taken=tuple(t.code for t in verdict.taken),
        violations=tuple(BrokenRule(v.rule, v.detail) for v in verdict.violations),
        draw=int(verdict.tiles_to_draw),
        penalty_points=int(verdict.penalty.points) if verdict.penalty else 0,
        opened_now=bool(verdict.opened_now),
        restore_required=bool(restore_required),
        restore_to_rack=tuple(t.code for t in restore.to_rack) if restore else (),
        restore_table=tuple(tuple(codes) for codes in restore.table.codes()) if restore else (),
    )


def held_penalty(model: GameModel, verdict: TurnJudged) -> PenaltyHeld | None:
    """A penalty that rests on tiles of the table before the turn that are seen nowhere now (the rule
    `table-tile-taken`, with others or alone) is held for the referee, unless they confirmed it already:
    the camera cannot tell a tile taken back from a tile it does not see. None: record the verdict."""
    held = model.held
    if held is not None and held.confirmed and held.turn == model.turn:
        return None
    if verdict.outcome is not rules_judge.Outcome.PENALTY or not any(
            rule is rules_judge.Rule.TABLE_TILE_TAKEN for rule, _ in verdict.violations):
        return None
    after = model.pending or model.table
    vanished = vanished_tiles(model.table, after, verdict.taken)
    if not vanished:
        return None
    return PenaltyHeld(turn=model.turn, player=model.player, vanished=vanished, violations=verdict.violations,
                       photo_before=model.turn_photo, photo=model.pending_photo)


def over_counted(table: TableState, answers: dict[int, str]) -> tuple[str, tuple[int, ...]] | None:
    """A code the table read holds more often than the set has it once the referee's `answers` (tile index:
    code or NO_TILE) are taken (the rules cannot judge that table), and the indices of its tiles; None: none is."""
    codes = {i: answers.get(i, code) for i, (code, _, _) in enumerate(table.tiles)}
    in_set = full_set()
    for code in dict.fromkeys(c for c in codes.values() if c != NO_TILE):
        holders = tuple(i for i, c in codes.items() if c == code)
        if len(holders) > in_set[parse_tile(code)]:
            return code, holders
    return None


def vanished_tiles(before: TableState, after: TableState, taken: tuple[str, ...]) -> tuple[PlacedTile, ...]:
    """Where the tiles `taken` lay on the table before: of each code's copies, those farthest from any
    tile of that code now (the ones that are gone, not the ones that stayed)."""
    out: list[PlacedTile] = []
    for code in dict.fromkeys(taken):
        count = taken.count(code)
        now = [(x, y) for c, x, y in after.tiles if c == code]
        copies = [PlacedTile(c, x, y) for c, x, y in before.tiles if c == code]

        def distance(tile: PlacedTile) -> float:
            return min((((tile.x - u) ** 2 + (tile.y - v) ** 2) ** 0.5 for u, v in now), default=float("inf"))

        out.extend(sorted(copies, key=distance, reverse=True)[:count])
    return tuple(out)


def same_table(a: TableState | tuple, b: TableState | tuple,
               ruleset: RuleSet | None = None) -> tuple[bool, tuple[str, ...]]:
    """Whether two tables hold the same sets (order of sets free; a run either way, a group any order),
    the sets read as the game's rule set reads them."""
    reading = ruleset.melds_reading() if ruleset is not None else {}
    melds_a = a.melds if isinstance(a, TableState) else tuple(tuple(m) for m in a)
    melds_b = b.melds if isinstance(b, TableState) else tuple(tuple(m) for m in b)
    changes = set_changes([parse_tiles(m) for m in melds_a], [parse_tiles(m) for m in melds_b], **reading)
    if changes.same:
        return True, ()
    missing = [_worded(melds_a[i], reading) for i in changes.gone]
    extra = [_worded(melds_b[i], reading) for i in changes.new]
    differences = tuple([f"missing: {m}" for m in missing] + [f"not before: {m}" for m in extra])
    return False, differences


def restore_target(model: GameModel) -> tuple[tuple[str, ...], ...]:
    """The sets the table must show before the game goes on: the judgement's (the table before the turn,
    the table without tiles laid after the alarm, or what stays of a table that could not be restored)."""
    judgement = model.judgement
    return judgement.target if judgement is not None and judgement.target else model.table.melds


def restore_check(model: GameModel, now: TableState) -> tuple[bool, tuple[str, ...]]:
    return same_table(restore_target(model), now, ruleset_of(model))


def unrestorable(model: GameModel, now: TableState, photo: str | None, reading: str | None) -> TableUnrestorable:
    """The arbiter gives up restoring the failed turn's table: settle it as the rule set says."""
    assert model.judgement is not None
    settlement = settle_unrestorable(table_of(model.table), table_of(now), ruleset_of(model))
    return TableUnrestorable(
        turn=model.turn,
        player=model.players[model.judgement.player_index],
        photo=photo,
        reading=reading,
        tiles=now.tiles,
        sets=now.sets,
        kept=tuple(tuple(codes) for codes in settlement.kept.codes()),
        relay=settlement.relay,
        to_offender=tuple(t.code for t in settlement.to_offender),
        to_pool=tuple(t.code for t in settlement.to_pool),
        missing=tuple(t.code for t in settlement.missing),
        rack_change=settlement.rack_change,
    )


def _worded(codes: tuple[str, ...], reading: dict) -> str:
    """A set in a restore check's differences, as they have always been recorded: a valid set by its
    codes sorted (it may lie either way), an invalid one as it lies."""
    check = classify(parse_tiles(codes), **reading)
    return " ".join(sorted(codes) if check.is_valid else codes)


def start_draw(model: GameModel, draws: tuple[tuple[str, str], ...], photo: str | None) -> StartOrderDrawn:
    """This round's drawn tiles, and the starter if the rounds so far decide one."""
    rounds = [dict((name, parse_tile(code)) for name, code in r) for r in model.start_rounds]
    rounds.append({name: parse_tile(code) for name, code in draws})
    order = start.start_order(rounds, ruleset_of(model))
    return StartOrderDrawn(draws=tuple(StartDraw(*draw) for draw in draws), starter=order.starter, photo=photo)


def who_draws_next(model: GameModel) -> tuple[str, ...]:
    """The players due to draw for the start order now: everyone, or those told to draw again."""
    if not model.start_rounds:
        return model.players
    rounds = [dict((name, parse_tile(code)) for name, code in r) for r in model.start_rounds]
    order = start.start_order(rounds, ruleset_of(model))
    return tuple(p for p in model.players if p in order.redraw)


def starter_by_lot(model: GameModel, lot: int) -> StartOrderDrawn:
    """world: "the youngest, or drawn (e.g. by an app)": the controller is the app; `lot` is its draw."""
    return StartOrderDrawn(draws=(), starter=start.starter_by_lot(model.players, lot), photo=None)


def redeal_claim(model: GameModel, shown: tuple[str, ...], player: str | None = None) -> RedealClaimed:
    ruleset = ruleset_of(model)
    tiles = parse_tiles(shown)
    granted = start.has_redeal_right(tiles, ruleset)
    doubles = " ".join(t.code for t in start.doubled_tiles(tiles)) or "none"
    reason = (f"{len(start.doubled_tiles(tiles))} doubled tiles shown ({doubles}); "
              f"{ruleset.name} needs {ruleset.redeal_min_doubles}, redeal {ruleset.redeal_when.value}")
    return RedealClaimed(player=player or model.player, shown=tuple(shown), granted=granted, reason=reason)


def score(model: GameModel) -> GameScored:
    ruleset = ruleset_of(model)
    racks = {name: parse_tiles(codes) for name, codes in model.revealed}
    record = scoring.GameRecord(
        players=model.players,
        starter=model.starter or model.players[0],
        end=scoring.GameEnd(model.end),
        winner=model.winner if model.end is scoring.GameEnd.EMPTY_RACK else None,
        racks=racks,
        opened=dict(zip(model.players, model.opened)),
        penalties=dict(zip(model.players, model.penalties)),
    )
    result = scoring.score_game(record, ruleset)
    return GameScored(
        end=record.end,
        winner=result.winner,
        scores=tuple(PlayerPoints(name, int(result.scores[name])) for name in model.players),
        wins=tuple(PlayerPoints(name, int(result.wins[name])) for name in model.players) if result.wins is not None else None,
    )


def invalid_sets(table: TableState, melds_reading: dict | None = None) -> int:
    return sum(not classify(parse_tiles(codes), **(melds_reading or {})).is_valid for codes in table.melds)
