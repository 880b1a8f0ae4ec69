"""The results the tables played into the club database for an event, which the director counts
without an import step (`TournamentStore.load`); which drawn game a table plays is table_seats.py.
The records know nothing of events: they keep which tournament game each game was (`game_info`);
this module reads that.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.game.events import EventKind
from controller.records.club import linked_games
from controller.records.errors import RecordsError, TamperedError
from controller.records.keyring import Trust
from controller.records.store import Records

from .model import RummikubGameResult


@dataclass
class PlayedResult:
    records_game: int
    result: object  # RummikubGameResult
    note: str = ""
    game_hash: str = ""  # the hash of the record's first event: what names it in every copy
    key_id: str | None = None  # the table key that signed it


@dataclass(frozen=True)
class LinkedRecord:
    """A game a table played for the event, whether it counts or not: `state` is "counted",
    "unscored", "untrusted", "unlinked" (linked before links were signed) or "broken" (its record
    does not hold or cannot be read: `why`)."""

    records_game: int
    game: str
    state: str
    why: str = ""


def played_results(records: Records, event_name: str,
                   linked: dict[str, LinkedRecord] | None = None) -> tuple[list[PlayedResult], list[str]]:
    """The results of the event's games the tables played into this database: the last score of
    each scored game whose record verifies, signed by a key of the database's keyring (or accepted
    by a referee), its table, event and tournament game signed with it (a later referee correction
    counts). Returns (results, notes): a game not scored yet, or whose record does not hold or
    whose signer the club does not trust, is left out with a note. `linked`, when given, gets every
    game linked to the event by the hash of its first event, and whether it counts."""
    results: dict[str, PlayedResult] = {}
    notes: list[str] = []
    linked = {} if linked is None else linked
    for records_game, game in linked_games(records, event_name):
        game_hash = records.created_hash(records_game)
        try:
            report = records.require_intact(records_game)
            events = records.events(records_game)
            scored = [e for e in events if e.kind is EventKind.GAME_SCORED]
        except TamperedError as error:
            notes.append(f"{game}: records game {records_game} left out: {error}")
            linked[game_hash] = LinkedRecord(records_game, game, "broken", str(error))
            continue
        except RecordsError as error:
            notes.append(f"{game}: records game {records_game} cannot be read: {error}")
            linked[game_hash] = LinkedRecord(records_game, game, "broken", str(error))
            continue
        if not scored:
            linked[game_hash] = LinkedRecord(records_game, game, "unscored")
            continue  # still being played
        if report.trust is None or report.trust.trust not in (Trust.TRUSTED, Trust.ACCEPTED):
            notes.append(f"{game}: records game {records_game} left out: its signer is unknown to this club: a "
                         "result counts here only from a table whose key is in the keyring (tileref key trust)")
            linked[game_hash] = LinkedRecord(records_game, game, "untrusted")
            continue
        if getattr(events[0], "table_and_event", None) is None:
            notes.append(f"{game}: records game {records_game} left out: it was linked to the event before links "
                         "were signed (the director types its result: tileref tournament result)")
            linked[game_hash] = LinkedRecord(records_game, game, "unlinked")
            continue
        final = scored[-1]
        linked[game_hash] = LinkedRecord(records_game, game, "counted")
        results[game] = PlayedResult(records_game, RummikubGameResult(game=game, scores=dict(final.scores),
                                                                      winner=final.winner),
                                     game_hash=game_hash, key_id=report.key_id)
    return list(results.values()), notes
