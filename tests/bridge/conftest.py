"""Fixtures: the emulated box as a separate process, and a driver on its pty."""
from __future__ import annotations

import pytest

from firmware_bridge.driver import TimerDriver
from firmware_bridge.emulator_process import EmulatorProcess

from bridge_helpers import FAST


@pytest.fixture
def box():
    with EmulatorProcess(clock_rate=FAST) as process:
        yield process


@pytest.fixture
def timer(box):
    driver = TimerDriver(box.port, heartbeat_ms=100, ack_timeout=0.2, reconnect_interval=0.05)
    with driver:
        yield driver
