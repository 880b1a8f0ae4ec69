"""Taking back the director's last draw: allowed while nothing has been entered since it (no result,
typed, imported or played at a table; no disqualification or change), so no result ever loses the
round it was played in. Pure: the verified log in, the round to take back out, or ChangeError."""
from __future__ import annotations

from .errors import ChangeError
from .history import DRAW, ENTRANTS, UNDO_DRAW, LogEntry
from .log_checks import LogState
from .model import Round


def round_to_take_back(event_name: str, log: list[LogEntry], state: LogState, played_games: set[str]) -> Round:
    """The last round standing, if it can be taken back. `played_games`: the games tables played
    straight into the database for the event (counted even before the log holds them)."""
    if not state.rounds:
        raise ChangeError(f"event {event_name!r} has no draw standing to take back")
    last = state.rounds[-1]
    drawn = state.drawn_by[-1]
    since = [entry for entry in log if entry.seq > drawn and entry.kind not in (DRAW, UNDO_DRAW, ENTRANTS)]
    if since:
        raise ChangeError(f"event {event_name!r}: round {last.number} cannot be taken back: log entry {since[0].seq} "
                          f"({since[0].kind}) was entered after its draw; amend or delete results instead")
    played = sorted(set(last.game_ids()) & played_games)
    if played:
        raise ChangeError(f"event {event_name!r}: round {last.number} cannot be taken back: {played[0]} was played "
                          "at a table already")
    return last
