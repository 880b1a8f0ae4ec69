"""The demo game played with its pages open in a real Chromium (Debian's, through chromedriver).

One process runs `tileref demo --web 127.0.0.1:0`: the game, the timer emulator on a real pty and
the web server. The browser watches the table display and the referee page while it plays: the
countdown moves, the penalty notice appears with the start-of-turn photo and clears once the table
is restored, a referee's correction shows on the display and in the records, an action without the
token is refused (401, nothing recorded). Screenshots of every page go to $TILEREF_TEST_ARTIFACTS/screenshots/.
"""
from __future__ import annotations

import json

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from controller.game.events import RefereeCorrection, RestoreChecked
from controller.messages import catalogue
from controller.records import Records

from web_helpers import TOKEN, URL, Tileref, screenshot, wait_until, with_nonce


def countdown(driver) -> str:
    return driver.execute_script("var c = document.getElementById('countdown'); return c ? c.dataset.seconds : ''")


def present(driver, css: str) -> bool:
    return bool(driver.find_elements(By.CSS_SELECTOR, css))


def events_of(db):
    with Records(db, create=False, read_only=True) as records:
        return records.events(records.latest_game())


@pytest.fixture
def demo(tmp_path):
    process = Tileref("demo", "--web", "127.0.0.1:0", "--pace", "1.5", "--out", str(tmp_path / "demo"))
    try:
        url = process.expect(URL, 60).group(1)
        token = process.expect(TOKEN, 10).group(1)
        yield process, url, token, tmp_path / "demo" / "demo.sqlite"
    finally:
        process.kill()


def test_demo_game_with_the_table_display_and_the_referee_page_open(demo, browser):
    process, url, token, db = demo
    browser.get(f"{url}/table")
    display = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(f"{url}/referee")
    browser.find_element(By.ID, "token").send_keys(token)
    referee = browser.current_window_handle
    assert token not in browser.current_url  # typed in, never in an address
    browser.switch_to.window(display)
    wait_until(lambda: browser.find_element(By.ID, "connection").get_attribute("data-state") == "live",
               what="the display's WebSocket")

    # the countdown mirrored from the box moves
    seen: list[str] = []

    def moving() -> bool:
        value = countdown(browser)
        if value and (not seen or seen[-1] != value):
            seen.append(value)
        return len(set(seen)) >= 3

    wait_until(moving, 60, 0.03, "the countdown to move")
    assert all(v.isdigit() for v in seen)
    screenshot(browser, "table-display")

    # turn 6: the penalty notice with the photo taken at the start of the turn, and the restore plan
    wait_until(lambda: present(browser, "#penalty-notice svg image"), 90, 0.03, "the penalty notice")
    notice = browser.execute_script("""
        var n = document.getElementById('penalty-notice'), image = n.querySelector('svg image');
        return {prompt: document.getElementById('now').textContent, href: image.getAttribute('href'),
                to_rack: Array.prototype.map.call(n.querySelectorAll('#to-rack .chip'), function (c) { return c.title; }),
                takeback: n.querySelectorAll('svg polygon.takeback').length};""")
    assert notice["prompt"] == "Time! Ben draws 3; restore the table as shown"
    assert notice["to_rack"] == ["B1", "B2"]
    started = next(e for e in events_of(db) if e.kind.value == "turn-started" and e.turn == 6)
    assert notice["href"] == f"/photos/{started.photo}"
    assert httpx.get(url + notice["href"]).headers["content-type"].startswith("image/")
    assert notice["takeback"] == 2  # the tiles played are outlined on it, to come off the table
    screenshot(browser, "table-display-penalty")
    browser.switch_to.window(referee)
    wait_until(lambda: present(browser, "#form-accept-restore"), 10, what="the restore's choices on the referee page")
    assert not present(browser, "#form-pause")  # no countdown runs while the table is restored
    screenshot(browser, "referee-page-penalty")
    browser.switch_to.window(display)

    # it clears itself once the re-read table matches
    wait_until(lambda: not present(browser, "#penalty-notice"), 60, 0.05, "the penalty notice to clear")
    checks = [e for e in events_of(db) if isinstance(e, RestoreChecked)]
    assert checks[-1].matches and not checks[-1].by_referee
    assert "table matches the start of the turn" in browser.find_element(By.ID, "alerts").text

    # the end: the scores on the display, the pages stay up, no countdown left over
    process.expect("pages stay up", 120)
    wait_until(lambda: present(browser, "#scores"), 10, what="the scores")
    assert browser.find_element(By.ID, "now").text == "Game over: Cat wins"
    assert not present(browser, "#countdown")
    screenshot(browser, "table-display-scores")

    # an action without the token: 401, nothing recorded (the page, then the API directly)
    before = len(events_of(db))
    browser.switch_to.window(referee)
    browser.find_element(By.ID, "token").clear()
    browser.find_element(By.ID, "referee-name").send_keys("Rita <i>R.</i>")
    form = wait_until(lambda: browser.find_element(By.ID, "form-correct-rack"), 10, what="the rack correction")
    Select(form.find_element(By.NAME, "target")).select_by_visible_text("Ann")
    rack = form.find_element(By.CSS_SELECTOR, '.rack-tiles[data-rack="rack:Ann"]')
    read = [chip.get_attribute("data-code") for chip in rack.find_elements(By.CSS_SELECTOR, ".chip")]
    assert "K6" in read
    rack.find_element(By.CSS_SELECTOR, '.chip[data-code="K6"]').click()  # taken off: it is not a K6
    form.find_element(By.CSS_SELECTOR, '.palette .chip[data-code="K9"]').click()  # the K9 it really is
    corrected = [code for code in read if code != "K6"] + ["K9"]
    assert [chip.get_attribute("data-code") for chip in rack.find_elements(By.CSS_SELECTOR, ".chip")] == corrected
    form.find_element(By.NAME, "reason").send_keys("the K6 is a K9")
    form.find_element(By.CSS_SELECTOR, "button:not(.chip)").click()
    wait_until(lambda: browser.find_element(By.ID, "result").text == catalogue().text("referee.unauthorised"), 10,
               what="the refusal")
    answer = httpx.post(f"{url}/api/referee/correct", json={"referee": "X", "reason": "y", "target": "rack:Ann",
                                                            "tiles": "K5"})
    assert answer.status_code == 401
    answer = httpx.post(f"{url}/api/referee/pause", headers={"Authorization": "Bearer wrong"},
                        json={"referee": "X", "reason": "y"})
    assert answer.status_code == 401
    assert len(events_of(db)) == before

    # with the token: the correction is recorded (who and why), the game scored again, the display shows it
    browser.find_element(By.ID, "token").send_keys(token)
    form.find_element(By.CSS_SELECTOR, "button:not(.chip)").click()  # the same form, now with the token
    said = catalogue().text("answer.correct-rack", referee="Rita <i>R.</i>", player="Ann")
    wait_until(lambda: browser.find_element(By.ID, "result").text.startswith(said), 20,
               what=f"the correction ({browser.find_element(By.ID, 'result').text!r})")
    screenshot(browser, "referee-page-correction")
    corrections = [e for e in events_of(db) if isinstance(e, RefereeCorrection)]
    assert corrections[-1].referee == "Rita <i>R.</i>" and corrections[-1].note == "the K6 is a K9"
    assert corrections[-1].rack == tuple(corrected)
    assert events_of(db)[-1].kind.value == "game-scored"
    browser.switch_to.window(display)
    wait_until(lambda: "corrects Ann's rack" in browser.find_element(By.ID, "alerts").text, 10,
               what="the correction on the display")
    alerts = browser.find_element(By.ID, "alerts")
    assert "Rita <i>R.</i>" in alerts.text  # shown as text: escaped, never markup
    assert not alerts.find_elements(By.TAG_NAME, "i")
    ann = '//*[@id="scores"]//tr[td[1]="Ann"]/td[2]'
    wait_until(lambda: browser.find_element(By.XPATH, ann).text == "-66", 10, what="Ann's new score")
    screenshot(browser, "table-display-correction")

    # the records in the browser: the games, the turns, the audit of the penalty turn, the replay
    browser.get(f"{url}/")
    assert "Ann, Ben, Cat, Dan" in browser.find_element(By.ID, "games").text
    screenshot(browser, "games-index")
    browser.find_element(By.LINK_TEXT, "game 1").click()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#turns tbody tr")) == 11
    screenshot(browser, "game-turns")
    browser.get(f"{url}/games/1/turns/6")
    assert "Not a valid set" in browser.find_element(By.ID, "verdicts").text  # the rule in the catalogue's words
    assert len(browser.find_elements(By.CSS_SELECTOR, ".photos img")) >= 2
    events_text = browser.find_element(By.ID, "events").text
    assert "turn 6 ended by time running out" in events_text and "payload" not in events_text
    screenshot(browser, "audit-turn-6")
    browser.get(f"{url}/games/1/replay/7")
    title = browser.find_element(By.CSS_SELECTOR, "#step h2").text
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait_until(lambda: browser.current_url.endswith("/replay/8"), 10, what="the next replay step")
    assert browser.find_element(By.CSS_SELECTOR, "#step h2").text != title
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    wait_until(lambda: browser.current_url.endswith("/replay/7"), 10, what="the step back")
    screenshot(browser, "replay")

    # the API gives the CLI's --json shapes
    api = httpx.get(f"{url}/api/games/1/turns/6").json()
    assert api["verdicts"][0]["outcome"] == "penalty" and api["photos"]["before"]["width"] > 0
    assert process.interrupt() == 0
    from controller.cli import main
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["audit", "--db", str(db), "--game", "1", "--turn", "6", "--json"]) == 0
    assert json.loads(out.getvalue()) == api


def test_the_referee_accepts_a_restore_that_does_not_match_and_every_page_says_so(tmp_path, browser):
    process = Tileref("demo", "--web", "127.0.0.1:0", "--pace", "1.0", "--quiet", "--out", str(tmp_path / "demo"))
    db = tmp_path / "demo" / "demo.sqlite"
    try:
        url = process.expect(URL, 60).group(1)
        token = process.expect(TOKEN, 10).group(1)
        wait_until(lambda: httpx.get(f"{url}/api/table").json()["penalty"], 90, 0.05, "the penalty")
        # the restore plan is on the display and the wrong table is being laid: the arbiter accepts it as it lies
        answer = httpx.post(f"{url}/api/referee/accept-restore", headers=with_nonce(httpx, {"Authorization": f"Bearer {token}"}, url),
                            json={"referee": "Rita", "reason": "the players agree the table is right"}, timeout=30)
        assert answer.status_code == 200, answer.text
        check = answer.json()["recorded"][0]
        assert check["kind"] == "restore-checked" and check["payload"]["by_referee"]
        assert check["payload"]["differences"] and check["payload"]["referee"] == "Rita"
        accepted = [e for e in events_of(db) if isinstance(e, RestoreChecked) and e.by_referee][0]
        assert accepted.accepted_mismatch and accepted.note == "the players agree the table is right"
        browser.get(f"{url}/games/1/turns/6")
        restores = browser.find_element(By.ID, "restores").text
        assert "accepted by the arbiter (Rita: the players agree the table is right) although it does NOT match" \
            in restores
        assert "matches the start of the turn" not in restores.replace("does NOT match the start of the turn", "")
        screenshot(browser, "audit-turn-6-accepted-mismatch")
        replay = httpx.get(f"{url}/api/games/1/replay").json()
        lines = [line for step in replay["steps"] for line in step["lines"]]
        assert any("although it does NOT match" in line for line in lines)
    finally:
        process.kill()
