"""A page of another site cannot read the live table or act on it, and a captured referee action sent
again is refused, not recorded twice.

A WebSocket whose `Origin` names another site than the `Host` it was sent to is closed before it
opens (the live table, the spectator feed, the overlay; a real uvicorn answers its handshake 403), and
so is any request with such an `Origin` (403), the token notwithstanding. Each referee action carries
a one-time nonce: the same request sent twice is carried out once."""
from __future__ import annotations

import asyncio

import pytest
import websockets
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from controller.adapters.desk import RefereeDesk
from controller.adapters.reader import VisionReader
from controller.game.events import PlayAreaSet
from controller.records import Records
from controller.web.app import create_app
from controller.web.live import LiveTable
from controller.web.nonces import NONCE_LIFETIME_S, Nonces
from controller.web.server import WebServer, parse_address
from desk_helpers import attended
from web_helpers import dealt_game, with_nonce

TOKEN = {"Authorization": "Bearer s3cret"}
WHO = {"referee": "Rita", "reason": "the tile box was read as tiles"}
AREA = {"corners": [[100, 60], [1180, 80], [1150, 660], [120, 650]], "width": 1280, "height": 720}
OTHER_SITES = ["http://evil.example", "http://testserver.evil.example", "http://testserver:8080",
               "https://testserver", "null", "not an origin"]


def events(db, game):
    with Records(db, create=False) as records:
        return records.events(game)


@pytest.fixture
def table(tmp_path):
    db = tmp_path / "club.sqlite"
    game = dealt_game(db)
    desk = RefereeDesk()
    live = LiveTable("table", db)
    live.update(("status",), game=game)
    return db, game, desk, TestClient(create_app(db, live, desk, token="s3cret"))


@pytest.mark.parametrize("origin", OTHER_SITES, ids=["another-host", "a-longer-host", "another-port",
                                                    "another-scheme", "null", "not-an-origin"])
def test_a_websocket_from_another_site_is_closed_before_it_opens(table, origin):
    _, _, _, client = table
    for path in ("/ws/table", "/ws/watch/1", "/ws/overlay/1"):
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect(path, headers={"Origin": origin}) as socket:
                socket.receive_text()
        assert closed.value.code == 1008, path


def test_the_pages_own_site_and_a_program_without_origin_get_the_live_table(table):
    _, _, _, client = table
    for headers in ({"Origin": "http://testserver"}, {"Origin": "http://TESTSERVER:80"}, {}):
        with client.websocket_connect("/ws/table", headers=headers) as socket:
            assert '"regions"' in socket.receive_text()


def test_a_request_from_another_site_is_refused_even_with_the_token(table, tmp_path):
    db, game, desk, client = table
    before = events(db, game)
    with attended(db, game, desk, VisionReader(area_settings=str(tmp_path / "play-area.json"))):
        nonce = with_nonce(client, TOKEN)
        for origin in OTHER_SITES:
            answer = client.post("/api/referee/area", json={**WHO, **AREA}, headers={**nonce, "Origin": origin})
            assert answer.status_code == 403, (origin, answer.text)
            assert client.get("/api/table", headers={"Origin": origin}).status_code == 403
            assert client.get("/api/referee/nonce", headers={**TOKEN, "Origin": origin}).status_code == 403
        assert events(db, game) == before  # refused: recorded nowhere
        same_site = client.post("/api/referee/area", json={**WHO, **AREA},
                                headers={**nonce, "Origin": "http://testserver"})
        assert same_site.status_code == 200, same_site.text
    assert len(events(db, game)) == len(before) + 1


def test_a_real_server_answers_a_cross_site_websocket_handshake_403(table):
    db, _, _, _ = table
    live = LiveTable("table", db)
    with WebServer(create_app(db, live, RefereeDesk(), token="s3cret"), parse_address("127.0.0.1:0")) as server:
        socket_url = server.url.replace("http://", "ws://") + "/ws/table"

        async def open_from(origin):
            async with websockets.connect(socket_url, origin=origin, open_timeout=10) as socket:
                return await asyncio.wait_for(socket.recv(), 10)

        with pytest.raises(websockets.InvalidStatus) as refused:
            asyncio.run(open_from("http://evil.example"))
        assert refused.value.response.status_code == 403
        assert '"regions"' in asyncio.run(open_from(server.url))


def test_a_referee_action_sent_again_is_refused_and_recorded_once(table, tmp_path):
    db, game, desk, client = table
    before = len(events(db, game))
    reader = VisionReader(area_settings=str(tmp_path / "play-area.json"))
    with attended(db, game, desk, reader):
        headers = with_nonce(client, TOKEN)
        first = client.post("/api/referee/area", json={**WHO, **AREA}, headers=headers)
        assert first.status_code == 200, first.text
        replayed = client.post("/api/referee/area", json={**WHO, **AREA}, headers=headers)
        assert replayed.status_code == 409 and "nonce" in replayed.json()["error"]
        for nonce in ({}, {"X-Tileref-Nonce": ""}, {"X-Tileref-Nonce": "made-up"}):
            answer = client.post("/api/referee/area", json={**WHO, **AREA}, headers={**TOKEN, **nonce})
            assert answer.status_code == 409, answer.text
        assert len(events(db, game)) == before + 1
        fresh = client.post("/api/referee/area", json={**WHO, **AREA}, headers=with_nonce(client, TOKEN))
        assert fresh.status_code == 200, fresh.text  # a fresh nonce: the same action, asked for again
    recorded = events(db, game)[before:]
    assert [type(event) for event in recorded] == [PlayAreaSet, PlayAreaSet]


def test_a_nonce_needs_the_token_and_goes_stale():
    client_nonces = Nonces(clock=lambda: now)
    now = 0.0
    first, second = client_nonces.give(), client_nonces.give()
    assert first != second and client_nonces.take(first) and not client_nonces.take(first)
    now = NONCE_LIFETIME_S + 1
    assert not client_nonces.take(second)


def test_the_nonce_is_given_only_with_the_token(table):
    _, _, _, client = table
    assert client.get("/api/referee/nonce").status_code == 401
    assert client.get("/api/referee/nonce", headers={"Authorization": "Bearer wrong"}).status_code == 401
    given = client.get("/api/referee/nonce", headers=TOKEN)
    assert given.status_code == 200 and given.headers["cache-control"] == "no-store"
