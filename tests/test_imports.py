"""The runtime's module structure: no import statement inside a function patches a cycle.

The real cycles (Tensor's methods reaching the generated ops, the engine, indexing,
creation and transfer; a grad node's edge creating a leaf's AccumulateGrad) go through the
one late-bound reference, `opgrad.runtime.later`. What is left inside functions are the
optional dependencies, imported only when used.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import opgrad.runtime
from opgrad.runtime.later import MODULES, later

RUNTIME = Path(opgrad.runtime.__file__).parent

# (file under runtime/, imported module) -> why the import is inside a function
ALLOWED = {
    ("device.py", "cupy"): "optional dependency, imported when CUDA is first asked for",
    ("device.py", "cupyx.scipy.special"): "optional dependency, loaded together with CuPy",
    ("viz.py", "graphviz"): "optional dependency (opgrad[viz]), imported only to render",
    ("distributed/group.py", "opgrad.runtime.distributed"): (
        "the MPI and NCCL backends import mpi4py (optional, opgrad[distributed]), which starts MPI "
        "when imported: loaded when a process group is made"
    ),
}


def function_level_imports() -> set[tuple[str, str]]:
    found = set()
    for path in sorted(RUNTIME.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    found.update((path.relative_to(RUNTIME).as_posix(), a.name) for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    found.add((path.relative_to(RUNTIME).as_posix(), node.module or "."))
    return found


def test_no_function_level_imports_but_optional_dependencies():
    extra = function_level_imports() - set(ALLOWED)
    assert not extra, (
        f"imports inside functions in runtime/: {sorted(extra)}. Move them to the top of the module; "
        "if that makes an import cycle, reach the module through opgrad.runtime.later (add it to "
        "later.MODULES) or move the code to the module it belongs with"
    )
    assert len(ALLOWED) <= 5


def test_later_resolves_every_module_it_names():
    for name, path in MODULES.items():
        assert getattr(later, name) is sys.modules[path]
