"""The referee page in a real Chromium, fed from the recorded demo game: what its play-area panel
says agrees with what it draws, and (at 1920x1080) its common states fit the screen without
scrolling. Every state is saved as a screenshot under $TILEREF_TEST_ARTIFACTS/screenshots/."""
from __future__ import annotations

from selenium.webdriver.common.by import By

from controller.messages import catalogue

from display_states import DisplayStates
from test_browser_display import open_page, serving, viewport
from web_helpers import screenshot, wait_until

DRAWN_AREA = """
var quad = document.getElementById('area-quad'), svg = document.getElementById('area-svg');
var points = (quad.getAttribute('points') || '').trim().split(/\\s+/).filter(Boolean).map(function (p) {
  return p.split(',').map(Number); });
return {points: points, viewBox: svg.getAttribute('viewBox'), how: document.getElementById('area-data').dataset.how};
"""


def test_nothing_left_out_is_drawn_as_the_whole_frame(demo_db, browser):
    """"Nothing left out: the whole frame is read" beside an area drawn 5% inside the frame (through
    the leftmost column of tiles) said one thing and showed another: the whole frame is drawn."""
    states = DisplayStates(demo_db)
    words = catalogue("en")
    with serving(states) as url:
        for state, _model in states.moments():
            if state == "verdict":
                break
        frame = states.live.snapshot()["frame"]
        assert frame["area"] is None and states.live.snapshot().get("area") is None  # nothing marked or found
        viewport(browser, 1920, 1080)
        open_page(browser, f"{url}/referee", states.live.seq)
        assert browser.find_element(By.ID, "area-data").text == words.text("area.whole")
        drawn = wait_until(lambda: (lambda d: d["points"] and d)(browser.execute_script(DRAWN_AREA)), 10,
                           what="the area drawn on the frame")
        screenshot(browser, "referee-area-whole-1920x1080")
    width, height = frame["width"], frame["height"]
    assert drawn["how"] == "whole" and drawn["viewBox"] == f"0 0 {width} {height}"
    xs, ys = [x for x, _ in drawn["points"]], [y for _, y in drawn["points"]]
    assert (min(xs), min(ys), max(xs), max(ys)) == (0, 0, width, height), drawn["points"]
