"""The referee marks the play area on the live frame in a real Chromium (Debian's, through
chromedriver): `tileref play --web` runs a game on rendered frames with the emulated box; on the
referee page the four corners are dragged with the mouse (pointer events) and saved; the table keeps
the area in its area file, records it, and the next table read is read in it."""
from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from controller.game.events import PlayAreaSet, TableRead, TurnJudged
from controller.records import Records

from web_helpers import TOKEN, URL, events_of, play_on_a_rendered_table, screenshot, wait_until

# where each corner is dragged to, in the frame's pixels (1280 x 720); the tiles lie near the top left
TARGETS = [(8.0, 8.0), (1180.0, 20.0), (1200.0, 690.0), (30.0, 660.0)]


def reading_of(db, event):
    with Records(db, create=False, read_only=True) as records:
        return records.reading(event.reading).reading


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """One `tileref play --web` for the module: a rendered table of K10 K11 K12, the emulated box."""
    folder = tmp_path_factory.mktemp("area")
    play, db = play_on_a_rendered_table(folder)
    try:
        url = play.expect(URL, 60).group(1)
        token = play.expect(TOKEN, 10).group(1)
        yield play, url, token, db
    finally:
        play.kill()


def press(play, key: str) -> None:
    play.process.stdin.write(key + "\n")
    play.process.stdin.flush()


def drag_corner(browser, corner: int, to: tuple[float, float]) -> None:
    """Drag a corner handle with the mouse to a point of the frame (its pixels)."""
    moves = browser.execute_script("""
        var svg = document.getElementById('area-svg'), handle = svg.querySelectorAll('.area-handle')[arguments[0]];
        var box = handle.getBoundingClientRect(), point = svg.createSVGPoint();
        point.x = arguments[1]; point.y = arguments[2];
        var screen = point.matrixTransform(svg.getScreenCTM());
        return [screen.x - (box.left + box.width / 2), screen.y - (box.top + box.height / 2)];""", corner, *to)
    handle = browser.find_elements(By.CSS_SELECTOR, "#area-svg .area-handle")[corner]
    ActionChains(browser).click_and_hold(handle).move_by_offset(moves[0] / 2, moves[1] / 2) \
        .move_by_offset(moves[0] - moves[0] / 2, moves[1] - moves[1] / 2).release().perform()


def test_the_referee_drags_the_corners_saves_and_the_next_read_is_in_the_marked_area(table, browser):
    play, url, token, db = table
    # a press typed before the table listens to its box is stale (the link drops what came before it opened)
    play.expect(r"^deal 14 tiles to each of Ann, Ben; press a button when dealt", 60)
    press(play, "a")  # the arbiter: dealt; Ann's turn starts with a photo of the table
    browser.get(f"{url}/referee")
    browser.find_element(By.ID, "token").send_keys(token)
    browser.find_element(By.ID, "referee-name").send_keys("Rita")
    browser.find_element(By.CSS_SELECTOR, "#area-editor > summary").click()  # folded until the referee opens it
    figure = wait_until(lambda: browser.find_element(By.ID, "area-figure").is_displayed()
                        and browser.find_element(By.ID, "area-figure"), 60, what="the latest frame in the area editor")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", figure)
    for corner, target in enumerate(TARGETS):
        drag_corner(browser, corner, target)
    drawn = browser.execute_script("""
        return Array.prototype.map.call(document.querySelectorAll('#area-svg .area-handle'), function (h) {
            return [parseFloat(h.getAttribute('cx')), parseFloat(h.getAttribute('cy'))]; });""")
    for (x, y), (tx, ty) in zip(drawn, TARGETS):
        assert abs(x - tx) < 4 and abs(y - ty) < 4, (drawn, TARGETS)  # a screen pixel is about two of the frame's
    browser.find_element(By.ID, "area-reason").send_keys("the tile box is in view")
    screenshot(browser, "referee-page-area-dragged")
    browser.find_element(By.ID, "area-save").click()
    result = browser.find_element(By.ID, "result")
    sending = result.get_attribute("data-sending")
    said = wait_until(lambda: result.text not in ("", sending) and result.text, 30, what="the table's answer")
    assert "Rita marked the play area" in said and "ok" in result.get_attribute("class")
    wait_until(lambda: browser.find_element(By.ID, "area-data").get_attribute("data-how") == "marked", 10,
               what="the marked area on the page")
    screenshot(browser, "referee-page-area-saved")

    kept = json.loads((db.parent / "play-area.json").read_text())
    assert (kept["width"], kept["height"]) == (1280, 720)
    for (x, y), (dx, dy) in zip(kept["corners"], drawn):
        assert abs(x - dx) <= 0.1 and abs(y - dy) <= 0.1
    marked = [e for e in events_of(db) if isinstance(e, PlayAreaSet)]
    assert len(marked) == 1 and marked[0].by == "referee Rita" and marked[0].reason == "the tile box is in view"
    assert [list(c) for c in marked[0].corners] == kept["corners"]

    press(play, "1")  # Ann ends her turn: the table is read, in the marked area
    wait_until(lambda: any(isinstance(e, TurnJudged) for e in events_of(db)), 60, what="the verdict")
    read = next(e for e in events_of(db) if isinstance(e, TableRead))
    assert reading_of(db, read)["area"] == kept["corners"]
    assert sorted(code for code, _, _ in read.tiles) == ["K10", "K11", "K12"]  # inside the area: all read
