"""The game notation (docs/notation.md): a line a turn, derived from the signed events, read back and
checked against the record; the turns worth showing, in the notation, the JSON export, the replay
page and the `tileref highlights` reel.

The games here are recorded through the journal with verdicts from the rules core (no camera, no
timer): fast, and each turn is what a table would record. The bundled demo games' notation is
checked against its golden files in tests/game/test_end_to_end.py.
"""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cli import main
from controller.game import judging
from controller.game.events import (
    Dealt, RackRevealed, RefereeCorrection, RestoreChecked, StartOrderDrawn, TableRead, TurnEnded, TurnStarted,
)
from controller.game.journal import GameJournal
from controller.game.machine import TableState
from controller.records import Records
from controller.records.reports.moves import (
    NotationMismatchError, check_notation, game_notation_of, game_reading, notation_text,
)
from controller.records.reports.notation import (
    GameNotation, Highlight, NotationError, Restore, RestoreEnd, Result, TurnEnding, TurnLine, Verdict,
    format_notation, parse_notation,
)
from controller.records.record_file import dumps, export_record, verify_record
from controller.rules.judge import Outcome, Rule
from tests.photo_helpers import tiny_photo

PLAYERS = ("Ann", "Ben")


# ------------------------------------------------------------------------------ recorded games


def placed(melds: list[str]) -> TableState:
    """A table of sets written "R3 J R5", each set a row, tiles 40 px apart."""
    tiles, sets = [], []
    for row, meld in enumerate(melds):
        codes = meld.split()
        sets.append(tuple(range(len(tiles), len(tiles) + len(codes))))
        tiles.extend((code, 40.0 * col, 60.0 * row) for col, code in enumerate(codes))
    return TableState(tuple(tiles), tuple(sets))


class Table:
    """A game recorded turn by turn, each verdict the rules core's."""

    def __init__(self, records: Records, players=PLAYERS) -> None:
        self.journal = GameJournal.start(records, judging.game_created("classic", players))
        self.journal.record(StartOrderDrawn((), players[0], None))
        self.journal.record(Dealt(1))
        self.laid: list[str] = []
        self.turns = 0

    @property
    def game(self) -> int:
        return self.journal.game_id

    def turn(self, player: str, melds: list[str], *, left: int | None = 41, restored_after: int = 0) -> None:
        """`melds`: the whole table as the turn leaves it; `left`: seconds on the box at the press
        (None: the time ran out); `restored_after`: wrong restores before the right one."""
        self.turns += 1
        turn = self.turns
        start = tiny_photo(f"{self.game} turn {turn} start")
        self.journal.record(TurnStarted(turn, player, 60, start.sha256), photos=(start,))
        if left is None:
            self.journal.record(TurnEnded(turn, "expired", None, 0))
        else:
            self.journal.record(TurnEnded(turn, "button", "1", left))
        table = placed(melds)
        end = tiny_photo(f"{self.game} turn {turn} end")
        self.journal.record(TableRead("turn", end.sha256, None, table.tiles, table.sets, (), ()), photos=(end,))
        verdict = judging.judge(self.journal.model, table)
        self.journal.record(verdict)
        if verdict.restore_required:
            wrong = placed(self.laid + ["K1 K2 K3"])
            for attempt in range(restored_after):
                self.check_restore(wrong, f"{turn} wrong {attempt}")
            self.check_restore(placed(self.laid), f"{turn} right")
        else:
            self.laid = list(melds)

    def check_restore(self, table: TableState, label: str) -> None:
        matches, differences = judging.restore_check(self.journal.model, table)
        photo = tiny_photo(f"{self.game} restore {label}")
        self.journal.record(RestoreChecked(photo.sha256, None, matches, differences, table.tiles, table.sets, False),
                            photos=(photo,))

    def reveal(self, racks: dict[str, str]) -> None:
        for player, codes in racks.items():
            rack = tuple(codes.split())
            self.journal.record_scored(RackRevealed(player, rack, len(rack), None, None, ()))
            if player in self.journal.model.racks_to_check:  # a short rack: only the referee's word scores it
                self.journal.record_scored(RefereeCorrection(RefereeCorrection.rack_target(player), (), rack,
                                                             "the rack as laid open"))


OPEN = "K10 K11 K12"


def eventful_game(records: Records) -> int:
    """Ann opens, Ben runs out of time with an invalid set (penalty, one wrong restore), Ann lays a run
    with a joker, Ben draws, Ann frees the joker with R4 and plays it on, Ben draws, Ann lays five
    tiles and goes out (14 tiles: 3 + 3 + 3 + 5)."""
    table = Table(records)
    table.turn("Ann", [OPEN])
    table.turn("Ben", [OPEN, "B1 B2"], left=None, restored_after=1)
    table.turn("Ann", [OPEN, "R3 J R5"])
    table.turn("Ben", [OPEN, "R3 J R5"], left=52)
    table.turn("Ann", [OPEN, "R5 R4 R3", "O4 O5 J"], left=5)
    table.turn("Ben", [OPEN, "R5 R4 R3", "O4 O5 J"])
    table.turn("Ann", [OPEN, "R5 R4 R3", "O4 O5 J", "O9 O10 O11 O12 O13"])
    table.reveal({"Ben": "K5 B7"})
    return table.game


def quiet_game(records: Records) -> int:
    """Two turns and nothing to show: a three-tile opening and a draw, the game not over."""
    table = Table(records)
    table.turn("Ann", [OPEN])
    table.turn("Ben", [OPEN])
    return table.game


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    db = tmp_path_factory.mktemp("notation") / "club.sqlite"
    with Records(db) as records:
        games = {"eventful": eventful_game(records), "quiet": quiet_game(records)}
    return db, games


@pytest.fixture(scope="module")
def eventful(club):
    db, games = club
    with Records(db, create=False, read_only=True) as records:
        yield records, games["eventful"]


# ------------------------------------------------------------------------------ what the lines say


def test_each_turn_is_one_line_of_what_the_record_says(eventful):
    records, game = eventful
    text = notation_text(records, game)
    turns = [line for line in text.splitlines() if re.match(r"\d+\. ", line)]
    assert turns == [
        "1. Ann 0:19 +K10 K11 K12 | -> K10-K11-K12 | legal open",
        "2. Ben 1:00 timeout +B1 B2 | -> B1-B2 | penalty invalid-set initial-meld-under-minimum draw 3 restored 2 "
        "! {highlight: penalty, time-out}",
        "3. Ann 0:19 +R3 R5 J | -> R3-J-R5 | legal",
        "4. Ben 0:08 -- | = | draw 1",
        "5. Ann 0:55 +O4 O5 R4 | R3-J-R5 -> O4-O5-J R3-R4-R5 | legal ! {highlight: joker-freed}",
        "6. Ben 0:19 -- | = | draw 1",
        "7. Ann 0:19 +O9 O10 O11 O12 O13 | -> O9-O10-O11-O12-O13 | legal "
        "! {highlight: biggest-meld, winning-turn}",
    ]
    assert '[Rules "classic"]' in text and '[Seat1 "Ann"]' in text and '[Seat2 "Ben"]' in text
    assert text.rstrip().splitlines()[-1].startswith("Ann wins empty-rack: Ann +")


def test_a_game_with_nothing_to_show_is_unmarked_and_unfinished(club):
    db, games = club
    with Records(db, create=False, read_only=True) as records:
        text = notation_text(records, games["quiet"])
    assert "!" not in text and "highlight" not in text
    assert text.rstrip().splitlines()[-1] == "*"


def test_the_record_s_notation_passes_its_own_check(eventful):
    records, game = eventful
    recorded = records.recorded(game)
    expected = game_notation_of(records, game)
    assert check_notation(format_notation(expected), expected, game_reading(recorded)) == 7


CHANGES = [
    pytest.param("5. Ann", "5. Ben", "player", id="player"),
    pytest.param("5. Ann 0:55", "5. Ann 0:54", "time used", id="time"),
    pytest.param("+O4 O5 R4", "+O4 O5 R6", "tiles that left the rack", id="rack-tiles"),
    pytest.param("R3-J-R5 -> O4", "R3-J-R6 -> O4", "sets gone", id="sets-gone"),
    pytest.param("O4-O5-J R3-R4-R5 |", "O4-O5-J R3-R4 |", "sets new", id="sets-new"),
    pytest.param("R3-R4-R5 | legal !", "R3-R4-R5 | relieved !", "verdict", id="verdict"),
    pytest.param("legal ! {highlight: joker-freed}", "legal", "highlights", id="highlight-dropped"),
]


@pytest.mark.parametrize("old, new, field", CHANGES)
def test_a_line_that_says_something_else_is_named_with_its_turn_and_field(eventful, old, new, field):
    records, game = eventful
    expected = game_notation_of(records, game)
    text = format_notation(expected)
    changed = text.replace(old, new, 1)
    assert changed != text
    with pytest.raises(NotationMismatchError, match=rf"turn 5: {field}:"):
        check_notation(changed, expected, game_reading(records.recorded(game)))


def test_a_run_laid_the_other_way_round_and_a_group_in_another_order_are_the_same_sets(eventful):
    records, game = eventful
    expected = game_notation_of(records, game)
    text = format_notation(expected).replace("R3-J-R5 -> O4-O5-J R3-R4-R5", "R5-J-R3 -> R5-R4-R3 O4-O5-J")
    assert check_notation(text, expected, game_reading(records.recorded(game))) == 7


def test_a_missing_turn_a_changed_tag_and_a_changed_result_are_refused(eventful):
    records, game = eventful
    expected = game_notation_of(records, game)
    reading = game_reading(records.recorded(game))
    text = format_notation(expected)
    without_last = "\n".join(line for line in text.splitlines() if not line.startswith("7. ")) + "\n"
    with pytest.raises(NotationMismatchError, match="turn 7 is missing"):
        check_notation(without_last, expected, reading)
    with pytest.raises(NotationMismatchError, match="tag Seat2 says 'Bob'"):
        check_notation(text.replace('[Seat2 "Ben"]', '[Seat2 "Bob"]'), expected, reading)
    with pytest.raises(NotationMismatchError, match="the result says"):
        check_notation(text.replace("Ann wins", "Ben wins"), expected, reading)


# ------------------------------------------------------------------------------ reading text


BAD_LINES = [
    pytest.param("1. Ann 0:19 +K10 K11 K12 -> K10-K11-K12 | legal", "three parts", id="missing-bar"),
    pytest.param("1. Ann 0:7 +K10 | -> K10 | legal", "not a time", id="bad-time"),
    pytest.param("1. Ann 0:19 +K14 | -> K14 | legal", "K14", id="bad-tile"),
    pytest.param("1. Ann 0:19 +r5 | -> r5 | legal", "written 'R5'", id="lower-case-tile"),
    pytest.param("1. Ann 0:19 +R5 | R5 R6 | legal", "'->'", id="no-arrow"),
    pytest.param("1. Ann 0:19 +R5 | -> R5 | won", "not a verdict", id="bad-outcome"),
    pytest.param("1. Ann 0:19 +R5 | -> R5 | legal shiny", "'shiny'", id="bad-verdict-word"),
    pytest.param("1. Ann 0:19 +R5 | -> R5 | legal !", "never one without the other", id="mark-without-comment"),
    pytest.param("1. Ann 0:19 +R5 | -> R5 | legal ! {highlight: great}", "'great' is not a highlight",
                 id="unknown-highlight"),
    pytest.param('1. "Ann 0:19 +R5 | -> R5 | legal', "unclosed", id="unclosed-quote"),
]


@pytest.mark.parametrize("line, words", BAD_LINES)
def test_a_line_that_is_not_notation_is_refused_naming_the_line(line, words):
    text = f'[Rules "classic"]\n\n{line}\n*\n'
    with pytest.raises(NotationError, match=re.escape("game.txt line 3") + ".*" + re.escape(words)):
        parse_notation(text, "game.txt")


def test_a_text_without_its_result_line_is_refused():
    with pytest.raises(NotationError, match="no result line"):
        parse_notation("1. Ann 0:19 +R5 R6 R7 | -> R5-R6-R7 | legal\n", "game.txt")


def test_comments_and_comment_lines_are_a_reader_s_own_and_not_checked(eventful):
    records, game = eventful
    expected = game_notation_of(records, game)
    lines = format_notation(expected).splitlines()
    lines.insert(12, "; the commentators' notes")
    lines = [line + " {what a move!}" if line.startswith("3. ") else line for line in lines]
    text = "\n".join(lines) + "\n"
    assert parse_notation(text).turns[2].comments == ("what a move!",)
    assert check_notation(text, expected, game_reading(records.recorded(game))) == 7


# ------------------------------------------------------------------------------ print -> parse

CODES = [f"{c}{n}" for c in "KBOR" for n in range(1, 14)] + ["J"]
tiles = st.lists(st.sampled_from(CODES), max_size=6).map(tuple)
melds = st.lists(st.lists(st.sampled_from(CODES), min_size=1, max_size=6).map(tuple), max_size=4).map(tuple)
names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=8).filter(
    lambda name: name == name.strip())
verdicts = st.one_of(st.none(), st.builds(
    lambda outcome, opened, rules, draw, points, restore: Verdict(
        outcome, opened, tuple(dict.fromkeys(rules)), draw if outcome is not Outcome.DRAW else max(draw, 1),
        points, restore),
    st.sampled_from(Outcome), st.booleans(), st.lists(st.sampled_from(Rule), max_size=3),
    st.integers(0, 5), st.integers(-100, 100),
    st.one_of(st.none(), st.builds(Restore, st.sampled_from(RestoreEnd), st.integers(0, 9))),
))
turn_lines = st.builds(
    TurnLine, turn=st.just(1), player=names, used=st.one_of(st.none(), st.integers(0, 5999)),
    ending=st.sampled_from(TurnEnding), played=tiles, taken=tiles, gone=melds, new=melds, verdict=verdicts,
    highlights=st.lists(st.sampled_from(Highlight), max_size=3, unique=True).map(tuple),
    comments=st.lists(st.text(st.characters(blacklist_characters="{}\n\r", blacklist_categories=("Cs",)),
                              max_size=20).map(str.strip).filter(bool), max_size=2).map(tuple),
)


def _numbered(lines: list[TurnLine]) -> tuple[TurnLine, ...]:
    from dataclasses import replace

    return tuple(replace(line, turn=n) for n, line in enumerate(lines, start=1))


games = st.builds(
    GameNotation,
    tags=st.lists(st.tuples(st.from_regex(r"[A-Z][A-Za-z0-9_]{0,10}", fullmatch=True),
                            st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20)),
                  max_size=3).map(tuple),
    turns=st.lists(turn_lines, max_size=3).map(_numbered),
    result=st.one_of(st.none(), st.builds(Result, names, st.sampled_from(["empty-rack", "pool-out"]),
                                          st.lists(st.tuples(names, st.integers(-500, 500)), min_size=1,
                                                   max_size=4).map(tuple))),
)


@settings(max_examples=40, deadline=None)
@given(games)
def test_printed_notation_reads_back_as_the_same_values(game):
    again = parse_notation(format_notation(game))
    assert again.tags == game.tags
    assert again.turns == game.turns
    assert again.result == game.result


# ------------------------------------------------------------------------------ the command line


def test_export_notation_then_verify_it_against_the_database_and_the_record(club, tmp_path, capsys):
    db, games = club
    game = str(games["eventful"])
    notation, record = tmp_path / "game.txt", tmp_path / "game.json"
    assert main(["export", "--db", str(db), "--game", game, "--notation", "--out", str(notation)]) == 0
    assert main(["export", "--db", str(db), "--game", game, "--out", str(record)]) == 0
    capsys.readouterr()
    assert main(["verify", "--notation", str(notation), "--db", str(db), "--game", game]) == 0
    assert main(["verify", "--notation", str(notation), "--record", str(record)]) == 0
    assert "7 turn(s), each line as the record" in capsys.readouterr().out
    notation.write_text(notation.read_text().replace("5. Ann 0:55 +O4", "5. Ann 0:55 +O3"))
    assert main(["verify", "--notation", str(notation), "--record", str(record)]) == 3
    assert "turn 5: tiles that left the rack" in capsys.readouterr().err


@pytest.mark.parametrize("args, words", [
    pytest.param(["--notation", "{tmp}/none.txt", "--db", "{db}"], "cannot be read", id="missing-file"),
    pytest.param(["--notation", "{tmp}/game.txt"], "--record FILE or --db DB", id="no-record"),
    pytest.param(["--notation", "{tmp}/bad.txt", "--db", "{db}"], "line 1", id="not-notation"),
])
def test_verify_notation_bad_input_exits_2_with_one_line(club, tmp_path, capsys, args, words):
    db, _ = club
    (tmp_path / "game.txt").write_text("*\n")
    (tmp_path / "bad.txt").write_text("1. Ann soon | | \n*\n")
    argv = ["verify"] + [a.format(tmp=tmp_path, db=db) for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err


def test_the_json_export_marks_each_turn_s_highlights_and_still_verifies(eventful):
    records, game = eventful
    document = export_record(records, game)
    assert [turn["highlights"] for turn in document["turns"]] == [
        [], ["penalty", "time-out"], [], [], ["joker-freed"], [], ["biggest-meld", "winning-turn"]]
    assert verify_record(json.loads(dumps(document))).report.ok
    for turn in document["turns"]:  # a record exported before highlights were marked
        del turn["highlights"]
    assert verify_record(document).report.ok


def test_the_highlights_reel_names_each_highlight_and_its_photos_are_there(club, tmp_path, capsys):
    db, games = club
    out = tmp_path / "reel"
    assert main(["highlights", "--db", str(db), "--game", str(games["eventful"]), "--out", str(out)]) == 0
    assert "3 of 7 turn(s) worth showing" in capsys.readouterr().out
    page = (out / "index.html").read_text()
    marks = re.findall(r'data-highlight="([a-z-]+)"', page)
    assert sorted(marks) == sorted(["penalty", "time-out", "joker-freed", "biggest-meld", "winning-turn"])
    for turn in (2, 5, 7):
        assert f'id="turn-{turn}"' in page and f'href="#turn-{turn}"' in page
    sources = re.findall(r'<img src="([^"]+)"', page)
    assert len(sources) == 3 * 2 + 1  # before and after each, and the table put back after the penalty
    for source in sources:
        assert not source.startswith(("/", "http", "data:")) and (out / source).stat().st_size > 0
    assert "<script" not in page and " on" + "click" not in page


def test_a_game_with_no_highlights_says_so_and_writes_nothing(club, tmp_path, capsys):
    db, games = club
    out = tmp_path / "reel"
    assert main(["highlights", "--db", str(db), "--game", str(games["quiet"]), "--out", str(out)]) == 0
    assert "no turn worth showing" in capsys.readouterr().out
    assert not out.exists()


def test_the_replay_page_shows_each_turn_s_line_and_its_highlights(club):
    from starlette.testclient import TestClient

    from controller.web.app import create_app

    db, games = club
    client = TestClient(create_app(db))
    game = games["eventful"]
    steps = client.get(f"/api/games/{game}/replay").json()["steps"]
    by_turn = {step["turn"]: step for step in steps if step["turn"] is not None}
    assert by_turn[5]["notation"].startswith("5. Ann 0:55 +O4 O5 R4 | R3-J-R5 -> ")
    assert [h["name"] for h in by_turn[5]["highlights"]] == ["joker-freed"] and by_turn[4]["highlights"] == []
    step = next(s["step"] for s in steps if s["turn"] == 5)
    page = client.get(f"/games/{game}/replay/{step}").text
    assert "5. Ann 0:55 +O4 O5 R4 | R3-J-R5 -&gt; O4-O5-J R3-R4-R5 | legal" in page
    assert 'data-highlight="joker-freed"' in page
