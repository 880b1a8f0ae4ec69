"""The user's documents point only at what a user of the installed program has.

A page naming `../shared/...` (the developers' folder beside the repository) or the developers'
digest `RULES.md` sends a reader to files that were never installed; the source documents are
credited by name instead (docs/rules.md)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
USER_PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
OUTSIDE = re.compile(r"\.\./shared|\bshared/(seeds|RULES|datasets)|\bRULES\.md\b")


@pytest.mark.parametrize("page", USER_PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_page_points_at_nothing_outside_the_project(page):
    found = [
        f"{page.name}:{number}: {line.strip()}"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not found, "\n".join(found)


def test_rules_page_credits_the_source_documents_by_name():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for name in ("Kuwana", "Original Classic Rummikub", "Mistrzostwa Warszawy"):
        assert name in text, name
