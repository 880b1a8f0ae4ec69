"""The turn flow: one step per state of the game, each doing the I/O its state waits for, then recording."""
from __future__ import annotations

import secrets
import time

from controller.game import judging
from controller.game.events import (
    CountAlert, DealAccepted, Dealt, Doubt, HeldAnswer, HeldPenaltyAnswered, Incident, RackRevealed, ReadPurpose,
    RefereeCorrection, StartOrderDrawn, TableRead, TimerIncident, TurnEndCause, TurnEnded, TurnStarted,
)
from controller.game.machine import TILES_IN_GAME, State
from controller.game.errors import GameNotScoredError
from controller.game.racks import left_lying, rack_tiles
from controller.game.reading import TableReading
from controller.rules.errors import RulesError
from controller.rules.variants import RedealWhen, StartBy

from .host import Table
from .ports import AdapterError, RefereeOnPage, SignalKind

from .settings import ARBITER, NOTICE_WINDOW, WAIT_SLICE


class TurnFlow:
    """The game's steps, one per state of the game (a part of the table's runner, `TableRunner`)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.timings: list[dict] = []  # per turn read: frames, reading and press -> verdict times (the benches)
        self.doubts_announced: int | None = None  # the turn whose doubts were said to wait for the referee page
        self.held_announced = False  # the held penalty was said to wait for the referee
        self.rack_reading = None  # the reading the last rack laid open was read from (racks left lying)
        self.rack_announced: str | None = None  # the rack said to wait for the referee page

    def step_seating(self) -> None:
        model = self.table.model
        if self.table.settings.starter is not None:
            self.table.record(StartOrderDrawn(draws=(), starter=self.table.settings.starter, photo=None))
            return
        if judging.ruleset_of(model).start_by is StartBy.LOT:  # world: the youngest (--starter) or drawn by lot
            after = self.table.record(judging.starter_by_lot(model, secrets.randbelow(len(model.players))))
            self.table.devices.display.say(f"start: drawn by lot, {after.starter} starts")
            return
        due = judging.who_draws_next(model)
        self.table.wait_press(f"start order: {', '.join(due)} each draw a tile and lay them left to right in that "
                        f"order; then press a button")
        seen = self.table.looking.look_still()
        reading = seen.reading
        if len(reading.tiles) != len(due):
            self.table.devices.display.say(f"start order: {len(reading.tiles)} tiles seen, {len(due)} expected; lay them again")
            return
        order = sorted(range(len(reading.tiles)), key=lambda i: reading.tiles[i].center[0])
        draws = tuple((name, reading.tiles[i].code) for name, i in zip(due, order))
        self.table.record(judging.start_draw(model, draws, seen.photo.sha256), photos=seen.photos, readings=seen.raws)

    def step_dealing(self) -> None:
        self.table.wait_press(f"deal 14 tiles to each of {', '.join(self.table.model.players)}; press a button when dealt")
        self.table.record(Dealt(deal=self.table.model.deal + 1))

    def step_redeal_window(self) -> None:
        """world: right after the deal anyone with enough doubled tiles may ask for a redeal for everyone."""
        model = self.table.model
        signal = self.table.wait_press("redeal? a player dealt three doubled tiles presses their seat button and lays "
                                 "them open; the arbiter's button starts play")
        if signal.button == ARBITER or signal.seat is None or not 1 <= signal.seat <= len(model.players):
            self.table.record(DealAccepted(deal=model.deal))
            return
        self.claim_redeal(model.players[signal.seat - 1])

    def step_turn_ready(self) -> None:
        model = self.table.model
        if model.tiles_counted != TILES_IN_GAME and model.alert_turn != model.turn:
            self.table.record(CountAlert(turn=model.turn, table=model.table.tile_count, racks=sum(model.racks),
                                   pool=model.pool, expected=TILES_IN_GAME,
                                   disqualified=model.count_mismatch_disqualifies))
            self.table.devices.display.say(f"ALERT: table {model.table.tile_count} + racks {sum(model.racks)} + pool "
                                     f"{model.pool} is not {TILES_IN_GAME}")
            return
        frame = self.table.looking.settle().frame
        if self.table.arbiter_pressed(NOTICE_WINDOW):
            self.notice_invalid_set()  # before the next turn starts: the last turn may be judged again
            return
        photo = self.table.looking.photo(frame)
        turn = model.turn + 1
        self.table.record(TurnStarted(turn=turn, player=model.player, seconds=model.turn_seconds, photo=photo.sha256),
                    photos=(photo,))
        self.table.clock.turn_started(turn)

    def step_turn_running(self) -> None:
        model = self.table.model
        rules = judging.ruleset_of(model)
        seat = model.current + 1
        clock = self.table.clock
        if clock.timer_turn != model.turn and clock.started_turn != model.turn:
            # the turn began in a process that is gone: recorded before the box is touched
            self.table.record(TimerIncident(incident=Incident.RESTARTED_AFTER_RESUME,
                                            detail=f"turn {model.turn}: the countdown starts again for seat {seat}"))
        clock.set_up(model, rules.timer_skip_for_simple_turns)
        signal = self.table.looking.watch_turn(WAIT_SLICE)  # the eyes watch the table meanwhile
        if signal is None:
            return
        next_seat = (model.current + 1) % len(model.players) + 1
        if signal.kind == SignalKind.INCIDENT:
            self.table.record_incident(signal)
        elif signal.kind == SignalKind.EXPIRED:
            clock.ended()
            self.table.record(TurnEnded(turn=model.turn, cause=TurnEndCause.EXPIRED, button=None, seconds_left=0))
        elif signal.kind == SignalKind.PRESSED and signal.seat == seat and not clock.running:
            clock.start(model)
        elif signal.kind == SignalKind.PRESSED and signal.seat == seat:
            clock.ended()
            self.table.record(TurnEnded(turn=model.turn, cause=TurnEndCause.BUTTON, button=signal.button,
                                  seconds_left=signal.seconds_left))
        elif signal.kind == SignalKind.PRESSED and signal.seat == next_seat and not clock.running:
            # the next player starts their own clock: this turn ended without one (a draw or one tile)
            clock.ended()
            self.table.record(TurnEnded(turn=model.turn, cause=TurnEndCause.SKIPPED, button=signal.button, seconds_left=None))
            clock.next_player_starts(model.turn + 1)
        elif signal.kind == SignalKind.PRESSED and signal.button == ARBITER and model.first_turn and self._redeal_allowed():
            self.claim_redeal(model.player)
        elif signal.kind == SignalKind.PRESSED and signal.button == ARBITER:
            self.notice_invalid_set()  # after the turn started: a set noticed now stands
        else:
            self.table.devices.display.say(f"button {signal.button} ignored: it is {model.player}'s turn (seat {seat})")

    def _redeal_allowed(self) -> bool:
        return judging.ruleset_of(self.table.model).redeal_when is RedealWhen.OWN_FIRST_TURN

    def claim_redeal(self, player: str) -> None:
        """The player shows the doubled tiles on the table: the camera reads what is new."""
        seen = self.table.looking.look_still()
        shown = rack_tiles(seen.reading, self.table.model.table, self.table.settings.rebuild, self.table.settings.rack).codes
        event = judging.redeal_claim(self.table.model, shown, player)
        self.table.record(event, photos=seen.photos, readings=seen.raws)
        self.table.devices.display.say(f"redeal {'granted' if event.granted else 'refused'}: {event.reason}")
        if event.granted and self.table.clock.timer_turn is not None:
            self.table.clock.stopped(stop_box=True)

    def notice_invalid_set(self) -> None:
        """Someone noticed an invalid set the verdict missed: the referee says what the table really holds."""
        model = self.table.model
        changes, note = self.table.devices.referee.notice_table(model, model.table)
        if not changes:
            self.table.devices.display.say("arbiter: nothing to correct on the table")
            return
        after = self.table.record(RefereeCorrection(target="table", changes=tuple(changes), rack=None, note=note))
        if after.state is State.TURN_JUDGING:
            self.table.devices.display.say(f"noticed before the next turn started: turn {after.turn} is judged again")
        else:
            self.table.devices.display.say("noticed after the next turn started: the set stands; whoever adds to it or "
                                     "rearranges it must make it valid")

    def step_turn_reading(self) -> None:
        model = self.table.model
        if model.ended_by is TurnEndCause.EXPIRED and model.at_alarm is None and judging.ruleset_of(model).rack_locked_after_alarm:
            self.read_at_alarm()
            return
        started = time.perf_counter()
        seen, rebuilt = self.table.looking.look(self.table.model.table, look_again=True, carry=True)
        settled = seen.wait
        self.table.record(TableRead(purpose=ReadPurpose.TURN, photo=seen.photo.sha256, reading=seen.raw.sha256,
                              tiles=rebuilt.table.tiles, sets=rebuilt.table.sets, doubts=rebuilt.doubts,
                              settled=rebuilt.settled),
                    photos=seen.photos, readings=seen.raws)
        self.timings.append({"turn": self.table.model.turn, "frames": settled.frames, "settle_ms": settled.seconds * 1000,
                             "reads": seen.frames, "read_ms": seen.raw.elapsed_ms, "read_ahead": seen.read_ahead,
                             "read_ahead_ms": seen.read_ahead_ms,
                             "reading_step_ms": (time.perf_counter() - started) * 1000})

    def read_at_alarm(self) -> None:
        """japan-2017: after the alarm no tile may leave the rack. The first still, clear table after the
        alarm is the table at the alarm; tiles that appear later go back and do not count."""
        seen, rebuilt = self.table.looking.look(self.table.model.table, look_again=True, carry=True)
        self.table.record(TableRead(purpose=ReadPurpose.ALARM, photo=seen.photo.sha256, reading=seen.raw.sha256,
                              tiles=rebuilt.table.tiles, sets=rebuilt.table.sets, doubts=rebuilt.doubts,
                              settled=rebuilt.settled),
                    photos=seen.photos, readings=seen.raws)

    def step_referee_check(self) -> None:
        model = self.table.model
        assert model.pending is not None
        if self.table.devices.desk is not None and self._referee_on_page():
            if self.doubts_announced != model.turn:  # the referee answers on the page: `correct` the table
                self.doubts_announced = model.turn
                self.table.devices.display.say(f"referee: {len(model.pending_doubts)} doubtful tile(s) of turn {model.turn} "
                                         "wait for a correction on the referee page")
            self.table.desk.attend(WAIT_SLICE)
            return
        changes, note = self.table.devices.referee.settle_table(model, model.pending, model.pending_doubts)
        answers = dict(changes)
        # the answers may leave a code on the table more often than a set holds it (another copy read sure
        # elsewhere): the rules cannot judge such a table, so every copy of that code is asked about again
        while over := judging.over_counted(model.pending, answers):
            code, holders = over
            why = f"{code} lies on the table {len(holders)} times as answered, more than a set has"
            more, note = self.table.devices.referee.settle_table(
                model, model.pending, tuple(Doubt(i, (code,), f"{why}: which is another tile (or no tile)?") for i in holders))
            if all(answers.get(i) == answer for i, answer in more):  # a referee that answers as before is stuck
                raise AdapterError(f"turn {model.turn}: {why}, and the referee answered the same again")
            answers.update(more)
        self.table.record(RefereeCorrection(target="table", changes=tuple(answers.items()), rack=None, note=note))

    def step_turn_judging(self) -> None:
        model = self.table.model
        assert model.pending is not None
        event = judging.judge(model, model.pending)
        held = judging.held_penalty(model, event)
        if held is not None:  # the camera cannot tell a tile taken back from one it does not see
            self.table.record(held)
            self.held_announced = False
            return
        self.table.record(event)
        if self.table.clock.pressed_at is not None and self.timings:
            self.timings[-1]["press_to_verdict_ms"] = self.table.clock.press_to_verdict_ms()
        self.table.devices.display.verdict(event, self.table.head())
        if event.restore_required:
            self.table.restore.show(event)
        self.table.clock.stopped()

    def step_penalty_held(self) -> None:
        """The referee answers a held penalty: on the referee page (the runner waits on the desk), else
        at the table (the console, or a script)."""
        model = self.table.model
        held = model.held
        assert held is not None
        if not self.held_announced:  # once a hold (a resumed game's too)
            self.held_announced = True
            codes = " ".join(tile.code for tile in held.vanished)
            self.table.devices.display.say(f"turn {model.turn}: a penalty for {model.player} rests on tile(s) seen nowhere "
                                     f"({codes}): it waits for the referee, who confirms it or says the tiles are there")
        if self.table.devices.desk is not None and self._referee_on_page():
            self.table.desk.attend(WAIT_SLICE)
            return
        answer, changes, note = self.table.devices.referee.held_penalty(model, held)
        self.record_held_answer(HeldAnswer(answer), tuple(changes), "arbiter at the table", note)

    def record_held_answer(self, answer: HeldAnswer, changes: tuple[tuple[int, str], ...], referee: str,
                           reason: str) -> None:
        model = self.table.model
        after = self.table.record(HeldPenaltyAnswered(turn=model.turn, player=model.player, answer=answer,
                                                changes=changes, referee=referee,
                                                at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), reason=reason))
        if answer is HeldAnswer.CONFIRMED:
            said = "confirmed: the penalty is recorded as judged"
        elif after.state is State.TURN_READING:
            said = "the tiles are there: the table is read again"
        else:
            said = ("the tiles are there" + (", as the referee reads them" if changes else "")
                    + "; any the table read still lacks are put back where they lay: the turn is judged again")
        self.table.devices.display.say(f"turn {after.turn}: {referee} answers the held penalty: {said}")

    def step_revealing(self) -> None:
        model = self.table.model
        if not model.to_reveal():  # every rack is laid open; a rack whose count did not fit waits for the referee
            self.check_counted_rack(model.racks_to_check[0])
            return
        player = model.to_reveal()[0]
        self.table.wait_press(f"game over: {player}, lay your rack open on the table (away from the sets"
                        + (" and from the racks laid open before" if model.revealed else "") + "), then press a button")
        seen = self.table.looking.look_still()
        rack = rack_tiles(seen.reading, model.table, self.table.settings.rebuild, self.table.settings.rack,
                          left_lying(self.previous_rack_reading()))
        rack_codes, doubts = rack.codes, rack.doubts
        expected = model.rack_of(player)
        self.table.record(RackRevealed(player=player, codes=rack_codes, expected=expected, photo=seen.photo.sha256,
                                 reading=seen.raw.sha256, doubts=doubts), photos=seen.photos, readings=seen.raws)
        self.rack_reading = seen.reading
        if len(rack_codes) != expected:  # never scored as read: the referee gives the rack's tiles
            self.check_counted_rack(player)
            return
        if doubts:
            codes, note = self.table.devices.referee.check_rack(player, rack_codes, expected, doubts)
            if codes is not None:
                self.table.record(RefereeCorrection(target=RefereeCorrection.rack_target(player), changes=(), rack=tuple(codes), note=note))

    def previous_rack_reading(self) -> TableReading | None:
        """The reading the last rack laid open was read from (a resumed game's from the records): its
        tiles were on the table before the next rack was laid."""
        if not self.table.model.revealed:
            return None
        if self.rack_reading is None:
            shown = next((e for e in reversed(self.table.records.events(self.table.game_id)) if isinstance(e, RackRevealed)), None)
            raw = self.table.records.reading(shown.reading, shown.photo) if shown is not None and shown.reading else None
            self.rack_reading = TableReading.from_json(raw.reading) if raw is not None else None
        return self.rack_reading

    def check_counted_rack(self, player: str) -> None:
        """A rack laid open whose count is not the count the records hold (a rack left lying under the next,
        a tile missed or read twice): the referee gives its tiles; it is never scored as read."""
        model = self.table.model
        codes, expected = model.laid_open(player) or (), model.rack_of(player)
        if self.table.devices.desk is not None and self._referee_on_page():
            if self.rack_announced != player:
                self.rack_announced = player
                self.table.devices.display.say(f"{player}'s rack: {len(codes)} tiles read, {expected} counted: the referee "
                                         f"gives its tiles on the referee page")
            self.table.desk.attend(WAIT_SLICE)
            return
        self.table.devices.display.say(f"{player}'s rack: {len(codes)} tiles read, {expected} counted: the referee gives "
                                 f"its tiles")
        try:
            answer, note = self.table.devices.referee.check_rack(player, codes, expected, ())
        except AdapterError as error:  # no referee to answer (input closed, a script without the rack)
            raise GameNotScoredError(
                f"game {self.table.game_id}: {player}'s rack was read with {len(codes)} tiles, {expected} counted, and "
                f"the referee gave none ({error}); give its tiles with `{self.correct_command(player)}`, then "
                f"`tileref play --resume` scores the game") from None
        if answer is None:
            self.table.devices.display.say(f"{player}'s rack is not taken as read: {len(codes)} tiles read, {expected} "
                                     f"counted; the referee types the tiles as they are")
            return
        self.table.record(RefereeCorrection(target=RefereeCorrection.rack_target(player), changes=(), rack=tuple(answer),
                                      note=note))

    def correct_command(self, player: str) -> str:
        """The `tileref correct` line that gives `player`'s rack for this game."""
        where = self.table.records.path
        return (f"tileref correct" + (f" --db {where}" if where else "") + f" --game {self.table.game_id} "
                f"--rack {player} --tiles '...'")

    def _referee_on_page(self) -> bool:
        referee = self.table.devices.referee
        return isinstance(referee, RefereeOnPage) and referee.on_page

    def step_scoring(self) -> None:
        model = self.table.model
        try:
            event = judging.score(model)
        except RulesError as error:  # the racks as laid open (or corrected) cannot all be true
            raise GameNotScoredError(
                f"game {self.table.game_id} cannot be scored: {error}; correct the racks laid open "
                f"({'; '.join(f'{name}: {len(codes)} tiles' for name, codes in model.revealed)}) with "
                f"`{self.correct_command('NAME')}` (one --rack and --tiles pair for each rack, all at once); the "
                "game is scored then") from None
        self.table.record(event)
        self.table.devices.display.scores(event, self.table.head())
