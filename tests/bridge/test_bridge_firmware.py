"""The C++ firmware core: built with the system g++, unit-tested, and compared with
the Python device model (the emulator's brain) byte for byte on random sessions."""
from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

import firmware_bridge
from firmware_bridge.device_model import DeviceModel
from firmware_bridge.protocol import (
    ARITY,
    BUTTONS,
    MAX_SEQ,
    ChecksumError,
    Direction,
    Frame,
    FrameError,
    Verb,
    crc16,
    format_frame,
    parse_frame,
)

FIRMWARE = Path(firmware_bridge.__file__).parent / "firmware"
SOURCES = sorted((FIRMWARE / "tileref_timer" / "src").glob("*.cpp"))
COMPILER = shutil.which("g++")
pytestmark = pytest.mark.skipif(COMPILER is None, reason="no g++ on this machine")
FLAGS = ["-std=c++11", "-Wall", "-Wextra", "-Werror", "-O1", "-g", "-fsanitize=address,undefined"]


def build(source: Path, output: Path) -> Path:
    result = subprocess.run(
        [COMPILER, *FLAGS, "-o", str(output), str(source), *map(str, SOURCES)], capture_output=True, text=True
    )
    assert result.returncode == 0, f"g++ failed on {source.name}:\n{result.stderr}"
    return output


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    return build(FIRMWARE / "tests" / "script_runner.cpp", tmp_path_factory.mktemp("fw") / "script_runner")


def test_firmware_unit_tests_pass(tmp_path):
    binary = build(FIRMWARE / "tests" / "test_firmware.cpp", tmp_path / "test_firmware")
    result = subprocess.run([str(binary)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ", 0 failures" in result.stdout


def run_script(runner: Path, lines: list[str]) -> list[str]:
    result = subprocess.run([str(runner)], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def random_frame(rng: random.Random) -> Frame:
    verb = rng.choice(list(Verb))
    arity = ARITY[verb]
    alphabet = [chr(c) for c in range(0x20, 0x7F)]
    args = tuple(
        "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))
        for _ in range(rng.randint(arity.least, min(arity.most, 5)))
    )
    return Frame(arity.direction, rng.randint(0, MAX_SEQ), verb, args)


def test_cpp_formatter_and_checksum_match_python(runner):
    rng = random.Random(4)
    frames = [random_frame(rng) for _ in range(300)]
    blobs = [bytes(rng.randrange(256) for _ in range(rng.randint(0, 40))) for _ in range(100)]
    script = [f"format {f.direction.value} {f.seq} {f.verb.value} {' '.join(a.encode().hex() for a in f.args)}".rstrip()
              for f in frames]
    script += [f"crc {blob.hex()}" for blob in blobs]
    answers = run_script(runner, script)
    for frame, answer in zip(frames, answers):
        assert bytes.fromhex(answer.removeprefix("LINE ")) == format_frame(frame)
    for blob, answer in zip(blobs, answers[len(frames):]):
        assert int(answer, 16) == crc16(blob)


def mangle(rng: random.Random, line: bytes) -> bytes:
    choice = rng.randrange(4)
    if choice == 0:
        return line[: rng.randrange(len(line))]
    if choice == 1:
        at = rng.randrange(len(line))
        return line[:at] + bytes([rng.randrange(256)]) + line[at + 1 :]
    if choice == 2:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 30)))
    return line


def test_cpp_parser_agrees_with_python_on_good_and_mangled_lines(runner):
    rng = random.Random(7)
    lines = [mangle(rng, format_frame(random_frame(rng)).rstrip(b"\n")) for _ in range(600)]
    lines = [line.replace(b"\n", b"") for line in lines]
    answers = run_script(runner, [f"parse {line.hex()}" for line in lines])
    for line, answer in zip(lines, answers):
        try:
            frame = parse_frame(line)
        except ChecksumError:
            assert answer == "CHECKSUM", line
            continue
        except FrameError:
            # The C++ framer leaves verb names and argument counts to the device.
            assert answer == "FRAME" or answer.startswith("OK"), line
            continue
        words = answer.split(" ")
        assert words[:4] == ["OK", frame.direction.value, str(frame.seq), frame.verb.value], line
        assert tuple(bytes.fromhex(w).decode() for w in words[4:]) == frame.args, line


COMMAND_MENU = [
    ("HELLO", lambda r: [r.choice(["1", "1", "2", "x"])] + r.choice([[], [f"hb={r.choice([50, 300, 1000, 7, 99999])}"], ["hx=5"], [f"ids={r.choice([0, 1, 1, 2])}"], [f"bank={r.choice([1, 1, 0, 2])}"]])),
    ("ID", lambda r: []),
    ("STATE", lambda r: []),
    ("CONF", lambda r: [r.choice(["TURN", "TURN", "DUEL", "SESSION", "NONE"]), r.choice(["1", "3", "60", "0", "99999", "x"])]),
    ("START", lambda r: [r.choice(["0", "1", "2", "3", "4", "5", "01"])]),
    ("START", lambda r: [r.choice(["1", "2"])]),
    ("PAUSE", lambda r: []),
    ("BANK", lambda r: [r.choice(["0", "1", "2", "2", "3", "x"]), r.choice(["1", "999", "42000", "0", "86400001"])]),
    ("BANK", lambda r: [r.choice(["0", "1", "2"]), r.choice(["1500", "42000"])]),
    ("RESUME", lambda r: []),
    ("STOP", lambda r: []),
    ("WARN", lambda r: [r.choice(["0", "1", "2", "10", "x"])]),
    ("BEEP", lambda r: [r.choice(["1", "200", "5001"])]),
    ("SHOW", lambda r: r.choice([[], ["Table 4"], ["x" * 17], ["100% *ok*"]])),
]


def random_session(seed: int, steps: int = 400) -> list[tuple[str, int, str]]:
    """(op, time, data) steps: commands, retries, noise, cut lines, presses, polls."""
    rng = random.Random(seed)
    now, seq, last_line, ops = 0, 0, b"", []
    for _ in range(steps):
        now += rng.choice([0, 0, 1, 7, 250, 999, 1000, 1500])
        kind = rng.random()
        if kind < 0.45:
            verb, make_args = rng.choice(COMMAND_MENU)
            seq = (seq + 1) & MAX_SEQ
            last_line = format_frame(Frame(Direction.COMMAND, seq, Verb(verb), tuple(make_args(rng))))
            ops.append(("feed", now, last_line.hex()))
        elif kind < 0.52 and last_line:
            ops.append(("feed", now, last_line.hex()))  # a retry
        elif kind < 0.60 and last_line:
            cut = rng.randrange(1, len(last_line))
            ops += [("feed", now, last_line[:cut].hex()), ("feed", now, last_line[cut:].hex())]
        elif kind < 0.66:
            ops.append(("feed", now, (mangle(rng, last_line or b"x") + b"\n").hex()))
        elif kind < 0.68:
            ops.append(("feed", now, (b"y" * rng.randint(150, 400) + b"\n").hex()))
        elif kind < 0.85:
            ops.append(("press", now, rng.choice(BUTTONS + ("x",))))
        else:
            ops.append(("poll", now, ""))
    return ops


@pytest.mark.parametrize("seed", range(6), ids=lambda s: f"session-{s}")
def test_cpp_device_and_python_model_answer_the_same_session_byte_for_byte(runner, seed):
    session = random_session(seed)
    answers = run_script(runner, ["boot 0 power c0ffee01"] + [f"{op} {t} {data}".rstrip() for op, t, data in session])
    blocks, current = [], []
    for answer in answers:
        if answer == "END":
            blocks.append(current)
            current = []
        else:
            current.append(bytes.fromhex(answer.removeprefix("OUT ")))
    model = DeviceModel("c0ffee01", 0)
    expected = [model.boot_lines()]
    for op, now, data in session:
        if op == "feed":
            expected.append(model.feed(bytes.fromhex(data), now))
        elif op == "press":
            expected.append(model.press(data, now))
        else:
            expected.append(model.poll(now))
    assert len(blocks) == len(expected)
    for step, (ours, theirs) in enumerate(zip(expected, blocks)):
        assert theirs == ours, f"step {step} {session[step - 1] if step else 'boot'}"
    assert sum(len(block) for block in expected) > len(session) // 2  # the session did things


def test_the_arduino_sketch_compiles_against_the_core():
    """Syntax and types only: a stub of the Arduino API stands in for the board's headers."""
    stub = FIRMWARE / "tests" / "arduino_stub"
    sketch = FIRMWARE / "tileref_timer" / "tileref_timer.ino"
    result = subprocess.run(
        [COMPILER, "-std=c++11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-I", str(stub),
         "-include", "Arduino.h", "-x", "c++", str(sketch)],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr
