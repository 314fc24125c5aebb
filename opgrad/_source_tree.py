"""In the source tree, load opgrad.runtime, .generated and .codegen from their folders.

Installed (a wheel, or `pip install -e`), the three subpackages live where pyproject's
package-dir puts them, and this does nothing. In the source tree, the `opgrad/` folder
holds only the facade, and it shadows an installed opgrad whenever the tree's root comes
first on sys.path (`python -m pytest` or `python -c` from the root): the subpackages are
then loaded from the folders beside it, so the tree imports as it stands, whatever is
installed. `opgrad/__init__.py` imports this module before anything else.
"""

from __future__ import annotations

import sys
from importlib import util
from pathlib import Path

SUBPACKAGES = ("runtime", "generated", "codegen")


def load_beside(package: str, here: Path) -> None:
    """Load `package.<name>` from `here.parent/<name>` for each subpackage that `here` (the
    package's folder) does not hold itself and that is not loaded yet."""
    for name in SUBPACKAGES:
        full = f"{package}.{name}"
        init = here.parent / name / "__init__.py"
        if full in sys.modules or (here / name).is_dir() or not init.is_file():
            continue
        spec = util.spec_from_file_location(full, init, submodule_search_locations=[str(init.parent)])
        assert spec is not None and spec.loader is not None
        module = util.module_from_spec(spec)
        sys.modules[full] = module
        spec.loader.exec_module(module)
        setattr(sys.modules[package], name, module)  # what the import system does for a submodule


load_beside(__name__.rpartition(".")[0], Path(__file__).resolve().parent)
