"""The referee page in a real Chromium, fed from the recorded demo game: what its play-area panel
says agrees with what it draws, and (at 1920x1080) its common states fit the screen without
scrolling. Every state is saved as a screenshot under $TILEREF_TEST_ARTIFACTS/screenshots/."""
from __future__ import annotations

import pytest
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
        browser.find_element(By.CSS_SELECTOR, "#area-editor > summary").click()  # the play area, folded
        assert browser.find_element(By.ID, "area-data").text == words.text("area.whole")
        drawn = wait_until(lambda: (lambda d: d["points"] and d)(browser.execute_script(DRAWN_AREA)), 10,
                           what="the area drawn on the frame")
        screenshot(browser, "referee-area-whole-1920x1080")
    width, height = frame["width"], frame["height"]
    assert drawn["how"] == "whole" and drawn["viewBox"] == f"0 0 {width} {height}"
    xs, ys = [x for x, _ in drawn["points"]], [y for _, y in drawn["points"]]
    assert (min(xs), min(ys), max(xs), max(ys)) == (0, 0, width, height), drawn["points"]


# ------------------------------------------------------------ the page fits a 1080p screen

WIDTH, HEIGHT = 1920, 1080
# what the referee must see without scrolling in each common state: what is asked, the photos it is
# about and every control of the forms that answer it
MUST_SEE = {
    "doubt": ("#now", "#frame svg", "#form-correct-table", "#form-correct-table button:not(.chip)", "#token"),
    "held-penalty": ("#now", "#held-penalty", "#held-before svg", "#held-now svg",
                     "#form-confirm-penalty button", "#form-tiles-there button", "#token"),
    "restore": ("#now", "#penalty-notice", "#restore-photo svg", "#restore-plan",
                "#form-accept-restore button", "#form-override button", "#token"),
}
SEEN = """
var out = {scrollHeight: document.scrollingElement.scrollHeight, scrollWidth: document.scrollingElement.scrollWidth,
           problems: []};
arguments[0].forEach(function (css) {
  var found = document.querySelectorAll(css);
  if (!found.length) { out.problems.push(css + ': missing'); }
  found.forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
      out.problems.push(css + ' at ' + JSON.stringify([Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]));
    }
  });
});
return out;
"""


def _at_the_read_of_turn(demo_db, turn: int, lang: str) -> tuple[DisplayStates, object]:
    from controller.game.events import TableRead, TurnEnded

    states = DisplayStates(demo_db, lang=lang)
    states.until(lambda e, m: isinstance(e, TurnEnded) and e.turn == turn)
    read = states.events[states.done]
    assert isinstance(read, TableRead), read
    return states, read


def _show(states: DisplayStates, event) -> None:
    from controller.game.machine import apply

    states.model = apply(states.model, event)
    states.display.observe(states.model, event)


def a_doubt(demo_db, lang: str) -> DisplayStates:
    """Turn 7 of the demo read with one tile the reader could not settle (B10 or B8)."""
    import dataclasses

    from controller.game.events import Doubt
    from controller.game.machine import State

    states, read = _at_the_read_of_turn(demo_db, 7, lang)
    _show(states, dataclasses.replace(read, doubts=(Doubt(4, ("B10", "B8"), "B10 or B8"),)))
    assert states.model.state is State.REFEREE_CHECK
    return states


def a_held_penalty(demo_db, lang: str) -> DisplayStates:
    """Turn 7 of the demo read without the table's first set: a penalty resting on tiles seen nowhere."""
    import dataclasses

    from controller.game import judging
    from controller.game.machine import State

    states, read = _at_the_read_of_turn(demo_db, 7, lang)
    kept = [i for i in range(len(read.tiles)) if i not in read.sets[0]]
    moved = {old: new for new, old in enumerate(kept)}
    _show(states, dataclasses.replace(read, tiles=tuple(read.tiles[i] for i in kept),
                                      sets=tuple(tuple(moved[i] for i in s) for s in read.sets[1:])))
    held = judging.held_penalty(states.model, judging.judge(states.model, states.model.pending))
    assert held is not None
    _show(states, held)
    assert states.model.state is State.PENALTY_HELD
    return states


def a_restore(demo_db, lang: str) -> DisplayStates:
    states = DisplayStates(demo_db, lang=lang)
    for state, _model in states.moments():
        if state == "penalty":
            return states
    raise AssertionError("the demo game has no penalty")


@pytest.mark.parametrize("lang", ["en", "pl"])  # Polish: the longest words of the catalogues
def test_the_referee_page_fits_1080p_in_its_common_states(lang, demo_db, browser):
    """A doubt, a held penalty and a restore: the whole page on one 1920x1080 screen (it was about
    2,100 px tall), with what is asked, its photos and every control of its answers in view."""
    for name, make in (("doubt", a_doubt), ("held-penalty", a_held_penalty), ("restore", a_restore)):
        states = make(demo_db, lang)
        with serving(states) as url:
            viewport(browser, WIDTH, HEIGHT)
            open_page(browser, f"{url}/referee", states.live.seq)
            browser.find_element(By.ID, "token").send_keys("typed")  # the page as the referee uses it
            seen = browser.execute_script(SEEN, list(MUST_SEE[name]))
            vanished = [c.get_attribute("title") for c in browser.find_elements(By.CSS_SELECTOR, "#held-vanished .chip")]
            screenshot(browser, f"referee-fit-{name}-{lang}-{WIDTH}x{HEIGHT}")
        assert seen["scrollHeight"] <= HEIGHT, f"{name} ({lang}): the referee page scrolls ({seen['scrollHeight']} px tall)"
        assert seen["scrollWidth"] <= WIDTH, f"{name}: the referee page scrolls sideways ({seen['scrollWidth']} px)"
        assert not seen["problems"], f"{name}: not in view: {seen['problems']}"
        if name == "held-penalty":  # the tiles seen nowhere drawn as tiles, never as a list of codes
            held = states.live.snapshot()["held"]["vanished"]
            assert held and vanished == list(held), (vanished, held)
