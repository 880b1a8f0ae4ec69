"""One spelling across commands: `--web HOST:PORT` everywhere (`club serve` too), `--signing-key FILE` for the
key a table signs with and `--public-key PUB` for a trusted public key; the old spellings (`--key`,
`club serve --host/--port`) still work, with a one-line warning. `club serve` on a busy port is bad
input (exit 2, one line) before it prints an address (it used to print its URL, then a uvicorn ERROR, and
exit 3, the tampering code)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from controller import cli
from controller.records.signing import default_key_path

ROOT = Path(__file__).resolve().parents[2]


def parse(argv):
    parser, _ = cli.build_parser()
    return parser.parse_args(argv)


@pytest.mark.parametrize("argv", [
    ["play", "--camera", "c", "--timer", "emulator", "--db", "x.sqlite"],
    ["demo"], ["correct", "--db", "x", "--rack", "A", "--tiles", "R1"], ["clock", "shogi", "--timer", "x"],
], ids=lambda argv: argv[0])
def test_the_signing_key_has_its_own_name_and_the_old_one_warns(argv, capsys):
    assert parse([*argv, "--signing-key", "table.key"]).key == "table.key"
    assert capsys.readouterr().err == ""
    assert parse([*argv, "--key", "table.key"]).key == "table.key"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--key is the old spelling here: use --signing-key FILE" in err


@pytest.mark.parametrize("argv", [
    ["audit", "--db", "x"], ["replay", "--db", "x"], ["verify", "--db", "x"], ["export", "--db", "x"],
    ["serve", "--db", "x"], ["highlights", "--db", "x", "--out", "d"], ["import", "f.json", "--db", "x"],
], ids=lambda argv: argv[0])
def test_a_trusted_public_key_has_its_own_name_and_the_old_one_warns(argv, capsys):
    assert parse([*argv, "--public-key", "table.pub"]).key == "table.pub"
    assert capsys.readouterr().err == ""
    assert parse([*argv, "--key", "table.pub"]).key == "table.pub"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--key is the old spelling here: use --public-key PUB" in err


def test_club_serve_takes_web_like_every_other_server_and_the_old_host_port_warn(capsys):
    assert parse(["club", "serve", "--db", "x"]).web == "127.0.0.1:8700"
    assert parse(["club", "serve", "--db", "x", "--web", ":0"]).web == ":0"
    args = parse(["club", "serve", "--db", "x", "--host", "0.0.0.0", "--port", "9000"])
    assert (args.host, args.port) == ("0.0.0.0", "9000")
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and err.count("use --web HOST:PORT") == 2


@pytest.mark.parametrize("old", [False, True], ids=["web", "old-host-port"])
def test_club_serve_on_a_busy_port_exits_2_on_one_line_before_it_prints_an_address(tmp_path, old):
    db = tmp_path / "club.sqlite"
    assert cli.main(["key", "trust", str(default_key_path()) + ".pub", "--name", "t", "--db", str(db)]) == 0
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    where = ["--host", "127.0.0.1", "--port", str(port)] if old else ["--web", f"127.0.0.1:{port}"]
    env = {**os.environ, "TILEREF_LOG_DIR": str(tmp_path / "logs"), "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run([sys.executable, "-m", "controller.cli", "club", "serve", "--db", str(db), *where],
                              env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    finally:
        busy.close()
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and "ERROR" not in done.stderr
    lines = done.stderr.strip().split("\n")
    assert lines[-1].startswith("tileref club:") and str(port) in lines[-1]
    assert len(lines) == (3 if old else 1)  # the old spellings' warnings (--host, --port), then the error
