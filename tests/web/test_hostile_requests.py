"""Record data is never active content, and no request makes a page answer 500 or print a traceback.

Every response of every web app (the table's pages, `tileref serve`, the club board) carries
`X-Content-Type-Options: nosniff` and a Content-Security-Policy that runs only the app's own
script files; no template holds an inline script or event handler. A stored "photo" is served as
the image type its bytes are, or only as a download: a page a record calls a photo never runs in
Chromium. Ids out of range, 5,000-digit ids, oversized addresses answer 4xx; a referee action of
100,000 nested brackets answers 400; the server's console shows no traceback."""
from __future__ import annotations

import re
import socket
import sqlite3
import time
from pathlib import Path

import httpx
import numpy as np
import pytest
from starlette.testclient import TestClient

from controller.adapters.desk import RefereeDesk
from controller.adapters.photos import FramePhotos
from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TableRead, TurnEnded, TurnStarted
from controller.game.machine import apply, fold
from controller.records import Photo, Records, sha256_bytes
from controller.web.app import create_app
from controller.web.club import create_app as create_club_app
from controller.web.live import LiveTable

from table_helpers import table
from web_helpers import ROOT, TOKEN, URL, Tileref, wait_until, with_nonce

NAMED_PAGE = b"<!DOCTYPE html><script>document.title='pwned'</script>" + b" " * 16
UNNAMED_PAGE = b"<html><script>document.title='pwned'</script></html>"
TEMPLATE_FOLDERS = [ROOT / "controller" / "web" / "templates",
                    ROOT / "controller" / "records" / "reports" / "templates",
                    ROOT / "controller" / "tournament" / "templates",
                    ROOT / "controller" / "tournament" / "printing" / "templates"]
OUT_OF_RANGE = ["/games/99999999999999999999", "/api/games/9223372036854775808", "/games/" + "9" * 5000,
                "/api/games/" + "9" * 5000, "/games/1/turns/99999999999999999999", "/games/1/replay/" + "9" * 40,
                "/api/games/1/turns/" + "9" * 5000, "/api/games/-1", "/games/1e3"]


def jpeg(shade: int) -> Photo:
    return FramePhotos(".jpg").photo(np.full((48, 64, 3), shade, np.uint8))


@pytest.fixture
def records_file(tmp_path) -> tuple[Path, dict[str, bytes]]:
    """A signed game whose turn starts on a JPEG photo and is read from a 'photo' that is a page,
    plus a page stored as a photo that no event names (as an import of a hostile record left it)."""
    db = tmp_path / "r.sqlite"
    real = jpeg(120)
    page = Photo(sha256_bytes(NAMED_PAGE), "text/html", 1, 1, NAMED_PAGE)
    first = judging.game_created("classic", ("Ann", "Ben"))
    with Records(db) as records:
        game = records.start_game(first)
        model = fold([first])
        after = table(("R1", "R2"))
        for event, photos in ((StartOrderDrawn((), "Ann", None), ()), (Dealt(1), ()),
                              (TurnStarted(1, "Ann", 60, real.sha256), (real,)), (TurnEnded(1, "button", "1", 9), ()),
                              (TableRead("turn", page.sha256, None, after.tiles, after.sets, (), ()), (page,)),
                              (None, ())):
            event = event or judging.judge(model, after)
            model = apply(model, event)
            records.append(game, event, photos=photos, state=model.state)
    with sqlite3.connect(db) as raw:
        raw.execute("INSERT INTO photos VALUES (?, ?, ?, ?, ?, ?)",
                    (sha256_bytes(UNNAMED_PAGE), game, "text/html", 1, 1, UNNAMED_PAGE))
    return db, {"jpeg": real.sha256, "named page": page.sha256, "unnamed page": sha256_bytes(UNNAMED_PAGE)}


def assert_guarded(response) -> None:
    assert response.headers.get("x-content-type-options") == "nosniff", response.headers
    policy = response.headers.get("content-security-policy", "")
    directives = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}
    scripts = directives.get("script-src", directives.get("default-src"))
    assert scripts and "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, policy
    assert scripts in (["'self'"], ["'none'"]) or "sandbox" in directives, policy


def test_every_response_of_the_records_pages_is_guarded(records_file):
    db, shas = records_file
    client = TestClient(create_app(db))
    for path in ["/", "/games/1", "/games/1/replay", "/api/games", "/api/games/1", "/static/live.js",
                 "/static/style.css", "/table", "/referee", "/no-such-page", f"/photos/{shas['jpeg']}",
                 f"/photos/{shas['named page']}", "/photos/not-a-sha", "/games/7", "/api/games/7"]:
        response = client.get(path)
        assert response.status_code < 500, (path, response.status_code)
        assert_guarded(response)
    assert_guarded(client.post("/api/referee/pause", json={}))


def test_every_response_of_the_club_board_is_guarded(records_file):
    db, _ = records_file
    with TestClient(create_club_app(str(db))) as client:
        for path in ["/", "/api/tables", "/api/events", "/static/club.js", "/nothing", "/x" * 3000]:
            response = client.get(path)
            assert response.status_code < 500, (path, response.status_code)
            assert_guarded(response)


def test_no_template_holds_an_inline_script_or_event_handler():
    inline_script = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I)
    handler = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
    url_script = re.compile(r"javascript:", re.I)
    templates = [p for folder in TEMPLATE_FOLDERS for p in folder.rglob("*.html")]
    assert len(templates) > 10
    for path in templates:
        text = path.read_text(encoding="utf-8")
        for pattern in (inline_script, handler, url_script):
            found = pattern.search(text)
            assert found is None, f"{path.relative_to(ROOT)}: {found.group(0)!r}"


def test_a_photo_is_served_only_as_the_image_its_bytes_are(records_file):
    db, shas = records_file
    client = TestClient(create_app(db))
    real = client.get(f"/photos/{shas['jpeg']}")
    assert real.status_code == 200 and real.headers["content-type"] == "image/jpeg"
    assert real.content.startswith(b"\xff\xd8\xff")
    for which in ("named page", "unnamed page"):
        served = client.get(f"/photos/{shas[which]}")
        assert served.status_code == 200 and served.headers["content-type"] == "application/octet-stream", which
        assert served.headers["content-disposition"].startswith("attachment"), which
        assert "sandbox" in served.headers["content-security-policy"]
        assert_guarded(served)


@pytest.mark.parametrize("path", OUT_OF_RANGE, ids=lambda p: f"{p[:30]}...{len(p)}")
def test_ids_out_of_range_answer_4xx(records_file, path):
    db, _ = records_file
    client = TestClient(create_app(db), raise_server_exceptions=False)
    response = client.get(path)
    assert 400 <= response.status_code < 500, (path, response.status_code, response.text[:200])
    assert_guarded(response)


def test_an_oversized_address_answers_414(records_file):
    db, _ = records_file
    client = TestClient(create_app(db), raise_server_exceptions=False)
    for path in ["/games/1/" + "x" * 5000, "/api/games?" + "q=1&" * 2000, "/static/" + "a" * 3000]:
        response = client.get(path)
        assert response.status_code == 414, (path[:40], response.status_code)
        assert_guarded(response)


def test_a_nested_or_oversized_referee_body_answers_4xx_and_records_nothing(records_file):
    db, _ = records_file
    with Records(db, create=False) as records:
        count = len(records.events(1))
    client = TestClient(create_app(db, LiveTable("table", db), RefereeDesk(), token="s3cret"),
                        raise_server_exceptions=False)
    good = {"Authorization": "Bearer s3cret", "Content-Type": "application/json"}
    for body, status in (("[" * 100_000, 400), ("[" * 100_000 + "]" * 100_000, 400), ('{"a":' * 50_000, 400),
                         (b"\xff\xfe", 400), ("1" * 5000, 400), ('{"referee": "' + "x" * 300_000 + '"}', 413)):
        response = client.post("/api/referee/override", content=body, headers=with_nonce(client, good))
        assert response.status_code == status, (str(body)[:20], response.status_code, response.text[:200])
        assert_guarded(response)
    with Records(db, create=False) as records:
        assert len(records.events(1)) == count


def raw_status(url: str, path: str) -> int:
    """The status of a GET sent as bytes on a socket (an address longer than an HTTP client sends)."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while b"\r\n" not in answer and (chunk := connection.recv(4096)):
            answer += chunk
    return int(answer.split(b" ", 2)[1])


def test_serve_answers_hostile_requests_without_a_traceback(records_file, tmp_path):
    db, shas = records_file
    serve = Tileref("serve", "--db", str(db), "--web", "127.0.0.1:0")
    try:
        url = serve.expect(re.compile(r"at (http://[0-9.:]+)/"), 60).group(1)
        with httpx.Client(base_url=url, timeout=10) as client:
            for path in OUT_OF_RANGE:
                assert 400 <= client.get(path).status_code < 500, path[:40]
            assert client.get("/games/1/" + "x" * 5000).status_code in (400, 414)
            assert raw_status(url, "/games/1/" + "x" * 100_000) in (400, 414, 431)
            page = client.get(f"/photos/{shas['unnamed page']}")
            assert page.headers["content-type"] == "application/octet-stream" and page.content == UNNAMED_PAGE
            assert client.get("/").status_code == 200
    finally:
        serve.kill()
    assert "Traceback" not in serve.stderr() and "Error" not in serve.stderr(), serve.stderr()


def test_the_live_table_answers_a_nested_referee_body_400_without_a_traceback(tmp_path):
    demo = Tileref("demo", "--web", "127.0.0.1:0", "--pace", "3", "--out", str(tmp_path / "demo"))
    try:
        url = demo.expect(URL, 60).group(1)
        auth = {"Authorization": f"Bearer {demo.expect(TOKEN, 10).group(1)}", "Content-Type": "application/json"}
        with httpx.Client(base_url=url, timeout=10) as client:
            answer = client.post("/api/referee/override", content="[" * 100_000, headers=with_nonce(client, auth))
            assert answer.status_code == 400, answer.text[:200]
            assert_guarded(answer)
            for path in OUT_OF_RANGE[:3]:
                assert 400 <= client.get(path).status_code < 500, path[:40]
            assert_guarded(client.get("/referee"))
    finally:
        demo.kill()
    assert "Traceback" not in demo.stderr(), demo.stderr()


def test_chromium_never_runs_a_page_stored_as_a_photo(records_file, browser):
    db, shas = records_file
    serve = Tileref("serve", "--db", str(db), "--web", "127.0.0.1:0")
    try:
        url = serve.expect(re.compile(r"at (http://[0-9.:]+)/"), 60).group(1)
        browser.get(f"{url}/games/1")
        assert browser.title != "pwned"
        for which in ("named page", "unnamed page"):
            browser.get(f"{url}/photos/{shas[which]}")
            time.sleep(0.5)
            assert browser.title != "pwned" and "pwned" not in browser.execute_script(
                "return document.documentElement ? document.documentElement.outerHTML : ''"), which
        browser.get(f"{url}/photos/{shas['jpeg']}")
        wait_until(lambda: browser.execute_script("return document.images.length && document.images[0].complete"
                                                  " && document.images[0].naturalWidth"), 10, what="the photo")
        assert browser.execute_script("return document.images[0].naturalWidth") == 64
    finally:
        serve.kill()


def test_a_signed_game_its_machine_cannot_fold_answers_400_on_every_page(tmp_path, capsys):
    """A game consistently hashed and signed whose events break the state table (a forger's): every
    page and API answer names why it cannot be shown, nothing goes to the console."""
    db = tmp_path / "broken.sqlite"
    first = judging.game_created("classic", ("Ann", "Ben"))
    with Records(db) as records:
        game = records.start_game(first)
        for event in (StartOrderDrawn((), "Ann", None), Dealt(1), TurnStarted(1, "Ann", 60, None),
                      TurnEnded(1, "button", "1", 9), TurnStarted(2, "Ben", 60, None)):
            records.append(game, event)
        assert records.verify(game).ok
    client = TestClient(create_app(db), raise_server_exceptions=False)
    capsys.readouterr()
    for path in ["/games/1", "/games/1/replay", "/api/games/1", "/api/games/1/replay"]:
        response = client.get(path)
        assert response.status_code == 400 and "cannot happen" in response.text, (path, response.status_code)
        assert_guarded(response)
    for path in ["/games/1/turns/1", "/api/games/1/turns/1"]:  # turn 1 itself folds
        assert client.get(path).status_code in (200, 400), path
    assert capsys.readouterr().err == ""
