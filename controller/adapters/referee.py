"""The referee: settles what the camera and the rules could not, and corrects readings.

`ConsoleReferee` asks a person at the table (stdin). `ScriptedReferee` answers from a
list given in advance (a recorded game, a test); it never makes an answer up, so a doubt
it has no answer for stops the game with an error instead of a silent guess.
"""
from __future__ import annotations

import sys
from typing import Protocol, TextIO

from controller.game.events import NO_TILE, Doubt, HeldAnswer
from controller.game.machine import GameModel, HeldPenalty, TableState
from controller.rules.errors import RulesError
from controller.rules.tiles import parse_tile

from .errors import AdapterError


NO_TILE_ANSWERS = (NO_TILE, "no", "no tile", "-")  # what a referee at the console may type for "no tile lies there"


class RefereeError(AdapterError):
    """The referee could not or would not answer."""


class Referee(Protocol):
    def settle_table(self, model: GameModel, table: TableState, doubts: tuple[Doubt, ...]) -> tuple[tuple[tuple[int, str], ...], str]:
        """Codes for the doubtful tiles: ((tile index, code), ...), and a note."""
        ...

    def check_rack(self, player: str, codes: tuple[str, ...], expected: int, doubts: tuple[Doubt, ...]) -> tuple[tuple[str, ...] | None, str]:
        """None to accept the rack as read, or the corrected codes; and a note."""
        ...

    def notice_table(self, model: GameModel, table: TableState) -> tuple[tuple[tuple[int, str], ...], str]:
        """The arbiter's button between turns: an invalid set was noticed. The tiles of the accepted
        table that are not what was read ((tile index, code), ...; empty: nothing), and a note."""
        ...

    def held_penalty(self, model: GameModel, held: HeldPenalty) -> tuple[str, tuple[tuple[int, str], ...], str]:
        """A penalty rests on tiles seen nowhere: "confirmed", or "tiles-there" with the table read's
        tiles the referee names ((tile index, code), ...; none: read the table again); and a note."""
        ...


class ConsoleReferee:
    def __init__(self, stdin: TextIO | None = None, out: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.out = out or sys.stdout

    def _ask(self, prompt: str) -> str:
        print(prompt, end="", file=self.out, flush=True)
        line = self.stdin.readline()
        if not line:
            raise RefereeError("no referee answer (input closed)")
        return line.strip()

    def settle_table(self, model, table, doubts):
        changes = []
        for index, candidates, why in doubts:
            while True:
                answer = self._ask(f"referee: tile {index} at {table.tiles[index][1:]} ({why}); "
                                   f"candidates {' '.join(candidates)}; its code, or '{NO_TILE}' if no tile lies there? ") or candidates[0]
                if answer.lower() in NO_TILE_ANSWERS:
                    changes.append((index, NO_TILE))
                    break
                try:
                    changes.append((index, parse_tile(answer).code))
                    break
                except RulesError as error:
                    print(f"  {error}", file=self.out)
        return tuple(changes), "settled by the referee at the table"

    def notice_table(self, model, table):
        sets = "  ".join(f"[{' '.join(f'{i}:{table.tiles[i][0]}' for i in s)}]" for s in table.sets)
        answer = self._ask(f"referee: the table is {sets or '(empty)'}; which tiles are misread? "
                           f"'index code ...' pairs, Enter for none: ")
        words = answer.split()
        try:
            changes = tuple((int(words[k]), parse_tile(words[k + 1]).code) for k in range(0, len(words) - 1, 2))
        except (ValueError, RulesError) as error:
            raise RefereeError(f"not 'index code' pairs: {answer!r} ({error})") from None
        return changes, "an invalid set noticed at the table"

    def held_penalty(self, model, held):
        table = model.pending
        gone = " ".join(f"{tile.code} at ({tile.x:.0f}, {tile.y:.0f})" for tile in held.vanished)
        sets = "  ".join(f"[{' '.join(f'{i}:{table.tiles[i][0]}' for i in s)}]" for s in table.sets) if table else ""
        while True:
            answer = self._ask(f"referee: turn {held.turn}: a penalty for {held.player} rests on tiles seen nowhere "
                               f"({gone}); the table is read as {sets or '(empty)'}. Type c to confirm the penalty, "
                               f"Enter if the tiles are there (the table is read again; read again already "
                               f"this turn, they are put back where they lay), or 'index code' pairs "
                               f"for tiles read wrong: ")
            if answer.lower() in ("c", "confirm"):
                return HeldAnswer.CONFIRMED, (), "confirmed by the referee at the table"
            words = answer.split()
            try:
                changes = tuple((int(words[k]), parse_tile(words[k + 1]).code) for k in range(0, len(words), 2)) \
                    if len(words) % 2 == 0 else None
            except (ValueError, RulesError):
                changes = None
            if changes is not None:
                return HeldAnswer.TILES_THERE, changes, "the tiles are there, says the referee at the table"
            print(f"  not c, Enter or 'index code' pairs: {answer!r}", file=self.out)

    def check_rack(self, player, codes, expected, doubts):
        counted = len(codes) == expected  # a rack whose count does not fit is never taken as read
        answer = self._ask(f"referee: {player}'s rack read as {' '.join(codes) or '(empty)'} "
                           f"({len(codes)} tiles, {expected} expected). "
                           + ("Enter to accept, or type the codes: " if counted else "Type the codes as they are: "))
        if not answer:
            return None, "accepted by the referee"
        try:
            return tuple(parse_tile(c).code for c in answer.split()), "corrected by the referee"
        except RulesError as error:
            raise RefereeError(str(error)) from None


class ScriptedReferee:
    """Answers from a script: {"table": {turn: {tile index: code}}, "racks": {player: [codes]},
    "notices": {turn: [[code as read, code it is], ...]}, "held": {turn: ["confirmed" | "tiles-there",
    ...]}} (a notice names tiles by code, the first tile of the accepted table read so, because a script
    cannot know the reader's tile order; a held penalty's answers are taken in turn)."""

    def __init__(self, table: dict | None = None, racks: dict | None = None, notices: dict | None = None,
                 held: dict | None = None) -> None:
        self.table = {int(k): {int(i): c for i, c in v.items()} for k, v in (table or {}).items()}
        self.racks = dict(racks or {})
        self.notices = {int(k): [tuple(pair) for pair in v] for k, v in (notices or {}).items()}
        self.held = {int(k): list(v) for k, v in (held or {}).items()}
        self.asked: list[str] = []

    def held_penalty(self, model, held):
        self.asked.append(f"held turn {held.turn}")
        answers = self.held.get(held.turn) or []
        if not answers:
            raise RefereeError(f"turn {held.turn}: a penalty rests on tiles seen nowhere "
                               f"({' '.join(t.code for t in held.vanished)}) and the script has no answer")
        given = answers.pop(0)
        try:
            answer = HeldAnswer(given)
        except ValueError:
            raise RefereeError(f"turn {held.turn}: the script's answer {given!r} is not 'confirmed' or 'tiles-there'") from None
        return answer, (), f"{answer.value} (scripted referee)"

    def notice_table(self, model, table):
        self.asked.append(f"notice turn {model.turn}")
        changes, used = [], set()
        for read, really in self.notices.get(model.turn, ()):
            index = next((i for i, tile in enumerate(table.tiles) if tile[0] == read and i not in used), None)
            if index is None:
                raise RefereeError(f"turn {model.turn}: the script corrects {read!r}, which is not on the table")
            used.add(index)
            changes.append((index, really))
        return tuple(changes), "an invalid set noticed (scripted referee)"

    def settle_table(self, model, table, doubts):
        answers = self.table.get(model.turn, {})
        changes = []
        for index, candidates, why in doubts:
            if index not in answers:
                raise RefereeError(f"turn {model.turn}: tile {index} is doubtful ({why}) and the script has no answer")
            changes.append((index, answers[index]))
        self.asked.append(f"table turn {model.turn}")
        return tuple(changes), "settled by the scripted referee"

    def check_rack(self, player, codes, expected, doubts):
        self.asked.append(f"rack {player}")
        if player in self.racks:
            return tuple(self.racks[player]), "corrected by the scripted referee"
        if doubts or len(codes) != expected:
            raise RefereeError(f"{player}'s rack read as {list(codes)} ({expected} tiles expected) and the script has no answer")
        return None, "accepted"
