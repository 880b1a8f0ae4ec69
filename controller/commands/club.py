"""`tileref export`, `tileref import` (the open game record) and `tileref club serve` (the live board).

`export --db DB --game G [--out FILE]` writes one game as the open record (docs/record-format.md)
to standard output or FILE; `import FILE --db DB` verifies a record from the file alone and writes
the game into DB as it is (a tampered record: exit 3, naming the turn; a game signed by a key the
database's keyring does not trust: exit 3, unless `--accept REASON`; a game the database holds
already is not written twice); `verify --record FILE` (in commands/records.py) only checks it.
`club serve --db DB` serves the club board (controller/web/club.py).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.records.errors import RecordsError

from .argtypes import GAME_ID
from .json_out import add_json_option, chain_report_data, emit
from .records import add_accept_option, add_public_key_option, public_key, referee_key, verified_game

ERRORS: tuple[type[BaseException], ...] = (RecordsError,)
CLUB_WEB = "127.0.0.1:8700"


def register(subparsers) -> None:
    export = subparsers.add_parser("export", help="one game as an open JSON record (docs/record-format.md)")
    export.add_argument("--db", required=True, help="records: a file path, sqlite:///PATH or postgresql://...")
    export.add_argument("--game", type=int, help="game id (default: the last game)")
    export.add_argument("--out", metavar="FILE", help="write here (default: standard output)")
    add_public_key_option(export)
    export.add_argument("--notation", action="store_true",
                        help="write the game notation instead, a line a turn (docs/notation.md)")
    add_json_option(export, '{"game", "out", "check": {...as verify}, "record": the record itself (or with '
                    '--notation "notation": its text), only without --out}')
    export.set_defaults(handler=run_export)

    imp = subparsers.add_parser("import", help="verify an open game record and write the game into a database")
    imp.add_argument("file", metavar="FILE", help="the game record (JSON), as `tileref export` writes it")
    imp.add_argument("--db", required=True, help="records: a file path, sqlite:///PATH or postgresql://...")
    add_public_key_option(imp)
    add_accept_option(imp)
    add_json_option(imp, '{"file", "db", "game", "written", "check": {...as verify}}')
    imp.set_defaults(handler=run_import)

    club = subparsers.add_parser("club", help="the club server: a live board of every table")
    actions = club.add_subparsers(dest="action", metavar="ACTION", required=True)
    serve = actions.add_parser("serve", help="serve the club board: every table live, linked to its pages")
    serve.add_argument("--db", required=True, help="the club database, postgresql://... (or an SQLite file)")
    serve.add_argument("--web", metavar="HOST:PORT", default=CLUB_WEB,
                       help=f"where to serve, as every other command's --web (default {CLUB_WEB}: loopback only; "
                            "port 0 picks a free one)")
    from .argtypes import old_spelling

    serve.add_argument("--host", help=argparse.SUPPRESS, action=old_spelling("--web HOST:PORT", "where to serve"))
    serve.add_argument("--port", help=argparse.SUPPRESS, action=old_spelling("--web HOST:PORT", "where to serve"))
    serve.add_argument("--table-base", metavar="URL", default="",
                       help="where each table's own pages are served (default: links relative to this server)")
    from .web import add_lang_option, add_watch_delay_option

    add_watch_delay_option(serve, recorded=False)
    add_lang_option(serve, "the board and its spectators' list")
    serve.set_defaults(handler=run_club_serve)

    reel = subparsers.add_parser("highlights", help="the turns worth showing as a small HTML reel with the photos "
                                 "before and after (docs/notation.md)")
    reel.add_argument("--db", required=True, help="records: a file path, sqlite:///PATH or postgresql://...")
    reel.add_argument("--game", type=GAME_ID, help="game id (default: the last game)")
    reel.add_argument("--out", required=True, metavar="DIR", help="folder for index.html and its photos (made if "
                      "missing; works offline, every link relative)")
    add_lang_option(reel, "the reel")
    add_public_key_option(reel)
    reel.set_defaults(handler=run_highlights)


def run_export(args: argparse.Namespace) -> int:
    from controller.records import Records
    from controller.records.record_file import dumps, export_record

    with Records(args.db, create=False, read_only=True) as records:
        game_id, report = verified_game(records, args.game, args.key)
        if args.notation:
            from controller.records.reports.moves import notation_text

            text = notation_text(records, game_id)
            shown = {"notation": text}
        else:
            record = export_record(records, game_id, report=report)
            text = dumps(record)
            shown = {"record": record}
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as error:
            from controller.records.errors import RecordsFileError

            raise RecordsFileError(f"cannot write {args.out!r}: {error.strerror}") from None
        if not args.json:
            print(f"game {game_id}: {report.summary()}; written to {args.out}", file=sys.stderr)
    if args.json:
        emit({"game": game_id, "out": args.out, "check": chain_report_data(report)}
             | ({} if args.out else shown))
    elif not args.out:
        sys.stdout.write(text)
    return 0


def run_import(args: argparse.Namespace) -> int:
    from controller.records import Records
    from controller.records.record_file import import_record, load_record, verify_record

    document = load_record(args.file)
    verify_record(document, args.file, public_key(args.key))  # a tampered record: refused before the database opens
    with Records(args.db) as records:
        referee = referee_key(args.referee_key) if args.accept is not None else None
        game_id, written = import_record(records, document, args.file, public_key(args.key), args.accept, referee)
        report = records.require_intact(game_id)
    if args.json:
        emit({"file": args.file, "db": args.db, "game": game_id, "written": written,
              "check": chain_report_data(report)})
        return 0
    print(f"{args.file}: game {game_id} in {args.db} "
          + ("imported" if written else "already there (nothing written)") + f": {report.summary()}")
    return 0


def run_club_serve(args: argparse.Namespace) -> int:
    from controller.web.club import serve

    web = args.web
    if args.host is not None or args.port is not None:  # the old --host/--port, said as --web
        default_host, _, default_port = CLUB_WEB.rpartition(":")
        host = args.host or default_host
        web = f"{f'[{host}]' if ':' in host else host}:{args.port or default_port}"
    serve(args.db, web, table_base=args.table_base, watch_delay=args.watch_delay or 0, lang=args.lang)
    return 0


def run_highlights(args: argparse.Namespace) -> int:
    from controller.records import Records
    from controller.records.reports.reel import write_reel

    with Records(args.db, create=False, read_only=True) as records:
        game_id, report = verified_game(records, args.game, args.key)
        reel = write_reel(records, game_id, Path(args.out), report, args.lang)
    if reel is None:
        print(f"game {game_id}: no turn worth showing (no set of 5 tiles or more, no joker freed, no penalty, no "
              "time-out, no winning turn yet); no reel written")
        return 0
    print(f"game {game_id}: {reel.count} of {reel.turns} turn(s) worth showing, with {reel.photos} photo(s), in "
          f"{reel.page}")
    return 0
