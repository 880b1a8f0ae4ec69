"""The printables through Chromium's print to PDF, as `tileref tournament print` makes them: one
print per kind, read back with pypdf (pages, names in seat order); the table cards' QR codes
decoded from Chromium's own rendering of the same page (OpenCV's QR reader)."""
from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata

import pytest

from controller import cli
from controller.tournament import TournamentStore, standings

from printing_helpers import LIVE_URL, artifacts_dir, kuwana_event

pypdf = pytest.importorskip("pypdf")

def _japanese_font() -> bool:
    try:
        return bool(subprocess.run(["fc-list", ":lang=ja"], capture_output=True, text=True, timeout=30).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        return False


pytestmark = [
    pytest.mark.skipif(shutil.which("chromium") is None,
                       reason="Debian's chromium is not installed (.ci/run installs it)"),
    pytest.mark.skipif(not _japanese_font(), reason="no Japanese font for the players' names (.ci/run installs "
                       "fonts-ipafont-gothic)"),
]

EVENT = "Kuwana Open"


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """The event (finished: the standings are final) and a folder for its PDFs."""
    db = tmp_path_factory.mktemp("printing-db") / "club.sqlite"
    kuwana_event(db, EVENT, finished=True)
    with TournamentStore(db, read_only=True) as store:
        event = store.load(EVENT)
    return db, event, artifacts_dir(tmp_path_factory, "printables")


def print_pdf(printed, kind, *extra):
    db, event, folder = printed
    out = folder / f"{kind}.pdf"
    assert cli.main(["tournament", "print", kind, EVENT, "--db", str(db), "--out", str(out), *extra]) == 0
    reader = pypdf.PdfReader(out)
    pages = [" ".join(unicodedata.normalize("NFKC", page.extract_text()).split()) for page in reader.pages]
    for page in reader.pages:  # A4, as the print CSS asks
        assert (round(float(page.mediabox.width) * 25.4 / 72), round(float(page.mediabox.height) * 25.4 / 72)) == (210, 297)
    return pages


def seat_order(text: str, seats) -> list[int]:
    """Where each name starts in the text (spaces taken out, as PDF text extraction spaces CJK freely)."""
    flat = re.sub(r"\s+", "", text)
    return [flat.index(re.sub(r"\s+", "", name)) for name in seats]


def test_the_pairing_sheet_is_one_page_with_every_table_in_seat_order(printed):
    event = printed[1]
    pages = print_pdf(printed, "pairings", "--round", "1")
    assert len(pages) == 1
    first = event.round(1)
    for table in first.tables:
        found = seat_order(pages[0], table.seats)
        assert found == sorted(found), f"table {table.number} not in seat order: {table.seats}"
    assert "round 1 of 2: first round" in pages[0]


def test_a_table_card_per_table_with_its_players_in_seat_order_and_its_live_page(printed):
    db, event, folder = printed
    first = event.round(1)
    pages = print_pdf(printed, "cards", "--round", "1", "--live-url", LIVE_URL)
    assert len(pages) == len(first.tables)
    for page, table in zip(pages, first.tables):
        assert f"Table {table.number}" in page
        found = seat_order(page, table.seats)
        assert found == sorted(found)
        assert LIVE_URL.format(table=table.number) in page
        assert "japan-2017 rules" in page and "3 games at this table" in page
    # the QR codes of the same page, as Chromium draws it, read back by a QR reader
    cv2 = pytest.importorskip("cv2")
    html = folder / "cards.html"
    assert cli.main(["tournament", "print", "cards", EVENT, "--db", str(db), "--out", str(html), "--round", "1",
                     "--live-url", LIVE_URL]) == 0
    shot = folder / "cards.png"
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--user-data-dir={folder / 'profile'}", f"--screenshot={shot}", "--window-size=794,2100",
                    html.as_uri()], check=True, timeout=120, capture_output=True)
    found, texts, _, _ = cv2.QRCodeDetector().detectAndDecodeMulti(cv2.imread(str(shot)))
    assert found
    assert sorted(texts) == sorted(LIVE_URL.format(table=t.number) for t in first.tables)


def test_result_slips_two_to_a_page_each_with_its_table_and_games(printed):
    event = printed[1]
    first = event.round(1)
    pages = print_pdf(printed, "slips", "--round", "1")
    assert len(pages) == (len(first.tables) + 1) // 2
    text = " ".join(pages)
    for table in first.tables:
        at = text.index(f"table {table.number}")
        found = seat_order(text[at:], table.seats)
        assert found == sorted(found)
        assert all(f"R1-T{table.number}-G{g}" in text for g in range(1, table.games + 1))


def test_the_final_standings_in_the_order_of_the_standings(printed):
    event = printed[1]
    pages = print_pdf(printed, "standings")
    assert len(pages) == 1
    assert "final standings" in pages[0]
    overall = [row.player for row in standings(event).sections[0].rows]
    found = seat_order(pages[0], overall)
    assert found == sorted(found)
