"""Game clocks for the clubs' other events (seed 004 shogi and othello, seed 001/004 mahjong),
pure and sans-I/O: `ClockRules` (settings as data), `start`/`step` (a state machine from
presses, flag falls and the director's lines to facts, box commands and the result), `BoxAccount`
(the box's clocks from its own word, given back to a box that rebooted).
`tileref clock` (controller/commands/clock.py) runs it on the timer box; docs/clock.md."""
from .account import BoxAccount, ClockRunning
from .errors import ClockError, ClockInputError
from .event_link import ClockGameRef, locate
from .machine import (
    ARBITER, BoxAction, BoxCommand, ClockFact, ClockState, Entered, Fact, FlagFell, Phase, Pressed, Step, start, step,
)
from .rules import ClockGame, ClockRules, Reading, Scoring, default_rules, override

__all__ = [name for name in dir() if not name.startswith("_")]
