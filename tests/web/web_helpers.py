"""Helpers of the web tests: a `tileref` command as its own process, Chromium through Selenium."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from process_lines import LineReader

ROOT = Path(__file__).resolve().parents[2]
# every page the browser tests open, as PNG: under $TILEREF_TEST_ARTIFACTS when set, else a temp folder
SCREENSHOTS = Path(os.environ.get("TILEREF_TEST_ARTIFACTS") or Path(tempfile.gettempdir()) / "tileref-test-artifacts") / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
URL = re.compile(r"web: (http://[0-9.:\[\]a-z]+)/ ")
TOKEN = re.compile(r"referee token (\S+)")


def have_chromium() -> bool:
    return Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists() or bool(shutil.which("chromium"))


class Tileref:
    """`python -m controller.cli ARGS` with its stdout read line by line on a thread."""

    def __init__(self, *args: str, stdin=subprocess.DEVNULL):
        self.process = subprocess.Popen([sys.executable, "-m", "controller.cli", *args], stdin=stdin,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
                                        cwd=ROOT)
        self.reader = LineReader(self.process)
        self.seen = self.reader.seen

    def expect(self, pattern: str | re.Pattern, timeout: float = 60.0) -> re.Match:
        pattern = re.compile(pattern) if isinstance(pattern, str) else pattern
        for line in self.seen:
            if (found := pattern.search(line)):
                return found
        found = self.reader.next_matching(pattern.search, timeout)
        if found is None:
            raise AssertionError(f"no line matching {pattern.pattern!r}; saw {self.seen[-30:]}; "
                                 f"stderr {self.stderr()}")
        return found

    def stderr(self) -> str:
        return self.reader.stderr()

    def interrupt(self, timeout: float = 20.0) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


def chromium(width: int = 1400, height: int = 1000):
    """Debian's Chromium, headless, through Debian's chromedriver: nothing is ever downloaded."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="tileref-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--disable-renderer-backgrounding",
                 "--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows",
                 f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    driver.tileref_profile = profile
    return driver


def close_chromium(driver) -> None:
    try:
        driver.quit()
    finally:
        shutil.rmtree(getattr(driver, "tileref_profile", ""), ignore_errors=True)


def screenshot(driver, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 1000, f"empty screenshot {path}"
    return path


def wait_until(predicate, timeout: float = 30.0, every: float = 0.05, what: str = "the condition"):
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = predicate()
        except (StaleElementReferenceException, NoSuchElementException):  # a live region was swapped meanwhile
            value = None
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def demo_env() -> dict:
    return dict(os.environ)


def play_on_a_rendered_table(folder: Path, tiles=("K10", "K11", "K12")) -> tuple[Tileref, Path]:
    """`tileref play --web` for Ann and Ben on a rendered table of `tiles` (a folder camera), the
    emulated box pressed by keys typed to it; the process and its database."""
    import cv2

    from controller.demo.scene import Scene, SceneLayout, SceneRenderer

    frames = folder / "frames"
    frames.mkdir()
    renderer = SceneRenderer(SceneLayout(seed=5))
    cv2.imwrite(str(frames / "0001.png"), renderer.render(Scene.of([{"tiles": list(tiles), "at": [0, 0]}])))
    db = folder / "club.sqlite"
    play = Tileref("play", "--camera", str(frames), "--timer", "emulator", "--variant", "classic",
                   "--players", "Ann,Ben", "--starter", "Ann", "--db", str(db), "--web", "127.0.0.1:0",
                   stdin=subprocess.PIPE)
    return play, db


def events_of(db) -> list:
    """The latest game's events in `db` (another process writes it); [] until it is written."""
    from controller.records import Records

    try:
        with Records(db, create=False, read_only=True) as records:
            return records.events(records.latest_game())
    except Exception:  # not written yet
        return []


def with_nonce(client, headers: dict[str, str], base: str = "") -> dict[str, str]:
    """`headers` and a fresh one-time nonce of the referee's actions, asked for with the token in them
    (`client`: a TestClient, an httpx client, or the httpx module with `base` the server's address)."""
    answer = client.get(f"{base}/api/referee/nonce", headers=headers)
    assert answer.status_code == 200, answer.text
    return {**headers, "X-Tileref-Nonce": answer.json()["nonce"]}


def dealt_game(db, players=("Ann", "Ben")) -> int:
    """A classic game of `players` recorded in `db` up to the deal (the first player starts): its id."""
    from controller.game import judging
    from controller.game.events import Dealt, StartOrderDrawn
    from controller.game.machine import apply, fold
    from controller.records import Records

    first = judging.game_created("classic", players)
    with Records(db) as records:
        game = records.start_game(first)
        model = fold([first])
        for event in (StartOrderDrawn((), players[0], None), Dealt(1)):
            model = apply(model, event)
            records.append(game, event, state=model.state)
    return game
