"""The stream overlay and the spectator feed without a browser: the feed folds only the events the
record holds at least the delay old by the server's clock (a clock the test sets), in the page and in
its socket; the organiser's delay is recorded with the game and a server never shortens it; the
overlay is live unless asked for the delay; the club server serves each table's overlay and feed;
a delay outside 0..3600 is refused on one line (exit 2)."""
from __future__ import annotations

import re
import time

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from controller.cli import main
from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TableRead, TurnEnded, TurnStarted
from controller.game.machine import apply, fold
from controller.records import Records
from controller.records.reports.views import replay_lines
from controller.web import club
from controller.web.app import create_app
from controller.web.broadcast import STAMP

from table_helpers import table

PLAYERS = ("Ann", "Ben")
T0 = 1_800_000_000  # when the staged game was created (epoch seconds)
EVERY_S = 10  # the staged game records an event every ten seconds


class SetClock:
    """The server's present, set by the test."""

    def __init__(self, now: float) -> None:
        self.at = now

    def now(self) -> float:
        return self.at


def staged_game(db, delay: int | None) -> int:
    """Two turns (Ann opens with R10 R11 R12, Ben's turn runs), an event every EVERY_S seconds from T0."""
    first = judging.game_created("classic", PLAYERS, watch_delay=delay)
    with Records(db) as records:
        game = records.start_game(first)
        model = fold([first])

        def add(event):
            nonlocal model
            model = apply(model, event)
            records.append(game, event, state=model.state)

        add(StartOrderDrawn((), "Ann", None))
        add(Dealt(1))
        add(TurnStarted(1, "Ann", 60, None))
        add(TurnEnded(1, "button", "1", 41))
        after = table(("R10", "R11", "R12"))
        add(TableRead("turn", None, None, after.tiles, after.sets, (), ()))
        verdict = judging.judge(model, after)
        assert verdict.outcome == "legal"
        add(verdict)
        add(TurnStarted(2, "Ben", 60, None))
        count = records.head(game)[0]
        for seq in range(1, count + 1):  # the stamps of a game played over a minute and more
            stamp = time.strftime(STAMP, time.gmtime(T0 + EVERY_S * (seq - 1)))
            records.db.execute("UPDATE events SET recorded_at=? WHERE game_id=? AND seq=?", (stamp, game, seq))
    return game


def shown_seq(html: str) -> int:
    return int(re.search(r'data-shown-seq="(\d+)"', html).group(1))


def first_message(client: TestClient, path: str) -> dict:
    with client.websocket_connect(path) as socket:
        return socket.receive_json()


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    """The staged game with a 30-second delay (read only: every test but the tampering one shares it)."""
    db = tmp_path_factory.mktemp("staged") / "r.sqlite"
    return db, staged_game(db, delay=30)


@pytest.mark.parametrize("k", [0, 3, 7])
def test_the_feed_shows_only_events_at_least_the_recorded_delay_old(staged, k):
    db, game = staged
    # the present: 30 s after the k-th event's stamp, plus the second a stamp rounds away
    clock = SetClock(T0 + EVERY_S * k + 30 + 1)
    client = TestClient(create_app(db, time_source=clock))  # the server's own delay is 0: the game's 30 holds
    page = client.get(f"/watch/{game}")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert shown_seq(page.text) == k + 1
    assert 'data-delay="30"' in page.text
    message = first_message(client, f"/ws/watch/{game}")
    assert shown_seq(message["regions"]["broadcast"]) == k + 1
    clock.at -= 1  # a second earlier the k-th event is not old enough yet
    assert shown_seq(client.get(f"/watch/{game}").text) == k
    assert shown_seq(first_message(client, f"/ws/watch/{game}")["regions"]["broadcast"]) == k


def test_the_feed_follows_the_clock_and_never_runs_ahead_of_it(staged):
    db, game = staged
    clock = SetClock(T0 + 30 + 1)
    client = TestClient(create_app(db, time_source=clock))
    with client.websocket_connect(f"/ws/watch/{game}") as socket:
        assert shown_seq(socket.receive_json()["regions"]["broadcast"]) == 1
        clock.at += 4 * EVERY_S  # four more events become old enough
        message = socket.receive_json()
        assert shown_seq(message["regions"]["broadcast"]) == 5


def test_a_server_may_keep_a_longer_delay_never_a_shorter_one(staged, tmp_path):
    db, game = staged
    clock = SetClock(T0 + EVERY_S * 5 + 30 + 1)
    assert shown_seq(TestClient(create_app(db, time_source=clock, watch_delay=10)).get(f"/watch/{game}").text) == 6
    longer = TestClient(create_app(db, time_source=clock, watch_delay=60)).get(f"/watch/{game}").text
    assert shown_seq(longer) == 3 and 'data-delay="60"' in longer
    undelayed = tmp_path / "u.sqlite"
    game = staged_game(undelayed, delay=None)
    assert shown_seq(TestClient(create_app(undelayed, time_source=clock)).get(f"/watch/{game}").text) == 8


def test_the_overlay_is_live_unless_asked_for_the_delay_and_draws_the_table_as_tiles(staged):
    db, game = staged
    clock = SetClock(T0 + EVERY_S * 5 + 30 + 1)
    client = TestClient(create_app(db, time_source=clock))
    live = client.get(f"/overlay/table/{game}").text
    assert shown_seq(live) == 8
    assert '<body class="overlay">' in live and "/static/broadcast.css" in live
    assert re.findall(r"<script[^>]*>", live) == [f'<script src="/static/broadcast.js" data-socket="/ws/overlay/{game}">']
    assert [chip for chip in re.findall(r'class="chip c-R" title="(R\d+)"', live)][:3] == ["R10", "R11", "R12"]
    assert "Ben to play" in live and 'id="bc-countdown"' in live
    assert 'data-rack="11"' in live  # Ann laid three of her fourteen tiles
    delayed = client.get(f"/overlay/table/{game}?delay=1").text
    assert shown_seq(delayed) == 6 and f'data-socket="/ws/overlay/{game}?delay=1"' in delayed
    assert shown_seq(first_message(client, f"/ws/overlay/{game}?delay=1")["regions"]["broadcast"]) == 6
    assert client.get("/overlay/table/99").status_code == 404


def test_the_delay_is_recorded_with_the_game_and_the_replay_says_it(staged):
    db, game = staged
    with Records(db, create=False, read_only=True) as records:
        created = records.events(game)[0]
        text = "\n".join(line for block in replay_lines(records, game) for line in block)
    assert created.watch_delay == 30 and created.payload()["watch_delay"] == 30
    assert "spectators 30 s behind" in text
    assert "watch_delay" not in judging.game_created("classic", PLAYERS).payload()  # unset: the old shape


def test_the_club_server_serves_each_tables_overlay_and_feed(staged):
    db, game = staged
    clock = SetClock(T0 + EVERY_S * 2 + 30 + 1)
    client = TestClient(club.create_app(str(db), time_source=clock))
    assert 'href="/watch"' in client.get("/").text  # the board links to the feeds
    listing = client.get("/watch")
    assert listing.status_code == 200
    assert f'href="/watch/{game}"' in listing.text and f'href="/overlay/table/{game}?delay=1"' in listing.text
    assert "Ann, Ben" in listing.text and "data-turn" not in listing.text and "Ben to play" not in listing.text
    assert shown_seq(client.get(f"/watch/{game}").text) == 3
    assert shown_seq(client.get(f"/overlay/table/{game}").text) == 8


@pytest.mark.parametrize("command", [["serve", "--db", "x.sqlite"], ["club", "serve", "--db", "x.sqlite"]])
def test_a_delay_outside_the_range_is_refused_on_one_line(command, capsys):
    with pytest.raises(SystemExit) as stopped:
        main([*command, "--watch-delay", "3601"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--watch-delay" in error and "'3601' is outside 0..3600" in error


def test_a_tampered_game_is_refused_by_the_feed_and_the_overlay(tmp_path):
    db = tmp_path / "r.sqlite"
    game = staged_game(db, delay=30)
    with Records(db, create=False) as records:
        records.db.execute("UPDATE events SET payload=replace(payload, '\"Ben\"', '\"Bob\"') WHERE game_id=? AND seq=8",
                           (game,))
    client = TestClient(create_app(db, time_source=SetClock(T0 + 10_000)))
    for path in (f"/watch/{game}", f"/overlay/table/{game}", f"/overlay/table/{game}?delay=1"):
        response = client.get(path)
        assert response.status_code == 409 and "Bob" not in response.text, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
    with pytest.raises(WebSocketDisconnect) as closed:
        first_message(client, f"/ws/watch/{game}")
    assert closed.value.code == 1011


def test_a_clock_game_shows_its_clocks_live_and_from_the_record(tmp_path):
    from controller.clock.rules import ClockGame, default_rules
    from controller.game.events import ClockRecorded, GameCreated
    from controller.clock.journal import RecordState
    from controller.web.live import ClockBoard, LiveTable

    db = tmp_path / "r.sqlite"
    rules = default_rules(ClockGame.SHOGI)
    with Records(db) as records:
        game = records.start_game(GameCreated(
            variant="clock-shogi", players=PLAYERS, turn_seconds=rules.seconds,
            ruleset=(*rules.pairs(), ("event", "shogi"), ("game", "R1-T1-G1"))), state=RecordState.CLOCK)
        records.append(game, ClockRecorded("started", None, (("Ann", 1_800_000), ("Ben", 1_800_000)), "Ann first"),
                       state=RecordState.CLOCK)
        records.append(game, ClockRecorded("pressed", "Ann", (("Ann", 1_790_250),), "Ann hands over to Ben"),
                       state=RecordState.CLOCK)
    recorded = TestClient(create_app(db)).get(f"/overlay/table/{game}").text
    assert re.search(r'data-player="Ann">\s*<span class="name">Ann</span>\s*<span class="time" data-ms="1790250">29:51',
                     recorded)
    assert 'class="bc-side to-move" data-player="Ben"' in recorded and "R1-T1-G1" in recorded

    live = LiveTable("clock", db)
    board = ClockBoard(live, "shogi", "R1-T1-G1", "DUEL", PLAYERS, "Ann", 600)
    board.tick(1, 587)
    page = TestClient(create_app(db, live)).get("/overlay/table").text
    assert 'data-socket="/ws/table"' in page  # the live table's own socket
    assert 'data-ms="587000">9:47' in page and 'class="bc-side to-move" data-player="Ann"' in page
