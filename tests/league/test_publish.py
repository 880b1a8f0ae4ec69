"""`tileref publish --out DIR` on a real SQLite club database: a rated event (one game played at a
table straight into the database, the rest typed), a player with markup in the name. Every page
parses in html5lib's strict HTML5 parser, holds no script, every link reaches a page of the site,
and Chromium (scripts turned off) reads the standings, the game's notation and a player's ratings
by following the links from the first page."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import html5lib
import pytest

from controller.records import Records
from controller.records.signing import new_key_pair

from league_helpers import director_key, json_of, players_csv, run, winner_by_game
from table_game import seat_one_goes_out

NAMES = ["Ann <b>Bold</b> & Co", "Ben Ode", "Cy Park", "Dee Quinn", "Eve Ray", "Finn Salo", "Gus Tan", "Hana Ueda"]
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


@pytest.fixture
def site(tmp_path, capsys) -> Path:
    db = str(tmp_path / "club.sqlite")
    key = director_key(tmp_path, db)
    table_key = new_key_pair(tmp_path / "table1.key")
    assert run("key", "trust", f"{table_key.path}.pub", "--name", "table 1", "--role", "table", "--db", db) == 0
    for name in NAMES:
        assert run("player", "add", name, "--db", db) == 0
    assert run("tournament", "create", "Spring cup", "--format", "kuwana", "--rated", "--director-key", key.path,
               "--players", players_csv(tmp_path, NAMES), "--db", db) == 0
    round_ = json_of(capsys, "tournament", "draw", "Spring cup", "--seed", 4, "--director-key", key.path,
                     "--db", db)["round"]
    seats = round_["tables"][0]["seats"]
    with Records(db, key=table_key) as records:  # R1-T1-G1 played at table 1, straight into the club's database
        seat_one_goes_out(records, tuple(seats), "Spring cup", "R1-T1-G1")
    played = json_of(capsys, "tournament", "show", "Spring cup", "--db", db)
    assert played["rounds"][0]["tables"][0]["games"][0]["result"] is not None, capsys.readouterr()
    _type_the_rest(capsys, db, key, round_)
    out = tmp_path / "site"
    assert run("publish", "--out", out, "--club", "Alder & <Co>", "--db", db) == 0
    return out


def _type_the_rest(capsys, db, key, round_) -> None:
    for table in round_["tables"]:
        for number, game in enumerate(table["games"], start=1):
            if game["game"] == "R1-T1-G1":
                continue
            winner, scores = winner_by_game(table["seats"], number)
            args = [a for name, points in scores.items() for a in ("--score", f"{name}={points}")]
            assert run("tournament", "result", "Spring cup", game["game"], *args, "--winner", winner,
                       "--director-key", key.path, "--db", db) == 0


def _links(page: Path, document) -> list[str]:
    return [a.get("href") for a in document.iter("{http://www.w3.org/1999/xhtml}a")]


def test_every_page_is_strict_html5_without_script_and_every_link_holds(site):
    pages = sorted(site.rglob("*.html"))
    names = {p.relative_to(site).as_posix() for p in pages}
    assert {"index.html", "ratings.html"} <= names
    assert len([n for n in names if n.startswith("games/")]) == 6
    assert len([n for n in names if n.startswith("players/")]) == 8
    for page in pages:
        text = page.read_text(encoding="utf-8")
        document = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True).parse(text)  # raises on any error
        assert not list(document.iter("{http://www.w3.org/1999/xhtml}script")), page
        assert "<b>Bold</b>" not in text and "onclick" not in text
        for href in _links(page, document):
            parts = urlsplit(href)
            assert not parts.scheme and not parts.netloc, (page, href)  # relative: the folder works anywhere
            assert (page.parent / parts.path).resolve().is_file(), (page, href)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "Alder &amp; &lt;Co&gt;" in index


def test_the_played_game_shows_its_notation(site):
    game = next((site / "games").glob("*-R1-T1-G1.html")).read_text(encoding="utf-8")
    assert "Notation" in game and "[Event" in game and "Spring cup" in game and "the winning turn" in game
    typed = next((site / "games").glob("*-R1-T1-G2.html")).read_text(encoding="utf-8")
    assert "entered by the director" in typed


def test_chromium_reads_the_site_with_scripts_off(site):
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="tileref-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                 "--disable-background-networking", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        driver.get((site / "index.html").as_uri())
        assert driver.title == "Events - Alder & <Co>"
        driver.find_element(By.LINK_TEXT, "Spring cup").click()
        body = driver.find_element(By.TAG_NAME, "body").text
        assert "final standings" in body or "standings in progress" in body
        assert "Ann <b>Bold</b> & Co" in body  # shown as typed, never as markup
        driver.find_element(By.LINK_TEXT, "R1-T1-G1").click()
        assert "[Event" in driver.find_element(By.TAG_NAME, "pre").text
        driver.find_element(By.LINK_TEXT, "Ratings").click()
        rows = driver.find_elements(By.CSS_SELECTOR, "tbody tr")
        assert len(rows) == 8
        rows[0].find_element(By.TAG_NAME, "a").click()
        assert "Rated games" in driver.find_element(By.TAG_NAME, "body").text
        assert len(driver.find_elements(By.CSS_SELECTOR, "tbody tr")) == 3
        for entry in driver.get_log("browser") if hasattr(driver, "get_log") else ():
            assert entry["level"] != "SEVERE", entry
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
