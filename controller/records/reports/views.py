"""What a referee opens: one turn as a self-contained HTML page, a game turn by turn as text.

Both read only the records (events, photos, readings); the HTML (a Jinja2 template,
reports/templates/audit_page.html, autoescaped) embeds its photos as base64 data URIs so the page
can be mailed or archived as one file. Both verify the game
first (`Records.require_intact`, or the report the caller already has): a tampered record
raises TamperedError instead of being shown. Both print the head's short digest, the one the
table display showed after each verdict, so a copy can be checked against what people saw.
"""
from __future__ import annotations

import base64
from typing import Any, Iterator

from controller.game.events import (
    AREA_CONFIRMED, ClockAdjusted, ClockRecorded, CountAlert, DealAccepted, Event, GameCreated, GameScored, RackRevealed, ReadPurpose,
    RedealClaimed, RefereeCorrection, RestoreChecked, StartOrderDrawn, TableAccepted, TableRead, TableUnrestorable,
    TimerIncident, TurnEndCause, TurnEnded, TurnJudged, TurnStarted, VerdictOverridden, HeldPenaltyAnswered, PenaltyHeld,
    PlayAreaSet,
)
from controller.game.machine import GameModel, State, TableState, apply
from controller.messages import catalogue, named
from controller.rules.melds import classify
from controller.rules.tiles import parse_tiles

from ..chain import head_digest
from ..photo_types import image_type
from ..store import Records
from ..verification.report import ChainReport
from .templating import render
from .turns import table_changes, turn_record
from .words import (
    area_words, describe_restore, event_words, held_answer_words, held_words, melds_text, restore_differences,
)


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
            block.append(f"  table read{' at the alarm' if event.purpose is ReadPurpose.ALARM else ''}: " + melds_text(table.melds))
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
            block.append(f"  restore given up: kept {melds_text(event.kept)}; {event.player} takes "
                         f"{' '.join(event.to_offender) or 'nothing'}; to the end of the pool "
                         f"{' '.join(event.to_pool) or 'nothing'}")
        elif isinstance(event, TimerIncident):
            block.append(f"  timer box: {named('incident', event.incident)}: {event.detail}")
        elif isinstance(event, TableAccepted) and event.reason == AREA_CONFIRMED:
            block.append(f"  play area and clear table confirmed as the game began, by {event.by}")
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


def _clock_line(event) -> str:
    if isinstance(event, GameCreated):
        return f"{event.variant}; players {', '.join(event.players)}" + (
            f"; signed by table key {event.key_id}" if event.key_id else "; unsigned")
    if not isinstance(event, ClockRecorded):
        return f"  {named('event', event.kind)}"
    times = ", ".join(f"{name} {ms // 60000}:{ms // 1000 % 60:02d}" for name, ms in event.ms_left)
    return "  " + " ".join(part for part in (named("clockfact", event.what), event.player or "", f"({times})" if times else "",
                                             event.detail) if part)


# -------------------------------------------------------------------- audit


def audit_html(records: Records, game_id: int, turn: int, report: ChainReport | None = None,
               language: str = "en") -> str:
    """`report`: the game's verification, if the caller made it (else it is made here, first);
    `language`: the page's words (the catalogue's)."""
    return render("audit_page.html", language, **audit_page_context(records, game_id, turn, report, language))


def audit_page_context(records: Records, game_id: int, turn: int, report: ChainReport | None = None,
                       language: str = "en") -> dict[str, Any]:
    """What the static audit page shows (reports/templates/audit_page.html), as plain values (the photos'
    captions in `language`)."""
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
                         else "not restored: " + restore_differences(check)))
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
