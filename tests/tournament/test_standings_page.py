"""The printable standings page: every name escaped by the template, numbers right-aligned."""
from decimal import Decimal
from html.parser import HTMLParser

from controller.tournament.model import StandingRow, Standings, StandingsSection
from controller.tournament.render import standings_html


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells, self._in_cell, self.scripts = [], None, 0

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts += 1
        if tag == "td":
            self._in_cell = [dict(attrs).get("class", ""), ""]

    def handle_data(self, data):
        if self._in_cell is not None:
            self._in_cell[1] += data

    def handle_endtag(self, tag):
        if tag == "td":
            self.cells.append(tuple(self._in_cell))
            self._in_cell = None


def test_a_hostile_name_is_shown_as_text_and_numbers_are_right_aligned():
    standings = Standings(
        event="Spring <Open> & Cup", format="kuwana", finished=False,
        sections=(StandingsSection("Overall", ("points", "club"), (
            StandingRow(1, "<script>alert(1)</script>", (Decimal("12.5"), "Łódź")),
            StandingRow(None, "Ann", (3, "Tokyo"), note="still in"),
        )),),
    )
    page = standings_html(standings)
    parsed = _Cells()
    parsed.feed(page)
    assert parsed.scripts == 0
    assert "<title>Spring &lt;Open&gt; &amp; Cup - standings in progress</title>" in page
    assert parsed.cells == [
        ("n", "1"), ("", "<script>alert(1)</script>"), ("n", "12.5"), ("", "Łódź"), ("", ""),
        ("n", "-"), ("", "Ann"), ("n", "3"), ("", "Tokyo"), ("", "still in"),
    ]
