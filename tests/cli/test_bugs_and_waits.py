"""Beyond the table of bad inputs: a bug is told from bad input, the timer box's waits
give up naming the port, the emulator serves on without a terminal, and a demo killed after its
score still writes its audit pages when resumed."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from controller import cli

ROOT = Path(__file__).resolve().parents[2]


def one_line(err: str) -> str:
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    return lines[0]


# ----------------------------------------------------------------------- bug or bad input


def test_a_bug_exits_1_with_one_line_naming_the_log(tmp_path, monkeypatch, capsys):
    import controller.commands.rules as rules

    def broken(args):
        return {}["no such key"]  # a bug in a handler, not the input

    monkeypatch.setattr(rules, "run_check", broken)
    monkeypatch.setenv("TILEREF_LOG_DIR", str(tmp_path / "logs"))
    (tmp_path / "t.json").write_text('{"sets": []}')
    assert cli.main(["check", str(tmp_path / "t.json")]) == 1
    line = one_line(capsys.readouterr().err)
    assert line.startswith("tileref check: internal error (a bug): KeyError: ") and "details in " in line
    log = Path(line.rsplit("details in ", 1)[1])
    assert log.parent == tmp_path / "logs"
    text = log.read_text()
    assert "Traceback" in text and "broken" in text and "t.json" in text


def test_the_log_goes_to_the_temp_directory_when_the_state_directory_cannot_be_written(monkeypatch, capsys):
    import controller.commands.rules as rules

    monkeypatch.setattr(rules, "run_check", lambda args: 1 / 0)
    monkeypatch.setenv("TILEREF_LOG_DIR", "/sys/tileref-logs")
    assert cli.main(["check", "x.json"]) == 1
    line = one_line(capsys.readouterr().err)
    log = Path(line.rsplit("details in ", 1)[1])
    assert "ZeroDivisionError" in log.read_text()
    log.unlink()


def test_the_reader_turns_only_the_vision_layers_errors_into_bad_input(monkeypatch):
    import vision
    from controller.adapters.errors import ReaderError
    from controller.adapters.reader import VisionReader

    reader = VisionReader()
    frame = np.zeros((64, 64, 3), np.uint8)

    def vision_refuses(image, profile=None, area=None, looks=None, memory=None):
        raise vision.ImageReadError("frame: expected uint8 pixels")

    reader._read = vision_refuses
    with pytest.raises(ReaderError, match="uint8"):
        reader.read(frame)

    def vision_has_a_bug(image, profile=None, area=None, looks=None, memory=None):
        return {}["tiles"]

    reader._read = vision_has_a_bug
    with pytest.raises(KeyError):  # a bug goes up as it is: tileref exits 1 naming the log, not 2
        reader.read(frame)


# ------------------------------------------------------------------------ the timer box


class FakePort:
    """A pty that is no box: `silent`, `echo` (a loopback) or `garbage`."""

    def __init__(self, kind: str, folder: Path):
        self.kind = kind
        self.master, self.slave = os.openpty()
        import termios
        import tty

        tty.setraw(self.slave, termios.TCSANOW)
        self.path = folder / f"port-{kind}"
        os.symlink(os.ttyname(self.slave), self.path)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        import select

        rng = np.random.default_rng(0)
        while not self.stop.is_set():
            if self.kind == "garbage":
                os.write(self.master, rng.integers(0, 256, 40, dtype=np.uint8).tobytes() + b"\n")
            readable, _, _ = select.select([self.master], [], [], 0.05)
            if readable:
                data = os.read(self.master, 4096)
                if self.kind == "echo":
                    os.write(self.master, data)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        os.close(self.master)
        os.close(self.slave)


@pytest.mark.parametrize("kind, reason", [("silent", "silent"), ("echo", "echoes"), ("garbage", "garbage")])
def test_timer_check_against_a_port_with_no_box_exits_2_with_the_reason(kind, reason, tmp_path, capsys):
    port = FakePort(kind, tmp_path)
    try:
        code = cli.main(["timer", "check", "--port", str(port.path)])
    finally:
        port.close()
    line = one_line(capsys.readouterr().err)
    assert code == 2 and str(port.path) in line and reason in line, line


def test_the_emulator_keeps_serving_when_its_stdin_is_closed_and_removes_its_link_on_sigterm(tmp_path):
    from firmware_bridge.driver import TimerDriver

    link = tmp_path / "box"
    process = subprocess.Popen([sys.executable, "-m", "controller.cli", "timer-emulator", "--link", str(link)],
                               cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        deadline = time.monotonic() + 15
        while not link.is_symlink() and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.05)
        time.sleep(0.5)  # it used to quit here: stdin at its end
        assert process.poll() is None, process.communicate()
        with TimerDriver(str(link)) as driver:
            assert driver.identify().serial
        process.send_signal(signal.SIGTERM)
        assert process.wait(5) == 0
        assert not link.is_symlink()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_wait_on_a_box_that_stopped_answering_gives_up_naming_the_port():
    from controller.adapters.errors import TimerError
    from controller.adapters.timer import Incident, SerialTimer
    from firmware_bridge.emulator_process import EmulatorProcess

    with EmulatorProcess(clock_rate=1) as box:
        timer = SerialTimer(box.port, driver_options={"heartbeat_ms": 100}, link_give_up=1.0)
        try:
            os.kill(box._process.pid, signal.SIGSTOP)  # a hung box (or an emulator stopped by its terminal)
            said = []
            started = time.monotonic()
            with pytest.raises(TimerError) as refused:
                while time.monotonic() - started < 15:
                    signal_ = timer.wait(0.25)
                    if signal_ is not None:
                        said.append(signal_.incident)
            assert box.port in str(refused.value) and "no box has answered" in str(refused.value)
            assert Incident.DISCONNECTED in said  # the runner says it (and records it) while it waits
            assert time.monotonic() - started < 10
        finally:
            os.kill(box._process.pid, signal.SIGCONT)
            timer.close()


def test_the_runner_says_at_the_table_when_the_box_link_goes_and_comes_back():
    from controller.table import TableRunner
    from controller.adapters.timer import Incident, SignalKind, TimerSignal

    said, recorded = [], []

    class Display:
        def say(self, text):
            said.append(text)

    class Timer:
        port = "/dev/ttyACM7"

    runner = TableRunner.__new__(TableRunner)
    runner.devices = type("Devices", (), {"display": Display(), "timer": Timer()})()
    runner.record = recorded.append
    runner.record_incident(TimerSignal(SignalKind.INCIDENT, detail="no frame from the box for 3.0 s",
                                       incident=Incident.DISCONNECTED))
    runner.record_incident(TimerSignal(SignalKind.INCIDENT, detail="the box came back",
                                       incident=Incident.RECONNECTED))
    assert len(recorded) == 2
    # in words, never the incident's name ("disconnected")
    assert said[0].startswith("timer box on /dev/ttyACM7: the link is gone; the time is kept: no frame") \
        and "waiting" in said[0]
    assert said[1].startswith("timer box on /dev/ttyACM7: the link is back")


# --------------------------------------------------------------------------- resume gaps


def test_turn_seconds_over_the_box_maximum_are_refused_before_anything_is_saved(tmp_path, capsys):
    db = tmp_path / "g.sqlite"
    code = None
    try:
        code = cli.main(["play", "--camera", str(tmp_path), "--timer", "emulator", "--players", "Ann,Ben",
                         "--db", str(db), "--turn-seconds", "100000"])
    except SystemExit as exit_:
        code = exit_.code
    assert code == 2 and "100000" in one_line(capsys.readouterr().err)
    assert not db.exists()


def test_a_club_rule_file_with_more_seconds_than_the_box_takes_is_refused(tmp_path, capsys):
    rules = tmp_path / "club.toml"
    rules.write_text('name = "slow club"\nseconds_per_turn = 100000\n')
    db = tmp_path / "g.sqlite"
    code = cli.main(["play", "--camera", str(tmp_path), "--timer", "emulator", "--players", "Ann,Ben",
                     "--db", str(db), "--rules", str(rules)])
    line = one_line(capsys.readouterr().err)
    assert code == 2 and "seconds_per_turn" in line and "100000" in line
    assert not db.exists()


def _events(db: Path) -> list[str]:
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return [kind for (kind,) in con.execute("SELECT kind FROM events ORDER BY seq")]
        finally:
            con.close()
    except sqlite3.Error:
        return []


def test_a_demo_killed_after_the_score_writes_its_audit_pages_when_resumed(tmp_path):
    """The kill lands after `game-scored` is recorded and before the pages are written (3 of 100
    random kills did): the resumed demo must not refuse the finished game, and writes the pages."""
    out = tmp_path / "demo"
    db = out / "demo.sqlite"
    command = [sys.executable, "-m", "controller.cli", "demo", "--out", str(out), "--quiet"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while "game-scored" not in _events(db):
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.005)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    for page in out.glob("audit-turn-*.html"):
        page.unlink()  # as if the kill came before any was written (it usually does: they follow the score)
    resumed = subprocess.run(command + ["--resume"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "already over" not in resumed.stdout + resumed.stderr
    assert len(list(out.glob("audit-turn-*.html"))) == 11
    assert "finished" in resumed.stdout


# ------------------------------------------------------------- play --timer emulator


def test_lines_typed_at_play_press_the_emulated_boxs_buttons_and_answer_the_referee():
    import io

    from controller.adapters.keys import EmulatorKeys

    pressed, out = [], io.StringIO()
    keys = EmulatorKeys(pressed.append, stdin=io.StringIO("1\nx\na\n"), out=out)
    deadline = time.monotonic() + 5
    while len(pressed) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pressed == ["1", "A"]
    assert "'x' is no button" in out.getvalue()
    assert keys.readline() == ""  # the input ended: a referee waiting is told


def test_play_with_the_emulator_says_how_to_press_its_buttons_and_takes_them(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    (frames / "0001.jpg").write_bytes((ROOT / "tests/vision/data/melds.jpg").read_bytes())
    process = subprocess.Popen([sys.executable, "-m", "controller.cli", "play", "--camera", str(frames), "--timer",
                                "emulator", "--players", "Ann,Ben", "--db", str(tmp_path / "g.sqlite")],
                               cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    lines = []
    try:
        deadline = time.monotonic() + 60
        for line in process.stdout:
            lines.append(line)
            if line.startswith("start order:") and "then press a button" in line:
                process.stdin.write("1\n")  # seat 1's button, typed in play's terminal
                process.stdin.flush()
            if "tiles seen" in line or time.monotonic() > deadline:
                break
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    text = "".join(lines)
    assert "timer: the emulated box is on /dev/" in text and "type 1 (Ann's button), 2 (Ben's) or a" in text
    assert "tiles seen" in text, text  # the press reached the box, the box told play, play looked


def test_play_says_on_the_console_what_happens_as_the_game_goes(tmp_path):
    """Whose turn with how long, how it ended, that the table is read, why it waits, the verdicts."""
    import cv2

    from controller.demo.scene import Scene, SceneLayout, SceneRenderer

    frames = tmp_path / "frames"
    frames.mkdir()
    renderer = SceneRenderer(SceneLayout(seed=5))
    opening = Scene.of([{"tiles": ["K10", "K11", "K12"], "at": [0, 0]}])
    hand = renderer.render(opening.with_hand())
    for n in range(1, 31):  # a hand held still over the table for a second first (a folder gives 30 a second)
        cv2.imwrite(str(frames / f"{n:04d}.png"), hand)
    cv2.imwrite(str(frames / "0031.png"), renderer.render(opening))
    process = subprocess.Popen([sys.executable, "-m", "controller.cli", "play", "--camera", str(frames), "--timer",
                                "emulator", "--players", "Ann,Ben", "--starter", "Ann", "--turn-seconds", "3",
                                "--db", str(tmp_path / "g.sqlite")],
                               cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    lines = []
    try:
        deadline = time.monotonic() + 90
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("deal 14 tiles"):
                process.stdin.write("a\n")  # the arbiter: dealt
                process.stdin.flush()
            if line.startswith("turn 1: Ann's turn"):
                time.sleep(0.5)  # the box counts from now: Ann presses with about 2 s left
                process.stdin.write("1\n")
                process.stdin.flush()
            if line.startswith("turn   2 Ben") or time.monotonic() > deadline:
                break
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    text = "\n".join(lines)
    said = [line for line in lines if not line.startswith(("camera:", "timer:", "game ", "    "))]

    def after(first: str, then: str) -> bool:
        found = [n for n, line in enumerate(said) if line.startswith(first)]
        return bool(found) and any(line.startswith(then) for line in said[found[0] + 1:])

    assert "turn 1: Ann's turn, 3 s" in said, text
    assert any(line.startswith("waiting: something over the table") for line in said), text
    assert any(line in ("Ann pressed with 0:01 left", "Ann pressed with 0:02 left", "Ann pressed with 0:03 left")
               for line in said), text
    assert after("Ann pressed with", "reading the table") and after("reading the table", "turn   1 Ann        legal")
    assert after("turn   1 Ann", "turn 2: Ben's turn, 3 s") and after("turn 2: Ben's turn", "time ran out for Ben")
    assert after("time ran out for Ben", "reading the table") and said[-1].startswith("turn   2 Ben"), text


def test_polling_the_box_takes_an_arbiter_press_it_has_sent():
    # the runner polls the box with a zero timeout while the eyes ask the arbiter
    from controller.adapters.timer import SerialTimer, SignalKind
    from firmware_bridge.emulator_process import EmulatorProcess

    with EmulatorProcess(clock_rate=1) as box:
        timer = SerialTimer(box.port)
        try:
            box.press("A")
            seen = []
            started = time.monotonic()
            while time.monotonic() - started < 10 and not any(s.kind == SignalKind.PRESSED for s in seen):
                polled = timer.wait(0.0)
                if polled is None:
                    time.sleep(0.02)
                else:
                    seen.append(polled)
            pressed = [s for s in seen if s.kind == SignalKind.PRESSED]
            assert pressed and pressed[0].button == "A", f"polls never took the press: {seen}"
        finally:
            timer.close()
