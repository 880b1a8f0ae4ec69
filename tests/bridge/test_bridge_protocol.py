"""The pure parser/formatter: round trips, clear errors, never a crash."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.protocol import (
    ARITY,
    MAX_SEQ,
    BridgeError,
    ChecksumError,
    Direction,
    Frame,
    FrameError,
    Mode,
    STALE_WINDOW,
    Phase,
    PressId,
    SequenceError,
    SequenceTracker,
    StaleFrameError,
    TimerState,
    Verb,
    crc16,
    format_frame,
    parse_frame,
)


def test_crc_matches_the_published_check_value():
    assert crc16(b"123456789") == 0x29B1


def test_text_with_spaces_stars_and_percent_survives_the_wire():
    line = format_frame(Frame(Direction.COMMAND, 17, Verb.SHOW, ("Hi *there 100%",)))
    assert line == b">17 SHOW Hi%20%2Athere%20100%25 *31DE\n"
    assert parse_frame(line).args == ("Hi *there 100%",)


@pytest.mark.parametrize(
    "line, fragment",
    [
        (b"", "empty line"),
        (b">3 STATE", "no ' *CRC' checksum"),
        (b">3 STATE *12ab", "four upper-case hex digits"),
        (b">03 STATE *0000", "checksum says 0000"),
        (b"\xff\xfe", "not printable ASCII"),
    ],
    ids=["empty", "no-checksum", "lowercase-checksum", "bad-checksum", "binary"],
)
def test_malformed_lines_get_a_clear_error(line, fragment):
    with pytest.raises(FrameError, match=fragment.replace("*", r"\*")):
        parse_frame(line)


def _framed(body: bytes) -> bytes:
    return body + b" *%04X\n" % crc16(body)


@pytest.mark.parametrize(
    "body, fragment",
    [
        (b">03 STATE", "sequence number '03'"),
        (b">70000 STATE", "sequence number '70000'"),
        (b">3 FLY", "unknown verb 'FLY'"),
        (b"<3 START 1", "cannot travel in direction '<'"),
        (b">3 START", "takes 1..1 arguments, got 0"),
        (b">3  STATE", "single spaces"),
        (b">3 SHOW a%4", "bad %-escape"),
        (b">3 SHOW a%0A", "control character"),
        (b"#3 STATE", "must start with '<' or '>'"),
    ],
    ids=["leading-zero", "seq-too-big", "unknown-verb", "wrong-direction", "arity", "double-space",
         "cut-escape", "escaped-newline", "no-direction-mark"],
)
def test_well_summed_but_wrong_frames_are_refused_with_the_line_quoted(body, fragment):
    with pytest.raises(FrameError) as caught:
        parse_frame(_framed(body))
    assert fragment in str(caught.value)
    assert body.decode()[:10] in str(caught.value)
    assert not isinstance(caught.value, ChecksumError)


def test_formatter_refuses_what_cannot_travel():
    with pytest.raises(FrameError, match="not ASCII"):
        format_frame(Frame(Direction.COMMAND, 1, Verb.SHOW, ("Café",)))
    with pytest.raises(FrameError, match="does not travel"):
        format_frame(Frame(Direction.EVENT, 1, Verb.START, ("1",)))
    with pytest.raises(FrameError, match="outside 0..65535"):
        format_frame(Frame(Direction.COMMAND, 70000, Verb.STATE))


def test_state_round_trips_through_key_values():
    state = TimerState(Mode.DUEL, 1800, Phase.PAUSED, 2, 1_234_567, 300, "ab12cd34", (1_700_000, 1_234_567))
    assert TimerState.from_args(state.to_args()) == state
    assert state.seconds_left == 1235
    with pytest.raises(FrameError, match="lacks boot"):
        TimerState.from_args(state.to_args()[:-3])


printable_arg = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=8)


@st.composite
def frames(draw):
    verb = draw(st.sampled_from(list(Verb)))
    arity = ARITY[verb]
    count = draw(st.integers(arity.least, min(arity.most, 6)))
    return Frame(arity.direction, draw(st.integers(0, MAX_SEQ)), verb, tuple(draw(st.lists(printable_arg, min_size=count, max_size=count))))


@given(frames())
def test_every_formatted_frame_parses_back_to_itself(frame):
    assert parse_frame(format_frame(frame)) == frame


@given(st.binary(max_size=200))
@settings(max_examples=400)
def test_random_bytes_give_a_frame_or_a_frame_error_never_a_crash(data):
    try:
        parse_frame(data)
    except FrameError as error:
        assert str(error)


@given(frames(), st.data())
def test_a_cut_line_is_refused(frame, data):
    line = format_frame(frame).rstrip(b"\n")
    cut = data.draw(st.integers(0, len(line) - 1))
    with pytest.raises(FrameError):
        parse_frame(line[:cut])


@given(frames(), st.data())
def test_any_single_byte_change_is_caught(frame, data):
    line = bytearray(format_frame(frame).rstrip(b"\n"))
    at = data.draw(st.integers(0, len(line) - 1))
    replacement = data.draw(st.integers(0x20, 0x7E).filter(lambda b: b != line[at]))
    line[at] = replacement
    with pytest.raises(FrameError):
        parse_frame(bytes(line))


@given(st.lists(st.integers(0, MAX_SEQ), min_size=2, max_size=20))
def test_sequence_gaps_raise_a_sequence_error_naming_both_numbers(numbers):
    tracker = SequenceTracker()
    for seq in numbers:
        frame = Frame(Direction.EVENT, seq, Verb.HEARTBEAT, ("RUN",))
        last = tracker.last
        expected = None if last is None else (last + 1) & MAX_SEQ
        if expected is None or seq in (expected, last):
            tracker.check(frame)
        elif (last - seq) & MAX_SEQ < STALE_WINDOW:
            # behind the last one: an old frame; the count stays where it was
            with pytest.raises(StaleFrameError, match=f"sequence number {seq} in HB frame is"):
                tracker.check(frame)
            assert tracker.last == last
            continue
        else:
            with pytest.raises(SequenceError) as caught:
                tracker.check(frame)
            assert not isinstance(caught.value, StaleFrameError)
            assert (caught.value.expected, caught.value.received) == (expected, seq)
            assert f"expected sequence number {expected}, got {seq}" in str(caught.value)
        assert tracker.last == seq


def test_a_replayed_old_frame_is_stale_and_the_next_good_one_is_no_gap():
    tracker = SequenceTracker()
    for seq in (40, 41):
        assert tracker.check(Frame(Direction.EVENT, seq, Verb.HEARTBEAT, ("RUN",)))
    with pytest.raises(StaleFrameError) as caught:
        tracker.check(Frame(Direction.EVENT, 30, Verb.BUTTON, ("1", "1", "500")))
    assert isinstance(caught.value, SequenceError) and caught.value.received == 30
    assert tracker.check(Frame(Direction.EVENT, 42, Verb.HEARTBEAT, ("RUN",)))
    tracker.resync(7)  # the answer to our own command proves a restarted count
    assert tracker.check(Frame(Direction.EVENT, 8, Verb.HEARTBEAT, ("IDLE",)))
    # across the wrap, 65535 -> 0 is in order and 65534 is behind
    tracker.resync(MAX_SEQ)
    assert tracker.check(Frame(Direction.EVENT, 0, Verb.HEARTBEAT, ("RUN",)))
    with pytest.raises(StaleFrameError):
        tracker.check(Frame(Direction.EVENT, MAX_SEQ - 1, Verb.HEARTBEAT, ("RUN",)))


def test_press_ids_travel_as_trailing_key_value_words_that_old_readers_can_skip():
    line = format_frame(Frame(Direction.EVENT, 9, Verb.BUTTON, ("2", "2", "41250", *PressId("c0ffee01", 7).to_args())))
    assert line.startswith(b"<9 BTN 2 2 41250 boot=c0ffee01 press=7 *")
    frame = parse_frame(line)
    assert PressId.from_args(frame.args) == PressId("c0ffee01", 7)
    assert PressId.from_args(("2", "2", "41250")) is None  # a box (or session) without ids
    assert PressId.from_args(("2", "2", "41250", "x=1", "press=3", "boot=ab")) == PressId("ab", 3)
    with pytest.raises(FrameError, match="press='7x' is not an integer"):
        PressId.from_args(("2", "2", "41250", "boot=ab", "press=7x"))
    state = TimerState(Mode.TURN, 60, Phase.RUNNING, 1, 5000, 0, "ab", presses=4)
    assert state.to_args()[-1] == "press=4" and TimerState.from_args(state.to_args()) == state
    assert TimerState.from_args(state.to_args()[:-1]).presses is None  # a box that does not count


def test_a_repeated_frame_is_reported_as_a_repeat_and_reset_restarts_the_count():
    tracker = SequenceTracker()
    assert tracker.check(Frame(Direction.EVENT, 5, Verb.HEARTBEAT, ("RUN",)))
    assert not tracker.check(Frame(Direction.EVENT, 5, Verb.HEARTBEAT, ("RUN",)))
    assert tracker.check(Frame(Direction.EVENT, 0, Verb.RESET, ("power", "ab")))
    assert tracker.check(Frame(Direction.EVENT, 1, Verb.HEARTBEAT, ("IDLE",)))


def test_all_errors_share_one_base():
    assert issubclass(ChecksumError, FrameError) and issubclass(FrameError, BridgeError)
    assert issubclass(SequenceError, BridgeError)


def test_the_examples_in_protocol_md_are_valid_frames():
    import firmware_bridge
    from pathlib import Path

    text = (Path(firmware_bridge.__file__).parent / "PROTOCOL.md").read_text()
    examples = [line.split("  ")[0] for line in text.splitlines() if line[:1] in "<>" and " *" in line]
    assert len(examples) >= 4
    for example in examples:
        parse_frame(example)
