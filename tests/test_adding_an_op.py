"""README's "Adding an operator", followed literally (the issue's "done when" for it).

The YAML, kernel and sample blocks of that section are read from README.md and applied to a
copy of the spec in a temporary folder: the ops they add (`hypot`, a binary op with
broadcasting, and `softshrink`, an op with an attribute) are generated into a package in
that folder (one render, ~1.5 s: the generator's own code path, with the package name of
the temporary folder), the diff against the checked-in `generated/` must only add blocks,
and the generated functions must match NumPy and pass gradcheck and gradgradcheck in
float64. Nothing in the real tree is touched.
"""

from __future__ import annotations

import difflib
import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import op_samples
import opgrad as og
from opgrad.codegen import generate, load_spec
from opgrad.codegen.plan import GENERATED_PACKAGE
from opgrad.codegen.reader import SpecError
from opgrad.runtime.kernels import registry

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "opgen_readme_ops"  # sorts where opgrad.generated does among the imports
NEW_OPS = ("hypot", "softshrink")


def _section() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("## Adding an operator")
    return text[start : text.index("\n## ", start + 1)]


def _blocks(lang: str, tag: str) -> list[str]:
    """The section's `lang` code blocks whose first line is `# <tag>` (without that line)."""
    found = []
    for body in re.findall(rf"```{lang}\n(.*?)```", _section(), flags=re.S):
        first, _, rest = body.partition("\n")
        if first.strip() == f"# {tag}":
            found.append(rest)
    return found


def _spec_copy(tmp: Path, backward_blocks: list[str] | None = None) -> Path:
    """ops.yaml and backward.yaml copied into `tmp`, with the README's blocks appended."""
    tmp.mkdir(parents=True, exist_ok=True)
    for name, blocks in (
        ("ops.yaml", _blocks("yaml", "ops.yaml")),
        ("backward.yaml", _blocks("yaml", "backward.yaml") if backward_blocks is None else backward_blocks),
    ):
        assert blocks, f"README's 'Adding an operator' has no `# {name}` block"
        text = (ROOT / name).read_text()
        (tmp / name).write_text(text + "\n" + "\n".join(blocks))
    return tmp


@pytest.fixture(scope="module")
def added(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, ModuleType, dict]]:
    """(spec folder, the generated ops module, OpInfos) with the README's ops added."""
    root = tmp_path_factory.mktemp("readme_op")
    spec = _spec_copy(root / "spec")
    # step 3: the kernels, registered as the README's module code does
    kernels = _blocks("python", "runtime/kernels/generic/binary.py") + _blocks(
        "python", "runtime/kernels/generic/activations.py"
    )
    assert len(kernels) == 2
    for code in kernels:
        exec(compile(code, "README.md", "exec"), {})  # noqa: S102 - our own README
    # step 5: the samples, evaluated where tests/op_samples.py's _INFOS are
    infos = {}
    for code in _blocks("python", "tests/op_samples.py, in _INFOS"):
        info = eval(code, vars(op_samples))  # noqa: S307 - our own README
        infos[info.name] = info
    assert sorted(infos) == sorted(NEW_OPS)
    package = root / PACKAGE
    package.mkdir()
    for name, text in generate(spec, PACKAGE).items():
        (package / name).write_text(text)
    sys.path.insert(0, str(root))
    try:
        yield spec, importlib.import_module(f"{PACKAGE}.ops"), infos
    finally:
        sys.path.remove(str(root))
        for mod in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[mod]
        registry.unregister_kernel("hypot", ("cpu", "cuda"))
        registry.unregister_kernel("softshrink", ("cpu", "cuda"))


def test_adding_the_ops_only_adds_blocks(added):
    """The package name appears only in import lines: the checked-in files, with it
    substituted, are what the spec gave before the README's additions."""
    spec, ops, _ = added
    out = Path(ops.__file__).parent
    inserted = 0
    for path in sorted(out.glob("*.py")):
        old = (ROOT / "generated" / path.name).read_text()
        old = old.replace("from opgrad import generated as", f"import {PACKAGE} as")  # tensor_methods.py
        old = old.replace(GENERATED_PACKAGE, PACKAGE).splitlines()
        new = path.read_text().splitlines()
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            assert tag == "insert", f"{path.name}: existing lines changed: {old[i1:i2]} -> {new[j1:j2]}"
            block = "\n".join(new[j1:j2])
            assert re.search("hypot|softshrink", block, flags=re.I), f"{path.name}: unrelated lines {block!r}"
            inserted += j2 - j1
    # per op: its function with a full docstring, a grad node, the method with its docstring
    assert 0 < inserted <= 250, f"adding two ops inserted {inserted} lines"


@pytest.mark.parametrize("name", NEW_OPS)
def test_forward_matches_numpy(added, name):
    _, ops, infos = added
    info = infos[name]
    for sample in info.sample_list():
        args = [og.tensor(a) if isinstance(a, np.ndarray) else a for a in sample.args]
        out = getattr(ops, name)(*args, **sample.kwargs)
        expected = np.asarray(info.ref(*sample.args, **sample.kwargs))
        assert out.shape == expected.shape and out.dtype == expected.dtype, sample.describe()
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-14, err_msg=sample.describe())


@pytest.mark.parametrize("name", NEW_OPS)
def test_gradients_of_every_order_match_finite_differences(added, name):
    _, ops, infos = added
    info = infos[name]
    checked = 0
    for sample in info.sample_list():
        positions = [i for i in info.diff_args if isinstance(sample.args[i], np.ndarray)]
        leaves = [og.tensor(sample.args[i], requires_grad=True) for i in positions]
        assert all(leaf.dtype == np.float64 for leaf in leaves)

        def fn(*ts, sample=sample, positions=positions):
            args = list(sample.args)
            for i, t in zip(positions, ts, strict=True):
                args[i] = t
            return getattr(ops, name)(*args, **sample.kwargs)

        assert og.testing.gradcheck(fn, leaves, raise_exception=True)
        assert og.testing.gradgradcheck(fn, leaves, raise_exception=True)
        checked += 1
    assert checked >= 3


def test_hypot_broadcasts_and_reduces_each_gradient_to_its_input(added):
    _, ops, _ = added
    x = og.tensor(np.array([[3.0], [5.0]]), requires_grad=True)
    y = og.tensor(np.array([4.0, 12.0, 0.0]), requires_grad=True)
    out = ops.hypot(x, y)
    assert out.shape == (2, 3)
    out.sum().backward()
    assert x.grad.shape == (2, 1) and y.grad.shape == (3,)
    r = np.hypot(x.numpy(), y.numpy())
    np.testing.assert_allclose(x.grad.numpy(), (x.numpy() / r).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(y.grad.numpy(), (y.numpy() / r).sum(axis=0))


def test_softshrink_checks_its_attribute(added):
    _, ops, _ = added
    with pytest.raises(TypeError, match="softshrink.*lambd"):
        ops.softshrink(og.tensor([1.0]), lambd="big")


def test_the_no_gradient_example_is_valid_and_its_omission_is_named(tmp_path):
    (variant,) = _blocks("yaml", "backward.yaml (y without a gradient)")
    blocks = [b for b in _blocks("yaml", "backward.yaml") if "hypot_grad" not in b] + [variant]
    spec = load_spec(_spec_copy(tmp_path / "ok", blocks))
    assert spec.backward("hypot_grad").no_gradient == ("y",)
    without = [b.replace("  no_gradient: y\n", "") if b is variant else b for b in blocks]
    with pytest.raises(SpecError) as info:
        load_spec(_spec_copy(tmp_path / "bad", without))
    assert any(
        "input 'y' gets no gradient: add 'y_grad' to `output`, or list 'y' under `no_gradient`" in e
        for e in info.value.errors
    ), info.value.errors


def test_the_no_need_buffer_check_runs():
    (code,) = [b for b in re.findall(r"```python\n(.*?)```", _section(), flags=re.S) if "weakref" in b]
    exec(compile(code, "README.md", "exec"), {})  # noqa: S102 - our own README: it asserts


def test_the_readme_names_every_place_a_contributor_touches():
    section = _section()
    for place in (
        "ops.yaml",
        "backward.yaml",
        "runtime/kernels/generic/",
        "python -m opgrad.codegen",
        "tests/op_samples",
        "GRAD_CASES",
        "tests/test_kernels.py",
        "docs/autograd.md",
        "no_gradient:",
        "no_need_buffer",
        "_double_grad",
    ):
        assert place in section, f"README's 'Adding an operator' no longer mentions {place!r}"
