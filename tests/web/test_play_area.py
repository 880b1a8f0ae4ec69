"""The play area the referee marks on the referee page: the corners are checked (a bad one is
answered 400 naming the value, nothing recorded), kept in the table's area file (a restart of the
table reads in it), recorded as `play-area-set` through the game's one write path (signed, read back,
told by replay and audit, checked by `verify`), and read in from the next look."""
from __future__ import annotations

import io
import json

import pytest
from starlette.testclient import TestClient

from controller.adapters.desk import RefereeDesk
from controller.adapters.display import ConsoleDisplay
from controller.adapters.reader import VisionReader
from controller.cli import main
from controller.game import judging
from controller.game.errors import TransitionError
from controller.game.events import AreaSource, PlayAreaSet, event_from_payload
from controller.game.machine import State, apply, fold
from controller.records import Records
from controller.records.reports.words import event_words
from controller.records.reports.views import replay_lines
from controller.table import TableDevices, TableRunner
from controller.web.app import BadRequest, create_app, parse_request
from controller.adapters.desk import DeskAction
from controller.web.live import LiveTable
from desk_helpers import StillTimer, attended
from web_helpers import dealt_game, with_nonce
from vision.area import load_table_area

PLAYERS = ("Ann", "Ben")
WHO = {"referee": "Rita", "reason": "the tile box was read as tiles"}
GOOD = {"corners": [[100, 60], [1180, 80], [1150, 660], [120, 650]], "width": 1280, "height": 720}
TOKEN = {"Authorization": "Bearer s3cret"}


@pytest.mark.parametrize("body,named", [
    ({**GOOD, "corners": [[100, 60], [1180, 80], [1150, 660]]}, "four corners [x, y]"),
    ({**GOOD, "corners": [[100, 60], [1180, 80], [1150, 660], ["a", 650]]}, "'a'"),
    ({**GOOD, "corners": [[100, 60], [1300, 80], [1150, 660], [120, 650]]}, "corner 1300,80 lies outside the 1280 x 720 frame"),
    ({**GOOD, "corners": [[100, 60], [200, 60], [200, 120], [100, 120]]}, "enclose 0.7% of the 1280 x 720 frame"),
    ({**GOOD, "corners": [[100, 60], [1180, 80], [640, 100], [120, 650]]}, "do not make a convex four-sided area"),
    ({**GOOD, "width": 0}, "'width'"),
    ({**GOOD, "height": "720"}, "'720'"),
    ({"found": True, "corners": GOOD["corners"]}, "takes no 'corners'"),
], ids=["three-corners", "a-corner-not-a-number", "a-corner-outside-the-frame", "too-small", "not-convex",
        "no-frame-width", "height-as-text", "found-with-corners"])
def test_a_bad_area_is_refused_naming_the_value(body, named):
    with pytest.raises(BadRequest) as refused:
        parse_request(DeskAction.AREA, {**WHO, **body})
    assert named in str(refused.value)


def test_a_good_area_is_taken_in_any_corner_order_and_found_takes_none():
    given = [GOOD["corners"][k] for k in (2, 0, 3, 1)]
    request = parse_request(DeskAction.AREA, {**WHO, **GOOD, "corners": given})
    assert request.corners == ((100.0, 60.0), (1180.0, 80.0), (1150.0, 660.0), (120.0, 650.0))
    assert request.frame == (1280, 720)
    assert parse_request(DeskAction.AREA, {**WHO, "found": True}).corners is None


def test_the_event_round_trips_and_the_state_table_checks_it():
    event = PlayAreaSet("marked", tuple(map(tuple, GOOD["corners"])), 1280, 720, "referee Rita", "box in view")
    assert event_from_payload("play-area-set", json.loads(json.dumps(event.payload()))) == event
    assert event.how is AreaSource.MARKED
    model = fold([judging.game_created("classic", PLAYERS)])
    assert apply(model, event).state is State.SEATING
    with pytest.raises(TransitionError, match="four corners inside its frame"):
        apply(model, PlayAreaSet("marked", ((0, 0), (2000, 0), (2000, 700), (0, 700)), 1280, 720, "referee Rita", "x"))
    with pytest.raises(TransitionError, match="has no corners"):
        apply(model, PlayAreaSet("found", ((0, 0),), 0, 0, "referee Rita", "x"))


def test_the_marked_area_is_recorded_kept_for_a_restart_and_read_in_from_the_next_look(tmp_path, capsys):
    db, area_file = tmp_path / "club.sqlite", tmp_path / "play-area.json"
    game = dealt_game(db)
    desk = RefereeDesk()
    reader = VisionReader(area_settings=str(area_file))
    client = TestClient(create_app(db, LiveTable("table", db), desk, token="s3cret"))
    with Records(db, create=False) as records:
        count = len(records.events(game))
    with attended(db, game, desk, reader):
        assert client.post("/api/referee/area", json={**WHO, **GOOD}).status_code == 401
        small = client.post("/api/referee/area", json={**WHO, **GOOD, "width": 12800, "height": 7200}, headers=with_nonce(client, TOKEN))
        assert small.status_code == 400 and "of the 12800 x 7200 frame" in small.json()["error"]
        assert not area_file.exists()  # refused: nothing kept, nothing recorded
        answer = client.post("/api/referee/area", json={**WHO, **GOOD}, headers=with_nonce(client, TOKEN))
        assert answer.status_code == 200, answer.text
        assert answer.json()["recorded"][0]["kind"] == "play-area-set"
        assert "marked the play area" in answer.json()["words"]
        marked = reader.area_in_force()
    assert marked == (((100.0, 60.0), (1180.0, 80.0), (1150.0, 660.0), (120.0, 650.0)), 1280, 720)
    # the table's next look is read in it (the reader fits it to the frame's size)
    fitted = reader._fit_area(reader.area[0], reader.area[1], 640, 360)
    assert fitted.corners[1] == (590.0, 40.0) and not fitted.found
    # a restart of the table reads in the kept area, and does not record it again
    again = VisionReader(area_path=str(area_file), area_settings=str(area_file))
    assert again.area_in_force() == marked
    with Records(db) as records:
        TableRunner(records, game, TableDevices(None, StillTimer(), again, ConsoleDisplay(out=io.StringIO()),
                                                None)).area.record_area_in_force()
        events = records.events(game)
        assert records.verify(game).ok
    assert len(events) == count + 1
    recorded = events[-1]
    assert isinstance(recorded, PlayAreaSet) and recorded.by == "referee Rita" and recorded.reason == WHO["reason"]
    assert recorded.area() == ("marked", tuple(marked[0]), 1280, 720)
    with Records(db, create=False) as records:
        text = "\n".join(line for block in replay_lines(records, game) for line in block)
    said = "play area marked: corners 100,60 1180,80 1150,660 120,650 on a 1280x720 frame"
    assert said in text and event_words(recorded).startswith(said)  # replay, and the audit's rows of events
    capsys.readouterr()
    assert main(["verify", "--db", str(db)]) == 0


def test_cleared_area_is_found_again_and_a_changed_settings_file_is_recorded_when_the_table_starts(tmp_path):
    db, area_file = tmp_path / "club.sqlite", tmp_path / "play-area.json"
    game = dealt_game(db)
    desk = RefereeDesk()
    client = TestClient(create_app(db, LiveTable("table", db), desk, token="s3cret"))
    reader = VisionReader(area_settings=str(area_file))
    with attended(db, game, desk, reader):
        assert client.post("/api/referee/area", json={**WHO, **GOOD}, headers=with_nonce(client, TOKEN)).status_code == 200
        cleared = client.post("/api/referee/area", json={**WHO, "found": True}, headers=with_nonce(client, TOKEN))
        assert cleared.status_code == 200, cleared.text
    assert reader.area_in_force() is None and load_table_area(area_file) is None
    # the file is changed between two runs of the table (`tileref area --corners ... --out`)
    assert main(["area", "tests/vision/data/melds.jpg", "--corners", "10,10,900,10,900,700,10,700",
                 "--out", str(area_file)]) == 0
    with Records(db) as records:
        runner = TableRunner(records, game, TableDevices(
            None, StillTimer(), VisionReader(area_path=str(area_file), area_settings=str(area_file)),
            ConsoleDisplay(out=io.StringIO()), None))
        runner.area.record_area_in_force()
        events = [e for e in records.events(game) if isinstance(e, PlayAreaSet)]
    assert [e.how for e in events] == ["marked", "found", "marked"]
    assert events[-1].by == "table settings" and events[-1].reason == str(area_file)
