"""The layout rules: imports flow one way, the table's loop names ports not libraries, and no code
hands the records a state it typed itself (the journals derive it from the machines)."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def modules(folder: str):
    for path in sorted((ROOT / folder).rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def imported(tree: ast.AST, top_level_only: bool = False) -> set[str]:
    nodes = tree.body if top_level_only else ast.walk(tree)
    names = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("folder", ["vision", "firmware_bridge"])
def test_vision_and_the_bridge_never_import_the_controller(folder):
    bad = {f"{path.relative_to(ROOT)}: {name}" for path, tree in modules(folder)
           for name in imported(tree) if name.split(".")[0] == "controller"}
    assert not bad


def test_the_rules_core_imports_nothing_of_ours_outside_itself():
    ours = ("controller", "vision", "firmware_bridge", "models")
    bad = {f"{path.relative_to(ROOT)}: {name}" for path, tree in modules("controller/rules")
           for name in imported(tree) if name.split(".")[0] in ours and not name.startswith("controller.rules")}
    assert not bad


def test_the_table_loop_imports_no_image_library():
    bad = {f"{path.relative_to(ROOT)}: {name}" for path, tree in modules("controller/table")
           for name in imported(tree, top_level_only=True) if name.split(".")[0] in ("cv2", "numpy", "serial")}
    assert not bad


def test_the_table_loop_and_its_ports_load_no_camera_net_or_serial_link():
    # not only its own imports: the messages its ports carry come from the adapters' value
    # modules (waiting, signals, desk), which need no camera, net or serial link
    probe = ("import sys, controller.table; "
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'cv2', 'numpy', 'onnxruntime', 'serial', 'vision', 'firmware_bridge'}))")
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"


def test_no_code_hands_the_records_a_state_typed_by_hand():
    bad = []
    for folder in ("controller", "benchmarks"):
        for path, tree in modules(folder):
            for node in ast.walk(tree):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in ("append", "start_game")):
                    for keyword in node.keywords:
                        if keyword.arg == "state" and isinstance(keyword.value, (ast.Constant, ast.JoinedStr, ast.IfExp)):
                            bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bad
