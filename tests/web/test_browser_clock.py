"""`tileref clock --web`: the table display shows the clock of a shogi game on the emulated box (a
real pty), in a real Chromium: both sides' times, whose move, the flag fall and the result."""
from __future__ import annotations

import subprocess

import pytest
from selenium.webdriver.common.by import By

from controller.web.live import ClockBoard, LiveTable
from firmware_bridge.emulator_process import EmulatorProcess

from web_helpers import URL, Tileref, screenshot, wait_until

FAST = 20.0  # box seconds per real second


@pytest.fixture
def box():
    with EmulatorProcess(clock_rate=FAST) as emulator:
        yield emulator


def sides(browser) -> list[dict]:
    """The sides as the display shows them now (read in one go: the region is swapped on each update)."""
    return browser.execute_script("""
        return Array.from(document.querySelectorAll('#clock-game .side')).map(function (side) {
            return {name: side.dataset.player, ms: side.querySelector('.time').dataset.ms, text: side.textContent,
                    toMove: side.classList.contains('to-move'), flag: side.classList.contains('flag')};
        });""")


def side_times(browser) -> dict[str, str]:
    return {side["name"]: side["ms"] for side in sides(browser)}


def test_the_table_display_shows_a_shogi_clock_to_its_flag_fall(box, tmp_path, browser):
    clock = Tileref("clock", "shogi", "--timer", box.port, "--db", str(tmp_path / "t.sqlite"),
                    "--players", "Ann,Ben", "--seconds", "30", "--web", "127.0.0.1:0", stdin=subprocess.PIPE)
    try:
        url = clock.expect(URL, 30).group(1)
        clock.expect("started:", 20)
        browser.get(f"{url}/table")
        wait_until(lambda: browser.find_elements(By.ID, "clock-game"), 10, what="the clock on the display")
        assert set(side_times(browser)) == {"Ann", "Ben"}
        assert [side["name"] for side in sides(browser) if side["toMove"]] == ["Ann"]
        # Ann's bank runs down on the display, mirrored from the box's ticks
        first = side_times(browser)["Ann"]
        wait_until(lambda: side_times(browser)["Ann"] not in ("", first), 10, what="Ann's time to move")
        screenshot(browser, "clock-display-duel")
        box.press("1")  # Ann moves and hands over: Ben's bank runs out
        clock.expect("pressed:", 10)
        flagged = wait_until(lambda: [side for side in sides(browser) if side["flag"]], 20, what="the flag")
        assert flagged[0]["name"] == "Ben" and "flag fell" in flagged[0]["text"]
        assert side_times(browser)["Ben"] == "0"
        clock.expect("result:", 10)
        wait_until(lambda: browser.find_elements(By.ID, "clock-result"), 10, what="the result")
        assert "Ann" in browser.execute_script("return document.getElementById('clock-result').textContent")
        times = side_times(browser)
        assert times["Ben"] == "0" and 0 < int(times["Ann"]) < 30000  # the times at the end, not the box's setting
        screenshot(browser, "clock-display-result")
        clock.expect("display stays up", 10)
        clock.process.stdin.close()  # the director's input ends: the command ends
        assert clock.process.wait(20) == 0
    finally:
        clock.kill()


def test_a_session_clock_shows_the_time_left_of_the_session():
    live = LiveTable("clock")
    board = ClockBoard(live, "mahjong", "R1-T1-G1", "SESSION", ("A", "B", "C", "D"), "A", 600)
    board.tick(0, 125)
    board.fact("session-ended", None, (("session", 0),), "the session ran out: this hand is the last", "last-hand")
    html = live.render("clockgame")
    assert "session time left" in html and "0:00" in html and "the last hand" in html and "A · B · C · D" in html
    assert "last-hand" not in html  # the phase in words, never its internal name
