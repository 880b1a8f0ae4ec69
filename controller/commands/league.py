"""`tileref player ...` (the club's registry), `tileref ratings`, `tileref publish` and
`tileref league ...`. Thin adapter: reads the databases, hands values to controller.league, prints."""
from __future__ import annotations

import sys

from controller.league.errors import LeagueError
from controller.tournament.json_views import print_json

ERRORS: tuple[type[BaseException], ...] = (LeagueError,)
DEFAULT_DB = "tileref.sqlite"


def _club_games(db: str):
    from controller.commands.tournament import _require_existing
    from controller.league.ratings import club_games
    from controller.tournament import TournamentStore

    class _Args:
        pass

    args = _Args()
    args.db = db
    _require_existing(args)
    with TournamentStore(db) as store:
        return club_games(store)


def cmd_player_add(args) -> int:
    from controller.league.registry_store import Registry

    with Registry(args.db) as registry:
        player = registry.add(args.name, args.id)
    if args.json:
        print_json({"player": player.player_id, "name": player.name})
    else:
        print(f"{player.player_id}\t{player.name}")
    return 0


def cmd_player_rename(args) -> int:
    from controller.league.registry_store import Registry

    with Registry(args.db) as registry:
        before = registry.find(args.player).name
        player = registry.rename(args.player, args.new_name)
    if args.json:
        print_json({"player": player.player_id, "name": player.name, "was": before})
    else:
        print(f"{player.player_id}: {before!r} is now {player.name!r} (earlier events keep the name used then)")
    return 0


def cmd_player_list(args) -> int:
    from controller.league.registry_store import Registry

    with Registry(args.db) as registry:
        players = registry.players()
    if args.json:
        print_json({"players": [{"player": p.player_id, "name": p.name} for p in players]})
        return 0
    for player in players:
        print(f"{player.player_id}\t{player.name}")
    return 0


def cmd_player_show(args) -> int:
    from controller.league.ratings import rate
    from controller.league.registry_store import Registry

    with Registry(args.db) as registry:
        player = registry.find(args.player)
    ratings = rate(_club_games(args.db))
    steps = ratings.history(player.player_id)
    rating = ratings.of(player.player_id)
    if args.json:
        print_json({"player": player.player_id, "name": player.name,
                    "names": [{"name": s.name, "since": s.since} for s in player.names],
                    "rating": None if rating is None else _rating_json(rating),
                    "history": [_step_json(s) for s in steps]})
        return 0
    print(f"{player.player_id}\t{player.name}")
    for span in player.names:
        print(f"  name {span.name!r} since {span.since}")
    if rating is not None:
        print(f"  rating {rating.ordinal:.2f} (mu {rating.mu:.2f}, sigma {rating.sigma:.2f}) after {rating.games} "
              f"game{'s' if rating.games != 1 else ''}")
    for step in steps:
        print(f"  {step.event}\t{step.game}\tas {step.name_used!r}\tplace {step.place} of {step.of}\t"
              f"rating {step.rating.ordinal:.2f}")
    return 0


def _rating_json(rating) -> dict:
    return {"player": rating.player_id, "rating": round(rating.ordinal, 4), "mu": round(rating.mu, 4),
            "sigma": round(rating.sigma, 4), "games": rating.games}


def _step_json(step) -> dict:
    return {"club": step.origin, "event": step.event, "game": step.game, "name": step.name_used,
            "place": step.place, "of": step.of, **_rating_json(step.rating)}


def print_ratings(ratings, names: dict[str, str], player: str | None, as_json: bool) -> None:
    if player is not None:
        steps = ratings.history(player)
        if as_json:
            print_json({"player": player, "history": [_step_json(s) for s in steps]})
            return
        for step in steps:
            where = f"{step.origin}: " if step.origin else ""
            print(f"{where}{step.event}\t{step.game}\tas {step.name_used!r}\tplace {step.place} of {step.of}\t"
                  f"{step.rating.ordinal:.2f}")
        return
    if as_json:
        print_json({"ratings": [{**_rating_json(r), "name": names.get(r.player_id, "")} for r in ratings.table]})
        return
    for place, rating in enumerate(ratings.table, start=1):
        print(f"{place}\t{rating.player_id}\t{names.get(rating.player_id, '')}\t{rating.ordinal:.2f}\t"
              f"(mu {rating.mu:.2f}, sigma {rating.sigma:.2f}, {rating.games} games)")


def cmd_ratings(args) -> int:
    from controller.league.ratings import rate
    from controller.league.registry_store import Registry

    with Registry(args.db) as registry:
        players = registry.players()
        player = registry.find(args.player).player_id if args.player else None
    ratings = rate(_club_games(args.db))
    print_ratings(ratings, {p.player_id: p.name for p in players}, player, args.json)
    return 0


def _db(parser, what: str = "the club's database") -> None:
    parser.add_argument("--db", default=DEFAULT_DB, help=f"{what} (SQLite file or postgresql://...; "
                        f"default {DEFAULT_DB})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def register(subparsers) -> None:
    player = subparsers.add_parser("player", help="the club's player registry: IDs, names, history")
    sub = player.add_subparsers(dest="player_command", metavar="SUBCOMMAND", required=True)
    p = sub.add_parser("add", help="register a player (a stable ID; default P0001, P0002, ...)")
    p.add_argument("name")
    p.add_argument("--id", help="the player's ID (e.g. one the league handed out)")
    _db(p)
    p.set_defaults(handler=cmd_player_add)
    p = sub.add_parser("rename", help="a player's new name from now on; earlier events keep the name used then")
    p.add_argument("player", help="ID or current name")
    p.add_argument("new_name")
    _db(p)
    p.set_defaults(handler=cmd_player_rename)
    p = sub.add_parser("show", help="a player's names, rating and rated games")
    p.add_argument("player", help="ID or current name")
    _db(p)
    p.set_defaults(handler=cmd_player_show)
    p = sub.add_parser("list", help="every registered player")
    _db(p)
    p.set_defaults(handler=cmd_player_list)

    p = subparsers.add_parser("ratings", help="the ratings from every rated event's signed results")
    p.add_argument("--player", help="one player's rating history (ID or current name)")
    _db(p)
    p.set_defaults(handler=cmd_ratings)
