"""An organiser's evening from the command line, against one real SQLite file: kuwana with 12
players and warsaw with 19 (tables of 3 and 4), one result typed wrong and amended, one player
withdrawn after round 1 and replaced, a substitute for one game, the final standings.

`print_step` prints as the organiser does: after each draw the pairing sheet and the table cards,
at the end the final standings, each with `tileref tournament print`; then the evening's pages go
through Chromium's print to PDF in one browser (one start for the whole evening keeps the run
short) and the PDFs are read back. They are kept under $TILEREF_TEST_ARTIFACTS when it is set.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import time
import unicodedata
from pathlib import Path

import pytest

from controller import cli

LIVE_URL = "http://club.local:8000/table/{table}"


class PrintStep:
    """The printing step of the evening, called where the organiser prints: the command writes each
    printable as HTML into `folder`; `to_pdf` prints them all in Chromium."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.requests: list[tuple[str, str, int | None]] = []
        self.pages: list[tuple[Path, list[str]]] = []  # each printed page and names it must show in order

    def _print(self, db: str, event: str, kind: str, round_number: int | None = None, *extra: str) -> Path:
        name = f"{event.replace(' ', '-')}-{kind}" + ("" if round_number is None else f"-{round_number}")
        out = self.folder / f"{name}.html"
        rounds = [] if round_number is None else ["--round", str(round_number)]
        assert cli.main(["tournament", "print", kind, event, "--db", db, "--out", str(out), *rounds, *extra]) == 0
        return out

    def round_drawn(self, db: str, event: str, round_number: int, seats: list[list[str]]) -> None:
        self.requests.append((event, "pairing sheet and table cards", round_number))
        self.pages.append((self._print(db, event, "pairings", round_number), seats[0]))
        self.pages.append((self._print(db, event, "cards", round_number, "--live-url", LIVE_URL), seats[-1]))

    def final_standings(self, db: str, event: str, order: list[str]) -> None:
        self.requests.append((event, "final standings", None))
        self.pages.append((self._print(db, event, "standings"), order[:3]))

    def to_pdf(self) -> None:
        """Every page of the evening through Chromium's print to PDF (A4), read back with pypdf: the
        names each page must show are there, in order."""
        pypdf = pytest.importorskip("pypdf")
        if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
            pytest.skip("Debian's chromium and chromium-driver are not installed (.ci/run installs them)")
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.print_page_options import PrintOptions

        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--user-data-dir={self.folder / 'chromium-profile'}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver")), options=options)
        try:
            for html, names in self.pages:
                driver.get(html.as_uri())
                settings = PrintOptions()
                settings.page_width, settings.page_height = 21.0, 29.7
                settings.background = True
                pdf = html.with_suffix(".pdf")
                pdf.write_bytes(base64.b64decode(_printed(driver, settings)))
                text = "".join("".join(unicodedata.normalize("NFKC", page.extract_text()).split())
                               for page in pypdf.PdfReader(pdf).pages)
                found = [text.find("".join(name.split())) for name in names]  # PDF text spaces freely
                assert -1 not in found and found == sorted(found), f"{pdf.name}: {names} not in order"
        finally:
            driver.quit()
            shutil.rmtree(self.folder / "chromium-profile", ignore_errors=True)


def _printed(driver, settings) -> str:
    """The page as a base64 PDF. Chromium's printing now and then answers "Printing failed" on a loaded
    machine, for a page it prints the next moment: once more then, and a page that cannot be printed
    still fails."""
    from selenium.common.exceptions import InvalidArgumentException

    try:
        return driver.print_page(settings)
    except InvalidArgumentException as error:
        if "Printing failed" not in str(error):
            raise
        time.sleep(1.0)
        return driver.print_page(settings)


@pytest.fixture
def print_step(tmp_path) -> PrintStep:
    base = Path(os.environ["TILEREF_TEST_ARTIFACTS"]) if os.environ.get("TILEREF_TEST_ARTIFACTS") else tmp_path
    return PrintStep(base / f"evening-{os.getpid()}-{tmp_path.name}")


class Desk:
    """The director's desk: every step a `tileref tournament` command, read back as JSON."""

    def __init__(self, db: str, event: str, capsys) -> None:
        self.db, self.event, self.capsys = db, event, capsys

    def run(self, command: str, *args) -> dict:
        self.capsys.readouterr()
        code = cli.main(["tournament", command, self.event, *map(str, args), "--db", self.db, "--json"])
        captured = self.capsys.readouterr()
        assert code == 0, f"{command} {args}: {captured.err}"
        return json.loads(captured.out)

    def draw(self, seed: int) -> dict:
        return self.run("draw", "--seed", seed, "--quiet")["round"]

    def enter(self, path: Path, results: list[dict]) -> None:
        path.write_text(json.dumps({"results": results}, ensure_ascii=False), encoding="utf-8")
        self.run("import-json", path)

    def standings(self) -> dict:
        return self.run("standings")


def seat_one_wins(round_: dict, world: bool, typo: str | None = None) -> list[dict]:
    """Every game of a drawn round: seat 1 wins; seat s at table t loses 10 * t + s. `typo`: that
    game's seat-2 score is typed 10 points short (-22 as -12)."""
    results = []
    for table in round_["tables"]:
        seats = table["seats"]
        for game in table["games"]:
            losers = {p: -(10 * table["number"] + seat) for seat, p in enumerate(seats[1:], start=2)}
            if game["game"] == typo:
                losers[seats[1]] += 10
            winner = -sum(losers.values()) if world else 100
            results.append({"game": game["game"], "winner": seats[0], "scores": {seats[0]: winner, **losers}})
    return results


def create(tmp_path, db: str, event: str, fmt: str, players: list[str], capsys) -> Desk:
    csv = tmp_path / f"{fmt}-players.csv"
    csv.write_text("name\n" + "".join(f"{p}\n" for p in players), encoding="utf-8")
    desk = Desk(db, event, capsys)
    capsys.readouterr()
    assert cli.main(["tournament", "create", event, "--format", fmt, "--players", str(csv), "--db", db]) == 0
    return desk


def club_board(db: str, event: str) -> dict:
    """What the club board (`tileref club serve`) shows of the event, over its poll."""
    from starlette.testclient import TestClient

    from controller.web.club import create_app

    with TestClient(create_app(db)) as client:
        views = {view["name"]: view for view in client.get("/api/events").json()["events"]}
    return views[event]


def rows(standings: dict, section: int = 0) -> dict[str, dict]:
    return {row["player"]: row for row in standings["sections"][section]["rows"]}


def test_kuwana_evening_with_twelve_players(tmp_path, print_step, capsys):
    db = str(tmp_path / "club.sqlite")
    desk = create(tmp_path, db, "Kuwana 12", "kuwana", [f"K{i:02}" for i in range(1, 13)], capsys)

    first = desk.draw(seed=2017)
    print_step.round_drawn(db, desk.event, 1, [t["seats"] for t in first["tables"]])
    assert [len(t["seats"]) for t in first["tables"]] == [4, 4, 4]
    t1, t2, t3 = (t["seats"] for t in first["tables"])
    desk.enter(tmp_path / "r1.json", seat_one_wins(first, world=False, typo="R1-T2-G1"))
    assert rows(desk.standings())[t2[1]]["points"] == -12 - 22 - 22  # the typo: -22 entered as -12

    amended = desk.run("amend", "R1-T2-G1", "--winner", t2[0], *[
        arg for p, s in {t2[0]: 100, t2[1]: -22, t2[2]: -23, t2[3]: -24}.items() for arg in ("--score", f"{p}={s}")],
        "--reason", "score sheet says -22, typed -12")["change"]
    assert amended["kind"] == "amend" and amended["replaces"] == "results JSON r1.json"

    leaving = t1[0]  # table 1's winner, a finalist, goes home
    desk.run("withdraw", leaving, "--reason", "went home ill")
    final = desk.draw(seed=2018)
    print_step.round_drawn(db, desk.event, 2, [t["seats"] for t in final["tables"]])
    finalists = final["tables"][0]["seats"]
    board = club_board(db, desk.event)
    assert board["round"]["number"] == 2 and board["round"]["tables"][0]["seats"] == finalists
    # table 1's next best (seat 2) takes the winner's place; the best runner-up left is table 1's seat 3
    assert sorted(finalists) == sorted([t1[1], t2[0], t3[0], t1[2]])

    stand_in = desk.run("substitute", "R2-T1-G2", "--for", t2[0], "--player", "Reserve Rie",
                        "--reason", "called away for one game")["change"]
    assert stand_in["substitute"] == "Reserve Rie"
    final_results = seat_one_wins(final, world=False)
    game_two = next(r for r in final_results if r["game"] == "R2-T1-G2")
    game_two["scores"] = {("Reserve Rie" if p == t2[0] else p): s for p, s in game_two["scores"].items()}
    game_two["winner"] = "Reserve Rie" if game_two["winner"] == t2[0] else game_two["winner"]
    desk.enter(tmp_path / "r2.json", final_results)

    table = desk.standings()
    print_step.final_standings(db, desk.event, [row["player"] for row in table["sections"][0]["rows"]])
    assert table["finished"]
    overall = rows(table)
    winner = finalists[0]
    board = club_board(db, desk.event)
    assert board["state"] == "final standings" and board["standings"]["rows"][0][1] == winner
    assert table["sections"][0]["rows"][0]["player"] == winner and "winner" in overall[winner]["note"]
    assert "Reserve Rie played R2-T1-G2 for them" in overall[t2[0]]["note"]
    assert overall[leaving]["note"].startswith("withdrew after round 1: went home ill")
    assert overall[leaving]["place"] == 5  # best of those out of the final: 300 first-round points
    assert "amended: R1-T2-G1" in overall[t2[1]]["note"]
    assert [c.split(" by ")[0] for c in table["changes"]] == [
        "R1-T2-G1 amended (it replaced a result from results JSON r1.json)",
        f"{leaving} withdrew after round 1", f"Reserve Rie plays R2-T1-G2 for {t2[0]}"]
    history = desk.run("history")["history"]
    assert [h["kind"] for h in history] == ["amend", "withdraw", "substitute"]
    assert print_step.requests == [(desk.event, "pairing sheet and table cards", 1),
                                   (desk.event, "pairing sheet and table cards", 2),
                                   (desk.event, "final standings", None)]
    print_step.to_pdf()


def test_warsaw_evening_with_nineteen_players(tmp_path, print_step, capsys):
    db = str(tmp_path / "club.sqlite")
    desk = create(tmp_path, db, "Warsaw 19", "warsaw", [f"W{i:02}" for i in range(1, 20)], capsys)

    first = desk.draw(seed=2019)
    print_step.round_drawn(db, desk.event, 1, [t["seats"] for t in first["tables"]])
    assert sorted(len(t["seats"]) for t in first["tables"]) == [3, 4, 4, 4, 4]
    desk.enter(tmp_path / "r1.json", seat_one_wins(first, world=True, typo="R1-T1-G2"))
    t1 = first["tables"][0]["seats"]
    fixed = {p: -(10 + seat) for seat, p in enumerate(t1[1:], start=2)}
    desk.run("amend", "R1-T1-G2", "--winner", t1[0], "--score", f"{t1[0]}={-sum(fixed.values())}",
             *[arg for p, s in fixed.items() for arg in ("--score", f"{p}={s}")], "--reason", "score sheet says -12, typed -2")

    leaving = first["tables"][1]["seats"][2]
    desk.run("withdraw", leaving, "--reason", "last train")
    late = desk.run("late-entry", "Late Lena", "--reason", "replaces the player who left")["change"]
    assert late["kind"] == "late-entry" and late["rounds_drawn"] == 1
    second = desk.draw(seed=2020)
    print_step.round_drawn(db, desk.event, 2, [t["seats"] for t in second["tables"]])
    seated = [p for t in second["tables"] for p in t["seats"]]
    assert leaving not in seated and "Late Lena" in seated and len(seated) == 19
    assert sorted(len(t["seats"]) for t in second["tables"]) == [3, 4, 4, 4, 4]
    desk.enter(tmp_path / "r2.json", seat_one_wins(second, world=True))

    for number, seed in ((3, 2021), (4, 2022)):
        round_ = desk.draw(seed=seed)
        print_step.round_drawn(db, desk.event, number, [t["seats"] for t in round_["tables"]])
        assert leaving not in [p for t in round_["tables"] for p in t["seats"]]
        desk.enter(tmp_path / f"r{number}.json", seat_one_wins(round_, world=True))

    table = desk.standings()
    print_step.final_standings(db, desk.event, [row["player"] for row in table["sections"][0]["rows"]])
    assert table["finished"] and len(table["sections"][0]["rows"]) == 20  # 19 entered + the late entry
    overall = rows(table)
    assert overall[leaving]["stage"] == "eliminations" and overall[leaving]["note"].startswith("withdrew after round 1")
    assert rows(table, 3)["Late Lena"]["games"] == 2  # eliminations: the late entry played round 2 only
    assert overall[t1[1]]["note"].endswith("amended: R1-T1-G2")
    assert len(print_step.requests) == 5
    print_step.to_pdf()
