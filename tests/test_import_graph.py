"""No module of ours imports itself round a circle. Every import statement counts, those inside
functions (a late import is still a dependency, only a hidden one) and under `if TYPE_CHECKING`
too, relative ones resolved to the module they name. A circle is broken by moving what both
sides need to where it belongs, never by importing it late."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("vision", "controller", "models", "firmware_bridge")


@dataclass(frozen=True)
class Import:
    target: str  # the module of ours it names
    line: int


def modules_under(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Each module's dotted name and its file (a package is its __init__.py)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _ours(name: str, modules: dict[str, Path]) -> str | None:
    """The module of ours `name` is or lies in (`a.b.f` for a function f of module a.b: a.b)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """The modules of ours that `module` imports, wherever the statement stands. Importing a.b.c
    also runs a/__init__.py and a/b/__init__.py first, but those are not counted: a package's
    __init__ that gathers its modules' names would otherwise be a circle with every one of them."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            base = ".".join(part for part in ((base if node.level else ""), node.module or "") if part)
            # `from a import b`: b may be a module of a (then that module is imported) or a name in a
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        for name in names:
            target = _ours(name, modules)
            if target is not None and target != module:
                found.append(Import(target, node.lineno))
    return found


def import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """module -> {module it imports: the line of its first such import}."""
    modules = modules_under(root, packages)
    graph: dict[str, dict[str, int]] = {}
    for module, path in modules.items():
        edges: dict[str, int] = {}
        for found in imports_of(module, path, modules):
            edges.setdefault(found.target, found.line)
        graph[module] = edges
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The groups of modules that reach each other through imports (Tarjan's strongly connected
    components of two or more modules), each sorted, without recursion."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return groups


def one_round(group: list[str], graph: dict[str, dict[str, int]]) -> str:
    """One way round the group, with the line of each import: `a (line 3) -> b (line 40) -> a`."""
    members = set(group)
    start = group[0]
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier and start not in came_from:
        following = []
        for node in frontier:
            for target in sorted(graph[node]):
                if target in members and target not in came_from:
                    came_from[target] = node
                    following.append(target)
        frontier = following
    path = [start]
    while path[-1] != start or len(path) == 1:
        path.append(came_from[path[-1]])
    path.reverse()
    return " -> ".join(f"{node} (line {graph[node][nxt]})" for node, nxt in zip(path, path[1:])) + f" -> {start}"


def circle_report(root: Path, packages: tuple[str, ...]) -> list[str]:
    graph = import_graph(root, packages)
    return [f"{', '.join(group)}: {one_round(group, graph)}" for group in circles(graph)]


def test_no_module_of_ours_imports_itself_round_a_circle():
    found = circle_report(ROOT, PACKAGES)
    assert not found, "import circles (move what both sides need where it belongs):\n" + "\n".join(found)


def test_the_walk_sees_every_module_of_the_shipped_packages():
    modules = modules_under(ROOT, PACKAGES)
    assert {"controller.records.store", "controller.records.reports.views", "vision", "firmware_bridge"} <= set(modules)
    assert len(modules) > 200


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_a_late_relative_import_closing_a_circle_is_found_and_named(tmp_path):
    root = _package(tmp_path, {
        "pkg/__init__.py": "from .low import helper\n",
        "pkg/low.py": "def helper():\n    from .sub.high import thing  # late\n    return thing\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/high.py": "from ..low import helper\nthing = helper\n",
        "pkg/alone.py": "import pkg.low\n",
    })
    found = circle_report(root, ("pkg",))
    assert found == ["pkg.low, pkg.sub.high: pkg.low (line 2) -> pkg.sub.high (line 1) -> pkg.low"]


def test_imports_for_type_checking_and_of_sibling_modules_count(tmp_path):
    root = _package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/one.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import two\n",
        "pkg/two.py": "import pkg.three\n",
        "pkg/three.py": "from pkg.one import name\n",
    })
    assert circles(import_graph(root, ("pkg",))) == [["pkg.one", "pkg.three", "pkg.two"]]


def test_a_package_gathering_its_modules_names_is_no_circle(tmp_path):
    root = _package(tmp_path, {
        "pkg/__init__.py": "from .one import name\n",
        "pkg/one.py": "from .two import other\nname = other\n",
        "pkg/two.py": "other = 1\n",
    })
    assert import_graph(root, ("pkg",)) == {"pkg": {"pkg.one": 1}, "pkg.one": {"pkg.two": 1}, "pkg.two": {}}
    assert circles(import_graph(root, ("pkg",))) == []
