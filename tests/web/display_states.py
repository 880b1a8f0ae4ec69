"""The table display's states, fed from a recorded game: each state as the running table shows it.

`DisplayStates` replays a recorded game's events into a `WebDisplay` the way the runner tells its
display (the observer sees every event; verdicts, restore plans and scores are shown as they come)
and stops at the moments a player sees: the start draw, the deal, a running turn, a turn being read,
a penalty with its restore plan, the final scores.
"""
from __future__ import annotations

from controller.adapters.timer import ClockReading
from controller.game.events import GameScored, RestoreChecked, StartOrderDrawn, TurnEnded, TurnJudged, TurnStarted
from controller.game.machine import GameModel, apply
from controller.records import Records
from controller.web.live import LiveTable, WebDisplay


class DisplayStates:
    def __init__(self, db, lang: str = "en") -> None:
        with Records(db, create=False, read_only=True) as records:
            self.game = records.latest_game()
            self.events = records.events(self.game)
        self.live = LiveTable("table", db, lang)
        self.display = WebDisplay(self.live)
        self.model = GameModel()
        self.done = 0

    def step(self) -> None:
        event = self.events[self.done]
        self.done += 1
        self.model = apply(self.model, event)
        self.display.observe(self.model, event)
        if isinstance(event, TurnStarted):
            seat = self.model.current + 1
            self.display.clock(ClockReading(seat, event.seconds, running=True))
            self.display.clock(ClockReading(seat, event.seconds - 17, running=True))
        if isinstance(event, TurnEnded):
            seat = self.model.current + 1
            expired = event.cause == "expired"
            self.display.clock(ClockReading(seat, 0 if expired else event.seconds_left, running=False,
                                            expired=expired))
        if isinstance(event, TurnJudged):
            self.display.verdict(event)
            if event.restore_required:
                self.display.restore(event, None, ".jpg")
        if isinstance(event, GameScored):
            self.display.scores(event)

    def until(self, found) -> None:
        """Replay up to and including the first event `found(event, model_after)` is true of (or all)."""
        while self.done < len(self.events):
            event = self.events[self.done]
            self.step()
            if found(event, self.model):
                return

    def moments(self):
        """The display's states in the order the game reaches them: (name, model) after each."""
        self.until(lambda e, m: True)  # the game is created: the start draw is due
        yield "seating", self.model
        self.until(lambda e, m: isinstance(e, StartOrderDrawn))
        yield "deal", self.model
        self.until(lambda e, m: isinstance(e, TurnStarted))
        yield "turn-running", self.model
        self.until(lambda e, m: isinstance(e, TurnEnded) and e.cause == "expired")
        yield "reading", self.model
        self.until(lambda e, m: isinstance(e, TurnJudged) and e.restore_required)
        yield "penalty", self.model
        self.until(lambda e, m: isinstance(e, RestoreChecked))
        if not self.events[self.done - 1].matches:  # a wrong restore first: the plan stays, with what is wrong
            yield "not-restored", self.model
        self.until(lambda e, m: isinstance(e, TurnStarted))
        self.until(lambda e, m: isinstance(e, TurnJudged))
        yield "verdict", self.model
        self.until(lambda e, m: False)
        yield "final", self.model
