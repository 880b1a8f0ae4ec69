"""Scripted games whose every verdict comes from the rules core, for benchmarks/bench_games.py.

A game is played out on paper first: each turn a kind of play is tried (an opening meld, a new
meld, a run extended, a run split by a second copy, a group broken up into a run, a joker laid or
won back, a draw, or a table left invalid when the time runs out), laid on a grid of table places,
and judged by the pure game model (`controller.game.machine` folding the same events the runner
records, with `judging.judge` on the true table). A try whose verdict is not the one its kind
aims at is dropped and another kind tried, so the verdict a script claims is always the rules'
own, never written by hand. Racks are counted, not listed: any tile not on the table may be
played from a rack (the model checks counts, copy limits and the table, as the runner does).
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from controller.demo.scene import PlacedMeld as Meld  # a meld where it lies on the table, as scenes hold them
from controller.game import judging
from controller.game.events import (
    DealAccepted, Dealt, ReadPurpose, RestoreChecked, StartOrderDrawn, TableRead, TurnEndCause, TurnEnded, TurnStarted,
)
from controller.game.machine import GameModel, State, TableState, apply, fold

COLOURS = ("K", "B", "O", "R")
JOKER = "J"
ALL_TILES = Counter({**{f"{c}{n}": 2 for c in COLOURS for n in range(1, 14)}, JOKER: 2})
PLAYS = ("new meld", "run extended", "run split", "group rearranged", "joker laid", "joker won back")
KINDS = ("opening meld",) + PLAYS + ("draw", "invalid table")
PENALTY_SHARE = 1 / 8  # of turns that run out with an invalid table
MIN_RACK = 2  # a player keeps at least this many tiles: the scripted game never ends by an empty rack


@dataclass(frozen=True)
class Turn:
    player: str
    kind: str  # one of KINDS
    melds: tuple[Meld, ...]  # the table when the turn ends
    expired: bool  # the time runs out (the button is not pressed)
    verdict: str  # the rules core's outcome on the true table: legal, draw, penalty
    model: GameModel  # the pure game after the turn (and after the restore of a failed one)

    def scene(self) -> list[dict]:
        return [{"at": [m.row, m.col], "tiles": list(m.tiles)} for m in self.melds]


def true_table(melds: tuple[Meld, ...], place=lambda row, col: (float(col), float(row))) -> TableState:
    """The table as the machine holds it; `place(row, col)` gives a tile's position (grid places by default)."""
    tiles, sets = [], []
    for meld in melds:
        sets.append(tuple(range(len(tiles), len(tiles) + len(meld.tiles))))
        tiles.extend((code, *place(meld.row, meld.col + k)) for k, code in enumerate(meld.tiles))
    return TableState(tuple(tiles), tuple(sets))


def started_game(players: tuple[str, ...], variant: str = "classic") -> GameModel:
    """The pure game as the runner records it with a given starter: created, starter, dealt."""
    model = fold([judging.game_created(variant, players), StartOrderDrawn((), players[0], None), Dealt(1)])
    return apply(model, DealAccepted(1)) if model.state is State.REDEAL_WINDOW else model


def judged(model: GameModel, melds: tuple[Meld, ...], expired: bool) -> tuple[str, GameModel]:
    """The rules' verdict on the turn leaving `melds`, and the game after it (a failed turn restored)."""
    before = model.table
    after = true_table(melds)
    model = apply(model, TurnStarted(model.turn + 1, model.player, model.turn_seconds, None))
    cause = TurnEndCause.EXPIRED if expired else TurnEndCause.BUTTON
    model = apply(model, TurnEnded(model.turn, cause, None if expired else str(model.current + 1), 0 if expired else 10))
    model = apply(model, TableRead(ReadPurpose.TURN, None, None, after.tiles, after.sets, (), ()))
    verdict = judging.judge(model, after)
    model = apply(model, verdict)
    if model.state is State.RESTORING:
        model = apply(model, RestoreChecked(None, None, True, (), before.tiles, before.sets, False))
    return str(verdict.outcome), model


class Grid:
    """Table places: `rows` x `columns`; melds on one row keep an empty place between them."""

    def __init__(self, rows: int, columns: int) -> None:
        self.rows, self.columns = rows, columns

    def place(self, tiles: tuple[str, ...], kept: list[Meld], rng: random.Random) -> Meld | None:
        taken = {(m.row, c) for m in kept for c in range(m.col - 1, m.col + len(m.tiles) + 1)}
        spots = [(r, c) for r in range(self.rows) for c in range(self.columns - len(tiles) + 1)
                 if not any((r, c + k) in taken for k in range(len(tiles)))]
        if not spots:
            return None
        # fill from the top left, with some spread, as players do
        spots.sort()
        row, col = spots[min(len(spots) - 1, int(rng.expovariate(1 / 6)))]
        return Meld(tuple(tiles), row, col)

    def fits(self, meld: Meld, kept: list[Meld]) -> bool:
        if meld.col < 0 or meld.col + len(meld.tiles) > self.columns:
            return False
        taken = {(m.row, c) for m in kept for c in range(m.col - 1, m.col + len(m.tiles) + 1)}
        return not any((meld.row, meld.col + k) in taken for k in range(len(meld.tiles)))


def _number(code: str) -> int:
    return int(code[1:])


def _is_run(tiles: tuple[str, ...]) -> bool:
    real = [t for t in tiles if t != JOKER]
    return len({t[0] for t in real}) == 1 and len(real) >= 2 and _number(real[1]) != _number(real[0])


class Planner:
    """Tries of each kind of play on the table as it lies, from the tiles no table holds."""

    def __init__(self, grid: Grid, rng: random.Random) -> None:
        self.grid, self.rng = grid, rng

    def free(self, melds: tuple[Meld, ...]) -> Counter:
        return ALL_TILES - Counter(t for m in melds for t in m.tiles)

    def laid(self, melds: tuple[Meld, ...], removed: list[Meld], new: list[tuple[str, ...]]) -> tuple[Meld, ...] | None:
        """The table with `removed` taken up and `new` tile rows laid at free places (None: no room)."""
        kept = [m for m in melds if m not in removed]
        for tiles in new:
            meld = self.grid.place(tiles, kept, self.rng)
            if meld is None:
                return None
            kept.append(meld)
        return tuple(kept)

    def run_from(self, free: Counter, length: int, low: int = 1, joker: bool = False) -> tuple[str, ...] | None:
        rng = self.rng
        for _ in range(30):
            colour = rng.choice(COLOURS)
            start = rng.randint(low, 14 - length)
            tiles = [f"{colour}{n}" for n in range(start, start + length)]
            if joker:
                tiles[rng.randrange(length)] = JOKER
            if not Counter(tiles) - free:
                return tuple(tiles)
        return None

    def group_from(self, free: Counter, size: int, low: int = 1, joker: bool = False) -> tuple[str, ...] | None:
        rng = self.rng
        for _ in range(30):
            number = rng.randint(low, 13)
            tiles = [f"{c}{number}" for c in rng.sample(COLOURS, size)]
            if joker:
                tiles[rng.randrange(size)] = JOKER
            if not Counter(tiles) - free:
                return tuple(tiles)
        return None

    def meld_from(self, free: Counter, low: int = 1, joker: bool = False) -> tuple[str, ...] | None:
        if self.rng.random() < 0.55:
            return self.run_from(free, self.rng.randint(3, 5), low, joker)
        return self.group_from(free, self.rng.randint(3, 4), low, joker)

    def attempt(self, kind: str, melds: tuple[Meld, ...]) -> tuple[Meld, ...] | None:
        """The table after a try of `kind` (None: it cannot be tried on this table)."""
        free, rng = self.free(melds), self.rng
        if kind == "draw":
            return melds
        if kind == "opening meld":
            first = self.meld_from(free, low=9)
            return None if first is None else self.laid(melds, [], [first])
        if kind == "new meld":
            new = self.meld_from(free)
            return None if new is None else self.laid(melds, [], [new])
        if kind == "joker laid":
            new = self.meld_from(free, joker=True)
            return None if new is None else self.laid(melds, [], [new])
        runs = [m for m in melds if _is_run(m.tiles) and JOKER not in m.tiles]
        if kind == "run extended" and runs:
            run = rng.choice(runs)
            colour, low, high = run.tiles[0][0], _number(run.tiles[0]), _number(run.tiles[-1])
            ends = [(f"{colour}{high + 1}", False)] if high < 13 else []
            ends += [(f"{colour}{low - 1}", True)] if low > 1 else []
            ends = [e for e in ends if free[e[0]]]
            if not ends:
                return None
            code, front = rng.choice(ends)
            grown = Meld(((code,) + run.tiles) if front else (run.tiles + (code,)), run.row, run.col - front)
            kept = [m for m in melds if m != run]
            return tuple(kept + [grown]) if self.grid.fits(grown, kept) else self.laid(melds, [run], [grown.tiles])
        if kind == "run split":
            # a second copy laid inside a run: R3..R9 + R6 -> R3 R4 R5 R6 and R6 R7 R8 R9
            splits = [(run, k) for run in runs for k in range(2, len(run.tiles) - 2) if free[run.tiles[k]]]
            if not splits:
                return None
            run, k = rng.choice(splits)
            left = Meld(run.tiles[: k + 1], run.row, run.col)
            kept = [m for m in melds if m != run] + [left]
            right = self.grid.place(run.tiles[k:], kept, rng)
            return None if right is None else tuple(kept + [right])
        if kind == "group rearranged":
            # a tile taken from a group of four starts a run with two tiles from the rack
            groups = [m for m in melds if len(m.tiles) == 4 and not _is_run(m.tiles) and JOKER not in m.tiles]
            rng.shuffle(groups)
            for group in groups:
                for k in rng.sample(range(4), 4):
                    code = group.tiles[k]
                    colour, n = code[0], _number(code)
                    for run in ([n, n + 1, n + 2], [n - 2, n - 1, n], [n - 1, n, n + 1]):
                        if min(run) < 1 or max(run) > 13:
                            continue
                        rack = [f"{colour}{m}" for m in run if m != n]
                        if Counter(rack) - free:
                            continue
                        rest = Meld(group.tiles[:k] + group.tiles[k + 1:], group.row, group.col + (k == 0))
                        kept = [m for m in melds if m != group] + [rest]
                        laid = self.grid.place(tuple(f"{colour}{m}" for m in run), kept, rng)
                        if laid is not None:
                            return tuple(kept + [laid])
            return None
        if kind == "joker won back":
            # the joker's tile from the rack takes its place; the joker goes into a new meld at once
            with_joker = [m for m in melds if JOKER in m.tiles]
            rng.shuffle(with_joker)
            for meld in with_joker:
                for code in _joker_stands_for(meld.tiles):
                    if not free[code]:
                        continue
                    swapped = Meld(tuple(code if t == JOKER else t for t in meld.tiles), meld.row, meld.col)
                    after_free = free - Counter([code])
                    new = self.meld_from(after_free)
                    if new is None:
                        continue
                    new = new[:1] + (JOKER,) + new[2:]  # the won joker stands in for the second tile
                    kept = [m for m in melds if m != meld] + [swapped]
                    laid = self.grid.place(new, kept, rng)
                    if laid is not None:
                        return tuple(kept + [laid])
            return None
        if kind == "invalid table":
            return self.invalid(melds, free)
        return None

    def invalid(self, melds: tuple[Meld, ...], free: Counter) -> tuple[Meld, ...] | None:
        """A table the rules refuse: a loose pair, a run with a gap, a group with a colour twice, a run split short."""
        rng = self.rng
        how = rng.choice(("pair", "gap", "colour twice", "split short"))
        if how == "pair":
            run = self.run_from(free, 2)
            return None if run is None else self.laid(melds, [], [run])
        if how == "gap":
            run = self.run_from(free, 4)
            return None if run is None else self.laid(melds, [], [run[:1] + run[2:]])
        if how == "colour twice":
            number = rng.randint(1, 13)
            colour, other = rng.sample(COLOURS, 2)
            tiles = (f"{colour}{number}", f"{other}{number}", f"{colour}{number}")
            return None if Counter(tiles) - free else self.laid(melds, [], [tiles])
        runs = [m for m in melds if _is_run(m.tiles) and len(m.tiles) >= 4 and JOKER not in m.tiles]
        if not runs:
            return None
        run = rng.choice(runs)
        # R3 R4 R5 R6 split into R3 R4 | R5 R6 with a tile added to neither: two loose pairs
        left = Meld(run.tiles[:2], run.row, run.col)
        kept = [m for m in melds if m != run] + [left]
        right = self.grid.place(run.tiles[2:], kept, rng)
        return None if right is None else tuple(kept + [right])


def _joker_stands_for(tiles: tuple[str, ...]) -> list[str]:
    """The codes a joker in this meld may stand for (a run's missing number, a group's missing colours)."""
    real = [t for t in tiles if t != JOKER]
    if _is_run(tiles):
        k = tiles.index(JOKER)
        first = next(i for i, t in enumerate(tiles) if t != JOKER)
        number = _number(tiles[first]) + (k - first)
        return [f"{tiles[first][0]}{number}"] if 1 <= number <= 13 else []
    numbers = {_number(t) for t in real}
    if len(numbers) != 1:
        return []
    number = numbers.pop()
    return [f"{c}{number}" for c in COLOURS if f"{c}{number}" not in real]


def _weights(opened: bool) -> dict[str, float]:
    if not opened:
        return {"opening meld": 0.65, "draw": 0.35}
    return {"new meld": 0.16, "run extended": 0.2, "run split": 0.12, "group rearranged": 0.12, "joker laid": 0.08,
            "joker won back": 0.08, "draw": 0.24}


def scripted_game(players: tuple[str, ...], turns: int, seed: int, grid: Grid, variant: str = "classic") -> list[Turn]:
    """`turns` turns of a game, each judged by the rules core; about PENALTY_SHARE of them fail."""
    rng = random.Random(seed)
    planner = Planner(grid, rng)
    model = started_game(players, variant)
    melds: tuple[Meld, ...] = ()
    played: list[Turn] = []
    for _ in range(turns):
        opened = model.opened[model.current]
        rack = model.racks[model.current]
        wanted = "invalid table" if rng.random() < PENALTY_SHARE else None
        weights = _weights(opened)
        tried: list[str] = [wanted] * 6 if wanted else []
        tried += rng.choices(list(weights), list(weights.values()), k=12) + ["draw"]
        for kind in tried:
            after = planner.attempt(kind, melds)
            if after is None:
                continue
            laid = sum(len(m.tiles) for m in after) - sum(len(m.tiles) for m in melds)
            if kind not in ("draw", "invalid table") and rack - laid < MIN_RACK:
                continue
            expired = kind == "invalid table"
            verdict, next_model = judged(model, after, expired)
            aim = {"draw": "draw", "invalid table": "penalty"}.get(kind, "legal")
            if verdict != aim:
                continue
            played.append(Turn(model.player, kind, after, expired, verdict, next_model))
            model = next_model
            if verdict == "legal":
                melds = after
            break
        else:  # pragma: no cover - a draw is always possible
            raise AssertionError("no play found, not even a draw")
    return played


def kinds_played(turns: list[Turn]) -> Counter:
    return Counter(turn.kind for turn in turns)
