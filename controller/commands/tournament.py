"""`tileref tournament ...` (events, draws, results, standings) and `tileref mahjong score`.

Thin adapter: reads files and the database, hands values to the pure core in
`controller.tournament`, prints what it returns.
"""
from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path

from controller import json_text
from controller.tournament import (
    DEFAULT_DB,
    FORMATS,
    RON_CUP_SCORING,
    TournamentError,
    TournamentStore,
    create_event,
    get_format,
    health_scoring,
    is_finished,
    score_hanchan,
    standings,
)
from controller.game.events import EventKind
from controller.records import Records
from controller.records.errors import RecordsError
from controller.commands.argtypes import COUNT, GAME_ID, SEED
from controller.commands.printing import register_print
from controller.commands.records import add_accept_option, add_public_key_option
from controller.tournament.errors import InputFileError, StorageError
from controller.tournament.model import RummikubGameResult
from controller.tournament.files import read_players_csv, read_results_csv, read_results_json, result_from_entry
from controller.tournament.mahjong import parse_hanchan, scores_json, format_score
from controller.tournament.model import GameKind
from controller.tournament.json_views import change_data, event_data, print_json, result_data, round_data
from controller.tournament.model import Change, ChangeKind
from controller.tournament.render import (
    round_text,
    standings_csv,
    standings_html,
    standings_json,
    standings_text,
)

ERRORS: tuple[type[BaseException], ...] = (TournamentError, RecordsError)


def _read(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise InputFileError(f"cannot read {what} {path!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InputFileError(f"{what} {path!r} is not UTF-8 text") from None


def _write(path: str, text: str, what: str) -> None:
    """A file the command writes; a place it cannot be written (a folder, a missing folder, a
    read-only disk) is bad input named on one line."""
    target = Path(path)
    if target.is_dir():
        raise InputFileError(f"{what} {path!r} is a folder; give a file name")
    if not target.parent.is_dir():
        raise InputFileError(f"{what} {path!r}: folder {str(target.parent)!r} does not exist")
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputFileError(f"{what} {path!r}: cannot write it ({error.strerror or error})") from None


def _json(text: str, source: str):
    try:
        return json_text.loads(text)
    except json.JSONDecodeError as error:
        raise InputFileError(f"{source}: not JSON ({error})") from None


def _store_to_read(args) -> TournamentStore:
    """The database of a command that only reads: opened read-only (SQLite `mode=ro`: a read-only file,
    folder or disk is fine, nothing is written). A file that is not there is named (`_existing_store`);
    one whose tables an older tileref made is opened as a writing command opens it (its tables brought
    up to date; where it cannot be written, that is the one line said)."""
    _require_existing(args)
    db = args.db
    store = TournamentStore(db, read_only=True, check=True)  # a damaged file: one line, never "None"
    try:
        if store.up_to_date():
            return store
    except BaseException:
        store.close()
        raise
    store.close()
    return TournamentStore(db)


def _settings(pairs: list[str]) -> dict[str, str]:
    settings = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputFileError(f"--set {pair!r}: expected KEY=VALUE")
        settings[key.strip()] = value.strip()
    return settings


def cmd_create(args) -> int:
    names, seeded = read_players_csv(_read(args.players, "players CSV"), args.players)
    entrants = None
    if args.registered or args.rated:
        from controller.league.registry import resolve_entrants
        from controller.league.registry_store import Registry

        with Registry(args.db) as registry:
            entrants = resolve_entrants(registry.players(), names)
        by_token = {token: name for token, (name, _) in zip(names, entrants)}
        names, seeded = [name for name, _ in entrants], [by_token[token] for token in seeded]
    settings = _settings(args.set)
    if seeded and args.format == "knockout" and "seeded" not in settings:
        settings["seeded"] = ",".join(seeded)
    event = create_event(args.name, args.format, names, settings)
    with TournamentStore(args.db) as store:
        if entrants is None:
            store.create(event)
        else:
            store.create(event, entrants, rated=args.rated, signer=_director(args))
    if args.json:
        print_json({"created": args.name, "format": args.format, "players": list(event.players), "db": args.db})
    else:
        print(f"created {args.format} event {args.name!r} with {len(names)} players in {args.db}")
    return 0


def cmd_draw(args) -> int:
    seed = _seed(args)
    with _existing_store(args) as store:
        new_round = store.draw_next(args.name, seed, _director(args))
        event = store.load(args.name)
    if args.json:
        print_json({"event": event.name, "round": round_data(event, new_round, with_draw=not args.quiet)})
    else:
        print(round_text(event, new_round, with_draw=not args.quiet), end="")
    return 0


def _seed(args) -> int:
    """The draw's seed: --seed, else a fresh random one (recorded with the draw, so it can be drawn again)."""
    return args.seed if args.seed is not None else secrets.randbits(48)


def cmd_undo_draw(args) -> int:
    with _existing_store(args) as store:
        taken = store.undo_draw(args.name, args.reason, _director(args))
    if args.json:
        print_json({"event": args.name, "taken_back": taken.number, "seed": taken.seed})
    else:
        print(f"{args.name}: round {taken.number} (seed {taken.seed}) taken back; signed into the event's log")
    return 0


def cmd_redraw(args) -> int:
    seed = _seed(args)
    with _existing_store(args) as store:
        taken, new_round = store.redraw(args.name, seed, args.reason, _director(args))
        event = store.load(args.name)
    if args.json:
        print_json({"event": event.name, "taken_back": taken.number,
                    "round": round_data(event, new_round, with_draw=not args.quiet)})
    else:
        print(f"{args.name}: round {taken.number} (seed {taken.seed}) taken back")
        print(round_text(event, new_round, with_draw=not args.quiet), end="")
    return 0


def cmd_show(args) -> int:
    with _store_to_read(args) as store:
        event = store.load(args.name)
    rounds = event.rounds if args.round is None else [event.round(args.round)] if 1 <= args.round <= len(event.rounds) else None
    if rounds is None:
        raise InputFileError(f"round {args.round} has not been drawn (drawn: {len(event.rounds)})")
    if args.json:
        print_json(event_data(event, is_finished(event), list(rounds), args.draw))
        return 0
    print(f"{event.name}: {event.format}, {len(event.players)} players, "
          f"{len(event.rounds)} round(s) drawn{', finished' if is_finished(event) else ''}")
    for round_ in rounds:
        print(round_text(event, round_, with_draw=args.draw), end="")
    return 0


def cmd_list(args) -> int:
    with _store_to_read(args) as store:
        names = store.event_names()
    if args.json:
        print_json({"events": [{"name": name, "format": fmt} for name, fmt in names]})
    for name, fmt in names if not args.json else ():
        print(f"{name}\t{fmt}")
    return 0


def cmd_formats(args) -> int:
    if args.json:
        print_json({"formats": [{"name": name, "summary": fmt.summary, "game": fmt.game_kind.value,
                                 "variant": fmt.variant} for name, fmt in FORMATS.items()]})
        return 0
    for name, fmt in FORMATS.items():
        print(f"{name}: {fmt.summary}")
    return 0


def _entry_from_args(event, args) -> dict:
    kind = get_format(event.format).game_kind
    entry: dict = {"game": args.game}
    if args.hanchan:
        entry["hanchan"] = _json(_read(args.hanchan, "hanchan JSON"), args.hanchan)
    elif args.othello:
        black, white, discs = args.othello[0], args.othello[1], args.othello[2]
        b, _, w = discs.partition("-")
        entry["othello"] = {"black": black, "white": white, "black_discs": b, "white_discs": w,
                            "draw_right": args.draw_right}
    elif args.shogi:
        entry["shogi"] = {"sente": args.shogi[0], "gote": args.shogi[1],
                          "outcomes": [o for o in args.shogi[2].split(",") if o]}
    else:
        scores = {}
        for pair in args.score or []:
            name, sep, value = pair.rpartition("=")
            if not sep or not name:
                raise InputFileError(f"--score {pair!r}: expected NAME=POINTS")
            if name in scores:
                raise InputFileError(f"--score gives {name!r} twice")
            scores[name] = value
        if kind is not GameKind.MATCH:
            entry["scores"] = scores
        if args.winner is not None:
            entry["winner"] = args.winner
    return entry


def cmd_result(args) -> int:
    with _existing_store(args) as store:
        event = store.load(args.name)
        result = result_from_entry(event, _entry_from_args(event, args), "result")
        event = store.add_results(args.name, [result], source="hand", signer=_director(args))
    if args.json:
        print_json({"event": args.name, "recorded": result_data(event.results[result.game])})
    else:
        print(f"recorded {result.game}")
    return 0


def cmd_import(args, reader, what) -> int:
    with _existing_store(args) as store:
        event = store.load(args.name)
        results = reader(event, _read(args.file, what), args.file)
        event = store.add_results(args.name, results, source=f"{what} {Path(args.file).name}",
                                  signer=_director(args))
    if args.json:
        print_json({"event": args.name, "file": args.file,
                    "recorded": [result_data(event.results[r.game]) for r in results]})
    else:
        print(f"recorded {len(results)} result(s) from {args.file}")
    return 0


def played_game_result(records: Records, play_game: int, game: str, key_file: str | None = None, ring=True,
                       event_name: str | None = None) -> tuple[RummikubGameResult, object]:
    """The last score a table recorded for one game (after any referee correction), as the
    result of tournament game `game`, and the verification report. A tampered game, or one signed
    by a key `ring` (the tournament's keyring) does not trust, is refused as every reader refuses
    it (exit 3); `key_file`: the table's public key the game must be signed by. A game signed as
    played for another tournament game (or event) is bad input."""
    from controller.commands.records import public_key

    report = records.require_intact(play_game, public_key(key_file), ring)
    events = records.events(play_game)
    link = getattr(events[0], "table_and_event", None) if events else None
    # one table game is one tournament game: the one its signed first event names, and no other
    if link is None or link[2] is None:
        raise InputFileError(f"game {play_game} in {str(records.path)!r} was not signed as played for a tournament "
                             f"game (tileref play --event E --stage R --table T): it is credited to no game of an "
                             "event; a director who knows which game it was enters its result with "
                             "`tileref tournament result`")
    if link[2] != game or (event_name and link[1] != event_name):
        raise InputFileError(f"game {play_game} in {str(records.path)!r} was signed as tournament game {link[2]!r} of "
                             f"event {link[1]!r}, not {game!r}" + (f" of {event_name!r}" if event_name else ""))
    scored = [event for event in events if event.kind is EventKind.GAME_SCORED]
    if not scored:
        raise InputFileError(f"game {play_game} in {str(records.path)!r} has not been scored yet")
    final = scored[-1]
    return RummikubGameResult(game=game, scores=dict(final.scores), winner=final.winner), report


def cmd_import_play(args) -> int:
    from controller.commands.records import referee_key

    with Records(args.db) as club, Records(args.play_db, create=False, read_only=True) as records:
        ring = club.keyring()  # the tournament's keyring: its tables' keys
        if args.accept is not None:
            report = records.verify(args.play_game, ring=False)
            if report.error is not None:
                raise report.error  # a tampered game is never accepted
            if not records.judged(report, ring).ok:
                ring.accept(records.created_hash(args.play_game), report.key_id,
                            f"game {args.play_game} of {Path(args.play_db).name}", args.accept,
                            referee_key(args.referee_key))
        result, report = played_game_result(records, args.play_game, args.game, args.play_key, ring, args.name)
        record = {"game_hash": records.created_hash(args.play_game), "key": report.key_id,
                  "play_game": args.play_game, "trust": report.trust.text if report.trust else ""}
    with _existing_store(args) as store:
        store.load(args.name)
        store.add_results(args.name, [result], source=f"tileref play {Path(args.play_db).name} game {args.play_game}",
                          signer=_director(args), record=record)
    if args.json:
        print_json({"event": args.name, "recorded": result_data(result), "play_db": args.play_db,
                    "play_game": args.play_game, "trust": report.trust.text})
        return 0
    scores = ", ".join(f"{name} {points:+d}" for name, points in result.scores.items())
    print(f"recorded {args.game} from table game {args.play_game}: winner {result.winner}; {scores} "
          f"({report.trust.text})")
    return 0


def cmd_disqualify(args) -> int:
    with _existing_store(args) as store:
        event = store.disqualify(args.name, args.round, args.table, args.reason, _director(args))
    players = event.disqualifications[-1].players
    if args.json:
        print_json({"event": args.name, "disqualified": {"round": args.round, "table": args.table,
                                                         "players": list(players), "reason": args.reason.strip()}})
    else:
        print(f"disqualified round {args.round} table {args.table}: {', '.join(players)}")
    return 0


def cmd_sign_log(args) -> int:
    with _existing_store(args) as store:
        signed = store.sign_log(args.name, _director(args))
    if args.json:
        print_json({"event": args.name, "signed": signed})
    else:
        print(f"{args.name}: signed {signed} entries onto its log")
    return 0


def _director(args):
    """The director's key (`--director-key`), else this user's key, made on first use; with --json the
    news that it was made goes to stderr, so stdout stays one JSON object."""
    from controller.records.signing import default_table_key, load_table_key

    if args.director_key:
        return load_table_key(args.director_key)
    if args.json:
        return default_table_key(lambda text: print(text, file=sys.stderr, flush=True))
    return default_table_key()


def _record_change(args, change: Change) -> int:
    with _existing_store(args) as store:
        recorded = store.change(args.name, change, _director(args))
    if args.json:
        print_json({"event": args.name, "change": change_data(recorded)})
    else:
        print(recorded.summary())
    return 0


def cmd_amend(args) -> int:
    with _existing_store(args) as store:
        event = store.load(args.name)
    result = result_from_entry(event, _entry_from_args(event, args), "amend")
    return _record_change(args, Change(ChangeKind.AMEND, args.reason, game=args.game, result=result))


def cmd_delete_result(args) -> int:
    return _record_change(args, Change(ChangeKind.DELETE, args.reason, game=args.game))


def cmd_withdraw(args) -> int:
    return _record_change(args, Change(ChangeKind.WITHDRAW, args.reason, player=args.player))


def cmd_late_entry(args) -> int:
    return _record_change(args, Change(ChangeKind.LATE_ENTRY, args.reason, player=args.player.strip()))


def cmd_substitute(args) -> int:
    return _record_change(args, Change(ChangeKind.SUBSTITUTE, args.reason, game=args.game, player=args.seat_of,
                                       substitute=args.player.strip()))


def cmd_history(args) -> int:
    from controller.tournament.history import UNDO_DRAW

    with _store_to_read(args) as store:
        event, log, _ = store.verified(args.name)
        entries, head = store.heads[args.name]
        taken_back = [{"round": e.data["round"], "seed": e.data["seed"], "reason": e.data["reason"],
                       "at": e.data["at"], "by": store._signer(e.director)} for e in log if e.kind == UNDO_DRAW]
    if args.json:
        print_json({"event": event.name, "history": [change_data(c) for c in event.history],
                    "draws_taken_back": taken_back, "log": {"entries": entries, "head": head}})
        return 0
    for number, change in enumerate(event.history, start=1):
        print(f"{number}. {change.summary()}")
    for undo in taken_back:
        print(f"round {undo['round']} (seed {undo['seed']}) taken back at {undo['at']} by {undo['by']}: "
              f"{undo['reason']}")
    if not event.history and not taken_back:
        print(f"{event.name}: no changes recorded")
    # what a club writes down (or prints) to compare with later: a log cut short no longer reaches it
    print(f"{event.name}: its log holds, {entries} entries, head {head[:16]}")
    return 0


def cmd_standings(args) -> int:
    with _store_to_read(args) as store:
        table = standings(store.load(args.name))
    print(standings_json(table) if args.json else standings_text(table), end="" if not args.json else "\n")
    return 0


def cmd_export(args) -> int:
    with _store_to_read(args) as store:
        table = standings(store.load(args.name))
    if not args.csv and not args.html:
        raise InputFileError("export needs --csv FILE and/or --html FILE")
    written = []
    for path, text, what in ((args.csv, standings_csv(table), "--csv"), (args.html, standings_html(table), "--html")):
        if path:
            _write(path, text, what)
            written.append(path)
    if args.json:
        print_json({"event": args.name, "wrote": written})
    for path in written if not args.json else ():
        print(f"wrote {path}")
    return 0


def cmd_mahjong_score(args) -> int:
    data = _json(_read(args.hanchan, "hanchan JSON"), args.hanchan)
    hanchan = parse_hanchan(data, args.hanchan)
    if args.rules == "ron-cup":
        scoring = RON_CUP_SCORING
    else:
        from controller.tournament.formats.base import parse_settings
        from controller.tournament.formats import HealthMahjongSettings

        points = parse_settings(HealthMahjongSettings, {"rank_points": args.rank_points} if args.rank_points else {})
        scoring = health_scoring(points.rank_points)
    scores = score_hanchan(hanchan, scoring)
    if args.json:
        print(scores_json(scores))
    else:
        for name, value in scores.items():
            print(f"{name}\t{format_score(value)}")
    return 0


def _existing_store(args) -> TournamentStore:
    """The events' database for a command on an event created already: a file that is not there is named
    (exit 2) rather than made empty beside the command (only `create` makes one)."""
    _require_existing(args)
    return TournamentStore(args.db)


def _require_existing(args) -> None:
    """StorageError naming a database file (`--db`) that is not there."""
    from controller.records.engine import parse_db

    try:
        target = parse_db(args.db)
    except RecordsError as error:
        raise StorageError(str(error)) from None
    path = Path(target.location)
    if not target.is_server and not path.exists():
        folder = "" if path.parent.is_dir() else f" (nor does its folder {str(path.parent)!r})"
        raise StorageError(f"tournament database {target.shown!r} does not exist{folder}: give the --db the event "
                           f"was created in (`tileref tournament create NAME ... --db FILE`)")


def _db(parser) -> None:
    parser.add_argument("--db", default=DEFAULT_DB, help=f"SQLite file (default {DEFAULT_DB})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _director_key_option(parser, what: str = "the entry") -> None:
    parser.add_argument("--director-key", metavar="FILE", help=f"the director's private key that signs {what} onto "
                        "the event's log (default: this user's key); where the database keeps a keyring, the key "
                        "must be in it as a director's")


def _change_options(parser) -> None:
    parser.add_argument("--reason", required=True, help="why; recorded in the event's history")
    _director_key_option(parser, "the change")
    _db(parser)


def _result_options(parser) -> None:
    parser.add_argument("game", help="e.g. R1-T2-G3")
    parser.add_argument("--score", action="append", metavar="NAME=POINTS", help="one per player")
    parser.add_argument("--winner", help="the game's winner, as entered")
    parser.add_argument("--hanchan", metavar="HANCHAN.json", help="mahjong: the raw hanchan, scored here")
    parser.add_argument("--othello", nargs=3, metavar=("BLACK", "WHITE", "DISCS"), help="e.g. Ann Ben 33-29")
    parser.add_argument("--draw-right", help="othello: who wins a level count")
    parser.add_argument("--shogi", nargs=3, metavar=("SENTE", "GOTE", "OUTCOMES"),
                        help="e.g. Ann Ben repetition,gote (each game in order)")


def register(subparsers) -> None:
    tournament = subparsers.add_parser("tournament", help="run an event: draws, results, standings")
    sub = tournament.add_subparsers(dest="tournament_command", metavar="SUBCOMMAND", required=True)
    register_print(sub)

    p = sub.add_parser("formats", help="list the event formats")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=cmd_formats)

    p = sub.add_parser("create", help="create an event from a format and a players CSV")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("--format", required=True, choices=sorted(FORMATS), help="the event's format (`tileref tournament formats` lists them)")
    p.add_argument("--players", required=True, help="CSV with a 'name' column (optional 'seed')")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="a format setting (repeatable)")
    p.add_argument("--registered", action="store_true", help="the players are the club's registered players: each "
                   "'name' is an ID or a registered name (`tileref player list`), signed into the event's log")
    p.add_argument("--rated", action="store_true", help="as --registered, and every result counts for the players' "
                   "ratings (`tileref ratings`)")
    _director_key_option(p, "the entrants")
    _db(p)
    p.set_defaults(handler=cmd_create)

    p = sub.add_parser("undo-draw", help="take back the last draw while nothing is entered for it (signed, with "
                       "the reason, into the event's log)")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("--reason", required=True, help="why; signed into the event's log")
    _director_key_option(p, "the undo")
    _db(p)
    p.set_defaults(handler=cmd_undo_draw)

    p = sub.add_parser("redraw", help="take back the last draw and draw that round again under the same rules")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("--reason", required=True, help="why; signed into the event's log")
    p.add_argument("--seed", type=SEED, help="the new draw's seed (default: a fresh random one, recorded)")
    p.add_argument("--quiet", action="store_true", help="tables only, not the draw record")
    _director_key_option(p, "the undo and the new draw")
    _db(p)
    p.set_defaults(handler=cmd_redraw)

    p = sub.add_parser("list", help="list the events in the database")
    _db(p)
    p.set_defaults(handler=cmd_list)

    p = sub.add_parser("draw", help="draw the next round (tables, seats, lots) from a recorded seed")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("--seed", type=SEED, help="the draw's seed (default: a fresh random one, recorded)")
    p.add_argument("--quiet", action="store_true", help="tables only, not the draw record")
    _director_key_option(p, "the draw")
    _db(p)
    p.set_defaults(handler=cmd_draw)

    p = sub.add_parser("show", help="the rounds drawn, their games and (with --draw) who drew what")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("--round", type=COUNT, help="only this round (default: every round drawn)")
    p.add_argument("--draw", action="store_true", help="also who drew what: the seed and each lot")
    _db(p)
    p.set_defaults(handler=cmd_show)

    p = sub.add_parser("result", help="enter one game's result by hand (signed by the director's key)")
    p.add_argument("name", help="the event's name, as created")
    _result_options(p)
    _director_key_option(p, "the result")
    _db(p)
    p.set_defaults(handler=cmd_result)

    p = sub.add_parser("import-json", help="import a results JSON file (all or nothing)")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("file", help='the results JSON: {"results": [{"game", "winner", "scores": {name: points}}, ...]}')
    _director_key_option(p, "each result")
    _db(p)
    p.set_defaults(handler=lambda a: cmd_import(a, read_results_json, "results JSON"))

    p = sub.add_parser("import-csv", help="import a hand-entered results CSV (all or nothing)")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("file", help="the results CSV, a row per game and player (docs/tournament.md)")
    _director_key_option(p, "each result")
    _db(p)
    p.set_defaults(handler=lambda a: cmd_import(a, read_results_csv, "results CSV"))

    p = sub.add_parser("import-play", help="enter a game scored by `tileref play` from its records")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("--game", required=True, help="the tournament game, e.g. R1-T2-G1")
    p.add_argument("--play-db", required=True, help="the table's SQLite records file")
    p.add_argument("--play-game", type=GAME_ID, required=True, help="the game id in that file")
    add_public_key_option(p, "--play-key")
    add_accept_option(p)
    _director_key_option(p, "the result")
    _db(p)
    p.set_defaults(handler=cmd_import_play)

    p = sub.add_parser("disqualify", help="warsaw: disqualify every player at a table (tile count wrong)")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("--round", type=COUNT, required=True, help="the round the table played in")
    p.add_argument("--table", type=COUNT, required=True, help="the table's number in that round")
    p.add_argument("--reason", required=True, help='e.g. "105 tiles counted"')
    _director_key_option(p, "the disqualification")
    _db(p)
    p.set_defaults(handler=cmd_disqualify)

    p = sub.add_parser("amend", help="put a game's result right (signed, with the reason, in the event's history)")
    p.add_argument("name", help="the event's name, as created")
    _result_options(p)
    _change_options(p)
    p.set_defaults(handler=cmd_amend)

    p = sub.add_parser("delete-result", help="take a game's result back: the game is owed again (signed, with the "
                       "reason)")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("game", help="e.g. R1-T2-G3")
    _change_options(p)
    p.set_defaults(handler=cmd_delete_result)

    p = sub.add_parser("withdraw", help="a player leaves between rounds: not drawn again, results stand")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("player", help="the player who leaves, as entered")
    _change_options(p)
    p.set_defaults(handler=cmd_withdraw)

    p = sub.add_parser("late-entry", help="enter a player after the list was made, where the format allows")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("player", help="the new player's name")
    _change_options(p)
    p.set_defaults(handler=cmd_late_entry)

    p = sub.add_parser("substitute", help="seat someone in a player's place for one game; it counts for the player")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("game", help="e.g. R1-T2-G3")
    p.add_argument("--for", dest="seat_of", required=True, metavar="PLAYER", help="the player whose seat it is")
    p.add_argument("--player", required=True, metavar="NAME", help="who sits in")
    _change_options(p)
    p.set_defaults(handler=cmd_substitute)

    p = sub.add_parser("sign-log", help="sign onto the event's log the games played straight into the database "
                       "since its last entry; an event kept before draws and results were signed: its rounds, "
                       "results and disqualifications as they stand")
    p.add_argument("name", help="the event's name, as created")
    _director_key_option(p, "them")
    _db(p)
    p.set_defaults(handler=cmd_sign_log)

    p = sub.add_parser("history", help="the event's signed changes: amendments, withdrawals, late entries, "
                       "substitutes")
    p.add_argument("name", help="the event's name, as created")
    _db(p)
    p.set_defaults(handler=cmd_history)

    p = sub.add_parser("standings", help="show the standings")
    p.add_argument("name", help="the event's name, as created")
    _db(p)
    p.set_defaults(handler=cmd_standings)

    p = sub.add_parser("export", help="write the standings as CSV and/or a printable HTML page")
    p.add_argument("name", help="the event's name, as created")
    p.add_argument("--csv", metavar="FILE", help="write the standings as CSV here")
    p.add_argument("--html", metavar="FILE", help="write the standings as a printable HTML page here")
    _db(p)
    p.set_defaults(handler=cmd_export)

    mahjong = subparsers.add_parser("mahjong", help="mahjong scoring")
    msub = mahjong.add_subparsers(dest="mahjong_command", metavar="SUBCOMMAND", required=True)
    p = msub.add_parser("score", help="score one hanchan (Ron cup rules by default)")
    p.add_argument("hanchan", metavar="HANCHAN.json", help="the hanchan's hands and final points (docs/tournament.md)")
    p.add_argument("--json", action="store_true", help='print {"scores": {name: number}}')
    p.add_argument("--rules", choices=("ron-cup", "health-mahjong"), default="ron-cup",
                   help="whose scoring: the Ron cup's (default) or health mahjong's")
    p.add_argument("--rank-points", help="health-mahjong: four rank points, e.g. 20,10,-10,-20")
    p.set_defaults(handler=cmd_mahjong_score)
