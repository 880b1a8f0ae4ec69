"""The static audit page (`tileref audit --out`, `tileref demo`) is rendered by Jinja2 templates with
autoescaping, shipped as package data, and shares its regions with the web audit page."""
from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from starlette.testclient import TestClient

from controller.records import Records
from controller.records.reports.templating import environment
from controller.records.reports.views import audit_html
from controller.web.app import create_app
from controller.web.templating import environment as web_environment
from game.test_same_set import reversed_run_game

ROOT = Path(__file__).resolve().parents[2]
EVIL = ("<script>alert(1)</script>", "Ben & 'Co'")


def test_names_reach_the_static_page_only_escaped(tmp_path):
    db = tmp_path / "r.sqlite"
    game = reversed_run_game(db, EVIL)
    with Records(db, create=False) as records:
        page = audit_html(records, game, 1)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Ben &amp; &#39;Co&#39;" in page
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</body></html>")
    assert "<h2>What changed</h2>" in page and "set new or changed" in page


def test_the_templates_are_package_data():
    """`pip install .` ships them: the package-data globs of pyproject.toml match every template."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["*"]
    templates = ROOT / "controller" / "records" / "reports" / "templates"
    names = sorted(p.name for p in templates.glob("*.html"))
    assert {"audit_page.html", "audit_regions.html", "clock_audit_page.html"} <= set(names)
    for name in names:
        assert any(fnmatch.fnmatch(f"templates/{name}", g) for g in globs), name
    assert environment().autoescape is True


def test_the_web_audit_page_uses_the_shared_regions(tmp_path):
    source = web_environment().loader.get_source(web_environment(), "audit.html")[0]
    assert 'from "records/audit_regions.html" import' in source
    db = tmp_path / "r.sqlite"
    game = reversed_run_game(db, EVIL)
    page = TestClient(create_app(db)).get(f"/games/{game}/turns/1").text
    assert "set new or changed" in page and "<script>alert" not in page
