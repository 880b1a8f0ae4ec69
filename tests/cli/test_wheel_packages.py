"""What `pip install .` ships is the product: the packages pyproject names, and no lab (the tools of
experiments that did not ship live in lab/, outside every shipped package)."""
from __future__ import annotations

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[2]


def shipped_packages() -> list[str]:
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    return find_packages(str(ROOT), include=found["include"], exclude=found.get("exclude", ()))


def test_the_wheel_ships_the_product_packages_and_no_lab():
    packages = shipped_packages()
    assert {"controller", "vision", "models", "firmware_bridge"} <= set(packages)
    assert not [p for p in packages if p.split(".")[0] not in ("controller", "vision", "models", "firmware_bridge")]
    assert not [p for p in packages if "experiments" in p or p.startswith("lab")]


def test_no_shipped_package_folder_holds_the_lab_tools():
    # package data is taken from inside the shipped packages' folders: none may hold the experiments' tools
    for package in shipped_packages():
        folder = ROOT / package.replace(".", "/")
        assert not (folder / "experiments").exists(), folder
