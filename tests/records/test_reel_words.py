"""The highlights reel speaks the language asked (`tileref highlights --lang en|ja|pl`): its title, the
hash chain's label, how many turns are worth showing, each turn's heading, the highlights' names and the
photos' captions come from the catalogue's `reel` section; a reel in Polish or Japanese shows none of that
section's English words. `tileref demo --lang` writes its audit pages in the language too."""
from __future__ import annotations

import contextlib
import io
import re
import string

import pytest

from controller.cli import main
from controller.messages import catalogue
from controller.records import Records


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pokaz")
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["demo", "--quiet", "--lang", "pl", "--out", str(folder)]) == 0
    return folder


def reel(demo, lang: str) -> str:
    out = demo / f"reel-{lang}"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["highlights", "--db", str(demo / "demo.sqlite"), "--out", str(out), "--lang", lang]) == 0
    return (out / "index.html").read_text(encoding="utf-8")


def fixed_words(html: str, chain: str) -> str:
    """The reel's own words, without what the record says itself: the chain's report, the game's tags
    and each turn's line in the game notation."""
    import html as markup

    from markupsafe import escape

    html = html.replace(str(escape(chain)), " ")
    html = re.sub(r'<dl class="tags">.*?</dl>|<p class="line">.*?</p>|<(script|style)\b.*?</\1\s*>', " ", html,
                  flags=re.S)
    attributes = " ".join(re.findall(r'(?:title|alt|aria-label)="([^"]*)"', html))
    return markup.unescape(re.sub(r"<[^>]*>", " ", html)) + " " + attributes


def english_words(section: str) -> set[str]:
    words = catalogue("en")
    texts = [text for key, text in words.messages.items() if key.startswith(section + ".")]
    found = set()
    for text in texts:
        for literal, *_ in string.Formatter().parse(text):
            found |= set(re.findall(r"[A-Za-z]{3,}", literal or ""))
    return found - {"tileref", "docs", "notation", "html"}


def chain_of(demo) -> str:
    with Records(demo / "demo.sqlite", create=False, read_only=True) as records:
        return records.verify(records.game_ids()[-1]).summary()


def test_the_english_reel_says_the_sections_words(demo):
    page = reel(demo, "en")
    assert "Highlights of game" in page and "worth showing" in page and "before: the table as turn" in page


@pytest.mark.parametrize("lang", ["pl", "ja"])
def test_the_reel_in_another_language_shows_no_english_word_of_its_own(demo, lang):
    page = reel(demo, lang)
    english = english_words("reel")
    assert {"Highlights", "worth", "showing", "before", "after", "joker", "penalty"} <= english
    text = fixed_words(page, chain_of(demo))
    if lang == "pl":
        english -= {"joker"}  # Polish calls it a joker too
    left = sorted(w for w in english if re.search(rf"(?<![A-Za-z]){w}(?![A-Za-z])", text, flags=re.I))
    assert not left, f"{lang} reel: English words {left} in {text!r}"
    words = catalogue(lang)
    assert f'<html lang="{lang}">' in page and words.text("reel.heading", game=1) in page


def test_demo_writes_its_audit_pages_in_the_language_asked(demo):
    page = (demo / "audit-turn-1.html").read_text(encoding="utf-8")
    words = catalogue("pl")
    assert words.text("records.what-changed") in page and words.text("records.events-heading") in page
    assert "What changed" not in page and "Events of this turn" not in page


def test_highlights_refuses_a_language_it_does_not_speak(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["highlights", "--db", "x.sqlite", "--out", "x", "--lang", "de"])
    err = capsys.readouterr().err
    assert exit.value.code == 2 and "'de'" in err and "en, ja, pl" in err, err
