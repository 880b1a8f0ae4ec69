"""`tileref verify` and `tileref key`: is a record what the table signed, and the table's keys.

`verify` exits 0 when every game holds (intact, or unsigned because it was recorded before
signing), 3 when any game was tampered with, 2 on bad input (no such file, game or key file).
Every other reader of a record (`replay`, `audit`, `correct`, `play --resume`, `tournament
import-play`) makes the same check through `verified_game` and fails the same way.
"""
from __future__ import annotations

import argparse

from controller.records.errors import RecordsError, RecordsFileError

from .argtypes import GAME_ID

ERRORS: tuple[type[BaseException], ...] = (RecordsError,)


def register(subparsers) -> None:
    verify = subparsers.add_parser("verify", help="check a records file: per game, intact or exactly what is wrong")
    verify.add_argument("--db", help="records: an SQLite file, sqlite:///PATH or postgresql://...")
    verify.add_argument("--record", metavar="FILE", help="instead of --db: an open game record (JSON, `tileref "
                        "export`), checked from the file alone")
    verify.add_argument("--game", type=GAME_ID, help="only this game (default: every game in the file)")
    add_public_key_option(verify)
    verify.set_defaults(handler=run_verify)

    key = subparsers.add_parser("key", help="the table's signing key")
    actions = key.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = actions.add_parser("new", help="make a key pair: FILE (private, 0600) and FILE.pub")
    new.add_argument("--out", required=True, metavar="FILE", help="where the private key goes")
    new.set_defaults(handler=run_key_new)
    show = actions.add_parser("show", help="the fingerprint of a key (default: this user's table key)")
    show.add_argument("--key", metavar="FILE", help="a private or public key file")
    show.set_defaults(handler=run_key_show)


def add_public_key_option(parser: argparse.ArgumentParser, flag: str = "--key") -> None:
    parser.add_argument(flag, metavar="PUB", help="the table's public key file: the game must be signed by it "
                        "(without it, signatures are checked against the key the game records)")


def add_private_key_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--key", metavar="FILE", help="the table's private key (default: this user's key, "
                        "made on first use under $TILEREF_KEY_DIR or ~/.config/tileref)")


def public_key(path: str | None):
    from controller.records.signing import load_public_key

    return load_public_key(path) if path else None


def verified_game(records, game: int | None, key_file: str | None = None):
    """The game to read (the given one, else the last) and its report; a TamperedError (exit 3)
    if it does not hold. The one check every reader makes before folding a game."""
    game_id = game if game is not None else records.latest_game()
    return game_id, records.require_intact(game_id, public_key(key_file))


def run_verify(args: argparse.Namespace) -> int:
    from controller.records import Records

    expected = public_key(args.key)
    if args.record is not None:
        from controller.records.record_file import load_record, verify_record

        if args.db is not None:
            raise RecordsFileError("give --db or --record, not both")
        checked = verify_record(load_record(args.record), args.record, expected)  # tampered: exit 3, naming the turn
        print(f"{args.record}: game {checked.report.game_id}: {checked.summary()}"
              + (" (the given key)" if expected is not None else ""))
        return 0
    if args.db is None:
        raise RecordsFileError("verify needs --db DB or --record FILE")
    with Records(args.db, create=False, read_only=True) as records:
        games = [args.game] if args.game is not None else records.game_ids()
        if not games:
            print(f"{args.db}: no games")
            return 0
        reports = [records.verify(game_id, expected) for game_id in games]
    for report in reports:
        if report.ok:
            print(f"game {report.game_id}: {report.summary()}"
                  + (" (the given key)" if expected is not None else ""))
        else:
            print(report.summary())
    tampered = sum(not r.ok for r in reports)
    print(f"{args.db}: {len(reports)} game(s), " + (f"{tampered} TAMPERED" if tampered else "all hold"))
    return 3 if tampered else 0


def run_key_new(args: argparse.Namespace) -> int:
    from controller.records.signing import new_key_pair, public_path

    key = new_key_pair(args.out)
    print(f"private key {args.out} (keep it at the table, never with the records); public key "
          f"{public_path(key.path)}; fingerprint {key.public.fingerprint}")
    return 0


def run_key_show(args: argparse.Namespace) -> int:
    from controller.records.signing import default_key_path, default_table_key, load_public_key

    key = load_public_key(args.key) if args.key else default_table_key().public
    print(f"{args.key or default_key_path()}: fingerprint {key.fingerprint}")
    return 0
