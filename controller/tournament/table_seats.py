"""The tables' side of an event: which drawn game a table plays and who sits at it (`tileref play
--event E --stage R --table T`), read from the director's store. The store counts what the tables
played (played.py); this module only reads the draw."""
from __future__ import annotations

from dataclasses import dataclass

from controller.game.errors import GameError

from .formats import get_format
from .model import GameKind, game_id
from .storage import TournamentStore


@dataclass(frozen=True)
class TournamentLink:
    event: str
    game: str  # e.g. R1-T2-G1
    seats: tuple[str, ...]
    variant: str | None = None  # the rules the event's tables play by (its format's)


def tournament_seats(args) -> TournamentLink:
    """`play --event E --stage R --table T [--game-number G]`: the drawn game and its seats."""
    if args.stage is None or args.table is None:
        raise GameError("--event needs --stage ROUND and --table N")
    if args.players:
        raise GameError("--players: the event's draw names the players, give one or the other")
    wanted = game_id(args.stage, args.table, args.game_number)
    with TournamentStore(args.db) as store:
        event = store.load(args.event)
    event_format = get_format(event.format)
    if event_format.game_kind is not GameKind.RUMMIKUB:
        raise GameError(f"event {args.event!r} is a {event_format.game_kind.value} event ({event.format}); "
                        f"a table plays its Rummikub games only")
    found = event.table_of_game(wanted)
    if found is None:
        raise GameError(f"game {wanted} (stage {args.stage}, table {args.table}) has not been drawn in event "
                        f"{args.event!r}")
    if wanted in event.results:
        raise GameError(f"game {wanted} already has a result in event {args.event!r}")
    return TournamentLink(args.event, wanted, tuple(found[1].seats), event_format.variant)
