"""The club's standings as a static site (`tileref publish --out DIR`): plain HTML pages a club
uploads anywhere, readable with no script: every event's standings and rounds, each game's result
(and, for a game a table played into the club's database, its notation and highlights), the
ratings and each rated player's history. Every link is relative, so the folder works from any
address or straight from the disk.

The pages are made from what the readers check: each event as its verified log makes it, the
ratings from the signed results (ratings.py). Jinja2 templates with autoescaping; page models are
frozen values made here, rendering never reaches the database.
"""
from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import jinja2

from controller.game.errors import GameError
from controller.records.errors import RecordsError
from controller.records.reports.notation import HIGHLIGHT_WORDS, format_notation
from controller.records.reports.templating import new_environment
from controller.tournament.event import is_finished, standings
from controller.tournament.model import Event, HanchanResult, MatchResult, RummikubGameResult
from controller.tournament.render import cell_text

from .errors import SiteError
from .ratings import Ratings, club_games, rate
from .registry import Player


@dataclass(frozen=True)
class Page:
    path: str  # relative to the site's folder
    template: str
    context: dict


@dataclass(frozen=True)
class GameRecord:
    """What a table's record says of one game: the notation text and its highlighted turns."""

    notation: str
    highlights: tuple[tuple[str, str], ...]  # (turn line, words)
    problem: str = ""  # why the turns cannot be shown (the result still counts: its record holds)


def slug(text: str) -> str:
    """A file name for any event name: readable letters, then a short hash so two names never meet."""
    readable = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "event"
    return f"{readable}-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:8]}"


def _result_lines(result) -> list[tuple[str, str]]:
    if isinstance(result, RummikubGameResult):
        return [(name, str(points) + (" (winner)" if name == result.winner else ""))
                for name, points in sorted(result.scores.items(), key=lambda item: -item[1])]
    if isinstance(result, HanchanResult):
        return [(name, cell_text(points)) for name, points in sorted(result.scores.items(), key=lambda i: -i[1])]
    if isinstance(result, MatchResult):
        return [(result.winner, "winner")] + ([("", result.detail)] if result.detail else [])
    return []


def event_pages(event: Event, records: dict[str, GameRecord]) -> list[Page]:
    """The event's page and one page per game with a result."""
    base = slug(event.name)
    table = standings(event)
    sections = [{"title": s.title, "columns": ("place", "player", *s.columns, ""),
                 "rows": [("-" if r.place is None else str(r.place), r.player, *(cell_text(v) for v in r.values),
                           r.note) for r in s.rows]} for s in table.sections]
    rounds = []
    pages = []
    for round_ in event.rounds:
        tables = []
        for t in round_.tables:
            games = []
            for number in range(1, t.games + 1):
                game = f"R{round_.number}-T{t.number}-G{number}"
                result = event.results.get(game)
                link = f"games/{base}-{game}.html" if result is not None else None
                games.append({"game": game, "link": link, "played": result is not None})
                if result is not None:
                    pages.append(Page(f"games/{base}-{game}.html", "game.html", {
                        "event": event.name, "event_link": f"../events/{base}.html", "game": game,
                        "seats": list(t.seats), "lines": _result_lines(result), "record": records.get(game)}))
            tables.append({"number": t.number, "seats": list(t.seats), "games": games})
        rounds.append({"number": round_.number, "name": round_.name, "tables": tables})
    pages.append(Page(f"events/{base}.html", "event.html", {
        "event": event.name, "format": event.format, "finished": is_finished(event), "sections": sections,
        "rounds": rounds, "changes": list(table.changes), "base": base}))
    return pages


def rating_pages(ratings: Ratings, players: tuple[Player, ...], event_links: dict[str, str],
                 names: dict[str, str] | None = None) -> list[Page]:
    names = names or {p.player_id: p.name for p in players}
    rows = [{"place": i, "player": r.player_id, "name": names.get(r.player_id, ""), "rating": f"{r.ordinal:.2f}",
             "mu": f"{r.mu:.2f}", "sigma": f"{r.sigma:.2f}", "games": r.games}
            for i, r in enumerate(ratings.table, start=1)]
    pages = [Page("ratings.html", "ratings.html", {"rows": rows})]
    for rating in ratings.table:
        player = next((p for p in players if p.player_id == rating.player_id), None)
        steps = [{"event": f"{s.origin}: {s.event}" if s.origin else s.event, "event_link": event_links.get(s.event), "game": s.game,
                  "game_link": f"../games/{slug(s.event)}-{s.game}.html" if s.event in event_links else None,
                  "name": s.name_used, "place": f"{s.place} of {s.of}", "rating": f"{s.rating.ordinal:.2f}"}
                 for s in ratings.history(rating.player_id)]
        pages.append(Page(f"players/{rating.player_id}.html", "player.html", {
            "player": rating.player_id, "name": names.get(rating.player_id, ""),
            "names": [(span.name, span.since) for span in player.names] if player else [],
            "rating": f"{rating.ordinal:.2f}", "steps": steps}))
    return pages


@functools.lru_cache(maxsize=None)
def _environment() -> jinja2.Environment:
    return new_environment(jinja2.PackageLoader("controller.league", "templates"), strict=True)


def render(page: Page, club: str) -> str:
    depth = page.path.count("/")
    return _environment().get_template(page.template).render(**page.context, club=club, root="../" * depth)


def table_records(store, event_name: str) -> dict[str, GameRecord]:
    """The notation and highlights of each game a table played into the club's database for the event."""
    from controller.records import Records
    from controller.records.reports.moves import game_notation_of
    from controller.tournament.played import played_results

    if "game_info" not in store.db.tables():
        return {}
    out: dict[str, GameRecord] = {}
    try:
        records = Records.on(store.db)
        linked: dict = {}
        played_results(records, event_name, linked)
        for link in linked.values():
            if link.state != "counted":
                continue
            try:
                notation = game_notation_of(records, link.records_game)
            except (RecordsError, GameError) as error:
                out[link.game] = GameRecord("", (), f"records game {link.records_game}: {error}")
                continue
            marks = tuple((f"turn {line.turn}: {line.player}", ", ".join(HIGHLIGHT_WORDS[h] for h in line.highlights))
                          for line in notation.turns if line.highlights)
            out[link.game] = GameRecord(format_notation(notation), marks)
    except RecordsError:
        return out
    return out


def build_site(store, players: tuple[Player, ...], club: str) -> list[tuple[str, str]]:
    """Every page of the site as (relative path, HTML), each event verified as it is read."""
    pages: list[Page] = []
    events = []
    for name, fmt in store.event_names():
        event = store.load(name)
        pages.extend(event_pages(event, table_records(store, name)))
        events.append({"name": name, "format": fmt, "link": f"events/{slug(name)}.html",
                       "finished": is_finished(event), "rounds": len(event.rounds)})
    links = {e["name"]: f"../{e['link']}" for e in events}
    ratings = rate(club_games(store))
    pages.extend(rating_pages(ratings, players, links))
    pages.append(Page("index.html", "index.html", {"events": events, "rated": len(ratings.table)}))
    return [(page.path, render(page, club)) for page in pages]


def build_league_site(games, league: str) -> list[tuple[str, str]]:
    """The league's pages: its table, its ratings and each player's rated games (every club's)."""
    from .standings import league_table

    names: dict[str, str] = {}
    for game in sorted(games, key=lambda g: (g.at, g.origin, g.event, g.game)):
        names.update(game.names)
    rows = [{"place": r.place, "player": r.player_id, "name": r.name, "clubs": ", ".join(r.clubs),
             "events": r.events, "games": r.games, "wins": r.wins, "points": r.points} for r in league_table(games)]
    pages = rating_pages(rate(games), (), {}, names)
    pages.append(Page("index.html", "league.html", {"rows": rows}))
    return [(page.path, render(page, league)) for page in pages]


def write_site(out: str | Path, pages: list[tuple[str, str]]) -> int:
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise SiteError(f"--out {str(out)!r} is a file; give a folder")
    try:
        for path, html in pages:
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(html, encoding="utf-8")
    except OSError as error:
        raise SiteError(f"--out {str(out)!r}: cannot write the site ({error.strerror or error})") from None
    return len(pages)
