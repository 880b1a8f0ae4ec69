"""The club board speaks the club's language (`tileref club serve --lang`): its headings, "No table is
playing", a table's alerts and last verdict, the events' progress and the spectators' list come from
the catalogue in en/ja/pl; a board in Polish or Japanese shows none of the English board's words."""
from __future__ import annotations

import re
import string

import pytest
from starlette.testclient import TestClient

from controller.cli import main
from controller.game import judging
from controller.game.events import (
    CountAlert, Dealt, Incident, StartOrderDrawn, TableRead, TimerIncident, TurnEnded, TurnJudged, TurnStarted,
)
from controller.game.journal import GameJournal
from controller.messages import catalogue
from controller.records import Reading, Records, reading_sha
from controller.tournament import TournamentStore, create_event
from controller.web.club import create_app
from tests.photo_helpers import tiny_photo

EMPTY = {"tiles": [], "sets": [], "doubts": []}
EVENT = "Wiosna 桑名"
PLAYERS = ["Ala", "Bożena", "Czesław", "Dorota", "佐藤", "山田", "鈴木", "田中"]


def judged_game(records: Records) -> None:
    """A table's game: Ala's turn judged a penalty (3 tiles drawn, -10 points), a tile count that does
    not add up, a timer incident, then Bożena's turn running."""
    journal = GameJournal.start(records, judging.game_created("classic", ("Ala", "Bożena")))
    journal.record(StartOrderDrawn((), "Ala", None))
    journal.record(Dealt(1))
    photo = tiny_photo("the club board's words")
    reading = Reading(reading_sha(EMPTY), photo.sha256, EMPTY, 5.0)
    journal.record(TurnStarted(1, "Ala", 60, None))
    journal.record(TurnEnded(1, "button", "1", 40))
    journal.record(TableRead("turn", photo.sha256, reading.sha256, (), (), (), ()), photos=(photo,),
                   readings=(reading,))
    journal.record(TurnJudged(1, "Ala", "penalty", (), (), (), 3, -10, False, False, (), ()))
    journal.record(CountAlert(1, 40, 60, 5, 106, False))
    journal.record(TimerIncident(Incident.DEVICE_RESET, "turn 1"))
    journal.record(TurnStarted(2, "Bożena", 60, None))


@pytest.fixture(scope="module")
def club_db(tmp_path_factory):
    """A club database with a table's game under way and an event whose round 1 is drawn."""
    db = tmp_path_factory.mktemp("tablica") / "klub.sqlite"  # (its path shows on the board)
    with Records(db) as records:
        judged_game(records)
    with TournamentStore(db) as store:
        store.create(create_event(EVENT, "kuwana", PLAYERS))
        store.draw_next(EVENT, seed=45)
        store.create(create_event("Jesień", "kuwana", PLAYERS))  # entered, not drawn
    return db


def board(db, lang: str) -> dict[str, str]:
    """What a reader sees of the board in `lang`: the page (its text, and the words its script is given
    in data-* attributes), the table rows and events from the poll, and the spectators' list."""
    with TestClient(create_app(str(db), lang=lang)) as client:
        page = client.get("/").text
        tables = client.get("/api/tables").json()
        events = client.get("/api/events").json()
        watch = client.get("/watch").text
    script = re.search(r"<script src=[^>]*>", page).group(0)  # its words, a placeholder for the script to fill
    script_words = re.sub(r"\{\w+\}", "", " | ".join(re.findall(r'data-(?!api|events-api|every)[\w-]+="([^"]*)"',
                                                                    script)))
    # the standings' cells and a round's name are the event format's words, shown as the format gives
    # them: left out here (the board's words, and the standings' headings, are held to the language)
    data = set()
    for e in events["events"]:
        data |= {cell for row in e["standings"]["rows"] for cell in row[2:]}
        data |= {e["round"]["name"]} if e["round"] else set()
    names = {e["round"]["name"] for e in events["events"] if e["round"]}

    def words_only(text: str, given: set[str]) -> str:
        for d in sorted((d for d in given if re.search(r"[A-Za-z]", d or "")), key=len, reverse=True):
            text = re.sub(rf"(?<![A-Za-z]){re.escape(d)}(?![A-Za-z])", " ", text)
        return text

    polled = " | ".join([t["state_words"] + " | " + (t["last_verdict"] or "") + " | " + " | ".join(t["alerts"])
                         for t in tables["tables"]] + [e["state"] + " | " + e["standings"]["title"] + " | "
                                                       + " | ".join(e["standings"]["columns"])
                                                       + " | " + (e["round"] or {}).get("results", "")
                                                       for e in events["events"]])
    return {"page": words_only(visible(page), data), "script": script_words, "polled": words_only(polled, names),
            "watch": visible(watch)}


def visible(html: str) -> str:
    import html as markup

    text = re.sub(r"<(script|style)\b.*?</\1\s*>|<[^>]*>", " ", html, flags=re.S)
    return markup.unescape(text)


def english_words() -> set[str]:
    """Every word of the English board's own messages (the catalogue's `club` section, and the alerts
    and incidents it shows), placeholders left out."""
    words = catalogue("en")
    texts = [text for key, text in words.messages.items() if key.startswith("club.")]
    texts += [form for key, forms in words.plurals.items() if key.startswith("club.") for form in forms.values()]
    texts += [words.messages["alert.count"], words.messages["incident.device-reset"]]
    texts += [text for key, text in words.messages.items() if key.startswith("print.heading.")]
    found = set()
    for text in texts:
        for literal, *_ in string.Formatter().parse(text):
            found |= {w for w in re.findall(r"[A-Za-z]{3,}", literal or "")} - {"docs", "broadcast"}
    return found


def test_the_english_board_says_its_words(club_db):
    """The reference the other languages are held to: the English board does show these words."""
    shown = board(club_db, "en")
    assert "whose turn" in shown["page"] and "round 1 of 2" in shown["page"]
    assert "turn 1 Ala: penalty, draws 3 tiles, -10 points" in shown["polled"], shown["polled"]
    assert "timer box: it restarted" in shown["polled"] and "Tile count" in shown["polled"]
    assert "0 of 6 results in" in shown["polled"] and "8 players entered" in shown["polled"], shown["polled"]
    assert "No table is playing." in shown["script"] and "spectators" in shown["watch"]


@pytest.mark.parametrize("lang", ["pl", "ja"])
def test_the_board_in_another_language_shows_no_english_word_of_its_own(club_db, lang):
    shown = board(club_db, lang)
    english = english_words()
    assert {"whose", "verdict", "playing", "spectators", "results", "entered"} <= english
    for where, text in shown.items():
        left = sorted(w for w in english if re.search(rf"(?<![A-Za-z]){w}(?![A-Za-z])", text, flags=re.I))
        assert not left, f"{lang} board, {where}: English words {left} in {text!r}"
    words = catalogue(lang)
    assert words.text("club.whose-turn") in shown["page"] and words.text("club.no-table") in shown["script"]
    assert words.text("club.draws", count=3) in shown["polled"] and words.text("club.title") in shown["page"]
    assert words.text("club.in", done=0, count=6) in shown["polled"], shown["polled"]


def test_club_serve_takes_lang_and_refuses_one_it_does_not_speak(capsys):
    code = None
    try:
        main(["club", "serve", "--db", "x.sqlite", "--lang", "de"])
    except SystemExit as exit:
        code = exit.code
    err = capsys.readouterr().err
    assert code == 2 and "'de'" in err and "--lang" in err and err.count("\n") == 1, err
