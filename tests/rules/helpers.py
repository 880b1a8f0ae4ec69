"""Short notation for tests: a table is written "R5 R6 R7 | K1 B1 O1"."""
from __future__ import annotations

from controller.rules.judge import Verdict, judge_turn
from controller.rules.table import Table
from controller.rules.tiles import parse_tiles
from controller.rules.variants import get_ruleset


def table(text: str) -> Table:
    text = text.strip()
    if not text:
        return Table(())
    return Table.from_codes([part.split() for part in text.split("|")])


def tiles(text: str):
    return parse_tiles(text.split())


def judge(variant, before: str, after: str, opened: bool = True, rack: str | None = None) -> Verdict:
    return judge_turn(
        table(before), table(after), opened, get_ruleset(variant), tiles(rack) if rack is not None else None
    )


def rules(verdict: Verdict) -> list[str]:
    return [violation.rule.value for violation in verdict.violations]
