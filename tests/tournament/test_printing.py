"""The printables as HTML (fast, no browser): names escaped, seats in order, one QR code per table
that draws exactly the code of that table's address, and bad requests refused in one line (exit 2)."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
import segno

from controller import cli
from controller.tournament import TournamentStore, create_event, draw_next_round
from controller.tournament.printing import KINDS, LiveUrlError, live_url, printable_html, rules_line

from printing_helpers import LIVE_URL, PLAYERS, kuwana_event

EVENT = "Kuwana Open"


class _Page(HTMLParser):
    """The text of a page, its tags and attributes, and the path of every inline QR code."""

    def __init__(self):
        super().__init__()
        self.tags, self.attributes, self.text, self.qr_paths = [], [], [], []
        self._in_qr = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += [name for name, _ in attrs]
        attrs = dict(attrs)
        if tag == "svg":
            self._in_qr = attrs.get("class") == "qr"
        if tag == "path" and self._in_qr and attrs.get("stroke"):
            self.qr_paths.append(attrs["d"])

    def handle_data(self, data):
        self.text.append(data)


def parsed(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


def matrix_of_path(d: str, size: int) -> list[list[bool]]:
    """The dark modules an SVG path of horizontal strokes draws (M x y, m dx dy, h n): the code as
    printed, read back independently of the library that drew it."""
    grid = [[False] * size for _ in range(size)]
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:\s+(-?[\d.]+))?", d):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for column in range(int(x), int(x + float(a))):
                grid[int(y)][column] = True
            x += float(a)
    return grid


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    db = tmp_path_factory.mktemp("printing") / "club.sqlite"
    kuwana_event(db, EVENT, finished=False)
    with TournamentStore(db, read_only=True) as store:
        return store.load(EVENT)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("printing-cli") / "club.sqlite"
    kuwana_event(path, EVENT, finished=False)
    return path


@pytest.mark.parametrize("kind", KINDS)
def test_every_printable_shows_names_as_text_with_no_script(event, kind):
    page = parsed(printable_html(event, kind, live_url_template=LIVE_URL))
    assert "script" not in page.tags
    assert not [name for name in page.attributes if name.startswith("on")]
    text = "".join(page.text)
    assert "Ann <b>&amp;" in text  # the name as typed, not markup
    assert "@page { size: A4" in text


def test_the_pairing_sheet_lists_each_table_in_seat_order_and_where_each_player_sits(event):
    text = " ".join(" ".join(parsed(printable_html(event, "pairings")).text).split())
    for table in event.round(1).tables:
        seats = " ".join(f"{i}. {p}" for i, p in enumerate(table.seats, start=1))
        assert seats in text
        for i, player in enumerate(table.seats, start=1):
            assert f"{player}: table {table.number}, seat {i}" in text


def test_each_table_card_carries_the_qr_code_of_its_own_live_page(event):
    page = parsed(printable_html(event, "cards", live_url_template=LIVE_URL))
    tables = event.round(1).tables
    assert len(page.qr_paths) == len(tables)
    for path, table in zip(page.qr_paths, tables):
        expected = segno.make_qr(LIVE_URL.format(table=table.number), error="m")  # the cards' error level
        size = len(expected.matrix) + 8  # the quiet zone of 4 modules each side
        drawn = matrix_of_path(path, size)
        assert [row[4:-4] for row in drawn[4:-4]] == [[bool(v) for v in row] for row in expected.matrix]
        assert LIVE_URL.format(table=table.number) in "".join(page.text)


def test_the_rules_line_names_the_rule_set_and_the_games_at_the_table():
    warsaw = draw_next_round(create_event("W", "warsaw", [f"P{i}" for i in range(19)]), 3)
    sizes = {len(t.seats): rules_line(warsaw, t) for t in warsaw.rounds[0].tables}
    assert sizes[3].startswith("world rules: 40 s a turn") and "2 games at this table" in sizes[3]
    shogi = draw_next_round(create_event("S", "knockout", ["A", "B", "C", "D"]), 3)
    assert rules_line(shogi, shogi.rounds[0].tables[0]).startswith("Shogi knockout (main bracket): 1 game")


@pytest.mark.parametrize("template, complaint", [
    ("http://club.local/table", "has no {table}"),
    ("http://club.local/{tabel}", "unknown placeholder {tabel}"),
    ("club.local/{table}", "expected an http:// or https:// address"),
    ("http://club.local/{table", "(write a literal brace as"),
])
def test_a_live_address_that_is_not_one_page_per_table_is_refused(template, complaint):
    with pytest.raises(LiveUrlError, match=re.escape(complaint)):
        live_url(template, "E", 1, 1)


def test_the_event_name_in_a_live_address_is_quoted():
    assert live_url("https://x/{event}/{round}/{table}", "Kuwana Open/2026", 2, 3) == \
        "https://x/Kuwana%20Open%2F2026/2/3"


def test_html_prints_without_chromium_and_a_pdf_without_it_is_refused_in_one_line(db, tmp_path, monkeypatch,
                                                                                   capsys):
    monkeypatch.setenv("PATH", str(tmp_path))  # no chromium on it
    monkeypatch.delenv("TILEREF_CHROMIUM", raising=False)
    html = tmp_path / "pairings.html"
    assert cli.main(["tournament", "print", "pairings", EVENT, "--db", str(db), "--out", str(html)]) == 0
    assert PLAYERS[0] in html.read_text(encoding="utf-8")
    capsys.readouterr()
    pdf = tmp_path / "pairings.pdf"
    assert cli.main(["tournament", "print", "pairings", EVENT, "--db", str(db), "--out", str(pdf)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a PDF needs Chromium and none is installed" in err
    assert not pdf.exists()


@pytest.mark.parametrize("argv, complaint", [
    (["cards", "--out", "cards.pdf"], "table cards need --live-url"),
    (["pairings", "--out", "pairings.txt"], "expected a file ending in .html or .pdf"),
    (["slips", "--round", "2", "--out", "slips.html"], "round 2 has not been drawn"),
    (["cards", "--live-url", "http://x/", "--out", "cards.html"], "has no {table}"),
    (["standings", "--out", "missing/standings.html"], "does not exist"),
])
@pytest.mark.parametrize("chromium", ["as-installed", "missing"])
def test_bad_requests_exit_2_in_one_line_and_write_nothing(db, tmp_path, capsys, monkeypatch, argv, complaint, chromium):
    if chromium == "missing":  # the request's own fault is named first, whatever the machine lacks
        monkeypatch.setenv("TILEREF_CHROMIUM", str(tmp_path / "no-chromium-here"))
    kind, *rest = argv
    rest = [str(tmp_path / a) if a.endswith((".pdf", ".txt", ".html")) else a for a in rest]
    assert cli.main(["tournament", "print", kind, EVENT, "--db", str(db), *rest]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and complaint in err
    assert list(tmp_path.iterdir()) == []


ENTRIES = {"kuwana": 12, "warsaw": 19, "ron-cup": 16, "health-mahjong": 8, "knockout": 6}


@pytest.mark.parametrize("format_name", sorted(ENTRIES))
def test_every_format_prints_a_card_and_a_slip_per_table(format_name):
    from controller.tournament import FORMATS

    assert set(ENTRIES) == set(FORMATS)  # a new format is added here too
    event = draw_next_round(create_event("E", format_name, [f"P{i}" for i in range(ENTRIES[format_name])]), 5)
    tables = event.rounds[0].tables
    cards = printable_html(event, "cards", live_url_template=LIVE_URL)
    slips = printable_html(event, "slips")
    assert cards.count('<section class="page card">') == len(tables) == len(parsed(cards).qr_paths)
    assert slips.count('<section class="slip">') == len(tables)
    for table in tables:
        assert all(f"R1-T{table.number}-G{g}" in slips for g in range(1, table.games + 1))
