"""The records own the database's schema registry; the tournament director depends on the records,
never the other way round. The check reads every import statement of the records' modules,
those inside functions too (an import done late is still a dependency)."""
from __future__ import annotations

import ast
from pathlib import Path

import controller.records

RECORDS = Path(controller.records.__file__).parent


def package_of(path: Path) -> str:
    """The package a file of the records belongs to (controller.records or one of its subpackages)."""
    inside = path.parent.relative_to(RECORDS).parts if path.is_relative_to(RECORDS) else ()
    return ".".join(("controller", "records", *inside))


def imports_of(path: Path) -> set[str]:
    """The absolute names of the modules a file imports, relative imports resolved."""
    package = package_of(path)
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                names.add(f"{base}.{node.module}" if node.module else base)
            else:
                names.add(node.module)
    return names


def test_the_import_walk_sees_late_imports_and_relative_ones(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from .store import Records\ndef f():\n    from ..tournament import storage\n", encoding="utf-8")
    assert imports_of(sample) == {"controller.records.store", "controller.tournament"}


def test_no_module_of_the_records_imports_the_tournament_director():
    modules = sorted(RECORDS.rglob("*.py"))
    assert RECORDS / "store.py" in modules and RECORDS / "reports" / "views.py" in modules
    offending = {path.relative_to(RECORDS).as_posix():
                 sorted(name for name in imports_of(path) if name.startswith("controller.tournament"))
                 for path in modules}
    assert {name: found for name, found in offending.items() if found} == {}


def test_the_tournament_takes_its_table_names_from_the_records_registry():
    from controller.records.schema import tables as schema_tables
    from controller.tournament import storage

    assert storage.known_tables is schema_tables.known_tables
    assert all(name.startswith("tournament_") for name in schema_tables.TOURNAMENT_TABLES)
    assert not schema_tables.RECORDS_TABLES & schema_tables.TOURNAMENT_TABLES
    assert schema_tables.known_tables() >= {"events", "games", "tournament_events", "tournament_results"}
