"""Standings and draws as text, JSON, CSV and a printable HTML page (pure: values in,
text out; the HTML page from a Jinja2 template). Scores of 0.1 are written with one decimal, never through a float."""
from __future__ import annotations

import functools
import io
import json
import re
from dataclasses import dataclass
from decimal import Decimal

import jinja2

from controller.records.reports.templating import new_environment

from .model import Cell, Event, Round, Standings, StandingsSection


def cell_text(value: Cell) -> str:
    if isinstance(value, Decimal):
        return f"{value:.1f}"
    return str(value)


def dumps(value: object) -> str:
    """JSON with Decimals written as numbers with one decimal place."""
    if isinstance(value, Decimal):
        return f"{value:.1f}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)}: {dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(dumps(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def standings_data(standings: Standings) -> dict:
    return {
        "event": standings.event,
        "format": standings.format,
        "finished": standings.finished,
        "sections": [
            {
                "title": section.title,
                "columns": ["place", "player", *section.columns, "note"],
                "rows": [
                    {"place": row.place, "player": row.player,
                     **dict(zip(section.columns, row.values)), "note": row.note}
                    for row in section.rows
                ],
            }
            for section in standings.sections
        ],
        "changes": list(standings.changes),
    }


def standings_json(standings: Standings) -> str:
    return dumps(standings_data(standings))


def _section_lines(section: StandingsSection) -> list[str]:
    header = ["place", "player", *section.columns, ""]
    body = [
        ["-" if r.place is None else str(r.place), r.player, *map(cell_text, r.values), r.note]
        for r in section.rows
    ]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    return [section.title] + [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in [header, *body]
    ]


def standings_text(standings: Standings) -> str:
    state = "finished" if standings.finished else "in progress"
    lines = [f"{standings.event} ({standings.format}, {state})"]
    for section in standings.sections:
        lines += [""] + _section_lines(section)
    if standings.changes:
        lines += ["", "Changes"] + [f"  {change}" for change in standings.changes]
    return "\n".join(lines) + "\n"


# A spreadsheet reads a cell starting with one of these as a formula (OWASP, "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER_TEXT = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


# What a spreadsheet may be told splits a line into cells (`;` where the decimal sign is a comma,
# as in Polish and most European locales): a reader splitting at one the file does not use takes no
# quotes as quotes, so text after any of them starts a cell of its own.
SEPARATORS = re.compile(r"([,;|\t])")


def spreadsheet_text(text: str) -> str:
    """A text cell a spreadsheet shows as the text itself, whatever separator it splits lines at:
    each part that would start a formula (the text's start, or what follows a separator, spaces
    aside) gets a single quote before it (a number written as text, such as "-12", stays a number)."""
    parts = SEPARATORS.split(text)
    for k in range(0, len(parts), 2):
        part = parts[k]
        body = part.lstrip(" ")
        if body.startswith(FORMULA_STARTS) and not _NUMBER_TEXT.fullmatch(body):
            parts[k] = part[:len(part) - len(body)] + "'" + body
    written = "".join(parts)
    if written.startswith(FORMULA_STARTS) and not _NUMBER_TEXT.fullmatch(written):  # a leading tab
        return "'" + written
    return written


def _csv_cell(value: Cell | None) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return spreadsheet_text(value)
    return cell_text(value)


_BARE_PUNCTUATION = frozenset("._'+-")


def _bare(text: str) -> bool:
    """Written unquoted: only letters, digits and . _ ' + - (no character any reader splits cells at)."""
    return all(c.isalnum() or c in _BARE_PUNCTUATION for c in text)


def standings_csv(standings: Standings) -> str:
    """The overall order (the first section) as one CSV table; names and notes never become formulas.
    The file is read with whatever separator the reader's locale takes (`;` in much of Europe, a tab,
    `|`), so every cell but a bare word or number is quoted: `Ann;=1+1` stays one cell, never a
    name and a formula."""
    section = standings.sections[0]
    out = io.StringIO()

    def row(cells) -> None:
        texts = [_csv_cell(c) for c in cells]
        out.write(",".join(t if _bare(t) else '"' + t.replace('"', '""') + '"' for t in texts) + "\n")

    row(("place", "player", *section.columns, "note"))
    for r in section.rows:
        row((r.place, r.player, *r.values, r.note))
    return out.getvalue()


@dataclass(frozen=True)
class _HtmlCell:
    text: str
    numeric: bool  # right-aligned


def standings_html(standings: Standings) -> str:
    """The printable page; the template escapes every name (Jinja2 autoescaping)."""
    sections = []
    for section in standings.sections:
        rows = [
            [_HtmlCell("-" if r.place is None else str(r.place), True), _HtmlCell(r.player, False),
             *(_HtmlCell(cell_text(v), not isinstance(v, str)) for v in r.values), _HtmlCell(r.note, False)]
            for r in section.rows
        ]
        sections.append({"title": section.title, "columns": ("place", "player", *section.columns, ""), "rows": rows})
    return _page_environment().get_template("standings.html").render(
        event=standings.event, format=standings.format, sections=sections, changes=standings.changes,
        state="final standings" if standings.finished else "standings in progress")


@functools.lru_cache(maxsize=None)
def _page_environment() -> jinja2.Environment:
    return new_environment(jinja2.PackageLoader("controller.tournament", "templates"), strict=True)


def round_text(event: Event, round_: Round, with_draw: bool = True) -> str:
    lines = [f"Round {round_.number}: {round_.name} (seed {round_.seed})"]
    for table in round_.tables:
        bracket = f" [{table.bracket}]" if table.bracket else ""
        out = [d for d in event.disqualifications if (d.round, d.table) == (round_.number, table.number)]
        flag = f" (disqualified: {out[0].reason})" if out else ""
        lines.append(f"  table {table.number}{bracket}: " + ", ".join(
            f"{i}. {p}" for i, p in enumerate(table.seats, start=1)) + flag)
        for game in range(1, table.games + 1):
            gid = f"R{round_.number}-T{table.number}-G{game}"
            stand_ins = "".join(f"; {sub} plays for {player}" for sub, player in event.substitutes(gid).items())
            lines.append(f"    {gid}: {'result entered' if gid in event.results else 'to play'}{stand_ins}")
    if with_draw:
        lines.append("  draw record:")
        lines += [f"    {d.player}: {d.drew} -> {d.decides}" for d in round_.draw]
    return "\n".join(lines) + "\n"
