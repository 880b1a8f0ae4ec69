"""The referee confirms the play area found on the clear table as a game begins (`RunnerSettings.confirm_area`,
`tileref play --confirm-area`): the table asks at once, records the confirmation with its photo, and that
clear table, whole, is what the first turn is compared with. Where the occluder net takes the bare top for
something over it (a blurred, dark top at a game's start, with nothing to compare with), the table then does
not wait 10 s and ask: the confirmed table is the net's reference, and a top that lies as it lay is clear."""
from __future__ import annotations

import numpy as np
import pytest

from controller.adapters.display import ConsoleDisplay
from controller.adapters.errors import CameraError
from controller.adapters.settle import EyesWait
from controller.adapters.waiting import SettleSettings
from controller.adapters.signals import SignalKind, TimerSignal
from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from controller.game import judging
from controller.game.events import AreaSource, PlayAreaSet, TableAccepted, TurnStarted
from controller.game.machine import State
from controller.records import Records
from controller.records.reports.views import replay_lines
from controller.records.reports.words import event_words
from controller.table import TableDevices, TableRunner
from controller.table.looking import CONFIRM_REASON
from controller.table.settings import RunnerSettings
from vision.eyes import Eyes, TimedFrame
from vision.occluders import OccluderRegion, Occluders

LAYOUT = SceneLayout(width=640, height=400, tile_width=32, seed=3)
FPS = 30.0
CORNERS = ((40.0, 30.0), (600.0, 30.0), (600.0, 370.0), (40.0, 370.0))


class ClearTable:
    """A camera on the clear table for good."""

    def __init__(self, clear: np.ndarray) -> None:
        self.clear, self.taken = clear, 0

    def read_timed(self) -> TimedFrame:
        self.taken += 1
        noise = np.random.default_rng(self.taken).normal(0, 1.5, self.clear.shape)
        return TimedFrame(np.clip(self.clear + noise, 0, 255).astype(np.uint8), self.taken / FPS)

    def read(self) -> np.ndarray:
        return self.read_timed().image

    def close(self) -> None:
        pass


class SeesTheBareTop:
    """An occluder net that takes the bare top's middle for a hand unless it has the table to compare with
    (the cells it finds lie as they lay there): a blurred dark top at a game's start."""

    def __call__(self, frame, reference):
        if reference is not None and np.abs(frame.astype(int) - reference.astype(int)).mean() < 6:
            return Occluders((), np.zeros((1, 1), np.float32))
        h, w = frame.shape[:2]
        box = (0.0, 0.3 * h, 0.5 * w, 0.7 * h)  # reaching the left edge: an arm, to the net
        return Occluders((OccluderRegion(0.1, box, ("left",), 0.5),), np.zeros((1, 1), np.float32))


class Box:
    """A timer box: the arbiter's button after `arbiter_after` polls (None: never), the deal once asked."""

    def __init__(self, arbiter_after: int | None) -> None:
        self.polls, self.arbiter_after, self.dealt = 0, arbiter_after, False
        self.shown: list[str] = []

    def wait(self, timeout):
        self.polls += 1
        if self.arbiter_after is not None and self.polls == self.arbiter_after:
            return TimerSignal(SignalKind.PRESSED, button="A", seat=None, seconds_left=None)
        if self.arbiter_after is None or self.polls > self.arbiter_after:
            if not self.dealt:
                self.dealt = True
                return TimerSignal(SignalKind.PRESSED, button="1", seat=1, seconds_left=None)
        return None

    def __getattr__(self, name):  # arm, start, show...: nothing to drive
        return lambda *args, **kwargs: None


class FindsTheArea:
    """A reader that finds the area on the clear table and reads nothing before the first turn."""

    area_file = None

    def __init__(self) -> None:
        self.kept = None

    def area_in_force(self):
        return None

    def area_read_in(self):
        return self.kept

    def mark_area(self, corners, width, height):
        self.kept = (corners, width, height)

    def find_area(self):
        self.kept = None

    def find_area_on(self, frame):
        return CORNERS, frame.shape[1], frame.shape[0]

    def keep_area(self, corners, width, height):
        self.kept = (corners, width, height)

    def read(self, frame):
        raise AssertionError("nothing is read before the first turn")


class Said(ConsoleDisplay):
    def __init__(self) -> None:
        super().__init__(quiet=True)
        self.lines: list[str] = []

    def say(self, text: str) -> None:
        self.lines.append(text)

    def waiting(self, status) -> None:
        self.lines.append(f"waiting: {status.detail}")


@pytest.fixture()
def records(tmp_path):
    records = Records(tmp_path / "confirm-area.sqlite")
    yield records
    records.close()


def table_runner(records, box, confirm: bool, said: Said, max_frames: int | None = None):
    game_id = records.new_game("classic", ("Ann", "Ben"))
    records.append(game_id, judging.game_created("classic", ("Ann", "Ben")))
    camera = ClearTable(SceneRenderer(LAYOUT).render(Scene.of([])))
    watch = EyesWait(camera, SettleSettings(max_frames=max_frames))
    watch.eyes = Eyes(watch.eyes.settings, SeesTheBareTop())
    devices = TableDevices(camera, box, FindsTheArea(), said, None, watch=watch)
    return TableRunner(records, game_id, devices, RunnerSettings(starter="Ann", confirm_area=confirm)), camera, game_id


def test_the_referee_confirms_the_area_and_the_clear_table_and_the_first_turn_begins_at_once(records):
    said = Said()
    runner, camera, game_id = table_runner(records, Box(arbiter_after=3), True, said)
    runner.run(max_steps=3)  # seating (the starter named), the deal, the first turn's wait
    assert runner.model.state is State.TURN_RUNNING
    events = records.events(game_id)
    kinds = [type(e) for e in events]
    found = next(e for e in events if isinstance(e, PlayAreaSet))
    confirmed = [e for e in events if isinstance(e, TableAccepted)]
    assert found.how is AreaSource.FOUND_ONCE and found.corners == CORNERS
    assert len(confirmed) == 1 and confirmed[0].reason == CONFIRM_REASON and confirmed[0].by == "arbiter button"
    assert records.photo(confirmed[0].photo) is not None
    assert kinds.index(PlayAreaSet) < kinds.index(TableAccepted) < kinds.index(TurnStarted)
    assert any(line.startswith("waiting: confirm the play area found on the clear table (40,30 600,30")
               for line in said.lines)
    assert "play area and clear table confirmed by the arbiter button" in said.lines
    assert event_words(confirmed[0]) == "play area and clear table confirmed as the game began, by arbiter button"
    replayed = [line for block in replay_lines(records, game_id) for line in block]
    assert "  play area and clear table confirmed as the game began, by arbiter button" in replayed
    # the turn's start is settled against the confirmed table: no 10 s of "something over the table"
    assert camera.taken < 3 * FPS
    assert not any("arbiter" in line and "accept the table as it is" in line for line in said.lines)


def test_without_the_confirmation_the_same_top_waits_and_asks_the_arbiter(records):
    said = Said()
    # nobody presses: the clear table cannot settle and is asked about after 10 s (the frames are bounded here)
    runner, camera, game_id = table_runner(records, Box(arbiter_after=None), False, said, max_frames=int(12 * FPS))
    with pytest.raises(CameraError, match="did not settle"):
        runner.run(max_steps=3)
    assert [e for e in records.events(game_id) if isinstance(e, TableAccepted)] == []
    assert any("press the arbiter button to accept the table as it is" in line for line in said.lines)


def test_a_game_killed_before_the_confirmation_asks_again_when_resumed(records):
    said = Said()
    runner, camera, game_id = table_runner(records, Box(arbiter_after=None), True, said)
    runner.area.record_area_in_force()  # the area found and recorded; the process is killed before anyone confirms
    assert runner.area.to_confirm() is not None
    resumed = TableRunner(records, game_id, runner.devices, RunnerSettings(starter="Ann", confirm_area=True))
    resumed.devices.timer.arbiter_after = resumed.devices.timer.polls + 2
    resumed.run(max_steps=3)
    accepted = [e for e in records.events(game_id) if isinstance(e, TableAccepted)]
    assert len(accepted) == 1 and accepted[0].reason == CONFIRM_REASON
    assert len([e for e in records.events(game_id) if isinstance(e, PlayAreaSet)]) == 1  # found once, kept
    assert resumed.area.to_confirm() is None
