"""Every word on a screen is a player's word: no state names ("turn-running", "seating"), no recorded
prefixes ("not before: B1"), no incident names ("restarted-after-resume"), and the tiles of a restore
that is not done yet drawn as tiles, like the rest of the display."""
from __future__ import annotations

import io
import re

from controller.adapters.display import ConsoleDisplay
from controller.commands.game import state_words
from controller.game import judging
from controller.game.events import GameScored, Incident, PlayerPoints, RestoreChecked, TimerIncident, TurnStarted
from controller.game.journal import GameJournal
from controller.game.machine import State
from controller.messages import LANGUAGES, catalogue, difference_words
from controller.records import Records
from controller.records.reports.words import describe_restore
from controller.web.live import LiveTable, WebDisplay, status_of

NOT_YET = ("missing: R1 R2 R3", "not before: K1 K2")
STATE_NAMES = re.compile(r"\b(?:" + "|".join(re.escape(s.value) for s in State if "-" in s.value) + r")\b")


def test_a_timer_incident_is_said_in_words_not_by_its_name():
    for language in LANGUAGES:
        live = LiveTable("table", None, language)
        WebDisplay(live).observe(status_model(), TimerIncident(Incident.RESTARTED_AFTER_RESUME, "turn 2"))
        alerts = live.regions()["alerts"]
        assert "restarted-after-resume" not in alerts
        assert catalogue(language).text("incident.restarted-after-resume") in alerts


def status_model():
    from controller.game.events import Dealt, StartOrderDrawn
    from controller.game.machine import fold

    return fold([judging.game_created("classic", ("Ann", "Ben")), StartOrderDrawn((), "Ann", None), Dealt(1),
                 TurnStarted(1, "Ann", 60, None)])


def test_a_restore_not_done_yet_draws_its_tiles_as_tiles_on_the_display():
    live = LiveTable("table", None, "en")
    live.update(("penalty",), penalty={"turn": 2, "player": "Ben", "photo": None, "to_rack": [], "table": [],
                                       "moved": 0, "draw": 3, "penalty": True, "timed_out": False, "violations": [],
                                       "unrestorable": None, "not_yet": list(NOT_YET), "points": 0})
    live.alert("alert.not-restored", "warn", differences=list(NOT_YET))
    for region in ("penalty", "alerts"):
        html = live.regions()[region]
        assert "should not be there:" in html and "missing" in html, region
        assert "K1 K2" not in html and "R1 R2 R3" not in html and "not before" not in html, region
        assert html.count('class="chip c-K"') == 2 and html.count('class="chip c-R"') == 3, region


def test_the_console_and_the_audit_say_a_restore_in_words():
    assert difference_words("not before: B1") == "should not be there: B1"
    assert difference_words("missing: R1 R2 R3") == "missing R1 R2 R3"
    check = RestoreChecked(None, None, False, NOT_YET, (), (), False)
    said = describe_restore(check)
    assert "not before" not in said and "missing: " not in said and "should not be there: K1 K2" in said


def test_the_console_says_where_the_game_stands_in_words():
    assert [state_words(s) for s in (State.SEATING, State.TURN_RUNNING, State.SCORING)] == \
        ["start draw", "playing", "scoring"]
    assert not any(STATE_NAMES.search(state_words(s)) for s in State)
    out = io.StringIO()
    ConsoleDisplay(out=out).scores(GameScored("empty-rack", "Ann", (PlayerPoints("Ann", 30), PlayerPoints("Ben", -30)),
                                              None))
    assert "empty-rack" not in out.getvalue() and "game over (a rack is empty); winner Ann" in out.getvalue()


def test_the_club_board_says_where_each_game_stands_in_words(tmp_path):
    from starlette.testclient import TestClient

    from controller.web.club import create_app

    db = tmp_path / "club.sqlite"
    with Records(db) as records:
        journal = GameJournal.start(records, judging.game_created("classic", ("Ann", "Ben")))
        assert journal.model.state is State.SEATING
    with TestClient(create_app(db)) as client:
        page = client.get("/").text
        tables = client.get("/api/tables").json()["tables"]
    assert "Start draw" in page and not STATE_NAMES.search(page.split("<script")[0].split("<tbody")[-1])
    assert ">seating<" not in page and "seating (" not in page
    assert tables[0]["state_words"] == "Start draw"


def test_an_alert_naming_tiles_draws_them_as_tiles_never_as_codes():
    """A penalty held on tiles seen nowhere, a redeal shown, a rack corrected: the display's alerts
    used to list the codes ("K10 K11 K12")."""
    for language in LANGUAGES:
        live = LiveTable("table", None, language)
        live.alert("alert.penalty-held", "warn", turn=7, player="Cat", tiles="K10 K11 R12")
        live.alert("alert.redeal-granted", "info", player="Ben", tiles="O4 O4 J")
        html = live.regions()["alerts"]
        assert "K10 K11 R12" not in html and "O4 O4 J" not in html, language
        assert html.count('class="chip c-K"') == 2 and html.count('class="chip c-R"') == 1, language
        assert html.count('class="chip c-O"') == 2 and html.count('class="chip c-J"') == 1, language
        words = catalogue(language)
        before, after = words.around("alert.penalty-held", "tiles", turn=7, player="Cat")
        assert before.strip() and before.strip() in html and "Cat" in before, language


def test_the_club_board_says_a_timer_incident_in_words(tmp_path):
    """The board's alerts said "timer: restarted-after-resume", the incident's own name."""
    from controller.game.events import Dealt, StartOrderDrawn
    from controller.records.club import ClubBoard

    db = tmp_path / "club.sqlite"
    with Records(db) as records:
        journal = GameJournal.start(records, judging.game_created("classic", ("Ann", "Ben")))
        for event in (StartOrderDrawn((), "Ann", None), Dealt(1), TurnStarted(1, "Ann", 60, None),
                      TimerIncident(Incident.DEVICE_RESET, "turn 1"),
                      TimerIncident(Incident.RESTARTED_AFTER_RESUME, "turn 1")):
            journal.record(event)
        (table,) = ClubBoard(records).tables()
    shown = " | ".join(table.alerts)
    assert catalogue("en").text("incident.restarted-after-resume") in shown, shown
    assert "restarted-after-resume" not in shown and "device-reset" not in shown, shown
    assert len([a for a in table.alerts if a.startswith("timer box")]) == 1, table.alerts  # the latest only
