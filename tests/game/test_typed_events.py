"""Typed event fields: enums and named rows, the wire format unchanged by a byte.

Constructors take the plain strings and tuples a record holds (and that older callers pass) and
turn them into the typed values; a value outside a field's set is refused naming the field and
the value; every kind of event goes payload -> event -> payload to the same canonical JSON, so
every hash and signature over an old record still holds.
"""
from __future__ import annotations

import dataclasses
import enum
import json
import typing

import pytest
from hypothesis import given, settings, strategies as st

from controller.adapters.timer import SignalKind, TimerSignal
from controller.adapters.errors import TimerError
from controller.game import events as ev
from controller.game.errors import EventDataError
from controller.game.events import (
    EVENT_TYPES, BrokenRule, ClockAdjusted, ClockAdjustment, ClockFact, ClockRecorded, ClockTime, CorrectionTarget,
    Doubt, EventKind, GameEnd, GameScored, Incident, Outcome, Override, PlacedTile, PlayerPoints, ReadPurpose,
    RefereeCorrection, SettledDoubt, StartDraw, StartOrderDrawn, TableRead, TileChange, TimerIncident, TurnEndCause,
    TurnEnded, TurnJudged, VerdictOverridden, canonical_json, event_from_payload,
)
from controller.rules.judge import Rule


def test_old_plain_values_are_coerced_to_the_typed_ones():
    ended = TurnEnded(1, "expired", None, 0)
    assert ended.cause is TurnEndCause.EXPIRED and ended.cause == "expired" and f"{ended.cause}" == "expired"
    assert TimerIncident("restarted-after-resume", "x").incident is Incident.RESTARTED_AFTER_RESUME
    read = TableRead("alarm", None, None, (("R5", 10, 20.5),), ((0,),), ((0, ("R5", "R6"), "unsure"),),
                     ((0, "R6", "R5", "only R5 fits"),))
    assert read.purpose is ReadPurpose.ALARM
    assert read.tiles[0] == PlacedTile(code="R5", x=10, y=20.5) and read.tiles[0].code == "R5"
    assert read.doubts[0].candidates == ("R5", "R6") and isinstance(read.doubts[0], Doubt)
    assert read.settled == (SettledDoubt(index=0, read="R6", chosen="R5", why="only R5 fits"),)
    assert StartOrderDrawn((("Ann", "K9"),), "Ann", None).draws[0] == StartDraw(player="Ann", code="K9")
    judged = TurnJudged(1, "Ann", "penalty", ("R5",), (), (("invalid-set", "R5 alone"),), 3, -50, False, True, (), ())
    assert judged.outcome is Outcome.PENALTY
    assert judged.violations == (BrokenRule(Rule.INVALID_SET, "R5 alone"),) and judged.violations[0].rule is Rule.INVALID_SET
    scored = GameScored("pool-out", "Ann", (("Ann", 10), ("Ben", -10)), None)
    assert scored.end is GameEnd.POOL_OUT and scored.scores[1] == PlayerPoints(player="Ben", points=-10)
    assert scored.wins is None
    clock = ClockRecorded("flag-fell", "Ann", (("Ann", 0),), "")
    assert clock.what is ClockFact.FLAG_FELL and clock.ms_left == (ClockTime("Ann", 0),)
    assert VerdictOverridden(1, "Ann", "legal", "Rita", "x").outcome is Override.LEGAL
    assert ClockAdjusted(1, "extend", 30, "Rita", "x").action is ClockAdjustment.EXTEND
    assert TimerSignal("pressed", "1", 1).kind is SignalKind.PRESSED
    assert TimerSignal("incident", incident="disconnected").incident is Incident.DISCONNECTED


def test_a_referee_correction_keeps_its_target_string_and_reads_it_typed():
    table = RefereeCorrection("table", ((2, "K12"),), None, "looked")
    assert table.target == "table" and table.target_kind is CorrectionTarget.TABLE and table.rack_player is None
    assert table.changes == (TileChange(index=2, code="K12"),)
    rack = RefereeCorrection(RefereeCorrection.rack_target("Zoë"), (), ("R1",), "recount")
    assert type(rack.target) is str and rack.target == "rack:Zoë"
    assert rack.target_kind is CorrectionTarget.RACK and rack.rack_player == "Zoë"
    assert rack.payload()["target"] == "rack:Zoë"


@pytest.mark.parametrize("make, field, value", [
    (lambda: TurnEnded(1, "pressed", "1", 3), "TurnEnded.cause", "pressed"),
    (lambda: TimerIncident("exploded", ""), "TimerIncident.incident", "exploded"),
    (lambda: TableRead("lunch", None, None, (), (), (), ()), "TableRead.purpose", "lunch"),
    (lambda: TurnJudged(1, "Ann", "won", (), (), (), 0, 0, False, False, (), ()), "TurnJudged.outcome", "won"),
    (lambda: GameScored("resigned", "Ann", (), None), "GameScored.end", "resigned"),
    (lambda: ClockRecorded("rang", None, (), ""), "ClockRecorded.what", "rang"),
    (lambda: VerdictOverridden(1, "Ann", "penalty", "Rita", "x"), "VerdictOverridden.outcome", "penalty"),
    (lambda: ClockAdjusted(1, "stop", 0, "Rita", "x"), "ClockAdjusted.action", "stop"),
    (lambda: RefereeCorrection("pool", (), None, "x"), "RefereeCorrection.target", "pool"),
    (lambda: RefereeCorrection("rack:", (), (), "x"), "RefereeCorrection.target", "rack:"),
    (lambda: TurnJudged(1, "Ann", "draw", (), (), (("cheating", "x"),), 1, 0, False, False, (), ()),
     "TurnJudged.violations", "cheating"),
    (lambda: StartOrderDrawn((("Ann",),), "Ann", None), "StartOrderDrawn.draws", "('Ann',)"),
    (lambda: RefereeCorrection("table", ((1, "R5", "extra"),), None, "x"), "RefereeCorrection.changes", "extra"),
    (lambda: GameScored("pool-out", "Ann", "Ann 10", None), "GameScored.scores", "Ann 10"),
])
def test_an_unknown_value_is_refused_naming_the_field_and_the_value(make, field, value):
    with pytest.raises(EventDataError) as error:
        make()
    assert field in str(error.value) and value in str(error.value)


def test_an_unknown_value_in_a_recorded_payload_is_refused_on_loading():
    with pytest.raises(EventDataError, match="TurnEnded.cause: unknown value 'teleported'"):
        event_from_payload("turn-ended", {"turn": 1, "cause": "teleported", "button": None, "seconds_left": None})


def test_an_unknown_timer_signal_kind_is_refused():
    with pytest.raises(TimerError, match="TimerSignal.kind: unknown value 'sneezed'"):
        TimerSignal("sneezed")


# ------------------------------------------------------------ round trip, every kind

names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=8)
maybe_names = st.none() | names
ints = st.integers(-10**6, 10**6)
# what _to_json leaves as it is: ints, and floats already at 0.01 px
pixels = ints | st.floats(-5000, 5000, allow_nan=False).map(lambda f: round(f, 2))
scalars = st.none() | st.booleans() | ints | names


def _of(values: type[enum.Enum]):
    return st.sampled_from([member.value for member in values])


def rows(*parts):
    return st.lists(st.tuples(*parts).map(list), max_size=4)


FIELD_STRATEGIES = {
    "int": ints, "str": names, "bool": st.booleans(), "str | None": maybe_names, "int | None": st.none() | ints,
    "bool | None": st.none() | st.booleans(),
    "tuple[str, ...]": st.lists(names, max_size=4), "tuple[str, ...] | None": st.none() | st.lists(names, max_size=4),
    "tuple[tuple[int, ...], ...]": st.lists(st.lists(ints, max_size=4), max_size=3),
    "tuple[str | None, str | None, str | None] | None": st.none() | st.lists(maybe_names, min_size=3, max_size=3),
    "tuple[tuple[int, int], ...] | None": st.none() | st.lists(st.lists(ints, min_size=2, max_size=2).map(sorted), max_size=3),
    "tuple[tuple[str, ...], ...]": st.lists(st.lists(names, max_size=4), max_size=3),
    "tuple[tuple[str, Any], ...]": rows(names, scalars),
    "tuple[PlacedTile, ...]": rows(names, pixels, pixels),
    "tuple[Doubt, ...]": rows(ints, st.lists(names, max_size=3), names),
    "tuple[SettledDoubt, ...]": rows(ints, names, names, names),
    "tuple[StartDraw, ...]": rows(names, names),
    "tuple[TileChange, ...]": rows(ints, names),
    "tuple[BrokenRule, ...]": rows(_of(Rule), names),
    "tuple[PlayerPoints, ...]": rows(names, ints),
    "tuple[PlayerPoints, ...] | None": st.none() | rows(names, ints),
    "tuple[ClockTime, ...]": rows(names, ints),
    "TurnEndCause": _of(TurnEndCause), "Incident": _of(Incident), "ReadPurpose": _of(ReadPurpose),
    "Outcome": _of(Outcome), "GameEnd": _of(GameEnd), "ClockFact": _of(ClockFact), "Override": _of(Override),
    "ClockAdjustment": _of(ClockAdjustment), "HeldAnswer": _of(ev.HeldAnswer),
    "AreaSource": _of(ev.AreaSource), "tuple[AreaCorner, ...]": rows(pixels, pixels),
}


def test_every_field_of_every_event_has_a_strategy():
    """A new field (or a new type) must join the round trip below."""
    for cls in EVENT_TYPES.values():
        for field in dataclasses.fields(cls):
            assert field.type in FIELD_STRATEGIES, (cls.__name__, field.name, field.type)


@st.composite
def payloads(draw, kind: EventKind):
    cls = EVENT_TYPES[kind]
    payload = {}
    for field in dataclasses.fields(cls):
        payload[field.name] = draw(FIELD_STRATEGIES[field.type])
    for name in cls.OPTIONAL_FIELDS:  # absent, or there with a value: a None is never written
        if payload[name] is None:
            del payload[name]
    if cls is RefereeCorrection:
        payload["target"] = draw(st.just("table") | names.filter(bool).map(lambda n: "rack:" + n))
    if cls is ev.GameCreated:  # one of the two recorded shapes; the key only on signed games
        if draw(st.booleans()):
            del payload["pool_out_ends_at_last_draw"], payload["count_mismatch_disqualifies"]
        else:
            del payload["ruleset"]
            payload["pool_out_ends_at_last_draw"] = draw(st.booleans())
            payload["count_mismatch_disqualifies"] = draw(st.booleans())
        for name in ev.GameCreated.KEY_FIELDS:  # left out of the payload when None
            if payload[name] is None:
                del payload[name]
    return payload


@st.composite
def recorded_events(draw):
    kind = draw(st.sampled_from(list(EventKind)))
    return kind, draw(payloads(kind))


@settings(max_examples=600, deadline=None)
@given(recorded_events())
def test_every_kind_round_trips_payload_event_payload_byte_identical(recorded):
    kind, payload = recorded
    # the payload as the records hold it: the canonical JSON text, read back
    stored = canonical_json({"kind": kind.value, "payload": payload})
    event = event_from_payload(kind.value, json.loads(stored)["payload"])
    assert event.canonical_json() == stored
    assert json.dumps(event.payload(), sort_keys=True) == json.dumps(payload, sort_keys=True)
    again = event_from_payload(kind.value, event.payload())
    assert again == event and again.canonical_json() == stored
    _assert_typed(event)


def _assert_typed(event):
    """event_from_payload gives the typed values, not the strings and lists it read."""
    hints = typing.get_type_hints(type(event), vars(ev))
    for field in dataclasses.fields(event):
        value, hint = getattr(event, field.name), hints[field.name]
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            assert isinstance(value, hint), (field.name, value)
        row = _row_type(hint)
        if row is not None and value is not None:
            assert all(isinstance(item, row) for item in value), (field.name, value)
    if isinstance(event, TurnJudged):
        assert all(isinstance(v.rule, Rule) for v in event.violations)


def _row_type(hint):
    for arg in typing.get_args(hint):
        if typing.get_origin(arg) is tuple:
            return _row_type(arg)
        if isinstance(arg, type) and issubclass(arg, tuple) and hasattr(arg, "_fields"):
            return arg
    return None


def test_the_records_hold_the_plain_bytes_they_always_held(tmp_path):
    """What the store writes (and hashes and signs) is the payload spelled with plain strings and lists."""
    from controller.game import judging
    from controller.game.events import Dealt, TurnStarted
    from controller.records import Records
    records = Records(tmp_path / "games.sqlite")
    game = records.new_game("classic", ("Ann", "Ben"))
    for event in (judging.game_created("classic", ("Ann", "Ben")), StartOrderDrawn((("Ann", "K9"), ("Ben", "R2")), "Ann", None),
                  Dealt(1), TurnStarted(1, "Ann", 60, None), TurnEnded(1, TurnEndCause.BUTTON, "1", 42)):
        records.append(game, event)
    rows = dict(records.db.execute("SELECT kind, payload FROM events WHERE game_id=?", (game,)).fetchall())
    assert rows["start-order-drawn"] == '{"draws":[["Ann","K9"],["Ben","R2"]],"photo":null,"starter":"Ann"}'
    assert rows["turn-ended"] == '{"button":"1","cause":"button","seconds_left":42,"turn":1}'
    assert records.verify(game).ok
    back = records.events(game)
    assert back[-1].cause is TurnEndCause.BUTTON and back[1].draws[1].player == "Ben"
    records.close()
