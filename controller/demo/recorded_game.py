"""A recorded game played back at a table: what the camera sees and which buttons are pressed.

The script (JSON, e.g. controller/demo_games/game.json) gives the players, the tiles drawn for
the start order, and for every turn the table as it lies when the player ends the turn
(melds with grid places), whether the player presses the button or lets the time run
out, and for a failed turn the tables laid while restoring. At the end it gives each
loser's rack as it is laid open.

`RecordedTable` is the world around the controller: it is the camera (`read()` gives
frames of the current scene, a hand over the table first when something changes), it
presses the timer box's buttons through the emulator (a real pty, the real driver), and
it watches the game (`observe`) to know what the people at the table do next. Everything
it does follows from the game's state, so after a killed process it picks up where the
records say the game is.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from controller import json_text
from controller.game.errors import GameSetupError
from controller.game.events import Event, RedealClaimed, RestoreChecked, TurnEndCause, TurnEnded, TurnJudged, TurnStarted
from controller.game.machine import GameModel, State
from controller.rules.errors import RulesError
from controller.rules.tiles import check_tile_counts, parse_tiles

from vision.eyes_values import TimedFrame

from .scene import Scene, SceneLayout, SceneRenderer

HAND_FRAMES = 2  # frames with a hand over the table before the table lies still
FPS = 30.0  # the recorded camera's frames count as this many a second
# frames of the still table at the alarm before more tiles are laid: the eyes' half second of still
# frames and a few to spare
ALARM_FRAMES = 24
RACK_ROW = 6  # grid row where a loser lays the rack open


class ScriptError(GameSetupError):
    """A recorded-game script that is malformed or impossible (names the problem)."""


ACTIONS = ("press", "expire", "redeal", "skip")
NOTICES = ("before-next-turn", "after-next-turn-started")


@dataclass(frozen=True)
class ScriptedTurn:
    player: str
    # "press" | "expire" | "redeal" (arbiter button at the first turn, showing `shown`) | "skip" (japan-2017:
    # the turn ends without the countdown, by the next seat's button)
    action: str
    table: Scene  # the table when the turn ends (with "after_alarm": as it lay at the alarm)
    restoring: tuple[Scene, ...]  # failed turn: tables laid while restoring, before the right one
    expect: str | None  # the verdict the script expects (checked by tests, shown by the demo)
    shown: tuple[str, ...] = ()  # redeal: the doubled tiles laid on the table
    after_alarm: Scene | None = None  # expire: the table once tiles were laid after the alarm
    give_up: bool = False  # failed turn: after the restoring tries the arbiter gives the restore up
    settled: Scene | None = None  # given up: the table as laid once the rule set settled it
    notice: str | None = None  # the arbiter notices an invalid set in this turn's table, and when


@dataclass(frozen=True)
class RedealAsk:
    """world: right after a deal, `player` lays `shown` open and asks for a redeal."""

    player: str
    shown: tuple[str, ...]


@dataclass(frozen=True)
class GameScript:
    variant: str
    players: tuple[str, ...]
    start_draw: tuple[str, ...]
    turns: tuple[ScriptedTurn, ...]
    racks: dict[str, tuple[str, ...]]
    layout: SceneLayout
    clock_rate: float
    referee: dict[str, Any]
    think_seconds: float = 0.25  # a player's time between the clock starting and the button
    starter: str | None = None  # who starts without a start draw (world: the youngest, or drawn by lot)
    redeal_asks: tuple[RedealAsk, ...] = ()  # world: the redeal asked after deal 1, 2, ...

    @staticmethod
    def load(path: str | Path) -> "GameScript":
        path = Path(path)
        try:
            data = json_text.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ScriptError(f"game script {str(path)!r} does not exist") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ScriptError(f"game script {str(path)!r} is not readable JSON: {error}") from None
        return GameScript.from_dict(data, str(path))

    @staticmethod
    def from_dict(data: dict, where: str = "game script") -> "GameScript":
        if not isinstance(data, dict):
            raise ScriptError(f"{where}: expected a JSON object with variant, players and turns, "
                              f"got {type(data).__name__}")
        try:
            layout = SceneLayout(**data.get("layout", {}))
            turns = []
            for n, turn in enumerate(data["turns"], start=1):
                if turn["action"] not in ACTIONS:
                    raise ScriptError(f"{where}: turn {n} action {turn['action']!r} is not one of {ACTIONS!r}")
                if turn.get("notice") not in (None,) + NOTICES:
                    raise ScriptError(f"{where}: turn {n} notice {turn['notice']!r} is not one of {NOTICES!r}")
                turns.append(ScriptedTurn(
                    player=turn["player"], action=turn["action"], table=Scene.of(turn["table"]),
                    restoring=tuple(Scene.of(t) for t in turn.get("restoring", ())), expect=turn.get("expect"),
                    shown=tuple(turn.get("shown", ())),
                    after_alarm=Scene.of(turn["after_alarm"]) if "after_alarm" in turn else None,
                    give_up=bool(turn.get("give_up", False)),
                    settled=Scene.of(turn["settled"]) if "settled" in turn else None,
                    notice=turn.get("notice"),
                ))
            script = GameScript(
                variant=data["variant"], players=tuple(data["players"]), start_draw=tuple(data.get("start_draw", ())),
                turns=tuple(turns), racks={k: tuple(v) for k, v in data.get("racks", {}).items()},
                layout=layout, clock_rate=float(data.get("clock_rate", 30.0)), referee=data.get("referee", {}),
                think_seconds=float(data.get("think_seconds", 0.25)), starter=data.get("starter"),
                redeal_asks=tuple(RedealAsk(ask["player"], tuple(ask["shown"])) for ask in data.get("redeal_asks", ())),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            if isinstance(error, ScriptError):
                raise
            raise ScriptError(f"{where}: malformed: {error!r}") from None
        for name, value, low, high in (("clock_rate", script.clock_rate, 0.01, 1000.0),
                                       ("think_seconds", script.think_seconds, 0.0, 60.0)):
            if not low <= value <= high:  # NaN fails both
                raise ScriptError(f"{where}: {name} {value!r} is outside {low:g}..{high:g}")
        script.check(where)
        return script

    def check(self, where: str) -> None:
        try:
            for n, turn in enumerate(self.turns, start=1):
                if turn.player not in self.players:
                    raise ScriptError(f"{where}: turn {n} is played by {turn.player!r}, not a player")
                extra = tuple(scene for scene in (turn.after_alarm, turn.settled) if scene is not None)
                for scene in (turn.table,) + turn.restoring + extra:
                    check_tile_counts(parse_tiles(c for m in scene.codes() for c in m), f"{where}: turn {n}")
            if self.starter is not None and self.starter not in self.players:
                raise ScriptError(f"{where}: starter {self.starter!r} is not a player")
            final = [c for m in self.turns[-1].table.codes() for c in m] if self.turns else []
            racks = [c for rack in self.racks.values() for c in rack]
            check_tile_counts(parse_tiles(final + racks), f"{where}: final table and racks")
            parse_tiles(self.start_draw)
        except RulesError as error:
            raise ScriptError(str(error)) from None


class RecordedTable:
    """The camera, the players' hands and buttons of a recorded game."""

    def __init__(self, script: GameScript, press) -> None:
        self.script = script
        self.press = press  # press(button): a real press on the emulated box
        self.renderer = SceneRenderer(script.layout)
        self.queue: list[Scene] = []
        self.scene = Scene(())
        self.frames = 0
        self.prompted: object = None
        self.restore_attempts: dict[int, int] = {}

    # ---------------------------------------------------------------- camera

    def read(self) -> np.ndarray:
        if self.queue:
            self.scene = self.queue.pop(0)
        self.frames += 1
        return self.renderer.frame(self.scene, self.frames)

    def read_timed(self) -> TimedFrame:
        image = self.read()
        return TimedFrame(image, self.frames / FPS)

    def close(self) -> None:
        pass

    def lay(self, scene: Scene) -> None:
        """Hands move tiles, then the table lies still as `scene`."""
        if scene == self.scene and not self.queue:
            return
        self.queue = [scene.with_hand()] * HAND_FRAMES + [scene]

    # ------------------------------------------------------------- the world

    def table_before(self, turn: int) -> Scene:
        """The table at the start of `turn` (1-based). A turn the script expects to fail leaves it as it was."""
        scene = Scene(())
        for n, scripted in enumerate(self.script.turns[: turn - 1], start=1):
            if scripted.settled is not None:
                scene = scripted.settled
            elif scripted.expect not in ("penalty", "redeal"):
                scene = scripted.table
        return scene

    def turn_script(self, turn: int) -> ScriptedTurn:
        if not 1 <= turn <= len(self.script.turns):
            raise ScriptError(f"the script has {len(self.script.turns)} turns; the game reached turn {turn}")
        return self.script.turns[turn - 1]

    def observe(self, model: GameModel, event: Event | None) -> None:
        state = model.state
        if isinstance(event, RestoreChecked) and not event.matches:
            self.restore_attempts[model.turn] = self.restore_attempts.get(model.turn, 0) + 1
        if isinstance(event, TurnJudged) and self.turn_script(event.turn).notice == "before-next-turn":
            self._prompt(("notice", event.turn))  # the arbiter: that set is not what the camera read
        if isinstance(event, TurnStarted) and event.turn > 1 and \
                self.turn_script(event.turn - 1).notice == "after-next-turn-started":
            self._prompt(("notice", event.turn - 1))
        if state is State.REDEAL_WINDOW:
            self.lay(Scene(()))
            asks = self.script.redeal_asks
            if model.deal <= len(asks) and not isinstance(event, RedealClaimed):
                ask = asks[model.deal - 1]
                self.lay(Scene.of([{"tiles": list(ask.shown), "at": [RACK_ROW, 0]}]))
                self._prompt(("redeal", model.deal), str(model.players.index(ask.player) + 1))
            else:
                self._prompt(("redeal-window", model.deal))
            return
        if state is State.SEATING and not self.script.start_draw:
            return  # the starter is given or drawn by lot: nothing to lay
        if state is State.SEATING:
            draws = self.script.start_draw
            self.lay(Scene.of([{"tiles": list(draws), "at": [RACK_ROW, 0]}]))  # in a row, in seat order
            self._prompt(("seating", len(model.start_rounds)))
        elif state is State.DEALING:
            self.lay(Scene(()))
            self._prompt(("dealing", model.deal))
        elif state is State.TURN_READY:
            self.lay(self.table_before(model.turn + 1))
        elif state in (State.TURN_READING, State.REFEREE_CHECK, State.TURN_JUDGING):
            turn = self.turn_script(model.turn)
            if turn.after_alarm is not None and isinstance(event, TurnEnded) and event.cause is TurnEndCause.EXPIRED:
                # the table lies still at the alarm a moment, then hands lay more tiles from the rack
                self.queue = [turn.table] * ALARM_FRAMES + [turn.after_alarm.with_hand()] * HAND_FRAMES + \
                    [turn.after_alarm]
            else:
                self.lay(turn.after_alarm if turn.after_alarm is not None else turn.table)
        elif state is State.TURN_RUNNING and event is None:
            self.lay(self.table_before(model.turn))  # resumed: the play happens when the clock restarts
        elif state is State.RESTORING:
            tries = self.restore_attempts.get(model.turn, 0)
            turn = self.turn_script(model.turn)
            judgement = model.judgement
            if judgement is not None and not judgement.penalty and turn.after_alarm is not None:
                self.lay(turn.table)  # the tiles laid after the alarm go back to the rack
            elif judgement is not None and judgement.settlement is not None and turn.settled is not None:
                self.lay(turn.settled)
            elif tries < len(turn.restoring):
                self.lay(turn.restoring[tries])
            elif turn.give_up:
                self._prompt(("give-up", model.turn))  # the table stays as the last try
            else:
                self.lay(self.table_before(model.turn))
        elif state is State.REVEALING and model.to_reveal():  # (else a rack waits for the referee)
            player = model.to_reveal()[0]
            rack = self.script.racks.get(player, ())
            final = self.turn_script(model.turn).table
            rows = [rack[i: i + 20] for i in range(0, len(rack), 20)]
            laid = [{"tiles": list(r), "at": [RACK_ROW + k, 0]} for k, r in enumerate(rows) if r]
            self.lay(Scene(final.melds + Scene.of(laid).melds))
            self._prompt(("reveal", player))
        elif state in (State.SCORING, State.FINISHED):
            self.lay(self.turn_script(model.turn).table)

    def restore_attempts_from(self, events) -> None:
        """After a restart: how many restores were refused in each turn so far."""
        turn = 0
        for event in events:
            turn = getattr(event, "turn", turn)
            if isinstance(event, RestoreChecked) and not event.matches:
                self.restore_attempts[turn] = self.restore_attempts.get(turn, 0) + 1

    def _prompt(self, key: object, button: str = "A") -> None:
        if key != self.prompted:  # one press per prompt, even when the state is seen again
            self.prompted = key
            self.press(button)

    def on_clock_armed(self, model: GameModel, seat: int) -> None:
        """japan-2017: the clock waits for its player. A simple turn is played without it and ended by the
        next seat's button; any other turn starts the clock with the player's own button."""
        turn = self.turn_script(model.turn)
        if turn.action == "skip":
            self.lay(turn.table)
            self.press_after_play(str(seat % len(model.players) + 1))
        elif turn.action == "redeal":
            self.on_clock_started(model, seat)
        else:
            self.press_after_play(str(seat))

    def press_after_play(self, button: str) -> None:
        """The player's button, the thinking time after the clock started; from another thread, as at a
        real table."""
        presser = threading.Timer(self.script.think_seconds, self.press, args=(button,))
        presser.daemon = True
        presser.start()

    def on_clock_started(self, model: GameModel, seat: int) -> None:
        """The player plays: the table changes, then the button (or the clock runs out)."""
        turn = self.turn_script(model.turn)
        if turn.player != model.player:
            raise ScriptError(f"turn {model.turn}: the script has {turn.player!r} play, the game has {model.player!r}")
        if turn.action == "redeal":
            shown = Scene.of([{"tiles": list(turn.shown), "at": [RACK_ROW, 0]}])
            self.lay(Scene(turn.table.melds + shown.melds))
            self.press_after_play("A")
            return
        self.lay(turn.table)
        if turn.action == "press":
            self.press_after_play(str(seat))


class RecordedTimer:
    """The real timer (driver + emulator); tells the recorded table when a clock starts."""

    def __init__(self, timer, table: RecordedTable, model_of) -> None:
        self.timer = timer
        self.table = table
        self.model_of = model_of

    @property
    def port(self) -> str:
        """The port of the timer's box (`controller.table.ports.NamesPort`)."""
        return self.timer.port

    def start_turn(self, seat: int, seconds: int) -> None:
        self.timer.start_turn(seat, seconds)
        self.table.on_clock_started(self.model_of(), seat)

    def arm(self, seat: int, seconds: int) -> None:
        self.timer.arm(seat, seconds)
        self.table.on_clock_armed(self.model_of(), seat)

    def stop(self) -> None:
        self.timer.stop()

    def pause(self) -> None:
        self.timer.pause()

    def resume(self) -> None:
        self.timer.resume()

    def extend(self, seconds: int) -> None:
        self.timer.extend(seconds)

    def show(self, text: str) -> None:
        self.timer.show(text)

    def wait(self, timeout: float):
        return self.timer.wait(timeout)

    def close(self) -> None:
        self.timer.close()
