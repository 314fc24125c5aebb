"""Packaging: runtime/, generated/ and codegen/ install as one import package, `opgrad`.

pyproject.toml maps the three top-level folders (and opgrad/, the facade) into `opgrad.*`
with setuptools' package-dir. These tests check both ways of installing it: the wheel
(built from a clean copy of the tree, installed into a fresh virtualenv, imported from a
folder where the source tree is out of reach) and the editable install the developer and
CI virtualenvs use; and that the source tree imports as it stands from its root, with the
wheel installed too (the root's `opgrad/` folder shadows it, see `opgrad/_source_tree.py`).
The wheel tests take ~20 s and need the package index (for the build
backend and numpy/pyyaml/jinja2), so they are marked slow; CI runs them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# What a clean copy of the source tree leaves out before a wheel is built from it.
NOT_SOURCE = (".git", ".venv*", ".nox", "build", "dist", "*.egg-info", "__pycache__", ".*_cache")
PACKAGES = ("opgrad", "opgrad.runtime", "opgrad.generated", "opgrad.codegen")
# Prints {module name: module file} for PACKAGES as JSON.
REPORT_FILES = (
    "import json, importlib; "
    f"print(json.dumps({{n: importlib.import_module(n).__file__ for n in {PACKAGES!r}}}))"
)


def package_dirs() -> dict[str, Path]:
    """pyproject's [tool.setuptools.package-dir]: import name -> source folder."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    mapping = config["tool"]["setuptools"]["package-dir"]
    return {name: ROOT / folder for name, folder in mapping.items()}


def run(cmd: list[str], cwd: Path) -> str:
    """Run cmd with a clean PYTHONPATH; return stdout, or fail showing all output."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        pytest.fail(
            f"{' '.join(cmd)} exited {proc.returncode} (cwd {cwd})\n"
            f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}",
            pytrace=False,
        )
    return proc.stdout


def imported_files(python: Path | str, cwd: Path) -> dict[str, Path]:
    out = run([str(python), "-c", REPORT_FILES], cwd=cwd)
    return {name: Path(file).resolve() for name, file in json.loads(out.splitlines()[-1]).items()}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The opgrad wheel, built by pip from a clean copy of this tree.

    The copy keeps a stale build/ in the checkout out of the wheel (setuptools never prunes
    build/lib) and keeps the build from writing into the checkout.
    """
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    dist = work / "dist"
    run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(dist)], cwd=work)
    (built,) = dist.glob("opgrad-*.whl")
    return built


@pytest.mark.slow
def test_wheel_holds_every_source_file_under_opgrad(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    top_level = {name.split("/", 1)[0] for name in names}
    assert {t for t in top_level if not t.endswith(".dist-info")} == {"opgrad"}

    expected = set()
    for package, folder in package_dirs().items():
        prefix = package.replace(".", "/")
        for path in folder.rglob("*"):
            rel = path.relative_to(folder)
            if path.is_dir() or "__pycache__" in rel.parts:
                continue
            if path.suffix == ".py" or rel.parts[0] == "templates":
                expected.add(f"{prefix}/{rel.as_posix()}")
    # PEP 561: type checkers read an installed package's annotations only if it has py.typed.
    expected.add("opgrad/py.typed")
    missing = sorted(expected - names)
    assert not missing, (
        f"files missing from {wheel.name} (add their packages to [tool.setuptools] packages "
        f"or package-data in pyproject.toml): {missing}"
    )


@pytest.fixture(scope="module")
def wheel_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv with the wheel installed (not editable) with its test extra, as
    `pip install '.[test]'` gives a contributor (pytest, hypothesis for tests/conftest.py)."""
    venv = tmp_path_factory.mktemp("wheel_venv") / "venv"
    run([sys.executable, "-m", "venv", str(venv)], cwd=venv.parent)
    python = venv / "bin" / "python"
    # Dependencies (numpy, pyyaml, jinja2) come from the package index, as for a user.
    run([str(python), "-m", "pip", "install", "-q", f"{wheel}[test]"], cwd=venv.parent)
    return venv


@pytest.mark.slow
def test_wheel_installs_into_fresh_venv_and_imports_outside_source_tree(
    wheel_venv: Path, tmp_path: Path
) -> None:
    venv = wheel_venv
    python = venv / "bin" / "python"
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    files = imported_files(python, cwd=outside)
    site_packages = next((venv / "lib").glob("python3*/site-packages")).resolve()
    for name in PACKAGES:
        expected = site_packages.joinpath(*name.split("."), "__init__.py")
        assert files[name] == expected, f"{name} imported from {files[name]}, expected {expected}"
        assert not files[name].is_relative_to(ROOT)
    assert (venv / "bin" / "opgrad-codegen").exists(), "the opgrad-codegen console script was not installed"


@pytest.mark.slow
def test_tests_run_from_the_root_with_the_wheel_installed(wheel_venv: Path) -> None:
    """`pip install .` then `python -m pytest` from the root: the root's opgrad/ folder (the
    facade) comes first on sys.path and shadows the wheel, so the tree must import as it
    stands, every package from the tree (no mix of tree and wheel)."""
    python = wheel_venv / "bin" / "python"
    files = imported_files(python, cwd=ROOT)
    for name, folder in package_dirs().items():
        assert files[name] == (folder / "__init__.py").resolve(), f"{name} imported from {files[name]}"
    out = run(
        [
            str(python),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_tensor.py",
            "tests/test_imports.py",
        ],
        cwd=ROOT,
    )
    assert " passed" in out.splitlines()[-1]


def test_the_tree_imports_as_it_stands_from_the_root() -> None:
    """From the root, with the root first on sys.path (as `python -m pytest` puts it),
    every package comes from the tree, whatever is installed."""
    files = imported_files(sys.executable, cwd=ROOT)
    for name, folder in package_dirs().items():
        assert files[name] == (folder / "__init__.py").resolve(), f"{name} imported from {files[name]}"


def test_editable_install_maps_packages_to_source_folders(tmp_path: Path) -> None:
    # A subprocess in a folder outside the tree, so only the install (not the cwd) decides.
    files = imported_files(sys.executable, cwd=tmp_path)
    if not files["opgrad"].is_relative_to(ROOT):
        message = f"opgrad is not an editable install of {ROOT} (it is {files['opgrad']})"
        if os.environ.get("CI"):
            pytest.fail(f"{message}; CI installs it with pip install -e")
        pytest.skip(message)
    for name, folder in package_dirs().items():
        assert files[name] == (folder / "__init__.py").resolve(), f"{name} imported from {files[name]}"
