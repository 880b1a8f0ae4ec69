"""An event for the printing tests: kuwana with Japanese and Polish names, in a real SQLite file."""
from __future__ import annotations

import os
from pathlib import Path

from controller.tournament import TournamentStore, create_event
from controller.tournament.model import RummikubGameResult, game_id

PLAYERS = ["佐藤 太郎", "Łukasz Żółć", "山田 花子", "Ann <b>&amp;", "Ben", "Grzegorz Brzęczyszczykiewicz",
           "鈴木 一郎", "Dora"]
LIVE_URL = "http://club.local:8000/table/{table}"


def play_round(store: TournamentStore, name: str) -> None:
    """Every game of the last round: seat 1 wins with 100, the others lose a little."""
    event = store.load(name)
    round_ = event.rounds[-1]
    results = []
    for table in round_.tables:
        for number in range(1, table.games + 1):
            winner = table.seats[0]
            scores = {p: -7 * i * number for i, p in enumerate(table.seats[1:], start=1)}
            scores[winner] = 100
            results.append(RummikubGameResult(game_id(round_.number, table.number, number), scores, winner))
    store.add_results(name, results, source="hand")


def kuwana_event(db: Path, name: str = "Kuwana Open", *, finished: bool) -> None:
    with TournamentStore(db) as store:
        store.create(create_event(name, "kuwana", PLAYERS))
        store.draw_next(name, seed=45)
        if finished:
            play_round(store, name)
            store.draw_next(name, seed=46)
            play_round(store, name)


def artifacts_dir(tmp_path_factory, what: str) -> Path:
    """Where a test run keeps what it printed: $TILEREF_TEST_ARTIFACTS if set, else a temp folder."""
    root = os.environ.get("TILEREF_TEST_ARTIFACTS")
    if not root:
        return tmp_path_factory.mktemp(what)
    folder = Path(root) / f"{what}-{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
