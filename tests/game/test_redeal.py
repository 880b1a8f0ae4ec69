"""The redeal right at a real table: japan-2017, the first player shows three doubled tiles with
the arbiter button at the start of her first turn; the camera reads them, the rules core grants
the redeal, the tiles are dealt again and the same player starts."""
from __future__ import annotations

from controller.adapters.display import ConsoleDisplay
from controller.adapters.reader import VisionReader
from controller.demo.recorded_game import GameScript, RecordedTable, RecordedTimer
from controller.adapters.referee import ScriptedReferee
from controller.table import STEPS, TableDevices, TableRunner
from controller.adapters.timer import open_timer
from controller.game import judging
from controller.game.events import Dealt, RedealClaimed, TurnJudged
from controller.records import Records

MAX_STEPS = 60
SCRIPT = {
    "variant": "japan-2017", "players": ["Ann", "Ben"], "start_draw": ["K9", "K2"], "clock_rate": 30,
    "layout": {"width": 1280, "height": 720, "tile_width": 40, "seed": 21},
    "turns": [
        {"player": "Ann", "action": "redeal", "expect": "redeal", "table": [],
         "shown": ["R1", "R1", "B4", "B4", "K13", "K13"]},
        {"player": "Ann", "action": "press", "expect": "legal", "table": [{"at": [0, 0], "tiles": ["K10", "K11", "K12"]}]},
    ],
}


def test_a_redeal_claimed_with_three_doubles_is_granted_and_the_game_deals_again(tmp_path):
    script = GameScript.from_dict(SCRIPT)
    with Records(tmp_path / "redeal.sqlite") as records:
        game = records.new_game("japan-2017", script.players)
        records.append(game, judging.game_created("japan-2017", script.players))
        timer = open_timer("emulator", script.clock_rate)
        table = RecordedTable(script, timer.emulator.press)
        runner = None
        devices = TableDevices(table, RecordedTimer(timer, table, lambda: runner.model), VisionReader(),
                               ConsoleDisplay(quiet=True), ScriptedReferee())
        try:
            runner = TableRunner(records, game, devices, observer=table.observe)
            table.observe(runner.model, None)
            for _ in range(MAX_STEPS):  # a misread start draw or claim must fail the test, not hang it
                if any(isinstance(e, TurnJudged) for e in records.events(game)):
                    break
                STEPS[runner.model.state](runner)
        finally:
            timer.close()
        events = records.events(game)
    assert any(isinstance(e, TurnJudged) for e in events), [type(e).__name__ for e in events]
    claim = next(e for e in events if isinstance(e, RedealClaimed))
    assert claim.player == "Ann" and claim.granted and sorted(claim.shown) == sorted(SCRIPT["turns"][0]["shown"])
    assert [e.deal for e in events if isinstance(e, Dealt)] == [1, 2]
    verdict = next(e for e in events if isinstance(e, TurnJudged))
    assert verdict.player == "Ann" and verdict.outcome == "legal"
