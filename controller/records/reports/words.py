"""A recorded event in a referee's words: the rows of the audit and replay pages and the lines of
the text replay. The records' pages are English; a name the code uses (an outcome, a rule, an
incident) is shown in the catalogue's words, never as it is stored."""
from __future__ import annotations

from controller.game.events import (
    AREA_CONFIRMED, ClockAdjusted, ClockRecorded, CorrectionTarget, CountAlert, DealAccepted, Dealt, Event, GameCreated, GameScored,
    Outcome, RackRevealed, ReadPurpose, RedealClaimed, RefereeCorrection, RestoreChecked, StartOrderDrawn, TableAccepted,
    TableRead, TableUnrestorable, TimerIncident, TurnEndCause, TurnEnded, TurnJudged, TurnStarted, VerdictOverridden,
    AreaSource, HeldPenaltyAnswered, PenaltyHeld, PlayAreaSet,
)
from controller.game.machine import TableState
from controller.messages import catalogue, difference_words, named

_ENGLISH = catalogue("en")  # the audit's words (the records' pages are English)


def melds_of(tiles, sets) -> list[list[str]]:
    return [list(m) for m in TableState(tuple(tiles), tuple(sets)).melds]


def melds_text(melds) -> str:
    return "  ".join("[" + " ".join(m) + "]" for m in melds) or "(empty)"


def restore_differences(event: RestoreChecked) -> str:
    """How a restored table differs, in words ("missing R1 R2 R3; should not be there: B1"), not as recorded."""
    return "; ".join(difference_words(text) for text in event.differences)


def describe_restore(event: RestoreChecked) -> str:
    """A restore check in words. An arbiter's acceptance says whether the table it accepted matches
    what it had to show (a table that does not match is said to be exactly that)."""
    who = f" ({event.referee}: {event.note})" if event.referee else (f" ({event.note})" if event.note else "")
    if not event.by_referee:
        return "table matches the start of the turn" if event.matches else "not yet: " + restore_differences(event)
    if event.differences == RestoreChecked.ARBITER_UNCHECKED:  # recorded before acceptances were compared
        return "accepted by the arbiter as it lay; not compared with the start of the turn"
    if event.differences:
        return (f"accepted by the arbiter{who} although it does NOT match the start of the turn: "
                + restore_differences(event))
    return f"accepted by the arbiter{who}; the table matches the start of the turn"


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


def verdict_words(event: TurnJudged) -> str:
    played = " ".join(event.played)
    words = {Outcome.LEGAL: f"legal: played {played}" if played else "legal",
             Outcome.RELIEVED: f"stands under the japan relief: played {played}",
             Outcome.DRAW: "nothing played: draws", Outcome.PENALTY: "penalty"}[event.outcome]
    if event.outcome is Outcome.DRAW:
        words = f"nothing played: draws {event.draw}"
    elif event.draw:
        words += f"; draws {event.draw}"
    if event.penalty_points:
        words += f"; {event.penalty_points:+d} points"
    if event.restore_required:
        words += "; the table must be restored"
    return f"{event.player}, turn {event.turn}: {words}"


def event_words(event: Event) -> str:
    """One recorded event as a sentence a referee reads (the audit and replay pages' rows)."""
    if isinstance(event, GameCreated):
        return (f"game created: {event.variant}, players {', '.join(event.players)}, {event.turn_seconds} s a turn"
                + (f", signed by table key {event.key_id}" if event.key_id else ", unsigned"))
    if isinstance(event, StartOrderDrawn):
        draws = ", ".join(f"{p} {c}" for p, c in event.draws) or "(given)"
        return f"start draw: {draws}: " + (f"{event.starter} starts" if event.starter else "a tie, draw again")
    if isinstance(event, Dealt):
        return f"deal {event.deal}"
    if isinstance(event, DealAccepted):
        return f"deal {event.deal}: nobody asks for a redeal"
    if isinstance(event, RedealClaimed):
        return (f"redeal asked by {event.player} showing {' '.join(event.shown)}: "
                f"{'granted' if event.granted else 'refused'} ({event.reason})")
    if isinstance(event, TurnStarted):
        return f"turn {event.turn} starts: {event.player}, {event.seconds} s; photo of the table taken"
    if isinstance(event, TurnEnded):
        how = {TurnEndCause.BUTTON: f"by button {event.button}", TurnEndCause.EXPIRED: "by time running out",
               TurnEndCause.SKIPPED: "by the next seat's button, without the countdown"}[event.cause]
        return f"turn {event.turn} ended {how}" + (f" with {event.seconds_left} s left" if event.seconds_left else "")
    if isinstance(event, TimerIncident):
        return f"timer box: {_ENGLISH.maybe(f'incident.{event.incident}', '')}: {event.detail}"
    if isinstance(event, PlayAreaSet):
        return area_words(event)
    if isinstance(event, TableAccepted) and event.reason == AREA_CONFIRMED:
        return f"play area and clear table confirmed as the game began, by {event.by}"
    if isinstance(event, TableAccepted):
        return f"table accepted as the camera saw it, by {event.by} (something at the {event.where}: {event.reason})"
    if isinstance(event, TableRead):
        what = {ReadPurpose.ALARM: "table read as it lay at the alarm",
                ReadPurpose.RESTORE: "table read while restoring"}.get(event.purpose, "table read")
        text = f"{what}: {melds_text(melds_of(event.tiles, event.sets))}"
        if event.doubts:
            text += f"; {len(event.doubts)} doubtful tile(s) for the referee"
        if event.settled:
            text += f"; {len(event.settled)} tile(s) settled by the rules"
        return text
    if isinstance(event, RefereeCorrection):
        who = f"referee {event.referee}" if event.referee else "referee"
        if event.target_kind is CorrectionTarget.TABLE:
            what = ", ".join(f"tile {index} is {code}" for index, code in event.changes) or "nothing"
            return f"{who} corrects the table read: {what} ({event.note})"
        return f"{who} corrects {event.rack_player}'s rack: {' '.join(event.rack or ()) or '(empty)'} " \
               f"({event.note})"
    if isinstance(event, TurnJudged):
        text = "verdict: " + verdict_words(event)
        for rule, detail in event.violations:
            text += f"; {_ENGLISH.maybe(f'rule.{rule}', rule.replace('-', ' '))}: {detail}"
        return text
    if isinstance(event, RestoreChecked):
        return "restore check: " + describe_restore(event)
    if isinstance(event, PenaltyHeld):
        return held_words(event)
    if isinstance(event, HeldPenaltyAnswered):
        return held_answer_words(event)
    if isinstance(event, VerdictOverridden):
        return f"verdict of turn {event.turn} overridden by referee {event.referee}: {event.player}'s turn stands " \
               f"({_ENGLISH.maybe(f'outcome.{event.outcome}', '').lower()}); why: {event.reason}"
    if isinstance(event, ClockAdjusted):
        return f"turn {event.turn}: clock {event.action}" + (f" +{event.seconds} s" if event.seconds else "") + \
               f" by referee {event.referee}; why: {event.reason}"
    if isinstance(event, TableUnrestorable):
        return (f"restore given up: kept {melds_text(event.kept)}; {event.player} takes "
                f"{' '.join(event.to_offender) or 'nothing'}; to the end of the pool {' '.join(event.to_pool) or 'nothing'}")
    if isinstance(event, CountAlert):
        return (f"count alert: table {event.table} + racks {event.racks} + pool {event.pool} is not {event.expected}"
                + ("; the table is disqualified" if event.disqualified else ""))
    if isinstance(event, RackRevealed):
        return f"{event.player} lays the rack open: {' '.join(event.codes) or '(empty)'} ({len(event.codes)} tiles, " \
               f"{event.expected} counted)"
    if isinstance(event, GameScored):
        return f"score ({_ENGLISH.maybe(f'end.{event.end}', str(event.end))}): winner {event.winner}; " + ", ".join(f"{n} {p:+d}" for n, p in event.scores)
    if isinstance(event, ClockRecorded):
        return " ".join(part for part in (event.what, event.player or "", event.detail) if part)
    return event.kind.value
