"""No internal name reaches a reader: every template of the project (the live pages and their
regions, the club board, the audit pages, the highlights reel, the printed standings) and every
message of the catalogues in every language is walked for the names the code uses inside: a
game's states ("turn-running", "seating"), timer incidents ("restarted-after-resume"), event kinds,
rules broken, clock facts, highlights... every value of every enum of the controller that is
written with a hyphen. A template must not show one as literal text, and must not print a field
holding one (a state, a phase, an outcome, an event's kind, a rule, a clock fact) without putting
it into words first (`t(...)`, `maybe(...)`, `state_words(...)`)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import controller
from controller.game.machine import State
from controller.messages import LANGUAGES, catalogue
from tests.internal_names import INTERNAL, INTERNAL_NAME

ROOT = Path(controller.__file__).parent
TEMPLATE_FOLDERS = ("web/templates", "records/reports/templates", "tournament/templates")
TEMPLATES = sorted(p for folder in TEMPLATE_FOLDERS for p in (ROOT / folder).rglob("*.html"))
# fields whose values are names the code uses (enum values), printed only through words
NAMED_FIELDS = ("state", "phase", "outcome", "kind", "what", "rule", "cause", "incident", "purpose",
                "ending", "how", "end")
# fields of these names that hold words already, made for the reader where they are set
WORDS_ALREADY = {
    ("regions/prompt.html", "now.phase"): "prompts.prompt_of: the phase's words from the catalogue",
    ("club.html", "e.state"): "club_events: 'final standings' or the round's stage and results, in words",
    ("standings.html", "state"): "printing.pages.standings_html: the event's progress, in words",
}


def test_the_walk_knows_the_names_it_looks_for():
    assert {"turn-running", "restarted-after-resume", "invalid-set", "turn-started", "flag-fell"} <= set(INTERNAL)
    assert len(TEMPLATES) >= 30 and any(p.name == "standings.html" for p in TEMPLATES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_message_of_the_catalogue_is_an_internal_name(language):
    words = catalogue(language)
    states = {s.value for s in State}
    forms = [(key, text) for key, text in words.messages.items()]
    forms += [(f"{key}[{category}]", text) for key, table in words.plurals.items() for category, text in table.items()]
    named = [f"{key}: {text!r}" for key, text in forms if INTERNAL_NAME.search(text) or text.strip() in states]
    assert not named, "\n".join(named)


def _shown(source: str) -> tuple[str, list[str]]:
    """A template's literal text as a reader sees it (tags, scripts, styles and Jinja statements and
    comments taken out) and the expressions it prints as text (not inside a tag's attributes)."""
    source = re.sub(r"\{#.*?#\}", "", source, flags=re.S)
    source = re.sub(r"\{%.*?%\}", "", source, flags=re.S)
    printed: list[str] = []

    def mark(match: re.Match) -> str:
        printed.append(match.group(1).strip())
        return f"\x00{len(printed) - 1}\x00"

    source = re.sub(r"\{\{(.*?)\}\}", mark, source, flags=re.S)
    text = re.sub(r"<(script|style)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>", " ", source, flags=re.S)
    shown = [printed[int(i)] for i in re.findall(r"\x00(\d+)\x00", text)]
    return re.sub(r"\x00\d+\x00", " ", text), shown


def _raw_field(expression: str) -> str | None:
    """The field an expression prints as it is: `g.state`, `e.kind or ""`; None when it is put into
    words first (a call) or names no such field."""
    head = re.split(r"\s+(?:or|if)\s+|\|", expression, maxsplit=1)[0].strip()
    if "(" in head:
        return None
    last = head.rsplit(".", 1)[-1]
    return head if last in NAMED_FIELDS and re.fullmatch(r"[\w.]+", head) else None


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_template_shows_an_internal_name(template):
    text, printed = _shown(template.read_text(encoding="utf-8"))
    literal = [m.group(1) for m in INTERNAL_NAME.finditer(text)]
    assert not literal, f"{template.name} shows {literal} as text"
    name = template.relative_to(next(ROOT / f for f in TEMPLATE_FOLDERS if template.is_relative_to(ROOT / f)))
    raw = [e for e in map(_raw_field, printed) if e and (name.as_posix(), e) not in WORDS_ALREADY]
    assert not raw, f"{name} prints {raw} as they are, not in words"


def test_the_walk_finds_a_state_printed_as_it_is():
    text, printed = _shown('<td class="{{ g.state }}">{{ g.state }}</td><td>{{ maybe("phase." ~ g.state, "") }}'
                           '</td><p>turn-running</p>{{ e.kind or "" }}')
    assert [e for e in map(_raw_field, printed) if e] == ["g.state", "e.kind"]
    assert INTERNAL_NAME.findall(text) == ["turn-running"]


def test_the_audit_s_event_rows_say_incidents_rules_and_outcomes_in_words():
    from controller.game.events import Incident, Override, TimerIncident, VerdictOverridden
    from controller.records.reports.words import event_words

    shown = [event_words(TimerIncident(incident, "turn 2")) for incident in Incident]
    shown.append(event_words(VerdictOverridden(3, "Ben", Override.LEGAL, "Rita", "the tile was there")))
    named = [text for text in shown if INTERNAL_NAME.search(text)]
    assert not named, named


def test_the_history_and_the_audit_say_a_game_in_words(tmp_path):
    """`tileref history` and the audit's event rows of a game with a timer incident, a penalty (a set
    that is not valid) and a held answer: every line in words."""
    from controller.game import judging
    from controller.game.events import Dealt, Incident, StartOrderDrawn, TableRead, TimerIncident, TurnEnded, TurnStarted
    from controller.game.journal import GameJournal
    from controller.records import Records
    from controller.records.reports.words import event_words
    from controller.records.reports.views import replay_lines
    from table_helpers import table

    with Records(tmp_path / "club.sqlite") as records:
        journal = GameJournal.start(records, judging.game_created("classic", ("Ann", "Ben")))
        laid = table(("R1", "R2"))
        for event in (StartOrderDrawn((), "Ann", None), Dealt(1), TurnStarted(1, "Ann", 60, None),
                      TimerIncident(Incident.RESTARTED_AFTER_RESUME, "turn 1"), TurnEnded(1, "expired", None, 0),
                      TableRead("turn", None, None, laid.tiles, laid.sets, (), ())):
            journal.record(event)
        journal.record(judging.judge(journal.model, laid))
        history = "\n".join(line for block in replay_lines(records, journal.game_id) for line in block)
        rows = [event_words(e) for e in records.events(journal.game_id)]
    assert "the countdown starts again after a restart" in history and "not a valid set" in history.lower()
    named = [line for line in history.splitlines() + rows if INTERNAL_NAME.search(line)]
    assert not named, named
