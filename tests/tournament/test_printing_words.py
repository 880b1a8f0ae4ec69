"""The printables in the event's language (`tileref tournament print --lang`): the pairing sheet, the
table cards, the result slips and the standings say their own words (headings, "Table 3", the rules
line, the standings' progress and the headings the formats give) from the catalogue in en/ja/pl; one
printed in Polish or Japanese shows none of the English printables' words."""
from __future__ import annotations

import re
import string

import pytest

from controller import cli
from controller.messages import catalogue
from controller.tournament import create_event, draw_next_round, standings
from controller.tournament.printing import KINDS, printable_html

from printing_helpers import LIVE_URL, kuwana_event

ENTRIES = {"kuwana": 12, "warsaw": 19, "ron-cup": 16, "health-mahjong": 8, "knockout": 6}
# the game's own name, a rule set's, a format's and a round's are data, printed as they are given
NAMES = re.compile(r"Rummikub|Mahjong|Shogi|Japan \d+|Warsaw|Classic|kuwana|warsaw|ron-cup|health-mahjong|knockout")


def english_words() -> set[str]:
    """Every word of the English printables' own messages (the catalogue's `print` section),
    placeholders left out."""
    words = catalogue("en")
    texts = [text for key, text in words.messages.items() if key.startswith("print.")]
    texts += [form for key, forms in words.plurals.items() if key.startswith("print.") for form in forms.values()]
    found = set()
    for text in texts:
        for literal, *_ in string.Formatter().parse(text):
            found |= set(re.findall(r"[A-Za-z]{3,}", literal or ""))
    return found - {"hanchan"}  # a mahjong game's own name, in every language that has no word of its own


def shown(html: str, event) -> str:
    """A printable's text as read, the event's data (names, round names, standings' cells) left out."""
    text = re.sub(r"<(style|svg)\b.*?</\1\s*>|<[^>]*>", " ", html, flags=re.S)
    data = {round_.name for round_ in event.rounds}
    for section in standings(event).sections:
        data |= {row.note for row in section.rows} | {v for row in section.rows for v in row.values
                                                      if isinstance(v, str)}
    for d in sorted((d for d in data if d), key=len, reverse=True):
        text = re.sub(rf"(?<![A-Za-z]){re.escape(d)}(?![A-Za-z])", " ", text)
    text = text.replace(LIVE_URL.split("{")[0], " ")
    return NAMES.sub(" ", text)


@pytest.mark.parametrize("lang", ["pl", "ja"])
@pytest.mark.parametrize("format_name", sorted(ENTRIES))
def test_a_printable_in_another_language_has_no_english_word_of_its_own(format_name, lang):
    event = draw_next_round(create_event("E", format_name, [f"P{i}" for i in range(ENTRIES[format_name])]), 5)
    english = english_words()
    assert {"Table", "seat", "referee", "standings", "turn", "winner", "bracket"} <= english
    words = catalogue(lang)
    for kind in KINDS:
        html = printable_html(event, kind, live_url_template=LIVE_URL, lang=lang)
        assert f'<html lang="{lang}">' in html
        text = shown(html, event)
        left = sorted(w for w in english if re.search(rf"(?<![A-Za-z]){w}(?![A-Za-z])", text))
        assert not left, f"{format_name} {kind} in {lang}: English words {left} in {text!r}"
        assert words.text({"pairings": "print.where", "cards": "print.live", "slips": "print.referee",
                           "standings": "print.place"}[kind]) in html, (kind, lang)


def test_the_english_printables_say_those_words():
    """The reference the other languages are held to: the English printables do show them."""
    event = draw_next_round(create_event("E", "kuwana", [f"P{i}" for i in range(12)]), 5)
    cards = printable_html(event, "cards", live_url_template=LIVE_URL)
    assert "Table 1" in cards and "The table live:" in cards and "s a turn" in cards
    assert "Where each player sits" in printable_html(event, "pairings")
    assert "standings after 0 results" in printable_html(event, "standings")


def test_tournament_print_takes_lang(tmp_path, capsys):
    db = tmp_path / "event.sqlite"
    kuwana_event(db, "Wiosna", finished=True)
    out = tmp_path / "standings.html"
    assert cli.main(["tournament", "print", "standings", "Wiosna", "--db", str(db), "--out", str(out),
                     "--lang", "pl"]) == 0
    page = out.read_text(encoding="utf-8")
    assert catalogue("pl").text("print.final") in page and "final standings" not in page
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:
        cli.main(["tournament", "print", "standings", "Wiosna", "--db", str(db), "--out", str(out), "--lang", "de"])
    err = capsys.readouterr().err
    assert refused.value.code == 2 and "'de'" in err and err.count("\n") == 1, err
