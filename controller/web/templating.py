"""The Jinja2 environment every page of the web layer renders with (autoescaping on for all of it).

`environment()` is shared: the table's pages and any other page of the package (a club board)
extend `base.html` and use the same filters and macros (`macros.html`); the regions the web audit
page shares with the static one `tileref audit` writes come from the records' templates
(`records/audit_regions.html`, controller/records/reports/templates). No page is ever put
together by string concatenation: names and codes reach the HTML only through the templates.
"""
from __future__ import annotations

import functools

import jinja2

from controller.records.reports.templating import new_environment, records_loader

LOW_TIME_S = 10  # seconds left from which the table display shows the low-time warning


def mmss(seconds) -> str:
    """A countdown as the box shows it: m:ss (None: --:--)."""
    if seconds is None:
        return "--:--"
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def ms_clock(ms) -> str:
    if ms is None:
        return "--:--"
    return mmss(-(-int(ms) // 1000))


def melds_text(melds) -> str:
    return "  ".join("[" + " ".join(m) + "]" for m in melds) or "(empty table)"


@functools.lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    # the records' templates under records/: the regions the static audit page shares with audit.html
    env = new_environment(jinja2.ChoiceLoader([
        jinja2.PackageLoader("controller.web", "templates"),
        jinja2.PrefixLoader({"records": records_loader()}),
    ]))
    env.filters["mmss"] = mmss
    env.filters["ms_clock"] = ms_clock
    env.filters["melds_text"] = melds_text
    env.globals["LOW_TIME_S"] = LOW_TIME_S
    return env


def render(name: str, **context) -> str:
    return environment().get_template(name).render(**context)
