"""The table display as a kiosk screen, in a real Chromium at 1920x1080, 1280x720 and a portrait
tablet of 800x1280: a recorded demo game is replayed into the live display state by state (the
start draw, the deal, a running turn, a turn being read, a penalty with its restore plan, a
verdict, the final scores), and at each state and size the page must not scroll, every key
element must lie inside the screen, the countdown must be at least 15% of the screen's height,
the restore plan and the photo from before the turn must be fully visible, and no internal state
name may show. The referee page is checked at the same sizes (no sideways scrolling; only the
choices the state allows). Japanese words show with the Japanese catalogue. Every state at every
size is saved as a screenshot under $TILEREF_TEST_ARTIFACTS/screenshots/.
"""
from __future__ import annotations

import contextlib
import re

import pytest
from selenium.webdriver.common.by import By

from controller.game.machine import State
from controller.messages import catalogue
from controller.web.app import create_app
from controller.web.server import WebServer, parse_address

from display_states import DisplayStates
from web_helpers import screenshot, wait_until

SIZES = ((1920, 1080), (1280, 720), (800, 1280))
INTERNAL_NAMES = re.compile(r"\b(" + "|".join(s.value for s in State if "-" in s.value or s.value in
                                              ("seating", "dealing", "revealing", "restoring", "scoring")) + r")\b")
# the elements a player must see in each state (all inside the screen, none cut off)
KEY_ELEMENTS = {
    "seating": ("#status", "#now"),
    "deal": ("#status", "#now"),
    "turn-running": ("#status", "#now", "#countdown"),
    "reading": ("#status", "#now", "#countdown"),
    "penalty": ("#status", "#now", "#restore-photo svg", "#restore-plan", "#penalty-notice .chip"),
    "not-restored": ("#now", "#restore-photo svg", "#restore-plan", "#penalty-notice .chip", "#restore-plan .not-yet"),
    "verdict": ("#status", "#now", "#last-verdict", "#last-verdict .chip"),
    "final": ("#now", "#scores", "#scores tr"),
}
REFEREE_CHOICES = {  # the referee page's forms in each state: only what the state allows
    "turn-running": {"form-pause", "form-extend"},
    "penalty": {"form-accept-restore", "form-override"},
    "not-restored": {"form-accept-restore", "form-override"},
    "verdict": {"form-correct-table"},
    "final": {"form-correct-rack"},
    "seating": set(), "deal": set(), "reading": set(),
}


@contextlib.contextmanager
def serving(states: DisplayStates):
    server = WebServer(create_app(states.live.db, states.live), parse_address("127.0.0.1:0")).start()
    try:
        yield server.url
    finally:
        server.stop()


def viewport(driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def open_page(driver, url: str, seq: int) -> None:
    driver.get(url)
    wait_until(lambda: driver.find_element(By.ID, "connection").get_attribute("data-state") == "live", 10,
               what="the page's WebSocket")
    # the first message over the socket (every region as it is now) has been placed
    wait_until(lambda: driver.execute_script("return document.body.dataset.seq") == str(seq), 10,
               what=f"the regions of update {seq}")


LAYOUT = """
var w = innerWidth, h = innerHeight, out = {scrollHeight: document.scrollingElement.scrollHeight,
  scrollWidth: document.scrollingElement.scrollWidth, width: w, height: h, outside: [], clipped: [], boxes: {}};
arguments[0].forEach(function (css) {
  var found = document.querySelectorAll(css);
  if (!found.length) { out.outside.push(css + ': missing'); }
  found.forEach(function (el) {
    var r = el.getBoundingClientRect();
    out.boxes[css] = {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height};
    if (r.height <= 0 || r.top < -0.5 || r.left < -0.5 || r.bottom > h + 0.5 || r.right > w + 0.5) {
      out.outside.push(css + ' ' + JSON.stringify([r.left, r.top, r.right, r.bottom]));
    }
    // inside a box that hides what overflows it: it must lie within that box too
    for (var p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      var style = getComputedStyle(p);
      if (style.overflow !== 'visible' || style.overflowY !== 'visible') {
        var q = p.getBoundingClientRect();
        if (r.top < q.top - 0.5 || r.bottom > q.bottom + 0.5 || r.left < q.left - 0.5 || r.right > q.right + 0.5) {
          out.clipped.push(css + ' in ' + p.tagName + '#' + p.id + '.' + p.className);
        }
      }
    }
  });
});
out.text = document.body.innerText;
return out;
"""


def check_display(driver, state: str, width: int, height: int) -> dict:
    layout = driver.execute_script(LAYOUT, list(KEY_ELEMENTS[state]))
    where = f"{state} at {width}x{height}"
    assert (layout["width"], layout["height"]) == (width, height)
    assert layout["scrollHeight"] <= height, f"{where}: the page scrolls ({layout['scrollHeight']} px tall)"
    assert layout["scrollWidth"] <= width, f"{where}: the page scrolls sideways ({layout['scrollWidth']} px)"
    assert not layout["outside"], f"{where}: outside the screen: {layout['outside']}"
    assert not layout["clipped"], f"{where}: cut off: {layout['clipped'][:5]}"
    assert not INTERNAL_NAMES.search(layout["text"]), f"{where}: an internal state name shows: {layout['text']!r}"
    if "#countdown" in KEY_ELEMENTS[state]:
        assert layout["boxes"]["#countdown"]["height"] >= 0.15 * height, f"{where}: the countdown is too small"
    return layout


def test_every_display_state_fits_the_screen_at_three_sizes(demo_db, browser):
    states = DisplayStates(demo_db)
    words = catalogue("en")
    seen = set()
    with serving(states) as url:
        for state, model in states.moments():
            seen.add(state)
            for width, height in SIZES:
                viewport(browser, width, height)
                open_page(browser, f"{url}/table", states.live.seq)
                layout = check_display(browser, state, width, height)
                now = browser.find_element(By.ID, "now").text
                screenshot(browser, f"display-{state}-{width}x{height}")
                if state == "seating":
                    assert now == words.text("prompt.seating", players=", ".join(model.players))
                elif state == "deal":
                    assert now == "Deal 14 tiles each, then press the arbiter button"
                elif state == "turn-running":
                    assert now == f"{model.player}: lay your tiles and press"
                    assert browser.find_element(By.CSS_SELECTOR, ".player.current .name").text == model.player
                elif state == "penalty":
                    penalty = states.live.snapshot()["penalty"]
                    assert now == f"Time! {penalty['player']} draws {penalty['draw']}; restore the table as shown"
                    plan = browser.find_element(By.ID, "restore-plan")
                    chips = [c.get_attribute("title") for c in plan.find_elements(By.CSS_SELECTOR, "#to-rack .chip")]
                    assert chips == penalty["to_rack"]
                    laid = [c.get_attribute("title") for c in plan.find_elements(By.CSS_SELECTOR, "#lay-table .chip")]
                    assert laid == [code for meld in penalty["table"] for code in meld]
                    photo, plan_box = layout["boxes"]["#restore-photo svg"], layout["boxes"]["#restore-plan"]
                    if width > height:  # side by side on a wide screen, the photo stacked above on a portrait one
                        assert photo["right"] <= plan_box["left"]
                    else:
                        assert photo["bottom"] <= plan_box["top"]
                    assert photo["height"] >= 0.3 * height, "the photo from before the turn is too small"
                    chip_height = browser.execute_script(
                        "return document.querySelector('#restore-plan .chip').getBoundingClientRect().height")
                    assert chip_height >= 0.04 * min(width, height), "the restore plan's tiles are too small"
                elif state == "not-restored":
                    differences = states.events[states.done - 1].differences
                    not_yet = browser.find_element(By.CSS_SELECTOR, "#restore-plan .not-yet")
                    assert not_yet.text.startswith("Not restored yet: ")
                    # the tiles drawn as tiles, in the words of the page ("missing", "should not be there:")
                    codes = [c.get_attribute("title") for c in not_yet.find_elements(By.CSS_SELECTOR, ".chip")]
                    assert codes == [code for d in differences for code in d.split(": ", 1)[1].split()]
                    assert all(("missing" if d.startswith("missing") else "should not be there") in not_yet.text
                               for d in differences) and "not before" not in not_yet.text
                elif state == "final":
                    scores = states.live.snapshot()["scores"]
                    assert now == f"Game over: {scores['winner']} wins"
                    assert not browser.find_elements(By.ID, "countdown")  # no stale clock after the game
                    rows = browser.find_elements(By.CSS_SELECTOR, "#scores tbody tr")
                    assert [r.text.split()[0] for r in rows] == [row["name"] for row in scores["rows"]]
    assert seen == set(KEY_ELEMENTS)


def test_the_referee_page_offers_only_what_the_state_allows_at_three_sizes(demo_db, browser):
    states = DisplayStates(demo_db)
    with serving(states) as url:
        for state, model in states.moments():
            for width, height in SIZES:
                viewport(browser, width, height)
                open_page(browser, f"{url}/referee", states.live.seq)
                forms = {f.get_attribute("id") for f in browser.find_elements(By.CSS_SELECTOR, "#actions form")}
                assert forms == REFEREE_CHOICES[state], f"{state}: {forms}"
                if not forms:
                    assert browser.find_element(By.ID, "nothing-to-do").is_displayed()
                layout = browser.execute_script(LAYOUT, ["#actions", "#now"])
                assert layout["scrollWidth"] <= width, f"{state} at {width}x{height}: the page scrolls sideways"
                assert not INTERNAL_NAMES.search(layout["text"]), f"{state}: an internal state name shows"
                assert "rack:" not in layout["text"]  # tiles and racks are picked, not typed as targets
                screenshot(browser, f"referee-{state}-{width}x{height}")
                if state == "verdict":  # the table read, as tiles to tap
                    table = states.live.snapshot()["table_tiles"]
                    chips = browser.find_elements(By.CSS_SELECTOR, '#form-correct-table [data-role="table"] .chip')
                    assert [c.get_attribute("data-code") for c in chips] == [t["code"] for t in table]
                    if (width, height) == SIZES[0]:
                        pick_a_table_correction(browser, table)
                if state == "final":  # the racks laid open, as tiles
                    rack = states.live.snapshot()["open_racks"][0]
                    chips = browser.find_elements(By.CSS_SELECTOR, "#form-correct-rack .rack-tiles:not([hidden]) .chip")
                    assert [c.get_attribute("data-code") for c in chips] == rack["codes"]


def pick_a_table_correction(browser, table) -> None:
    """The referee taps a tile of the table read, then what it really is: the request names both."""
    form = browser.find_element(By.ID, "form-correct-table")
    words = catalogue("en")
    form.find_element(By.CSS_SELECTOR, '.palette .chip[data-code="K5"]').click()  # no tile of the table yet
    assert browser.find_element(By.ID, "result").text == words.text("referee.pick-first")
    wrong = table[3]
    form.find_element(By.CSS_SELECTOR, f'[data-role="table"] .chip[data-index="{wrong["index"]}"]').click()
    form.find_element(By.CSS_SELECTOR, '.palette .chip[data-code="K5"]').click()
    assert form.find_element(By.NAME, "changes").get_attribute("value") == f"{wrong['index']} K5"
    assert len(form.find_elements(By.CSS_SELECTOR, ".chip.picked")) == 2  # both shown as picked
    form.find_element(By.NAME, "reason").send_keys("a K5, not a " + wrong["code"])
    form.find_element(By.CSS_SELECTOR, "button:not(.chip)").click()
    # this page has no referee token: refused in the page's words, nothing recorded
    wait_until(lambda: browser.find_element(By.ID, "result").text == words.text("referee.unauthorised"), 10,
               what="the refusal in plain words")


def test_the_display_speaks_japanese_with_the_japanese_catalogue(demo_db, browser):
    states = DisplayStates(demo_db, lang="ja")
    words = catalogue("ja")
    with serving(states) as url:
        for state, model in states.moments():
            if state not in ("turn-running", "penalty", "final"):
                continue
            viewport(browser, 1280, 720)
            open_page(browser, f"{url}/table", states.live.seq)
            check_display(browser, state, 1280, 720)
            assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja"
            now = browser.find_element(By.ID, "now").text
            if state == "turn-running":
                assert now == words.text("prompt.turn-running", player=model.player)
            elif state == "penalty":
                penalty = states.live.snapshot()["penalty"]
                assert now == words.text("prompt.restoring-time", player=penalty["player"], draw=penalty["draw"])
                assert words.text("penalty.lay-table") in browser.find_element(By.ID, "restore-plan").text
            else:
                assert words.text("scores.points") in browser.find_element(By.ID, "scores").text
            assert "Ben" not in now or not re.search(r"[a-z]{4,}", now.replace(model.player, ""))  # no English left
            screenshot(browser, f"display-ja-{state}-1280x720")
        viewport(browser, 1280, 720)
        open_page(browser, f"{url}/referee", states.live.seq)
        assert words.text("referee.title") in browser.find_element(By.TAG_NAME, "h1").text
        screenshot(browser, "referee-ja-final-1280x720")


@pytest.mark.parametrize("sets", [8, 14, 20], ids=lambda n: f"{n}-sets")
def test_a_long_restore_plan_still_fits_every_screen(sets, demo_db, browser):
    """A table of many sets to lay again beside the photo: the plan's tiles are drawn smaller, never cut off."""
    from controller.game.events import TurnStarted
    from controller.records import Records
    from controller.web.live import LiveTable

    with Records(demo_db, create=False, read_only=True) as records:
        sha = next(e.photo for e in records.events(records.latest_game()) if isinstance(e, TurnStarted))
        stored = records.photo(sha)
    photo = {"sha256": sha, "width": stored.width, "height": stored.height, "tiles": [],
             "view": [0, 0, stored.width, stored.height]}
    live = LiveTable("table", demo_db)
    colours = "KBOR"
    table = [[f"{colours[n % 4]}{k}" for k in range(1 + n % 9, 5 + n % 9)] for n in range(sets)]
    live.update(("status", "penalty"), phase="restoring", player="Ben", turn=9, pool=20,
                players=[{"name": name, "seat": n + 1, "rack": 9, "current": name == "Ben", "penalty_points": 0}
                         for n, name in enumerate(("Ann", "Ben", "Cat", "Dan"))],
                penalty={"turn": 9, "player": "Ben", "photo": photo, "to_rack": ["R1", "R2", "J"], "table": table,
                         "moved": 0, "draw": 3, "penalty": True, "timed_out": False, "violations": [],
                         "unrestorable": None, "not_yet": None})
    server = WebServer(create_app(demo_db, live), parse_address("127.0.0.1:0")).start()
    try:
        for width, height in SIZES:
            viewport(browser, width, height)
            open_page(browser, f"{server.url}/table", live.seq)
            layout = browser.execute_script(LAYOUT, ["#now", "#restore-photo svg", "#restore-plan", "#restore-plan .chip"])
            assert layout["scrollHeight"] <= height and layout["scrollWidth"] <= width
            assert not layout["outside"] and not layout["clipped"], f"{width}x{height}: {layout['outside'][:3]} " \
                                                                   f"{layout['clipped'][:3]}"
            shown = browser.find_elements(By.CSS_SELECTOR, "#lay-table .chip")
            assert len(shown) == sum(map(len, table))
            screenshot(browser, f"display-long-plan-{sets}-sets-{width}x{height}")
    finally:
        server.stop()
