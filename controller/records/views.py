"""What a referee opens: one turn as a self-contained HTML page, a game turn by turn as text.

Both read only the records (events, photos, readings); the HTML embeds its photos as
base64 data URIs so the page can be mailed or archived as one file. Both verify the game
first (`Records.require_intact`, or the report the caller already has): a tampered record
raises TamperedError instead of being shown. Both print the head's short digest, the one the
table display showed after each verdict, so a copy can be checked against what people saw.
"""
from __future__ import annotations

import base64
import html
from collections import Counter
from dataclasses import dataclass
from typing import Iterator

from controller.game.events import (
    ClockAdjusted, ClockRecorded, CountAlert, DealAccepted, Event, GameCreated, GameScored, RackRevealed, RedealClaimed,
    RefereeCorrection, RestoreChecked, StartOrderDrawn, TableRead, TableUnrestorable, TimerIncident, TurnEnded, TurnJudged,
    TurnStarted, VerdictOverridden,
)
from controller.game.machine import GameModel, State, TableState, apply
from controller.rules.melds import classify
from controller.rules.tiles import parse_tiles

from .errors import GameNotFoundError
from .store import ChainReport, RecordedEvent, Records, head_digest


@dataclass(frozen=True)
class TurnRecord:
    turn: int
    player: str
    before: GameModel  # the game as the turn started
    after: GameModel  # the game when the next turn starts (or at the end)
    events: tuple[RecordedEvent, ...]


def turns(records: Records, game_id: int) -> Iterator[TurnRecord]:
    """Each turn with its events and the game before and after it (folded from the log)."""
    model = GameModel()
    current: list[RecordedEvent] = []
    start: GameModel | None = None
    for recorded in records.recorded(game_id):
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


def describe_restore(event: RestoreChecked) -> str:
    """A restore check in words. An arbiter's acceptance says whether the table it accepted matches
    what it had to show (a table that does not match is said to be exactly that)."""
    who = f" ({event.referee}: {event.note})" if event.referee else (f" ({event.note})" if event.note else "")
    if not event.by_referee:
        return "table matches the start of the turn" if event.matches else "not yet: " + "; ".join(event.differences)
    if event.differences == RestoreChecked.ARBITER_UNCHECKED:  # recorded before acceptances were compared
        return "accepted by the arbiter as it lay; not compared with the start of the turn"
    if event.differences:
        return (f"accepted by the arbiter{who} although it does NOT match the start of the turn: "
                + "; ".join(event.differences))
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
            how = {"button": "the button", "expired": "time running out",
                   "skipped": "the next seat's button, without the countdown"}.get(event.cause, event.cause)
            block.append(f"  ended by {how}" + (f" with {event.seconds_left} s left" if event.seconds_left else ""))
        elif isinstance(event, TableRead):
            table = TableState(event.tiles, event.sets)
            block.append(f"  table read{' at the alarm' if event.purpose == 'alarm' else ''}: " + _melds_text(table.melds))
            for index, candidates, why in event.doubts:
                block.append(f"  doubt: tile {index} {'/'.join(candidates)} ({why})")
            for index, read, chosen, why in event.settled:
                block.append(f"  settled: tile {index} read {read} -> {chosen} ({why})")
        elif isinstance(event, RefereeCorrection):
            block.append(f"  referee{' ' + event.referee if event.referee else ''}: {event.target} "
                         f"{event.changes or event.rack} ({event.note})")
        elif isinstance(event, TurnJudged):
            line = f"  verdict: {event.outcome}; played {' '.join(event.played) or '-'}"
            if event.draw:
                line += f"; draws {event.draw}"
            if event.penalty_points:
                line += f"; {event.penalty_points:+d} points"
            block.append(line)
            block.extend(f"    {rule}: {detail}" for rule, detail in event.violations)
            block.append(f"    record head {head_digest(recorded.hash)} (event {recorded.seq}, as the table showed)")
        elif isinstance(event, RestoreChecked):
            block.append("  restore: " + describe_restore(event))
        elif isinstance(event, VerdictOverridden):
            block.append(f"  verdict overridden by referee {event.referee}: the turn stands ({event.outcome}); "
                         f"why: {event.reason}")
        elif isinstance(event, ClockAdjusted):
            block.append(f"  clock {event.action}" + (f" +{event.seconds} s" if event.seconds else "")
                         + f" by referee {event.referee}; why: {event.reason}")
        elif isinstance(event, TableUnrestorable):
            block.append(f"  restore given up: kept {_melds_text(event.kept)}; {event.player} takes "
                         f"{' '.join(event.to_offender) or 'nothing'}; to the end of the pool "
                         f"{' '.join(event.to_pool) or 'nothing'}")
        elif isinstance(event, TimerIncident):
            block.append(f"  timer: {event.incident}: {event.detail}")
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
            block.append(f"score ({event.end}): winner {event.winner}; "
                         + ", ".join(f"{name} {points:+d}" for name, points in event.scores))
    block.append(f"state: {model.state.value}; racks " + ", ".join(
        f"{p} {n}" for p, n in zip(model.players, model.racks)) + f"; pool {model.pool}")
    yield block


def _clock_line(event) -> str:
    if isinstance(event, GameCreated):
        return f"{event.variant}; players {', '.join(event.players)}" + (
            f"; signed by table key {event.key_id}" if event.key_id else "; unsigned")
    if not isinstance(event, ClockRecorded):
        return f"  {event.kind.value}"
    times = ", ".join(f"{name} {ms // 60000}:{ms // 1000 % 60:02d}" for name, ms in event.ms_left)
    return "  " + " ".join(part for part in (event.what, event.player or "", f"({times})" if times else "",
                                             event.detail) if part)


def _melds_text(melds) -> str:
    return "  ".join("[" + " ".join(m) + "]" for m in melds) or "(empty)"


# -------------------------------------------------------------------- audit


def audit_html(records: Records, game_id: int, turn: int, report: ChainReport | None = None) -> str:
    """`report`: the game's verification, if the caller made it (else it is made here, first)."""
    report = report or records.require_intact(game_id)
    record = turn_record(records, game_id, turn)
    variant = record.before.variant
    rules = record.before.rules
    reading = rules.melds_reading() if rules is not None else {}
    started = next(r.event for r in record.events if isinstance(r.event, TurnStarted))
    reads = [r.event for r in record.events if isinstance(r.event, TableRead)]
    verdicts = [r.event for r in record.events if isinstance(r.event, TurnJudged)]
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>tileref audit: game {game_id}, turn {turn}</title>",
        "<style>body{font-family:sans-serif;max-width:1200px;margin:1em auto;color:#222}"
        "img{max-width:100%;border:1px solid #999}.photos{display:grid;grid-template-columns:1fr 1fr;gap:1em}"
        ".set{display:inline-block;margin:2px 6px;padding:2px 4px;border:1px solid #888;border-radius:4px}"
        ".invalid{background:#fdd;border-color:#c00}.new{background:#dfd}.bad{color:#c00;font-weight:bold}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}</style>",
        "</head><body>",
        f"<h1>Game {game_id}, turn {turn}: {html.escape(record.player)}</h1>",
        f"<p>Variant <b>{html.escape(variant)}</b>; players {html.escape(', '.join(record.before.players))}; "
        f"records <code>{html.escape(str(records.path))}</code>; hash chain: <b>{html.escape(report.summary())}</b></p>",
        f"<p class='head'>Record head: <code>{report.head_digest}</code> after {report.events} events"
        + (f", signed by table key <code>{report.key_id}</code>" if report.key_id else ", unsigned")
        + ". The table display shows the head after every verdict (the hashes in the events table below): "
        "a copy of this record whose digests differ from what people saw is not the game they played.</p>",
    ]
    if rules is not None:
        fields = rules.to_dict()
        fields.pop("description", None)
        parts.append("<details><summary>Rule set the game recorded and is judged by</summary><p>"
                     + html.escape(rules.description) + "</p><table>"
                     + "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(str(v))}</td></tr>"
                               for k, v in fields.items()) + "</table></details>")
    after_photo = reads[-1].photo if reads else None
    stored = records.reading(reads[-1].reading) if reads and reads[-1].reading else None
    profile = stored.reading.get("profile") if stored is not None else None
    parts.append("<p>Tiles read by the shipped models.</p>" if profile is None else
                 f"<p>Tiles read with the club set's profile <b>{html.escape(str(profile))}</b> (tileref calibrate).</p>")
    parts.append("<div class='photos'>")
    parts.append(_figure(records, started.photo, "Start of the turn (the table to restore to)"))
    parts.append(_figure(records, after_photo, "When the turn ended"))
    parts.append("</div>")

    before_melds = record.before.table.melds
    after_melds = TableState(reads[-1].tiles, reads[-1].sets).melds if reads else before_melds
    parts.append("<h2>Tables read</h2>")
    parts.append("<p><b>Before:</b> " + _melds_html(before_melds, (), reading) + "</p>")
    parts.append("<p><b>After:</b> " + _melds_html(after_melds, before_melds, reading) + "</p>")
    parts.append("<h2>What changed</h2><ul>")
    gone = Counter(before_melds) - Counter(after_melds)
    new = Counter(after_melds) - Counter(before_melds)
    parts.extend(f"<li>set no longer on the table: {_melds_html([m], (), reading)}</li>" for m in gone.elements())
    parts.extend(f"<li>set new or changed: {_melds_html([m], (), reading)}</li>" for m in new.elements())
    if not gone and not new:
        parts.append("<li>nothing: the table is as it was</li>")
    parts.append("</ul>")
    for read in reads:
        for index, candidates, why in read.doubts:
            parts.append(f"<p class='bad'>Doubt on tile {index}: {html.escape('/'.join(candidates))} ({html.escape(why)})</p>")
        for index, code, chosen, why in read.settled:
            parts.append(f"<p>Settled tile {index}: read {code}, taken as {chosen} ({html.escape(why)})</p>")

    parts.append("<h2>Verdict</h2>")
    for verdict in verdicts:
        parts.append(f"<p><b>{verdict.outcome}</b>: played {html.escape(' '.join(verdict.played) or 'nothing')}"
                     + (f"; tiles taken from the table: {' '.join(verdict.taken)}" if verdict.taken else "")
                     + (f"; draws {verdict.draw}" if verdict.draw else "")
                     + (f"; {verdict.penalty_points:+d} points" if verdict.penalty_points else "") + "</p>")
        if verdict.violations:
            parts.append("<table><tr><th>rule</th><th>why</th></tr>" + "".join(
                f"<tr><td>{html.escape(rule)}</td><td>{html.escape(detail)}</td></tr>"
                for rule, detail in verdict.violations) + "</table>")
        else:
            parts.append("<p>No rule broken.</p>")
        if verdict.restore_required:
            parts.append(f"<p>Restore plan: back to the rack {html.escape(' '.join(verdict.restore_to_rack) or 'nothing')};"
                         f" the table as {_melds_html(verdict.restore_table, (), reading)}</p>")
    for given_up in (r.event for r in record.events if isinstance(r.event, TableUnrestorable)):
        parts.append(f"<p class='bad'>The table could not be restored. Kept: {_melds_html(given_up.kept, (), reading)}; "
                     f"{html.escape(given_up.player)} takes {html.escape(' '.join(given_up.to_offender) or 'nothing')}; "
                     f"to the end of the pool: {html.escape(' '.join(given_up.to_pool) or 'nothing')}"
                     + (f"; not on the table at all: {html.escape(' '.join(given_up.missing))}" if given_up.missing else "")
                     + "</p>")

    parts.append("<h2>Events of this turn</h2><table><tr><th>#</th><th>event</th><th>details</th><th>hash</th></tr>")
    for recorded in record.events:
        parts.append(f"<tr><td>{recorded.seq}</td><td>{recorded.event.kind.value}</td>"
                     f"<td>{html.escape(_event_summary(recorded.event))}</td><td><code>{recorded.hash[:12]}</code></td></tr>")
    parts.append("</table>")
    restores = [r.event for r in record.events if isinstance(r.event, RestoreChecked)]
    if restores:
        parts.append("<h2>Restore checks</h2><div class='photos'>")
        for check in restores:
            caption = describe_restore(check) if check.by_referee else (
                "matches the start of the turn" if check.matches else "not restored: " + "; ".join(check.differences))
            parts.append(_figure(records, check.photo, caption))
        parts.append("</div>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _figure(records: Records, sha: str | None, caption: str) -> str:
    photo = records.photo(sha) if sha else None
    if photo is None:
        return f"<figure><p>(no photo)</p><figcaption>{html.escape(caption)}</figcaption></figure>"
    data = base64.b64encode(photo.data).decode("ascii")
    return (f"<figure><img alt='{html.escape(caption)}' src='data:{photo.mime};base64,{data}'>"
            f"<figcaption>{html.escape(caption)} <code>{sha[:12]}</code></figcaption></figure>")


def _melds_html(melds, before, reading: dict | None = None) -> str:
    if not melds:
        return "(empty table)"
    old = Counter(tuple(m) for m in before)
    out = []
    for meld in melds:
        check = classify(parse_tiles(meld), **(reading or {}))
        classes = ["set"]
        if not check.is_valid:
            classes.append("invalid")
        elif before and old[tuple(meld)] == 0:
            classes.append("new")
        else:
            old[tuple(meld)] -= 1
        title = check.reason or check.kind.value
        out.append(f"<span class='{' '.join(classes)}' title='{html.escape(title)}'>{html.escape(' '.join(meld))}</span>")
    return " ".join(out)


def _event_summary(event: Event) -> str:
    data = event.payload()
    for key in ("tiles", "sets"):
        if key in data:
            data[key] = f"<{len(data[key])}>"
    return ", ".join(f"{k}={v}" for k, v in data.items() if v not in (None, [], ""))


# ------------------------------------------------------------ semantic log

# pixels, the clock at a press, confidences, and the table's key (each machine signs with its own)
_MACHINE_DEPENDENT = {"photo", "reading", "seconds_left", "settled", "table_key", "key_id"}


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
