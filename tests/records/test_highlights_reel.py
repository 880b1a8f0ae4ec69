"""`tileref highlights` shows where each turn happened: every photo of the reel is cropped to the
part of the frame where the turn's tiles changed (with a margin) and those tiles are ringed. The
reel used to show whole 1280x720 frames with the tiles small in one corner.

The game is the bundled demo (real rendered frames, each read by the real reader), so the tiles
and the frame sizes come from the stored readings."""
from __future__ import annotations

import contextlib
import io
from html.parser import HTMLParser

import pytest

from controller.cli import main
from controller.game.events import TableRead
from controller.records import Records
from controller.records.reports.moves import game_notation_of
from controller.records.reports.turns import turns


class Reel(HTMLParser):
    """Each article's figures: the SVG's viewBox, its image and its ringed tiles."""

    def __init__(self) -> None:
        super().__init__()
        self.articles: dict[int, list[dict]] = {}
        self.turn: int | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "article":
            self.turn = int(a["id"].removeprefix("turn-"))
            self.articles[self.turn] = []
        elif tag == "svg" and "focus" in a.get("class", ""):
            self.articles[self.turn].append({"view": [float(v) for v in a["viewbox"].split()],
                                             "frame": a["data-frame"], "label": a["aria-label"], "marks": []})
        elif tag == "image":
            self.articles[self.turn][-1]["image"] = a["href"]
        elif tag == "rect" and a.get("class") == "changed":
            self.articles[self.turn][-1]["marks"].append(
                (a["data-code"], *(float(a[k]) for k in ("x", "y", "width", "height"))))
        elif tag == "img" and self.turn is not None:
            self.articles[self.turn].append({"uncropped": a["src"]})


@pytest.fixture(scope="module")
def reel(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reel")
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["demo", "--quiet", "--out", str(folder)]) == 0
        assert main(["highlights", "--db", str(folder / "demo.sqlite"), "--out", str(folder / "reel")]) == 0
    parsed = Reel()
    parsed.feed((folder / "reel" / "index.html").read_text(encoding="utf-8"))
    return folder / "demo.sqlite", folder / "reel", parsed.articles


def last_reads(db):
    """Each turn's notation line and the tiles of its last read (the table the player left)."""
    with Records(db, create=False, read_only=True) as records:
        game = records.latest_game()
        lines = {line.turn: line for line in game_notation_of(records, game).turns}
        reads = {}
        for record in turns(records, game):
            found = [r.event for r in record.events if isinstance(r.event, TableRead)]
            if found:
                reads[record.turn] = found[-1]
    return lines, reads


def test_each_photo_is_cropped_to_where_the_turn_s_tiles_changed(reel):
    db, out, articles = reel
    lines, reads = last_reads(db)
    assert len(articles) >= 3
    for turn, figures in articles.items():
        assert figures and all("view" in f for f in figures), f"turn {turn}: a photo shown whole: {figures}"
        views = {tuple(f["view"]) for f in figures}
        assert len(views) == 1, f"turn {turn}: its photos show different parts: {views}"
        left, top, width, height = figures[0]["view"]
        frame_width, frame_height = (int(n) for n in figures[0]["frame"].split("x"))
        assert left >= 0 and top >= 0 and left + width <= frame_width + 0.1 and top + height <= frame_height + 0.1
        assert width * height <= 0.25 * frame_width * frame_height, f"turn {turn}: hardly cropped: {figures[0]['view']}"
        for figure in figures:
            assert (out / figure["image"]).stat().st_size > 0 and not figure["image"].startswith(("/", "http"))

        after = next(f for f in figures if f["label"].startswith("after"))
        played = list(lines[turn].played)  # the tiles laid from the rack this turn
        ringed = [code for code, *_ in after["marks"]]
        assert played and all(ringed.count(code) >= played.count(code) for code in played), (turn, played, ringed)
        tiles = reads[turn].tiles
        for code, x, y, w, h in after["marks"]:
            # each ring is round a tile of that code where the camera read it, inside the view with room round it
            assert any(t.code == code and x < t.x < x + w and y < t.y < y + h for t in tiles), (turn, code, x, y)
            room = min(w, h)
            assert (x - left >= room or left == 0) and (left + width - (x + w) >= room or left + width >= frame_width - 0.1)
            assert (y - top >= room or top == 0) and (top + height - (y + h) >= room or top + height >= frame_height - 0.1)


def test_a_turn_that_took_a_tile_away_rings_it_on_the_photo_before(reel):
    db, _out, articles = reel
    lines, _reads = last_reads(db)
    turn = next(t for t in articles if any("J" in meld for meld in lines[t].gone))  # the joker freed
    before = next(f for f in articles[turn] if f["label"].startswith("before"))
    assert "J" in [code for code, *_ in before["marks"]]
