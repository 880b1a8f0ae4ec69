"""A recorded `tileref clock` game as the audit shows it: each fact readably, with its place in the
hash chain. Read from a records store (the caller verifies the game first and passes the report);
the same data feeds `tileref audit` (text, `--json`, `--out` HTML) and the web pages.

A clock game has no turns, photos or verdicts: its record is `GameCreated` (variant `clock-GAME`,
the rules as recorded) followed by `ClockRecorded` facts (docs/clock.md).
"""
from __future__ import annotations

from typing import Any

from controller.game.events import ClockRecorded, GameCreated
from controller.messages import named
from controller.records.reports.templating import render

CLOCK_VARIANT_PREFIX = "clock-"


def is_clock_game(records, game_id: int) -> bool:
    """The game was recorded by `tileref clock` (its first event names a `clock-` variant)."""
    recorded = records.recorded(game_id)
    first = recorded[0].event if recorded else None
    return isinstance(first, GameCreated) and first.variant.startswith(CLOCK_VARIANT_PREFIX)


def clock_time(ms: int) -> str:
    """m:ss, as a game clock shows it (whole seconds, rounded down: never more than the box had)."""
    return f"{ms // 60000}:{ms // 1000 % 60:02d}"


def fact_line(fact: dict[str, Any]) -> str:
    times = ", ".join(f"{t['name']} {t['shown']}" for t in fact["times"])
    return " ".join(part for part in (f"#{fact['seq']}", named("clockfact", fact["what"]), fact["player"] or "",
                                      f"({times})" if times else "", fact["detail"]) if part)


def clock_game_data(records, game_id: int, chain: dict[str, Any]) -> dict[str, Any]:
    """The game as data: rules, players, every fact in record order, the result (None: not over).
    `chain`: the verification as the other pages give it (controller.records.reports.turn_data.chain_data)."""
    recorded = records.recorded(game_id)
    created = recorded[0].event
    # As `tileref clock` records them: the ClockRules fields (`game` is shogi/othello/mahjong), then
    # the event and the drawn game's id (a second `game` pair).
    pairs = [list(pair) for pair in created.ruleset]
    event_name = next((v for k, v in reversed(pairs) if k == "event"), None)
    games = [i for i, (k, _) in enumerate(pairs) if k == "game"]
    drawn = pairs[games[-1]][1] if len(games) > 1 else None
    rules = [pair for i, pair in enumerate(pairs) if pair[0] != "event" and not (drawn and i == games[-1])]
    facts = []
    for item in recorded[1:]:
        event = item.event
        if not isinstance(event, ClockRecorded):
            facts.append({"seq": item.seq, "what": event.kind.value, "player": None, "times": [], "detail": "",
                          "at": item.recorded_at, "hash": item.hash[:16]})
            continue
        facts.append({
            "seq": item.seq, "what": event.what, "player": event.player,
            "times": [{"name": name, "ms": ms, "shown": clock_time(ms)} for name, ms in event.ms_left],
            "detail": event.detail, "at": item.recorded_at, "hash": item.hash[:16],
        })
    for fact in facts:
        fact["line"] = fact_line(fact)
    result = next((f["detail"] for f in reversed(facts) if f["what"] == "result"), None)
    return {
        "game": game_id, "kind": "clock", "variant": created.variant,
        "clock_game": created.variant[len(CLOCK_VARIANT_PREFIX):], "players": list(created.players),
        "event": event_name, "drawn_game": drawn or None, "rules": rules,
        "signed_by": created.key_id or None, "chain": chain, "facts": facts, "result": result,
    }


def clock_game_lines(data: dict[str, Any]) -> list[str]:
    """`tileref audit` on a clock game, as text: the verification, the game, then one fact a line."""
    rules = "; ".join(f"{k} {v}" for k, v in data["rules"] if v not in (None, "", []))
    lines = [f"game {data['game']}: {data['variant']}, hash chain {data['chain']['summary']}",
             f"players {', '.join(data['players'])}"
             + (f"; event {data['event']}, game {data['drawn_game']}" if data["event"] else "; no event"),
             f"rules: {rules}"]
    lines += [f"  {fact['line']}" for fact in data["facts"]]
    lines.append(f"result: {data['result']}" if data["result"] else "result: none yet (the game is not over)")
    return lines


def clock_game_html(data: dict[str, Any], language: str = "en") -> str:
    """The same as a self-contained page (`tileref audit --out`; records/reports/templates/clock_audit_page.html),
    its headings in `language` (the lines as the console says them)."""
    lines = clock_game_lines(data)
    return render("clock_audit_page.html", language, data=data, head=lines[:3], result=lines[-1])
