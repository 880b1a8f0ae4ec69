"""`tileref clock` on the emulated box over a real pty: every game ends in the event's standings."""
from __future__ import annotations

import json
import time

import pytest

from controller.cli import main
from controller.messages import named
from controller.records import Records
from controller.tournament import TournamentStore
from firmware_bridge.emulator_process import EmulatorProcess

from clock_helpers import FAST, ClockProcess, director_key_path, make_event


@pytest.fixture
def box():
    with EmulatorProcess(clock_rate=FAST) as emulator:
        yield emulator


@pytest.fixture
def db(tmp_path):
    return tmp_path / "tileref.sqlite"


def seats(db, event):
    with TournamentStore(db) as store:
        return store.load(event).round(1).tables[0].seats


def standings(db, event, capsys):
    capsys.readouterr()
    assert main(["tournament", "standings", event, "--db", str(db), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def clock_facts(db):
    with Records(db, create=False) as records:
        game = records.latest_game()
        assert records.verify(game).ok
        return [e.payload() for e in records.events(game)[1:]]


def run_clock(box, db, game, event, *extra):
    return ClockProcess(game, "--timer", box.port, "--db", str(db), "--event", event, "--stage", "1", "--table", "1",
                        "--director-key", str(director_key_path(db)), *extra)


def test_shogi_game_to_a_flag_fall(box, db, tmp_path, capsys):
    make_event(tmp_path, db, "shogi", "knockout", ["Ann", "Ben"], "game=shogi")
    sente, gote = seats(db, "shogi")
    clock = run_clock(box, db, "shogi", "shogi", "--seconds", "20")
    try:
        clock.expect("started:")
        box.press("1")  # sente moves and hands over: gote's bank runs out
        assert "hands over" in clock.expect("pressed:")
        assert gote in clock.expect("flag fell:")
        assert sente in clock.expect("result:")
        clock.expect("recorded R1-T1-G1")
        code, err = clock.finish()
    finally:
        clock.kill()
    assert code == 0, err
    table = standings(db, "shogi", capsys)
    assert table["finished"] and table["sections"][0]["rows"][0]["player"] == sente
    facts = clock_facts(db)
    assert [f["what"] for f in facts] == ["started", "pressed", "flag-fell", "result"]
    assert dict(map(tuple, facts[2]["ms_left"]))[gote] == 0
    # a referee replays it like a table's game: verified first, then the clock's facts as lines
    capsys.readouterr()
    assert main(["replay", "--db", str(db), "--no-wait"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "hash chain intact" in lines[0] and lines[1].startswith("clock-shogi; players")
    whats = ["started", "pressed", "flag-fell", "result"]  # each line says its fact in words
    assert len(lines[2:]) == len(whats) and all(
        line.strip().startswith(named("clockfact", what)) for line, what in zip(lines[2:], whats)), lines
    assert f"flag fell {gote} ({gote} 0:00)" in lines[4]


def test_shogi_repetition_is_replayed_with_colours_swapped_on_the_remaining_times(box, db, tmp_path, capsys):
    make_event(tmp_path, db, "shogi", "knockout", ["Ann", "Ben"], "game=shogi")
    first_sente, first_gote = seats(db, "shogi")
    clock = run_clock(box, db, "shogi", "shogi", "--seconds", "40")
    try:
        clock.expect("started:")
        time.sleep(0.25)  # sente thinks about 5 box seconds
        box.press("1")
        clock.expect("pressed:")
        clock.send("repetition")
        clock.expect("repetition:")
        replay = clock.expect("replay started:")
        assert f"{first_gote} sente" in replay
        box.press("2")  # the new sente moves: the first sente, now gote, runs out on what was left
        clock.expect("pressed:")
        assert first_sente in clock.expect("flag fell:")
        clock.expect("recorded R1-T1-G1")
        code, err = clock.finish()
    finally:
        clock.kill()
    assert code == 0, err
    facts = clock_facts(db)
    assert [f["what"] for f in facts] == [
        "started", "pressed", "repetition", "replay-started", "pressed", "flag-fell", "result"]
    times = dict(map(tuple, facts[3]["ms_left"]))
    assert times[first_sente] < 37000  # the replay keeps the time already used, no fresh 40 s
    assert "repetition" in facts[-1]["detail"] and facts[-1]["player"] == first_gote
    table = standings(db, "shogi", capsys)
    assert table["finished"] and table["sections"][0]["rows"][0]["player"] == first_gote


def test_othello_game_time_up_then_discs_with_empties_split(box, db, tmp_path, capsys):
    make_event(tmp_path, db, "othello", "knockout", ["Ann", "Ben"], "game=othello")
    black, white = seats(db, "othello")
    clock = run_clock(box, db, "othello", "othello", "--seconds", "10")
    try:
        clock.expect("started:")
        box.press("1")
        clock.expect("pressed:")
        assert "count the discs" in clock.expect("flag fell:")
        clock.send("discs 28 30")  # 6 empties: 3 each, 31 - 33
        assert "31 - 33" in clock.expect("result:")
        clock.expect("recorded R1-T1-G1")
        code, err = clock.finish()
    finally:
        clock.kill()
    assert code == 0, err
    table = standings(db, "othello", capsys)
    assert table["finished"] and table["sections"][0]["rows"][0]["player"] == white


def test_mahjong_hanchan_to_the_session_end(box, db, tmp_path, capsys):
    make_event(tmp_path, db, "health", "health-mahjong", ["A", "B", "C", "D"], "hanchan=1")
    order = seats(db, "health")
    clock = run_clock(box, db, "mahjong", "health", "--seconds", "10")
    try:
        clock.expect("started:")
        clock.send("pause")
        clock.expect("paused:")
        clock.send("resume")
        clock.expect("resumed:")
        assert "the hand in progress is the last" in clock.expect("session ended:")
        points = dict(zip(order, (45000, 35000, 25000, 15000)))
        clock.send("points " + " ".join(f"{name}={value}" for name, value in points.items()))
        clock.expect("result:")
        clock.expect("recorded R1-T1-G1")
        code, err = clock.finish()
    finally:
        clock.kill()
    assert code == 0, err
    table = standings(db, "health", capsys)
    rows = table["sections"][0]["rows"]
    assert table["finished"] and [r["player"] for r in rows] == list(order)
    assert str(rows[0]["total"]) == "35.0"
    assert [f["what"] for f in clock_facts(db)] == ["started", "paused", "resumed", "session-ended", "result"]


def test_a_game_not_drawn_is_refused_with_one_line(db, tmp_path, capsys):
    make_event(tmp_path, db, "shogi", "knockout", ["Ann", "Ben"], "game=shogi")
    capsys.readouterr()
    code = main(["clock", "shogi", "--timer", str(tmp_path / "no-port"), "--db", str(db),
                 "--event", "shogi", "--stage", "2", "--table", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "R2-T1-G1" in err and "not been drawn" in err


@pytest.mark.parametrize("revoked", [False, True], ids=["key-not-in-the-keyring", "key-revoked"])
def test_a_clock_for_an_event_with_a_key_its_database_does_not_trust_is_refused_before_the_box(
        box, db, tmp_path, capsys, revoked):
    """The standings count a result only from a trusted table: the clock refuses such a key at once,
    before the box is set or anything recorded, naming the key and how to trust it."""
    from controller.records.signing import default_table_key

    make_event(tmp_path, db, "shogi", "knockout", ["Ann", "Ben"], "game=shogi", trust_table=revoked)
    fingerprint = default_table_key().public.fingerprint
    if revoked:
        with Records(db) as records:
            records.keyring().revoke(fingerprint, "stolen at the last club night")
    capsys.readouterr()
    code = main(["clock", "shogi", "--timer", box.port, "--db", str(db), "--event", "shogi", "--stage", "1",
                 "--table", "1", "--director-key", str(director_key_path(db))])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert fingerprint in err and "tileref key trust" in err and "'shogi'" in err
    assert ("stolen at the last club night" in err) == revoked
    with Records(db, create=False) as records:
        assert records.games() == []
    with TournamentStore(str(db)) as store:
        assert not store.load("shogi").results


@pytest.mark.parametrize("args, names", [
    (["--seconds", "0"], "--seconds"),
    (["--event", "nope", "--stage", "1", "--table", "1"], "'nope'"),
    (["--players", "Ann"], "Ann"),
], ids=["zero-seconds", "unknown-event", "one-player"])
def test_bad_options_exit_2_naming_them(db, tmp_path, capsys, args, names):
    if "--event" not in args:
        args = [*args, "--players", "Ann,Ben"] if "--players" not in args else args
    code = main(["clock", "shogi", "--timer", str(tmp_path / "no-port"), "--db", str(db), *args])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and names in err


def test_an_absent_timer_port_exits_2_naming_it(db, tmp_path, capsys):
    code = main(["clock", "shogi", "--timer", str(tmp_path / "no-port"), "--db", str(db), "--players", "Ann,Ben"])
    err = capsys.readouterr().err
    assert code == 2 and "no-port" in err and err.count("\n") == 1


def test_clock_json_prints_the_result_as_one_object(box, db):
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "controller.cli", "clock", "shogi", "--timer", box.port,
                                "--db", str(db), "--players", "Ann,Ben", "--seconds", "20", "--json"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said: list[str] = []

        def until(prefix: str) -> None:  # the clock's lines come on standard error
            while not any(line.startswith(prefix) for line in said):
                line = process.stderr.readline()
                assert line, f"the clock stopped before {prefix!r}: {said}"
                said.append(line)

        until("started:")
        box.press("1")  # sente hands over; gote's bank runs out
        until("result:")
        process.wait(30)  # standard input stays open: closed before the loop sees the result, it ends the game
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
    assert process.returncode == 0, err
    summary = json.loads(out)
    assert summary["game"] == "shogi" and summary["players"] == ["Ann", "Ben"] and summary["event"] is None
    assert summary["result"]["kind"] == "match" and summary["result"]["winner"] == "Ann"
    with Records(db, create=False) as records:
        assert records.latest_game() == summary["clock_game"]
