"""The referee page's requests, carried out in the runner's thread (the game's one write path).

A request is carried out between two steps of the game, never inside a wait for the table: while
the eyes wait, requests queue here until the wait returns. The one exception is the table the eyes
ask the arbiter about (`accept-table`): that is the wait's own question, answered while it asks.
"""
from __future__ import annotations

import contextlib
import time
from collections import deque
from typing import Any

from controller.adapters.errors import TimerError
from controller.game.errors import GameError
from controller.game.events import (
    ClockAdjusted, ClockAdjustment, CorrectionTarget, HeldAnswer, Override, RefereeCorrection, VerdictOverridden,
)
from controller.game.machine import State, apply
from controller.messages import named
from controller.rules.errors import RulesError

from .eyes import EyesMode
from .host import Table
from .ports import AdapterError, AdjustsClock, DeskAction, DeskAnswer, DeskError, RefereeRequest


class RefereeDeskWork:
    """The referee page's requests (a part of the table's runner, `TableRunner`)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.queued: deque[tuple[RefereeRequest, Any]] = deque()  # taken while the eyes waited: carried out next

    def attend(self, timeout: float = 0.0) -> bool:
        """Carry out what the referee page asked (here, in the runner's thread: the one write path), those
        queued while the eyes waited first. Each request is answered with what was recorded, or with why it
        was refused (nothing recorded)."""
        desk = self.table.devices.desk
        if desk is None:
            if timeout > 0:
                time.sleep(timeout)
            return False
        item = self.queued.popleft() if self.queued else desk.take(timeout)
        handled = False
        while item is not None:
            handled = self._answer(*item) is not None or handled
            item = self.queued.popleft() if self.queued else desk.take()
        return handled

    def accepts_table(self, also: tuple[DeskAction, ...] = ()) -> bool:
        """While the eyes ask the arbiter: whether the referee page accepted the table as seen (recorded
        then). Requests for the actions `also` are carried out too (the play area, while its confirmation
        is asked); every other request waits in the queue until the wait returns."""
        desk = self.table.devices.desk
        accepted = False
        while desk is not None and (item := desk.take()) is not None:
            if not accepted and item[0].action is DeskAction.ACCEPT_TABLE:
                accepted = self._answer(*item) is True
            elif item[0].action in also:
                self._answer(*item)
            else:
                self.queued.append(item)
        return accepted

    def _answer(self, request: RefereeRequest, future) -> bool | None:
        """The request carried out (True) or refused (False), its answer set; None: the page gave up waiting."""
        if not future.set_running_or_notify_cancel():  # not carried out
            return None
        try:
            answer = self.carry_out(request)
        except (GameError, RulesError, AdapterError) as error:
            future.set_exception(error)
            return False
        future.set_result(answer)
        return True

    def carry_out(self, request: RefereeRequest) -> DeskAnswer:
        model = self.table.model
        first = model.events
        if request.action is DeskAction.CORRECT:
            said = self._desk_correct(request)
        elif request.action is DeskAction.ACCEPT_RESTORE:
            if model.state is not State.RESTORING:
                raise DeskError(f"no restore is under way (the game: {named('phase', model.state).lower()})")
            seen, rebuilt = self.table.looking.look(self.table.model.table)
            self.table.restore.accept(seen, rebuilt, request.referee, request.reason)
            said = f"restore accepted by referee {request.referee}"
        elif request.action is DeskAction.ACCEPT_TABLE:
            eyes = self.table.eyes
            if eyes.mode is not EyesMode.ASKING or eyes.asking is None:
                raise DeskError("the camera asks no arbiter now: it accepts a table only while it waits for one")
            covered, image = eyes.asking
            self.table.looking.record_accepted(covered, image, f"referee {request.referee}")
            said = f"table accepted as the camera sees it by referee {request.referee}"
        elif request.action in (DeskAction.CONFIRM_PENALTY, DeskAction.TILES_THERE):
            if model.state is not State.PENALTY_HELD:
                raise DeskError(f"no penalty waits for the referee (the game: {named('phase', model.state).lower()})")
            answer = HeldAnswer.CONFIRMED if request.action is DeskAction.CONFIRM_PENALTY else HeldAnswer.TILES_THERE
            self.table.turns.record_held_answer(answer, tuple(request.changes), request.referee, request.reason)
            said = (f"turn {model.turn}: held penalty answered by referee {request.referee}: "
                    + ("the penalty stands" if answer is HeldAnswer.CONFIRMED else "the tiles are there"))
        elif request.action is DeskAction.OVERRIDE:
            judgement = model.judgement
            if model.state is not State.RESTORING or judgement is None:
                raise DeskError(f"no verdict waits for its restore (the game: {named('phase', model.state).lower()}): "
                                "only a penalty being restored can be overridden")
            self.table.record(VerdictOverridden(turn=model.turn, player=model.players[judgement.player_index],
                                          outcome=request.outcome or Override.LEGAL, referee=request.referee,
                                          reason=request.reason))
            self.table.restore.ended()
            said = f"turn {model.turn}: verdict overridden by referee {request.referee}: the turn stands"
        elif request.action is DeskAction.AREA:
            said = self.table.area.desk_area(request)
        else:
            said = self._desk_clock(request)
        self.table.devices.display.say(f"    {said} ({request.reason})")
        events = self.table.records.recorded(self.table.game_id)[first:]
        return DeskAnswer(tuple({"seq": r.seq, "kind": r.event.kind.value, "payload": r.event.payload()}
                                for r in events), said)

    def _desk_correct(self, request: RefereeRequest) -> str:
        target = request.target or CorrectionTarget.TABLE
        if target == CorrectionTarget.TABLE:
            if not request.changes:
                raise DeskError("a table correction names tiles: 'index code' pairs")
            event = RefereeCorrection(target=CorrectionTarget.TABLE, changes=tuple(request.changes), rack=None, note=request.reason,
                                      referee=request.referee)
        else:
            if request.rack is None:
                raise DeskError("a rack correction gives the rack's codes")
            event = RefereeCorrection(target=target, changes=(), rack=tuple(request.rack), note=request.reason,
                                      referee=request.referee)
        before = self.table.model.state
        if before is State.FINISHED:  # with its new score, or (refused by the rules) not at all
            scored = self.table.journal.record_scored(event)
            after = self.table.model
        else:
            scored, after = None, self.table.record(event)
        what = "the table read" if event.rack_player is None else f"{event.rack_player}'s rack"
        said = f"referee {request.referee} corrected {what}"
        if before is State.TURN_READY and after.state is State.TURN_JUDGING:
            said += f"; turn {after.turn} is judged again"
        elif scored is not None:
            self.table.devices.display.scores(scored, self.table.head())
            said += "; the game is scored again"
        elif after.state is State.SCORING:
            said += "; the game is scored again"
        return said

    def _desk_clock(self, request: RefereeRequest) -> str:
        model = self.table.model
        if model.state is not State.TURN_RUNNING or not self.table.clock.running:
            raise DeskError("no countdown runs now: the clock is paused, resumed or extended during a player's "
                            "turn, while the box counts")
        if request.action is DeskAction.PAUSE:
            action = ClockAdjustment.RESUME if request.resume else ClockAdjustment.PAUSE
        else:
            action = ClockAdjustment.EXTEND
        timer = self.table.devices.timer
        if not isinstance(timer, AdjustsClock):
            raise DeskError(f"this timer cannot {action.value}")
        event = ClockAdjusted(turn=model.turn, action=action,
                              seconds=request.seconds if action is ClockAdjustment.EXTEND else 0,
                              referee=request.referee, reason=request.reason)
        apply(model, event)  # the state table refuses it before the box is touched
        # The box acts first and the event is recorded once it has: the record says what the clock
        # did, and a command the box refuses (the turn was ending) leaves nothing behind.
        try:
            if action is ClockAdjustment.EXTEND:
                timer.extend(request.seconds)
            elif action is ClockAdjustment.PAUSE:
                timer.pause()
            else:
                timer.resume()
        except TimerError as error:
            raise DeskError(f"turn {model.turn}: {error}; nothing was recorded") from None
        try:
            self.table.record(event)
        except BaseException:
            self._undo_on_box(action)
            raise
        if action is ClockAdjustment.EXTEND:
            return f"turn {model.turn}: {request.seconds} s more, given by referee {request.referee}"
        return f"turn {model.turn}: clock {'paused' if action is ClockAdjustment.PAUSE else 'resumed'} by referee " \
               f"{request.referee}"

    def _undo_on_box(self, action: ClockAdjustment) -> None:
        """A pause or resume the records refused after the box carried it out is taken back on the box."""
        timer = self.table.devices.timer
        undo = {ClockAdjustment.PAUSE: timer.resume, ClockAdjustment.RESUME: timer.pause}.get(action)
        if undo is not None:
            with contextlib.suppress(TimerError):
                undo()
