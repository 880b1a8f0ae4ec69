"""`tileref play`, `audit`, `replay` and `demo`: run a table, and look back at what it recorded."""
from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import threading
import time
import unicodedata
from pathlib import Path

from controller.game.errors import GameError
from controller.records.errors import RecordsError
from controller.records.keyring import require_trusted_table
from controller.rules.errors import RulesError
from controller.rules.judge import Outcome

from .argtypes import COUNT, GAME_ID, TURN_SECONDS
from .json_out import add_json_option, chain_report_data, json_report
from .records import add_private_key_option, add_public_key_option, verified_game
from .web import add_lang_option, add_watch_delay_option, add_web_option, linger

ERRORS: tuple[type[BaseException], ...] = (GameError, RecordsError, RulesError)


class TurnRequiredError(GameError, ValueError):
    """`tileref audit` of a table's game without --turn (a clock game has no turns and needs none)."""



DEFAULT_AREA_FILE = "play-area.json"  # the table's play area, beside its records, when --area is not given
RECORDS_DB = "records: an SQLite file, sqlite:///PATH or postgresql://..."


def register(subparsers) -> None:
    play = subparsers.add_parser("play", help="run a game at a table: camera, timer box, records")
    play.add_argument("--camera", required=True, help="device index, stream URL, video file or folder of images")
    play.add_argument("--timer", required=True, help="serial port of the timer box, or 'emulator'")
    play.add_argument("--variant", help="classic, japan-2017 or world (default: with --event, the event's rules; "
                      "else classic)")
    play.add_argument("--rules", metavar="FILE.toml", help="a club's own rule set (extends a variant); the game "
                      "records it whole and is judged by it, resumed or not")
    play.add_argument("--players", help="names in seat order, clockwise: A,B,C,D (not with --resume)")
    play.add_argument("--db", required=True, help="records: an SQLite file (created if missing), sqlite:///PATH, "
                      "or the club server postgresql://HOST/DB (docs/club.md)")
    play.add_argument("--spool", metavar="FILE", help="with a postgresql:// --db: where events wait while the server "
                      "is away (default tileref-spool.sqlite)")
    play.add_argument("--event", help="the tournament event this game is drawn in (its players come from the draw)")
    play.add_argument("--stage", type=COUNT, metavar="ROUND", help="with --event: the round (R in R1-T2-G1)")
    play.add_argument("--table", type=COUNT, metavar="N", help="with --event: the table in that round")
    play.add_argument("--game-number", type=COUNT, default=1, metavar="G", help="with --event: the game at that table")
    play.add_argument("--table-name", metavar="NAME", help="the table's name on the club board")
    play.add_argument("--resume", action="store_true", help="continue the last unfinished game in --db")
    play.add_argument("--game", type=GAME_ID, help="with --resume: the game id to continue")
    play.add_argument("--starter", help="skip the start draw: this player starts")
    play.add_argument("--turn-seconds", type=TURN_SECONDS,
                      help="override the variant's seconds per turn (1..86400, what the box takes)")
    play.add_argument("--clock-rate", type=float, default=1.0, help="emulator only: box seconds per real second")
    play.add_argument("--profile", metavar="FILE.json", help="the club set's profile from `tileref calibrate`")
    play.add_argument("--area", metavar="AREA.json", help="the table's play area file, from `tileref area` or the "
                      "referee page (default: play-area.json beside the records, when there is one; else the area "
                      "is found on each frame)")
    play.add_argument("--confirm-area", action=argparse.BooleanOptionalAction, default=None,
                      help="as a fresh game begins, the referee confirms the play area found on the clear table and "
                      "that nothing lies on it (the arbiter button, or accept on the referee page, where the "
                      "area's corners can be dragged first); the table so confirmed is what the first turn is "
                      "compared with. Default: on with a live camera (a device index or a stream URL), where a "
                      "referee stands at the table; off with a video file or a folder of images, which play as "
                      "recorded")
    add_web_option(play, "the table display and the referee page (the referee's doubts are then answered there)")
    add_watch_delay_option(play, recorded=True)
    add_private_key_option(play)
    add_json_option(play, 'when the game is over, {"game", "db", "variant", "players", "state", "turns", "end", '
                    '"winner", "scores", "penalties", "events"}; what the table says while it plays goes to '
                    'standard error')
    play.set_defaults(handler=run_play)

    audit = subparsers.add_parser("audit", help="one turn as a self-contained HTML page; a clock game's facts")
    audit.add_argument("--db", required=True, help=RECORDS_DB)
    audit.add_argument("--game", type=GAME_ID, help="game id (default: the last game)")
    audit.add_argument("--turn", type=COUNT, help="the turn of a table's game (required there; a `tileref clock` "
                       "game has no turns: its facts are printed one a line)")
    audit.add_argument("--out", help="HTML file to write (default audit-game-G-turn-T.html; a clock game: "
                       "only when given)")
    audit.add_argument("--json", action="store_true", help="print the turn (a clock game: its facts) as JSON "
                       "(the web page's /api shape)")
    add_lang_option(audit, "the audit page")
    add_public_key_option(audit)
    audit.set_defaults(handler=run_audit)

    replay = subparsers.add_parser("replay", help="step through a recorded game turn by turn")
    replay.add_argument("--db", required=True, help=RECORDS_DB)
    replay.add_argument("--game", type=GAME_ID, help="game id (default: the last game)")
    replay.add_argument("--no-wait", action="store_true", help="print every turn without waiting for Enter")
    replay.add_argument("--json", action="store_true", help="print the replay's steps as JSON (the web page's /api shape)")
    add_public_key_option(replay)
    replay.set_defaults(handler=run_replay)

    correct = subparsers.add_parser("correct", help="referee: correct racks read at the end; the game is scored again")
    correct.add_argument("--db", required=True, help=RECORDS_DB)
    correct.add_argument("--game", type=GAME_ID, help="game id (default: the last game)")
    correct.add_argument("--rack", required=True, action="append", metavar="PLAYER",
                         help="whose laid-open rack to correct; repeat --rack PLAYER --tiles '...' for several "
                              "racks, corrected and scored together")
    correct.add_argument("--tiles", required=True, action="append",
                         help="the rack's tiles as they really are, e.g. 'R5 K13 J' (one for each --rack, in order)")
    correct.add_argument("--note", default="corrected by the referee", help="why (recorded with the correction)")
    add_private_key_option(correct)
    add_json_option(correct, '{"game", "rack", "tiles" (the first rack), "racks": {PLAYER: [codes]}, "state", '
                    '"scored_again", "winner", "scores"}')
    correct.set_defaults(handler=run_correct)

    demo = subparsers.add_parser("demo", help="play the bundled recorded game through the whole pipeline")
    demo.add_argument("--out", default="tileref-demo", help="directory for the records and audit pages")
    demo.add_argument("--script", default="game",
                      help="a bundled game (game: felt, 11 turns; wood-game: a wooden top and real tile faces, "
                           "22 turns; world-game: world rules, a redeal after the deal and a failed turn whose "
                           "table cannot be restored) or the path of a recorded game script (JSON)")
    demo.add_argument("--resume", action="store_true", help="continue the demo game left unfinished in --out")
    demo.add_argument("--quiet", action="store_true", help="print only verdicts, scores and where files went")
    demo.add_argument("--profile", metavar="FILE.json", help="the club set's profile from `tileref calibrate`")
    add_web_option(demo, "the table display and the referee page while the game plays (they stay up after it)",
                   "the --web pages and the audit pages written in --out")
    add_watch_delay_option(demo, recorded=True)
    demo.add_argument("--pace", type=float, default=0.0, metavar="S",
                      help="hold the game S seconds after each verdict and restore plan (to watch it on --web)")
    add_private_key_option(demo)
    add_json_option(demo, 'when the game is over, the summary of `play --json` and {"out", "check": {...as '
                    'verify}, "audit_pages", "penalty_turns", "press_to_verdict_ms", "seconds"}; what the table '
                    'says while it plays goes to standard error')
    demo.set_defaults(handler=run_demo)


# ----------------------------------------------------------------------- play


def _players(text: str | None) -> tuple[str, ...]:
    if not text:
        raise GameError("--players is required for a new game: names in seat order, e.g. --players Ann,Ben,Cat,Dan")
    names = tuple(name.strip() for name in text.split(","))
    if any(not name for name in names):
        raise GameError(f"--players {text!r} has an empty name")
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None:
        raise GameError(f"--players {text!r} holds the character {bad!r}; names are printable text")
    return names


def _open_game(records, resume: bool, game: int | None, create, finished_ok: bool = False) -> int:
    """The game to run: a new one (`create`), or with `resume` the given or last one, refused when it
    is over unless `finished_ok` (the demo: a kill after the score still owes its audit pages)."""
    from controller.game.machine import State, fold

    if not resume:
        return create()
    if game is None:  # the last game that was started (a game row with no events was never started)
        game = records.latest_game(with_events=True)
    elif records.head(game)[0] == 0:
        raise GameError(f"game {game} in {str(records.path)!r} holds no events (it was never started): "
                        "start a new game")
    # verified before folding: a tampered record is reported as tampering (exit 3), not as a
    # state-machine error; and it is refused before a wrong key would sign onto it
    game_id, _ = game, records.require_intact(game, ring=False)  # a table goes on whatever a club's keyring says
    records.check_signer(game_id)
    model = fold(records.events(game_id))
    if model.state in (State.FINISHED, State.DISQUALIFIED) and not finished_ok:
        raise GameError(f"game {game_id} in {str(records.path)!r} is already over ({state_words(model.state)}); nothing to resume")
    return game_id


def state_words(state) -> str:
    """Where a game stands, in the players' words (the console's lines), never the state's own name."""
    from controller.messages import catalogue

    return catalogue("en").maybe(f"phase.{state.value}", state.value).lower()


def game_summary(game_id: int, db: str, model) -> dict:
    """How a game stands (over, for `play` and `demo`): the object their --json prints."""
    return {"game": game_id, "db": str(db), "variant": model.variant, "players": list(model.players),
            "state": model.state.value, "turns": model.turn,
            "end": getattr(model.end, "value", model.end), "winner": model.winner, "scores": dict(model.scores),
            "penalties": dict(zip(model.players, model.penalties)), "events": model.events}


def run_play(args: argparse.Namespace) -> int:
    with json_report(args.json) as report:
        return _play(args, report)


def _play(args: argparse.Namespace, report) -> int:
    from controller.adapters.camera import describe_camera, open_camera
    from controller.adapters.desk import PageReferee
    from controller.adapters.display import ConsoleDisplay
    from controller.adapters.reader import VisionReader
    from controller.adapters.referee import ConsoleReferee
    from controller.table import RunnerSettings, TableDevices, TableRunner
    from controller.adapters.timer import open_timer
    from controller.game import judging
    from controller.game.journal import GameJournal
    from controller.game.machine import GameModel, apply, fold
    from controller.records.signing import table_key
    from controller.rules.variants import load_ruleset

    if args.turn_seconds is not None and args.turn_seconds <= 0:
        raise GameError(f"--turn-seconds {args.turn_seconds} must be positive")
    if not (math.isfinite(args.clock_rate) and 0.01 <= args.clock_rate <= 1000):
        raise GameError(f"--clock-rate {args.clock_rate} is outside 0.01..1000")
    from controller.records.club import open_table_records
    from controller.tournament.table_seats import tournament_seats

    db = Path(args.db)
    link = tournament_seats(args) if args.event is not None and not args.resume else None
    players = None if args.resume else (link.seats if link else _players(args.players))
    rules = load_ruleset(args.rules) if args.rules and not args.resume else _variant(args.variant, link)
    first = None if args.resume else judging.game_created(rules, players, args.turn_seconds, args.watch_delay)
    if first is not None:
        apply(GameModel(), first)  # refuse bad settings before anything is opened or written
        if args.starter is not None and args.starter not in players:
            raise GameError(f"--starter {args.starter!r} is not one of the players {list(players)!r}")
    key = table_key(args.key)  # a bad key file stops before anything opens
    from controller.records.engine import parse_db

    beside_records = db.parent if not parse_db(args.db).is_server else Path(".")
    area_file = Path(args.area) if args.area else beside_records / DEFAULT_AREA_FILE
    # a bad profile or area stops before the camera opens; the referee page's marks go to the area file
    reader = VisionReader(args.profile, str(area_file) if args.area or area_file.exists() else None, str(area_file))
    if reader.area is not None:
        print(f"play area: marked in {area_file}", flush=True)
    photo_dir = beside_records / "restore-photos"
    console = ConsoleDisplay(photo_dir=photo_dir)
    token = _referee_token(beside_records, db, args.resume) if args.web else None
    web = _bind_web(args.web, args.db, console, args.lang, args.watch_delay, token)  # a bad --web or a port in use stops before anything opens
    try:
        opened = open_table_records(args.db, key=key, spool=args.spool)  # a bad --db stops before the camera
    except BaseException:
        _unbind_web(web)
        raise
    try:
        camera = open_camera(args.camera)
    except BaseException:
        opened.close()
        _unbind_web(web)
        raise
    print(f"camera: {describe_camera(camera)}", flush=True)
    try:
        timer = open_timer(args.timer, args.clock_rate)
    except BaseException:
        camera.close()
        opened.close()
        _unbind_web(web)
        raise
    game_id = None
    try:
        with opened as records:
            def create() -> int:
                return GameJournal.start(records, first, table_name=args.table_name,
                                         event=link.event if link else None,
                                         tournament_game=link.game if link else None).game_id

            if link is not None:  # before anything is recorded: a result the event would not count
                require_trusted_table(records.keyring(), key.public, link.event, args.db)
            game_id = _open_game(records, args.resume, args.game, create)
            if web is not None:
                _keep_referee_token(beside_records, db, web.token)
            _start_web(web, records, game_id, timer)
            recorded = fold(records.events(game_id))
            keys = _emulator_keys(timer, recorded.players,
                                  bool(recorded.rules and recorded.rules.timer_skip_for_simple_turns))
            referee = PageReferee() if web else ConsoleReferee(stdin=keys) if keys else ConsoleReferee()
            devices = TableDevices(camera, timer, reader, web.display if web else console, referee,
                                   desk=web.desk if web else None)
            settings = RunnerSettings(starter=args.starter, confirm_area=confirms_area(args.confirm_area, camera))
            runner = TableRunner(records, game_id, devices, settings,
                                 observer=_observers(console.observe, web.display.observe if web else None))
            print(f"game {game_id} in {db}: {state_words(runner.model.state)}", flush=True)
            try:
                model = runner.run()
            except KeyboardInterrupt:
                # what was recorded stays: the next step is done again by a resumed play
                print(f"stopped: game {game_id} in {args.db} is recorded as far as it went "
                      f"({state_words(runner.model.state)}); continue with `tileref play --resume --db {args.db} "
                      f"--game {game_id}` and the same --camera and --timer", file=sys.stderr, flush=True)
                raise
            if web is not None:
                print(f"web: the game is over; the pages stay up at {web.url}/ until Ctrl-C", flush=True)
                try:
                    runner.attend_after_game(threading.Event())
                except KeyboardInterrupt:
                    pass
    except KeyboardInterrupt:
        if game_id is None:
            print("stopped before a game was started: nothing was recorded", file=sys.stderr, flush=True)
        raise
    finally:
        if web is not None:
            web.stop()
        timer.close()
        camera.close()
    print(f"game {game_id}: {state_words(model.state)}")
    report.emit(game_summary(game_id, args.db, model))
    return 0


def confirms_area(asked: bool | None, camera) -> bool:
    """Whether the referee confirms the area found on the clear table as a fresh game begins: as asked
    (--confirm-area, --no-confirm-area), else with a live camera only: a referee stands at that table, while
    a video file or a folder of images plays as it was recorded, with nobody to ask."""
    from controller.adapters.frames import SaysIfLive

    if asked is not None:
        return asked
    return isinstance(camera, SaysIfLive) and bool(camera.live)


def _variant(given: str | None, link) -> str:
    """The rules a new game plays by: an event's own (its format's), which --variant may only repeat."""
    event_rules = link.variant if link is not None else None
    if event_rules is None:
        return given or "classic"
    if given is not None and given != event_rules:
        raise GameError(f"--variant {given!r} differs from the rules of event {link.event!r}, {event_rules!r}: "
                        f"leave --variant out or give {event_rules}")
    return event_rules


def _observers(*observers):
    """One observer of the runner that tells each of `observers` (None: left out) in turn."""
    told = [o for o in observers if o is not None]

    def observe(model, event) -> None:
        for tell in told:
            tell(model, event)

    return observe


def _emulator_keys(timer, players: tuple[str, ...], own_clock: bool = False):
    """With `--timer emulator`: the emulated box's buttons, typed in play's terminal (with or without
    --web), and how, said once at the start; None for a real box. `own_clock`: each player starts
    their own clock (japan-2017)."""
    if getattr(timer, "emulator", None) is None:
        return None
    from controller.adapters.keys import EmulatorKeys, how_to_press

    how = how_to_press(players, own_clock)
    print(f"timer: the emulated box is on {timer.emulator.pty_path}; to press its buttons {how}", flush=True)
    return EmulatorKeys(timer.emulator.press, how=how)


def _bind_web(spec, db, console, lang: str = "en", watch_delay: int | None = None, token: str | None = None):
    """`--web`: the live pages of this table with their address bound (None without --web). Called
    before anything is recorded: a malformed address or a port in use is bad input (exit 2) and no
    game is started. `token`: the referee's (None: a new one)."""
    if not spec:
        return None
    from controller.web.session import TableWeb

    return TableWeb(spec, db, inner=console, lang=lang, watch_delay=watch_delay or 0, token=token)


def _token_file(beside_records: Path, db: Path) -> Path:
    """Where a table keeps its referee token between a stop and `--resume`: beside its records."""
    return beside_records / f".{db.name or 'tileref'}.referee-token"


def _referee_token(beside_records: Path, db: Path, resume: bool) -> str | None:
    """The referee token a resumed game's pages keep (the referee page stays signed in across a
    restart); None: a new game, or none kept, gets a new one."""
    if not resume:
        return None
    try:
        token = _token_file(beside_records, db).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return token if token and len(token) <= 64 and all(c.isalnum() or c in "-_" for c in token) else None


def _keep_referee_token(beside_records: Path, db: Path, token: str) -> None:
    """Kept for `--resume`, readable by this user only; a folder that cannot take it costs only a new token."""
    import os

    path = _token_file(beside_records, db)
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(handle, "w", encoding="ascii") as out:
            out.write(token + "\n")
    except OSError:
        pass


def _start_web(web, records, game_id: int, timer) -> None:
    """The bound pages serve `game_id` from here on, the box's countdown mirrored."""
    if web is None:
        return
    web.attach(records, game_id)
    web.mirror(timer)
    web.start()


def _unbind_web(web) -> None:
    if web is not None:
        web.stop()


# --------------------------------------------------------------------- views


def run_audit(args: argparse.Namespace) -> int:
    from controller.records import Records
    from controller.records.reports.views import audit_html

    with Records(args.db, create=False, read_only=True) as records:
        game_id, report = verified_game(records, args.game, args.key)
        from controller.clock.record_view import is_clock_game

        if is_clock_game(records, game_id):
            return _audit_clock_game(records, game_id, report, args)
        if args.turn is None:
            raise TurnRequiredError(f"--turn is required: game {game_id} is a table's game; audit one turn of it "
                                    f"(`tileref replay --db {args.db} --game {game_id}` lists them)")
        if args.json:
            from controller.records.reports.turn_data import audit_data

            print(json.dumps(audit_data(records, game_id, args.turn, report), ensure_ascii=False, indent=1))
            return 0
        page = audit_html(records, game_id, args.turn, report, args.lang)
    out = Path(args.out or f"audit-game-{game_id}-turn-{args.turn}.html")
    _write_text(out, page, "--out")
    print(f"audit of game {game_id} turn {args.turn}: {out}")
    return 0


def _audit_clock_game(records, game_id: int, report, args: argparse.Namespace) -> int:
    """A `tileref clock` game: verified (above), then every fact readably, as replay prints them, with
    each fact's place in the chain; --json the same data as the web page's /api; --out also an HTML page."""
    from controller.clock import ClockInputError
    from controller.clock.record_view import clock_game_data, clock_game_html, clock_game_lines
    from controller.records.reports.turn_data import chain_data

    if args.turn is not None:
        raise ClockInputError(f"--turn {args.turn}: game {game_id} is a clock game (tileref clock): it has no "
                              "turns; audit it without --turn")
    data = clock_game_data(records, game_id, chain_data(report))
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    print("\n".join(clock_game_lines(data)))
    if args.out:
        _write_text(Path(args.out), clock_game_html(data, args.lang), "--out")
        print(f"audit of clock game {game_id}: {args.out}")
    return 0


def run_replay(args: argparse.Namespace) -> int:
    from controller.records import Records
    from controller.records.reports.views import replay_lines

    with Records(args.db, create=False, read_only=True) as records:
        game_id, report = verified_game(records, args.game, args.key)  # tampered: exit 3 before anything
        if args.json:
            from controller.records.reports.turn_data import replay_data

            print(json.dumps(replay_data(records, game_id, report), ensure_ascii=False, indent=1))
            return 0
        for n, block in enumerate(replay_lines(records, game_id, report)):
            print("\n".join(block), flush=True)
            if not args.no_wait and n and sys.stdin.isatty():
                input("-- Enter for the next turn --")
    return 0


def run_correct(args: argparse.Namespace) -> int:
    from controller.game.events import RefereeCorrection
    from controller.game.journal import GameJournal
    from controller.records import Records
    from controller.records.signing import load_table_key
    from controller.rules.tiles import parse_tiles

    if len(args.rack) != len(args.tiles):
        raise GameError(f"--rack given {len(args.rack)} times and --tiles {len(args.tiles)} times: give each "
                        "--rack PLAYER its --tiles '...'")
    racks = {}
    for player, tiles in zip(args.rack, args.tiles):
        if player in racks:
            raise GameError(f"--rack {player!r} is given twice")
        racks[player] = tuple(t.code for t in parse_tiles(tiles.replace(",", " ").split()))
    key = load_table_key(args.key) if args.key else None  # None: this user's key, if the game is signed
    with Records(args.db, create=False, key=key) as records:
        game_id, _ = verified_game(records, args.game)
        records.check_signer(game_id)
        journal = GameJournal.resume(records, game_id)
        players = journal.model.players
        for player in racks:
            if player not in players:
                raise GameError(f"--rack {player!r} is not a player of game {game_id} ({', '.join(players)})")
        events = tuple(RefereeCorrection(target=RefereeCorrection.rack_target(player), changes=(), rack=codes,
                                         note=args.note) for player, codes in racks.items())
        # refused (exit 2, nothing recorded) unless those racks were laid open and the game scores with them
        scored = journal.record_scored(*events)
        state = journal.model.state.value
        names = " and ".join(f"{player}'s" for player in racks)
        if args.json:
            from .json_out import emit

            first, codes = next(iter(racks.items()))
            emit({"game": game_id, "rack": first, "tiles": list(codes),
                  "racks": {player: list(codes) for player, codes in racks.items()}, "state": state,
                  "scored_again": scored is not None, "winner": scored.winner if scored else None,
                  "scores": dict(scored.scores) if scored else None})
        elif scored is not None:
            print(f"game {game_id}: {names} rack{'s' if len(racks) > 1 else ''} corrected; scored again: winner "
                  f"{scored.winner}; " + ", ".join(f"{name} {points:+d}" for name, points in scored.scores))
        else:
            print(f"game {game_id}: {names} rack{'s' if len(racks) > 1 else ''} corrected ({state})")
    return 0


# ---------------------------------------------------------------------- demo


def _output_dir(path: Path) -> None:
    """--out: a directory (made if missing) that files can be written in; GameError naming it if not."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise GameError(f"--out {str(path)!r} is a file, not a directory") from None
    except OSError as error:
        raise GameError(f"--out {str(path)!r}: cannot make the directory: {error.strerror or error}") from None
    try:
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as error:
        raise GameError(f"--out {str(path)!r}: cannot write in it: {error.strerror or error}") from None


def _write_text(path: Path, text: str, what: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise GameError(f"{what} {str(path)!r} cannot be written: {error.strerror or error}") from None


def run_demo(args: argparse.Namespace) -> int:
    with json_report(args.json) as json_out:
        return _demo(args, json_out)


def _demo(args: argparse.Namespace, json_out) -> int:
    from controller.adapters.display import ConsoleDisplay, PacedDisplay
    from controller.adapters.reader import VisionReader
    from controller.demo.recorded_game import GameScript, RecordedTable, RecordedTimer
    from controller.adapters.referee import ScriptedReferee
    from controller.table import RunnerSettings, TableDevices, TableRunner
    from controller.adapters.timer import open_timer
    from controller.demo_games import bundled_game
    from controller.game import judging
    from controller.game.journal import GameJournal
    from controller.records import Records
    from controller.records.signing import table_key
    from controller.records.reports.views import audit_html

    started = time.perf_counter()
    script = GameScript.load(bundled_game(args.script) or args.script)
    out = Path(args.out)
    db = out / "demo.sqlite"
    reader = VisionReader(args.profile)
    key = table_key(args.key)
    if not (math.isfinite(args.pace) and 0 <= args.pace <= 60):
        raise GameError(f"--pace {args.pace} is outside 0..60 seconds")
    display = console = ConsoleDisplay(photo_dir=out, quiet=args.quiet)
    # a bad --web or a port in use stops before anything is recorded, and before --out is made
    web = _bind_web(args.web, db, display, args.lang, args.watch_delay)
    try:
        _output_dir(out)
        records = Records(db, key=key)
    except BaseException:
        _unbind_web(web)
        raise
    with records:
        def create() -> int:
            ring = records.keyring()
            if ring.entry(key.public.fingerprint) is None:  # the demo is its own club: it trusts the key it signs with
                ring.trust(key.public, "demo table")
                print(f"demo: the keyring of {db} trusts this table's key {key.public.fingerprint} as 'demo table' "
                      "(docs/trust.md)", flush=True)
            return GameJournal.start(records, judging.game_created(script.variant, script.players,
                                                                   watch_delay=args.watch_delay)).game_id

        try:
            game_id = _open_game(records, args.resume, None, create, finished_ok=True)
            timer = open_timer("emulator", script.clock_rate)
        except BaseException:
            _unbind_web(web)
            raise
        assert timer.emulator is not None
        table = RecordedTable(script, timer.emulator.press)
        table.restore_attempts_from(records.events(game_id))
        runner: TableRunner | None = None
        recorded_timer = RecordedTimer(timer, table, lambda: runner.model)
        try:
            _start_web(web, records, game_id, timer)
        except BaseException:
            recorded_timer.close()
            _unbind_web(web)
            raise
        if web is not None:
            display = web.display
        if args.pace:
            display = PacedDisplay(display, args.pace)
        devices = TableDevices(table, recorded_timer, reader, display, ScriptedReferee(**script.referee),
                               desk=web.desk if web else None)

        def observe(model, event) -> None:
            table.observe(model, event)
            console.observe(model, event)
            if web is not None:
                web.display.observe(model, event)

        try:
            runner = TableRunner(records, game_id, devices, RunnerSettings(starter=script.starter),
                                 observer=observe)
            print(f"demo: game {game_id} ({script.variant}, {', '.join(script.players)}) in {db}; "
                  f"timer emulator on {timer.emulator.pty_path}", flush=True)
            model = runner.run()
        finally:
            recorded_timer.close()
        report = records.verify(game_id)
        pages = []
        for turn in range(1, model.turn + 1) if report.ok else ():
            page = out / f"audit-turn-{turn}.html"
            _write_text(page, audit_html(records, game_id, turn, report, args.lang), "audit page")
            pages.append(page)
        penalty_turns = [turn for turn, _, outcome in records.verdicts(game_id) if outcome == Outcome.PENALTY]
    print(f"records: {db} (game {game_id}, hash chain " + (report.summary() if report.ok else f"BROKEN: {report.problem}")
          + ")")
    if penalty_turns:
        print(f"audit page of the penalty turn: {out / f'audit-turn-{penalty_turns[0]}.html'}")
    print(f"audit pages: {out}/audit-turn-1.html .. audit-turn-{model.turn}.html")
    timings = [t["press_to_verdict_ms"] for t in runner.turns.timings if "press_to_verdict_ms" in t]
    if timings:
        timings.sort()
        print(f"button press to verdict: median {timings[len(timings) // 2]:.0f} ms over {len(timings)} turns")
    seconds = time.perf_counter() - started
    print(f"demo finished in {seconds:.1f} s: {state_words(model.state)}", flush=True)
    json_out.emit(game_summary(game_id, db, model) | {
        "out": str(out), "check": chain_report_data(report), "audit_pages": [str(p) for p in pages],
        "penalty_turns": penalty_turns,
        "press_to_verdict_ms": {"median": round(timings[len(timings) // 2], 1), "turns": len(timings)} if timings
        else None, "seconds": round(seconds, 1)})
    if web is not None:
        try:
            linger(web, db, key, game_id, devices, observe)
        finally:
            web.stop()
    return 0 if report.ok and model.state.value == "finished" else 1
