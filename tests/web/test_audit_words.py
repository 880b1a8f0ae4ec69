"""The audit pages speak the language asked (`tileref audit --lang`, `demo --lang`, `serve --lang`): the
static one-turn page and the web games list, game, audit and replay pages take their fixed words (headings,
column names, "before", "after", "what changed", "verdict", "rule broken", the hash chain's label) from the
catalogue's `records` section; a page in Polish or Japanese shows none of that section's English words."""
from __future__ import annotations

import re
import string

import pytest
from starlette.testclient import TestClient

from controller.cli import main
from controller.messages import catalogue
from controller.records import Records
from controller.records.reports.turns import turn_record
from controller.records.reports.views import audit_html
from controller.web.app import create_app
from game.test_same_set import reversed_run_game

PLAYERS = ("Ala", "Bożena")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    db = tmp_path_factory.mktemp("audyt") / "zapis.sqlite"
    return db, reversed_run_game(db, PLAYERS)


def visible(html: str) -> str:
    import html as markup

    text = re.sub(r"<(script|style)\b.*?</\1\s*>|<[^>]*>", " ", html, flags=re.S)
    return markup.unescape(text)


def fixed_words(html: str, said: tuple[str, ...] = ()) -> str:
    """The page's own words: its text and the words of its attributes (titles, alt texts), without what
    the records say in their own words (`said`: the hash chain's report and the rule set's description;
    the events', verdicts' and replay's lines), which are not this section's."""
    for text in said:
        html = html.replace(text, " ")
    html = re.sub(r'<td>[^<]*</td>(?=<td><code>)', "", html)  # an event's words and details
    html = re.sub(r'<(ul class="lines"|p class="verdict[^"]*"|p class="chain[^"]*"|td)(?=[\s>]).*?</(ul|p|td)>', " ", html,
                  flags=re.S)
    html = re.sub(r"<h2>[^<]*</h2>(?=\s*<p class=\"notation)", " ", html)  # a replay step's title
    html = html.replace("Home / End", " ")  # the keys, as printed on the keyboard
    attributes = " ".join(re.findall(r'(?:title|alt|aria-label)="([^"]*)"', html))
    return visible(html) + " " + attributes


def english_words(section: str) -> set[str]:
    words = catalogue("en")
    found = set()
    for key, text in words.messages.items():
        if key.startswith(section + "."):
            for literal, *_ in string.Formatter().parse(text):
                found |= set(re.findall(r"[A-Za-z]{3,}", literal or ""))
    return found - {"tileref", "docs", "notation", "html", "Home", "End", "export", "calibrate"}


def left_in(text: str, english: set[str]) -> list[str]:
    return sorted(w for w in english if re.search(rf"(?<![A-Za-z]){w}(?![A-Za-z])", text, flags=re.I))


def records_said(db, game: int) -> tuple[str, ...]:
    with Records(db, create=False) as records:
        report = records.verify(game)
        rules = turn_record(records, game, 1).before.rules if records.verdicts(game) else None
    return (report.summary(), rules.description if rules is not None else "\0")


def web_pages(db, game: int, lang: str) -> dict[str, str]:
    with TestClient(create_app(db, lang=lang)) as client:
        return {path: client.get(path).text for path in
                ("/", f"/games/{game}", f"/games/{game}/turns/1", f"/games/{game}/turns/2",
                 f"/games/{game}/replay/1", f"/games/{game}/replay/99")}


def test_the_english_pages_say_the_sections_words(played):
    db, game = played
    with Records(db, create=False) as records:
        page = audit_html(records, game, 1)
    assert "<h2>What changed</h2>" in page and "<b>Before:</b>" in page and "Events of this turn" in page
    pages = web_pages(db, game, "en")
    assert "Hash chain:" in pages[f"/games/{game}"] and "<th>verdict</th>" in pages[f"/games/{game}"]
    assert "<h2>Verdict</h2>" in pages[f"/games/{game}/turns/1"] and "forward" in pages[f"/games/{game}/replay/1"]


@pytest.mark.parametrize("lang", ["pl", "ja"])
def test_the_static_audit_page_in_another_language(played, lang):
    db, game = played
    with Records(db, create=False) as records:
        pages = [audit_html(records, game, turn, language=lang) for turn in (1, 2)]
    english = english_words("records")
    assert {"before", "after", "changed", "Verdict", "broken", "signed"} <= {w for w in english} | {
        w.lower() for w in english}
    words = catalogue(lang)
    for page in pages:
        text = fixed_words(page, records_said(db, game))
        assert not left_in(text, english), f"{lang}: English words {left_in(text, english)} in {text!r}"
        assert words.text("records.what-changed") in page and words.text("records.before") in page


@pytest.mark.parametrize("lang", ["pl", "ja"])
def test_the_web_records_pages_in_another_language(played, lang):
    db, game = played
    english = english_words("records")
    words = catalogue(lang)
    for path, page in web_pages(db, game, lang).items():
        assert f'lang="{lang}"' in page, path
        text = fixed_words(page, records_said(db, game))
        assert not left_in(text, english), f"{lang} {path}: English words {left_in(text, english)} in {text!r}"
    pages = web_pages(db, game, lang)
    assert words.text("records.col-verdict") in pages[f"/games/{game}"]
    assert words.text("records.verdict") in pages[f"/games/{game}/turns/1"]


@pytest.mark.parametrize("command", [["audit", "--db", "x.sqlite", "--turn", "1"], ["serve", "--db", "x.sqlite"],
                                     ["demo", "--out", "x"]], ids=["audit", "serve", "demo"])
def test_a_language_the_pages_do_not_speak_is_refused(command, capsys):
    with pytest.raises(SystemExit) as exit:
        main([*command, "--lang", "de"])
    err = capsys.readouterr().err
    assert exit.value.code == 2 and "'de'" in err and "en, ja, pl" in err, err


@pytest.mark.parametrize("lang", ["pl", "ja"])
def test_a_clock_games_pages_in_another_language(tmp_path, lang, capsys):
    """A `tileref clock` game's audit (web page, and `tileref audit --out`): its headings and column
    names in the language; its facts' lines, the head lines and the result stay as the console says them."""
    from clock.test_clock_audit import clock_game

    db = tmp_path / "zegar.sqlite"
    game = clock_game(db)
    with TestClient(create_app(db, lang=lang)) as client:
        web = client.get(f"/games/{game}").text
    out = tmp_path / "zegar.html"
    assert main(["audit", "--db", str(db), "--out", str(out), "--lang", lang]) == 0
    static = out.read_text(encoding="utf-8")
    english = english_words("records")
    for where, page in {"web": web, "audit --out": static}.items():
        page = re.sub(r'<p class="rules">.*?</p>|<p>[^<]*</p>|<p class="result">.*?</p>|<p id="result">.*?</p>', " ", page, flags=re.S)
        text = fixed_words(page, (records_said(db, game)[0], "clock-shogi"))  # the variant as recorded
        assert not left_in(text, english), f"{lang} {where}: English words {left_in(text, english)} in {text!r}"
    words = catalogue(lang)
    assert words.text("records.col-time-left") in web and words.text("records.col-time-left") in static
    assert words.text("records.clock-heading", game=game) in static



def penalty_game(db) -> int:
    """Ala's turn 1 judged a penalty for a set that is no set."""
    from controller.game import judging
    from controller.game.events import (
        BrokenRule, Dealt, StartOrderDrawn, TableRead, TurnEnded, TurnJudged, TurnStarted,
    )
    from controller.game.journal import GameJournal
    from controller.records import Reading, reading_sha
    from tests.photo_helpers import tiny_photo

    empty = {"tiles": [], "sets": [], "doubts": []}
    with Records(db) as records:
        journal = GameJournal.start(records, judging.game_created("classic", PLAYERS))
        journal.record(StartOrderDrawn((), "Ala", None))
        journal.record(Dealt(1))
        photo = tiny_photo("a set that is no set")
        reading = Reading(reading_sha(empty), photo.sha256, empty, 5.0)
        journal.record(TurnStarted(1, "Ala", 60, photo.sha256))
        journal.record(TurnEnded(1, "button", "1", 40))
        journal.record(TableRead("turn", photo.sha256, reading.sha256, (), (), (), ()), photos=(photo,),
                       readings=(reading,))
        journal.record(TurnJudged(1, "Ala", "penalty", (), (), (BrokenRule("invalid-set", "R1 R2"),), 3, -10,
                                  False, False, (), ()))
        return records.game_ids()[-1]


@pytest.mark.parametrize("lang", ["en", "pl", "ja"])
def test_the_web_audit_page_names_a_broken_rule_in_its_language(tmp_path, lang):
    """The rule broken as the catalogue names it (not the rule's code name with spaces), in the page's
    language, under the page's own heading for it."""
    db = tmp_path / "kara.sqlite"
    game = penalty_game(db)
    with TestClient(create_app(db, lang=lang)) as client:
        page = client.get(f"/games/{game}/turns/1").text
    words = catalogue(lang)
    assert words.text("rule.invalid-set") in page and words.text("records.rule-broken") in page, page
    assert "invalid set" not in page
