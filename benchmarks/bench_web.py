"""Verdict recorded -> table display updated, on loopback: p95 <= 200 ms.

    python -m benchmarks.bench_web [--rounds 10] [--clients 2]

The bundled demo game is played once (`tileref demo`, in a temporary folder) for its events, photos
and readings. Each round then records that game again, event by event, into a fresh records file
(hash-chained and signed, with its photos and readings, as the runner does) while the web display
of `tileref play --web` runs: the same LiveTable and WebDisplay, uvicorn in a thread on 127.0.0.1,
and `--clients` WebSocket clients connected to /ws/table (the table display and the referee page).
A sample is one verdict: from just before `Records.append` of the turn-judged event to the moment
every client has received the message that carries the new verdict (the runner's observer, the
display's verdict, rendering the regions, the event loop, the socket, the client's parsing).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.harness import median, options, percentile
from controller.game.events import GameCreated, TurnJudged
from controller.game.machine import GameModel, apply
from controller.records import Records
from controller.records.chain import head_digest
from controller.web.app import create_app
from controller.web.live import LiveTable, WebDisplay
from controller.web.server import WebServer, parse_address

TARGET_P95_MS = 200.0


def recorded_demo(folder: Path) -> Path:
    env = {**os.environ, "TILEREF_KEY_DIR": str(folder / "keys")}
    subprocess.run([sys.executable, "-m", "controller.cli", "demo", "--quiet", "--out", str(folder / "demo")],
                   check=True, env=env, stdout=subprocess.DEVNULL, cwd=Path(__file__).resolve().parents[1])
    return folder / "demo" / "demo.sqlite"


def evidence(source: Records, event):
    data = event.payload()
    photos, readings = [], []
    if data.get("photo"):
        photos.append(source.photo(data["photo"]))
    if data.get("reading"):
        reading = source.reading(data["reading"])
        for sha in reading.reading.get("fused_from", ()):
            part = source.reading(sha)
            readings.append(part)
            if part.photo:
                photos.append(source.photo(part.photo))
        readings.append(reading)
        if reading.photo:
            photos.append(source.photo(reading.photo))
    return tuple(p for p in photos if p is not None), tuple(readings)


class Client:
    """A WebSocket client of the table display: notes when a message with a verdict arrives."""

    def __init__(self, url: str) -> None:
        import warnings

        from websockets.sync.client import connect

        with warnings.catch_warnings():  # newer websockets prefer `with connect(...)`; this one lives on
            warnings.simplefilter("ignore", DeprecationWarning)
            self.socket = connect(url.replace("http://", "ws://") + "/ws/table")
            self.socket.recv()  # the first message: every region as it is
        self.verdicts: dict[int, float] = {}
        self.arrived = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        try:
            for text in self.socket:
                now = time.perf_counter()
                message = json.loads(text)
                if "verdict" in message["regions"]:
                    with self.arrived:
                        self.verdicts[message["seq"]] = now
                        self.arrived.notify_all()
        except Exception:  # closed at the end
            pass

    def wait_after(self, seq: int, timeout: float = 10.0) -> float:
        with self.arrived:
            if not self.arrived.wait_for(lambda: any(s > seq for s in self.verdicts), timeout):
                raise RuntimeError("no verdict reached the client")
            return min(t for s, t in self.verdicts.items() if s > seq)

    def close(self) -> None:
        self.socket.close()


def one_round(source_db: Path, folder: Path, n: int, clients: int) -> list[float]:
    db = folder / f"round-{n}.sqlite"
    samples: list[float] = []
    with Records(source_db, create=False, read_only=True) as source, Records(db) as records:
        game = source.latest_game()
        events = source.events(game)
        live = LiveTable("table", db)
        display = WebDisplay(live)
        server = WebServer(create_app(db, live), parse_address("127.0.0.1:0")).start()
        watchers = [Client(server.url) for _ in range(clients)]
        try:
            first = events[0]
            assert isinstance(first, GameCreated)
            game_id = records.start_game(first)
            model = apply(GameModel(), first)
            live.update(("status",), game=game_id)
            for event in events[1:]:
                photos, readings = evidence(source, event)
                seq = live.seq
                started = time.perf_counter()
                after = apply(model, event)
                records.append(game_id, event, photos=photos, readings=readings, state=after.state)
                model = after
                display.observe(model, event)
                if isinstance(event, TurnJudged):
                    display.verdict(event, head_digest(records.head(game_id)[1]))
                    arrived = max(w.wait_after(seq) for w in watchers)
                    samples.append((arrived - started) * 1000)
        finally:
            for watcher in watchers:
                watcher.close()
            server.stop()
    return samples


def main() -> int:
    parser = options(__doc__)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--clients", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        folder = Path(tmp)
        os.environ["TILEREF_KEY_DIR"] = str(folder / "keys")
        print("recording the demo game once (tileref demo) ...", flush=True)
        source = recorded_demo(folder)
        samples: list[float] = []
        for n in range(args.rounds):
            samples += one_round(source, folder, n, args.clients)
    samples.sort()
    p95 = percentile(samples, 0.95)
    print(f"verdict recorded -> display updated ({args.clients} WebSocket clients, loopback), {len(samples)} verdicts: "
          f"median {median(samples):.1f} ms, p95 {p95:.1f} ms, worst {samples[-1]:.1f} ms "
          f"(target p95 <= {TARGET_P95_MS:.0f} ms: {'met' if p95 <= TARGET_P95_MS else 'NOT met'})")
    return 0 if p95 <= TARGET_P95_MS else 1


if __name__ == "__main__":
    sys.exit(main())
