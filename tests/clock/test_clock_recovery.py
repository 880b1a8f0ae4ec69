"""A box that reboots (announced or not) or loses its power mid clock-game gets its clock
back, each side's bank (DUEL) or the session's time (SESSION) and the side to move, through BANK;
a box that only loses its cable keeps its clock; a box from before BANK says so and the director
ends the game by hand. `tileref clock` runs as its own process, the box as the emulator's.

The box runs RATE times faster than real time; the truth is the test's own: what the box said in
the facts before the fault, and the real time between the test's own actions.
"""
from __future__ import annotations

import time

import pytest

from controller.records import Records
from firmware_bridge.emulator_process import EmulatorProcess

from clock_helpers import ClockProcess, director_key_path, make_event
from test_clock_box import seats, standings

RATE = 4.0  # box seconds per real second: slow enough that pipe and scheduling delays stay well under a box second
SECOND_MS = 1000  # "within a second" of box time
WALL_SLACK_S = 0.4  # real time for one message to cross the pipes, on a busy machine


def facts_of(db):
    with Records(db, create=False) as records:
        game = records.latest_game()
        assert records.verify(game).ok  # the chain verifies: nothing recorded was lost or changed
        return [e.payload() for e in records.events(game)[1:]]


def times(fact) -> dict[str, int]:
    return dict(map(tuple, fact["ms_left"]))


def run_clock(box, db, game, event, *extra):
    return ClockProcess(game, "--timer", box.port, "--db", str(db), "--event", event, "--stage", "1", "--table", "1",
                        "--director-key", str(director_key_path(db)), *extra)


def reboot(box):
    box.reset("watchdog")


def reboot_unannounced(box):
    box.reset("brownout", announce=False)  # its RESET frame is lost: the heartbeat's IDLE gives it away


def power_cycle(box):
    box.restart()  # unplugged from a USB-powered box: a new boot behind the same port link


FAULTS = {"reboot": reboot, "reboot-with-reset-frame-lost": reboot_unannounced, "unplugged-and-powered-up": power_cycle}


@pytest.mark.parametrize("fault", FAULTS, ids=list(FAULTS))
def test_shogi_box_that_reboots_gets_both_banks_and_the_side_to_move_back(tmp_path, capsys, fault):
    db = tmp_path / "tileref.sqlite"
    make_event(tmp_path, db, "shogi", "knockout", ["Ann", "Ben"], "game=shogi")
    sente, gote = seats(db, "shogi")
    with EmulatorProcess(clock_rate=RATE) as box:
        clock = run_clock(box, db, "shogi", "shogi", "--seconds", "16")
        try:
            clock.expect("started:")
            time.sleep(0.25)  # sente thinks about a box second, then hands over
            box.press("1")
            pressed_at = time.monotonic()
            clock.expect("pressed:")
            time.sleep(1.0)  # gote thinks about four box seconds: more than the tolerance below, so a fresh bank is told apart
            fault_at = time.monotonic()
            FAULTS[fault](box)
            clock.expect("clock given back:", timeout=15)
            restored_at = time.monotonic()
            time.sleep(0.25)
            box.press("2")  # gote moves on the restored bank; sente's restored bank then runs out
            moved_at = time.monotonic()
            clock.expect("pressed:")
            assert sente in clock.expect("flag fell:", timeout=15)
            flag_at = time.monotonic()
            clock.expect("recorded R1-T1-G1")
            code, err = clock.finish()
        finally:
            clock.kill()
    assert code == 0, err
    facts = facts_of(db)
    whats = [f["what"] for f in facts]
    assert whats[:2] == ["started", "pressed"] and whats[-3:] == ["pressed", "flag-fell", "result"]
    sente_bank = times(facts[1])[sente]  # the box's own measure of sente's bank at the hand-over
    assert 14000 <= sente_bank < 16000

    restored = next(f for f in facts if f["what"] == "restored")
    given = times(restored)
    assert restored["player"] == gote  # gote was to move when the box went, and is again
    assert given[sente] == sente_bank  # the bank that was not running comes back to the millisecond
    gote_truth = 16000 - (fault_at - pressed_at) * RATE * 1000
    # the test's own clock readings carry a message's pipe delay, as in the checks below; a bank given back
    # whole (16 s) would be off by four box seconds
    assert abs(given[gote] - gote_truth) <= SECOND_MS + WALL_SLACK_S * RATE * 1000, (given, gote_truth)
    incident = facts[whats.index("box")]
    assert times(incident) == given  # what was recorded when the box went is what it was given back

    # the box counts on from there: gote's press measures the restored bank, sente's flag its own
    gote_at_press = times(facts[-3])[gote]
    expected = given[gote] - (moved_at - restored_at) * RATE * 1000
    assert expected - SECOND_MS - WALL_SLACK_S * RATE * 1000 <= gote_at_press <= given[gote], (gote_at_press, expected)
    assert abs((flag_at - moved_at) * RATE * 1000 - sente_bank) <= SECOND_MS + WALL_SLACK_S * RATE * 1000
    table = standings(db, "shogi", capsys)
    assert table["finished"] and table["sections"][0]["rows"][0]["player"] == gote


def test_shogi_press_frame_lost_on_the_wire_the_box_state_keeps_the_banks(tmp_path, capsys):
    db = tmp_path / "tileref.sqlite"
    make_event(tmp_path, db, "shogi", "knockout", ["Ann", "Ben"], "game=shogi")
    sente, gote = seats(db, "shogi")
    with EmulatorProcess(clock_rate=RATE) as box:
        clock = run_clock(box, db, "shogi", "shogi", "--seconds", "8")
        try:
            clock.expect("started:")
            time.sleep(0.25)
            box.drop("BTN")  # the hand-over's press frame is lost: the gap makes the clock ask the box
            box.press("1")
            checked = clock.expect("timer box: StateChecked")
            assert gote in clock.expect("flag fell:", timeout=10)
            clock.expect("recorded R1-T1-G1")
            code, err = clock.finish()
        finally:
            clock.kill()
    assert code == 0, err
    facts = facts_of(db)
    check = next(f for f in facts if f["what"] == "box" and f["detail"].startswith("StateChecked"))
    assert 6000 <= times(check)[sente] < 8000 and times(check)[gote] <= 8000, checked  # the box's banks
    assert [f["what"] for f in facts][-2:] == ["flag-fell", "result"]
    assert standings(db, "shogi", capsys)["sections"][0]["rows"][0]["player"] == sente


def mahjong_event(tmp_path, db):
    make_event(tmp_path, db, "health", "health-mahjong", ["A", "B", "C", "D"], "hanchan=1")
    return seats(db, "health")


def end_hanchan(clock, order):
    points = dict(zip(order, (45000, 35000, 25000, 15000)))
    clock.send("points " + " ".join(f"{name}={value}" for name, value in points.items()))
    clock.expect("result:")
    clock.expect("recorded R1-T1-G1")


@pytest.mark.parametrize("paused", [False, True], ids=["running", "paused"])
def test_mahjong_session_time_comes_back_after_a_reboot(tmp_path, capsys, paused):
    db = tmp_path / "tileref.sqlite"
    order = mahjong_event(tmp_path, db)
    with EmulatorProcess(clock_rate=RATE) as box:
        clock = run_clock(box, db, "mahjong", "health", "--seconds", "12")
        try:
            clock.expect("started:")
            started_at = time.monotonic()
            time.sleep(1.0)  # four box seconds of the hanchan: more than the tolerance below, so a fresh session is told apart
            if paused:
                clock.send("pause")
                clock.expect("paused:")
            fault_at = time.monotonic()
            box.reset("watchdog")
            restored = clock.expect("clock given back:", timeout=10)
            restored_at = time.monotonic()
            if paused:
                assert "stays paused" in restored
                time.sleep(0.5)  # the paused session does not run on the rebooted box either
                clock.send("resume")
                clock.expect("resumed:")
                restored_at = time.monotonic()
            assert "the hand in progress is the last" in clock.expect("session ended:", timeout=10)
            ended_at = time.monotonic()
            end_hanchan(clock, order)
            code, err = clock.finish()
        finally:
            clock.kill()
    assert code == 0, err
    facts = facts_of(db)
    given = times(next(f for f in facts if f["what"] == "restored"))["session"]
    if paused:
        truth = times(next(f for f in facts if f["what"] == "paused"))["session"]  # the box's word at the pause
        assert given == truth
    else:
        truth = 12000 - (fault_at - started_at) * RATE * 1000
        # the account knows the session from the box's last report (up to a box second old), and the test's
        # readings carry a message's pipe delay; a session given back whole (12 s) would be off by four
        assert abs(given - truth) <= SECOND_MS + WALL_SLACK_S * RATE * 1000, (given, truth)
    # the session runs out when the restored time does, not a fresh 12 s later
    assert abs((ended_at - restored_at) * RATE * 1000 - given) <= SECOND_MS + WALL_SLACK_S * RATE * 1000
    whats = [f["what"] for f in facts]
    assert whats[0] == "started" and whats[-2:] == ["session-ended", "result"]
    table = standings(db, "health", capsys)
    assert table["finished"] and [r["player"] for r in table["sections"][0]["rows"]] == list(order)


def test_mahjong_box_unplugged_keeps_its_clock_and_the_session_ends_on_time(tmp_path, capsys):
    db = tmp_path / "tileref.sqlite"
    order = mahjong_event(tmp_path, db)
    with EmulatorProcess(clock_rate=RATE) as box:
        clock = run_clock(box, db, "mahjong", "health", "--seconds", "12")
        try:
            clock.expect("started:")
            started_at = time.monotonic()
            time.sleep(0.25)
            box.unplug(0.6)  # the cable is out; the box keeps its power and counts on
            clock.expect("timer box: Disconnected")
            clock.expect("timer box: Reconnected")
            clock.expect("session ended:", timeout=10)
            ended_at = time.monotonic()
            end_hanchan(clock, order)
            code, err = clock.finish()
        finally:
            clock.kill()
    assert code == 0, err
    facts = facts_of(db)
    assert "restored" not in [f["what"] for f in facts]  # nothing to give back: the box kept it
    assert abs((ended_at - started_at) * RATE * 1000 - 12000) <= SECOND_MS + WALL_SLACK_S * RATE * 1000
    assert standings(db, "health", capsys)["finished"]


def test_a_box_from_before_bank_says_it_cannot_restore_and_the_director_ends_the_game(tmp_path, capsys):
    db = tmp_path / "tileref.sqlite"
    make_event(tmp_path, db, "shogi", "knockout", ["Ann", "Ben"], "game=shogi")
    sente, gote = seats(db, "shogi")
    with EmulatorProcess(clock_rate=RATE, banks=False) as old_box:
        clock = run_clock(old_box, db, "shogi", "shogi", "--seconds", "60")
        try:
            clock.expect("started:")
            old_box.reset("watchdog")
            said = clock.expect("timer box: the box cannot be given its clock back", timeout=10)
            clock.send(f"win {gote}")
            clock.expect("result:")
            clock.expect("recorded R1-T1-G1")
            code, err = clock.finish()
        finally:
            clock.kill()
    assert code == 0, err
    assert "BANK" in said and "result line" in said
    facts = facts_of(db)
    assert "restored" not in [f["what"] for f in facts]
    assert standings(db, "shogi", capsys)["sections"][0]["rows"][0]["player"] == gote
