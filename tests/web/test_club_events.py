"""The club board's events: each running event's standings follow the results as they are entered,
and the tables of the next round show once it is drawn, over the board's poll (`/api/events`), on
the page as first served, and in Chromium as the board's script redraws it."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from starlette.testclient import TestClient

from controller import cli
from controller.records import Records
from controller.tournament import TournamentStore, create_event
from controller.tournament.model import RummikubGameResult, game_id
from controller.web.club import create_app
from controller.web.club_events import FINISHED_SHOWN_H, EventBoard, event_view

from web_helpers import close_chromium, chromium, have_chromium, wait_until

EVENT = "Kuwana <Open> & 桑名"
PLAYERS = ["佐藤 太郎", "Łukasz Żółć", "山田 花子", "Ann", "Ben", "Grzegorz", "鈴木 一郎", "Dora"]


@pytest.fixture
def club_db(tmp_path):
    """A club database (the tables' records and the tournament) with round 1 of a kuwana event drawn."""
    db = tmp_path / "club.sqlite"
    Records(db).close()
    with TournamentStore(db) as store:
        store.create(create_event(EVENT, "kuwana", PLAYERS))
        store.draw_next(EVENT, seed=45)
    return db


def enter(db, *games: str) -> None:
    """Results by hand, as the organiser types them: seat 1 wins with 100."""
    with TournamentStore(db) as store:
        event = store.load(EVENT)
        results = []
        for game in games:
            _, table = event.table_of_game(game)
            scores = {p: -10 * i for i, p in enumerate(table.seats[1:], start=1)}
            scores[table.seats[0]] = 100
            results.append(RummikubGameResult(game, scores, table.seats[0]))
        store.add_results(EVENT, results, source="hand")


def round_games(db, number: int) -> list[str]:
    with TournamentStore(db, read_only=True) as store:
        return list(store.load(EVENT).round(number).game_ids())


def points_of(view: dict) -> dict[str, str]:
    columns = view["standings"]["columns"]
    return {row[1]: row[columns.index("points")] for row in view["standings"]["rows"]}


def test_the_board_follows_each_result_and_shows_the_final_draw_once_made(club_db):
    with TestClient(create_app(str(club_db))) as client:
        [view] = client.get("/api/events").json()["events"]
        assert view["name"] == EVENT and view["round"]["stage"] == "round 1 of 2: first round"
        assert view["state"].endswith("0 of 6 results in")
        assert set(points_of(view).values()) == {"0"}

        first = round_games(club_db, 1)
        enter(club_db, first[0])
        [view] = client.get("/api/events").json()["events"]
        assert view["state"].endswith("1 of 6 results in")
        table = view["round"]["tables"][0]
        assert table["results"] == 1
        assert points_of(view)[table["seats"][0]] == "100" and points_of(view)[table["seats"][1]] == "-10"

        enter(club_db, *first[1:])
        assert cli.main(["tournament", "draw", EVENT, "--seed", "46", "--quiet", "--db", str(club_db)]) == 0
        with TournamentStore(club_db, read_only=True) as store:
            final = store.load(EVENT).round(2)
        [view] = client.get("/api/events").json()["events"]
        assert view["round"]["stage"] == "round 2 of 2: final"
        assert [t["seats"] for t in view["round"]["tables"]] == [list(t.seats) for t in final.tables]

        page = client.get("/").text
        seats = ", ".join(f"{i}. {p}" for i, p in enumerate(final.tables[0].seats, start=1))
        assert seats in page and "round 2 of 2: final" in page
        assert "Kuwana &lt;Open&gt; &amp; 桑名" in page and EVENT not in page


def test_a_finished_event_stays_on_the_board_for_the_evening_then_leaves_it(club_db):
    for number in (1, 2):
        if number == 2:
            with TournamentStore(club_db) as store:
                store.draw_next(EVENT, seed=46)
        enter(club_db, *round_games(club_db, number))
    board = EventBoard(str(club_db))
    try:
        now = datetime.now(timezone.utc)
        [view], problem = board.read(now)
        assert problem is None and view["finished"] and view["state"] == "final standings"
        later = now + timedelta(hours=FINISHED_SHOWN_H, minutes=5)
        assert board.read(later) == ([], None)
    finally:
        board.close()


def test_a_club_database_without_events_shows_none(tmp_path):
    db = tmp_path / "records.sqlite"
    Records(db).close()
    with TestClient(create_app(str(db))) as client:
        assert client.get("/api/events").json()["events"] == []
        assert "No event is running." in client.get("/").text


def test_the_board_in_chromium_redraws_the_standings_and_the_next_draw(club_db):
    if not have_chromium():
        pytest.skip("Debian's chromium and chromium-driver are not installed (.ci/run installs them)")
    from controller.web.server import WebServer, parse_address
    from selenium.webdriver.common.by import By

    server = WebServer(create_app(str(club_db)), parse_address("127.0.0.1:0")).start()
    driver = chromium()
    try:
        driver.get(server.url + "/")
        heading = driver.find_element(By.CSS_SELECTOR, "#event-list .event h2")
        assert heading.text == EVENT
        first = round_games(club_db, 1)
        enter(club_db, *first)
        driver_text = lambda: driver.find_element(By.ID, "event-list").text  # noqa: E731
        wait_until(lambda: "6 of 6 results in" in driver_text(), timeout=30, what="the results on the board")
        with TournamentStore(club_db) as store:
            store.draw_next(EVENT, seed=46)
            final = store.load(EVENT).round(2)
        seats = ", ".join(f"{i}. {p}" for i, p in enumerate(final.tables[0].seats, start=1))
        wait_until(lambda: seats in driver_text(), timeout=30, what="the final's draw on the board")
        assert "round 2 of 2: final" in driver_text()
        with TournamentStore(club_db, read_only=True) as store:
            expected = event_view(store.load(EVENT))["standings"]["rows"]
        rows = driver.find_elements(By.CSS_SELECTOR, "#event-list .standings tbody tr")
        assert [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in rows] == expected
    finally:
        close_chromium(driver)
        server.stop()


def test_the_events_read_from_a_postgresql_club_database(postgres_url):
    Records(postgres_url).close()
    with TournamentStore(postgres_url) as store:
        store.create(create_event(EVENT, "kuwana", PLAYERS))
        store.draw_next(EVENT, seed=45)
        first = store.load(EVENT).round(1)
    board = EventBoard(postgres_url)
    try:
        [view], problem = board.read()
        assert problem is None and view["state"].endswith("0 of 6 results in")
        enter(postgres_url, game_id(1, 1, 1))
        [view], problem = board.read()
        assert view["state"].endswith("1 of 6 results in")
        assert points_of(view)[first.tables[0].seats[0]] == "100"
    finally:
        board.close()
