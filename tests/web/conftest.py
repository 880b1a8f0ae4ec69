"""Fixtures of the web tests: Chromium (skipped only when it is not installed; CI installs it)."""
from __future__ import annotations

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
