"""Shared by every test: table keys are made in a temporary folder, never in the real home."""
from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _table_keys_outside_home(tmp_path_factory):
    # `tileref play`/`demo` sign with a per-user key made on first use; tests (and the processes
    # they start, which inherit the environment) must make theirs somewhere that goes away
    os.environ["TILEREF_KEY_DIR"] = str(tmp_path_factory.mktemp("table-keys"))
    from controller.records.signing import default_key_path, new_key_pair

    # made here, once: which test would otherwise make it (and print so) depends on the order they run in
    new_key_pair(default_key_path())
    yield
