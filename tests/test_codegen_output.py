"""What the generator writes: deterministic, formatted, current, and working code.

The fixture spec in tests/fixtures/codegen/ covers every feature (no_need_buffer,
intermediate and non-differentiable outputs, Tensor[] in and out, optional tensors,
attributes of each type, composites, a double backward, a grad op without backward);
it is generated into a temporary package and run through the real runtime with the
small `fx_*` NumPy kernels registered below.
"""

from __future__ import annotations

import gc
import importlib
import itertools
import re
import shutil
import subprocess
import sys
import tomllib
import weakref
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import opgrad as og
from opgrad.codegen import generate, load_spec, naming
from opgrad.codegen.__main__ import main
from opgrad.codegen.composite import Callee
from opgrad.codegen.layout import stmt
from opgrad.runtime.grad_node import GradNode, TensorMeta
from opgrad.runtime.kernels import registry
from opgrad.runtime.kernels.registry import register_kernel
from opgrad.runtime.tensor_wrapper import unpack

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "codegen"
PACKAGE = "opgrad_codegen_fixture"
RUFF = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))


# --- determinism, --check, writing -----------------------------------------------------------


@pytest.mark.parametrize("spec_dir", [ROOT, FIXTURE], ids=["project", "fixture"])
def test_generating_twice_gives_identical_bytes(spec_dir: Path) -> None:
    assert generate(spec_dir) == generate(spec_dir)


def test_header_names_sources_and_command_without_timestamps_or_paths() -> None:
    for name, text in generate(ROOT).items():
        first = text.splitlines()[0]
        assert first == (
            f"# @generated {name.removesuffix('.py')} from ops.yaml and backward.yaml "
            "by `python -m opgrad.codegen`. Do not edit."
        )
        assert not re.search(r"\b(19|20)\d\d-\d\d-\d\d\b|\d\d:\d\d:\d\d", text), name
        assert str(ROOT) not in text and "0.1.0" not in text


def test_check_passes_on_the_checked_in_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def _copy_project(tmp_path: Path) -> Path:
    for name in ("ops.yaml", "backward.yaml"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "generated", tmp_path / "generated", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / naming.PAGE, tmp_path / naming.PAGE)  # the reference page is output too
    return tmp_path


def test_check_fails_with_a_diff_after_a_yaml_edit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _copy_project(tmp_path)
    assert main(["--spec-dir", str(spec), "--check"]) == 0
    ops = spec / "ops.yaml"
    ops.write_text(ops.read_text().replace("doc: Hyperbolic tangent", "doc: Tanh, edited", 1))
    capsys.readouterr()
    assert main(["--spec-dir", str(spec), "--check"]) == 1
    captured = capsys.readouterr()
    assert "--- a/generated/ops.py" in captured.out and "+++ b/generated/ops.py" in captured.out
    assert re.search(r"^\+\s+\"\"\"Tanh, edited", captured.out, re.M)
    assert "stale" in captured.err
    # The edit touched ops.py only; nothing was written.
    assert "nodes.py" not in captured.out
    assert main(["--spec-dir", str(spec)]) == 0
    assert main(["--spec-dir", str(spec), "--check"]) == 0


def test_check_reports_extra_and_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _copy_project(tmp_path)
    # A file the generator wrote once (its header) that the spec no longer produces.
    (spec / "generated" / "stray.py").write_text(naming.header("stray") + "\nx = 1\n")
    (spec / "generated" / "nodes.py").unlink()
    assert main(["--spec-dir", str(spec), "--check"]) == 1
    captured = capsys.readouterr()
    assert "--- a/generated/stray.py\n+++ /dev/null" in captured.out
    assert "--- /dev/null\n+++ b/generated/nodes.py" in captured.out
    assert "holds files the spec does not produce: stray.py" in captured.err
    assert main(["--spec-dir", str(spec)]) == 0
    assert not (spec / "generated" / "stray.py").exists() and (spec / "generated" / "nodes.py").exists()


def test_writer_rewrites_only_changed_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _copy_project(tmp_path)
    out = spec / "generated"
    before = {p.name: p.stat().st_mtime_ns for p in out.glob("*.py")}
    assert main(["--spec-dir", str(spec)]) == 0
    assert "wrote 0 file(s)" in capsys.readouterr().out
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("*.py")} == before


def test_default_spec_dir_without_ops_yaml_asks_for_spec_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import opgrad.codegen.__main__ as cli

    monkeypatch.setattr(cli, "default_spec_dir", lambda: tmp_path)
    assert cli.main([]) == 2
    assert "--spec-dir" in capsys.readouterr().err


# --- formatting -------------------------------------------------------------------------------


@pytest.mark.parametrize("spec_dir", [ROOT, FIXTURE], ids=["project", "fixture"])
def test_output_is_lint_clean(spec_dir: Path, tmp_path: Path) -> None:
    """ruff's linter (imports included) accepts the output; line length is not checked:
    the layout never depends on it (codegen/layout.py)."""
    if not Path(RUFF).exists():
        pytest.skip("ruff is not installed")
    out = tmp_path / "generated"
    out.mkdir()
    for name, text in generate(spec_dir).items():
        (out / name).write_text(text)
    config = ["--config", str(ROOT / "pyproject.toml"), "--ignore", "E501"]
    lint = subprocess.run([RUFF, "check", *config, str(out)], capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_generated_is_excluded_from_the_formatter_and_the_line_length_check() -> None:
    """`--check` pins generated/ byte for byte; no installed formatter may disagree with it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]
    assert "generated/*" in config["format"]["exclude"]
    assert config["lint"]["per-file-ignores"]["generated/*"] == ["E501"]


def test_every_kernel_call_looks_up_the_kernel_table_first() -> None:
    """The fast table look-up is part of the one shape of a kernel call, not a reward for
    a short line: only a Tensor[]'s arrays (`*_xs_data`) go through `dispatch` alone."""
    for name in ("ops.py", "grad_ops.py", "nodes.py"):
        text = (ROOT / "generated" / name).read_text()
        lookups = re.findall(r"_kernel = (\(\n.*?\n\s*\)|.*)\n", text, re.S)
        assert lookups, name
        for lookup in lookups:
            assert "kernel_table" not in lookup
            assert re.search(r"\b_k_\w+\.get\(", lookup) or "*" in lookup, (name, lookup)
    node = (ROOT / "generated" / "nodes.py").read_text()
    node = node[node.index("class TanhGradNode") :]
    assert "_kernel = (\n            out.__class__\n            is out_grad._data.__class__\n" in node
    assert "and _k_tanh_grad.get(out.__class__)" in node.split("class ", 2)[1]


def test_a_kernel_with_many_arrays_takes_one_argument_per_line_also_inside_wrap() -> None:
    """The plan marks the call vertical; an enclosing `wrap(...)` opens and closes around it."""
    nodes = (ROOT / "generated" / "nodes.py").read_text()
    assert (
        "        try:\n"
        "            input_grad = wrap(_kernel(\n"
        "                input,\n"
        "                label,\n"
        "                prob,\n"
        "                out_grad._data,\n"
        "                self.axis,\n"
    ) in nodes
    assert "= wrap(_kernel(input, label, prob, out_grad._data" not in nodes


def test_every_kernel_call_raises_what_numpy_raises_as_an_error_naming_the_op() -> None:
    """NumPy's messages inside a kernel do not name the op: each call is guarded by a
    try (free in Python 3.11 while nothing is raised) that re-raises via kernel_error."""
    for name in ("ops.py", "grad_ops.py", "nodes.py"):
        lines = (ROOT / "generated" / name).read_text().splitlines()
        calls = [i for i, line in enumerate(lines) if re.search(r"= (wrap\()?_kernel\(", line)]
        assert calls, name
        for i in calls:
            assert lines[i - 1].strip() == "try:", (name, lines[i])
            rest = lines[i:]
            handler = next(j for j, line in enumerate(rest) if line.strip().startswith("except "))
            caught = "except (TypeError, ValueError, OverflowError, MemoryError) as _e:"
            assert rest[handler].strip() == caught, (name, rest[handler])
            raised = rest[handler + 1]
            assert re.fullmatch(r'\s*raise kernel_error\("\w+", _e\) from None', raised), (name, raised)


def test_backward_entries_without_doc_get_one_from_what_they_differentiate() -> None:
    spec = load_spec(ROOT)
    assert spec.backward("tanh_grad").doc == "Gradient of tanh."
    assert spec.backward("tanh_double_grad").doc == "Gradient of tanh_grad (second-order gradient of tanh)."
    nodes = (ROOT / "generated" / "nodes.py").read_text()
    assert (
        "class TanhDoubleGradNode(GradNode):\n"
        '    """Gradient of tanh_grad (second-order gradient of tanh)."""' in nodes
    )


def _renamed(tmp_path: Path, old: str, new: str) -> dict[str, str]:
    """The fixture generated with the argument `old` of fx_mul's spec renamed to `new`."""
    spec = tmp_path / new
    spec.mkdir()
    for name in ("ops.yaml", "backward.yaml"):
        text = (FIXTURE / name).read_text()
        (spec / name).write_text(re.sub(rf"(?<![A-Za-z0-9]){old}(?![A-Za-z0-9])", new, text))
    return generate(spec, PACKAGE)


def test_layout_does_not_depend_on_argument_name_length(tmp_path: Path) -> None:
    """Renaming an argument changes only the name: every file keeps its lines, and each
    line is the old one with the name replaced (no statement is split or joined)."""
    short = _renamed(tmp_path, "y", "yv")
    long = _renamed(tmp_path, "y", "a_very_long_argument_name_that_was_refused_before_issue_ten")
    for name, text in short.items():
        renamed = re.sub(
            r"(?<![A-Za-z0-9])yv(?![A-Za-z0-9])",
            "a_very_long_argument_name_that_was_refused_before_issue_ten",
            text,
        )
        assert long[name].splitlines() == renamed.splitlines(), name


# --- the checked-in output in the real package -----------------------------------------------


def test_generated_package_imports_and_binds_methods() -> None:
    from opgrad.generated import nodes, ops, tensor_methods

    assert og.tanh is ops.tanh
    assert issubclass(og.Tensor, tensor_methods.TensorMethods)
    x = og.tensor([1.0, -2.0])
    assert (-x).tolist() == [-1.0, 2.0] and abs(x).tolist() == [1.0, 2.0]
    assert hash(x) == hash(x)  # binding __eq__ keeps tensors hashable
    assert nodes.TanhGradNode.name == "tanh_grad"


def test_node_slots_do_not_shadow_grad_node_attributes() -> None:
    from opgrad.generated import nodes

    reserved = set(dir(GradNode))
    for name in nodes.__all__:
        cls = getattr(nodes, name)
        assert not set(cls.__slots__) & reserved, (name, set(cls.__slots__) & reserved)


# --- the fixture spec, generated into a package and run ----------------------------------------


def _register_fixture_kernels() -> None:
    def reg(name):
        return register_kernel(name, backends=("cpu",))

    reg("fx_tanh")(np.tanh)
    reg("fx_tanh_grad")(lambda out, g: g * (1 - out * out))
    reg("fx_mul")(lambda x, y: x * y)
    reg("fx_mul_grad")(lambda x, y, g: (g * y, g * x))

    def axes(axis):
        return None if axis in ((), []) else tuple(axis) if not isinstance(axis, int) else (axis,)

    reg("fx_sum")(lambda x, axis, keepdim: np.asarray(np.sum(x, axis=axes(axis), keepdims=keepdim)))

    @reg("fx_sum_grad")
    def _(x, g, axis, keepdim):
        assert isinstance(x, TensorMeta)  # no_need_buffer: metadata only
        if not keepdim and axes(axis) is not None:
            g = np.expand_dims(g, axes(axis))
        return np.broadcast_to(g, x.shape).copy()

    reg("fx_square")(lambda x: x * x)
    reg("fx_where")(np.where)
    reg("fx_where_grad")(lambda c, x, y, g: (np.where(c, g, 0.0), np.where(c, 0.0, g)))
    reg("fx_max")(lambda x, axis: (np.max(x, axis=axis), np.argmax(x, axis=axis)))

    @reg("fx_max_grad")
    def _(x, indices, g, axis):
        out = np.zeros(x.shape, g.dtype)
        np.put_along_axis(out, np.expand_dims(indices, axis), np.expand_dims(g, axis), axis)
        return out

    @reg("fx_dropout")
    def _(x, p):
        mask = (np.arange(x.size).reshape(x.shape) % 2).astype(x.dtype) / (1 - p)
        return x * mask, mask

    reg("fx_dropout_grad")(lambda mask, g, p: g * mask)
    reg("fx_concat")(lambda xs, axis: np.concatenate(xs, axis))

    @reg("fx_concat_grad")
    def _(xs, g, axis):
        cuts = np.cumsum([m.shape[axis] for m in xs])[:-1]
        return list(np.split(g, cuts, axis))

    reg("fx_split")(lambda x, sections, axis: list(np.split(x, sections, axis)))
    reg("fx_split_grad")(lambda x, gs, sections, axis: np.concatenate(gs, axis))
    reg("fx_linear")(lambda x, w, b: x @ w if b is None else x @ w + b)
    reg("fx_linear_grad")(lambda x, w, b, g: (g @ w.T, x.T @ g, None if b is None else g.sum(0)))
    reg("fx_astype")(lambda x, dtype, mode: x.astype(dtype))
    reg("fx_cast_grad")(lambda x, g, dtype, mode: g.astype(x.dtype))
    reg("fx_equal")(lambda x, y: x == y)
    reg("fx_pick")(
        lambda x, w, negate, mode: (
            x * (1 if w is None else w) * (-1 if negate else 1) * (2 if mode == "twice" else 1)
        )
    )
    reg("fx_cube")(lambda x: x**3)

    @reg("fx_cube_grad")
    def _(x, g):
        KERNEL_CALLS.append("fx_cube_grad")
        return 3 * x * x * g

    reg("fx_sq2")(lambda x: x * x)
    reg("fx_sq2_grad")(lambda x, g: 2 * x * g)
    reg("fx_sq2_double_grad")(lambda x, g, h: (2 * g * h, 2 * x * h))


KERNEL_CALLS: list[str] = []


@pytest.fixture(scope="module")
def fx(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    root = tmp_path_factory.mktemp("codegen_fixture")
    package = root / PACKAGE
    package.mkdir()
    for name, text in generate(FIXTURE, PACKAGE).items():
        (package / name).write_text(text)
    _register_fixture_kernels()
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(f"{PACKAGE}.ops")
    finally:
        sys.path.remove(str(root))
        for mod in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[mod]


def t(values, requires_grad: bool = True) -> og.Tensor:
    return og.tensor(np.asarray(values, dtype=np.float64), requires_grad=requires_grad)


def test_fixture_forward_and_backward(fx: ModuleType) -> None:
    x = t([[0.1, -0.4], [0.3, 0.2]])
    y = t([[2.0, 3.0], [-1.0, 0.5]])
    loss = fx.fx_sum(fx.fx_mul(fx.fx_tanh(x), y))
    assert loss.shape == ()
    loss.backward()
    np.testing.assert_allclose(x.grad.numpy(), y.numpy() * (1 - np.tanh(x.numpy()) ** 2))
    np.testing.assert_allclose(y.grad.numpy(), np.tanh(x.numpy()))


def test_fixture_numbers_convert_and_attributes_pass_through(fx: ModuleType) -> None:
    x = t([[1.0, 2.0], [3.0, 4.0]])
    out = fx.fx_mul(2, x)  # a Python number takes x's dtype
    assert out.dtype == np.float64
    s = fx.fx_sum(x, [1], True)
    assert s.shape == (2, 1)
    s.backward(og.tensor(np.ones((2, 1))))
    np.testing.assert_allclose(x.grad.numpy(), np.ones((2, 2)))
    c = fx.fx_cast(x, "float32")
    assert c.dtype == np.float32
    c.backward(og.ones((2, 2), dtype="float32"))
    assert x.grad.dtype == np.float64


def test_fixture_composite_and_double_backward(fx: ModuleType) -> None:
    x = t([1.0, -2.0, 3.0])
    (g,) = og.grad([fx.fx_sum(fx.fx_square(x))], [x], create_graph=True)
    np.testing.assert_allclose(g.numpy(), 2 * x.numpy())
    (gg,) = og.grad([fx.fx_sum(g)], [x])
    np.testing.assert_allclose(gg.numpy(), [2.0, 2.0, 2.0])
    # mul's grad op is differentiable through its composite double backward.
    y = t([4.0, 5.0, 6.0])
    (gx,) = og.grad([fx.fx_sum(fx.fx_mul(x, y))], [x], create_graph=True)
    (gy,) = og.grad([fx.fx_sum(gx)], [y])
    np.testing.assert_allclose(gy.numpy(), np.ones(3))


def test_fixture_grad_op_without_backward_says_what_to_add(fx: ModuleType) -> None:
    x = t([0.5, 1.0])
    with pytest.raises(
        RuntimeError, match=r"cannot differentiate fx_tanh_grad.*`backward: <name>`.*`composite:`"
    ):
        og.grad([fx.fx_sum(fx.fx_tanh(x))], [x], create_graph=True)


def test_fixture_where_condition_gets_no_gradient(fx: ModuleType) -> None:
    cond = og.tensor(np.array([True, False, True]))
    x, y = t([1.0, 2.0, 3.0]), t([4.0, 5.0, 6.0])
    out = fx.fx_where(cond, x, 0.0)  # 0.0 follows x's dtype, not the bool condition's
    assert out.dtype == np.float64
    assert out.grad_fn.next_edges[0] is None
    fx.fx_sum(fx.fx_where(cond, x, y)).backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 0.0, 1.0])
    np.testing.assert_allclose(y.grad.numpy(), [0.0, 1.0, 0.0])


def test_fixture_non_differentiable_and_intermediate_outputs(fx: ModuleType) -> None:
    x = t([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
    values, indices = fx.fx_max(x)
    assert indices.tolist() == [1, 0] and not indices.requires_grad
    fx.fx_sum(values).backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0, 1, 0], [1, 0, 0]])
    z = t([1.0, 2.0, 3.0, 4.0])
    out = fx.fx_dropout(z, 0.5)  # the mask is intermediate: not returned
    assert isinstance(out, og.Tensor)
    fx.fx_sum(out).backward()
    np.testing.assert_allclose(z.grad.numpy(), [0.0, 2.0, 0.0, 2.0])


def test_fixture_tensor_lists_in_and_out(fx: ModuleType) -> None:
    a, b = t([1.0, 2.0]), t([3.0])
    joined = fx.fx_concat([a, b])
    assert joined.grad_fn.next_edges[0] is not None and len(joined.grad_fn.next_edges) == 2
    fx.fx_sum(fx.fx_mul(joined, t([1.0, 2.0, 3.0], False))).backward()
    np.testing.assert_allclose(a.grad.numpy(), [1.0, 2.0])
    np.testing.assert_allclose(b.grad.numpy(), [3.0])
    x = t([1.0, 2.0, 3.0, 4.0])
    parts = fx.fx_split(x, 2)
    assert isinstance(parts, list) and [p.tolist() for p in parts] == [[1.0, 2.0], [3.0, 4.0]]
    assert [p._pos for p in parts] == [0, 1]
    fx.fx_sum(parts[1]).backward()  # the unused part's gradient is filled with zeros
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 0.0, 1.0, 1.0])


def test_fixture_optional_tensor(fx: ModuleType) -> None:
    x, w, b = t([[1.0, 2.0]]), t([[1.0], [3.0]]), t([0.5])
    fx.fx_sum(fx.fx_linear(x, w, b)).backward()
    np.testing.assert_allclose(b.grad.numpy(), [1.0])
    x2, w2 = t([[1.0, 2.0]]), t([[1.0], [3.0]])
    out = fx.fx_linear(x2, w2)
    assert out.grad_fn.next_edges[2] is None
    fx.fx_sum(out).backward()
    np.testing.assert_allclose(w2.grad.numpy(), [[1.0], [2.0]])


def test_fixture_no_grad_records_nothing(fx: ModuleType) -> None:
    x = t([1.0, 2.0])
    with og.no_grad():
        out = fx.fx_tanh(x)
    assert out.grad_fn is None and not out.requires_grad
    assert fx.fx_tanh(t([1.0], False)).grad_fn is None


def test_fixture_no_need_buffer_input_data_is_not_held(fx: ModuleType) -> None:
    a, b = t([1.0, 2.0, 3.0]), t([4.0, 5.0, 6.0])
    h = fx.fx_mul(a, b)  # a non-leaf: only the graph could keep it alive
    out = fx.fx_sum(h)
    node = out.grad_fn
    assert isinstance(unpack(node.x, node), TensorMeta)
    h_ref, data_ref = weakref.ref(h), weakref.ref(h._data)
    del h
    gc.collect()
    assert h_ref() is None and data_ref() is None
    out.backward()
    np.testing.assert_allclose(a.grad.numpy(), b.numpy())
    # Contrast: an input saved with its data (fx_tanh saves its output, fx_mul its inputs).
    c = fx.fx_mul(a, b)
    kept = fx.fx_mul(c, b)
    c_data = weakref.ref(c._data)
    del c
    gc.collect()
    assert c_data() is not None and unpack(kept.grad_fn.x, kept.grad_fn) is not None


def test_fixture_release_saved_drops_wrappers(fx: ModuleType) -> None:
    x = t([0.2, 0.4])
    out = fx.fx_tanh(x)
    node = out.grad_fn
    node.release_saved()
    assert node.out is None and node._released


# --- kernel + composite, steps, third order through a kernel double grad, Tensor[] inputs ----


def test_fixture_kernel_for_first_order_composite_for_create_graph(fx: ModuleType) -> None:
    x = t([0.5, -1.0, 2.0])
    KERNEL_CALLS.clear()
    (g,) = og.grad([fx.fx_sum(fx.fx_cube(x))], [x])
    assert KERNEL_CALLS == ["fx_cube_grad"] and g.grad_fn is None
    np.testing.assert_allclose(g.numpy(), 3 * x.numpy() ** 2)
    KERNEL_CALLS.clear()
    (g,) = og.grad([fx.fx_sum(fx.fx_cube(x))], [x], create_graph=True)
    assert KERNEL_CALLS == [] and g.grad_fn is not None  # the composite, recorded
    np.testing.assert_allclose(g.numpy(), 3 * x.numpy() ** 2)
    (gg,) = og.grad([fx.fx_sum(g)], [x])
    np.testing.assert_allclose(gg.numpy(), 6 * x.numpy())
    text = generate(FIXTURE, PACKAGE)["nodes.py"]
    node = text[
        text.index("class FxCubeGradNode") : text.index(
            "def release_saved", text.index("class FxCubeGradNode")
        )
    ]
    graph, first_order = node.split("if create_graph:")[1].split("return (x_grad,)", 1)
    assert "the_square_of_the_input = _ops.fx_mul(x, x)" in graph and "dispatch" not in graph
    assert "dispatch(" in first_order and "_ops." not in first_order


def test_fixture_third_order_through_a_kernel_double_grad(fx: ModuleType) -> None:
    """fx_sq2_double_grad is a kernel with a backward of its own (fx_sq2_triple_grad): it
    returns grad_wrt_x, whose incoming gradient at third order is grad_wrt_x_grad."""
    x, go, gg = t([0.5, -1.0, 2.0]), t([1.5, 0.25, -2.0]), t([0.3, -0.7, 1.1])
    a, b = np.array([1.0, 2.0, -1.0]), np.array([0.5, -3.0, 2.0])
    (g1,) = og.grad([fx.fx_sq2(x)], [x], [go], create_graph=True)  # 2 x go
    g2x, g2go = og.grad([g1], [x, go], [gg], create_graph=True)  # 2 go gg, 2 x gg
    assert g2x.grad_fn.name == "fx_sq2_triple_grad"
    np.testing.assert_allclose(g2x.numpy(), 2 * go.numpy() * gg.numpy())
    np.testing.assert_allclose(g2go.numpy(), 2 * x.numpy() * gg.numpy())
    total = fx.fx_sum(fx.fx_mul(g2x, t(a, False)) + fx.fx_mul(g2go, t(b, False)))
    g3x, g3go, g3gg = og.grad([total], [x, go, gg])
    np.testing.assert_allclose(g3x.numpy(), 2 * gg.numpy() * b)
    np.testing.assert_allclose(g3go.numpy(), 2 * gg.numpy() * a)
    np.testing.assert_allclose(g3gg.numpy(), 2 * go.numpy() * a + 2 * x.numpy() * b)
    grad_ops = generate(FIXTURE, PACKAGE)["grad_ops.py"]
    assert "grad_wrt_x = wrap(_r0)" in grad_ops  # the grad op names its output as the node does


def test_fixture_double_grad_of_a_no_need_buffer_tensor_list(fx: ModuleType) -> None:
    xs = [t([1.0, 2.0]), t([3.0])]
    out = fx.fx_concat(xs)
    go = t([0.5, -1.0, 2.0])
    g0, g1 = og.grad([out], xs, [go], create_graph=True)
    assert g0.grad_fn.name == "fx_concat_double_grad" and len(g0.grad_fn.next_edges) == 3
    (ggo,) = og.grad([fx.fx_sum(fx.fx_mul(g0, t([2.0, 3.0], False))) + fx.fx_sum(g1)], [go])
    np.testing.assert_allclose(ggo.numpy(), [2.0, 3.0, 1.0])


# --- composite printing spaces expressions as ruff format does -------------------------------


def _ruff_format_diff(tmp_path: Path, code: str) -> str:
    if not Path(RUFF).exists():
        pytest.skip("ruff is not installed")
    path = tmp_path / "sample.py"
    path.write_text(code)
    config = ["--config", str(ROOT / "pyproject.toml")]
    result = subprocess.run([RUFF, "format", "--diff", *config, str(path)], capture_output=True, text=True)
    return result.stdout if result.returncode else ""


def test_composite_printing_matches_ruff(tmp_path: Path) -> None:
    from opgrad.codegen.composite import check_composite
    from opgrad.codegen.signature import Arg, Default

    exprs = [
        "x ** 2", "(-x) ** 2", "x ** -1", "x ** f(x)", "2 ** -x", "(x + 1) ** 2", "-x ** 2", "x ** y ** z",
        "(x ** y) ** z", "-(x + y)", "x - (y - z)", "(x - y) - z", "x / (y * z)", "(x < y) * 1",
        "f(x, [1, 2], (3,))", "-f(x) ** 2", "x ** -y ** 2", "1e-5 * x", "x @ (y @ z)", "x ** (-y)",
    ]  # fmt: skip
    params = (Arg("Tensor", "x"), Arg("int[]", "a", Default((), "[]")), Arg("int[]", "b", Default((), "[]")))
    ops = {"f": Callee("_ops.f", params)}
    code = ""
    for expr in exprs:
        composite, problems = check_composite([expr], {"x", "y", "z"}, ops)
        assert composite is not None, problems
        code += f"a = {composite.python}\n"
    assert _ruff_format_diff(tmp_path, code) == ""


def test_long_composites_are_one_statement_per_step() -> None:
    """No length limit and no line breaking: each step is one statement, as written."""
    from opgrad.codegen.composite import check_composite
    from opgrad.codegen.signature import Arg

    two = (Arg("Tensor", "x"), Arg("Tensor", "y"))
    ops = {"f": Callee("_ops.f", two), "pair": Callee("_grad_ops.pair", two, outputs=2)}
    long_name = "a_rather_long_argument_name_" * 4
    steps = [f"t = f({long_name} * x, {long_name} - y) * {long_name}", " + ".join(["pair(t, x)[1]"] * 8)]
    composite, problems = check_composite(steps, {"x", "y", long_name}, ops)
    assert composite is not None, problems
    lines = [stmt(s, 8) for s in composite.statements("x_grad")]
    assert lines == [
        f"t = _ops.f({long_name} * x, {long_name} - y) * {long_name}",
        "x_grad = " + " + ".join(["_grad_ops.pair(t, x)[1]"] * 8),
    ]


# --- in-place variants and views (fixture: fx_tanh, fx_mul with `inplace:`, fx_split `view:`) --------


def test_fixture_inplace_variant_writes_into_x_and_rewires_history(fx: ModuleType) -> None:
    x = t([0.1, -0.4, 0.3])
    y = fx.fx_mul(x, t([1.0, 1.0, 1.0], False))  # a non-leaf
    assert fx.fx_tanh_(y) is y and y._version == 1
    np.testing.assert_allclose(y.numpy(), np.tanh([0.1, -0.4, 0.3]))
    assert y.grad_fn.name == "fx_tanh_grad"
    fx.fx_sum(y).backward()
    np.testing.assert_allclose(x.grad.numpy(), 1 - np.tanh(x.numpy()) ** 2)


def test_fixture_inplace_variant_of_x_with_itself_saves_the_old_value(fx: ModuleType) -> None:
    x = t([1.0, 2.0, 3.0])
    y = fx.fx_mul(x, t([1.0, 1.0, 1.0], False))
    fx.fx_mul_(y, y)
    np.testing.assert_allclose(y.numpy(), [1.0, 4.0, 9.0])
    fx.fx_sum(y).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0, 6.0])


def test_fixture_inplace_methods_and_augmented_operator(fx: ModuleType) -> None:
    methods = importlib.import_module(f"{PACKAGE}.tensor_methods").TensorMethods
    assert callable(methods.fx_tanh_) and callable(methods.fx_mul_)  # fx_mul has operators only
    a = t([2.0, 3.0], False)
    assert methods.__imul__(a, t([4.0, 5.0], False)) is a
    np.testing.assert_array_equal(a.numpy(), [8.0, 15.0])
    assert methods.fx_mul_(a, 0.5) is a and a._version == 2
    with pytest.raises(RuntimeError, match="fx_tanh_: x is a leaf tensor that requires grad"):
        fx.fx_tanh_(t([1.0]))
    with pytest.raises(TypeError, match="fx_mul_: x is written in place, so it must be a Tensor, got list"):
        fx.fx_mul_([1.0], a)


def test_fixture_inplace_body_checks_before_writing() -> None:
    text = generate(FIXTURE, PACKAGE)["ops.py"]
    body = text[text.index("def fx_mul_(") :]
    body = body[: body.index("\n\n\n")]
    order = [
        'y = as_tensor_arg(y, x, "fx_mul_", "y")',
        'record = check_inplace("fx_mul_", x, y)',
        "_kernel = (\n        x._data.__class__\n        is y._data.__class__\n"
        "        and _k_fx_mul.get(x._data.__class__)\n"
        '        or dispatch("fx_mul_", "fx_mul", x._data, y._data)\n    )',
        "_result = _kernel(x._data, y._data)",
        "node = _nodes.FxMulGradNode((x, y))",
        "node.x = TensorWrapper.of_input(saved_before_write(x))",
        "node.y = TensorWrapper.of_input(saved_before_write(x) if y is x else y)",
        'write_inplace("fx_mul_", x, _result)',
        "set_history(x, node, 0)",
        "return x",
    ]
    positions = [body.index(line) for line in order]
    assert positions == sorted(positions), body


def test_fixture_one_array_kernels_resolve_through_the_registry_table(fx: ModuleType) -> None:
    text = generate(FIXTURE, PACKAGE)["ops.py"]
    assert '\n_k_fx_tanh = kernel_table("fx_tanh")\n' in text
    assert (
        '    _kernel = _k_fx_tanh.get(x._data.__class__) or dispatch("fx_tanh", "fx_tanh", x._data)\n'
        "    try:\n"
        "        _result = _kernel(x._data)\n"
    ) in text
    # the output is made with its node (recorded) or, when nothing is recorded, by wrap
    assert "        out, node = recorded(_nodes.FxTanhGradNode, _result, x)\n" in text
    assert "    else:\n        out = wrap(_result)\n" in text
    # several arrays use the table only when they are all of one type; otherwise dispatch
    # resolves the kernel or explains the mix
    assert (
        "    _kernel = (\n"
        "        x._data.__class__\n"
        "        is y._data.__class__\n"
        "        and _k_fx_mul.get(x._data.__class__)\n"
        '        or dispatch("fx_mul", "fx_mul", x._data, y._data)\n'
        "    )\n"
        "    try:\n"
        "        _result = _kernel(x._data, y._data)\n"
    ) in text
    fx.fx_mul(t([2.0], False), t([3.0], False))
    assert np.ndarray in fx._k_fx_mul
    table = fx._k_fx_tanh
    assert table is registry.kernel_table("fx_tanh")
    fx.fx_tanh(t([0.5], False))
    assert table[np.ndarray] is np.tanh  # filled by dispatch on the first call
    register_kernel("fx_tanh", backends=("cpu",))(np.tanh)  # re-registering empties it in place
    assert table == {} and registry.kernel_table("fx_tanh") is table
    np.testing.assert_allclose(fx.fx_tanh(t([0.5], False)).numpy(), np.tanh([0.5]))


def test_fixture_composite_conditionals_pick_one_branch(fx: ModuleType) -> None:
    text = generate(FIXTURE, PACKAGE)["nodes.py"]
    node = text[text.index("class FxPickGradNode") :]
    node = node[: node.index("def release_saved")]
    assert "signed = out_grad if not negate else -out_grad" in node
    assert 'scaled = 2 * signed if mode == "twice" else signed' in node
    assert "x_grad = scaled if w is None else _ops.fx_mul(scaled, w)" in node
    assert "w_grad = None if w is None else _ops.fx_mul(scaled, x)" in node
    xs = np.array([0.5, -1.5, 2.0])
    ws = np.array([3.0, 0.25, -1.0])
    for with_w, negate, mode in itertools.product((False, True), (False, True), ("plain", "twice")):
        x = t(xs)
        w = t(ws) if with_w else None
        out = fx.fx_pick(x, w, negate, mode)
        grads = og.grad([fx.fx_sum(out)], [x] + ([w] if with_w else []))
        factor = (-1 if negate else 1) * (2 if mode == "twice" else 1)
        np.testing.assert_allclose(grads[0].numpy(), factor * (ws if with_w else 1.0) * np.ones(3))
        if with_w:
            np.testing.assert_allclose(grads[1].numpy(), factor * xs)


def test_fixture_view_outputs_share_the_version_counter(fx: ModuleType) -> None:
    x = t([1.0, 2.0, 3.0, 4.0], False)
    parts = fx.fx_split(x, 2)
    assert all(p._vc is x._vc for p in parts) and x._vc.shared
    text = generate(FIXTURE, PACKAGE)["ops.py"]
    assert "    for _t in out:\n        mark_view(_t, x)\n" in text


def test_first_order_path_unpacks_arrays_only() -> None:
    text = generate(FIXTURE, PACKAGE)["nodes.py"]
    node = text[text.index("class FxTanhGradNode") :]
    node = node[: node.index("def release_saved")]
    graph, first_order = node.split("if create_graph:")[1].split("return (x_grad,)", 1)
    assert "out = unpack(self.out, self)" in graph
    assert "out = unpack_data(self.out, self)" in first_order and "out._data" not in first_order
