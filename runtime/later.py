"""The runtime's one late-bound reference, for its real import cycles.

`Tensor` is what every other runtime module builds on, yet a few of its methods call
modules that import `Tensor` themselves: the generated ops (operators, `astype`, `.T`), the
engine (`backward`), indexing (`[]`), creation (the constructor's conversions) and transfer
(`.to(device)`). Likewise a grad node's edge to a leaf creates the leaf's `AccumulateGrad`,
which lives with the leaf accumulation in `grad_holder`, a module that builds on
`grad_node`. These are cycles by nature, so such calls go through `later`: each module is
imported on its first use, after every module has loaded, and then kept as a plain
attribute (later calls cost one attribute read, less than an import statement).
"""

from __future__ import annotations

import importlib
from types import ModuleType

# attribute of `later` -> the module it stands for
MODULES = {
    "ops": "opgrad.generated.ops",
    "engine": "opgrad.runtime.engine",
    "indexing": "opgrad.runtime.indexing",
    "creation": "opgrad.runtime.creation",
    "transfer": "opgrad.runtime.transfer",
    "grad_holder": "opgrad.runtime.grad_holder",
    "dlpack": "opgrad.runtime.dlpack",
}


class _Later:
    """`later.<name>` is the module `MODULES[name]`, imported on first use."""

    def __getattr__(self, name: str) -> ModuleType:
        path = MODULES.get(name)
        if path is None:
            raise AttributeError(f"later has no module {name!r}; known: {', '.join(MODULES)}")
        module = importlib.import_module(path)
        setattr(self, name, module)  # later reads find the instance attribute directly
        return module


later = _Later()
