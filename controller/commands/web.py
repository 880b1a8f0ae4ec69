"""`tileref serve --db FILE --web HOST:PORT`: the audit and replay pages of a records file, without a
game running (its front page lists the games and their players). `play`, `demo` and `clock` take
`--web HOST:PORT` to serve their live pages from the same process (controller/web, docs/web.md).
"""
from __future__ import annotations

import argparse
import threading
from pathlib import Path

from controller.records.errors import RecordsError
from controller.web.errors import WebError

ERRORS: tuple[type[BaseException], ...] = (WebError, RecordsError)
DEFAULT_WEB = "127.0.0.1:8080"


def add_web_option(parser: argparse.ArgumentParser, what: str, pages: str = "the --web pages") -> None:
    parser.add_argument("--web", metavar="HOST:PORT", help=f"also serve {what} from this process (loopback by "
                        "default: PORT or :PORT; port 0 picks a free one); see docs/web.md")
    add_lang_option(parser, pages)


def add_watch_delay_option(parser: argparse.ArgumentParser, recorded: bool) -> None:
    from .argtypes import MAX_WATCH_DELAY, WATCH_DELAY

    where = ("recorded with a new game, and " if recorded else "") + "the least delay this server's /watch pages keep"
    parser.add_argument("--watch-delay", type=WATCH_DELAY, default=None, metavar="SECONDS",
                        help=f"how far the spectator feed (/watch) stays behind the table, 0..{MAX_WATCH_DELAY} s: "
                        f"{where} (a game's recorded delay is never shortened); see docs/broadcast.md")


def add_lang_option(parser: argparse.ArgumentParser, pages: str = "the --web pages") -> None:
    from controller.messages import DEFAULT_LANGUAGE, LANGUAGES

    parser.add_argument("--lang", type=language, default=DEFAULT_LANGUAGE, metavar="LANG",
                        help=f"the language of {pages}: {', '.join(LANGUAGES)} (default {DEFAULT_LANGUAGE})")


def language(text: str) -> str:
    """An argparse type: a language the pages speak (refused on one line otherwise)."""
    from controller.messages import UnknownLanguageError, check_language

    try:
        return check_language(text.strip().lower())
    except UnknownLanguageError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--lang ")) from None


def register(subparsers) -> None:
    serve = subparsers.add_parser("serve", help="the audit and replay pages of a records file, in the browser")
    serve.add_argument("--db", required=True, help="SQLite records file")
    serve.add_argument("--web", default=DEFAULT_WEB, metavar="HOST:PORT",
                       help=f"where to serve (default {DEFAULT_WEB}; port 0 picks a free one)")
    from .records import add_public_key_option

    add_public_key_option(serve, help="the table's public key file: games must be signed by it")
    add_watch_delay_option(serve, recorded=False)
    add_lang_option(serve, "the pages")
    serve.set_defaults(handler=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    from controller.commands.records import public_key
    from controller.records import Records
    from controller.web.app import create_app
    from controller.web.server import WebServer, parse_address

    address = parse_address(args.web)
    db = Path(args.db)
    Records(db, create=False, read_only=True).close()  # no such file, or not records: exit 2 naming it
    key = public_key(args.key)
    server = WebServer(create_app(db, key=key, watch_delay=args.watch_delay or 0, lang=args.lang), address).start()
    print(f"serving the records of {db} at {server.url}/ (Ctrl-C to stop)", flush=True)
    server.serve_until_interrupted()
    return 0


def linger(web, db: Path, key, game_id: int, devices, observer) -> None:
    """After the game, the pages stay up until Ctrl-C; the referee page may still correct a rack
    (the game is then scored again), carried out here as by the runner."""
    from controller.table import TableRunner
    from controller.records import Records

    print(f"web: the game is over; the pages stay up at {web.url}/ until Ctrl-C", flush=True)
    stop = threading.Event()
    try:
        with Records(db, key=key) as records:
            runner = TableRunner(records, game_id, devices, observer=observer)
            runner.attend_after_game(stop)
    except KeyboardInterrupt:
        pass
