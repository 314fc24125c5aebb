"""Run mypy on opgrad as it installs: `python tools/typecheck.py [mypy arguments]`.

pyproject.toml's package-dir maps folders to import names that their paths do not spell
(`opgrad.runtime` lives in runtime/, `opgrad.generated` in generated/, `opgrad.codegen` in
codegen/). mypy finds modules by path only, and it cannot follow the import hook of an
editable install, so this builds the installed layout as a tree of symlinks,
`.mypy_cache/layout/opgrad/` (`runtime -> ../../../runtime`, ...), from pyproject's
package-dir, which `[tool.mypy] mypy_path` points at. Then it runs mypy with the given
arguments (none: the `packages` and `files` of `[tool.mypy]`) and prints mypy's report with
the link paths turned back into the source paths (`.mypy_cache/layout/opgrad/runtime/x.py`
-> `runtime/x.py`). Once the tree exists, plain `mypy` works too (with link paths).
Exits with mypy's status.
"""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from pathlib import Path

try:
    from mypy import api
except ImportError:  # pragma: no cover - depends on the environment
    sys.exit("typecheck: mypy is not installed; it is in the dev extra: pip install -e '.[dev]'")

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = Path(".mypy_cache") / "layout"  # relative to ROOT; [tool.mypy] mypy_path names it


def package_dirs(root: Path) -> dict[str, str]:
    """pyproject's [tool.setuptools.package-dir]: import name -> source folder."""
    config = tomllib.loads((root / "pyproject.toml").read_text())
    return dict(config["tool"]["setuptools"]["package-dir"])


def build_layout(root: Path) -> dict[str, str]:
    """Make `<root>/.mypy_cache/layout/<package path>` link to each package's folder; a package
    whose parent is mapped too becomes a link inside its parent's folder in the tree (the
    parent's own files are linked one by one). Returns {link path: source path}, relative to
    root, for turning mypy's paths back."""
    mapping = package_dirs(root)
    tree = root / LAYOUT
    shutil.rmtree(tree, ignore_errors=True)  # built anew: no link outlives its mapping
    back: dict[str, str] = {}
    for name, folder in sorted(mapping.items()):
        target = tree.joinpath(*name.split("."))
        source = root / folder
        if any(other.startswith(name + ".") for other in mapping):
            # A parent package: a real folder holding links to its files (its subpackages
            # get their own links below).
            target.mkdir(parents=True, exist_ok=True)
            for path in sorted(source.iterdir()):
                if path.is_file():
                    _link(target / path.name, path)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            _link(target, source)
        back[f"{target.relative_to(root).as_posix()}/"] = f"{Path(folder).as_posix()}/"
    return back


def _link(link: Path, source: Path) -> None:
    link.symlink_to(os.path.relpath(source, link.parent), target_is_directory=source.is_dir())


def source_paths(text: str, back: dict[str, str]) -> str:
    """mypy's report with link paths turned into source paths (longest link first)."""
    for link in sorted(back, key=len, reverse=True):
        text = text.replace(link, back[link])
    return text


def main(argv: list[str]) -> int:
    # mypy reads pyproject.toml (its config) from the working directory: run from the root,
    # with the paths given relative to where this was started.
    argv = [str(Path(a).resolve()) if not a.startswith("-") and Path(a).exists() else a for a in argv]
    os.chdir(ROOT)
    back = build_layout(ROOT)
    stdout, stderr, status = api.run(argv)
    sys.stdout.write(source_paths(stdout, back))
    sys.stderr.write(source_paths(stderr, back))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
