"""`tileref verify` and `tileref key`: is a record what the table signed, the table's keys, and
the club's keyring (`key trust`, `list`, `revoke`, `accept`; docs/trust.md).

`verify` exits 0 when every game holds (intact, or unsigned because it was recorded before
signing) and every tournament event's log kept in the database holds against its keyring, 3 when
any game was tampered with or is signed by a key the database's keyring does not trust, or an
event's log does not hold, 2 on bad input (no such file, game or key file).
Every other reader of a record (`replay`, `audit`, `correct`, `play --resume`, `tournament
import-play`) makes the same check through `verified_game` and fails the same way.
"""
from __future__ import annotations

import argparse

from controller.records.errors import RecordsError, RecordsFileError

from .argtypes import GAME_ID
from .json_out import add_json_option, chain_report_data, emit

ERRORS: tuple[type[BaseException], ...] = (RecordsError,)


def register(subparsers) -> None:
    verify = subparsers.add_parser("verify", help="check a records file: per game, intact or exactly what is wrong; "
                                   "and each tournament event's signed log kept in it")
    verify.add_argument("--db", help="records: an SQLite file, sqlite:///PATH or postgresql://...")
    verify.add_argument("--record", metavar="FILE", help="an open game record (JSON, `tileref export`), checked "
                        "from the file alone; with --db, its signer is judged by that database's keyring")
    verify.add_argument("--game", type=GAME_ID, help="only this game (default: every game in the file)")
    add_public_key_option(verify)
    verify.add_argument("--notation", metavar="FILE", help="a game notation (`tileref export --notation`): each "
                        "line checked against the game of --record FILE, or of --db DB (--game G, default the last)")
    add_json_option(verify, '{"db", "games": [{"game", "ok", "status", "trust", "problem", "summary", ...}], '
                    '"tampered", "untrusted", "tournament_events": [{"event", "ok", "problem", "log"}], "all_hold"}; '
                    'with --record: {"record", "given_key", "game": {...}}')
    verify.set_defaults(handler=run_verify)

    key = subparsers.add_parser("key", help="the table's signing key")
    actions = key.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = actions.add_parser("new", help="make a key pair: FILE (private, 0600) and FILE.pub")
    new.add_argument("--out", required=True, metavar="FILE", help="where the private key goes")
    add_json_option(new, '{"private", "public", "fingerprint"}')
    new.set_defaults(handler=run_key_new)
    show = actions.add_parser("show", help="the fingerprint of a key (default: this user's table key)")
    show.add_argument("--key", metavar="FILE", help="a private or public key file")
    add_json_option(show, '{"key", "fingerprint"}')
    show.set_defaults(handler=run_key_show)
    ring_db = "the club's (or tournament's) database the keyring is kept in: a file, sqlite:///PATH or postgresql://..."
    trust = actions.add_parser("trust", help="add a table's public key to the club's keyring (docs/trust.md)")
    trust.add_argument("public", metavar="PUB", help="the table's public key file (FILE.pub of `tileref key new`)")
    trust.add_argument("--name", required=True, help='which table it is, e.g. "table 3"')
    trust.add_argument("--role", choices=("table", "director", "referee"), default="table",
                       help="what the key may sign: a table's games (default), an event's log (director), "
                       "acceptances (referee)")
    trust.add_argument("--db", required=True, help=ring_db)
    add_json_option(trust, '{"db", "fingerprint", "name", "role", "trusted_at"}')
    trust.set_defaults(handler=run_key_trust)
    listing = actions.add_parser("list", help="the club's keyring: trusted and revoked keys, and referees' acceptances")
    listing.add_argument("--db", required=True, help=ring_db)
    add_json_option(listing, '{"db", "keys": [{"fingerprint", "name", "role", "trusted_at", "trusted", "revoked_at", '
                    '"revoke_reason"}], "acceptances": [{"game", "fingerprint", "reason", "accepted_at", "referee"}]}')
    listing.set_defaults(handler=run_key_list)
    revoke = actions.add_parser("revoke", help="stop trusting a key (lost or stolen): its games need a referee's word")
    revoke.add_argument("fingerprint", metavar="FINGERPRINT", help="as `tileref key list` shows it")
    revoke.add_argument("--reason", required=True, help='e.g. "laptop of table 3 stolen"')
    revoke.add_argument("--db", required=True, help=ring_db)
    add_json_option(revoke, '{"db", "fingerprint", "name", "revoked_at", "reason"}')
    revoke.set_defaults(handler=run_key_revoke)
    accept = actions.add_parser("accept", help="a referee accepts one game signed by a key outside the keyring")
    accept.add_argument("--db", required=True, help=ring_db + " (it holds the game)")
    accept.add_argument("--game", type=GAME_ID, required=True, help="the game's id in --db")
    accept.add_argument("--reason", required=True, help='why it counts, e.g. "spare laptop, key checked by phone"')
    add_referee_key_option(accept)
    add_json_option(accept, '{"db", "game", "fingerprint", "referee", "reason"}')
    accept.set_defaults(handler=run_key_accept)


def add_referee_key_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--referee-key", metavar="FILE", help="the referee's private key that signs an acceptance "
                        "(default: this user's key); it must be in the keyring")


def add_accept_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--accept", metavar="REASON", help="a referee accepts the game although its key is not in "
                        "the club's keyring; the reason is recorded, signed with --referee-key")
    add_referee_key_option(parser)


PUBLIC_KEY_HELP = ("the table's public key file: the game must be signed by it (without it, signatures are checked "
                   "against the key the game records)")


def add_public_key_option(parser: argparse.ArgumentParser, flag: str = "--public-key",
                          help: str = PUBLIC_KEY_HELP) -> None:
    """A trusted public key (`--public-key PUB`); the old spelling `--key` still works, with a warning."""
    from .argtypes import old_spelling

    parser.add_argument(flag, metavar="PUB", dest="key" if flag == "--public-key" else None, help=help)
    if flag == "--public-key":
        parser.add_argument("--key", dest="key", metavar="PUB", help=argparse.SUPPRESS,
                            action=old_spelling("--public-key PUB", "a trusted public key"))


def add_private_key_option(parser: argparse.ArgumentParser) -> None:
    """The key the table signs with (`--signing-key FILE`); the old spelling `--key` still works, with a warning."""
    from .argtypes import old_spelling

    parser.add_argument("--signing-key", dest="key", metavar="FILE", help="the table's private key it signs with "
                        "(default: this user's key, made on first use under $TILEREF_KEY_DIR or ~/.config/tileref)")
    parser.add_argument("--key", dest="key", metavar="FILE", help=argparse.SUPPRESS,
                        action=old_spelling("--signing-key FILE", "the table's private key"))


def public_key(path: str | None):
    from controller.records.signing import load_public_key

    return load_public_key(path) if path else None


def verified_game(records, game: int | None, key_file: str | None = None):
    """The game to read (the given one, else the last) and its report; a TamperedError (exit 3)
    if it does not hold. The one check every reader makes before folding a game."""
    game_id = game if game is not None else records.latest_game()
    return game_id, records.require_intact(game_id, public_key(key_file))


def run_verify(args: argparse.Namespace) -> int:
    from controller.records import Integrity, Records

    expected = public_key(args.key)
    if args.notation is not None:
        return verify_notation(args)
    given = " (the given key)" if expected is not None else ""
    if args.record is not None:
        from controller.records.record_file import load_record, verify_record

        document = load_record(args.record)
        checked = verify_record(document, args.record, expected)  # tampered: exit 3, naming the turn
        report = checked.report
        if args.db is not None:  # the club's keyring judges the signer, not the file's empty one
            from dataclasses import replace

            from controller.records.record_file import check_signer_trusted

            with Records(args.db, create=False, read_only=True) as club:
                report = replace(report, trust=check_signer_trusted(club, document, args.record))  # refused: exit 3
        if args.json:
            emit({"record": args.record, "given_key": expected is not None,
                             "game": chain_report_data(report)})
        else:
            print(f"{args.record}: game {report.game_id}: {report.summary()}{given}")
        return 0
    if args.db is None:
        raise RecordsFileError("verify needs --db DB or --record FILE")
    with Records(args.db, create=False, read_only=True) as records:
        games = [args.game] if args.game is not None else records.game_ids()
        reports = [records.verify(game_id, expected) for game_id in games]
    events = _event_logs(args.db) if args.game is None else []
    tampered = sum(r.status is Integrity.TAMPERED for r in reports)
    refused = sum(r.status is not Integrity.TAMPERED and not r.ok for r in reports)
    broken = sum(problem is not None for _, problem, _ in events)
    problems = ([f"{tampered} TAMPERED"] if tampered else []) + (
        [f"{refused} signed by a key this club does not trust"] if refused else []) + (
        [f"{broken} event log(s) that do not hold"] if broken else [])
    if args.json:
        emit({"db": args.db, "given_key": expected is not None,
                         "games": [chain_report_data(r) for r in reports], "tampered": tampered,
                         "untrusted": refused, "tournament_events": [
                             {"event": name, "ok": problem is None, "problem": problem,
                              "log": None if head is None else {"entries": head[0], "head": head[1]}}
                             for name, problem, head in events],
                         "all_hold": not problems})
        return 3 if problems else 0
    if not reports and not events:
        print(f"{args.db}: no games")
        return 0
    for report in reports:
        print(f"game {report.game_id}: {report.summary()}{given}" if report.ok else report.summary())
    for name, problem, head in events:
        print(f"event {name!r}: its log holds, {head[0]} entries, head {head[1][:16]}" if problem is None
              else problem)
    print(f"{args.db}: {len(reports)} game(s)" + (f", {len(events)} event(s)" if events else "") + ", "
          + (", ".join(problems) if problems else "all hold"))
    return 3 if problems else 0


def _event_logs(db: str) -> list[tuple[str, str | None, tuple[int, str] | None]]:
    """Each tournament event kept in the database, why its log does not hold (None: it holds), and
    its log's length and head where it holds."""
    from controller.tournament import TournamentStore
    from controller.tournament.errors import HistoryTamperedError

    with TournamentStore(db, read_only=True) as store:
        if "tournament_events" not in store.db.tables():
            return []
        out: list[tuple[str, str | None]] = []
        for name, _ in store.event_names():
            try:
                store.load(name)
            except HistoryTamperedError as error:
                out.append((name, str(error)))
            else:
                out.append((name, None))
        return [(name, problem, store.heads.get(name) if problem is None else None) for name, problem in out]


def verify_notation(args: argparse.Namespace) -> int:
    """Each line of a notation text against the turn's events of the game it names (exit 3 at the first
    difference, naming the line, the turn and the field)."""
    from controller.records import Records
    from controller.records.reports.moves import (
        check_notation, game_notation, game_reading, labels_of, labels_of_document, read_notation_file,
        recorded_of_document,
    )

    text = read_notation_file(args.notation)
    if args.record is not None:
        from controller.records.record_file import load_record, verify_record

        document = load_record(args.record)
        report = verify_record(document, args.record, public_key(args.key)).report
        recorded, labels, against = recorded_of_document(document), labels_of_document(document), args.record
    elif args.db is not None:
        with Records(args.db, create=False, read_only=True) as records:
            game_id, report = verified_game(records, args.game, args.key)
            recorded, labels, against = records.recorded(game_id), labels_of(records, game_id), f"{args.db} game {game_id}"
    else:
        raise RecordsFileError("verify --notation FILE needs the record it comes from: --record FILE or --db DB")
    turns = check_notation(text, game_notation(recorded, labels), game_reading(recorded), args.notation)
    print(f"{args.notation}: {turns} turn(s), each line as the record {against} says ({report.summary()})")
    return 0


def _ring_records(db: str, *, write: bool):
    from controller.records import Records

    return Records(db) if write else Records(db, create=False, read_only=True)


def run_key_trust(args: argparse.Namespace) -> int:
    from controller.records.keyring import KeyRole
    from controller.records.signing import load_public_key

    public = load_public_key(args.public)
    with _ring_records(args.db, write=True) as records:
        entry = records.keyring().trust(public, args.name, KeyRole(args.role))
    if args.json:
        emit({"db": args.db, "fingerprint": entry.fingerprint, "name": entry.name, "role": entry.role.value,
              "trusted_at": entry.trusted_at})
        return 0
    signs = {"table": "games signed by it count here", "director": "it may sign the events' logs here",
             "referee": "it may sign acceptances here"}[entry.role.value]
    print(f"{args.db}: trusts key {entry.fingerprint} as {entry.name!r} ({entry.role.value} key); {signs}")
    return 0


def run_key_list(args: argparse.Namespace) -> int:
    with _ring_records(args.db, write=False) as records:
        ring = records.keyring()
        entries, accepted = ring.entries(), ring.acceptances()
    if args.json:
        emit({"db": args.db, "keys": [
            {"fingerprint": e.fingerprint, "name": e.name, "role": e.role.value, "trusted_at": e.trusted_at,
             "trusted": e.active,
             "revoked_at": e.revoked_at, "revoke_reason": e.revoke_reason} for e in entries],
            "acceptances": [{"game": label, "fingerprint": fingerprint, "reason": reason, "accepted_at": at,
                             "referee": referee} for label, fingerprint, reason, at, referee in accepted]})
        return 0
    if not entries:
        print(f"{args.db}: no keyring: every game's signer is unknown to this club (tileref key trust PUB --name NAME)")
        return 0
    for entry in entries:
        state = "trusted" if entry.active else f"REVOKED {entry.revoked_at}: {entry.revoke_reason}"
        print(f"{entry.fingerprint}\t{entry.name}\t{entry.role.value}\tsince {entry.trusted_at}\t{state}")
    for label, fingerprint, reason, at, referee in accepted:
        print(f"accepted {label} signed by {fingerprint}: {reason} (referee key {referee}, {at})")
    return 0


def run_key_revoke(args: argparse.Namespace) -> int:
    with _ring_records(args.db, write=True) as records:
        entry = records.keyring().revoke(args.fingerprint, args.reason)
    if args.json:
        emit({"db": args.db, "fingerprint": entry.fingerprint, "name": entry.name,
                   "revoked_at": entry.revoked_at, "reason": entry.revoke_reason})
        return 0
    print(f"{args.db}: key {entry.fingerprint} ({entry.name!r}) revoked; its games now need a referee's acceptance")
    return 0


def referee_key(path: str | None):
    from controller.records.signing import table_key

    return table_key(path)


def run_key_accept(args: argparse.Namespace) -> int:
    with _ring_records(args.db, write=True) as records:
        report = records.verify(args.game, ring=False)
        if report.error is not None:
            raise report.error  # a tampered game is never accepted
        ring = records.keyring()
        label = f"game {args.game} in {args.db}"
        accepted = ring.accept(records.created_hash(args.game), report.key_id, label, args.reason,
                               referee_key(args.referee_key))
    if args.json:
        emit({"db": args.db, "game": args.game, "fingerprint": accepted.fingerprint,
                   "referee": accepted.referee.fingerprint, "reason": accepted.reason})
        return 0
    print(f"{label}: signed by {accepted.fingerprint}, accepted by referee key {accepted.referee.fingerprint}: "
          f"{accepted.reason}")
    return 0


def run_key_new(args: argparse.Namespace) -> int:
    from controller.records.signing import new_key_pair, public_path

    key = new_key_pair(args.out)
    if args.json:
        emit({"private": str(args.out), "public": str(public_path(key.path)),
                   "fingerprint": key.public.fingerprint})
        return 0
    print(f"private key {args.out} (keep it at the table, never with the records); public key "
          f"{public_path(key.path)}; fingerprint {key.public.fingerprint}")
    return 0


def run_key_show(args: argparse.Namespace) -> int:
    from controller.records.signing import default_key_path, default_table_key, load_public_key

    key = load_public_key(args.key) if args.key else default_table_key().public
    if args.json:
        emit({"key": str(args.key or default_key_path()), "fingerprint": key.fingerprint})
        return 0
    print(f"{args.key or default_key_path()}: fingerprint {key.fingerprint}")
    return 0
