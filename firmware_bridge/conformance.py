"""A conformance run against any timer box (real or emulated): `tileref timer check`.

Each step exercises one promise of PROTOCOL.md through the real driver and records
ok/detail; a failing step does not stop the run (only a failed handshake does).
Button presses need a hand on the box, so they are not part of the automatic run;
latency is the command round trip (STATE -> ACK) measured over `samples` queries.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Callable

from .driver import CommandRefused, PortUnavailable, TimerDriver, TimerUnavailable
from .events import DeviceError, Disconnected, EventsLost, Expired, LinkNoise, LowTime, Tick, TimerEvent
from .protocol import BridgeError, Mode, Phase


class CheckFailed(BridgeError):
    """One conformance step saw something other than what the protocol promises."""


@dataclass(frozen=True)
class StepResult:
    name: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class CheckReport:
    ok: bool
    steps: tuple[StepResult, ...]
    latency_ms: dict[str, float]

    def to_json(self) -> dict:
        return {"ok": self.ok, "steps": [asdict(s) for s in self.steps], "latency_ms": self.latency_ms}


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, -(-int(fraction * 1000) * len(ordered) // 1000))
    return ordered[min(rank, len(ordered)) - 1]


class _Session:
    def __init__(self, driver: TimerDriver):
        self.driver = driver
        self.seen: list[TimerEvent] = []

    def wait_for(self, kind: type, timeout: float, accept: Callable[[TimerEvent], bool] = lambda e: True) -> TimerEvent:
        deadline = time.monotonic() + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            event = self.driver.next_event(remaining)
            if event is None:
                break
            self.seen.append(event)
            if isinstance(event, Disconnected) and kind is not Disconnected:
                raise CheckFailed(f"the box disconnected while waiting for {kind.__name__}: {event.reason}")
            if isinstance(event, kind) and accept(event):
                return event
        raise CheckFailed(f"no {kind.__name__} within {timeout:.1f} s")


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def _what_answered(driver: TimerDriver) -> str:
    """What a port that failed the handshake sent instead of a box's frames (from the driver's events)."""
    noise = []
    while (event := driver.next_event(timeout=0)) is not None:
        if isinstance(event, LinkNoise):
            noise.append(event.detail)
    if any("command frame" in detail for detail in noise):
        return "the port echoes what is sent (a loopback or a terminal, not a box)"
    if noise:
        return f"the port sends garbage, not frames ({len(noise)} bad line(s))"
    return "the port is silent (nothing came back)"


def run_check(port: str, *, seconds: int = 2, samples: int = 50, driver_options: dict | None = None) -> CheckReport:
    steps: list[StepResult] = []
    latencies: list[float] = []
    driver = TimerDriver(port, **(driver_options or {}))
    try:
        state = driver.open()
    except PortUnavailable:
        raise  # a wrong --port is bad input, not a failed box
    except BridgeError as error:
        # no box on the port at all is bad input too (exit 2), with what came back instead
        raise TimerUnavailable(f"no timer box on {port!r}: {_what_answered(driver)}; "
                               f"no answer to HELLO within {driver.open_timeout:g} s") from None
    steps.append(StepResult("handshake", True, f"protocol 1 session open; box phase {state.phase.value}"))
    session = _Session(driver)

    def identify() -> str:
        who = driver.identify()
        return f"{who.model} firmware {who.firmware} serial {who.serial}, buttons {','.join(who.buttons)}"

    def configure() -> str:
        got = driver.configure(Mode.TURN, seconds)
        _expect(got.mode is Mode.TURN and got.phase is Phase.READY, f"after CONF the box says {got}")
        _expect(got.ms_left == seconds * 1000, f"after CONF {seconds} s the box has {got.ms_left} ms")
        return f"TURN {seconds} s, READY"

    def refuse_bad_seat() -> str:
        try:
            driver.start(9)
        except CommandRefused as refusal:
            _expect(refusal.reason == "bad-seat", f"refused with {refusal.reason!r}, expected 'bad-seat'")
            return "START 9 refused: bad-seat"
        raise CheckFailed("START 9 was accepted")

    def start_and_tick() -> str:
        got = driver.start(1)
        _expect(got.phase is Phase.RUNNING and got.seat == 1, f"after START 1 the box says {got}")
        tick = session.wait_for(Tick, 1.5, lambda e: e.seat == 1)
        return f"running for seat 1, first tick {tick.seconds_left} s"

    def pause() -> str:
        got = driver.pause()
        _expect(got.phase is Phase.PAUSED, f"after PAUSE the box says {got.phase.value}")
        time.sleep(0.3)
        later = driver.state()
        _expect(later.ms_left == got.ms_left, f"paused clock moved from {got.ms_left} to {later.ms_left} ms")
        return f"held at {got.ms_left} ms for 0.3 s"

    def resume() -> str:
        got = driver.resume()
        _expect(got.phase is Phase.RUNNING, f"after RESUME the box says {got.phase.value}")
        return f"running again from {got.ms_left} ms"

    def warn_beep_show() -> str:
        got = driver.warn_at(1)
        _expect(got.warn_at == 1, f"warn-at reads back as {got.warn_at}")
        driver.beep(50)
        driver.show("CHECK")
        return "WARN 1, BEEP 50, SHOW 'CHECK' acknowledged"

    def expiry() -> str:
        session.wait_for(Expired, seconds * 1.5 + 2, lambda e: e.seat == 1)
        low = [e for e in session.seen if isinstance(e, LowTime)]
        _expect(bool(low), "expired without a LowTime warning at 1 s")
        got = driver.state()
        _expect(got.phase is Phase.EXPIRED and got.ms_left == 0, f"after expiry the box says {got}")
        return f"LowTime at {low[-1].seconds_left} s, then Expired(1); state EXP"

    def garbled_line() -> str:
        driver.write_raw(b">999 STATE *0000\n")
        error = session.wait_for(DeviceError, 1.0)
        _expect(error.code == "checksum", f"box reported {error.code!r}, expected 'checksum'")
        return "bad checksum answered with ERR checksum"

    def duel() -> str:
        driver.stop()
        got = driver.configure(Mode.DUEL, 30)
        _expect(len(got.banks) == 2 and got.banks[0] == 30_000, f"DUEL banks are {got.banks}")
        driver.start(2)
        time.sleep(0.2)
        got = driver.pause()
        _expect(got.banks[0] == 30_000 and got.banks[1] < 30_000, f"after 0.2 s of seat 2 the banks are {got.banks}")
        return f"banks {got.banks[0]} / {got.banks[1]} ms"

    def stop() -> str:
        got = driver.stop()
        _expect(got.phase is Phase.READY, f"after STOP the box says {got.phase.value}")
        return "READY"

    def latency() -> str:
        for _ in range(samples):
            start = time.perf_counter()
            driver.state()
            latencies.append((time.perf_counter() - start) * 1000)
        return f"{samples} STATE round trips"

    def link_stable() -> str:
        trouble = [e for e in session.seen if isinstance(e, (Disconnected, EventsLost, LinkNoise))]
        _expect(not trouble and driver.connected, f"link trouble: {trouble[:3]}")
        return "no disconnect, lost frame or noise during the run"

    for name, step in (
        ("identify", identify),
        ("configure", configure),
        ("refuse-bad-seat", refuse_bad_seat),
        ("start-and-tick", start_and_tick),
        ("pause", pause),
        ("resume", resume),
        ("warn-beep-show", warn_beep_show),
        ("expiry", expiry),
        ("garbled-line", garbled_line),
        ("duel", duel),
        ("stop", stop),
        ("latency", latency),
        ("link-stable", link_stable),
    ):
        if not driver.connected:
            steps.append(StepResult(name, False, "not run: the link to the box is down"))
            continue
        try:
            steps.append(StepResult(name, True, step()))
        except BridgeError as error:
            steps.append(StepResult(name, False, str(error)))
    driver.close()
    figures = {"p50": round(percentile(latencies, 0.5), 3), "p99": round(percentile(latencies, 0.99), 3)}
    return CheckReport(all(s.ok for s in steps), tuple(steps), figures)
