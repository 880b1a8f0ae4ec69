"""A throwaway PostgreSQL server in a temporary folder, for the tests and the club benchmark.

It runs Debian's `postgresql` binaries (found under /usr/lib/postgresql/*/bin, whatever the
version) on a free loopback port, with its data folder and unix socket in a temporary folder. As
root (CI), `initdb` and `postgres` refuse to run, so they run as the `postgres` system user
(`runuser -u postgres`) and the folder is handed to that user. `stop()` and `kill()` stop the
server; `start()` brings the same data folder back (the benchmark kills it mid-run).
"""
from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path


class LocalServerError(RuntimeError):
    """The throwaway server could not be set up or started."""


def postgres_bin_dir() -> Path | None:
    """The newest installed PostgreSQL's bin folder, or None when none is installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: [int(x) if x.isdigit() else 0 for x in Path(p).parent.parent.name.split(".")])
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalPostgres:
    def __init__(self, base: str | Path | None = None, *, user: str = "tileref", database: str = "tileref") -> None:
        self.bin = postgres_bin_dir()
        if self.bin is None:
            raise LocalServerError("no PostgreSQL binaries (install Debian's `postgresql` package)")
        self.as_root = os.geteuid() == 0
        # as root the server runs as `postgres`, which must reach the folder: pytest's and many other
        # temporary folders are private (0700), so it gets a folder of its own under the system's tmp
        self.base = Path(tempfile.mkdtemp(prefix="tileref-pg-")) if base is None or self.as_root else Path(base)
        self.data = self.base / "data"
        self.log = self.base / "server.log"
        self.port = _free_port()
        self.user = user
        self.database = database
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{self.database}"

    def _run_as(self, args: list[str], **kwargs) -> list[str]:
        return (["runuser", "-u", "postgres", "--"] + args) if self.as_root else args

    def init(self) -> "LocalPostgres":
        self.base.mkdir(parents=True, exist_ok=True)
        os.chmod(self.base, 0o755)
        if self.as_root:
            shutil.chown(self.base, "postgres", "postgres")
        result = subprocess.run(
            self._run_as([str(self.bin / "initdb"), "-D", str(self.data), "-U", self.user, "--auth=trust",
                          "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]),
            capture_output=True, text=True)
        if result.returncode != 0:
            raise LocalServerError(f"initdb failed: {result.stderr.strip() or result.stdout.strip()}")
        return self

    def start(self, timeout: float = 30.0) -> "LocalPostgres":
        """Start the server (the data folder made first if missing) and wait until it takes connections."""
        if not (self.data / "PG_VERSION").exists():
            self.init()
        args = [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port),
                "-h", "127.0.0.1", "-k", str(self.base), "-c", "fsync=off", "-c", "full_page_writes=off",
                "-c", "max_connections=100", "-c", "shared_buffers=32MB"]
        log = open(self.log, "ab")
        self.process = subprocess.Popen(self._run_as(args), stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise LocalServerError(f"postgres exited with {self.process.returncode}: {self._log_tail()}")
            if self._accepts():
                if not self._database_exists():
                    self._create_database()
                return self
            time.sleep(0.1)
        self.kill()
        raise LocalServerError(f"postgres did not start within {timeout} s: {self._log_tail()}")

    def _accepts(self) -> bool:
        import psycopg

        try:
            psycopg.connect(f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres", connect_timeout=2).close()
            return True
        except psycopg.OperationalError:
            return False

    def _database_exists(self) -> bool:
        import psycopg

        with psycopg.connect(f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres", autocommit=True) as c:
            return c.execute("SELECT 1 FROM pg_database WHERE datname=%s", (self.database,)).fetchone() is not None

    def _create_database(self) -> None:
        import psycopg

        with psycopg.connect(f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres", autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{self.database}"')

    def create_database(self, name: str) -> str:
        """A fresh, empty database on this server; its URL."""
        import psycopg

        with psycopg.connect(f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres", autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{name}"

    def _log_tail(self) -> str:
        try:
            return " | ".join(self.log.read_text(errors="replace").strip().splitlines()[-5:])
        except OSError:
            return "(no log)"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def _signal(self, sig: int, wait: float) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, sig)  # runuser and postgres: the session started for it
            except ProcessLookupError:
                pass
            try:
                self.process.wait(wait)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        """A fast shutdown (SIGINT): open sessions are cut, the data is kept."""
        self._signal(signal.SIGINT, 30)
        self._wait_gone()

    def kill(self) -> None:
        """A crash (SIGKILL of every server process): what was committed survives."""
        self._signal(signal.SIGKILL, 10)
        # the postmaster's children die with it when it is killed; wait for the pid file to be stale
        self._wait_gone()
        for stale in (self.data / "postmaster.pid", self.base / f".s.PGSQL.{self.port}.lock",
                      self.base / f".s.PGSQL.{self.port}"):
            if stale.exists():
                stale.unlink()

    def _wait_gone(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._accepts_quietly():
            time.sleep(0.05)

    def _accepts_quietly(self) -> bool:
        with socket.socket() as s:
            s.settimeout(0.2)
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self) -> "LocalPostgres":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.cleanup()
