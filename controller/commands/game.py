"""`tileref play`, `audit`, `replay` and `demo`: run a table, and look back at what it recorded."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from controller.game.errors import GameError
from controller.records.errors import RecordsError
from controller.rules.errors import RulesError

from .records import add_private_key_option, add_public_key_option, verified_game

ERRORS: tuple[type[BaseException], ...] = (GameError, RecordsError, RulesError)



def register(subparsers) -> None:
    play = subparsers.add_parser("play", help="run a game at a table: camera, timer box, records")
    play.add_argument("--camera", required=True, help="device index, stream URL, video file or folder of images")
    play.add_argument("--timer", required=True, help="serial port of the timer box, or 'emulator'")
    play.add_argument("--variant", default="classic", help="classic, japan-2017 or world")
    play.add_argument("--rules", metavar="FILE.toml", help="a club's own rule set (extends a variant); the game "
                      "records it whole and is judged by it, resumed or not")
    play.add_argument("--players", help="names in seat order, clockwise: A,B,C,D (not with --resume)")
    play.add_argument("--db", required=True, help="SQLite records file (created if missing)")
    play.add_argument("--resume", action="store_true", help="continue the last unfinished game in --db")
    play.add_argument("--game", type=int, help="with --resume: the game id to continue")
    play.add_argument("--starter", help="skip the start draw: this player starts")
    play.add_argument("--turn-seconds", type=int, help="override the variant's seconds per turn")
    play.add_argument("--clock-rate", type=float, default=1.0, help="emulator only: box seconds per real second")
    play.add_argument("--profile", metavar="FILE.json", help="the club set's profile from `tileref calibrate`")
    add_private_key_option(play)
    play.set_defaults(handler=run_play)

    audit = subparsers.add_parser("audit", help="one turn as a self-contained HTML page")
    audit.add_argument("--db", required=True)
    audit.add_argument("--game", type=int, help="game id (default: the last game)")
    audit.add_argument("--turn", type=int, required=True)
    audit.add_argument("--out", help="HTML file to write (default audit-game-G-turn-T.html)")
    add_public_key_option(audit)
    audit.set_defaults(handler=run_audit)

    replay = subparsers.add_parser("replay", help="step through a recorded game turn by turn")
    replay.add_argument("--db", required=True)
    replay.add_argument("--game", type=int, help="game id (default: the last game)")
    replay.add_argument("--no-wait", action="store_true", help="print every turn without waiting for Enter")
    add_public_key_option(replay)
    replay.set_defaults(handler=run_replay)

    correct = subparsers.add_parser("correct", help="referee: correct a rack read at the end; the game is scored again")
    correct.add_argument("--db", required=True)
    correct.add_argument("--game", type=int, help="game id (default: the last game)")
    correct.add_argument("--rack", required=True, metavar="PLAYER", help="whose laid-open rack to correct")
    correct.add_argument("--tiles", required=True, help="the rack's tiles as they really are, e.g. 'R5 K13 J'")
    correct.add_argument("--note", default="corrected by the referee", help="why (recorded with the correction)")
    add_private_key_option(correct)
    correct.set_defaults(handler=run_correct)

    demo = subparsers.add_parser("demo", help="play the bundled recorded game through the whole pipeline")
    demo.add_argument("--out", default="tileref-demo", help="directory for the records and audit pages")
    demo.add_argument("--script", default="game",
                      help="a bundled game (game: felt, 11 turns; wood-game: a wooden top and real tile faces, "
                           "22 turns) or the path of a recorded game script (JSON)")
    demo.add_argument("--resume", action="store_true", help="continue the demo game left unfinished in --out")
    demo.add_argument("--quiet", action="store_true", help="print only verdicts, scores and where files went")
    demo.add_argument("--profile", metavar="FILE.json", help="the club set's profile from `tileref calibrate`")
    add_private_key_option(demo)
    demo.set_defaults(handler=run_demo)


# ----------------------------------------------------------------------- play


def _players(text: str | None) -> tuple[str, ...]:
    if not text:
        raise GameError("--players is required for a new game: names in seat order, e.g. --players Ann,Ben,Cat,Dan")
    names = tuple(name.strip() for name in text.split(","))
    if any(not name for name in names):
        raise GameError(f"--players {text!r} has an empty name")
    return names


def _open_game(records, resume: bool, game: int | None, create) -> int:
    from controller.game.machine import State, fold

    if not resume:
        return create()
    # verified before folding: a tampered record is reported as tampering (exit 3), not as a
    # state-machine error; and it is refused before a wrong key would sign onto it
    game_id, _ = verified_game(records, game)
    records.check_signer(game_id)
    model = fold(records.events(game_id))
    if model.state in (State.FINISHED, State.DISQUALIFIED):
        raise GameError(f"game {game_id} in {str(records.path)!r} is already over ({model.state.value}); nothing to resume")
    return game_id


def run_play(args: argparse.Namespace) -> int:
    from controller.adapters.camera import open_camera
    from controller.adapters.display import ConsoleDisplay
    from controller.adapters.reader import VisionReader
    from controller.adapters.referee import ConsoleReferee
    from controller.adapters.runner import RunnerSettings, TableDevices, TableRunner
    from controller.adapters.timer import open_timer
    from controller.game import judging
    from controller.game.machine import GameModel, apply
    from controller.records import Records
    from controller.records.signing import table_key
    from controller.rules.variants import load_ruleset

    if args.turn_seconds is not None and args.turn_seconds <= 0:
        raise GameError(f"--turn-seconds {args.turn_seconds} must be positive")
    db = Path(args.db)
    players = None if args.resume else _players(args.players)
    rules = load_ruleset(args.rules) if args.rules and not args.resume else args.variant
    first = None if args.resume else judging.game_created(rules, players, args.turn_seconds)
    if first is not None:
        apply(GameModel(), first)  # refuse bad settings before anything is opened or written
        if args.starter is not None and args.starter not in players:
            raise GameError(f"--starter {args.starter!r} is not one of the players {list(players)!r}")
    key = table_key(args.key)  # a bad key file stops before anything opens
    reader = VisionReader(args.profile)  # a bad profile stops before the camera opens
    camera = open_camera(args.camera)
    try:
        timer = open_timer(args.timer, args.clock_rate)
    except BaseException:
        camera.close()
        raise
    try:
        with Records(db, key=key) as records:
            def create() -> int:
                return records.start_game(first, state="seating")

            game_id = _open_game(records, args.resume, args.game, create)
            devices = TableDevices(camera, timer, reader, ConsoleDisplay(photo_dir=db.parent / "restore-photos"),
                                   ConsoleReferee())
            runner = TableRunner(records, game_id, devices, RunnerSettings(starter=args.starter))
            print(f"game {game_id} in {db}: {runner.model.state.value}", flush=True)
            model = runner.run()
    finally:
        timer.close()
        camera.close()
    print(f"game {game_id}: {model.state.value}")
    return 0


# --------------------------------------------------------------------- views


def run_audit(args: argparse.Namespace) -> int:
    from controller.records import Records
    from controller.records.views import audit_html

    with Records(args.db, create=False) as records:
        game_id, report = verified_game(records, args.game, args.key)
        page = audit_html(records, game_id, args.turn, report)
    out = Path(args.out or f"audit-game-{game_id}-turn-{args.turn}.html")
    out.write_text(page, encoding="utf-8")
    print(f"audit of game {game_id} turn {args.turn}: {out}")
    return 0


def run_replay(args: argparse.Namespace) -> int:
    from controller.records import Records
    from controller.records.views import replay_lines

    with Records(args.db, create=False) as records:
        game_id, report = verified_game(records, args.game, args.key)  # tampered: exit 3 before anything
        for n, block in enumerate(replay_lines(records, game_id, report)):
            print("\n".join(block), flush=True)
            if not args.no_wait and n and sys.stdin.isatty():
                input("-- Enter for the next turn --")
    return 0


def run_correct(args: argparse.Namespace) -> int:
    from controller.game import judging
    from controller.game.events import RefereeCorrection
    from controller.game.machine import State, apply, fold
    from controller.records import Records
    from controller.records.signing import load_table_key
    from controller.rules.tiles import parse_tiles

    codes = tuple(t.code for t in parse_tiles(args.tiles.replace(",", " ").split()))
    key = load_table_key(args.key) if args.key else None  # None: this user's key, if the game is signed
    with Records(args.db, create=False, key=key) as records:
        game_id, _ = verified_game(records, args.game)
        records.check_signer(game_id)
        model = fold(records.events(game_id))
        event = RefereeCorrection(target=f"rack:{args.rack}", changes=(), rack=codes, note=args.note)
        corrected = apply(model, event)  # refused (exit 2) unless that rack was laid open
        records.append(game_id, event, state=corrected.state.value)
        if corrected.state is State.SCORING:
            scored = judging.score(corrected)
            records.append(game_id, scored, state=apply(corrected, scored).state.value)
            print(f"game {game_id}: {args.rack}'s rack corrected; scored again: winner {scored.winner}; "
                  + ", ".join(f"{name} {points:+d}" for name, points in scored.scores))
        else:
            print(f"game {game_id}: {args.rack}'s rack corrected ({corrected.state.value})")
    return 0


# ---------------------------------------------------------------------- demo


def run_demo(args: argparse.Namespace) -> int:
    from controller.adapters.display import ConsoleDisplay
    from controller.adapters.reader import VisionReader
    from controller.adapters.recorded_game import GameScript, RecordedTable, RecordedTimer
    from controller.adapters.referee import ScriptedReferee
    from controller.adapters.runner import RunnerSettings, TableDevices, TableRunner
    from controller.adapters.timer import open_timer
    from controller.demo_games import bundled_game
    from controller.game import judging
    from controller.game.machine import GameModel, apply
    from controller.records import Records
    from controller.records.signing import table_key
    from controller.records.views import audit_html

    started = time.perf_counter()
    script = GameScript.load(bundled_game(args.script) or args.script)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    db = out / "demo.sqlite"
    reader = VisionReader(args.profile)
    key = table_key(args.key)
    with Records(db, key=key) as records:
        def create() -> int:
            event = judging.game_created(script.variant, script.players)
            apply(GameModel(), event)
            return records.start_game(event, state="seating")

        game_id = _open_game(records, args.resume, None, create)
        timer = open_timer("emulator", script.clock_rate)
        assert timer.emulator is not None
        table = RecordedTable(script, timer.emulator.press)
        table.restore_attempts_from(records.events(game_id))
        display = ConsoleDisplay(photo_dir=out, quiet=args.quiet)
        runner: TableRunner | None = None
        recorded_timer = RecordedTimer(timer, table, lambda: runner.model)
        devices = TableDevices(table, recorded_timer, reader, display, ScriptedReferee(**script.referee))
        try:
            runner = TableRunner(records, game_id, devices, RunnerSettings(starter=script.starter),
                                 observer=table.observe)
            print(f"demo: game {game_id} ({script.variant}, {', '.join(script.players)}) in {db}; "
                  f"timer emulator on {timer.emulator.pty_path}", flush=True)
            model = runner.run()
        finally:
            recorded_timer.close()
        report = records.verify(game_id)
        pages = []
        for turn in range(1, model.turn + 1) if report.ok else ():
            page = out / f"audit-turn-{turn}.html"
            page.write_text(audit_html(records, game_id, turn, report), encoding="utf-8")
            pages.append(page)
        penalty_turns = [turn for turn, _, outcome in records.verdicts(game_id) if outcome == "penalty"]
    print(f"records: {db} (game {game_id}, hash chain " + (report.summary() if report.ok else f"BROKEN: {report.problem}")
          + ")")
    if penalty_turns:
        print(f"audit page of the penalty turn: {out / f'audit-turn-{penalty_turns[0]}.html'}")
    print(f"audit pages: {out}/audit-turn-1.html .. audit-turn-{model.turn}.html")
    timings = [t["press_to_verdict_ms"] for t in runner.timings if "press_to_verdict_ms" in t]
    if timings:
        timings.sort()
        print(f"button press to verdict: median {timings[len(timings) // 2]:.0f} ms over {len(timings)} turns")
    print(f"demo finished in {time.perf_counter() - started:.1f} s: {model.state.value}")
    return 0 if report.ok and model.state.value == "finished" else 1
