"""A hostile open game record is bad input for every reader of record files (`verify --record`,
`import`): exit 2, one line naming the file and the field as a JSON path, nothing written. Duplicate
keys, NaN, integers SQLite cannot hold, text where a number belongs (and the reverse), photos and
readings no event rests on, photos whose bytes are no image, a file over the size limit (refused
by its size, never read)."""
from __future__ import annotations

import base64
import json
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from controller.adapters.photos import FramePhotos
from controller.cli import main
from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TableRead, TurnEnded, TurnStarted
from controller.game.machine import apply, fold
from controller.records import Photo, Reading, Records, reading_sha, sha256_bytes
from controller.records.verification.record_checks import MAX_RECORD_BYTES
from controller.records.record_file import load_record
from controller.records.errors import RecordFormatError
from table_helpers import table

PLAYERS = ("Ann", "Ben")
SCRIPT = b"<script>document.title='pwned'</script>"


def frame_photo(shade: int) -> Photo:
    frame = np.full((48, 64, 3), shade, np.uint8)
    frame[10:20, 10:30] = 255 - shade
    return FramePhotos(".jpg").photo(frame)


def signed_game(db: Path, turn_photo: Photo) -> int:
    """A signed game: a turn started on `turn_photo`, read from a second photo (an invalid set), judged."""
    first = judging.game_created("classic", PLAYERS)
    read_photo = frame_photo(40)
    after = table(("R1", "R2"))
    raw = {"tiles": [{"code": "R1"}, {"code": "R2"}], "sets": [[0, 1]], "width": 64, "height": 48}
    reading = Reading(reading_sha(raw), read_photo.sha256, raw, 12.5)
    with Records(db) as records:
        game = records.start_game(first)
        model = fold([first])

        def add(event, **evidence):
            nonlocal model
            model = apply(model, event)
            records.append(game, event, state=model.state, **evidence)

        add(StartOrderDrawn((), "Ann", None))
        add(Dealt(1))
        add(TurnStarted(1, "Ann", 60, turn_photo.sha256), photos=(turn_photo,))
        add(TurnEnded(1, "button", "1", 10))
        add(TableRead("turn", read_photo.sha256, reading.sha256, after.tiles, after.sets, (), ()),
            photos=(read_photo,), readings=(reading,))
        verdict = judging.judge(model, after)
        assert verdict.outcome == "penalty"
        add(verdict)
    return game


def export(db: Path, out: Path) -> Path:
    assert main(["export", "--db", str(db), "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    signed_game(folder / "game.sqlite", frame_photo(200))
    return export(folder / "game.sqlite", folder / "game.json")


def edited(exported: Path, tmp_path: Path, change) -> Path:
    doc = json.loads(exported.read_text())
    change(doc)
    out = tmp_path / "hostile.json"
    out.write_text(json.dumps(doc))
    return out


def text_edited(exported: Path, tmp_path: Path, old: str, new: str) -> Path:
    text = exported.read_text()
    assert old in text
    out = tmp_path / "hostile.json"
    out.write_text(text.replace(old, new, 1))
    return out


def judged_index(doc) -> int:
    return next(i for i, e in enumerate(doc["events"]) if e["kind"] == "turn-judged")


def unnamed_html_photo(doc):
    data = SCRIPT
    doc["photos"].append({"sha256": sha256_bytes(data), "mime": "text/html", "width": 1, "height": 1,
                          "data": base64.b64encode(data).decode("ascii")})


def unnamed_blob(doc):
    blob = {"blob": "x" * 100_000}
    doc["readings"].append({"sha256": reading_sha(blob), "photo": None, "reading": blob, "elapsed_ms": 1.0})


def set_path(path: str, value):
    def change(doc):
        target = doc
        parts = path.replace("[", ".").replace("]", "").split(".")
        for part in parts[:-1]:
            target = target[int(part)] if part.isdigit() else target[part]
        last = parts[-1]
        target[int(last) if last.isdigit() else last] = value
    return change


EDITS = {
    "nan-elapsed-ms": (set_path("readings[0].elapsed_ms", float("nan")), "readings[0].elapsed_ms", "NaN"),
    "infinite-elapsed-ms": (set_path("readings[0].elapsed_ms", float("inf")), "readings[0].elapsed_ms",
                            "Infinity"),
    "text-elapsed-ms": (set_path("readings[0].elapsed_ms", "12.5"), "readings[0].elapsed_ms", "'12.5'"),
    "text-seq": (set_path("events[3].seq", "4"), "events[3].seq", "'4'"),
    "bool-seq": (set_path("events[3].seq", True), "events[3].seq", "True"),
    "number-variant": (set_path("game.variant", 5), "game.variant", "5, not text"),
    "number-kind": (set_path("events[2].kind", 3), "events[2].kind", "3, not text"),
    "game-id-10e20": (set_path("game.id", 10 ** 20), "game.id", "100000000000000000000"),
    "game-id-2e63": (set_path("game.id", 2 ** 63), "game.id", "outside SQLite's range"),
    "photo-width-10e30": (set_path("photos[0].width", 10 ** 30), "photos[0].width", "outside SQLite's range"),
    "photo-height-negative": (set_path("photos[0].height", -1), "photos[0].height", "less than 0"),
    "head-events-float": (set_path("head.events", 7.0), "head.events", "7.0"),
    "seq-missing": (lambda doc: doc["events"][2].pop("seq"), "events[2].seq", "missing"),
    "payload-int-10e30": (lambda doc: doc["events"][judged_index(doc)]["payload"].update(draw=10 ** 30),
                          ".payload.draw", "outside SQLite's range"),
    "unnamed-html-photo": (unnamed_html_photo, "photos[2]", "named by no event"),
    "unnamed-blob-reading": (unnamed_blob, "readings[1]", "named by no event"),
    "photo-said-to-be-html": (set_path("photos[0].mime", "text/html"), "photos[0].mime", "'text/html'"),
}


@pytest.mark.parametrize("reader", ["verify", "import"])
@pytest.mark.parametrize("name", list(EDITS))
def test_a_hostile_record_is_bad_input_naming_the_field(exported, tmp_path, capsys, reader, name):
    change, path, words = EDITS[name]
    record = edited(exported, tmp_path, change)
    run(reader, record, tmp_path, capsys, path, words)


TEXT_EDITS = {
    "duplicate-outcome": ('"outcome":"penalty"', '"outcome":"legal","outcome":"penalty"', ".payload.outcome"),
    "duplicate-players": ('"players":["Ann","Ben"]', '"players":["Eve","Fay"],"players":["Ann","Ben"]',
                          "players"),
    "nan-literal": ('"elapsed_ms":12.5', '"elapsed_ms":NaN', "readings[0].elapsed_ms"),
    "exponent-overflow": ('"elapsed_ms":12.5', '"elapsed_ms":1e999', "readings[0].elapsed_ms"),
    "integer-5000-digits": ('"seq":1,', '"seq":' + "9" * 5000 + ",", "events[0].seq"),
}


@pytest.mark.parametrize("reader", ["verify", "import"])
@pytest.mark.parametrize("name", list(TEXT_EDITS))
def test_a_record_text_the_json_parser_would_take_is_refused(exported, tmp_path, capsys, reader, name):
    old, new, path = TEXT_EDITS[name]
    run(reader, text_edited(exported, tmp_path, old, new), tmp_path, capsys, path)


def run(reader: str, record: Path, tmp_path: Path, capsys, path: str, words: str = "") -> None:
    db = tmp_path / "club.sqlite"
    capsys.readouterr()
    argv = ["verify", "--record", str(record)] if reader == "verify" else ["import", str(record), "--db", str(db)]
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert str(record) in err and path in err and words in err, err
    assert not db.exists()  # import: refused before the database is opened


def test_the_honest_record_verifies_and_imports(exported, tmp_path, capsys):
    assert main(["verify", "--record", str(exported)]) == 0
    assert main(["import", str(exported), "--db", str(tmp_path / "club.sqlite")]) == 0


def test_a_signed_game_whose_photo_is_a_page_is_refused(tmp_path, capsys):
    """A forger's game, consistently hashed and signed, whose event names a 'photo' that is a script."""
    page = Photo(sha256_bytes(SCRIPT), "text/html", 1, 1, SCRIPT)
    signed_game(tmp_path / "forged.sqlite", page)
    record = export(tmp_path / "forged.sqlite", tmp_path / "forged.json")
    for reader in ("verify", "import"):
        run(reader, record, tmp_path, capsys, "photos[", "is not an image")
    as_jpeg = tmp_path / "as-jpeg.json"
    as_jpeg.write_text(record.read_text().replace('"mime":"text/html"', '"mime":"image/jpeg"'))
    run("verify", as_jpeg, tmp_path, capsys, "photos[", "is not an image")


def test_a_record_over_the_size_limit_is_refused_unread(tmp_path, capsys):
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as stream:
        stream.truncate(200 * 2 ** 20)  # sparse: 200 MB of size, no blocks on the disk
    tracemalloc.start()
    try:
        with pytest.raises(RecordFormatError, match=f"at most {MAX_RECORD_BYTES // 2 ** 20} MB"):
            load_record(huge)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 ** 20, f"{peak} bytes allocated to refuse it: the file was read"
    for reader in ("verify", "import"):
        run(reader, huge, tmp_path, capsys, "huge.json", "at most")
