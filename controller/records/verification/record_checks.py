"""What an open game record must be before anything of it is verified or stored (exit 2 if not).

* `read_record_text`: the file is at most MAX_RECORD_BYTES (its size is looked at before a byte
  is read, so a huge file costs no memory) and UTF-8.
* `parse_strict`: JSON with one value per key, finite numbers, integers SQLite holds
  (strict_json.py), each field of the right type: numbers where numbers
  belong, text where text belongs; the error names the field as a JSON path (`events[10].seq`).
* `check_evidence`: every photo and reading is one the events rest on (below), and every photo
  is an image of the type it says, by its bytes (controller/records/photo_types.py).

A photo or reading is one the events rest on when an event names it, when it is the photo a
reading the events rest on was read from, a reading that such a reading was fused from, or a
reading of a photo the events rest on (the frames fused into one reading are each kept). Anything
else (a blob, a page, a script) has no place in a record and the record is refused.
"""
from __future__ import annotations

import base64
import binascii
import json
import os
from pathlib import Path
from typing import Any

from . import strict_json
from ..errors import RecordFormatError
from ..photo_types import HEAD_BYTES, IMAGE_MIMES, image_type

# A long game's record (a hundred turns, three or four photos each) is some 50 MB; the limit leaves
# room for it and keeps reading a record well under 300 MB of memory (benchmarks/bench_record_size.py).
MAX_RECORD_BYTES = 96 * 2 ** 20


# A photo's side as a record may state it: JPEG's largest (65535), far beyond any table camera.
MAX_PHOTO_SIDE = 65535


class _Type:
    def __init__(self, name: str, *kinds: type, optional: bool = False, minimum: int | None = None,
                 maximum: int | None = None) -> None:
        self.name, self.kinds, self.optional, self.minimum, self.maximum = name, kinds, optional, minimum, maximum

    def problem(self, value: Any) -> str | None:
        if value is None:
            return None if self.optional else f"is null, not {self.name}"
        if isinstance(value, bool) and bool not in self.kinds or not isinstance(value, self.kinds):
            return f"is {_shown(value)}, not {self.name}"
        if self.minimum is not None and value < self.minimum:
            return f"is {value}, less than {self.minimum}"
        if self.maximum is not None and value > self.maximum:
            return f"is {value}, more than {self.maximum}"
        return None


TEXT = _Type("text", str)
OPTIONAL_TEXT = _Type("text or null", str, optional=True)
COUNT = _Type("a whole number", int, minimum=0)
POSITIVE = _Type("a whole number", int, minimum=1)
OPTIONAL_INT = _Type("a whole number or null", int, optional=True)
OPTIONAL_NUMBER = _Type("a number or null", int, float, optional=True)
OBJECT = _Type("an object", dict)
OPTIONAL_OBJECT = _Type("an object or null", dict, optional=True)
LIST = _Type("a list", list)
ANY = None

# field -> (type, required); a list of rows: (LIST, required, row fields)
GAME = {"id": (POSITIVE, True), "variant": (TEXT, True), "created_at": (TEXT, True), "state": (OPTIONAL_TEXT, False),
        "table": (OPTIONAL_TEXT, False), "event": (OPTIONAL_TEXT, False), "tournament_game": (OPTIONAL_TEXT, False)}
HEAD = {"events": (COUNT, True), "hash": (TEXT, True), "signature": (OPTIONAL_TEXT, False)}
EVENT = {"seq": (POSITIVE, True), "kind": (TEXT, True), "payload": (OBJECT, True), "prev_hash": (TEXT, True),
         "hash": (TEXT, True), "signature": (OPTIONAL_TEXT, False), "recorded_at": (TEXT, True)}
PHOTO_SIDE = _Type("a whole number", int, minimum=0, maximum=MAX_PHOTO_SIDE)
PHOTO = {"sha256": (TEXT, True), "mime": (TEXT, True), "width": (PHOTO_SIDE, True), "height": (PHOTO_SIDE, True),
         "data": (OPTIONAL_TEXT, True)}
READING = {"sha256": (TEXT, True), "photo": (OPTIONAL_TEXT, False), "reading": (ANY, True),
           "elapsed_ms": (OPTIONAL_NUMBER, False)}
TABLE_KEY = {"public": (TEXT, True), "id": (TEXT, True)}
OBJECTS = {"game": GAME, "head": HEAD, "table_key": TABLE_KEY}
ROWS = {"events": EVENT, "photos": PHOTO, "readings": READING}
TOP = {"format": (TEXT, True), "version": (COUNT, True), "game": (OBJECT, True), "head": (OBJECT, True),
       "events": (LIST, True), "photos": (LIST, True), "readings": (LIST, True), "turns": (LIST, True),
       "players": (LIST, False), "rules": (OBJECT, False), "turn_seconds": (OPTIONAL_INT, False),
       "table_key": (OPTIONAL_OBJECT, False), "result": (OPTIONAL_OBJECT, False)}


def _shown(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return f"{'an object' if isinstance(value, dict) else 'a list'}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def read_record_text(path: str | Path) -> str:
    """The text of a record file, its size checked first (RecordFormatError, exit 2)."""
    name = str(path)
    try:
        size = os.stat(path).st_size
        if size > MAX_RECORD_BYTES:
            raise RecordFormatError(f"game record {name!r} is {size / 2 ** 20:.0f} MB; a record is at most "
                                    f"{MAX_RECORD_BYTES // 2 ** 20} MB (docs/record-format.md)")
        with open(path, "rb") as stream:
            data = stream.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise RecordFormatError(f"cannot read game record {name!r}: {error.strerror}") from None
    if len(data) > MAX_RECORD_BYTES:  # grew since it was looked at
        raise RecordFormatError(f"game record {name!r} is over {MAX_RECORD_BYTES // 2 ** 20} MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordFormatError(f"game record {name!r} is not UTF-8 text") from None


def parse_strict(text: str, source: str) -> Any:
    """The record's JSON value, strictly parsed; RecordFormatError naming the file and field."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordFormatError(f"game record {source!r} is over {MAX_RECORD_BYTES // 2 ** 20} MB")
    try:
        return strict_json.loads(text)
    except strict_json.StrictJsonError as error:
        raise RecordFormatError(f"game record {source!r}: {error}") from None
    except json.JSONDecodeError as error:
        raise RecordFormatError(f"game record {source!r} is not JSON ({error})") from None


def check_document(document: dict, source: str) -> None:
    """`check_fields`, then `check_evidence`: the record is one a reader may verify and store."""
    check_fields(document, source)
    check_evidence(document, source)


def check_fields(document: dict, source: str) -> None:
    """Every field a reader uses of the right type (after format and version were checked)."""
    _check_object(document, TOP, "", source)
    for name, fields in OBJECTS.items():
        if isinstance(document.get(name), dict):
            _check_object(document[name], fields, name, source)
    for name, fields in ROWS.items():
        for index, row in enumerate(document[name]):
            path = strict_json.child_path(name, index)
            if not isinstance(row, dict):
                _refuse(source, path, f"is {_shown(row)}, not an object")
            _check_object(row, fields, path, source)
    for index, player in enumerate(document.get("players") or ()):
        if not isinstance(player, str):
            _refuse(source, f"players[{index}]", f"is {_shown(player)}, not text")


def _check_object(value: dict, fields: dict, path: str, source: str) -> None:
    for name, (kind, required) in fields.items():
        where = strict_json.child_path(path, name)
        if name not in value:
            if required:
                _refuse(source, where, "is missing")
            continue
        problem = kind.problem(value[name]) if kind is not None else None
        if problem:
            _refuse(source, where, problem)


def _refuse(source: str, path: str, problem: str):
    raise RecordFormatError(f"game record {source!r}: {path} {problem}")


def evidence_names(document: dict) -> tuple[set[str], set[str]]:
    """(photos, readings) the events rest on: named by an event, or reached from one (module doc)."""
    readings = {r["sha256"]: r for r in document["readings"]}
    by_photo: dict[str, list[str]] = {}
    for sha, reading in readings.items():
        if isinstance(reading.get("photo"), str):
            by_photo.setdefault(reading["photo"], []).append(sha)
    photos: set[str] = set()
    named: set[str] = set()
    todo: list[tuple[str, str]] = []
    for entry in document["events"]:
        payload = entry["payload"]
        for field, kind in (("photo", "photo"), ("reading", "reading")):
            if isinstance(payload.get(field), str):
                todo.append((kind, payload[field]))
    while todo:
        kind, sha = todo.pop()
        if kind == "photo":
            if sha not in photos:
                photos.add(sha)
                todo.extend(("reading", r) for r in by_photo.get(sha, ()))
            continue
        if sha in named:
            continue
        named.add(sha)
        reading = readings.get(sha)
        if reading is None:
            continue
        if isinstance(reading.get("photo"), str):
            todo.append(("photo", reading["photo"]))
        body = reading["reading"]
        sources = body.get("fused_from") if isinstance(body, dict) else None
        if isinstance(sources, list):
            todo.extend(("reading", s) for s in sources if isinstance(s, str))
    return photos, named


def check_evidence(document: dict, source: str) -> None:
    """Every photo and reading one the events rest on, every photo an image of its stated type."""
    photos, readings = evidence_names(document)
    for index, reading in enumerate(document["readings"]):
        if reading["sha256"] not in readings:
            _refuse(source, f"readings[{index}]", f"(reading {reading['sha256'][:12]!r}) is named by no event: a "
                                                  "record holds only what its events rest on")
    for index, photo in enumerate(document["photos"]):
        sha = photo["sha256"]
        where = f"photos[{index}]"
        if sha not in photos:
            _refuse(source, where, f"(photo {sha[:12]!r}) is named by no event: a record holds only what its "
                                   "events rest on")
        if photo["data"] is None:
            continue  # a record exported without photo bytes: refused where the bytes are needed
        head = photo["data"][:(HEAD_BYTES * 4) // 3 + 4]
        try:
            start = base64.b64decode(head[:len(head) // 4 * 4], validate=True)
        except (binascii.Error, ValueError):
            _refuse(source, f"{where}.data", f"(photo {sha[:12]!r}) is not base64")
        found = image_type(start)
        if found is None:
            _refuse(source, where, f"(photo {sha[:12]!r}) is not an image: its bytes start {start[:8]!r}, not as "
                                   f"one of {', '.join(IMAGE_MIMES)}")
        if photo["mime"] != found:
            _refuse(source, f"{where}.mime", f"(photo {sha[:12]!r}) says {photo['mime'][:40]!r}, its bytes are "
                                             f"{found}")
