"""The events on the club board: each running event's standings as the results come in, and the
tables of its latest round as soon as that round is drawn.

An event is on the board while it runs (not every result of its last round is in), and for
FINISHED_SHOWN_H hours after its last round was drawn, with its final standings. Read from the
club database the tables record into (the tournament's tables, `controller.tournament.storage`),
each time the board asks: a result entered with `tileref tournament result`, imported, or played
at a table (`tileref play --event`) shows on the next poll.
"""
from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

from controller.messages import DEFAULT_LANGUAGE, Catalogue, catalogue
from controller.records.errors import RecordsError
from controller.tournament import TournamentError, TournamentStore, is_finished, standings
from controller.tournament.formats import get_format
from controller.tournament.model import Event, game_id
from controller.tournament.printing.pages import game_name
from controller.tournament.render import cell_text

FINISHED_SHOWN_H = 12


def _results_in(event: Event, number: int) -> tuple[int, int]:
    games = event.round(number).game_ids()
    return sum(game in event.results for game in games), len(games)


def event_view(event: Event, words: Catalogue | None = None) -> dict:
    """What the board shows of one event, as plain JSON data (names as text, never markup), in the
    words of `words` (default: the English catalogue)."""
    words = words or catalogue(DEFAULT_LANGUAGE)
    table = standings(event)
    finished = is_finished(event)
    view: dict = {"name": event.name, "format": event.format, "game": game_name(event), "finished": finished,
                  "round": None}
    if event.rounds:
        round_ = event.rounds[-1]
        done, total = _results_in(event, round_.number)
        view["round"] = {
            # the round's name is the format's own ("first round", "final"), shown as it is given
            "number": round_.number, "name": round_.name,
            "stage": words.text("club.stage", number=round_.number, name=round_.name,
                                rounds=get_format(event.format).round_count(event)),
            "results": words.text("club.in", done=done, count=total),
            "tables": [
                {"number": t.number, "bracket": t.bracket, "seats": list(t.seats),
                 "disqualified": event.is_disqualified_table(round_.number, t.number),
                 "results": sum(game_id(round_.number, t.number, g) in event.results for g in range(1, t.games + 1)),
                 "games": t.games}
                for t in round_.tables
            ],
        }
        view["state"] = words.text("club.final") if finished else words.text(
            "club.stage-results", stage=view["round"]["stage"], results=view["round"]["results"])
    else:
        rounds = get_format(event.format).round_count(event)
        view["state"] = words.text("club.not-drawn", rounds=rounds,
                                   entered=words.text("club.entered", count=len(event.players)))
    section = table.sections[0]
    def heading(text: str) -> str:  # the format's own heading, in words where the catalogue has them
        return words.maybe(f"print.heading.{text}", text)

    view["standings"] = {
        "title": heading(section.title),
        "columns": [words.text("club.place"), words.text("club.player"), *map(heading, section.columns), ""],
        "rows": [["-" if r.place is None else str(r.place), r.player, *map(cell_text, r.values), r.note]
                 for r in section.rows],
    }
    return view


class EventBoard:
    """The board's read of the events, one request at a time, reopening the database after an error."""

    def __init__(self, db: str, language: str = DEFAULT_LANGUAGE) -> None:
        self.db = db
        self.words = catalogue(language)
        self.lock = threading.Lock()
        self.store: TournamentStore | None = None

    def _shown(self, now: datetime) -> list[tuple[str, bool]]:
        """Every event's name, and whether its last round was drawn within FINISHED_SHOWN_H hours."""
        if "tournament_events" not in self.store.db.tables():
            return []
        rows = self.store.db.execute(
            "SELECT e.name, MAX(r.drawn_at) FROM tournament_events e "
            "LEFT JOIN tournament_rounds r ON r.event_id = e.id GROUP BY e.id, e.name ORDER BY e.id").fetchall()
        since = (now - timedelta(hours=FINISHED_SHOWN_H)).isoformat(timespec="seconds")
        return [(name, last is not None and str(last) >= since) for name, last in rows]

    def read(self, now: datetime | None = None) -> tuple[list[dict], str | None]:
        now = now or datetime.now(timezone.utc)
        with self.lock:
            try:
                if self.store is None:
                    self.store = TournamentStore(self.db, read_only=True)
                views = []
                for name, recent in self._shown(now):
                    event = self.store.load(name)
                    if recent or not is_finished(event):
                        views.append(event_view(event, self.words))
                return views, None
            except (TournamentError, RecordsError) as error:  # a lost server too: the board keeps going
                self.close()
                return [], self.words.text("club.events-unreadable", error=error)

    def close(self) -> None:
        if self.store is not None:
            try:
                self.store.close()
            finally:
                self.store = None
