"""`tileref tournament print KIND NAME --out FILE`: the printables of an event (pairing sheet, table
cards, result slips, standings) as HTML, or as PDF through Chromium (controller/tournament/printing)."""
from __future__ import annotations

from controller.tournament import DEFAULT_DB
from controller.tournament.printing import KINDS, print_event

from .argtypes import COUNT
from .web import add_lang_option


def cmd_print(args) -> int:
    print_event(args.db, args.name, args.kind, args.out, round_number=args.round, live_url_template=args.live_url,
                lang=args.lang)
    print(f"wrote {args.out}")
    return 0


def register_print(sub) -> None:
    """The `print` subcommand, under `tileref tournament`."""
    p = sub.add_parser("print", help="print for the tables: pairings, table cards, result slips, standings")
    p.add_argument("kind", choices=KINDS, help="pairings (for the wall), cards (one per table), slips (one per "
                                               "table), standings")
    p.add_argument("name", help="the event")
    p.add_argument("--out", required=True, metavar="FILE.html|FILE.pdf", help="a .pdf is printed by Chromium")
    p.add_argument("--round", type=COUNT, help="the round (default: the last one drawn)")
    p.add_argument("--live-url", metavar="URL",
                   help="cards: a table's live page, with {table} (and optionally {round}, {event}), "
                        "e.g. 'http://club.local:8000/table/{table}'")
    p.add_argument("--db", default=DEFAULT_DB, help=f"SQLite file or postgresql://... (default {DEFAULT_DB})")
    add_lang_option(p, "the printables")
    p.set_defaults(handler=cmd_print)
