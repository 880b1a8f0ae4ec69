"""A recorded game in the notation (controller/records/reports/notation.py), and a notation text checked
against the record it claims to come from.

`game_notation` reads only the signed events (and the game's labels: table, event, date): each
turn's player and time from `turn-started`/`turn-ended` (and any extra time a referee gave), the
tiles that left the rack and the verdict from the turn's last `turn-judged`, the sets gone and
new by the rules core's one definition of the same set (`views.table_changes`) between the table
the turn started on and the table it was judged on (a referee's corrections applied), the restore
from the checks after the verdict. `check_notation` parses a text and compares every line with
what the record says, field by field; the first difference raises NotationMismatchError naming
the line and the turn.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable

from controller.game.events import (
    ClockAdjusted, ClockAdjustment, Event, GameCreated, GameScored, RestoreChecked, StartOrderDrawn, TableUnrestorable,
    TurnEndCause, TurnEnded, TurnJudged, TurnStarted, VerdictOverridden, event_from_payload,
)
from controller.game.machine import GameModel, apply
from controller.rules.errors import RulesError
from controller.rules.judge import Outcome, Rule
from controller.rules.melds import MeldKind, classify, same_set_key
from controller.rules.tiles import parse_tile, parse_tiles

from ..chain import RecordedEvent, head_digest
from ..errors import RecordsError, RecordsFileError
from ..store import Records
from .highlights import game_highlights
from .notation import (
    GameNotation, Restore, RestoreEnd, Result, TurnEnding, TurnLine, Verdict, format_notation,
    NotationError, parse_notation, result_text, set_text, time_text, verdict_text,
)
from .turns import TurnRecord, table_changes, turns_of


class NotationMismatchError(RecordsError):
    """A notation text that says something its record does not; names the line, the turn and the field.
    Exits 3, like a record that does not hold: the text is not what was signed."""

    exit_code = 3


@dataclass(frozen=True)
class GameLabels:
    """What the notation's tags say besides the events: the game's id, date and where it was played."""

    game_id: int
    created_at: str | None = None  # UTC, YYYY-MM-DDTHH:MM:SSZ (the wall clock: outside the chain)
    table: str | None = None
    event: str | None = None
    tournament_game: str | None = None


def labels_of(records: Records, game_id: int) -> GameLabels:
    row = records.db.execute("SELECT created_at FROM games WHERE id=?", (game_id,)).fetchone()
    info = records.info(game_id)
    return GameLabels(records.signed_id(game_id), row[0] if row else None, info["table_name"], info["event"],
                      info["tournament_game"])


def labels_of_document(document: dict) -> GameLabels:
    """The labels of an open game record (docs/record-format.md), read after it was verified."""
    game = document["game"]
    return GameLabels(game["id"], game.get("created_at"), game.get("table"), game.get("event"),
                      game.get("tournament_game"))


def recorded_of_document(document: dict) -> list[RecordedEvent]:
    """The events of an open game record, as the records hold them (the record verified first)."""
    return [RecordedEvent(e["seq"], event_from_payload(e["kind"], e["payload"]), e["prev_hash"], e["hash"],
                          e["recorded_at"], e.get("signature")) for e in document["events"]]


# ------------------------------------------------------------------------------ the record, as notation


def game_notation(recorded: list[RecordedEvent], labels: GameLabels) -> GameNotation:
    """The game as notation values, highlights marked."""
    events = [r.event for r in recorded]
    created = events[0] if events and isinstance(events[0], GameCreated) else None
    reading = _reading(events)
    lines = tuple(turn_line(record, reading) for record in turns_of(recorded))
    scored = [e for e in events if isinstance(e, GameScored)]
    result = Result(scored[-1].winner, str(scored[-1].end), tuple(scored[-1].scores)) if scored else None
    game = GameNotation(_tags(events, created, labels, recorded), lines, result)
    marks = game_highlights(game, reading)
    return replace(game, turns=tuple(replace(line, highlights=marks.get(line.turn, ())) for line in lines))


def game_notation_of(records: Records, game_id: int) -> GameNotation:
    return game_notation(records.recorded(game_id), labels_of(records, game_id))


def notation_text(records: Records, game_id: int) -> str:
    return format_notation(game_notation_of(records, game_id))


def _reading(events: list[Event]) -> dict[str, Any]:
    model = apply(GameModel(), events[0]) if events and isinstance(events[0], GameCreated) else GameModel()
    return model.rules.melds_reading() if model.rules is not None else {}


def _tags(events: list[Event], created: GameCreated | None, labels: GameLabels,
          recorded: list[RecordedEvent]) -> tuple[tuple[str, str], ...]:
    tags: list[tuple[str, str | None]] = [
        ("Event", labels.event), ("Table", labels.table), ("Game", labels.tournament_game),
        ("Date", _date(labels.created_at)), ("GameId", str(labels.game_id)),
    ]
    if created is not None:
        tags += [("Rules", created.variant), ("TurnSeconds", str(created.turn_seconds))]
        tags += [(f"Seat{n}", name) for n, name in enumerate(created.players, start=1)]
    starter = next((e.starter for e in events if isinstance(e, StartOrderDrawn) and e.starter), None)
    tags.append(("Starter", starter))
    if created is not None:
        tags.append(("Key", created.key_id))
    tags.append(("Head", head_digest(recorded[-1].hash) if recorded else None))
    return tuple((name, value) for name, value in tags if value is not None)


def _date(created_at: str | None) -> str | None:
    match = re.match(r"(\d{4})-(\d\d)-(\d\d)", created_at or "")
    return ".".join(match.groups()) if match else None


def turn_line(record: TurnRecord, reading: dict[str, Any]) -> TurnLine:
    """One turn as its notation line (highlights are the game's business: `game_notation`)."""
    events = [r.event for r in record.events]
    started = next(e for e in events if isinstance(e, TurnStarted))
    ended = next((e for e in events if isinstance(e, TurnEnded)), None)
    extra = sum(e.seconds for e in events if isinstance(e, ClockAdjusted) and e.action is ClockAdjustment.EXTEND)
    used = None
    if ended is not None and ended.seconds_left is not None:
        used = max(0, started.seconds + extra - ended.seconds_left)
    ending = TurnEnding.BUTTON if ended is None else {
        TurnEndCause.BUTTON: TurnEnding.BUTTON, TurnEndCause.EXPIRED: TurnEnding.TIMEOUT,
        TurnEndCause.SKIPPED: TurnEnding.SKIPPED}[ended.cause]
    model, judged, verdict_at, read = record.before, None, None, None
    for index, event in enumerate(events):
        if isinstance(event, TurnJudged):
            judged, verdict_at = model.pending or model.table, index
        model = apply(model, event)
        read = model.pending or read
    verdict = events[verdict_at] if verdict_at is not None else None
    table = judged if judged is not None else read
    gone: tuple = ()
    new: tuple = ()
    if table is not None:
        before, after = record.before.table.melds, table.melds
        changes = table_changes(before, after, record.before.rules)
        gone = _shown_sets([before[i] for i in changes.gone], reading)
        new = _shown_sets([after[i] for i in changes.new], reading)
    if verdict is None:
        return TurnLine(record.turn, record.player, used, ending, (), (), gone, new, None)
    assert isinstance(verdict, TurnJudged)
    return TurnLine(record.turn, record.player, used, ending, tuple(verdict.played), tuple(verdict.taken), gone, new,
                    _verdict(verdict, events[verdict_at + 1:]))


def _verdict(judged: TurnJudged, after: list[Event]) -> Verdict:
    rules: list[Rule] = []
    for rule, _ in judged.violations:
        if rule not in rules and not (judged.outcome is Outcome.DRAW and rule is Rule.NO_TILE_PLAYED):
            rules.append(rule)
    return Verdict(judged.outcome, bool(judged.opened_now), tuple(rules), judged.draw, judged.penalty_points,
                   _restore(after) if judged.restore_required else None)


def _restore(after: list[Event]) -> Restore:
    checks = [e for e in after if isinstance(e, RestoreChecked)]
    if any(isinstance(e, VerdictOverridden) for e in after):
        end = RestoreEnd.OVERRIDDEN
    elif any(isinstance(e, TableUnrestorable) for e in after):
        end = RestoreEnd.UNRESTORABLE
    elif checks and checks[-1].matches:
        end = RestoreEnd.ACCEPTED if checks[-1].by_referee else RestoreEnd.RESTORED
    else:
        end = RestoreEnd.RESTORING
    return Restore(end, len(checks))


def _shown_sets(melds: Iterable[tuple[str, ...]], reading: dict[str, Any]) -> tuple[tuple[str, ...], ...]:
    """Sets as a reader takes them in: a run low to high, a group by colour, jokers last; the sets in
    order of their first tile. The same sets as laid (`same_set_key`): only the order is a reader's."""
    shown = [_shown_set(tuple(meld), reading) for meld in melds]
    return tuple(sorted(shown, key=lambda meld: [parse_tile(code).sort_key for code in meld]))


def _shown_set(meld: tuple[str, ...], reading: dict[str, Any]) -> tuple[str, ...]:
    try:
        check = classify(parse_tiles(meld), **reading)
    except RulesError:
        return meld
    if check.kind is MeldKind.RUN and check.run_step < 0:
        return tuple(reversed(meld))
    if check.kind is MeldKind.GROUP:
        return tuple(sorted(meld, key=lambda code: parse_tile(code).sort_key))
    return meld


def machine_independent(game: GameNotation) -> GameNotation:
    """The notation two runs of the same recorded game share (what a golden file holds): the times at a
    button press (they vary with the load) and the tags of the day, the game's id and the key left out."""
    tags = tuple((name, value) for name, value in game.tags if name not in ("Date", "GameId", "Key", "Head"))
    turns = tuple(line if line.ending is TurnEnding.TIMEOUT else replace(line, used=None) for line in game.turns)
    return replace(game, tags=tags, turns=turns)


# ------------------------------------------------------------------------------ a text against its record


MAX_NOTATION_BYTES = 4 * 1024 * 1024  # a thousand-turn game is some 100 kB


def read_notation_file(path: str | Path) -> str:
    """A notation file's text: its size looked at before a byte is read, UTF-8."""
    try:
        size = os.stat(path).st_size
        if size > MAX_NOTATION_BYTES:
            raise NotationError(f"notation file {str(path)!r} is {size} bytes; a notation is at most "
                                f"{MAX_NOTATION_BYTES} bytes")
        data = Path(path).read_bytes()
    except OSError as error:
        raise RecordsFileError(f"notation file {str(path)!r} cannot be read: {error.strerror or error}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise NotationError(f"notation file {str(path)!r} is not UTF-8 text (byte {error.start})") from None


def check_notation(text: str, expected: GameNotation, reading: dict[str, Any], source: str = "(notation)") -> int:
    """Compare a notation text with the record's notation; returns the turns checked. Raises
    NotationError (not notation) or NotationMismatchError (the first line that differs)."""
    given = parse_notation(text, source)
    for name, value in expected.tags:
        theirs = given.tag(name)
        if theirs != value:
            raise NotationMismatchError(f"{source}: tag {name} says {theirs!r}, the record {value!r}")
    for index in range(max(len(given.turns), len(expected.turns))):
        line = given.turns[index] if index < len(given.turns) else None
        mine = expected.turns[index] if index < len(expected.turns) else None
        if line is None or mine is None:
            turn = (line or mine).turn  # type: ignore[union-attr]
            raise NotationMismatchError(f"{source}: turn {turn} is " + (
                "missing from the notation" if line is None else "not in the record"))
        where = f"{source} line {given.line_of_turn.get(line.turn, '?')}, turn {line.turn}"
        if line.turn != mine.turn:
            raise NotationMismatchError(f"{where}: the record's turn here is {mine.turn}")
        for (what, theirs, said), (_, ours, ours_said) in zip(_fields(line, reading), _fields(mine, reading)):
            if theirs != ours:
                raise NotationMismatchError(f"{where}: {what}: the notation says {said!r}, the record {ours_said!r}")
    if _result_key(given.result) != _result_key(expected.result):
        raise NotationMismatchError(f"{source}: the result says {result_text(given.result)!r}, the record "
                                    f"{result_text(expected.result)!r}")
    return len(expected.turns)


def _fields(line: TurnLine, reading: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(what, the value compared, the value as a message shows it) for each field of a line."""
    verdict = line.verdict
    verdict_value = None if verdict is None else (  # its parts in any order: compared as values
        str(verdict.outcome), verdict.opened, sorted(verdict.rules), verdict.draw, verdict.points,
        None if verdict.restore is None else (str(verdict.restore.end), verdict.restore.checks))
    return [
        ("player", line.player, line.player),
        ("time used", line.used, time_text(line.used)),
        ("how the time ended", str(line.ending), str(line.ending)),
        ("tiles that left the rack", _tiles_key(line.played), " ".join(line.played)),
        ("tiles taken from the table", _tiles_key(line.taken), " ".join(line.taken)),
        ("sets gone", _sets_key(line.gone, reading), " ".join(map(set_text, line.gone))),
        ("sets new", _sets_key(line.new, reading), " ".join(map(set_text, line.new))),
        ("verdict", verdict_value, verdict_text(verdict)),
        ("highlights", sorted(line.highlights), ", ".join(line.highlights)),
    ]


def _tiles_key(codes: Iterable[str]) -> list[tuple[int, int]]:
    return sorted(parse_tile(code).sort_key for code in codes)


def _sets_key(melds, reading: dict[str, Any]) -> list[str]:
    keys = []
    for meld in melds:
        try:
            keys.append(repr(same_set_key(parse_tiles(meld), **reading)))
        except RulesError:
            keys.append(repr(meld))
    return sorted(keys)


def _result_key(result: Result | None):
    if result is None:
        return None
    return (result.winner, result.end, sorted(result.scores))


def game_reading(recorded: list[RecordedEvent]) -> dict[str, Any]:
    return _reading([r.event for r in recorded])
