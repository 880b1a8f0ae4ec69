"""What a referee opens: one turn as a self-contained HTML page, a game turn by turn as text.

Both read only the records (events, photos, readings); the HTML (a Jinja2 template,
records/templates/audit_page.html, autoescaped) embeds its photos as base64 data URIs so the page
can be mailed or archived as one file. Both verify the game
first (`Records.require_intact`, or the report the caller already has): a tampered record
raises TamperedError instead of being shown. Both print the head's short digest, the one the
table display showed after each verdict, so a copy can be checked against what people saw.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from controller.game.events import (
    ClockAdjusted, ClockRecorded, CountAlert, DealAccepted, Event, GameCreated, GameScored, RackRevealed, ReadPurpose,
    RedealClaimed, RefereeCorrection, RestoreChecked, StartOrderDrawn, TableAccepted, TableRead, TableUnrestorable,
    TimerIncident, TurnEndCause, TurnEnded, TurnJudged, TurnStarted, VerdictOverridden, HeldPenaltyAnswered, PenaltyHeld,
    AreaSource, PlayAreaSet,
)
from controller.game.machine import GameModel, State, TableState, apply
from controller.messages import named
from controller.rules.melds import SetChanges, classify, set_changes
from controller.rules.tiles import parse_tiles

from .errors import GameNotFoundError
from .photo_types import image_type
from .store import ChainReport, RecordedEvent, Records, head_digest
from .templating import render


@dataclass(frozen=True)
class TurnRecord:
    turn: int
    player: str
    before: GameModel  # the game as the turn started
    after: GameModel  # the game when the next turn starts (or at the end)
    events: tuple[RecordedEvent, ...]


def turns(records: Records, game_id: int) -> Iterator[TurnRecord]:
    """Each turn with its events and the game before and after it (folded from the log)."""
    return turns_of(records.recorded(game_id))


def turns_of(log: Iterable[RecordedEvent]) -> Iterator[TurnRecord]:
    """Each turn of a game's recorded events, as `turns` (the events may come from a record file)."""
    model = GameModel()
    current: list[RecordedEvent] = []
    start: GameModel | None = None
    for recorded in log:
        event = recorded.event
        if isinstance(event, TurnStarted) and start is not None:
            yield TurnRecord(start.turn + 1, start.player, start, model, tuple(current))
            current = []
            start = None
        if isinstance(event, TurnStarted):
            start = model
        model = apply(model, event)
        if start is not None:
            current.append(recorded)
    if start is not None:
        yield TurnRecord(start.turn + 1, start.player, start, model, tuple(current))


def turn_record(records: Records, game_id: int, turn: int) -> TurnRecord:
    for record in turns(records, game_id):
        if record.turn == turn:
            return record
    raise GameNotFoundError(f"game {game_id} has no turn {turn!r}")


def table_changes(before, after, rules=None) -> SetChanges:
    """The sets (code tuples) gone from `before` and new in `after`, by the rules core's one definition
    of the same set: a run laid again the other way round, or a group in another order, is neither."""
    reading = rules.melds_reading() if rules is not None else {}
    return set_changes([parse_tiles(m) for m in before], [parse_tiles(m) for m in after], **reading)


def _differences(event: RestoreChecked) -> str:
    """How a restored table differs, in words ("missing R1 R2 R3; should not be there: B1"), not as recorded."""
    from controller.messages import difference_words

    return "; ".join(difference_words(text) for text in event.differences)


def describe_restore(event: RestoreChecked) -> str:
    """A restore check in words. An arbiter's acceptance says whether the table it accepted matches
    what it had to show (a table that does not match is said to be exactly that)."""
    who = f" ({event.referee}: {event.note})" if event.referee else (f" ({event.note})" if event.note else "")
    if not event.by_referee:
        return "table matches the start of the turn" if event.matches else "not yet: " + _differences(event)
    if event.differences == RestoreChecked.ARBITER_UNCHECKED:  # recorded before acceptances were compared
        return "accepted by the arbiter as it lay; not compared with the start of the turn"
    if event.differences:
        return (f"accepted by the arbiter{who} although it does NOT match the start of the turn: "
                + _differences(event))
    return f"accepted by the arbiter{who}; the table matches the start of the turn"


# ------------------------------------------------------------------- replay


def replay_lines(records: Records, game_id: int, report: ChainReport | None = None) -> Iterator[list[str]]:
    """The game as text, one block per step a person follows (seating, each turn, the end).
    `report`: the game's verification, if the caller made it (else it is made here)."""
    report = report or records.require_intact(game_id)
    model = GameModel()
    block: list[str] = [f"game {game_id} in {records.path}: hash chain {report.summary()}"]
    recorded_events = records.recorded(game_id)
    if any(isinstance(r.event, ClockRecorded) for r in recorded_events):  # a `tileref clock` game, not a table's
        yield block + [_clock_line(r.event) for r in recorded_events]
        return
    for recorded in recorded_events:
        event = recorded.event
        before = model
        model = apply(model, event)
        if isinstance(event, GameCreated):
            block.append(f"rule set {event.variant} (recorded whole); players {', '.join(event.players)}; "
                         f"{event.turn_seconds} s a turn"
                         + (f"; spectators {event.watch_delay} s behind" if event.watch_delay else "")
                         + (f"; signed by table key {event.key_id}" if event.key_id else "; unsigned"))
        elif isinstance(event, StartOrderDrawn):
            draws = ", ".join(f"{p} {c}" for p, c in event.draws) or "(given)"
            block.append(f"start draw: {draws} -> " + (f"{event.starter} starts" if event.starter else "tie, draw again"))
        elif isinstance(event, TurnStarted):
            yield block
            block = [f"turn {event.turn}: {event.player} (rack {before.rack_of(event.player)}, pool {before.pool})"]
        elif isinstance(event, RedealClaimed):
            block.append(f"redeal asked by {event.player}: {'granted' if event.granted else 'refused'} ({event.reason})")
        elif isinstance(event, DealAccepted):
            block.append(f"deal {event.deal}: nobody asks for a redeal")
        elif isinstance(event, TurnEnded):
            how = {TurnEndCause.BUTTON: "the button", TurnEndCause.EXPIRED: "time running out",
                   TurnEndCause.SKIPPED: "the next seat's button, without the countdown"}[event.cause]
            block.append(f"  ended by {how}" + (f" with {event.seconds_left} s left" if event.seconds_left else ""))
        elif isinstance(event, TableRead):
            table = TableState(event.tiles, event.sets)
            block.append(f"  table read{' at the alarm' if event.purpose is ReadPurpose.ALARM else ''}: " + _melds_text(table.melds))
            for index, candidates, why in event.doubts:
                block.append(f"  doubt: tile {index} {'/'.join(candidates)} ({why})")
            for index, read, chosen, why in event.settled:
                block.append(f"  settled: tile {index} read {read} -> {chosen} ({why})")
        elif isinstance(event, RefereeCorrection):
            block.append(f"  referee{' ' + event.referee if event.referee else ''}: {event.target} "
                         f"{event.changes or event.rack} ({event.note})")
        elif isinstance(event, TurnJudged):
            line = f"  verdict: {named('outcome', event.outcome).lower()}; played {' '.join(event.played) or '-'}"
            if event.draw:
                line += f"; draws {event.draw}"
            if event.penalty_points:
                line += f"; {event.penalty_points:+d} points"
            block.append(line)
            block.extend(f"    {named('rule', rule)}: {detail}" for rule, detail in event.violations)
            block.append(f"    record head {head_digest(recorded.hash)} (event {recorded.seq}, as the table showed)")
        elif isinstance(event, RestoreChecked):
            block.append("  restore: " + describe_restore(event))
        elif isinstance(event, PenaltyHeld):
            block.append(f"  {held_words(event)}")
        elif isinstance(event, HeldPenaltyAnswered):
            block.append(f"  {held_answer_words(event)}")
        elif isinstance(event, VerdictOverridden):
            block.append(f"  verdict overridden by referee {event.referee}: the turn stands ({named('outcome', event.outcome).lower()}); "
                         f"why: {event.reason}")
        elif isinstance(event, ClockAdjusted):
            block.append(f"  clock {event.action}" + (f" +{event.seconds} s" if event.seconds else "")
                         + f" by referee {event.referee}; why: {event.reason}")
        elif isinstance(event, TableUnrestorable):
            block.append(f"  restore given up: kept {_melds_text(event.kept)}; {event.player} takes "
                         f"{' '.join(event.to_offender) or 'nothing'}; to the end of the pool "
                         f"{' '.join(event.to_pool) or 'nothing'}")
        elif isinstance(event, TimerIncident):
            block.append(f"  timer box: {named('incident', event.incident)}: {event.detail}")
        elif isinstance(event, TableAccepted):
            block.append(f"  table accepted as seen by {event.by} (something at the {event.where}: {event.reason})")
        elif isinstance(event, PlayAreaSet):
            block.append(f"  {area_words(event)}")
        elif isinstance(event, CountAlert):
            block.append(f"  COUNT ALERT: table {event.table} + racks {event.racks} + pool {event.pool} != {event.expected}"
                         + (" -> table disqualified" if event.disqualified else ""))
        elif isinstance(event, RackRevealed):
            if len(block) > 1 and before.state is not State.REVEALING:
                yield block
                block = ["end of the game: racks laid open"]
            block.append(f"  {event.player}: {' '.join(event.codes) or '(empty)'} ({len(event.codes)} tiles, "
                         f"{event.expected} counted)")
        elif isinstance(event, GameScored):
            block.append(f"score ({named('end', event.end)}): winner {event.winner}; "
                         + ", ".join(f"{name} {points:+d}" for name, points in event.scores))
    block.append(f"state: {named('phase', model.state).lower()}; racks " + ", ".join(
        f"{p} {n}" for p, n in zip(model.players, model.racks)) + f"; pool {model.pool}")
    yield block


def area_words(event: PlayAreaSet) -> str:
    """A change of the table's play area, with what it is and who set it why."""
    corners = " ".join(f"{x:g},{y:g}" for x, y in event.corners)
    if event.how is AreaSource.FOUND:
        what = "play area found on each frame (none marked)"
    elif event.how is AreaSource.FOUND_ONCE:
        what = f"play area found on the clear table and kept: corners {corners} on a {event.width}x{event.height} frame"
    else:
        what = f"play area marked: corners {corners} on a {event.width}x{event.height} frame"
    return f"{what}, from the next look on; set by {event.by} ({event.reason})"


def held_words(event: PenaltyHeld) -> str:
    gone = " ".join(tile.code for tile in event.vanished)
    rules = ", ".join(named("rule", rule).lower() for rule, _ in event.violations)
    return f"penalty held for the referee: tile(s) of the table before seen nowhere ({gone}); rests on {rules}"


def held_answer_words(event: HeldPenaltyAnswered) -> str:
    if event.answer == "confirmed":
        what = "confirms the penalty"
    elif event.changes:
        what = "says the tiles are there: " + ", ".join(f"tile {index} is {code}" for index, code in event.changes)
    else:
        what = "says the tiles are there: the table is read again"
    return f"referee {event.referee} {what} at {event.at}; why: {event.reason}"


def _clock_line(event) -> str:
    if isinstance(event, GameCreated):
        return f"{event.variant}; players {', '.join(event.players)}" + (
            f"; signed by table key {event.key_id}" if event.key_id else "; unsigned")
    if not isinstance(event, ClockRecorded):
        return f"  {named('event', event.kind)}"
    times = ", ".join(f"{name} {ms // 60000}:{ms // 1000 % 60:02d}" for name, ms in event.ms_left)
    return "  " + " ".join(part for part in (named("clockfact", event.what), event.player or "", f"({times})" if times else "",
                                             event.detail) if part)


def _melds_text(melds) -> str:
    return "  ".join("[" + " ".join(m) + "]" for m in melds) or "(empty)"


# -------------------------------------------------------------------- audit


def audit_html(records: Records, game_id: int, turn: int, report: ChainReport | None = None,
               language: str = "en") -> str:
    """`report`: the game's verification, if the caller made it (else it is made here, first);
    `language`: the page's words (the catalogue's)."""
    return render("audit_page.html", language, **audit_page_context(records, game_id, turn, report, language))


def audit_page_context(records: Records, game_id: int, turn: int, report: ChainReport | None = None,
                       language: str = "en") -> dict[str, Any]:
    """What the static audit page shows (records/templates/audit_page.html), as plain values (the photos'
    captions in `language`)."""
    from controller.messages import catalogue

    from .turn_data import event_words  # turn_data builds on this module

    words = catalogue(language)

    report = report or records.require_intact(game_id)
    record = turn_record(records, game_id, turn)
    rules = record.before.rules
    reading = rules.melds_reading() if rules is not None else {}
    started = next(r.event for r in record.events if isinstance(r.event, TurnStarted))
    reads = [r.event for r in record.events if isinstance(r.event, TableRead)]
    verdicts = [r.event for r in record.events if isinstance(r.event, TurnJudged)]
    stored = records.reading(reads[-1].reading) if reads and reads[-1].reading else None
    before_melds = record.before.table.melds
    after_melds = TableState(reads[-1].tiles, reads[-1].sets).melds if reads else before_melds
    changes = table_changes(before_melds, after_melds, rules)
    marked = set(changes.new) if before_melds else set()

    def sets(melds, new=frozenset()) -> list[dict[str, Any]]:
        return [_set_shown(meld, reading, index in new) for index, meld in enumerate(melds)]

    fields = None
    if rules is not None:
        fields = rules.to_dict()
        fields.pop("description", None)
    return {
        "game": game_id, "turn": turn, "player": record.player, "variant": record.before.variant,
        "players": list(record.before.players), "records_path": str(records.path),
        "chain": {"summary": report.summary(), "head": report.head_digest, "events": report.events,
                  "key_id": report.key_id},
        "rules": None if rules is None else {"description": rules.description,
                                             "fields": [(name, str(value)) for name, value in fields.items()]},
        "profile": None if stored is None or stored.reading.get("profile") is None else str(stored.reading["profile"]),
        "photos": {"before": _photo_shown(records, started.photo, words.text("records.photo-before"), words),
                   "after": _photo_shown(records, reads[-1].photo if reads else None, words.text("records.photo-ended"),
                                         words)},
        "table_before": sets(before_melds), "table_after": sets(after_melds, marked),
        "changes": {"gone": sets([before_melds[i] for i in changes.gone]),
                    "new": sets([after_melds[i] for i in changes.new])},
        "doubts": [{"tile": index, "candidates": list(candidates), "why": why}
                   for read in reads for index, candidates, why in read.doubts],
        "settled": [{"tile": s.index, "read": s.read, "chosen": s.chosen, "why": s.why}
                    for read in reads for s in read.settled],
        "verdicts": [{"outcome": v.outcome, "played": list(v.played), "taken": list(v.taken), "draw": v.draw,
                      "penalty_points": v.penalty_points, "violations": [(b.rule, b.detail) for b in v.violations],
                      "restore_required": v.restore_required, "restore_to_rack": list(v.restore_to_rack),
                      "restore_table": sets(v.restore_table)} for v in verdicts],
        "unrestorable": [{"kept": sets(e.kept), "player": e.player, "to_offender": list(e.to_offender),
                          "to_pool": list(e.to_pool), "missing": list(e.missing)}
                         for e in (r.event for r in record.events) if isinstance(e, TableUnrestorable)],
        "events": [{"seq": r.seq, "kind": r.event.kind.value, "words": event_words(r.event),
                    "summary": _event_summary(r.event), "hash": r.hash[:12]} for r in record.events],
        "restores": [_photo_shown(records, check.photo, describe_restore(check) if check.by_referee else (
                         "matches the start of the turn" if check.matches
                         else "not restored: " + _differences(check)))
                     for check in (r.event for r in record.events) if isinstance(check, RestoreChecked)],
    }


def _photo_shown(records: Records, sha: str | None, caption: str, words=None) -> dict[str, Any]:
    """A photo embedded in the page (base64 of its bytes, as the image type they are), or only its
    caption when there is none or its bytes are no image."""
    photo = records.photo(sha) if sha else None
    kind = image_type(photo.data) if photo is not None else None
    if kind is None:
        no_image = words.text("records.no-image") if words is not None else "(its bytes are no image: not shown)"
        return {"caption": caption if photo is None else f"{caption} {no_image}",
                "data": None, "mime": None, "sha": None}
    return {"caption": caption, "data": base64.b64encode(photo.data).decode("ascii"), "mime": kind,
            "sha": sha[:12]}


def _set_shown(meld, reading: dict, new: bool) -> dict[str, Any]:
    """One set as the page draws it: its codes, invalid or new, and the rules core's word on it."""
    check = classify(parse_tiles(meld), **reading)
    classes = ["set"]
    if not check.is_valid:
        classes.append("invalid")
    elif new:
        classes.append("new")
    return {"codes": list(meld), "classes": " ".join(classes), "title": check.reason or check.kind.value}


def _event_summary(event: Event) -> str:
    data = event.payload()
    for key in ("tiles", "sets"):
        if key in data:
            data[key] = f"<{len(data[key])}>"
    return ", ".join(f"{k}={v}" for k, v in data.items() if v not in (None, [], ""))


# ------------------------------------------------------------ semantic log

# pixels, the clock at a press, confidences, and the table's key (each machine signs with its own)
_MACHINE_DEPENDENT = {"photo", "reading", "seconds_left", "settled", "table_key", "key_id", "table_and_event",
                      "unsigned_before"}


def semantic_log(events) -> list[dict]:
    """The events as what happened at the table: tile positions, photo and reading hashes and the
    clock's seconds at a press left out (they vary with the camera, the codec and the load), sets
    given as their codes. Two runs of the same recorded game give the same semantic log; this is
    what the golden file of the demo game holds. Timer incidents are left out (they depend on
    when a process was stopped)."""
    out = []
    for event in events:
        if isinstance(event, TimerIncident):
            continue
        data = {k: v for k, v in event.payload().items() if k not in _MACHINE_DEPENDENT}
        if "tiles" in data and "sets" in data:
            table = TableState(tuple(tuple(t) for t in event.tiles), tuple(event.sets))
            data["tiles"] = sorted(list(m) for m in table.melds)  # the order of sets on a table means nothing
            del data["sets"]
        for key in ("restore_table", "kept"):
            if key in data:
                data[key] = sorted(data[key])
        if "violations" in data:  # the rule broken, not the rules core's wording of why
            data["violations"] = [rule for rule, _ in event.violations]
        out.append({"kind": event.kind.value, **data})
    return out
