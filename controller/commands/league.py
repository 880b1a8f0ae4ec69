"""`tileref player ...` (the club's registry), `tileref ratings`, `tileref publish` and
`tileref league ...`. Thin adapter: reads the databases, hands values to controller.league, prints."""
from __future__ import annotations

import sys

from controller.league.errors import LeagueError
from controller.tournament.json_views import print_json

ERRORS: tuple[type[BaseException], ...] = (LeagueError,)
DEFAULT_DB = "tileref.sqlite"


def _club_games(args):
    """The rated games of the club's events, each event's log verified (the database opened as every
    reading command opens it)."""
    from controller.commands.tournament import _store_to_read
    from controller.league.ratings import club_games

    with _store_to_read(args) as store:
        return club_games(store)


def _registry_to_read(args):
    from controller.commands.tournament import _require_existing
    from controller.league.registry_store import Registry

    _require_existing(args)
    return Registry(args.db, read_only=True)


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
    with _registry_to_read(args) as registry:
        players = registry.players()
    if args.json:
        print_json({"players": [{"player": p.player_id, "name": p.name} for p in players]})
        return 0
    for player in players:
        print(f"{player.player_id}\t{player.name}")
    return 0


def cmd_player_show(args) -> int:
    from controller.league.ratings import rate

    with _registry_to_read(args) as registry:
        player = registry.find(args.player)
    ratings = rate(_club_games(args))
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

    with _registry_to_read(args) as registry:
        players = registry.players()
        player = registry.find(args.player).player_id if args.player else None
    ratings = rate(_club_games(args))
    print_ratings(ratings, {p.player_id: p.name for p in players}, player, args.json)
    return 0


def cmd_publish(args) -> int:
    from controller.commands.tournament import _store_to_read
    from controller.league.registry_store import Registry
    from controller.league.site import build_site, write_site

    with _store_to_read(args) as store:
        with Registry(args.db, read_only=True) as registry:
            players = registry.players()
        pages = build_site(store, players, args.club)
    return _wrote_site(args, pages, write_site)


def _db(parser, what: str = "the club's database") -> None:
    parser.add_argument("--db", default=DEFAULT_DB, help=f"{what} (SQLite file or postgresql://...; "
                        f"default {DEFAULT_DB})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def register(subparsers) -> None:
    player = subparsers.add_parser("player", help="the club's player registry: IDs, names, history")
    sub = player.add_subparsers(dest="player_command", metavar="SUBCOMMAND", required=True)
    p = sub.add_parser("add", help="register a player (a stable ID; default P0001, P0002, ...)")
    p.add_argument("name", help="the player's name as it is to be shown")
    p.add_argument("--id", help="the player's ID (e.g. one the league handed out)")
    _db(p)
    p.set_defaults(handler=cmd_player_add)
    p = sub.add_parser("rename", help="a player's new name from now on; earlier events keep the name used then")
    p.add_argument("player", help="ID or current name")
    p.add_argument("new_name", help="the name the player goes by from now on")
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
    register_league(subparsers)

    p = subparsers.add_parser("publish", help="write the standings, rounds, games and ratings as a static site")
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write (made if missing)")
    p.add_argument("--club", default="Club results", help="the site's title (default: %(default)s)")
    _db(p)
    p.set_defaults(handler=cmd_publish)


def cmd_league_add_club(args) -> int:
    from controller.league.league_store import LeagueStore
    from controller.records.errors import RecordsError
    from controller.records.signing import load_public_key

    from controller.league.errors import ClubError

    keys = []
    for path in args.director_key:
        try:
            key = load_public_key(path)
        except (RecordsError, OSError, ValueError) as error:
            raise ClubError(f"--director-key {path!r}: {error}") from None
        keys.append((_key_name(path), key))
    with LeagueStore(args.db) as league:
        league.add_club(args.club, args.source, keys)
    if args.json:
        print_json({"club": args.club, "source": args.source, "keys": [k.fingerprint for _, k in keys]})
    else:
        print(f"club {args.club!r} joins the league in {args.db}: results signed by "
              + ", ".join(f"{name} (key {key.fingerprint})" for name, key in keys))
    return 0


def _key_name(path: str) -> str:
    from pathlib import Path

    name = Path(path).name
    for suffix in (".pub", ".key"):
        name = name.removesuffix(suffix)
    return name


def cmd_league_pull(args) -> int:
    from controller.league.league_store import LeagueStore
    from controller.league.errors import ClubError

    with LeagueStore(args.db) as league:
        clubs = league.clubs()
        if args.club:
            clubs = [(c, s) for c, s in clubs if c == args.club]
            if not clubs:
                raise ClubError(f"no club {args.club!r} in the league ({', '.join(c for c, _ in league.clubs())})")
        reports = [league.pull(club, source) for club, source in clubs]
    if args.json:
        print_json({"clubs": [{"club": r.club, "taken": [{"event": e, "entries": n} for e, n in r.taken],
                               "offline": r.offline or None, "refused": list(r.refused)} for r in reports]})
    else:
        for report in reports:
            if report.offline:
                print(f"{report.club}: not reached ({report.offline}); its results come with a later pull")
                continue
            taken = ", ".join(f"{event} (+{n})" for event, n in report.taken) or "nothing new"
            print(f"{report.club}: {taken}")
    for report in reports:
        for line in report.refused:
            print(f"tileref league: refused, never counted: {line}", file=sys.stderr)
    return 3 if any(r.refused for r in reports) else 0


def cmd_league_clubs(args) -> int:
    from controller.league.league_store import LeagueStore

    with LeagueStore(args.db) as league:
        clubs = [(club, source, league.ring(club), league.held(club)) for club, source in league.clubs()]
    if args.json:
        print_json({"clubs": [{"club": c, "source": s, "keys": [k.fingerprint for k in ring],
                               "events": {e: len(log.entries) for e, log in held.items()}}
                              for c, s, ring, held in clubs]})
        return 0
    for club, source, ring, held in clubs:
        print(f"{club}\t{source}\tkeys {', '.join(k.fingerprint for k in ring)}\t"
              f"{len(held)} event(s) held")
    return 0


def cmd_league_table(args) -> int:
    from controller.league.league_store import LeagueStore
    from controller.league.standings import league_table

    with LeagueStore(args.db) as league:
        rows = league_table(league.games())
    if args.json:
        print_json({"table": [{"place": r.place, "player": r.player_id, "name": r.name, "clubs": list(r.clubs),
                               "events": r.events, "games": r.games, "wins": r.wins, "points": r.points}
                              for r in rows]})
        return 0
    print("place\tplayer\tname\tclubs\tevents\tgames\twins\tpoints")
    for r in rows:
        print(f"{r.place}\t{r.player_id}\t{r.name}\t{', '.join(r.clubs)}\t{r.events}\t{r.games}\t{r.wins}\t{r.points}")
    return 0


def cmd_league_ratings(args) -> int:
    from controller.league.league_store import LeagueStore
    from controller.league.ratings import rate

    with LeagueStore(args.db) as league:
        games = league.games()
    ratings = rate(games)
    names = {}
    for game in sorted(games, key=lambda g: (g.at, g.origin, g.event, g.game)):
        names.update(game.names)
    print_ratings(ratings, names, args.player, args.json)
    return 0


def cmd_league_publish(args) -> int:
    from controller.league.league_store import LeagueStore
    from controller.league.site import build_league_site, write_site

    with LeagueStore(args.db) as league:
        pages = build_league_site(league.games(), args.title)
    return _wrote_site(args, pages, write_site)


def register_league(subparsers) -> None:
    league = subparsers.add_parser("league", help="a league of clubs: their signed results pulled into one "
                                   "league database, its table and ratings (docs/league.md)")
    sub = league.add_subparsers(dest="league_command", metavar="SUBCOMMAND", required=True)
    what = "the league's database"
    p = sub.add_parser("add-club", help="a club joins: where its database is and its directors' public keys")
    p.add_argument("club", help="the club's name in the league")
    p.add_argument("--source", required=True, help="the club's database (postgresql://... or an SQLite file)")
    p.add_argument("--director-key", action="append", required=True, metavar="FILE.pub",
                   help="a director's public key of the club (repeatable); only what these keys signed counts")
    _db(p, what)
    p.set_defaults(handler=cmd_league_add_club)
    p = sub.add_parser("pull", help="take each club's signed event logs the league has not got, every one "
                       "verified (a club not reached delivers with a later pull)")
    p.add_argument("--club", help="only this club")
    _db(p, what)
    p.set_defaults(handler=cmd_league_pull)
    p = sub.add_parser("clubs", help="the clubs, their keys and what the league holds of each")
    _db(p, what)
    p.set_defaults(handler=cmd_league_clubs)
    p = sub.add_parser("table", help="the league table from the league database")
    _db(p, what)
    p.set_defaults(handler=cmd_league_table)
    p = sub.add_parser("ratings", help="the ratings from every club's rated games the league holds")
    p.add_argument("--player", help="one player's history (registry ID)")
    _db(p, what)
    p.set_defaults(handler=cmd_league_ratings)
    p = sub.add_parser("publish", help="write the league table, ratings and players' games as a static site")
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write (made if missing)")
    p.add_argument("--title", default="League", help="the site's title (default: %(default)s)")
    _db(p, what)
    p.set_defaults(handler=cmd_league_publish)


def _wrote_site(args, pages, write_site) -> int:
    """The site's pages written to --out, and what was written said."""
    written = write_site(args.out, pages)
    if args.json:
        print_json({"out": args.out, "pages": sorted(path for path, _ in pages)})
    else:
        print(f"wrote {written} pages to {args.out} (start at index.html)")
    return 0
