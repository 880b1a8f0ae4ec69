"""The game notation: a game as text a commentator reads aloud, one line a turn (docs/notation.md).

What PGN's movetext is to chess: tag pairs first (`[Event "Ron cup"]`), then each turn as
`12. Ben 0:41 +R7 R8 R9 | B3-B4 -> B3-B4-B5 | legal`, then the result. This module is pure: values
in, text out (`format_notation`), and text in, values out (`parse_notation`); what a record says
in these values is made by `controller.records.reports.moves`, which also checks a text against a record.

Tiles are the project's codes (`R5`, `K13`, `J`); a set is its tiles joined by `-`. A name that
would not read back as one word is written as a JSON string (`"Ann Lee"`).
"""
from __future__ import annotations

import enum
import json
import re
from dataclasses import dataclass, field

from controller.rules.errors import RulesError
from controller.rules.judge import Outcome, Rule
from controller.rules.tiles import parse_tile

from ..errors import RecordsError


class NotationError(RecordsError, ValueError):
    """Text that is not the game notation; names the line and what is wrong with it."""


class TurnEnding(enum.StrEnum):
    """How a turn's time ended, as the notation writes it after the time (nothing for a button)."""

    BUTTON = "button"  # not written: the usual end
    TIMEOUT = "timeout"  # the countdown ran out
    SKIPPED = "skipped"  # no countdown: the next seat's button started theirs


class RestoreEnd(enum.StrEnum):
    """How the restore a verdict asked for ended."""

    RESTORED = "restored"  # the camera saw the table put back
    ACCEPTED = "accepted"  # the arbiter accepted the table as it lay
    UNRESTORABLE = "unrestorable"  # the arbiter gave the restore up: the sets that stay were named
    OVERRIDDEN = "overridden"  # the referee withdrew the penalty: the turn stands as laid
    RESTORING = "restoring"  # not over where the record ends


class Highlight(enum.StrEnum):
    """A reason to show a turn (definitions in controller/records/reports/highlights.py and docs/notation.md)."""

    BIGGEST_MELD = "biggest-meld"
    JOKER_FREED = "joker-freed"
    PENALTY = "penalty"
    TIME_OUT = "time-out"
    WINNING_TURN = "winning-turn"


HIGHLIGHT_WORDS = {  # as a page says them
    Highlight.BIGGEST_MELD: "the biggest set of the game",
    Highlight.JOKER_FREED: "a joker freed and played again",
    Highlight.PENALTY: "a penalty and its restore",
    Highlight.TIME_OUT: "the time ran out",
    Highlight.WINNING_TURN: "the winning turn",
}


@dataclass(frozen=True)
class Restore:
    end: RestoreEnd
    checks: int  # restore checks recorded for the verdict (the refused ones and the last)


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    opened: bool = False  # this turn laid a legal initial meld
    rules: tuple[Rule, ...] = ()  # the rules broken, as the verdict named them
    draw: int = 0  # tiles drawn from the pool for the turn
    points: int = 0  # the score change (a penalty's, e.g. -50)
    restore: Restore | None = None  # the restore the verdict asked for, and how it ended


@dataclass(frozen=True)
class TurnLine:
    turn: int
    player: str
    used: int | None  # seconds of the turn's countdown used (None: the box did not say)
    ending: TurnEnding = TurnEnding.BUTTON
    played: tuple[str, ...] = ()  # tiles that left the rack
    taken: tuple[str, ...] = ()  # tiles taken from the table into the rack
    gone: tuple[tuple[str, ...], ...] = ()  # sets the turn took off the table
    new: tuple[tuple[str, ...], ...] = ()  # sets the turn laid (or made from others)
    verdict: Verdict | None = None  # None: not judged where the record ends
    highlights: tuple[Highlight, ...] = ()
    comments: tuple[str, ...] = ()  # a reader's own words ({...}); never derived, never checked


@dataclass(frozen=True)
class Result:
    winner: str
    end: str  # a GameEnd value: "empty-rack", "pool-out"
    scores: tuple[tuple[str, int], ...]  # in seat order


@dataclass(frozen=True)
class GameNotation:
    tags: tuple[tuple[str, str], ...]  # (name, value), in the order written
    turns: tuple[TurnLine, ...]
    result: Result | None = None  # None: the game has no score (unfinished, disqualified): written `*`
    line_of_turn: dict[int, int] = field(default_factory=dict, compare=False)  # parsed: turn -> line number

    def tag(self, name: str) -> str | None:
        return next((value for key, value in self.tags if key == name), None)


# ------------------------------------------------------------------------------- writing

UNKNOWN_TIME = "-:--"
NOTHING_FROM_RACK = "--"
TABLE_UNCHANGED = "="
NOT_JUDGED = "*"
ARROW = "->"
HIGHLIGHT_MARK = "!"
HIGHLIGHT_COMMENT = "highlight:"
UNFINISHED = "*"
_BARE_NAME = re.compile(r'[^\s"\\|{}\[\],:()]+')
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def name_text(name: str) -> str:
    """A player's name as one token: bare when it reads back as itself, else a JSON string."""
    if _BARE_NAME.fullmatch(name) and not _looks_like_a_token(name):
        return name
    return json.dumps(name, ensure_ascii=False)


def _looks_like_a_token(name: str) -> bool:
    return name in (NOT_JUDGED, HIGHLIGHT_MARK, ARROW, TABLE_UNCHANGED, NOTHING_FROM_RACK, "wins") or \
        name[0] in "+-=;[" or name[0].isdigit()


def time_text(seconds: int | None) -> str:
    if seconds is None:
        return UNKNOWN_TIME
    return f"{seconds // 60}:{seconds % 60:02d}"


def set_text(meld: tuple[str, ...]) -> str:
    return "-".join(meld)


def turn_text(line: TurnLine) -> str:
    head = f"{line.turn}. {name_text(line.player)} {time_text(line.used)}"
    if line.ending is not TurnEnding.BUTTON:
        head += f" {line.ending}"
    rack = " ".join(filter(None, ("+" + " ".join(line.played) if line.played else "",
                                  "-" + " ".join(line.taken) if line.taken else ""))) or NOTHING_FROM_RACK
    if line.gone or line.new:
        table = " ".join(filter(None, (" ".join(map(set_text, line.gone)), ARROW, " ".join(map(set_text, line.new)))))
    else:
        table = TABLE_UNCHANGED
    text = f"{head} {rack} | {table} | {verdict_text(line.verdict)}"
    if line.highlights:
        text += f" {HIGHLIGHT_MARK} {{{HIGHLIGHT_COMMENT} {', '.join(line.highlights)}}}"
    for comment in line.comments:
        text += f" {{{comment}}}"
    return text


def verdict_text(verdict: Verdict | None) -> str:
    if verdict is None:
        return NOT_JUDGED
    words = [str(verdict.outcome)]
    if verdict.outcome is Outcome.DRAW:
        words.append(str(verdict.draw))
    if verdict.opened:
        words.append("open")
    words.extend(str(rule) for rule in verdict.rules)
    if verdict.draw and verdict.outcome is not Outcome.DRAW:
        words += ["draw", str(verdict.draw)]
    if verdict.points:
        words.append(f"{verdict.points:+d}")
    if verdict.restore is not None:
        words.append(str(verdict.restore.end))
        if verdict.restore.checks:
            words.append(str(verdict.restore.checks))
    return " ".join(words)


def result_text(result: Result | None) -> str:
    if result is None:
        return UNFINISHED
    scores = ", ".join(f"{name_text(name)} {points:+d}" for name, points in result.scores)
    return f"{name_text(result.winner)} wins {result.end}: {scores}"


def tag_text(name: str, value: str) -> str:
    return f'[{name} "{_escape_tag(value)}"]'


def _escape_tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def format_notation(game: GameNotation) -> str:
    """The whole game: tag pairs, a blank line, a line a turn, the result; one final newline."""
    lines = [tag_text(name, value) for name, value in game.tags]
    lines.append("")
    lines.extend(turn_text(line) for line in game.turns)
    lines.append(result_text(game.result))
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------- reading

_TAG_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]')
_TIME = re.compile(r"(\d+):([0-5]\d)")
_TOKEN = re.compile(r'\s*(?:(?P<string>"(?:[^"\\]|\\.)*")|(?P<comment>\{[^{}]*\})|(?P<bar>\|)|(?P<word>[^\s|{}"]+))')


def parse_notation(text: str, source: str = "(notation)") -> GameNotation:
    """The values of a notation text; NotationError naming the line for anything else."""
    tags: list[tuple[str, str]] = []
    turns: list[TurnLine] = []
    result: Result | None = None
    finished = False
    where: dict[int, int] = {}
    # lines end at "\n" only: a name or a comment may hold any other character str.splitlines() splits at
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip(" \t\r")
        if not line or line.startswith(";"):  # `;` a comment line, as in PGN
            continue
        at = f"{source} line {number}"
        if finished:
            raise NotationError(f"{at}: {_shown(line)} follows the result line")
        if line.startswith("["):
            if turns:
                raise NotationError(f"{at}: tag pair {_shown(line)} after the turns (tags come first)")
            match = _TAG_LINE.fullmatch(line)
            if match is None:
                raise NotationError(f'{at}: {_shown(line)} is not a tag pair like [Event "Ron cup"]')
            tags.append((match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))))
        elif re.match(r"\d+\.", line):
            turn = _parse_turn(_tokens(line, at), at)
            if turns and turn.turn != turns[-1].turn + 1:
                raise NotationError(f"{at}: turn {turn.turn} follows turn {turns[-1].turn}")
            turns.append(turn)
            where[turn.turn] = number
        else:
            result = _parse_result(_tokens(line, at), at)
            finished = True
    if not finished:
        raise NotationError(f"{source}: no result line at the end (the winner's line, or {UNFINISHED!r})")
    return GameNotation(tuple(tags), tuple(turns), result, where)


def _shown(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def _tokens(line: str, at: str) -> list[tuple[str, str]]:
    """(kind, text) each: "string" (a quoted name, decoded), "comment" (without braces), "bar", "word"."""
    out: list[tuple[str, str]] = []
    position = 0
    line = line.rstrip()
    while position < len(line):
        match = _TOKEN.match(line, position)
        if match is None or match.end() == position:
            raise NotationError(f"{at}: cannot read {_shown(line[position:].strip())} (an unclosed quote or brace?)")
        position = match.end()
        kind = match.lastgroup
        text = match.group(kind)
        if kind == "string":
            try:
                text = json.loads(text)
            except ValueError:
                raise NotationError(f"{at}: the name {_shown(text)} is not a JSON string") from None
        elif kind == "comment":
            text = text[1:-1].strip()
        out.append((kind, text))
    return out


def _parse_turn(tokens: list[tuple[str, str]], at: str) -> TurnLine:
    comments = [text for kind, text in tokens if kind == "comment"]
    tokens = [t for t in tokens if t[0] != "comment"]
    sections: list[list[tuple[str, str]]] = [[]]
    for token in tokens:
        if token[0] == "bar":
            sections.append([])
        else:
            sections[-1].append(token)
    if len(sections) != 3:
        raise NotationError(f"{at}: a turn has three parts split by ' | ' (turn and rack | table | verdict), "
                            f"found {len(sections)}")
    head, table, verdict = sections
    if len(head) < 3:
        raise NotationError(f"{at}: the turn needs its number, player and time, e.g. '12. Ben 0:41'")
    number = head[0][1]
    if head[0][0] != "word" or not re.fullmatch(r"[1-9]\d*\.", number):
        raise NotationError(f"{at}: {number!r} is not a turn number like '12.'")
    player = head[1][1]
    used = _parse_time(head[2][1], at)
    rest = [text for _, text in head[3:]]
    ending = TurnEnding.BUTTON
    if rest and rest[0] in (TurnEnding.TIMEOUT, TurnEnding.SKIPPED):
        ending = TurnEnding(rest.pop(0))
    played, taken = _parse_rack(rest, at)
    gone, new = _parse_table([text for _, text in table], at)
    words = [text for _, text in verdict]
    marked = bool(words) and words[-1] == HIGHLIGHT_MARK
    if marked:
        words.pop()
    highlights: tuple[Highlight, ...] = ()
    own: list[str] = []
    for comment in comments:
        if comment.startswith(HIGHLIGHT_COMMENT):
            highlights += _parse_highlights(comment[len(HIGHLIGHT_COMMENT):], at)
        else:
            own.append(comment)
    if marked != bool(highlights):
        raise NotationError(f"{at}: a highlighted turn carries both {HIGHLIGHT_MARK!r} and "
                            f"{{{HIGHLIGHT_COMMENT} ...}}, never one without the other")
    return TurnLine(int(number[:-1]), player, used, ending, played, taken, gone, new,
                    _parse_verdict(words, at), highlights, tuple(own))


def _parse_time(text: str, at: str) -> int | None:
    if text == UNKNOWN_TIME:
        return None
    match = _TIME.fullmatch(text)
    if match is None:
        raise NotationError(f"{at}: {text!r} is not a time like '0:41' (or {UNKNOWN_TIME!r} for unknown)")
    return int(match.group(1)) * 60 + int(match.group(2))


def _code(text: str, at: str) -> str:
    try:
        tile = parse_tile(text)
    except RulesError as error:  # its words name the code
        raise NotationError(f"{at}: {error}") from None
    if tile.code != text:
        raise NotationError(f"{at}: tile {text!r} is written {tile.code!r}")
    return tile.code


def _parse_rack(words: list[str], at: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if words == [NOTHING_FROM_RACK]:
        return (), ()
    if not words:
        raise NotationError(f"{at}: the rack part is missing: '+' tiles played, '-' tiles taken, or "
                            f"{NOTHING_FROM_RACK!r}")
    lists: dict[str, list[str]] = {}
    into = None
    for word in words:
        if word[:1] in "+-":
            if word[0] in lists or len(word) == 1:
                raise NotationError(f"{at}: {word!r}: the tiles played ('+R7 R8') and taken ('-B5') are each one "
                                    "list, written once")
            into, word = word[0], word[1:]
            lists[into] = []
        if into is None:
            raise NotationError(f"{at}: {word!r} is in no list: tiles played start with '+', tiles taken with '-'")
        lists[into].append(_code(word, at))
    return tuple(lists.get("+", ())), tuple(lists.get("-", ()))


def _parse_table(words: list[str], at: str) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    if words == [TABLE_UNCHANGED]:
        return (), ()
    if words.count(ARROW) != 1:
        raise NotationError(f"{at}: the table part is the sets gone, {ARROW!r}, the sets new (or "
                            f"{TABLE_UNCHANGED!r}), got {_shown(' '.join(words))}")
    split = words.index(ARROW)

    def melds(part: list[str]) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(_code(code, at) for code in word.split("-")) for word in part)

    gone, new = melds(words[:split]), melds(words[split + 1:])
    if not gone and not new:
        raise NotationError(f"{at}: {ARROW!r} between no sets; an unchanged table is {TABLE_UNCHANGED!r}")
    return gone, new


def _count(words: list[str], at: str, what: str) -> int:
    if not words or not words[0].isascii() or not words[0].isdigit():
        raise NotationError(f"{at}: {what} needs a number after it, got {_shown(' '.join(words[:1]) or 'nothing')}")
    return int(words.pop(0))


def _parse_verdict(words: list[str], at: str) -> Verdict | None:
    if words == [NOT_JUDGED]:
        return None
    if not words:
        raise NotationError(f"{at}: the verdict is missing (legal, relieved, draw N, penalty ..., or {NOT_JUDGED!r})")
    first = words.pop(0)
    try:
        outcome = Outcome(first)
    except ValueError:
        raise NotationError(f"{at}: {first!r} is not a verdict: " + ", ".join(o.value for o in Outcome)) from None
    draw = _count(words, at, "draw") if outcome is Outcome.DRAW else 0
    opened, rules, points, restore = False, [], 0, None
    while words:
        word = words.pop(0)
        if word == "open" and not opened:
            opened = True
        elif word == "draw" and outcome is not Outcome.DRAW and not draw:
            draw = _count(words, at, "draw")
        elif re.fullmatch(r"[+-]\d+", word) and not points:
            points = int(word)
        elif word in tuple(RestoreEnd) and restore is None:
            checks = _count(words, at, word) if words and words[0].isdigit() else 0
            restore = Restore(RestoreEnd(word), checks)
        elif word in tuple(Rule):
            rules.append(Rule(word))
        else:
            raise NotationError(f"{at}: {word!r} in the verdict is none of: open, draw N, points (+N/-N), a rule "
                                f"broken, a restore ({', '.join(RestoreEnd)})")
    return Verdict(outcome, opened, tuple(rules), draw, points, restore)


def _parse_highlights(text: str, at: str) -> tuple[Highlight, ...]:
    out = []
    for word in (w.strip() for w in text.split(",")):
        try:
            out.append(Highlight(word))
        except ValueError:
            raise NotationError(f"{at}: {word!r} is not a highlight: {', '.join(Highlight)}") from None
    return tuple(out)


def _parse_result(tokens: list[tuple[str, str]], at: str) -> Result | None:
    words = [text for kind, text in tokens if kind != "comment"]
    if words == [UNFINISHED]:
        return None
    if len(words) < 3 or words[1] != "wins" or not words[2].endswith(":"):
        raise NotationError(f"{at}: {_shown(' '.join(words))} is neither a turn, a tag pair, nor the result "
                            f"('Cat wins empty-rack: Ann -63, ...' or {UNFINISHED!r})")
    scores = []
    rest = words[3:]
    while rest:
        if len(rest) < 2 or not re.fullmatch(r"[+-]\d+,?", rest[1]):
            raise NotationError(f"{at}: the scores are 'name +points' split by commas, got {_shown(' '.join(rest))}")
        name, points = rest[0], rest[1]
        if rest[2:] and not points.endswith(","):
            raise NotationError(f"{at}: a comma after {points!r} before the next score")
        scores.append((name, int(points.rstrip(","))))
        rest = rest[2:]
    return Result(words[0], words[2][:-1], tuple(scores))
