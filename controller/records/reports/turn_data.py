"""The audit and replay of a recorded game as plain data (JSON-able dicts).

`tileref audit --json`, `tileref replay --json` and the web pages' `/api/...` give exactly these
shapes, and the browser's audit and replay pages are rendered from them. Like the text and HTML
views they read only the records, after the game was verified (a tampered game raises
TamperedError instead of being shown).

Shapes (every list in record order):

* `games_data`: {"records": path, "games": [{"game", "variant", "state", "events", "players"}]}
* `turns_index`: {"game", "variant", "players", "chain", "turns": [{"turn", "player", "outcome",
  "played", "draw", "penalty_points", "overridden"}]}
* `audit_data`: {"game", "turn", "player", "variant", "players", "chain", "photos": {"before",
  "after"}, "table_before", "table_after", "changes": {"gone", "new"}, "doubts", "settled",
  "verdicts", "overrides", "held", "held_answers", "restores", "unrestorable", "events"}; a photo is {"sha256", "width",
  "height", "tiles": [{"index", "code", "confidence", "points", "doubt"}]} or None.
* `replay_data`: {"game", "chain", "steps": [{"step", "turn", "title", "lines", "photo", "notation",
  "highlights": [{"name", "words"}]}]}; `notation` is the turn's line in the game notation
  (docs/notation.md), None for a step that is no turn.
"""
from __future__ import annotations

from typing import Any

from controller.game.events import (
    HeldPenaltyAnswered, PenaltyHeld, RestoreChecked, TableRead, TableUnrestorable, TurnJudged, TurnStarted,
    VerdictOverridden,
)
from controller.rules.errors import RulesError
from controller.rules.melds import classify
from controller.rules.tiles import parse_tiles

from ..store import Records
from ..verification.report import ChainReport
from .moves import game_notation_of
from .notation import HIGHLIGHT_WORDS, turn_text
from .turns import table_changes, turn_record, turns
from .views import replay_lines
from .words import describe_restore, event_words, melds_of, verdict_words

SURE = 0.85  # a read at least this confident stands on its own (game.rebuild.RebuildSettings.sure)
DEFAULT_TILE = 40.0  # px: a tile's width when nothing on the table tells it

def chain_data(report: ChainReport) -> dict[str, Any]:
    return {"status": "intact" if report.ok else "tampered", "summary": report.summary(), "events": report.events,
            "head": report.head_digest, "key_id": report.key_id}


def games_data(records: Records) -> dict[str, Any]:
    return {"records": str(records.path), "games": [
        {"game": game, "variant": variant, "state": state, "events": events, "players": list(records.players(game))}
        for game, variant, state, events in records.games()]}


def verdict_data(event: TurnJudged) -> dict[str, Any]:
    return {"turn": event.turn, "player": event.player, "outcome": event.outcome, "played": list(event.played),
            "taken": list(event.taken), "draw": event.draw, "penalty_points": event.penalty_points,
            "violations": [{"rule": rule, "words": rule.replace("-", " "), "detail": detail}
                           for rule, detail in event.violations],
            "restore_required": event.restore_required, "restore_to_rack": list(event.restore_to_rack),
            "restore_table": [list(m) for m in event.restore_table], "words": verdict_words(event)}



# ------------------------------------------------------------------ overlays


def tile_width(tiles) -> float:
    """A tile's width in pixels from the spacing of placed tiles (code, x, y): the median distance to
    the nearest other tile."""
    points = [(float(t[1]), float(t[2])) for t in tiles]
    if len(points) < 2:
        return DEFAULT_TILE
    nearest = sorted(min(((x - u) ** 2 + (y - v) ** 2) ** 0.5 for k, (u, v) in enumerate(points) if k != i)
                     for i, (x, y) in enumerate(points))
    width = nearest[len(nearest) // 2]
    return width if width > 4 else DEFAULT_TILE


def placed_boxes(tiles, doubtful: set[int] = frozenset(), width: float | None = None) -> list[dict[str, Any]]:
    """Boxes around placed tiles (code, x, y), as drawn on a photo."""
    w = width or tile_width(tiles)
    h = 1.3 * w
    out = []
    for index, (code, x, y) in enumerate(tiles):
        x0, y0, x1, y1 = x - w / 2, y - h / 2, x + w / 2, y + h / 2
        out.append({"index": index, "code": code, "confidence": None, "doubt": index in doubtful,
                    "points": _points(((x0, y0), (x1, y0), (x1, y1), (x0, y1))), "x": round(x, 1),
                    "y": round(y0 - 4, 1)})
    return out


def reading_boxes(reading: dict, doubt_at: list[tuple[float, float]] = (), sure: float = SURE) -> list[dict[str, Any]]:
    """The reader's overlay: each tile's outline, code and confidence; a doubt marked when the tile is
    under `sure` or lies where the rebuild left a doubt for the referee."""
    out = []
    tiles = reading.get("tiles", []) if isinstance(reading, dict) else []
    width = tile_width([(t["code"], *t["center"]) for t in tiles]) if tiles else DEFAULT_TILE
    for index, tile in enumerate(tiles):
        x, y = tile["center"]
        corners = tile.get("corners") or []
        if len(corners) != 4:
            corners = [(x - width / 2, y - 0.65 * width), (x + width / 2, y - 0.65 * width),
                       (x + width / 2, y + 0.65 * width), (x - width / 2, y + 0.65 * width)]
        top = min(c[1] for c in corners)
        near_doubt = any(((x - u) ** 2 + (y - v) ** 2) ** 0.5 < width / 2 for u, v in doubt_at)
        out.append({"index": index, "code": tile["code"], "confidence": tile["confidence"],
                    "doubt": near_doubt or tile["confidence"] < sure, "points": _points(corners),
                    "x": round(x, 1), "y": round(top - 4, 1)})
    return out


def _points(corners) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def photo_data(records: Records, sha: str | None, tiles: list[dict[str, Any]]) -> dict[str, Any] | None:
    photo = records.photo(sha) if sha else None
    if photo is None:
        return None
    return {"sha256": photo.sha256, "width": photo.width, "height": photo.height, "tiles": tiles}


def read_photo(records: Records, read: TableRead | RestoreChecked | TableUnrestorable) -> dict[str, Any] | None:
    """The photo a table was read from, with the reader's overlay of that reading."""
    stored = records.reading(read.reading) if read.reading else None
    doubts = [(read.tiles[i][1], read.tiles[i][2]) for i, _, _ in getattr(read, "doubts", ()) if 0 <= i < len(read.tiles)]
    boxes = reading_boxes(stored.reading, doubts) if stored is not None else placed_boxes(read.tiles)
    return photo_data(records, read.photo, boxes)


# --------------------------------------------------------------------- audit


def invalid_melds(melds, rules) -> list[dict[str, Any]]:
    """The sets of a table that are not valid under the game's rule set, each with why."""
    reading = rules.melds_reading() if rules is not None else {}
    out = []
    for meld in melds:
        try:
            check = classify(parse_tiles(meld), **reading)
        except RulesError as error:
            out.append({"set": list(meld), "why": str(error)})
            continue
        if not check.is_valid:
            out.append({"set": list(meld), "why": check.reason or "not a valid set"})
    return out


def turns_index(records: Records, game_id: int, report: ChainReport | None = None) -> dict[str, Any]:
    report = report or records.require_intact(game_id)
    rows = []
    players: tuple[str, ...] = ()
    variant = ""
    for record in turns(records, game_id):
        players, variant = record.before.players, record.before.variant
        verdicts = [r.event for r in record.events if isinstance(r.event, TurnJudged)]
        last = verdicts[-1] if verdicts else None
        rows.append({"turn": record.turn, "player": record.player, "outcome": last.outcome if last else None,
                     "played": list(last.played) if last else [], "draw": last.draw if last else 0,
                     "penalty_points": last.penalty_points if last else 0,
                     "overridden": any(isinstance(r.event, VerdictOverridden) for r in record.events)})
    if not players:
        players = records.players(game_id)
    return {"game": game_id, "variant": variant, "players": list(players), "chain": chain_data(report), "turns": rows}


def audit_data(records: Records, game_id: int, turn: int, report: ChainReport | None = None) -> dict[str, Any]:
    """One turn as data: photos before and after with overlays, what changed, the verdict with the
    rules broken in words, the restore checks, and every event as a readable row."""
    report = report or records.require_intact(game_id)
    record = turn_record(records, game_id, turn)
    events = [r.event for r in record.events]
    started = next(e for e in events if isinstance(e, TurnStarted))
    reads = [e for e in events if isinstance(e, TableRead)]
    before_melds = [list(m) for m in record.before.table.melds]
    after_melds = melds_of(reads[-1].tiles, reads[-1].sets) if reads else before_melds
    changes = table_changes(before_melds, after_melds, record.before.rules)
    before_tiles = record.before.table.tiles
    return {
        "game": game_id, "turn": turn, "player": record.player, "variant": record.before.variant,
        "players": list(record.before.players), "chain": chain_data(report),
        "photos": {"before": photo_data(records, started.photo, placed_boxes(before_tiles)),
                   "after": read_photo(records, reads[-1]) if reads else None},
        "table_before": before_melds, "table_after": after_melds,
        "changes": {"gone": [before_melds[i] for i in changes.gone], "new": [after_melds[i] for i in changes.new]},
        "invalid_after": invalid_melds(after_melds, record.before.rules),
        "doubts": [{"tile": index, "candidates": list(candidates), "why": why}
                   for read in reads for index, candidates, why in read.doubts],
        "settled": [{"tile": index, "read": code, "chosen": chosen, "why": why}
                    for read in reads for index, code, chosen, why in read.settled],
        "verdicts": [verdict_data(e) for e in events if isinstance(e, TurnJudged)],
        "overrides": [{"outcome": e.outcome, "referee": e.referee, "reason": e.reason, "words": event_words(e)}
                      for e in events if isinstance(e, VerdictOverridden)],
        "held": [held_data(records, e) for e in events if isinstance(e, PenaltyHeld)],
        "held_answers": [{"answer": e.answer, "referee": e.referee, "at": e.at, "reason": e.reason,
                          "changes": [list(c) for c in e.changes], "words": event_words(e)}
                         for e in events if isinstance(e, HeldPenaltyAnswered)],
        "restores": [{"matches": e.matches, "by_referee": e.by_referee, "accepted_mismatch": e.accepted_mismatch,
                      "differences": list(e.differences), "referee": e.referee, "note": e.note,
                      "words": describe_restore(e), "photo": read_photo(records, e)}
                     for e in events if isinstance(e, RestoreChecked)],
        "unrestorable": [{"kept": [list(m) for m in e.kept], "to_offender": list(e.to_offender),
                          "to_pool": list(e.to_pool), "missing": list(e.missing), "words": event_words(e)}
                         for e in events if isinstance(e, TableUnrestorable)],
        "events": [{"seq": r.seq, "kind": r.event.kind.value, "words": event_words(r.event), "hash": r.hash[:12],
                    "recorded_at": r.recorded_at} for r in record.events],
    }


def held_data(records: Records, event: PenaltyHeld) -> dict[str, Any]:
    """A held penalty: the tiles seen nowhere ringed on the photo of the turn's start, and the photo then."""
    rings = [{**box, "cls": "vanished", "label": box["code"]} for box in placed_boxes(event.vanished)]
    return {"vanished": [list(tile) for tile in event.vanished],
            "rules": [{"rule": rule, "detail": detail} for rule, detail in event.violations],
            "before": photo_data(records, event.photo_before, rings), "now": photo_data(records, event.photo, []),
            "words": event_words(event)}


# -------------------------------------------------------------------- replay


def replay_data(records: Records, game_id: int, report: ChainReport | None = None) -> dict[str, Any]:
    """The replay's steps (the same blocks as `tileref replay`), each turn's with the photo it ended on."""
    report = report or records.require_intact(game_id)
    photos: dict[int, str | None] = {}
    for record in turns(records, game_id):
        reads = [r.event for r in record.events if isinstance(r.event, TableRead)]
        started = next((r.event for r in record.events if isinstance(r.event, TurnStarted)), None)
        photos[record.turn] = reads[-1].photo if reads else (started.photo if started else None)
    notation = {line.turn: line for line in game_notation_of(records, game_id).turns}
    steps = []
    for n, block in enumerate(replay_lines(records, game_id, report)):
        title, lines = block[0], block[1:]
        turn = None
        if title.startswith("turn ") and title[5:].split(":")[0].isdigit():
            turn = int(title[5:].split(":")[0])
        line = notation.get(turn) if turn is not None else None
        steps.append({"step": n, "turn": turn, "title": title, "lines": lines,
                      "photo": photos.get(turn) if turn is not None else None,
                      "notation": turn_text(line) if line else None,
                      "highlights": [{"name": str(h), "words": HIGHLIGHT_WORDS[h]} for h in line.highlights]
                      if line else []})
    return {"game": game_id, "chain": chain_data(report), "steps": steps}
