"""What an event's verified log (history.py) says, and whether everything else agrees with it: its
signers against the club's keyring, the rows kept beside it for SQL readers, the table records it
counted. Pure: entries, keyring entries and rows in; values out, or HistoryTamperedError (exit 3)
naming the event and the entry or row.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Mapping

from controller.records.keyring import KeyEntry, KeyRole
from controller.records.signing import PublicKey

from .errors import HistoryTamperedError
from .history import DISQUALIFY, DRAW, ENTRANTS, PLAYED, RESULT, UNDO_DRAW, LogEntry, SignerCheck, round_from_data
from .model import Disqualification, Round
from .played import LinkedRecord


@dataclass(frozen=True)
class LogState:
    """The parts of an event its log makes: rounds, entered results (by game) and disqualifications,
    and the table records it counted as played straight into the database (by first-event hash)."""

    rounds: tuple[Round, ...]
    entered: Mapping[str, LogEntry]
    disqualifications: tuple[Disqualification, ...]
    played: Mapping[str, LogEntry]
    drawn_by: tuple[int, ...] = ()  # the log entry that drew each round standing
    entrants: Mapping[str, str] = dataclasses.field(default_factory=dict)  # {name in the event: registry ID}
    rated: bool = False


def log_state(event_name: str, log: list[LogEntry]) -> LogState:
    rounds: list[Round] = []
    entered: dict[str, LogEntry] = {}
    disqualifications: list[Disqualification] = []
    played: dict[str, LogEntry] = {}
    credited: dict[str, int] = {}
    drawn_by: list[int] = []
    entrants: dict[str, str] = {}
    rated = False
    since_draw: list[str] = []  # what was entered since the last draw standing
    for entry in log:
        try:
            if entry.kind == DRAW:
                rounds.append(round_from_data(entry.data["round"]))
                drawn_by.append(entry.seq)
                since_draw = []
            elif entry.kind == UNDO_DRAW:
                if not rounds or entry.data["round"] != rounds[-1].number or since_draw:
                    raise HistoryTamperedError(
                        f"event {event_name!r}, log entry {entry.seq}: it takes back round {entry.data['round']}, "
                        "which is not the last draw standing with nothing entered since")
                rounds.pop()
                drawn_by.pop()
            elif entry.kind == ENTRANTS:
                if entrants:
                    raise HistoryTamperedError(f"event {event_name!r}, log entry {entry.seq}: a second entrants entry")
                entrants = {str(name): str(player_id) for name, player_id in entry.data["players"]}
                rated = bool(entry.data["rated"])
            elif entry.kind == RESULT:
                entered[str(entry.data["game"])] = entry
            elif entry.kind == PLAYED:
                played[str(entry.data["record"]["game_hash"])] = entry
            elif entry.kind == DISQUALIFY:
                round_number, table_number = entry.data["round"], entry.data["table"]
                seats = rounds[round_number - 1].tables[table_number - 1].seats
                disqualifications.append(Disqualification(round_number, table_number, seats, entry.data["reason"]))
        except (KeyError, TypeError, ValueError, IndexError):
            raise HistoryTamperedError(f"event {event_name!r}, log entry {entry.seq}: unreadable "
                                       f"{entry.kind}") from None
        record = entry.data.get("record") if entry.kind in (RESULT, PLAYED) else None
        if isinstance(record, dict) and record.get("game_hash"):  # one table game is one tournament game
            if record["game_hash"] in credited:
                raise HistoryTamperedError(
                    f"event {event_name!r}, log entry {entry.seq}: it credits the table record already credited by "
                    f"entry {credited[record['game_hash']]} (first event {str(record['game_hash'])[:16]}): one "
                    "table game is one tournament game")
            credited[record["game_hash"]] = entry.seq
        if entry.kind not in (DRAW, UNDO_DRAW, ENTRANTS):
            since_draw.append(entry.kind)
    return LogState(tuple(rounds), entered, tuple(disqualifications), played, tuple(drawn_by), entrants, rated)


def signer_check(ring: list[KeyEntry], shown: str) -> SignerCheck:
    """A director's key of the ring, not revoked when it signed; with no ring at all, any key, unless
    the entry was signed while the club kept one (an emptied keyring trusts nothing)."""

    def check(key: PublicKey, at: str, where: str, under_ring: bool) -> None:
        if not ring:
            if under_ring:
                raise HistoryTamperedError(f"{where}: it was signed while {shown} kept a keyring, and the keyring "
                                           "is now empty: an emptied keyring trusts no entry")
            return
        entry = next((e for e in ring if e.fingerprint == key.fingerprint), None)
        if entry is None:
            raise HistoryTamperedError(f"{where}: signed by key {key.fingerprint}, which is not in the keyring of "
                                       f"{shown}")
        if entry.role is not KeyRole.DIRECTOR:
            raise HistoryTamperedError(f"{where}: signed by key {key.fingerprint} ({entry.name!r}), a "
                                       f"{entry.role.value} key: an event's log is signed by a director's key")
        if entry.revoked_at is not None and _instant(at) > _instant(entry.revoked_at):
            raise HistoryTamperedError(f"{where}: signed by key {key.fingerprint} ({entry.name!r}) at {at}, after "
                                       f"it was revoked on {entry.revoked_at} ({entry.revoke_reason})")

    return check


def check_rows(event_name: str, log: list[LogEntry], state: LogState, stored_rounds: list[Round],
               result_rows: Mapping[str, tuple[str, str]], disqualification_rows: set[tuple[int, int, str]]) -> None:
    """The rounds and draws rows, the results rows ({game: (result JSON, source)}) and the
    disqualifications rows ({(round, table, reason)}) are exactly what the log says."""
    where = f"event {event_name!r}"
    hint = ""
    if not any(entry.kind in (DRAW, RESULT, DISQUALIFY) for entry in log):
        hint = (" (an event kept before draws and results were signed: once the director has checked it, "
                f"`tileref tournament sign-log {event_name!r} --director-key FILE` signs it as it stands)")
    rounds = state.rounds
    for number, round_ in enumerate(stored_rounds, start=1):
        if number > len(rounds):
            raise HistoryTamperedError(f"{where}: round {round_.number} in tournament_rounds is outside the log{hint}")
        if round_ != rounds[number - 1]:
            drawn = state.drawn_by[number - 1]
            raise HistoryTamperedError(f"{where}: round {round_.number} in tournament_rounds/tournament_draws is not "
                                       f"the round log entry {drawn} drew; it was edited")
    if len(stored_rounds) < len(rounds):
        raise HistoryTamperedError(f"{where}: round {len(stored_rounds) + 1} of the log is missing from "
                                   "tournament_rounds")
    for game, (text, source) in sorted(result_rows.items()):
        entry = state.entered.get(game)
        if entry is None:
            raise HistoryTamperedError(f"{where}: the result of {game} in tournament_results is outside the log{hint}")
        try:
            same = json.loads(text) == entry.data["result"] and source == entry.data["source"]
        except ValueError:
            same = False
        if not same:
            raise HistoryTamperedError(f"{where}: the result of {game} in tournament_results is not the one log "
                                       f"entry {entry.seq} entered; it was edited")
    missing = sorted(set(state.entered) - set(result_rows))
    if missing:
        raise HistoryTamperedError(f"{where}: the result of {missing[0]} (log entry {state.entered[missing[0]].seq}) "
                                   "is missing from tournament_results")
    signed = {(d.round, d.table, d.reason) for d in state.disqualifications}
    if disqualification_rows != signed:
        odd = sorted(disqualification_rows ^ signed)[0]
        raise HistoryTamperedError(f"{where}: the disqualification of round {odd[0]} table {odd[1]} "
                                   + ("in tournament_disqualifications is outside the log"
                                      if odd in disqualification_rows
                                      else "in the log is missing from tournament_disqualifications") + hint)


def check_played(event_name: str, state: LogState, linked: Mapping[str, LinkedRecord], shown: str) -> None:
    """Each table record the log counted as played straight into the database is still there, linked
    to that game, and holds (a key revoked since only leaves it out, as it does any game)."""
    for game_hash, entry in state.played.items():
        record, game = linked.get(game_hash), entry.data["game"]
        where = f"event {event_name!r}, log entry {entry.seq}"
        if record is None or record.game != game:
            raise HistoryTamperedError(
                f"{where}: the table record it counted for {game} (records game "
                f"{entry.data['record'].get('records_game')}, first event {game_hash[:16]}) is "
                + (f"gone from {shown}" if record is None else f"now linked to {record.game}"))
        if record.state == "broken":
            raise HistoryTamperedError(f"{where}: the table record it counted for {game} does not hold: {record.why}")


def _instant(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(str(text))
    except ValueError:
        raise HistoryTamperedError(f"unreadable time {text!r} in the log or the keyring") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)
