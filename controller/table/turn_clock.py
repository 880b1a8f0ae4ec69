"""The turn's countdown on the timer box, as this process set it up: which turn, whether it runs, and
when the turn's end was pressed (press -> verdict is timed from there)."""
from __future__ import annotations

import time

from controller.game.machine import GameModel

from .ports import TableDevices


class TurnClock:
    """The countdown of the turns this process runs (a part of the table's runner)."""

    def __init__(self, devices: TableDevices) -> None:
        self.devices = devices
        self.timer_turn: int | None = None  # the turn whose countdown this process set up (armed or started)
        self.running = False  # the countdown of `timer_turn` runs (not merely armed)
        self.start_for: int | None = None  # a turn whose player already pressed to start the clock
        self.started_turn: int | None = None  # the turn this process recorded as started
        self.pressed_at: float | None = None  # when the running turn's end was pressed (or its time ran out)

    def set_up(self, model: GameModel, players_start_it: bool) -> None:
        """The countdown of `model.turn`, once per turn: started, or armed for its player to start
        (`players_start_it`: japan-2017, unless that player already pressed)."""
        if self.timer_turn == model.turn:
            return
        seat = model.current + 1
        self.timer_turn = model.turn
        if players_start_it and self.start_for != model.turn:
            # japan-2017: each player starts their own clock, so a simple turn may skip it (000)
            self.devices.timer.arm(seat, model.turn_seconds)
            self.running = False
            self.devices.timer.show(f"{model.player[:10]} {seat}=go")
            self.devices.display.say(f"{model.player}: press button {seat} to start your clock, and again when "
                                     f"your turn is done (a draw or one tile: the next player's press ends it)")
        else:
            self.start(model)

    def start(self, model: GameModel) -> None:
        self.devices.timer.start_turn(model.current + 1, model.turn_seconds)
        self.running = True
        self.devices.timer.show(f"{model.player[:10]} {model.turn}")

    def turn_started(self, turn: int) -> None:
        """This process recorded `turn` as started (a turn it did not is one a process that is gone began)."""
        self.started_turn = turn

    def next_player_starts(self, turn: int) -> None:
        """The next player pressed to start their own clock: `turn`'s countdown starts, not armed."""
        self.start_for = turn

    def ended(self) -> None:
        """The turn's end was pressed, or its time ran out."""
        self.pressed_at = time.perf_counter()

    def stopped(self, stop_box: bool = False) -> None:
        """The turn's countdown is over (judged, or a redeal granted: `stop_box` stops the box too)."""
        if stop_box and self.timer_turn is not None:
            self.devices.timer.stop()
        self.timer_turn, self.running = None, False

    def press_to_verdict_ms(self) -> float | None:
        """Milliseconds from the press to now, once per press (None: no press timed)."""
        if self.pressed_at is None:
            return None
        since, self.pressed_at = self.pressed_at, None
        return (time.perf_counter() - since) * 1000
