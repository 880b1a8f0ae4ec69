"""What the `tileref tournament` commands print with `--json`: one JSON object each, built from the
event's values (pure). Scores of 0.1 stay exact (`render.dumps` writes Decimals with one decimal)."""
from __future__ import annotations

import json

from .model import Change, Event, Result, Round
from .render import dumps
from .storage import result_to_json


def result_data(result: Result | None) -> dict | None:
    if result is None:
        return None
    data = json.loads(result_to_json(result))
    return {"game": result.game, **data}


def change_data(change: Change) -> dict:
    return {
        "kind": change.kind.value, "reason": change.reason, "game": change.game or None,
        "player": change.player or None, "substitute": change.substitute or None,
        "result": result_data(change.result), "replaces": change.replaces or None,
        "rounds_drawn": change.rounds_drawn, "by": change.by, "at": change.at, "summary": change.summary(),
    }


def round_data(event: Event, round_: Round, with_draw: bool = True) -> dict:
    tables = []
    for table in round_.tables:
        out = [d.reason for d in event.disqualifications if (d.round, d.table) == (round_.number, table.number)]
        games = []
        for number in range(1, table.games + 1):
            game = f"R{round_.number}-T{table.number}-G{number}"
            games.append({"game": game, "result": result_data(event.results.get(game)),
                          "substitutes": event.substitutes(game)})
        tables.append({"number": table.number, "bracket": table.bracket or None, "seats": list(table.seats),
                       "games": games, "disqualified": out[0] if out else None})
    data: dict = {"number": round_.number, "name": round_.name, "seed": round_.seed, "tables": tables}
    if with_draw:
        data["draw"] = [{"player": d.player, "drew": d.drew, "decides": d.decides} for d in round_.draw]
    return data


def event_data(event: Event, finished: bool, rounds: list[Round], with_draw: bool) -> dict:
    gone = event.withdrawn()
    return {
        "event": event.name, "format": event.format, "players": list(event.players),
        "withdrawn": {p: c.reason for p, c in gone.items()},
        "rounds_drawn": len(event.rounds), "finished": finished,
        "rounds": [round_data(event, r, with_draw) for r in rounds],
    }


def print_json(data: object) -> None:
    print(dumps(data))
