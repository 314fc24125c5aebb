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
