"""The address of each table's live page and its QR code (drawn by segno as inline SVG).

The organiser gives one address with placeholders, e.g. `http://club.local:8000/table/{table}`:
`{table}` (required: one code per table), `{round}` and `{event}` (the event's name, URL-quoted).
"""
from __future__ import annotations

import string
from urllib.parse import quote, urlsplit

import segno
from markupsafe import Markup

from .errors import LiveUrlError

PLACEHOLDERS = ("table", "round", "event")
ERROR_LEVEL = "m"  # segno raises it where the code stays the same size (boost_error)


def check_live_url(template: str) -> None:
    """Refuse, before anything is printed, an address that is not one page per table."""
    try:
        fields = [name for _, name, spec, conv in string.Formatter().parse(template) if name is not None]
    except ValueError as error:
        raise LiveUrlError(f"--live-url {template!r}: {error} (write a literal brace as {{{{ or }}}})") from None
    unknown = [name for name in fields if name not in PLACEHOLDERS]
    if unknown:
        raise LiveUrlError(f"--live-url {template!r}: unknown placeholder {{{unknown[0]}}}; "
                           f"known: {', '.join('{' + p + '}' for p in PLACEHOLDERS)}")
    if "table" not in fields:
        raise LiveUrlError(f"--live-url {template!r} has no {{table}}: every table would show the same page")
    parts = urlsplit(template.replace("{", "").replace("}", ""))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LiveUrlError(f"--live-url {template!r}: expected an http:// or https:// address")


def live_url(template: str, event: str, round_number: int, table: int) -> str:
    check_live_url(template)
    return template.format(table=table, round=round_number, event=quote(event, safe=""))


def qr_code(url: str) -> segno.QRCode:
    """Always a full QR code (never a Micro QR, which phones' cameras read badly)."""
    return segno.make_qr(url, error=ERROR_LEVEL)


def qr_svg(url: str) -> Markup:
    """The code as an inline <svg> element. segno writes only the modules' path (no text of the
    address), so the markup is safe as it is; the address is printed beside it through the template.
    Without a fixed size (a viewBox only): the print CSS gives it its size on paper."""
    return Markup(qr_code(url).svg_inline(scale=1, border=4, dark="#000", light="#fff",
                                         svgclass="qr", lineclass=None, omitsize=True))
