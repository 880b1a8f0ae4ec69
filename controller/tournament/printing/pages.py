"""The printables of a round and of an event, as self-contained HTML pages (Jinja2, autoescaped;
print CSS with A4 paper and page breaks, no script, no file from outside the page).

Pure: an `Event` in (as the store loads it), text out.

- pairing sheet: the round's tables for the wall, players in seat order, and an index of who sits where;
- table cards: one page per table, its players in seat order, the game and the stage, the rules in
  one line and a QR code of the table's live page;
- result slips: one per table (two to a page, to cut), a box per player and game, a line to sign;
- standings: every section of the standings, final or so far.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import jinja2

from controller.messages import DEFAULT_LANGUAGE, Catalogue, catalogue
from controller.records.reports.templating import new_environment

from ..errors import GameNotDrawnError
from ..event import is_finished, standings
from ..formats import get_format
from ..model import Event, GameKind, Round, Table, game_id
from ..render import cell_text
from .errors import PrintTargetError
from .qr import check_live_url, live_url, qr_svg

KINDS = ("pairings", "cards", "slips", "standings")
SLIPS_PER_PAGE = 2


@dataclass(frozen=True)
class Seat:
    number: int
    player: str


@dataclass(frozen=True)
class TableView:
    number: int
    bracket: str
    seats: tuple[Seat, ...]
    games: tuple[str, ...]  # the game ids, as the results are entered
    disqualified: bool


@dataclass(frozen=True)
class RoundView:
    event: str
    game: str  # "Rummikub", "Mahjong", "Shogi", "Othello"
    stage: str  # the round's name and where it stands in the event
    number: int
    tables: tuple[TableView, ...]


def game_name(event: Event) -> str:
    kind = get_format(event.format).game_kind
    if kind is GameKind.MATCH:
        return str(getattr(event.settings, "game", "match")).capitalize()
    return {GameKind.RUMMIKUB: "Rummikub", GameKind.MAHJONG: "Mahjong"}[kind]


def _english() -> Catalogue:
    return catalogue(DEFAULT_LANGUAGE)


def rules_line(event: Event, table: Table, words: Catalogue | None = None) -> str:
    """What a player at the table must know, in one line: the rule set and how many games."""
    words = words or _english()
    event_format = get_format(event.format)
    games = words.text("print.games", count=table.games)
    if event_format.game_kind is GameKind.RUMMIKUB and event_format.variant:
        from controller.rules.variants import get_ruleset

        rules = get_ruleset(event_format.variant)
        failed = (words.text("print.failed-points", draw=rules.penalty_draw, points=rules.penalty_points)
                  if rules.penalty_points else words.text("print.failed", draw=rules.penalty_draw))
        return words.text("print.rules-rummikub", rules=rules.name, seconds=rules.seconds_per_turn,
                          meld=rules.initial_meld_points, failed=failed, games=games)
    if event_format.game_kind is GameKind.MAHJONG:
        return words.text("print.rules-mahjong", format=event.format, count=table.games)
    if table.bracket:
        return words.text("print.rules-knockout-bracket", game=game_name(event), bracket=table.bracket, games=games)
    return words.text("print.rules-knockout", game=game_name(event), games=games)


def stage_of(event: Event, round_: Round, words: Catalogue | None = None) -> str:
    total = get_format(event.format).round_count(event)
    return (words or _english()).text("print.stage", number=round_.number, rounds=total, name=round_.name)


def chosen_round(event: Event, number: int | None) -> Round:
    if not event.rounds:
        raise GameNotDrawnError(f"event {event.name!r} has no round drawn yet: draw the first round, then print")
    if number is None:
        return event.rounds[-1]
    if not 1 <= number <= len(event.rounds):
        raise GameNotDrawnError(f"round {number} has not been drawn in event {event.name!r} "
                                f"(drawn: 1-{len(event.rounds)})")
    return event.round(number)


def round_view(event: Event, round_: Round, words: Catalogue | None = None) -> RoundView:
    tables = tuple(
        TableView(
            number=table.number, bracket=table.bracket,
            seats=tuple(Seat(i, p) for i, p in enumerate(table.seats, start=1)),
            games=tuple(game_id(round_.number, table.number, g) for g in range(1, table.games + 1)),
            disqualified=event.is_disqualified_table(round_.number, table.number))
        for table in round_.tables
    )
    return RoundView(event.name, game_name(event), stage_of(event, round_, words), round_.number, tables)


@functools.lru_cache(maxsize=None)
def _environment() -> jinja2.Environment:
    return new_environment(jinja2.PackageLoader("controller.tournament.printing", "templates"), strict=True)


def _render(template: str, words: Catalogue, **context) -> str:
    return _environment().get_template(template).render(t=words.text, lang=words.language, **context)


def pairings_html(event: Event, round_number: int | None = None, words: Catalogue | None = None) -> str:
    words = words or _english()
    view = round_view(event, chosen_round(event, round_number), words)
    index = sorted(((seat.player, table.number, seat.number) for table in view.tables for seat in table.seats),
                   key=lambda item: (item[0].casefold(), item[0]))
    return _render("pairings.html", words, view=view, index=index)


def cards_html(event: Event, live_url_template: str, round_number: int | None = None,
               words: Catalogue | None = None) -> str:
    words = words or _english()
    check_live_url(live_url_template)
    round_ = chosen_round(event, round_number)
    view = round_view(event, round_, words)
    tables = {t.number: t for t in round_.tables}
    cards = []
    for table in view.tables:
        url = live_url(live_url_template, event.name, round_.number, table.number)
        cards.append({"table": table, "rules": rules_line(event, tables[table.number], words), "url": url,
                      "qr": qr_svg(url)})
    return _render("cards.html", words, view=view, cards=cards)


def slips_html(event: Event, round_number: int | None = None, words: Catalogue | None = None) -> str:
    words = words or _english()
    view = round_view(event, chosen_round(event, round_number), words)
    kind = get_format(event.format).game_kind
    box = words.text({GameKind.RUMMIKUB: "print.box-rummikub", GameKind.MAHJONG: "print.box-mahjong",
                      GameKind.MATCH: "print.box-match"}[kind])
    return _render("slips.html", words, view=view, box=box, per_page=SLIPS_PER_PAGE)


def standings_html(event: Event, words: Catalogue | None = None) -> str:
    words = words or _english()
    table = standings(event)

    def heading(text: str) -> str:  # the format's own heading, in words where the catalogue has them
        return words.maybe(f"print.heading.{text}", text)

    sections = [
        {"title": heading(section.title), "columns": [heading(c) for c in section.columns],
         "rows": [{"place": "-" if row.place is None else row.place, "player": row.player, "note": row.note,
                   "cells": [(cell_text(v), not isinstance(v, str)) for v in row.values]}
                  for row in section.rows]}
        for section in table.sections
    ]
    state = words.text("print.final") if is_finished(event) else words.text("print.after",
                                                                             count=_results_in(event))
    return _render("standings.html", words, event=event.name, format=event.format, game=game_name(event),
                   state=state, sections=sections)


def _results_in(event: Event) -> int:
    return sum(1 for round_ in event.rounds for game in round_.game_ids() if game in event.results)


def printable_html(event: Event, kind: str, *, round_number: int | None = None, live_url_template: str | None = None,
                   lang: str = DEFAULT_LANGUAGE) -> str:
    """One printable as HTML, in the language `lang`: `kind` is one of KINDS; the cards need the live
    page's address."""
    words = catalogue(lang)
    if kind == "pairings":
        return pairings_html(event, round_number, words)
    if kind == "cards":
        if not live_url_template:
            raise PrintTargetError("table cards need --live-url, the address of a table's live page with {table}, "
                                   "e.g. 'http://club.local:8000/table/{table}'")
        return cards_html(event, live_url_template, round_number, words)
    if kind == "slips":
        return slips_html(event, round_number, words)
    if kind == "standings":
        return standings_html(event, words)
    raise PrintTargetError(f"no printable {kind!r}; expected one of {', '.join(KINDS)}")


__all__ = ["KINDS", "printable_html", "pairings_html", "cards_html", "slips_html", "standings_html", "rules_line",
           "round_view"]
