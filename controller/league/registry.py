"""The club's player registry as values: a stable ID per player and every name they went by, from when.

Pure: the stored registry in, a player or a resolved entrant list out. A name that more than one
player goes by now is refused with the candidates; an ID always names one player. Names are kept,
never rewritten: an event keeps the name a player was entered under, and the registry says from
when each name was used, so a history shows the name used at the time.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import AmbiguousPlayerError, PlayerNameError, PlayerNotFoundError

MAX_NAME = 120
# An ID a club chooses (a league may hand out its own, so that every club enters a player under one ID)
ID_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")


@dataclass(frozen=True)
class NameSpan:
    name: str
    since: str  # when the player started to go by this name (ISO 8601, UTC)


@dataclass(frozen=True)
class Player:
    player_id: str
    names: tuple[NameSpan, ...]  # oldest first; the last is the name now

    @property
    def name(self) -> str:
        return self.names[-1].name

    def name_at(self, when: str) -> str:
        """The name the player went by at `when` (the first name for anything before it)."""
        current = self.names[0].name
        for span in self.names:
            if span.since <= when:
                current = span.name
        return current


def clean_name(name: str) -> str:
    text = " ".join(str(name).split())
    if not text:
        raise PlayerNameError(f"player name {name!r} is empty")
    if len(text) > MAX_NAME:
        raise PlayerNameError(f"player name {text[:40]!r}... is longer than {MAX_NAME} characters")
    return text


def check_id(player_id: str) -> str:
    if not ID_PATTERN.fullmatch(player_id):
        raise PlayerNameError(f"player ID {player_id!r}: expected a letter then up to 31 letters, digits, '-' or '_'")
    return player_id


def next_id(players: tuple[Player, ...]) -> str:
    """The next free ID of the form P0001."""
    taken = {p.player_id for p in players}
    number = len(players) + 1
    while f"P{number:04d}" in taken:
        number += 1
    return f"P{number:04d}"


def find(players: tuple[Player, ...], token: str) -> Player:
    """The player an ID or a current name names; a name several players go by is refused with them."""
    text = " ".join(str(token).split())
    by_id = [p for p in players if p.player_id == text]
    if by_id:
        return by_id[0]
    named = [p for p in players if p.name.casefold() == text.casefold()]
    if len(named) == 1:
        return named[0]
    if named:
        candidates = ", ".join(f"{p.player_id} ({p.name})" for p in named)
        raise AmbiguousPlayerError(f"player {text!r} is ambiguous: {len(named)} registered players go by that name "
                                   f"({candidates}); name the player by ID")
    formerly = [p for p in players if any(s.name.casefold() == text.casefold() for s in p.names)]
    hint = ("; formerly the name of " + ", ".join(f"{p.player_id} (now {p.name})" for p in formerly)) if formerly else ""
    raise PlayerNotFoundError(f"no registered player {text!r} (by ID or current name){hint}; "
                              "add one with `tileref player add NAME`")


def resolve_entrants(players: tuple[Player, ...], tokens: list[str]) -> tuple[tuple[str, str], ...]:
    """Each entry of a players list (an ID or a name) as (name used now, player ID); each player once."""
    out: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for token in tokens:
        player = find(players, token)
        if player.player_id in seen:
            raise PlayerNameError(f"player {player.player_id} ({player.name}) is entered twice: as {seen[player.player_id]!r} "
                                  f"and as {token!r}")
        seen[player.player_id] = token
        out.append((player.name, player.player_id))
    names = [name for name, _ in out]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        ids = ", ".join(pid for name, pid in out if name == twice[0])
        raise AmbiguousPlayerError(f"players {ids} all go by {twice[0]!r}: an event tells its players apart by name; "
                                   "rename one (`tileref player rename ID NEW-NAME`) before entering both")
    return tuple(out)
