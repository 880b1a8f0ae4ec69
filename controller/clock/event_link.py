"""Which clock an event's game is played on: the game id of (stage, table), its players in
seat order, and the `ClockRules` the event's format gives it. Pure, over an `Event`."""
from __future__ import annotations

from dataclasses import dataclass

from controller.tournament.errors import DuplicateResultError, GameNotDrawnError
from controller.tournament.formats.knockout import MAIN
from controller.tournament.model import Event, game_id

from .errors import ClockInputError
from .rules import ClockGame, ClockRules, Scoring, default_rules

FORMATS_OF = {
    ClockGame.SHOGI: ("knockout",),
    ClockGame.OTHELLO: ("knockout",),
    ClockGame.MAHJONG: ("ron-cup", "health-mahjong"),
}


@dataclass(frozen=True)
class ClockGameRef:
    event: str
    game: str  # R<stage>-T<table>-G<n>
    seats: tuple[str, ...]
    rules: ClockRules
    stage_name: str


def locate(event: Event, clock_game: ClockGame, stage: int, table: int, number: int = 1) -> ClockGameRef:
    """The drawn game at (stage, table); a game not drawn raises GameNotDrawnError naming it."""
    if event.format not in FORMATS_OF[clock_game]:
        raise ClockInputError(f"event {event.name!r} is a {event.format} event, not one for {clock_game.value} "
                              f"(formats: {', '.join(FORMATS_OF[clock_game])})")
    settings = event.settings
    if event.format == "knockout" and settings.game != clock_game.value:
        raise ClockInputError(f"event {event.name!r} plays {settings.game}, not {clock_game.value}")
    wanted = game_id(stage, table, number)
    found = event.table_of_game(wanted)
    if found is None:
        raise GameNotDrawnError(f"game {wanted} (stage {stage}, table {table}) has not been drawn in event "
                                f"{event.name!r}")
    if wanted in event.results:
        raise DuplicateResultError(f"game {wanted} already has a result in event {event.name!r}")
    round_, drawn = found
    if event.format == "knockout":
        final = drawn.bracket == MAIN and round_.number == len(event.round(1).lineup).bit_length() - 1  # as drawn
        rules = default_rules(clock_game, final=final)
    elif event.format == "ron-cup":
        rules = default_rules(clock_game, scoring=Scoring.RON_CUP,
                              limited=round_.number <= settings.qualifying_hanchan)
    else:
        rules = default_rules(clock_game, scoring=Scoring.HEALTH_MAHJONG,
                              rank_points=tuple(str(v) for v in settings.rank_points))
    return ClockGameRef(event.name, wanted, drawn.seats, rules, round_.name)
