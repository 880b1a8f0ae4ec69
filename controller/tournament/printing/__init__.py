"""Printing for the tables: the round's pairing sheet, a table card per table (with a QR code of
its live page), result slips and the standings, as HTML or as PDF (Chromium, headless).

`print_event(db, name, kind, out, ...)` is what `tileref tournament print` calls: the event as the
database holds it, through `write_printable(event, kind, out, ...)`; the suffix of `out` says
which file (`.html` always works; `.pdf` needs Chromium).
"""
from __future__ import annotations

from pathlib import Path

from ..model import Event
from .errors import (
    ChromiumFailedError,
    ChromiumMissingError,
    LiveUrlError,
    PrintError,
    PrintTargetError,
)
from .pages import KINDS, printable_html, rules_line
from .pdf import find_chromium, html_to_pdf
from .qr import live_url, qr_code

SUFFIXES = (".html", ".pdf")


def check_target(out: str | Path) -> str:
    """The kind of file `out` names, refused before anything is read or drawn."""
    suffix = Path(out).suffix.lower()
    if suffix not in SUFFIXES:
        raise PrintTargetError(f"--out {str(out)!r}: expected a file ending in .html or .pdf")
    if not Path(out).parent.is_dir():
        raise PrintTargetError(f"--out {str(out)!r}: the folder {str(Path(out).parent)!r} does not exist")
    return suffix


def write_printable(event: Event, kind: str, out: str | Path, *, round_number: int | None = None,
                    live_url_template: str | None = None, lang: str = "en") -> Path:
    """Render one printable of `event` in the language `lang` and write it to `out` (.html, or .pdf
    through Chromium)."""
    suffix = check_target(out)
    # drawn first: a request that cannot be printed (no --live-url, a round not drawn) is named as such
    # on any machine, with Chromium or without it
    html = printable_html(event, kind, round_number=round_number, live_url_template=live_url_template, lang=lang)
    out = Path(out)
    if suffix == ".pdf":
        return html_to_pdf(html, out)
    try:
        out.write_text(html, encoding="utf-8")
    except OSError as error:
        raise PrintTargetError(f"cannot write {str(out)!r}: {error.strerror}") from None
    return out


def print_event(db: str | Path, name: str, kind: str, out: str | Path, *, round_number: int | None = None,
                live_url_template: str | None = None, lang: str = "en") -> Path:
    """One printable of the event `name` in the database `db` (a file or postgresql://...), read only."""
    from ..storage import TournamentStore

    check_target(out)
    with TournamentStore(db, read_only=True) as store:
        event = store.load(name)
    return write_printable(event, kind, out, round_number=round_number, live_url_template=live_url_template,
                           lang=lang)


__all__ = [
    "KINDS", "SUFFIXES", "print_event", "write_printable", "printable_html", "check_target", "rules_line", "live_url", "qr_code",
    "find_chromium", "html_to_pdf", "PrintError", "PrintTargetError", "LiveUrlError", "ChromiumMissingError",
    "ChromiumFailedError",
]
