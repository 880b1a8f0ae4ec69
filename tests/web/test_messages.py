"""The message catalogue of the live pages: every language holds every English key with the same
placeholders, every key the templates and the code name exists, and `--lang` picks the pages'
language on play, demo and clock (anything else exits 2 with one line)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller import cli
from controller.adapters.waiting import WaitReason
from controller.game.events import Incident
from controller.game.machine import State
from controller.messages import LANGUAGES, UnknownLanguageError, UnknownMessageError, catalogue, placeholders
from controller.rules.judge import Rule
from controller.web.live import LiveTable
from controller.web.prompts import DIFFERENCES, difference_words, prompt_of

WEB = Path(cli.__file__).parent / "web"
ENGLISH = catalogue("en")


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_holds_every_key_with_the_same_placeholders(language):
    other = catalogue(language)
    assert set(other.messages) == set(ENGLISH.messages), \
        f"missing {sorted(set(ENGLISH.messages) - set(other.messages))}, extra {sorted(set(other.messages) - set(ENGLISH.messages))}"
    for key, text in ENGLISH.messages.items():
        assert placeholders(other.messages[key]) == placeholders(text), f"{language} {key}: {other.messages[key]!r}"
        assert other.messages[key].strip(), f"{language} {key} is empty"


def test_every_key_the_pages_name_is_in_the_catalogue():
    named = set()
    for path in [*WEB.glob("templates/**/*.html"), *WEB.glob("*.py")]:
        named |= set(re.findall(r"""\bt\(\s*["']([a-z][\w.-]+)["']""", path.read_text(encoding="utf-8")))
        named |= set(re.findall(r"""["']((?:alert|answer|referee|prompt|restore)\.[a-z-]+)["']""",
                                path.read_text(encoding="utf-8")))
    named = {name for name in named if not name.endswith((".", ".html"))}  # t("colour." ~ c), file names
    assert len(named) > 40  # the scan found the pages' words
    assert not sorted(named - set(ENGLISH.messages))
    # the keys made from the game's own names: every state, rule, timer incident and wait has words
    made = ({f"phase.{s.value}" for s in State} | {f"prompt.{s.value}" for s in State}
            | {f"rule.{r.value}" for r in Rule} | {f"incident.{i.value}" for i in Incident}
            | {f"waiting.{w.name.lower().replace('_', '-')}" for w in WaitReason if w is not WaitReason.SETTLED}
            | set(DIFFERENCES.values()) | {f"colour.{c}" for c in "KBORJ"})
    assert not sorted(made - set(ENGLISH.messages))


def test_an_unknown_key_or_language_is_named():
    with pytest.raises(UnknownMessageError, match="no-such-key"):
        ENGLISH.text("no-such-key")
    with pytest.raises(UnknownLanguageError, match="'xx'"):
        catalogue("xx")


@pytest.mark.parametrize("phase", [s.value for s in State])
def test_every_state_has_a_prompt_in_plain_words_in_every_language(phase):
    state = {"phase": phase, "player": "Ben", "due": ["Ann", "Ben"], "penalty": {"player": "Ben", "draw": 3},
             "scores": {"winner": "Cat"}}
    for language in LANGUAGES:
        words = catalogue(language)
        shown = prompt_of(state, words)
        assert shown["now"] and shown["phase"]
        assert phase not in shown["now"] + shown["phase"]  # never the internal name
        assert "{" not in shown["now"]


def test_the_prompts_say_what_to_do_now():
    assert prompt_of({"phase": "turn-running", "player": "Ben"}, ENGLISH)["now"] == "Ben: lay your tiles and press"
    assert prompt_of({"phase": "dealing"}, ENGLISH)["now"] == "Deal 14 tiles each, then press the arbiter button"
    restoring = {"phase": "restoring", "penalty": {"player": "Ben", "draw": 3, "timed_out": True, "penalty": True}}
    assert prompt_of(restoring, ENGLISH)["now"] == "Time! Ben draws 3; restore the table as shown"
    paused = {"phase": "turn-running", "player": "Ben", "paused": True}
    assert prompt_of(paused, catalogue("ja"))["now"] == catalogue("ja").text("prompt.turn-paused", player="Ben")


def test_how_a_restore_differs_is_said_in_the_pages_language():
    assert difference_words("missing: R1 R2 R3", ENGLISH) == "missing R1 R2 R3"
    assert difference_words("not before: B1", catalogue("ja")) == catalogue("ja").text("restore.extra", tiles="B1")
    assert difference_words("something else", ENGLISH) == "something else"


def test_the_live_regions_speak_the_tables_language():
    live = LiveTable("table", None, "ja")
    live.update(("status",), phase="dealing", players=[{"name": "Ann", "seat": 1, "rack": 0, "current": False,
                                                        "penalty_points": 0}])
    live.alert("alert.game-over", winner="Ann")
    regions = live.regions()
    assert catalogue("ja").text("prompt.dealing") in regions["prompt"]
    assert catalogue("ja").text("alert.game-over", winner="Ann") in regions["alerts"]
    assert catalogue("ja").text("referee.nothing") in regions["actions"]


def parse(argv):
    parser, _ = cli.build_parser()
    return parser.parse_args(argv)


@pytest.mark.parametrize("argv", [
    pytest.param(["demo", "--web", "127.0.0.1:0", "--lang", "ja"], id="demo"),
    pytest.param(["play", "--camera", "c", "--timer", "emulator", "--db", "x.sqlite", "--web", ":0", "--lang", "ja"],
                 id="play"),
    pytest.param(["clock", "shogi", "--timer", "/dev/null", "--web", ":0", "--lang", "JA"], id="clock"),
])
def test_lang_picks_the_pages_language(argv):
    assert parse(argv).lang == "ja"
    assert parse([a for a in argv if a not in ("--lang", "ja", "JA")]).lang == "en"


@pytest.mark.parametrize("command", [["demo"], ["clock", "shogi", "--timer", "/dev/null"]])
def test_an_unknown_language_exits_2_with_one_line(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main([*command, "--web", ":0", "--lang", "xx"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--lang" in err and "'xx'" in err and "en, ja, pl" in err


def test_why_the_table_is_not_read_yet_is_said_and_cleared():
    from controller.adapters.waiting import WaitStatus
    from controller.web.live import WebDisplay

    live = LiveTable("table", None, "pl")
    display = WebDisplay(live)
    display.waiting(WaitStatus(WaitReason.SOMETHING_OVER_TABLE, "something over the table, left edge", 3))
    assert catalogue("pl").text("waiting.something-over-table") in live.regions(["prompt"])["prompt"]
    display.waiting(WaitStatus(WaitReason.SETTLED, "table clear", 4))
    assert 'id="waiting"' not in live.regions(["prompt"])["prompt"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_that_cannot_be_restored_is_said_in_the_pages_language(language):
    from controller.game.events import TableUnrestorable
    from controller.web.live import WebDisplay

    live = LiveTable("table", None, language)
    WebDisplay(live).unrestorable(TableUnrestorable(
        turn=6, player="Ben", photo=None, reading=None, tiles=(), sets=(), kept=(("O1", "O2", "O3"),), relay=True,
        to_offender=("B1", "B2"), to_pool=("R7",), missing=(), rack_change=2))
    words = catalogue(language)
    html = live.regions(["penalty", "prompt"])
    assert words.text("unrestorable.title") in html["penalty"] and words.text("unrestorable.relay") in html["penalty"]
    assert words.text("unrestorable.to-offender", player="Ben") in html["penalty"]
    for code in ("O1", "O2", "O3", "B1", "B2", "R7"):
        assert f'title="{code}"' in html["penalty"]  # each tile as a chip
    assert "CANNOT" not in html["penalty"]  # not the console's English line
