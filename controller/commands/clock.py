"""`tileref clock shogi|othello|mahjong --timer PORT [--event E --stage S --table T]`.

The adapter around the pure clock (`controller.clock`): it carries the machine's commands to
the timer box (the firmware bridge's driver, DUEL or SESSION mode), the box's presses and
expiries and the director's stdin lines back into it, records every fact hash-chained in the
records store, and enters the result into the event's draw. See docs/clock.md.
"""
from __future__ import annotations

import json
import queue
import sys
import threading
import time

from controller.clock import (
    BoxAccount, BoxAction, ClockError, ClockRunning, ClockFact, ClockGame, ClockInputError, Entered, Fact, FlagFell, Phase, Pressed, Scoring,
    default_rules, locate, override, start, step,
)
from controller.clock.journal import ClockJournal
from controller.game.events import GameCreated
from controller.messages import named
from controller.records import Records
from controller.records.errors import RecordsError
from controller.records.keyring import require_trusted_table
from controller.tournament import DEFAULT_DB, TournamentError, TournamentStore

from .argtypes import COUNT
from .json_out import add_json_option, json_report
from .records import add_private_key_option
from .web import add_lang_option

ERRORS: tuple[type[BaseException], ...] = (ClockError, TournamentError, RecordsError)
POLL_S = 0.02
# How long a restore waits for the box's session to come back after a reboot (the driver re-runs the
# handshake on its own), and how often a restore that did not take is tried again while the link is up.
RESTORE_WAIT_S = 3.0
RESTORE_RETRY_S = 0.5
# How long the clock waits for a box whose link went (cable out, port gone) before it gives up naming
# the port: the same as a table's (controller/adapters/timer.py LINK_GIVE_UP_S). A box back within it
# carries on (and gets its clock back if it rebooted); the director may enter the result meanwhile.
LINK_GIVE_UP_S = 60.0


def _fail_timer(port: str, error: Exception) -> ClockError:
    return ClockError(f"timer {port!r}: {error}")


def _stdin_lines(stream) -> queue.Queue:
    lines: queue.Queue = queue.Queue()

    def read() -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))
        lines.put(None)  # end of input

    threading.Thread(target=read, daemon=True, name="clock-stdin").start()
    return lines


def _resolve(args):
    game = ClockGame(args.clock_game)
    if args.event is not None:
        if args.stage is None or args.table is None:
            raise ClockInputError("--event needs --stage ROUND and --table N")
        if args.players:
            raise ClockInputError("--players: the event's draw names the players, give one or the other")
        with TournamentStore(args.db) as store:
            ref = locate(store.load(args.event), game, args.stage, args.table, args.game_number)
        rules, seats, game_id = ref.rules, ref.seats, ref.game
    else:
        if not args.players:
            raise ClockInputError("without --event, name the players: --players A,B (mahjong: four, first dealer first)")
        seats = tuple(p.strip() for p in args.players.split(","))
        scoring = Scoring(args.scoring) if args.scoring else None
        rules, game_id = default_rules(game, scoring=scoring), ""
    if args.scoring and args.event is not None:
        raise ClockInputError("--scoring: an event's game is scored by the event's rules")
    rules = override(rules, minutes=args.minutes, seconds=args.seconds, reading=args.reading, no_limit=args.no_limit)
    return rules, tuple(seats), game_id


class ClockRun:
    """One clock game: the box, the records and the machine's state, tied together."""

    def __init__(self, driver, journal: ClockJournal, state, out=None):
        # standard output as it is when the run starts (with --json, standard error)
        self.driver, self.journal, self.state, self.out = driver, journal, state, out or sys.stdout
        self.last_box = None
        self.result = None
        self.board = None  # `--web`: the clock on the table display (controller.web.live.ClockBoard)
        # The box's clocks as the box last said (acks, presses, ticks): what a rebooted box is given back.
        self.account = BoxAccount.for_rules(state.rules)
        self.restore_due: str | None = None  # the cause of a restore that has not taken yet
        self._restore_tried = 0.0
        self._restore_failure_said = False
        self.link_give_up = LINK_GIVE_UP_S
        self._link_down_since: float | None = None  # when the box's link went (None: it is up)
        self._link_down_reason = ""

    def apply(self, result_step) -> None:
        self.state = result_step.state
        self.result = result_step.result or self.result
        for command in result_step.commands:
            self.last_box = self._command(command)
        for fact in result_step.facts:
            self.record(fact)

    def _send(self, command):
        """One command to the box (raises the driver's BridgeError); the account takes the box's answer."""
        from firmware_bridge.protocol import BridgeError, Mode

        if command.action is BoxAction.CONFIGURE:
            try:
                self.driver.stop()  # a clock left running from before refuses a new setting
            except BridgeError:
                pass
            state = self.driver.configure(Mode(command.mode), command.seconds)
        elif command.action is BoxAction.BANK:
            state = self.driver.set_bank(command.seat, command.ms)
        elif command.action is BoxAction.START:
            state = self.driver.start(command.seat)
        elif command.action is BoxAction.PAUSE:
            state = self.driver.pause()
        else:
            state = self.driver.resume()
        if self.account is not None:
            self.account = self.account.seen(state)
        return state

    def _command(self, command):
        from firmware_bridge.protocol import BridgeError

        try:
            return self._send(command)
        except BridgeError as error:
            # a box that refused (or lost) the command: recorded, the game goes on by the director's word
            self.record(Fact(ClockFact.BOX, None, (), f"the box did not take {command.action.value}: {error}"))
            return None

    def _times(self, fact: Fact) -> tuple[tuple[str, int], ...]:
        if fact.ms_left:
            return fact.ms_left
        if self.account is not None and self.account.clock is not ClockRunning.NOT_STARTED:
            return self.account.times(self.state.seats)
        if self.last_box is None:
            return fact.ms_left
        box = self.last_box
        if box.banks:
            return tuple((self.state.seats[i], ms) for i, ms in enumerate(box.banks[:2]))
        return (("session", box.ms_left),)

    def record(self, fact: Fact) -> None:
        ms_left = self._times(fact)
        self.journal.record(self.state, fact, ms_left)
        if self.board is not None:
            self.board.fact(fact.what.value, fact.player, ms_left, fact.detail, self.state.phase.value)
        times = "; ".join(f"{name} {ms / 1000:.1f} s" for name, ms in ms_left)
        print(f"{named('clockfact', fact.what)}: {fact.detail}" + (f" [{times}]" if times else ""), file=self.out,
              flush=True)

    def feed(self, event) -> None:
        try:
            self.apply(step(self.state, event))
        except ClockInputError as error:
            # a mistyped line must not stop a running clock: say so on one line, keep going
            print(f"tileref clock: {error}", file=sys.stderr, flush=True)

    def box_event(self, event) -> None:
        from firmware_bridge import events as box

        account = self.account
        if isinstance(event, box.Tick):
            if account is not None:
                self.account = account.ticked(event.seat, event.seconds_left)
            if self.board is not None:
                self.board.tick(event.seat, event.seconds_left)
        elif isinstance(event, box.ButtonPressed):
            if account is not None:
                self.account = account.pressed(event.button, event.running_seat, event.ms_left)
            self.feed(Pressed(event.button, event.running_seat, event.ms_left))
        elif isinstance(event, box.Expired):
            if account is not None:
                self.account = account.expired(event.seat)
            self.feed(FlagFell(event.seat))
        elif isinstance(event, (box.DeviceReset, box.Disconnected, box.Reconnected, box.EventsLost,
                                box.StateChecked, box.LinkNoise)):
            state = getattr(event, "state", None)
            if state is not None and account is not None:
                # the same boot: the box kept its clock and says where it stands (a rebooted box's
                # unconfigured state is not this game's and leaves the account as it was)
                self.account = account.seen(state)
            # recorded with the account's times: a rebooted box's are what it had when it went
            self.record(Fact(ClockFact.BOX, None, (), f"{type(event).__name__}: {event}"))
            if isinstance(event, box.Disconnected):
                self.link_went(event.reason, time.monotonic())
            elif isinstance(event, (box.Reconnected, box.DeviceReset)):
                self.link_back()
            if isinstance(event, box.DeviceReset) or (isinstance(event, box.Reconnected) and event.rebooted):
                self._restore_failure_said = False
                self.restore(type(event).__name__)
                return
            if state is not None and state.phase.value == "EXP" and self.state.phase is Phase.RUNNING:
                self.feed(FlagFell(state.seat or 0))  # the expiry frame was lost; the box's state says it


    def restore(self, cause: str) -> None:
        """A rebooted box lost this game's clock: give it back each clock's time and the side to move
        from the account (BANK), record that as a fact, go on. A box that cannot take BANK is said
        and recorded; the director ends the game with a result line."""
        from firmware_bridge.protocol import BridgeError

        account = self.account
        self.restore_due = None
        if account is None or self.state.phase is Phase.FINISHED:
            return
        if not account.restorable:
            if account.clock is ClockRunning.EXPIRED:
                self.record(Fact(ClockFact.BOX, None, (), "the box's clock had run out already: nothing to give back"))
            return
        if not self.driver.wait_connected(RESTORE_WAIT_S):
            self._restore_later(cause, "the box's session is not back yet")
            return
        if not self.driver.can_set_banks:
            self.record(Fact(ClockFact.BOX, None, (), "the box cannot be given its clock back (its firmware does "
                             "not take BANK): the times recorded here stand; the director ends the game with a "
                             "result line"))
            return
        given = account.times(self.state.seats)
        try:
            for command in account.restore_commands():
                self.last_box = self._send(command)
        except BridgeError as error:
            self._restore_later(cause, str(error))
            return
        self._restore_failure_said = False
        times = ", ".join(f"{name} {ms / 1000:.1f} s" for name, ms in given)
        to_move = self.state.player_at(account.seat) if account.mode.value == "DUEL" else None
        paused = "; the clock stays paused" if account.clock is ClockRunning.PAUSED else ""
        self.record(Fact(ClockFact.RESTORED, to_move, given, f"after {cause}: the box counts on from {times}"
                         + (f", {to_move} to move" if to_move else "") + paused
                         + " (the time the box was away is charged to no one)"))

    def link_went(self, reason: str, now: float) -> None:
        """The box's link went (the driver's Disconnected): the clock waits for it and says so once."""
        self._link_down_reason = reason
        if self._link_down_since is None:
            self._link_down_since = now
            print(f"waiting for the timer box on {self.driver.port!r} to answer again (giving up after "
                  f"{self.link_give_up:.0f} s; a result line is taken meanwhile)", file=self.out, flush=True)

    def link_back(self) -> None:
        if self._link_down_since is not None:
            print(f"timer box on {self.driver.port!r} answers again", file=self.out, flush=True)
        self._link_down_since = None

    def watch_link(self, now: float) -> None:
        """A ClockError naming the port once the link has been down `link_give_up` s in a row."""
        if self._link_down_since is None or self.driver.connected:
            return  # up, or back with its Reconnected still to be read
        waited = now - self._link_down_since
        if waited > self.link_give_up:
            why = f"no box has answered for {waited:.0f} s" + (f" ({self._link_down_reason})"
                                                               if self._link_down_reason else "")
            self.record(Fact(ClockFact.BOX, None, (), f"gave up waiting for the box on {self.driver.port}: {why}"))
            raise ClockError(f"timer {self.driver.port!r}: {why}; check the cable, the power and the port. Clock "
                             f"game {self.journal.game_no} is recorded as far as it went: enter its result with "
                             "`tileref tournament result`")

    def _restore_later(self, cause: str, why: str) -> None:
        self.restore_due, self._restore_tried = cause, time.monotonic()
        if not self._restore_failure_said:  # said once; the retries stay quiet until one takes
            self._restore_failure_said = True
            self.record(Fact(ClockFact.BOX, None, (), f"the restore after {cause} did not take ({why}); "
                             "trying again"))

    def housekeeping(self) -> None:
        """Called by the loop: a restore that did not take is tried again once the link is up; a link
        that stays down past `link_give_up` ends the run naming the port."""
        self.watch_link(time.monotonic())
        due = self.restore_due
        if due is not None and self.driver.connected and time.monotonic() - self._restore_tried >= RESTORE_RETRY_S:
            self.restore(due)


def cmd_clock(args) -> int:
    with json_report(args.json) as report:
        return _clock(args, report)


def _clock(args, report) -> int:
    from controller.records.signing import load_table_key, table_key
    from firmware_bridge.driver import TimerDriver
    from firmware_bridge.protocol import BridgeError

    rules, seats, game_id = _resolve(args)
    first = start(rules, game_id, seats, args.first)  # refuses bad players before the box or the records
    key = table_key(args.key)
    director = load_table_key(args.director_key) if args.director_key else None  # a bad file stops before the game
    if args.event is not None:  # before the box or anything recorded: a result the event would not count
        with Records(args.db) as records:
            require_trusted_table(records.keyring(), key.public, args.event, args.db)
    web = None
    if args.web:
        from controller.web.session import TableWeb

        web = TableWeb(args.web, args.db, kind="clock", lang=args.lang)  # a bad --web or a port in use stops before anything opens
    driver = TimerDriver(args.timer)
    try:
        driver.open()
    except BridgeError as error:
        if web is not None:
            web.stop()
        raise _fail_timer(args.timer, error) from None
    lines = _stdin_lines(sys.stdin)
    try:
        with Records(args.db, key=key) as records:
            created = GameCreated(variant=f"clock-{rules.game.value}", players=seats,
                                  turn_seconds=rules.seconds or 0,
                                  ruleset=(*rules.pairs(), ("event", args.event), ("game", game_id)))
            journal = ClockJournal.start(records, created)
            game_no = journal.game_no
            run = ClockRun(driver, journal, first.state)
            if web is not None:
                from controller.web.live import ClockBoard

                run.board = ClockBoard(web.live, rules.game.value, game_id, rules.box_mode, seats,
                                       first.state.first, rules.seconds)
                web.start()
            print(f"clock game {game_no} in {args.db}", flush=True)
            run.apply(first)
            result = first.result
            while result is None:
                event = driver.next_event(timeout=POLL_S)
                if event is not None:
                    run.box_event(event)
                run.housekeeping()
                try:
                    line = lines.get_nowait()
                except queue.Empty:
                    line = ""
                if line is None:
                    raise ClockInputError(f"input ended before the result of {game_id or 'the game'} was entered "
                                          f"(clock game {game_no} is recorded as far as it went)")
                if line.strip():
                    run.feed(Entered(line))
                result = run.result
            if web is not None:  # the result stays on the display until the director's input ends
                print(f"web: the game is over; the display stays up at {web.url}/table until the input ends",
                      flush=True)
                try:
                    while lines.get() is not None:
                        pass
                except KeyboardInterrupt:
                    pass
    finally:
        if web is not None:
            web.stop()
        driver.close()
    if args.event is not None:
        with TournamentStore(args.db) as store:
            store.add_results(args.event, [result], source=f"tileref clock, records game {game_no}",
                              signer=director)
        print(f"recorded {game_id} in event {args.event!r}", flush=True)
    from controller.tournament.storage import result_to_json

    report.emit({"clock_game": game_no, "db": str(args.db), "game": rules.game.value, "players": list(seats),
                 "event": args.event, "tournament_game": game_id, "result": json.loads(result_to_json(result))})
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("clock", help="run a shogi/othello/mahjong game on the timer box, "
                                   "record it and enter its result")
    parser.add_argument("clock_game", choices=[g.value for g in ClockGame], metavar="GAME",
                        help="shogi, othello or mahjong")
    parser.add_argument("--timer", required=True, metavar="PORT", help="the timer box's serial port")
    parser.add_argument("--db", default=DEFAULT_DB, help=f"records and tournament SQLite file (default {DEFAULT_DB})")
    parser.add_argument("--event", help="the tournament event the game belongs to")
    parser.add_argument("--stage", type=COUNT, metavar="ROUND", help="the event's round (R in R1-T2-G1)")
    parser.add_argument("--table", type=COUNT, metavar="N", help="the table in that round")
    parser.add_argument("--game-number", type=COUNT, default=1, metavar="G", help="the game at that table (default 1)")
    parser.add_argument("--players", help="without --event: A,B (mahjong: four, first dealer first)")
    parser.add_argument("--first", metavar="NAME", help="sente (shogi) or black (othello); default: the table's first seat")
    parser.add_argument("--minutes", type=float, help="override the time (per side or per game)")
    parser.add_argument("--seconds", type=int, help="override the time in seconds")
    parser.add_argument("--reading", help="othello: per-side or per-game (default per-game)")
    parser.add_argument("--no-limit", action="store_true", help="mahjong: no session limit")
    parser.add_argument("--scoring", choices=[s.value for s in Scoring], help="mahjong without --event")
    add_private_key_option(parser)
    parser.add_argument("--director-key", metavar="FILE", help="with --event: the director's private key that signs "
                        "the result onto the event's log (default: this user's key); where the database keeps a "
                        "keyring, it must be in it as a director's")
    parser.add_argument("--web", metavar="HOST:PORT", help="also show the clock on the table display in the "
                        "browser (loopback by default; port 0 picks a free one); see docs/web.md")
    add_lang_option(parser)
    add_json_option(parser, 'when the result is in, {"clock_game", "db", "game", "players", "event", '
                    '"tournament_game", "result": {"kind", ...}}; the clock\'s lines go to standard error')
    parser.set_defaults(handler=cmd_clock)
