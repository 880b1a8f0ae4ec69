"""Fixtures of the web tests: Chromium (skipped only when it is not installed; CI installs it)."""
from __future__ import annotations

import contextlib
import io

import pytest

from web_helpers import chromium, close_chromium, have_chromium


@pytest.fixture
def browser():
    if not have_chromium():
        pytest.skip("Debian's chromium and chromium-driver are not installed (.ci/run installs them)")
    driver = chromium()
    try:
        yield driver
    finally:
        close_chromium(driver)


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory):
    """The bundled demo game played once (the table display's and the broadcast pages' browser tests)."""
    from controller.cli import main

    out = tmp_path_factory.mktemp("demo")
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["demo", "--quiet", "--out", str(out)]) == 0
    return out / "demo.sqlite"
