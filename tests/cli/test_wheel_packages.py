"""What `pip install .` ships is the product: the packages pyproject names, and no lab (the tools of
experiments that did not ship and the decision files live in lab/, the training recipe and its
synthetic tables in models/recipe/, both outside the wheel), and the demo runs from it."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path, PurePosixPath

import pytest
from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("controller", "vision", "models", "firmware_bridge")
# the modules of the synthetic tables and the training's tile designs (models/recipe/); the demo's own
# face drawer is controller/demo/tile_faces.py, the only tile_faces that ships
SYNTHESIS = ("synth.py", "tile_designs.py", "typefaces.py", "glyph_variants.py", "tile_faces.py")
DEMO_FACES = "controller/demo/tile_faces.py"


def shipped_packages() -> list[str]:
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    return find_packages(str(ROOT), include=found["include"], exclude=found.get("exclude", ()))


def test_the_wheel_ships_the_product_packages_and_no_lab():
    packages = shipped_packages()
    assert set(PRODUCT) <= set(packages)
    assert not [p for p in packages if p.split(".")[0] not in PRODUCT]
    assert not [p for p in packages if "experiments" in p or p.startswith("lab")]
    assert not [p for p in packages if p.startswith("models.recipe")]


def test_no_shipped_package_folder_holds_the_lab_tools():
    # package data is taken from inside the shipped packages' folders: none may hold the experiments' tools
    for package in shipped_packages():
        folder = ROOT / package.replace(".", "/")
        assert not (folder / "experiments").exists(), folder
        assert not (folder / "decisions").exists(), folder


def _source_copy(into: Path) -> Path:
    """The checkout's tracked files (as a clean clone has them), so that the build writes nothing into it."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    source = into / "source"
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    return source


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel `pip install .` builds, built offline from a copy of the checkout."""
    work = tmp_path_factory.mktemp("wheel")
    source = _source_copy(work)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                            "--wheel-dir", str(work / "dist"), str(source)], capture_output=True, text=True)
    assert built.returncode == 0, (
        "the wheel did not build (its backend, setuptools>=68 and wheel, comes with the test extra: "
        f"pip install -e '.[test]'):\n{built.stdout[-3000:]}{built.stderr[-3000:]}")
    (found,) = (work / "dist").glob("tileref-*.whl")
    return found


@pytest.fixture(scope="module")
def wheel_files(wheel) -> list[PurePosixPath]:
    with zipfile.ZipFile(wheel) as archive:
        return [PurePosixPath(name) for name in archive.namelist() if ".dist-info/" not in name]


def test_the_wheel_holds_the_product_and_the_shipped_models(wheel_files):
    names = {f.as_posix() for f in wheel_files}
    for model in ("tile_seg.onnx", "tile_cls.onnx", "tile_cls_int8.onnx", "occluder.onnx"):
        assert f"models/{model}" in names
    assert "controller/cli.py" in names and "vision/pipeline.py" in names
    assert DEMO_FACES in names and "controller/demo/scene.py" in names
    assert any(name.startswith("controller/demo/scene_data/") for name in names)
    assert {f.parts[0] for f in wheel_files} == set(PRODUCT)


def test_the_wheel_holds_no_lab_no_recipe_and_no_synthesis(wheel_files):
    lab = [f for f in wheel_files if f.parts[0] == "lab" or "experiments" in f.parts or "decisions" in f.parts]
    assert not lab
    assert not [f for f in wheel_files if f.parts[:2] == ("models", "recipe")]
    # what models/ ships: the ONNX files, its README and the package marker, no Python of the recipe
    assert {f.name for f in wheel_files if f.parts[0] == "models"} == {
        "__init__.py", "README.md", "tile_seg.onnx", "tile_cls.onnx", "tile_cls_int8.onnx", "occluder.onnx"}
    synthesis = [f.as_posix() for f in wheel_files if f.name in SYNTHESIS and f.as_posix() != DEMO_FACES]
    assert not synthesis


def test_the_installed_wheel_plays_the_demo(wheel, tmp_path):
    """`tileref demo` from the wheel installed in a fresh environment, run away from the checkout: what the
    demo imports at run time (its table's tile faces among it) ships."""
    env_dir = tmp_path / "env"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                                "--no-index", "--quiet", str(wheel)], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["TILEREF_KEY_DIR"] = str(tmp_path / "keys")
    # a checkout installed in editable mode (as for the tests) leaves its finder in the system's site-packages,
    # which this environment shares: it is taken out, or it would hand over from the checkout what the wheel lacks
    alone = ("import sys; sys.meta_path[:] = [f for f in sys.meta_path "
             "if not getattr(f, '__module__', '').startswith('__editable__')]; ")
    where = subprocess.run([str(python), "-c", alone + "import controller, models, vision; "
                            "print(controller.__file__, models.__file__, vision.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True)
    assert where.returncode == 0, where.stderr
    assert all(Path(p).is_relative_to(env_dir) for p in where.stdout.split()), where.stdout
    recipe = subprocess.run([str(python), "-c", alone + "import models.recipe"], cwd=tmp_path, env=env,
                            capture_output=True, text=True)
    assert recipe.returncode != 0 and "models.recipe" in recipe.stderr
    played = subprocess.run([str(python), "-c", alone + "from controller.cli import main; sys.exit(main())",
                             "demo", "--out", str(tmp_path / "out"), "--quiet"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert played.returncode == 0, played.stdout[-3000:] + played.stderr[-3000:]
    assert (env_dir / "bin" / "tileref").is_file()
    assert "game over" in played.stdout
    assert (tmp_path / "out" / "demo.sqlite").is_file()
