"""`tileref highlights`: the turns worth showing as a small HTML reel a streamer or a club page can use.

One folder: `index.html` (reports/templates/highlights_reel.html, autoescaped, no script) and
`photos/`, the photos before and after each highlighted turn (and the table put back after a
penalty) copied as the image type their bytes are. Each is shown cropped to where the turn's tiles
changed, with a margin, and those tiles marked (reel_focus.py): an SVG over the photo as recorded,
whose whole frame is one click away. Every link is relative, so the folder works
offline, from a USB stick or any web server. The game is verified first, like every reader.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.game.events import PlacedTile, RestoreChecked, TableRead, TurnStarted
from controller.messages import DEFAULT_LANGUAGE, catalogue

from ..errors import RecordsFileError
from ..photo_types import image_type
from ..store import Records
from ..verification.report import ChainReport
from .moves import game_notation_of
from .notation import HIGHLIGHT_WORDS, turn_text
from .reel_focus import Focus, Frame, changed, focus, frame_of
from .templating import render
from .turns import turns

PAGE = "index.html"
PHOTOS = "photos"
EXTENSIONS = {"image/jpeg": "jpg", "image/png": "png", "image/bmp": "bmp", "image/webp": "webp",
              "image/tiff": "tiff"}


@dataclass(frozen=True)
class Reel:
    page: Path
    count: int  # highlighted turns
    turns: int  # turns in the game
    photos: int  # photo files written


def write_reel(records: Records, game_id: int, out: Path, report: ChainReport | None = None,
               language: str = DEFAULT_LANGUAGE) -> Reel | None:
    """Write the reel into `out`, its words in `language`; None (nothing written) when no turn is worth
    showing."""
    words = catalogue(language)
    report = report or records.require_intact(game_id)
    game = game_notation_of(records, game_id)
    marked = {line.turn: line for line in game.turns if line.highlights}
    if not marked:
        return None
    written: dict[str, str | None] = {}

    def photo(sha: str | None, caption: str, focus: Focus | None) -> dict[str, Any]:
        if sha is not None and sha not in written:
            written[sha] = _copy_photo(records, sha, out)
        return {"src": written.get(sha) if sha else None, "caption": caption, "focus": focus}

    shows = []
    table: TableSeen | None = None  # the table as the last turn left it: where this turn starts from
    try:
        out.mkdir(parents=True, exist_ok=True)
        for record in turns(records, game_id):
            events = [r.event for r in record.events]
            reads = [e for e in events if isinstance(e, TableRead)]
            restored = [e for e in events if isinstance(e, RestoreChecked) and e.matches]
            before = table
            after = _seen(records, reads[-1]) if reads else None
            back = _seen(records, restored[-1]) if restored else None
            table = back or after or table
            line = marked.get(record.turn)
            if line is None:
                continue
            started = next(e for e in events if isinstance(e, TurnStarted))
            views = _views(before, after, back)
            photos = [photo(started.photo, words.text("reel.photo-before", turn=record.turn), views[0]),
                      photo(reads[-1].photo if reads else None, words.text("reel.photo-after", player=record.player),
                            views[1])]
            if restored:
                photos.append(photo(restored[-1].photo, words.text("reel.photo-back"), views[2]))
            shows.append({"turn": record.turn, "player": record.player, "line": turn_text(line),
                          "anchor": f"turn-{record.turn}",
                          "highlights": [{"name": str(h), "words": words.maybe(f"reel.highlight.{h}", HIGHLIGHT_WORDS[h])}
                                         for h in line.highlights],
                          "photos": photos})
        page = out / PAGE
        page.write_text(render("highlights_reel.html", language, lang=language, game=game_id, chain=report.summary(),
                               tags=list(game.tags), shows=shows, turns=len(game.turns)), encoding="utf-8")
    except OSError as error:
        raise RecordsFileError(f"the reel cannot be written in {str(out)!r}: {error.strerror or error}") from None
    return Reel(page, len(shows), len(game.turns), sum(1 for src in written.values() if src))


@dataclass(frozen=True)
class TableSeen:
    """A table as read: its tiles and the frame they were read on."""

    tiles: tuple[PlacedTile, ...]
    frame: Frame | None


def _seen(records: Records, event: TableRead | RestoreChecked) -> TableSeen:
    stored = records.reading(event.reading, event.photo) if event.reading else None
    return TableSeen(tuple(event.tiles), frame_of(stored.reading if stored else None))


def _views(before: TableSeen | None, after: TableSeen | None,
           back: TableSeen | None) -> tuple[Focus | None, Focus | None, Focus | None]:
    """Each photo's view (before, after, put back): one part of the frame for all three, round every
    tile the turn changed; before marks the tiles that left their place, after the tiles laid or
    moved, the table put back the tiles it has where the turn's table had none.
    None each (the whole photo, unmarked) when no reading says how big the frame is."""
    frame = next((seen.frame for seen in (after, back, before) if seen and seen.frame), None)
    if frame is None or after is None:
        return None, None, None
    start = before.tiles if before else ()
    left = changed(start, after.tiles, frame)
    laid = changed(after.tiles, start, frame)
    put_back = changed(back.tiles, after.tiles, frame) if back else []
    moved = [*left, *laid, *put_back]
    return focus(moved, left, frame), focus(moved, laid, frame), focus(moved, put_back, frame)


def _copy_photo(records: Records, sha: str, out: Path) -> str | None:
    """The photo's file under `photos/`, named by its hash, as the type its bytes are; None for no image."""
    stored = records.photo(sha)
    mime = image_type(stored.data) if stored is not None else None
    if mime is None:
        return None
    folder = out / PHOTOS
    folder.mkdir(exist_ok=True)
    name = f"{sha[:16]}.{EXTENSIONS[mime]}"
    (folder / name).write_bytes(stored.data)
    return f"{PHOTOS}/{name}"
