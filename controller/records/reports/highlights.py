"""The turns worth showing, found in a game's notation values (docs/notation.md, "Highlights").

Every definition reads only what a turn's notation line says (tiles played, sets gone and new,
the verdict, how the time ended) and the game's result, so a highlight can be checked against
the record the same way the line is:

- biggest-meld: the turn that laid the game's biggest set, counted in tiles, holding at least one
  tile from that turn's rack, in a turn that stood (legal, relieved, or a penalty overridden); only
  sets of `BIG_MELD` tiles or more; each turn that reaches the game's biggest size is marked.
- joker-freed: a turn that stood after which a joker that lay on the table stands for another
  tile: it was freed (replaced by the tile it stood for) and played again in the same turn.
- penalty: a penalty verdict, with the restore it asked for (the line says how that ended).
- time-out: the turn's countdown ran out.
- winning-turn: the turn that emptied the winner's rack and ended the game.
"""
from __future__ import annotations

from typing import Any

from controller.rules.errors import RulesError
from controller.rules.judge import Outcome
from controller.rules.melds import JokerValue, classify
from controller.rules.scoring import GameEnd
from controller.rules.tiles import parse_tiles

from .notation import GameNotation, Highlight, RestoreEnd, TurnEnding, TurnLine

BIG_MELD = 5  # tiles: a set of three or four is every turn's business, not a moment


def game_highlights(game: GameNotation, reading: dict[str, Any] | None = None) -> dict[int, tuple[Highlight, ...]]:
    """Each turn's highlights, in the order of `Highlight` (turns with none are left out).
    `reading`: the rule set's `melds_reading()` (how runs and jokers are read)."""
    reading = reading or {}
    found: dict[int, list[Highlight]] = {}
    sizes = {line.turn: _biggest_laid(line) for line in game.turns if stood(line)}
    biggest = max(sizes.values(), default=0)
    last = game.turns[-1] if game.turns else None
    for line in game.turns:
        marks = found.setdefault(line.turn, [])
        if biggest >= BIG_MELD and sizes.get(line.turn) == biggest:
            marks.append(Highlight.BIGGEST_MELD)
        if stood(line) and joker_freed(line, reading):
            marks.append(Highlight.JOKER_FREED)
        if line.verdict is not None and line.verdict.outcome is Outcome.PENALTY:
            marks.append(Highlight.PENALTY)
        if line.ending is TurnEnding.TIMEOUT:
            marks.append(Highlight.TIME_OUT)
        if (line is last and game.result is not None and game.result.end == GameEnd.EMPTY_RACK
                and line.player == game.result.winner and stood(line)):
            marks.append(Highlight.WINNING_TURN)
    return {turn: tuple(marks) for turn, marks in found.items() if marks}


def stood(line: TurnLine) -> bool:
    """The turn's tiles stayed on the table: legal, relieved, or a penalty the referee withdrew."""
    verdict = line.verdict
    if verdict is None:
        return False
    if verdict.outcome in (Outcome.LEGAL, Outcome.RELIEVED):
        return verdict.restore is None or verdict.restore.end is not RestoreEnd.RESTORING
    return verdict.restore is not None and verdict.restore.end is RestoreEnd.OVERRIDDEN


def _biggest_laid(line: TurnLine) -> int:
    from_rack = set(line.played)
    return max((len(meld) for meld in line.new if from_rack.intersection(meld)), default=0)


def joker_freed(line: TurnLine, reading: dict[str, Any]) -> bool:
    """A joker of a set the turn took apart stands, in the sets it laid, for none of what it stood for."""
    before = [value for meld in line.gone for value in _jokers(meld, reading)]
    after = [value for meld in line.new for value in _jokers(meld, reading)]
    for value in before:
        match = next((other for other in after if _same_value(value, other)), None)
        if match is None:
            return True
        after.remove(match)
    return False


def _jokers(meld: tuple[str, ...], reading: dict[str, Any]) -> list[JokerValue]:
    try:
        return list(classify(parse_tiles(meld), **reading).jokers)
    except RulesError:
        return []


def _same_value(one: JokerValue, other: JokerValue) -> bool:
    return one.number == other.number and bool(set(one.colours) & set(other.colours))
