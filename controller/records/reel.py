"""`tileref highlights`: the turns worth showing as a small HTML reel a streamer or a club page can use.

One folder: `index.html` (records/templates/highlights_reel.html, autoescaped, no script) and
`photos/`, the photos before and after each highlighted turn (and the table put back after a
penalty) copied as the image type their bytes are. Every link is relative, so the folder works
offline, from a USB stick or any web server. The game is verified first, like every reader.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.game.events import RestoreChecked, TableRead, TurnStarted

from .errors import RecordsFileError
from .moves import game_notation_of
from .notation import HIGHLIGHT_WORDS, turn_text
from .photo_types import image_type
from .store import ChainReport, Records
from .templating import render
from .views import turns

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


def write_reel(records: Records, game_id: int, out: Path, report: ChainReport | None = None) -> Reel | None:
    """Write the reel into `out`; None (nothing written) when no turn is worth showing."""
    report = report or records.require_intact(game_id)
    game = game_notation_of(records, game_id)
    marked = {line.turn: line for line in game.turns if line.highlights}
    if not marked:
        return None
    written: dict[str, str | None] = {}

    def photo(sha: str | None, caption: str) -> dict[str, Any]:
        if sha is not None and sha not in written:
            written[sha] = _copy_photo(records, sha, out)
        return {"src": written.get(sha) if sha else None, "caption": caption}

    shows = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for record in turns(records, game_id):
            line = marked.get(record.turn)
            if line is None:
                continue
            events = [r.event for r in record.events]
            started = next(e for e in events if isinstance(e, TurnStarted))
            reads = [e for e in events if isinstance(e, TableRead)]
            restored = [e for e in events if isinstance(e, RestoreChecked) and e.matches]
            photos = [photo(started.photo, f"before: the table as turn {record.turn} started"),
                      photo(reads[-1].photo if reads else None, f"after: the table {record.player} left")]
            if restored:
                photos.append(photo(restored[-1].photo, "the table put back"))
            shows.append({"turn": record.turn, "player": record.player, "line": turn_text(line),
                          "anchor": f"turn-{record.turn}",
                          "highlights": [{"name": str(h), "words": HIGHLIGHT_WORDS[h]} for h in line.highlights],
                          "photos": photos})
        page = out / PAGE
        page.write_text(render("highlights_reel.html", game=game_id, chain=report.summary(),
                               tags=list(game.tags), shows=shows, turns=len(game.turns)), encoding="utf-8")
    except OSError as error:
        raise RecordsFileError(f"the reel cannot be written in {str(out)!r}: {error.strerror or error}") from None
    return Reel(page, len(shows), len(game.turns), sum(1 for src in written.values() if src))


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
