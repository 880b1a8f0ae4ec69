"""Calibration layouts: the order in which a club lays out its set for `tileref calibrate`.

A layout is text, one row of tiles per line, codes separated by spaces, `#` starts a
comment, and a line `---` starts the next photo's page. Rows are read as the camera sees
the tiles upright: top row first, each row left to right. Every photo given to calibrate
shows one page, in order; a one-page layout is shown by every photo.

The default layout is the whole set of 106 tiles in eight rows, each colour twice and the
two jokers at the end of the last two rows:

    K1 .. K13        (two rows)
    B1 .. B13        (two rows)
    O1 .. O13        (two rows)
    R1 .. R13 J      (two rows)
"""
from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .codes import CODES, COLOUR_LETTERS, JOKER_CODE, MAX_COPIES, NUMBERS
from .errors import LayoutError

PAGE_BREAK = "---"


@dataclass(frozen=True)
class Layout:
    name: str
    pages: tuple[tuple[tuple[str, ...], ...], ...]  # page -> row -> codes, left to right

    @property
    def tile_count(self) -> int:
        return sum(len(row) for page in self.pages for row in page)

    def to_text(self) -> str:
        return f"\n{PAGE_BREAK}\n".join("\n".join(" ".join(row) for row in page) for page in self.pages) + "\n"


def _default_rows() -> tuple[tuple[str, ...], ...]:
    rows = []
    for colour in COLOUR_LETTERS:
        row = tuple(f"{colour}{n}" for n in NUMBERS) + ((JOKER_CODE,) if colour == COLOUR_LETTERS[-1] else ())
        rows += [row, row]
    return tuple(rows)


DEFAULT_LAYOUT = Layout("default", (_default_rows(),))


def parse_layout(text: str, name: str) -> Layout:
    """A layout from its text; LayoutError names the line and the code that is wrong."""
    pages: list[list[tuple[str, ...]]] = [[]]
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line == PAGE_BREAK:
            pages.append([])
            continue
        codes = tuple(line.split())
        for code in codes:
            if code not in CODES:
                raise LayoutError(f"layout {name!r} line {number}: unknown tile code {code!r}; expected K1..R13 or J")
        pages[-1].append(codes)
    if any(not page for page in pages):
        raise LayoutError(f"layout {name!r}: a page has no rows (two '{PAGE_BREAK}' lines together, or one at an end)")
    # one photo shows at most the copies a set has; a tile shown again in another photo is the same
    # tile seen twice (a joker laid beside each part of the set), and both views are learned from
    for page_number, page in enumerate(pages, start=1):
        counts = Counter(code for row in page for code in row)
        over = sorted(code for code, n in counts.items() if n > MAX_COPIES)
        if over:
            where = f" page {page_number}" if len(pages) > 1 else ""
            raise LayoutError(f"layout {name!r}{where}: {', '.join(over)} listed more than the {MAX_COPIES} copies a set has")
    return Layout(name, tuple(tuple(page) for page in pages))


def load_layout(path: str | os.PathLike) -> Layout:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise LayoutError(f"layout file {str(path)!r} cannot be read: {error}") from None
    return parse_layout(text, str(path))
