"""The stream overlay and the spectator feed in a real Chromium at 1920x1080 (one browser for the module).

The overlay: the bundled demo game is fed into the live table state by state (display_states.py)
while the browser shows /overlay/table as a streaming program would: its background is transparent,
nothing scrolls, the countdown is big, and a turn later the page shows the next turn, its player and
the table's tiles. The spectator feed: the demo game's record is served with a 30-second delay and
a clock the test sets; at each moment the feed shows exactly the record's events at least 30 s old
by their stamps, none younger (watched by every change the page goes through), after a reload too.
"""
from __future__ import annotations

import httpx
import pytest
from selenium.webdriver.common.by import By

from controller.game.events import TurnStarted
from controller.records import Records
from controller.web.app import create_app
from controller.web.broadcast import STAMP_RESOLUTION_S, stamp_epoch
from controller.web.server import WebServer, parse_address

from display_states import DisplayStates
from web_helpers import chromium, close_chromium, have_chromium, screenshot, wait_until

WIDTH, HEIGHT = 1920, 1080
DELAY = 30
TRANSPARENT = "rgba(0, 0, 0, 0)"


class SetClock:
    """The server's present, set by the test."""

    def __init__(self, now: float) -> None:
        self.at = now

    def now(self) -> float:
        return self.at


@pytest.fixture(scope="module")
def browser():
    if not have_chromium():
        pytest.skip("Debian's chromium and chromium-driver are not installed (.ci/run installs them)")
    driver = chromium(WIDTH, HEIGHT)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
    try:
        yield driver
    finally:
        close_chromium(driver)


def served(app):
    return WebServer(app, parse_address("127.0.0.1:0")).start()


def board(driver) -> dict:
    return driver.execute_script("""
        var b = document.getElementById('bc-board');
        return b ? {turn: b.dataset.turn, seq: b.dataset.shownSeq, asOf: b.dataset.asOf, text: b.innerText,
                    chips: b.querySelectorAll('#bc-table .chip').length} : null;""")


LOOKS = """
var c = document.getElementById('bc-countdown');
return {html: getComputedStyle(document.documentElement).backgroundColor, body: getComputedStyle(document.body).backgroundColor,
        width: innerWidth, height: innerHeight, scrollHeight: document.scrollingElement.scrollHeight,
        scrollWidth: document.scrollingElement.scrollWidth,
        countdown: c ? parseFloat(getComputedStyle(c).fontSize) : 0,
        countdownBox: c ? c.getBoundingClientRect().bottom : 0};
"""


def test_the_overlay_is_transparent_at_1920x1080_and_follows_the_demo_game_live(demo_db, browser):
    states = DisplayStates(demo_db)
    states.until(lambda event, model: isinstance(event, TurnStarted))
    server = served(create_app(demo_db, states.live))
    try:
        browser.get(f"{server.url}/overlay/table")
        wait_until(lambda: browser.find_element(By.ID, "connection").get_attribute("data-state") == "live", 10,
                   what="the overlay's WebSocket")
        looks = browser.execute_script(LOOKS)
        assert (looks["width"], looks["height"]) == (WIDTH, HEIGHT)
        assert looks["html"] == TRANSPARENT and looks["body"] == TRANSPARENT, looks
        assert looks["scrollHeight"] <= HEIGHT and looks["scrollWidth"] <= WIDTH, looks
        assert looks["countdown"] >= 100 and 0 < looks["countdownBox"] <= HEIGHT, looks  # readable on a stream
        first = states.model.player
        shown = board(browser)
        assert shown["turn"] == "1" and f"{first} to play" in shown["text"]
        screenshot(browser, "overlay-turn-1")

        states.until(lambda event, model: isinstance(event, TurnStarted))  # a turn later
        second, tiles = states.model.player, states.model.table.tile_count
        assert second != first
        wait_until(lambda: (b := board(browser)) and b["turn"] == "2" and f"{second} to play" in b["text"]
                   and b["chips"] == tiles, 10, what="the overlay to show turn 2")
        for name, count in zip(states.model.players, states.model.racks):
            assert browser.find_element(By.CSS_SELECTOR, f'#bc-board .bc-player[data-rack="{count}"] .name').text
        assert browser.execute_script(LOOKS)["body"] == TRANSPARENT
        screenshot(browser, "overlay-turn-2")
    finally:
        server.stop()


WATCH_CHANGES = """
window.seenSeqs = [];
new MutationObserver(function () {
  var b = document.getElementById('bc-board');
  if (b) { window.seenSeqs.push(parseInt(b.dataset.shownSeq, 10)); }
}).observe(document.getElementById('broadcast'), {childList: true, subtree: true});
"""


def test_the_spectator_feed_30s_behind_never_shows_a_younger_state_across_a_reload(demo_db, browser):
    with Records(demo_db, create=False, read_only=True) as records:
        recorded = records.recorded(records.latest_game())
    times = [stamp_epoch(r.recorded_at) for r in recorded]
    stamps = sorted(set(times))

    def old_enough(now: float) -> int:
        """The last event the record holds at least DELAY seconds old at `now` (its stamp's whole second)."""
        return max((r.seq for r, t in zip(recorded, times) if t + STAMP_RESOLUTION_S <= now - DELAY), default=0)

    # the moments: before anything is old enough, then at three of the record's stamps, then after the end
    moments = [stamps[0] + DELAY] + [stamps[k] + DELAY + 1 for k in (len(stamps) // 3, 2 * len(stamps) // 3)] \
        + [stamps[-1] + DELAY + 1]
    clock = SetClock(moments[0])
    server = served(create_app(demo_db, watch_delay=DELAY, time_source=clock))
    try:
        browser.get(f"{server.url}/watch")
        browser.execute_script(WATCH_CHANGES)
        assert board(browser)["seq"] == "0" and browser.find_element(By.ID, "bc-not-yet").is_displayed()
        for number, now in enumerate(moments):
            clock.at = now
            expected = old_enough(now)
            if number == 2:  # a reload: the first paint is already held back, and so is the new socket
                html = httpx.get(f"{server.url}/watch").text
                assert f'data-shown-seq="{expected}"' in html
                browser.refresh()
                assert board(browser)["seq"] == str(expected)
                browser.execute_script(WATCH_CHANGES)
            wait_until(lambda: board(browser)["seq"] == str(expected), 10,
                       what=f"the feed at moment {number} to show event {expected}")
            shown = board(browser)
            if expected:
                assert stamp_epoch(shown["asOf"]) + STAMP_RESOLUTION_S <= now - DELAY
                assert expected == len(recorded) or times[expected] + STAMP_RESOLUTION_S > now - DELAY
            seen = browser.execute_script("return window.seenSeqs")
            assert all(seq <= expected for seq in seen), (number, expected, seen)
        assert board(browser)["seq"] == str(len(recorded)) and not browser.find_element(By.ID, "bc-not-yet").is_displayed()
        screenshot(browser, "watch-final")
    finally:
        server.stop()
