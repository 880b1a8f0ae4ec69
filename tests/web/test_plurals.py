"""A count on a page takes its language's plural form (Babel's CLDR rules), not a hand-made one: Polish
has three forms for whole numbers ("1 płytka", "2 płytki", "5 płytek", "22 płytki"), English two ("1 tile",
"2 tiles"), Japanese one."""
from __future__ import annotations

import pytest

from controller.messages import LANGUAGES, catalogue, placeholders, plural_categories
from controller.web.live import LiveTable


@pytest.mark.parametrize("count, words", [(1, "1 płytka"), (2, "2 płytki"), (4, "4 płytki"), (5, "5 płytek"),
                                          (12, "12 płytek"), (22, "22 płytki"), (0, "0 płytek"), (25, "25 płytek")])
def test_polish_counts_take_the_cldr_form(count, words):
    assert catalogue("pl").text("status.rack", count=count) == words


def test_english_and_japanese_counts():
    assert catalogue("en").text("status.rack", count=1) == "1 tile"
    assert catalogue("en").text("status.rack", count=14) == "14 tiles"
    assert catalogue("ja").text("status.rack", count=1) == "1枚"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_plural_message_holds_every_form_its_language_has(language):
    words = catalogue(language)
    english = catalogue("en")
    assert set(english.plurals) <= set(words.plurals)
    for key, forms in words.plurals.items():
        assert set(forms) == plural_categories(language), f"{language} {key}: {sorted(forms)}"
        for text in forms.values():
            assert placeholders(text) == placeholders(english.messages[key])


def test_the_rack_count_on_the_table_display_is_in_the_right_form():
    live = LiveTable("table", None, "pl")
    live.update(("status",), phase="turn-ready", turn=3, pool=40, players=[
        {"name": "Ann", "seat": 1, "rack": 1, "current": True, "penalty_points": 0},
        {"name": "Ben", "seat": 2, "rack": 3, "current": False, "penalty_points": 0}])
    status = live.regions()["status"]
    assert "1 płytka" in status and "3 płytki" in status and "płytek" not in status
