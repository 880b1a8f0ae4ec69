"""One definition of "the same set": the rules core's `same_set_key` / `set_changes`.

A run laid again the other way round, or a group in another order, is the same set: the restore
check (`judging.same_table`), the static audit page, the turn data and the web audit page all say
so, and none shows it as "gone" and "new".
"""
from __future__ import annotations

import re

from starlette.testclient import TestClient

from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TableRead, TurnEnded, TurnStarted
from controller.game.machine import apply, fold
from controller.records import Records
from controller.records.reports.turn_data import audit_data
from controller.records.reports.views import audit_html
from controller.rules.melds import MeldKind, same_set_key, set_changes
from controller.rules.tiles import parse_tiles
from controller.web.app import create_app
from table_helpers import table

PLAYERS = ("Ann", "Ben")
ANNS_RUN = ("K10", "K11", "K12", "K13")
BENS_RUN = ("O10", "O11", "O12", "O13")


def tiles(text: str):
    return parse_tiles(text.split())


def test_the_rules_core_says_a_reversed_run_or_reordered_group_is_the_same_set():
    assert same_set_key(tiles("R5 R6 R7")) == same_set_key(tiles("R7 R6 R5"))
    assert same_set_key(tiles("J R6 R7")) == same_set_key(tiles("R7 R6 J"))
    assert same_set_key(tiles("K9 B9 O9")) == same_set_key(tiles("O9 K9 B9"))
    assert same_set_key(tiles("R5 R6 R7")) != same_set_key(tiles("R5 R6 R7 R8"))
    # the rule set's reading decides: a run read one way only is not the same laid backwards
    assert same_set_key(tiles("R7 R6 R5"), descending_runs=False) != same_set_key(tiles("R5 R6 R7"), descending_runs=False)
    # an invalid set is only itself as it lies
    assert same_set_key(tiles("R5 B9 K1")) != same_set_key(tiles("K1 B9 R5"))
    assert same_set_key(tiles("R5 J J")) == same_set_key(tiles("R5 J J"), ambiguous_kind=MeldKind.RUN)


def test_set_changes_counts_each_set_as_often_as_it_lies():
    before = [tiles("R5 R6 R7"), tiles("K9 B9 O9"), tiles("R5 R6 R7")]
    after = [tiles("O9 B9 K9"), tiles("R7 R6 R5"), tiles("B1 B2 B3")]
    changes = set_changes(before, after)
    assert changes.gone == (0,) or changes.gone == (2,)
    assert changes.new == (2,) and not changes.same
    assert set_changes(before, [before[2], before[1], tuple(reversed(before[0]))]).same


def test_the_restore_check_takes_a_reversed_run_as_the_same_table():
    assert judging.same_table((ANNS_RUN,), (tuple(reversed(ANNS_RUN)),)) == (True, ())
    same, differences = judging.same_table((ANNS_RUN, ("B1", "B2")), (tuple(reversed(ANNS_RUN)),))
    assert not same and differences == ("missing: B1 B2",)


def reversed_run_game(db, players=PLAYERS) -> int:
    """Ann opens with a run; Ben lays it again reversed and opens with his own beside it."""
    first = judging.game_created("classic", players)
    with Records(db) as records:
        game = records.new_game("classic", players)
        model = fold([])

        def add(event):
            nonlocal model
            model = apply(model, event)
            records.append(game, event)

        add(first)
        add(StartOrderDrawn((), players[0], None))
        add(Dealt(1))
        for turn, laid in ((1, (ANNS_RUN,)), (2, (tuple(reversed(ANNS_RUN)), BENS_RUN))):
            add(TurnStarted(turn, players[turn - 1], 60, None))
            add(TurnEnded(turn, "button", str(turn), 10))
            after = table(*laid)
            add(TableRead("turn", None, None, after.tiles, after.sets, (), ()))
            verdict = judging.judge(model, after)
            assert verdict.outcome == "legal" and verdict.played == (laid[-1] if turn == 2 else ANNS_RUN)
            add(verdict)
        add(TurnStarted(3, players[0], 60, None))
    return game


def test_the_audit_page_turn_data_and_web_page_do_not_show_a_reversed_run_as_gone_and_new(tmp_path):
    db = tmp_path / "r.sqlite"
    game = reversed_run_game(db)
    with Records(db, create=False) as records:
        page = audit_html(records, game, 2)
        data = audit_data(records, game, 2)
    assert data["changes"] == {"gone": [], "new": [list(BENS_RUN)]}
    assert "set no longer on the table" not in page
    assert page.count("set new or changed") == 1
    # on the after-table, only Ben's run is marked new; Ann's run laid backwards is not
    marked_new = re.findall(r"<span class=.set new.[^>]*>([^<]*)</span>", page)
    assert marked_new == [" ".join(BENS_RUN)]
    web = TestClient(create_app(db)).get(f"/games/{game}/turns/2")
    assert web.status_code == 200
    changes = web.text[web.text.index('id="changes"'):web.text.index("</ul>", web.text.index('id="changes"'))]
    assert "no longer on the table" not in changes and changes.count("set new or changed") == 1
    assert " ".join(BENS_RUN) in changes and " ".join(reversed(ANNS_RUN)) not in changes
