"""`tileref timer check` and `tileref timer-emulator` as a user runs them."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from firmware_bridge.driver import TimerDriver
from firmware_bridge.events import ButtonPressed
from firmware_bridge.emulator_process import EmulatorProcess


def tileref(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True, timeout=timeout
    )


def test_check_passes_against_the_emulator_and_prints_the_promised_json():
    with EmulatorProcess(clock_rate=4) as box:
        result = tileref("timer", "check", "--port", box.port, "--json", "--samples", "20")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert set(report) == {"ok", "steps", "latency_ms"}
    assert report["ok"] is True
    names = [step["name"] for step in report["steps"]]
    assert names[0] == "handshake" and {"expiry", "pause", "garbled-line", "refuse-bad-seat"} <= set(names)
    assert all(set(step) == {"name", "ok", "detail"} and step["ok"] for step in report["steps"])
    assert 0 < report["latency_ms"]["p50"] <= report["latency_ms"]["p99"]


def test_check_reports_failure_when_the_box_dies_halfway():
    with EmulatorProcess(clock_rate=1) as box:
        process = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "timer", "check", "--port", box.port, "--json", "--seconds", "6"],
            stdout=subprocess.PIPE,
            text=True,
        )
        # Let the command start and shake hands, then pull the plug during the 6-second expiry wait.
        time.sleep(3.0)
        box.kill()
        output, _ = process.communicate(timeout=30)
    report = json.loads(output)
    assert process.returncode == 1 and report["ok"] is False
    assert report["steps"][0] == {"name": "handshake", "ok": True, "detail": report["steps"][0]["detail"]}
    assert any(not step["ok"] for step in report["steps"])


def test_check_on_a_missing_port_is_bad_input_without_a_traceback(tmp_path):
    result = tileref("timer", "check", "--port", str(tmp_path / "nothing"), "--json")
    assert result.returncode == 2
    assert result.stderr.startswith("tileref timer: cannot open timer port")
    assert "Traceback" not in result.stderr


def test_emulator_command_prints_its_port_and_serves_it(tmp_path):
    link = tmp_path / "timer"
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "timer-emulator", "--control", "stdin", "--link", str(link)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        port_line = process.stdout.readline()
        assert port_line.startswith("PORT /dev/pts/")
        assert process.stdout.readline() == f"LINK {link}\n"
        assert os.path.realpath(link) == port_line.split()[1]
        with TimerDriver(str(link)) as timer:
            assert timer.identify().model == "tileref-emu"
    finally:
        process.communicate("quit\n", timeout=10)
    assert process.returncode == 0
    assert not link.exists()  # a clean exit takes its link away


def test_emulator_rejects_a_bad_clock_rate():
    result = tileref("timer-emulator", "--clock-rate", "0")
    assert result.returncode == 2 and "--clock-rate 0.0 is outside" in result.stderr


def test_emulator_in_a_terminal_draws_the_countdown_and_takes_keys_as_buttons():
    import pty
    import select

    pid, terminal = pty.fork()
    if pid == 0:  # the child: `tileref timer-emulator` on a terminal of its own
        os.execvp(sys.executable, [sys.executable, "-m", "controller.cli", "timer-emulator", "--clock-rate", "10"])
    screen = b""

    def read_until(marker: bytes, timeout: float = 15.0) -> None:
        nonlocal screen
        deadline = time.monotonic() + timeout
        while marker not in screen and time.monotonic() < deadline:
            if select.select([terminal], [], [], 0.05)[0]:
                try:
                    screen += os.read(terminal, 4096)
                except OSError:
                    return

    try:
        read_until(b"IDLE")
        port = screen.split(b"PORT ")[1].split()[0].decode()
        with TimerDriver(port) as timer:
            timer.configure("TURN", 60)
            timer.start(seat=2)
            timer.show("Seat 2")
            read_until(b"0:58")
            os.write(terminal, b"2")  # the key for seat 2's button
            read_until(b"HELD")
            while (event := timer.next_event(0.5)) is not None and not isinstance(event, ButtonPressed):
                pass
            assert isinstance(event, ButtonPressed) and event.button == "2"
        os.write(terminal, b"q")
        _, status = os.waitpid(pid, 0)
        pid = 0
    finally:
        if pid:  # the test failed halfway: do not leave the emulator running
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(terminal)
    text = screen.decode("ascii", "replace")
    assert "TURN    seat 2    0:59  RUN    'Seat 2'" in text and "HELD" in text
    assert os.waitstatus_to_exitcode(status) == 0
