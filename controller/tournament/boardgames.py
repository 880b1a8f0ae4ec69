"""Deciding a shogi or othello game the way seed 004 says, into a `MatchResult`.

Othello: the disc count decides, and the squares neither player can fill are split
between both. A level count goes to the player who won the right to a draw at the
janken before the game (the seed's "引き分けの時の勝利権").
Shogi: a repetition draw (千日手) is replayed with the colours swapped, so a match is a
run of games that ends with the first decisive one.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .errors import ScoreError
from .model import MatchResult

OTHELLO_SQUARES = 64


@dataclass(frozen=True)
class OthelloCount:
    black: str
    white: str
    black_discs: int
    white_discs: int
    draw_right: str | None = None  # who wins a level count


def othello_scores(count: OthelloCount) -> tuple[Decimal, Decimal]:
    if count.black == count.white:
        raise ScoreError(f"othello result: {count.black!r} cannot play themself")
    if count.black_discs < 0 or count.white_discs < 0:
        raise ScoreError(f"disc counts {count.black_discs}-{count.white_discs} below zero")
    empty = OTHELLO_SQUARES - count.black_discs - count.white_discs
    if empty < 0:
        raise ScoreError(
            f"disc counts {count.black_discs}-{count.white_discs} exceed {OTHELLO_SQUARES} squares"
        )
    half = Decimal(empty) / 2
    return count.black_discs + half, count.white_discs + half


def othello_result(game: str, count: OthelloCount) -> MatchResult:
    black_score, white_score = othello_scores(count)
    players = (count.black, count.white)
    detail = f"othello {count.black} (black) {black_score:g} - {white_score:g} {count.white} (white)"
    if black_score > white_score:
        return MatchResult(game, count.black, detail, players)
    if white_score > black_score:
        return MatchResult(game, count.white, detail, players)
    if count.draw_right not in (count.black, count.white):
        raise ScoreError(
            f"level count {black_score:g}-{white_score:g}: name who holds the draw right, "
            f"got {count.draw_right!r}"
        )
    return MatchResult(game, count.draw_right, detail + f", level, draw right {count.draw_right}", players)


SHOGI_OUTCOMES = {"sente": "sente", "gote": "gote", "repetition": "repetition", "sennichite": "repetition"}


def shogi_result(game: str, sente: str, gote: str, outcomes: tuple[str, ...]) -> MatchResult:
    """`outcomes`: each game in order, "sente" or "gote" (who won) or "repetition"."""
    if not outcomes:
        raise ScoreError("shogi result: no game outcome given")
    if sente == gote:
        raise ScoreError(f"shogi result: {sente!r} cannot play themself")
    played = []
    first, second = sente, gote
    for number, raw in enumerate(outcomes, start=1):
        outcome = SHOGI_OUTCOMES.get(raw.strip().lower())
        if outcome is None:
            raise ScoreError(f"shogi outcome {raw!r}: expected sente, gote or repetition")
        if outcome == "repetition":
            if number == len(outcomes):
                raise ScoreError("shogi result ends on a repetition draw: the replay is still owed")
            played.append(f"{first} (sente) v {second}: repetition")
            first, second = second, first  # replayed with the colours swapped
            continue
        if number != len(outcomes):
            raise ScoreError(f"shogi outcome {number} ({raw!r}) decided the match, yet more follow")
        winner = first if outcome == "sente" else second
        played.append(f"{first} (sente) v {second}: {winner} wins")
        return MatchResult(game, winner, "shogi " + "; ".join(played), (sente, gote))
    raise AssertionError("unreachable")
