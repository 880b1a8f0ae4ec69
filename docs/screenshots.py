"""The README's two screenshots, made by the project itself from the demo game:
`python -m docs.screenshots [--out docs/images]`.

It plays the bundled demo game (`tileref demo`) into a temporary folder, then serves its records
with the web pages and photographs them in Debian's Chromium, headless (`chromium` and
`chromium-driver`, through selenium from the `test` extra):

- `table-display.png`: the table display at the demo's penalty, as the screen beside the table shows
  it (1280x720): the photo of the table before the turn beside the plan to restore it;
- `audit-page.png`: the audit page of that turn (`tileref serve`), its top 1280x900.

Each PNG is written with the strongest compression and its colours reduced until it holds under
150 KB. Nothing is written into the repository except the two images.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
MAX_BYTES = 150_000


def play_demo(folder: Path) -> Path:
    from controller.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        if main(["demo", "--quiet", "--out", str(folder)]) != 0:
            raise SystemExit("the demo game did not finish: run `tileref demo` to see why")
    return folder / "demo.sqlite"


def display_at_penalty(db: Path):
    """The live table as the display showed it when the demo's penalty and restore plan came up;
    returns (live table, the penalty's turn)."""
    from controller.game.events import TurnJudged
    from controller.game.machine import GameModel, apply
    from controller.records import Records
    from controller.web.live import LiveTable, WebDisplay

    with Records(db, create=False, read_only=True) as records:
        events = records.events(records.latest_game())
    live = LiveTable("table", db)
    display = WebDisplay(live)
    model = GameModel()
    for event in events:
        model = apply(model, event)
        display.observe(model, event)
        if isinstance(event, TurnJudged):
            display.verdict(event)
            if event.restore_required:
                display.restore(event, None, ".jpg")
                return live, event.turn
    raise SystemExit("the demo game has no penalty turn to show")


def chromium(width: int, height: int, profile: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    return driver


def shoot(driver, url: str, ready_css: str, width: int, height: int, path: Path) -> None:
    from selenium.webdriver.common.by import By

    driver.set_window_rect(width=width, height=height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_rect(width=2 * width - inner[0], height=2 * height - inner[1])  # the page, not the window
    driver.get(url)
    deadline = time.monotonic() + 60
    while not driver.find_elements(By.CSS_SELECTOR, ready_css):
        if time.monotonic() > deadline:
            raise SystemExit(f"{url}: {ready_css} never appeared")
        time.sleep(0.1)
    time.sleep(1.0)  # photos and the countdown's first paint
    save_small(driver.get_screenshot_as_png(), path)


def save_small(png: bytes, path: Path) -> None:
    """The PNG under MAX_BYTES: best compression, then fewer colours if needed (cv2 is a reading
    dependency already)."""
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    for levels in (256, 64, 32, 16, 8):
        shown = image if levels == 256 else ((image // (256 // levels)) * (256 // levels) + 128 // levels)
        ok, data = cv2.imencode(".png", shown.astype(np.uint8), [cv2.IMWRITE_PNG_COMPRESSION, 9])
        if ok and len(data) <= MAX_BYTES:
            break
    path.write_bytes(data.tobytes())
    print(f"{path.relative_to(REPO) if path.is_relative_to(REPO) else path}: {image.shape[1]}x{image.shape[0]}, "
          f"{len(data) // 1024} KB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m docs.screenshots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "images", help="where the PNGs go")
    args = parser.parse_args(argv)
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not os.access(tool, os.X_OK):
            print(f"{tool} is missing: apt-get install chromium chromium-driver", file=sys.stderr)
            return 2
    from controller.web.app import create_app
    from controller.web.server import WebServer, parse_address

    args.out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="tileref-screenshots-"))
    os.environ["TILEREF_KEY_DIR"] = str(work / "keys")  # the demo's table key stays in the temporary folder
    try:
        db = play_demo(work / "demo")
        live, turn = display_at_penalty(db)
        server = WebServer(create_app(db, live), parse_address("127.0.0.1:0")).start()
        driver = chromium(1280, 720, work / "chromium")
        try:
            shoot(driver, f"{server.url}/table", "#restore-plan", 1280, 720, args.out / "table-display.png")
            shoot(driver, f"{server.url}/games/1/turns/{turn}", "svg", 1280, 900, args.out / "audit-page.png")
        finally:
            driver.quit()
            server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
