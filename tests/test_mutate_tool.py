"""tools/mutate.py's test map names only test files that exist (a renamed test file would
otherwise silently drop out of every kernel mutant's run)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _load_tool():
    if str(ROOT / "tools") not in sys.path:
        sys.path.insert(0, str(ROOT / "tools"))  # mutate.py imports its sibling mutants.py
    spec = importlib.util.spec_from_file_location("mutate_tool", ROOT / "tools" / "mutate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_every_mapped_test_file_and_module_exists():
    tool = _load_tool()
    for module, tests in tool.TESTS.items():
        assert (ROOT / module).is_file(), f"tools/mutate.py TESTS names a missing module {module}"
        missing = [t for t in tests if not (ROOT / t.split("::")[0]).exists()]
        assert not missing, f"tools/mutate.py TESTS[{module!r}] names missing tests {missing}"
    missing = [t for t in tool.KERNEL_TESTS if not (ROOT / t).is_file()]
    assert not missing, (
        f"tools/mutate.py KERNEL_TESTS names missing test files {missing}: remove or rename them"
    )
    kernels = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "runtime/kernels/generic").glob("*.py"))
    assert all(tool.mapped_tests(k) == tool.KERNEL_TESTS or k in tool.TESTS for k in kernels)
