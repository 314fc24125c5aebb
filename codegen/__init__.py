"""The opgrad generator: ops.yaml + backward.yaml -> `generated/*.py`.

Parse (`loader.py`, `reader.py`, `model.py`, `signature.py`), validate (`validate.py`,
`composite.py`), plan (`plan.py` with `plan_parts.py`, `plan_forward.py`, `plan_nodes.py`;
names from `naming.py`), render (`render.py`, `templates/`, the fixed layout in `layout.py`),
write (`writer.py`); the docstrings come from `docs.py`, the reference page docs/ops.md
from `docs_page.py`. Every spec error is collected and reported at once as
`file:line: op 'name': what is wrong`. The YAML keys are documented in `model.py`. Run it
as `python -m opgrad.codegen` (see `__main__.py`).
"""

from __future__ import annotations

from pathlib import Path

from opgrad.codegen.docs_page import render_page
from opgrad.codegen.loader import LoadError, load_entries
from opgrad.codegen.model import BackwardSpec, OpSpec
from opgrad.codegen.plan import GENERATED_PACKAGE, build_plan
from opgrad.codegen.reader import Problems, SpecError
from opgrad.codegen.render import render
from opgrad.codegen.validate import Spec, validate

__all__ = ["SpecError", "generate", "load_spec", "reference_page"]

OPS_FILE = "ops.yaml"
BACKWARD_FILE = "backward.yaml"


def load_spec(spec_dir: Path) -> Spec:
    """Read and validate `ops.yaml` and `backward.yaml` from `spec_dir`.

    Raises `SpecError` listing every problem found (in both files).
    """
    problems = Problems()
    load_problems = Problems()
    ops: list[OpSpec] = []
    backwards: list[BackwardSpec] = []
    all_names: set[str] = set()
    for file_name, parse, into, key in (
        (OPS_FILE, OpSpec.from_yaml, ops, "op"),
        (BACKWARD_FILE, BackwardSpec.from_yaml, backwards, "backward_op"),
    ):
        path = spec_dir / file_name
        if not path.is_file():
            load_problems.add_raw(file_name, 0, f"{file_name}: file not found in {spec_dir}")
            continue
        try:
            shown, entries = load_entries(path, file_name)
        except LoadError as exc:
            for line, message in exc.problems:
                load_problems.add_raw(file_name, line, message)
            continue
        if not entries and file_name == OPS_FILE:
            load_problems.add_raw(file_name, 1, f"{file_name}:1: no ops: the file has no entries")
        for entry in entries:
            name = entry.get(key)
            if isinstance(name, str):
                all_names.add(name)
            parsed = parse(entry, shown, problems)
            if parsed is not None:
                into.append(parsed)  # type: ignore[arg-type]
    # A file that is missing or not YAML makes cross-file checks noise: report it alone.
    load_problems.raise_if_any()
    spec = validate(ops, backwards, all_names, problems)
    problems.raise_if_any()
    return spec


def generate(spec_dir: Path, package: str = GENERATED_PACKAGE) -> dict[str, str]:
    """File name -> text of every file the spec in `spec_dir` generates.

    `package` is where the generated modules import each other from (tests generate
    fixture specs into a package of their own).
    """
    return render(build_plan(load_spec(spec_dir), package))


def reference_page(spec_dir: Path) -> str:
    """The text of docs/ops.md, the operator reference, for the spec in `spec_dir`."""
    return render_page(load_spec(spec_dir))
