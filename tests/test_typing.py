"""Typing: what the annotations promise holds for a type checker and at run time.

tests/typing/usage.py is typical user code (numbers as operands, int[] arguments as ints or
sequences, nn/optim) plus mistakes marked `# type: ignore[<code>]`. mypy must accept the
first and reject each mistake with that code (`warn_unused_ignores`); and the code must do
at run time what mypy was told: the accepted functions run, each mistake raises.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import opgrad as og

ROOT = Path(__file__).resolve().parents[1]
USAGE = ROOT / "tests" / "typing" / "usage.py"


def load_usage() -> ModuleType:
    spec = importlib.util.spec_from_file_location("typing_usage", USAGE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mypy_accepts_the_usage_and_rejects_each_marked_mistake() -> None:
    pytest.importorskip("mypy")
    # The options of `nox -s lint` and CI's typecheck step, so the run reuses their cache
    # (.mypy_cache; cold ~15 s, warm <1 s); errors in opgrad itself fail it too.
    proc = subprocess.run(
        [sys.executable, "tools/typecheck.py", str(USAGE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success: no issues found in 1 source file" in proc.stdout


def test_the_usage_runs_as_typed() -> None:
    usage = load_usage()
    x = og.tensor(np.arange(1.0, 7.0).reshape(2, 3))
    assert usage.ops_take_numbers(x).shape == (2, 3)
    assert np.isfinite(usage.attributes(og.tensor(np.arange(1.0, 7.0).reshape(3, 2))).item())
    assert usage.tensors_and_autograd() == pytest.approx(12.0 + 0.0 + 2)
    assert np.isfinite(usage.training_step())


def rejected_lines() -> list[str]:
    tree = ast.parse(USAGE.read_text())
    (func,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "rejected"]
    lines = [ast.unparse(stmt) for stmt in func.body]
    assert len(lines) >= 5
    return lines


@pytest.mark.parametrize("line", rejected_lines())
def test_each_mistake_mypy_rejects_also_fails_at_run_time(line: str) -> None:
    x = og.tensor(np.ones((2, 3)))
    with pytest.raises((TypeError, AttributeError)):
        exec(line, {"og": og, "x": x})


def load_typecheck() -> ModuleType:
    spec = importlib.util.spec_from_file_location("typecheck_tool", ROOT / "tools" / "typecheck.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_typecheck_builds_the_installed_layout_from_package_dir(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    tool = load_typecheck()
    (tmp_path / "pyproject.toml").write_text(
        '[tool.setuptools.package-dir]\n"pkg" = "pkg"\n"pkg.core" = "src_core"\n"pkg.gen" = "out/gen"\n'
    )
    for folder in ("pkg", "src_core", "out/gen"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "src_core" / "tensor.py").write_text("X = 1\n")
    stale = tmp_path / tool.LAYOUT / "pkg" / "gone"
    stale.mkdir(parents=True)  # left by an earlier mapping: must not survive

    back = tool.build_layout(tmp_path)

    tree = tmp_path / tool.LAYOUT / "pkg"
    assert (tree / "core" / "tensor.py").read_text() == "X = 1\n"  # through the link
    assert (tree / "core").is_symlink() and (tree / "gen").is_symlink()
    assert (tree / "__init__.py").is_symlink() and not tree.is_symlink()  # the parent's files
    assert not stale.exists()
    layout = tool.LAYOUT.as_posix()
    report = f"{layout}/pkg/core/tensor.py:1: error: x\n{layout}/pkg/a.py:2: e"
    assert tool.source_paths(report, back) == "src_core/tensor.py:1: error: x\npkg/a.py:2: e"
