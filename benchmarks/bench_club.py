"""Club scale: 16 tables of 4 players each play a game at once into one PostgreSQL database.

    python -m benchmarks.bench_club [--tables 16] [--no-kill] [--pace-ms 0]

The game every table plays is the demo game (`tileref demo`, run first into a temporary folder:
53 events with their real photos and readings), each table with its own photos (the demo's JPEG
bytes plus the table's number, so every photo and reading hash differs) and its own key-signed
chain. Each table is a thread with its own connection and its own spool file
(`SpooledRecords`), appending as fast as it can. Mid-run (when about 40% of all events are
written) the server is killed with SIGKILL and restarted 2 s later: the tables keep playing into
their spools and deliver when it is back.

Printed: events per second (all tables, wall clock), write latency p50/p99 (every append as the
table saw it: to the server, or to the spool while the server was away; and the server-only
figures), how many events went through the spools, and the checks: every game holds exactly its
53 events (0 lost, none twice) and every chain verifies.
"""
from __future__ import annotations

import base64
import json
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.harness import median, options, percentile
from controller.cli import main as tileref
from controller.game.events import canonical_json, event_from_payload
from controller.records import Photo, Reading, Records, reading_sha, sha256_bytes
from tests.pg_local import LocalPostgres
from controller.records.record_file import export_record
from controller.records.spool import SpooledRecords


def demo_document(work: Path) -> dict:
    out = work / "demo"
    code = tileref(["demo", "--out", str(out), "--quiet"])
    if code != 0:
        raise SystemExit(f"tileref demo failed ({code})")
    with Records(out / "demo.sqlite", create=False, read_only=True) as records:
        return export_record(records, 1)


def table_game(doc: dict, table: int):
    """The demo game's events for one table: photos and readings of its own (new hashes everywhere)."""
    mapping: dict[str, str] = {}
    photos: dict[str, Photo] = {}
    for p in doc["photos"]:
        data = base64.b64decode(p["data"]) + b"table %d" % table
        sha = sha256_bytes(data)
        mapping[p["sha256"]] = sha
        photos[sha] = Photo(sha, p["mime"], p["width"], p["height"], data)
    raw_readings = {r["sha256"]: r for r in doc["readings"]}
    readings: dict[str, Reading] = {}

    def remap(text: str) -> str:
        for old, new in mapping.items():
            text = text.replace(old, new)
        return text

    def reading(old: str) -> str:
        if old in mapping:
            return mapping[old]
        r = raw_readings[old]
        for source in (r["reading"].get("fused_from", ()) if isinstance(r["reading"], dict) else ()):
            reading(source)
        body = json.loads(remap(canonical_json(r["reading"])))
        if isinstance(body, dict):
            body["bench_table"] = table  # readings are stored under their hash: each table's are its own
        sha = reading_sha(body)
        mapping[old] = sha
        readings[sha] = Reading(sha, mapping.get(r["photo"], r["photo"]) if r["photo"] else None, body,
                                r["elapsed_ms"])
        return sha

    for old in raw_readings:
        reading(old)
    sent: set[str] = set()
    steps = []
    for entry in doc["events"]:
        payload = json.loads(remap(canonical_json(entry["payload"])))
        if entry["kind"] == "game-created":
            payload.pop("table_key", None)
            payload.pop("key_id", None)
        event = event_from_payload(entry["kind"], payload)
        names = [payload.get("photo"), payload.get("reading")]
        with_photos, with_readings = [], []
        stack = [n for n in names if n]
        while stack:
            sha = stack.pop()
            if sha in sent:
                continue
            sent.add(sha)
            if sha in photos:
                with_photos.append(photos[sha])
            elif sha in readings:
                r = readings[sha]
                with_readings.append(r)
                stack.extend([r.photo] if r.photo else [])
                stack.extend(r.reading.get("fused_from", ()) if isinstance(r.reading, dict) else ())
        steps.append((event, with_photos, with_readings))
    return steps


def run(tables: int, kill: bool, pace_ms: float) -> int:
    work = Path(tempfile.mkdtemp(prefix="bench-club-"))
    print(f"making the demo game (tileref demo) in {work} ...", flush=True)
    doc = demo_document(work)
    games = [table_game(doc, n) for n in range(tables)]
    per_game = len(games[0])
    total = per_game * tables
    server = LocalPostgres().start()
    try:
        with Records(server.url):  # the schema, once, before the tables start
            pass
        latencies: list[tuple[float, bool]] = []  # (seconds, went to the spool)
        lock = threading.Lock()
        written = [0]
        kill_at = int(total * 0.4) if kill else None
        killed = threading.Event()
        errors: list[str] = []
        ids: dict[int, int] = {}
        stats: dict[int, tuple[int, int, int]] = {}

        def table(n: int) -> None:
            try:
                records = SpooledRecords(server.url, spool=work / f"spool-{n}.sqlite", retry_s=0.25)
                steps = games[n]
                first, _, _ = steps[0]
                t0 = time.perf_counter()
                game = records.start_game(first, table_name=f"table {n + 1}")
                mine = [(time.perf_counter() - t0, False)]
                ids[n] = game
                for event, photos, readings in steps[1:]:
                    t0 = time.perf_counter()
                    records.append(game, event, photos=photos, readings=readings)
                    mine.append((time.perf_counter() - t0, records.offline))
                    with lock:
                        written[0] += 1
                    if pace_ms:
                        time.sleep(pace_ms / 1000)
                while records.pending():  # the game is over: deliver what waits
                    records._reconnect_and_flush(force=True)
                    if records.pending():
                        time.sleep(0.2)
                stats[n] = (records.spooled_total, records.delivered_total, records.skipped_total)
                records.close()
                with lock:
                    latencies.extend(mine)
            except Exception as error:  # noqa: BLE001 - reported at the end
                errors.append(f"table {n + 1}: {type(error).__name__}: {error}")

        def killer() -> None:
            while written[0] < kill_at and not all_done.is_set():
                time.sleep(0.005)
            if all_done.is_set():
                return
            print(f"killing the server (SIGKILL) after {written[0]} events ...", flush=True)
            server.kill()
            killed.set()
            time.sleep(2.0)
            server.start()
            print(f"server restarted; {written[0]} events written by then", flush=True)

        all_done = threading.Event()
        threads = [threading.Thread(target=table, args=(n,)) for n in range(tables)]
        watcher = threading.Thread(target=killer) if kill else None
        started = time.perf_counter()
        if watcher:
            watcher.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
        all_done.set()
        if watcher:
            watcher.join()
        if errors:
            print("\n".join(errors))
            return 1
        lost = 0
        broken = 0
        with Records(server.url, create=False, read_only=True) as records:
            stored = records.db.execute("SELECT count(*) FROM events").fetchone()[0]
            for n, game in ids.items():
                report = records.verify(game)
                lost += per_game - report.events
                broken += not report.ok
                if not report.ok and broken <= 2:
                    print(f"  table {n + 1}: {report.problem}")
        all_s = [s for s, _ in latencies]
        online = [s for s, spooled in latencies if not spooled]
        spooled = sum(s[0] for s in stats.values())
        delivered = sum(s[1] for s in stats.values())
        skipped = sum(s[2] for s in stats.values())
        print(f"{tables} tables x 4 players, one game each ({per_game} events, photos and readings) into one "
              f"PostgreSQL database{' (killed and restarted mid-run)' if kill else ''}")
        print(f"  events: {total} in {elapsed:.2f} s = {total / elapsed:.0f} events/s")
        print(f"  write latency, every append: p50 {median(all_s) * 1000:.1f} ms, "
              f"p99 {percentile(all_s, 0.99) * 1000:.1f} ms, max {max(all_s) * 1000:.1f} ms")
        print(f"  write latency, appends to the server: p50 {median(online) * 1000:.1f} ms, "
              f"p99 {percentile(online, 0.99) * 1000:.1f} ms")
        print(f"  spooled while the server was away: {spooled} events; delivered {delivered}, "
              f"skipped as already there {skipped}")
        print(f"  stored events {stored} (expected {total}); lost {lost}; chains that do not verify: {broken}")
        return 0 if lost == 0 and broken == 0 and stored == total else 1
    finally:
        server.cleanup()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    parser = options(__doc__)
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--no-kill", action="store_true", help="do not kill the server mid-run")
    parser.add_argument("--pace-ms", type=float, default=0.0, help="pause between a table's events")
    args = parser.parse_args()
    sys.exit(run(args.tables, not args.no_kill, args.pace_ms))
