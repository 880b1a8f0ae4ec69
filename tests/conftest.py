"""Shared by every test: table keys are made in a temporary folder, never in the real home."""
from __future__ import annotations

import os
import signal

import pytest

# A test run started in the background of a non-interactive shell (`... &`, as a CI script may)
# inherits SIGINT ignored, and so would every `tileref play` the tests start: Python then never
# turns SIGINT into KeyboardInterrupt and the tests that stop a game with SIGINT wait for ever.
# The processes the tests start must stop on SIGINT as they do for a club; a handler (unlike an
# ignored signal) is not inherited across exec, so theirs is the default again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True, scope="session")
def _table_keys_outside_home(tmp_path_factory):
    # `tileref play`/`demo` sign with a per-user key made on first use; tests (and the processes
    # they start, which inherit the environment) must make theirs somewhere that goes away
    os.environ["TILEREF_KEY_DIR"] = str(tmp_path_factory.mktemp("table-keys"))
    # the logs of bugs (controller.cli: exit 1 naming the log) likewise stay out of the real home
    os.environ.setdefault("TILEREF_LOG_DIR", str(tmp_path_factory.mktemp("crash-logs")))
    from controller.records.signing import default_key_path, new_key_pair

    # made here, once: which test would otherwise make it (and print so) depends on the order they run in
    new_key_pair(default_key_path())
    yield


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory):
    """A real PostgreSQL server for the session (Debian's `postgresql`, run as the `postgres` user
    when we are root), in a temporary folder on a free loopback port; stopped at the end. Tests
    that need it skip only when no PostgreSQL binaries are installed (CI installs them)."""
    from tests.pg_local import LocalPostgres, postgres_bin_dir

    if postgres_bin_dir() is None:
        pytest.skip("no PostgreSQL binaries (Debian's postgresql package)")
    base = tmp_path_factory.mktemp("postgres")
    server = LocalPostgres(base).start()
    yield server
    server.cleanup()


@pytest.fixture
def postgres_url(postgres_server, request):
    """A fresh, empty database on the session's server, for one test."""
    import re

    name = "t_" + re.sub(r"[^a-z0-9]+", "_", request.node.name.lower())[:50] + f"_{os.getpid()}_{id(request)}"
    return postgres_server.create_database(name[:63])
