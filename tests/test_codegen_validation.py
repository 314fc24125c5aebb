"""The generator rejects bad specs with `file:line: op 'name': what is wrong`, all at once.

Each case starts from a small valid spec, breaks one thing, and checks both the message
and the line it points at (found by searching the spec text for a marker).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from opgrad.codegen import SpecError, generate, load_spec
from opgrad.codegen.__main__ import main

OPS = """\
- op: tanh
  args: (Tensor x)
  output: Tensor(out)
  backward: tanh_grad
  doc: Hyperbolic tangent.

- op: sum
  args: (Tensor x, int[] axis = [], bool keepdim = false)
  output: Tensor(out)
  backward: sum_grad

- op: mul
  args: (Tensor x, Tensor y)
  output: Tensor(out)
  backward: mul_grad
  operator: [__mul__, __rmul__]

- op: argmax
  args: (Tensor x, int axis = 0)
  output: Tensor(out)
  non_differentiable: out
"""

BACKWARD = """\
- backward_op: tanh_grad
  forward: tanh (Tensor x) -> Tensor(out)
  args: (Tensor out, Tensor out_grad)
  output: Tensor(x_grad)

- backward_op: sum_grad
  forward: sum (Tensor x, int[] axis, bool keepdim) -> Tensor(out)
  args: (Tensor x, Tensor out_grad)
  output: Tensor(x_grad)
  no_need_buffer: x

- backward_op: mul_grad
  forward: mul (Tensor x, Tensor y) -> Tensor(out)
  args: (Tensor x, Tensor y, Tensor out_grad)
  output: (Tensor(x_grad), Tensor(y_grad))
"""


def write_spec(tmp_path: Path, ops: str = OPS, backward: str = BACKWARD) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "ops.yaml").write_text(textwrap.dedent(ops))
    (tmp_path / "backward.yaml").write_text(textwrap.dedent(backward))
    return tmp_path


def errors(tmp_path: Path, ops: str = OPS, backward: str = BACKWARD) -> list[str]:
    with pytest.raises(SpecError) as info:
        load_spec(write_spec(tmp_path, ops, backward))
    return info.value.errors


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """1-based line of the nth line containing `needle`."""
    hits = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return hits[nth - 1]


def assert_error(errs: list[str], file: str, line: int, op: str | None, *fragments: str) -> None:
    who = f"op '{op}'" if op else "entry"
    prefix = f"{file}:{line}: {who}: "
    matching = [e for e in errs if e.startswith(prefix) and all(f in e for f in fragments)]
    assert matching, f"no error starting {prefix!r} containing {fragments}; got:\n" + "\n".join(errs)


def test_the_base_spec_is_valid(tmp_path: Path) -> None:
    spec = load_spec(write_spec(tmp_path))
    assert [op.name for op in spec.ops] == ["tanh", "sum", "mul", "argmax"]


# --- ops.yaml, one entry at a time ------------------------------------------------------------


def test_unknown_key(tmp_path: Path) -> None:
    ops = OPS.replace("  doc: Hyperbolic tangent.", "  doc: Hyperbolic tangent.\n  colour: red")
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "colour"), "tanh", "unknown key 'colour'")


def test_composite_call_names_a_runtime_shortcut(tmp_path: Path) -> None:
    """`composite_call:` may name only a shortcut the runtime has (an arbitrary name would be
    code in the generated composites); the valid one replaces the op in composites."""
    ops = OPS.replace("  doc: Hyperbolic tangent.", "  doc: Hyperbolic tangent.\n  composite_call: os.system")
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "composite_call"), "tanh", "conj_if_complex")
    ops = OPS.replace(
        "  doc: Hyperbolic tangent.", "  doc: Hyperbolic tangent.\n  composite_call: conj_if_complex"
    )
    spec = load_spec(write_spec(tmp_path / "ok", ops))
    assert spec.ops[0].composite_call == "conj_if_complex" and spec.ops[1].composite_call is None


def test_bad_type(tmp_path: Path) -> None:
    ops = OPS.replace(
        "args: (Tensor x)\n  output: Tensor(out)\n  backward: tanh_grad",
        "args: 3\n  output: Tensor(out)\n  backward: tanh_grad",
    )
    errs = errors(tmp_path, ops)
    assert_error(
        errs, "ops.yaml", line_of(ops, "args: 3"), "tanh", "'args' must be a non-empty string, got int 3"
    )


def test_unknown_argument_type(tmp_path: Path) -> None:
    ops = OPS.replace("args: (Tensor x, Tensor y)", "args: (Tensor x, double y)")
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "double y"), "mul", "unknown type 'double'")


def test_float_default_for_int(tmp_path: Path) -> None:
    ops = OPS.replace("int axis = 0", "int axis = 1.5")
    assert_error(
        errors(tmp_path, ops),
        "ops.yaml",
        line_of(ops, "axis = 1.5"),
        "argmax",
        "must be an integer literal; got `1.5`",
    )


def test_int_default_for_bool(tmp_path: Path) -> None:
    ops = OPS.replace("bool keepdim = false", "bool keepdim = 3")
    assert_error(
        errors(tmp_path, ops),
        "ops.yaml",
        line_of(ops, "keepdim = 3"),
        "sum",
        "must be true or false; got `3`",
    )


def test_python_code_smuggled_into_a_default(tmp_path: Path) -> None:
    ops = OPS.replace("int axis = 0", "int axis = __import__('os').system('true')")
    assert_error(
        errors(tmp_path, ops),
        "ops.yaml",
        line_of(ops, "__import__"),
        "argmax",
        "must be an integer literal",
        "__import__",
    )


def test_code_in_a_list_default(tmp_path: Path) -> None:
    ops = OPS.replace("int[] axis = []", "int[] axis = [len('ab')]")
    assert_error(
        errors(tmp_path, ops), "ops.yaml", line_of(ops, "len('ab')"), "sum", "a list of integer literals"
    )


def test_none_default_needs_an_optional_type(tmp_path: Path) -> None:
    ops = OPS.replace("int axis = 0", "int axis = None")
    assert_error(
        errors(tmp_path, ops), "ops.yaml", line_of(ops, "axis = None"), "argmax", "`int? axis = None`"
    )


def test_duplicate_op(tmp_path: Path) -> None:
    ops = OPS + "\n- op: tanh\n  args: (Tensor x)\n  output: Tensor(out)\n  non_differentiable: out\n"
    assert_error(
        errors(tmp_path, ops),
        "ops.yaml",
        line_of(ops, "- op: tanh", 2),
        "tanh",
        "duplicate name; first defined on line 1",
    )


def test_duplicate_argument(tmp_path: Path) -> None:
    ops = OPS.replace("args: (Tensor x, Tensor y)", "args: (Tensor x, Tensor x)")
    assert_error(
        errors(tmp_path, ops),
        "ops.yaml",
        line_of(ops, "Tensor x, Tensor x"),
        "mul",
        "argument 'x' appears twice",
    )


def test_non_identifier_and_keyword_names(tmp_path: Path) -> None:
    ops = OPS.replace("- op: argmax", "- op: arg-max").replace("int axis = 0", "int lambda = 0")
    errs = errors(tmp_path, ops)
    assert_error(
        errs, "ops.yaml", line_of(ops, "arg-max"), "arg-max", "op name 'arg-max' is not a valid identifier"
    )
    assert_error(
        errs, "ops.yaml", line_of(ops, "int lambda"), "arg-max", "argument name 'lambda' is a Python keyword"
    )


def test_reserved_name(tmp_path: Path) -> None:
    ops = OPS.replace("args: (Tensor x, Tensor y)", "args: (Tensor x, Tensor node)")
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "Tensor node"), "mul", "'node' is reserved")


def test_dangling_backward_in_ops(tmp_path: Path) -> None:
    ops = OPS.replace("backward: tanh_grad", "backward: tanh_gradd")
    errs = errors(tmp_path, ops)
    assert_error(
        errs,
        "ops.yaml",
        line_of(ops, "tanh_gradd"),
        "tanh",
        "backward 'tanh_gradd' is not defined in backward.yaml",
    )
    # ...and the orphaned backward entry says why it is not reached.
    assert_error(errs, "backward.yaml", 2, "tanh_grad", "forward 'tanh' does not name this entry")


def test_dangling_backward_in_backward(tmp_path: Path) -> None:
    backward = BACKWARD.replace(
        "  output: Tensor(x_grad)\n\n- backward_op: sum_grad",
        "  output: Tensor(x_grad)\n  backward: tanh_double_grad\n\n- backward_op: sum_grad",
    )
    assert_error(
        errors(tmp_path, OPS, backward),
        "backward.yaml",
        line_of(backward, "tanh_double_grad"),
        "tanh_grad",
        "backward 'tanh_double_grad' is not defined in backward.yaml",
    )


def test_forward_args_disagree_with_ops(tmp_path: Path) -> None:
    backward = BACKWARD.replace("forward: tanh (Tensor x)", "forward: tanh (Tensor y)")
    assert_error(
        errors(tmp_path, OPS, backward),
        "backward.yaml",
        line_of(backward, "forward: tanh"),
        "tanh_grad",
        "forward signature (Tensor y) does not match tanh's args (Tensor x)",
    )


def test_forward_outputs_disagree_with_ops(tmp_path: Path) -> None:
    backward = BACKWARD.replace(
        "forward: mul (Tensor x, Tensor y) -> Tensor(out)",
        "forward: mul (Tensor x, Tensor y) -> Tensor(result)",
    )
    assert_error(
        errors(tmp_path, OPS, backward),
        "backward.yaml",
        line_of(backward, "forward: mul"),
        "mul_grad",
        "forward outputs (Tensor(result)) do not match mul's output (Tensor(out))",
    )


def test_backward_arg_naming_nothing(tmp_path: Path) -> None:
    backward = BACKWARD.replace("args: (Tensor out, Tensor out_grad)", "args: (Tensor z, Tensor out_grad)")
    assert_error(
        errors(tmp_path, OPS, backward),
        "backward.yaml",
        line_of(backward, "Tensor z"),
        "tanh_grad",
        "argument 'z' names nothing in the forward",
    )


def test_backward_output_not_an_input_grad(tmp_path: Path) -> None:
    backward = BACKWARD.replace(
        "output: (Tensor(x_grad), Tensor(y_grad))", "output: (Tensor(x_grad), Tensor(w_grad))"
    )
    assert_error(
        errors(tmp_path, OPS, backward),
        "backward.yaml",
        line_of(backward, "w_grad"),
        "mul_grad",
        "output 'w_grad' is not the gradient of a forward tensor input, `<input>_grad`",
    )


def test_no_need_buffer_naming_a_non_argument(tmp_path: Path) -> None:
    backward = BACKWARD.replace("no_need_buffer: x", "no_need_buffer: y")
    assert_error(
        errors(tmp_path, OPS, backward),
        "backward.yaml",
        line_of(backward, "no_need_buffer: y"),
        "sum_grad",
        "no_need_buffer 'y' is not an argument",
    )


def test_intermediate_and_non_differentiable_must_be_outputs(tmp_path: Path) -> None:
    ops = OPS.replace("non_differentiable: out", "non_differentiable: indices").replace(
        "  doc: Hyperbolic tangent.", "  doc: Hyperbolic tangent.\n  intermediate: mask"
    )
    errs = errors(tmp_path, ops)
    assert_error(
        errs, "ops.yaml", line_of(ops, "intermediate: mask"), "tanh", "intermediate 'mask' is not an output"
    )
    assert_error(
        errs,
        "ops.yaml",
        line_of(ops, "non_differentiable: indices"),
        "argmax",
        "non_differentiable 'indices' is not an output",
    )


def test_no_backward_needs_non_differentiable_outputs(tmp_path: Path) -> None:
    ops = OPS.replace("  non_differentiable: out\n", "")
    assert_error(
        errors(tmp_path, ops),
        "ops.yaml",
        line_of(ops, "- op: argmax"),
        "argmax",
        "no `backward:` but outputs out are differentiable",
    )


def test_unknown_operator(tmp_path: Path) -> None:
    ops = OPS.replace("operator: [__mul__, __rmul__]", "operator: [__mul__, __times__]")
    assert_error(
        errors(tmp_path, ops), "ops.yaml", line_of(ops, "__times__"), "mul", "unknown operator '__times__'"
    )


# --- composite expressions --------------------------------------------------------------------

COMPOSITE = BACKWARD.replace(
    "  args: (Tensor out, Tensor out_grad)\n  output: Tensor(x_grad)\n",
    "  args: (Tensor out, Tensor out_grad)\n  output: Tensor(x_grad)\n  composite: EXPR\n",
)


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("eval(out_grad)", "`eval` is not an op in ops.yaml"),
        ("out_grad.T", "attribute access are not allowed"),
        ("out_grad[0]", "subscripts other than picking an output of a call"),
        ("(lambda: out_grad)()", "only calls to ops from ops.yaml by name"),
        ("mul(out_grad, __builtins__)", "unknown name"),
        ("mul(out_grad, 'x')", "only numbers, True, False and None"),
        ("import os", "is not a valid expression"),
        ("mul(out_grad, z=out)", "mul has no argument 'z'"),
    ],
)
def test_composite_rejects(tmp_path: Path, expr: str, fragment: str) -> None:
    backward = COMPOSITE.replace("EXPR", f'"{expr}"')
    assert_error(
        errors(tmp_path, OPS, backward),
        "backward.yaml",
        line_of(backward, "composite:"),
        "tanh_grad",
        fragment,
    )


def test_composite_accepts_ops_operators_and_numbers(tmp_path: Path) -> None:
    backward = COMPOSITE.replace("EXPR", '"mul(out_grad, 1 - out * out) ** 2"')
    spec = load_spec(write_spec(tmp_path, OPS, backward))
    ((name, composite),) = spec.composite("tanh_grad")
    assert (name, composite.python) == ("x_grad", "_ops.mul(out_grad, 1 - out * out) ** 2")


# --- files and reporting ----------------------------------------------------------------------


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    ops = OPS.replace("operator: [__mul__, __rmul__]", "operator: [__mul__, __rmul__")
    errs = errors(tmp_path, ops)
    assert len(errs) == 1 and errs[0].startswith("ops.yaml:") and "not valid YAML" in errs[0]


def test_every_error_is_reported_at_once(tmp_path: Path) -> None:
    ops = (
        OPS.replace("  doc: Hyperbolic tangent.", "  doc: Hyperbolic tangent.\n  colour: red")
        .replace("bool keepdim = false", "bool keepdim = 3")
        .replace("backward: mul_grad", "backward: mul_gradd")
    )
    backward = BACKWARD.replace("no_need_buffer: x", "no_need_buffer: q").replace(
        "Tensor out, Tensor out_grad", "Tensor z, Tensor out_grad"
    )
    errs = errors(tmp_path, ops, backward)
    expected = [
        ("ops.yaml", line_of(ops, "colour"), "tanh", "unknown key 'colour'"),
        ("ops.yaml", line_of(ops, "keepdim = 3"), "sum", "must be true or false"),
        ("ops.yaml", line_of(ops, "mul_gradd"), "mul", "'mul_gradd' is not defined"),
        ("backward.yaml", line_of(backward, "Tensor z"), "tanh_grad", "argument 'z' names nothing"),
        (
            "backward.yaml",
            line_of(backward, "no_need_buffer: q"),
            "sum_grad",
            "no_need_buffer 'q' is not an argument",
        ),
    ]
    for file, line, op, fragment in expected:
        assert_error(errs, file, line, op, fragment)
    # Sorted: ops.yaml before backward.yaml, by line within each.
    assert errs == sorted(errs, key=lambda e: (not e.startswith("ops.yaml"), int(e.split(":")[1])))


def test_cli_prints_every_error_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ops = OPS.replace("int axis = 0", "int axis = 1.5").replace("backward: tanh_grad", "backward: nope")
    write_spec(tmp_path, ops)
    assert main(["--spec-dir", str(tmp_path), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert f"ops.yaml:{line_of(ops, 'axis = 1.5')}: op 'argmax':" in err
    assert f"ops.yaml:{line_of(ops, 'backward: nope')}: op 'tanh': backward 'nope'" in err
    assert "nothing was written" in err
    assert not (tmp_path / "out").exists()


def test_forward_is_derived_from_the_entry_that_names_the_backward(tmp_path: Path) -> None:
    """`forward:` is optional: left out, or given as the name alone, the output is the same."""
    stated = generate(write_spec(tmp_path / "stated", OPS, BACKWARD))
    derived = re.sub(r"  forward: .*\n", "", BACKWARD)
    assert "forward:" not in derived
    assert generate(write_spec(tmp_path / "derived", OPS, derived)) == stated
    named = re.sub(r"  forward: (\w+) .*\n", r"  forward: \1\n", BACKWARD)
    assert "forward: tanh\n" in named
    assert generate(write_spec(tmp_path / "named", OPS, named)) == stated
    spec = load_spec(write_spec(tmp_path / "derived", OPS, derived))
    assert spec.backward("tanh_grad").forward.name == "tanh"
    assert spec.backward("tanh_grad").doc == "Gradient of tanh."


def test_a_long_argument_name_is_accepted(tmp_path: Path) -> None:
    """Names have no length limit: the layout never depends on line length."""
    name = "an_axis_name_that_was_once_far_too_long_for_the_layout"
    ops = OPS.replace("int axis = 0", f"int {name} = 0")
    files = generate(write_spec(tmp_path, ops))
    assert f"    {name}: int = 0,\n" in files["ops.py"]


# --- inplace: and view: -----------------------------------------------------------------------


def _with(ops: str, op: str, key_lines: str) -> str:
    """OPS with `key_lines` added right after `- op: <op>`'s `args:` line."""
    head = f"- op: {op}\n"
    start = ops.index(head) + len(head)
    args_end = ops.index("\n", start) + 1
    return ops[:args_end] + key_lines + ops[args_end:]


def test_a_valid_inplace_and_view_are_accepted(tmp_path: Path) -> None:
    ops = _with(_with(OPS, "mul", "  inplace: (x -> out)\n"), "tanh", "  inplace: ( x->out )\n")
    ops = _with(ops, "sum", "  view: x\n")
    spec = load_spec(write_spec(tmp_path, ops))
    mul = next(o for o in spec.ops if o.name == "mul")
    assert mul.inplace == ("x", "out") and mul.inplace_bindings == ("mul_", "__imul__")
    tanh = next(o for o in spec.ops if o.name == "tanh")
    assert tanh.inplace_name == "tanh_" and tanh.inplace_bindings == ()  # no method, no operator
    assert next(o for o in spec.ops if o.name == "sum").view == "x"


@pytest.mark.parametrize(
    "op, value, fragment",
    [
        ("mul", "(y -> out)", "writes into 'y', which must be the op's first tensor argument (expected 'x')"),
        ("mul", "(x -> result)", "inplace output 'result' is not the op's output 'out'"),
        ("mul", "x -> out", "inplace 'x -> out' is not `(x -> out)`"),
        ("mul", "(x => out)", "is not `(x -> out)`"),
        ("argmax", "(x -> out)", "an in-place op needs a `backward:`"),
    ],
)
def test_bad_inplace(tmp_path: Path, op: str, value: str, fragment: str) -> None:
    ops = _with(OPS, op, f"  inplace: {value}\n")
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "inplace:"), op, fragment)


def test_inplace_needs_a_single_output(tmp_path: Path) -> None:
    ops = OPS + (
        "\n- op: topk\n  args: (Tensor x, int k)\n  output: (Tensor(out), Tensor(indices))\n"
        "  non_differentiable: indices\n  backward: topk_grad\n  inplace: (x -> out)\n"
    )
    backward = BACKWARD + (
        "\n- backward_op: topk_grad\n  forward: topk (Tensor x, int k) -> (Tensor(out), Tensor(indices))\n"
        "  args: (Tensor x, Tensor indices, Tensor out_grad)\n  output: Tensor(x_grad)\n"
    )
    assert_error(
        errors(tmp_path, ops, backward),
        "ops.yaml",
        line_of(ops, "inplace:"),
        "topk",
        "only a single-output op can be in place; this one has outputs out, indices",
    )


def test_inplace_target_must_be_a_plain_tensor(tmp_path: Path) -> None:
    ops = OPS + (
        "\n- op: cat\n  args: (Tensor[] x)\n  output: Tensor(out)\n"
        "  backward: cat_grad\n  inplace: (x -> out)\n"
    )
    backward = BACKWARD + (
        "\n- backward_op: cat_grad\n  forward: cat (Tensor[] x) -> Tensor(out)\n"
        "  args: (Tensor[] x, Tensor out_grad)\n  output: Tensor[](x_grad)\n  no_need_buffer: x\n"
    )
    assert_error(
        errors(tmp_path, ops, backward),
        "ops.yaml",
        line_of(ops, "inplace:"),
        "cat",
        "inplace target 'x' must be a plain Tensor, not `Tensor[] x`",
    )


def test_inplace_variant_clashing_with_an_op(tmp_path: Path) -> None:
    ops = _with(OPS, "tanh", "  inplace: (x -> out)\n") + (
        "\n- op: tanh_\n  args: (Tensor x)\n  output: Tensor(out)\n  non_differentiable: out\n"
    )
    assert_error(
        errors(tmp_path, ops),
        "ops.yaml",
        line_of(ops, "inplace:"),
        "tanh",
        "in-place variant 'tanh_' clashes with op 'tanh_'",
    )


def test_inplace_method_clashing_with_a_method(tmp_path: Path) -> None:
    ops = _with(OPS, "mul", "  inplace: (x -> out)\n")
    ops = ops.replace(
        "- op: sum\n  args: (Tensor x, int[] axis = [], bool keepdim = false)\n",
        "- op: sum\n  args: (Tensor x, int[] axis = [], bool keepdim = false)\n  method: mul_\n",
    )
    assert_error(
        errors(tmp_path, ops),
        "ops.yaml",
        line_of(ops, "inplace:"),
        "mul",
        "Tensor.mul_ is already bound to op 'sum'",
    )


@pytest.mark.parametrize(
    "value, fragment",
    [
        ("axis", "view 'axis' must name a Tensor argument (Tensor arguments: x)"),
        ("nothing", "view 'nothing' must name a Tensor argument"),
        ("[x]", "'view' must be a non-empty string"),
    ],
)
def test_bad_view(tmp_path: Path, value: str, fragment: str) -> None:
    ops = _with(OPS, "sum", f"  view: {value}\n")
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "view:"), "sum", fragment)


def test_view_and_inplace_together(tmp_path: Path) -> None:
    ops = _with(OPS, "tanh", "  inplace: (x -> out)\n  view: x\n")
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "view:"), "tanh", "cannot also be in place")


# --- mutates: and mutates_if: -----------------------------------------------------------------

MUTATING = """\
- op: norm_step
  args: (Tensor x, Tensor stats, Tensor? extra = None, bool training = false, int steps = 1)
  output: Tensor(out)
  backward: norm_step_grad
  KEYS
"""
MUTATING_BACKWARD = """\
- backward_op: norm_step_grad
  forward: norm_step (Tensor x, Tensor stats, Tensor? extra, bool training, int steps) -> Tensor(out)
  args: (Tensor x, Tensor out_grad)
  output: Tensor(x_grad)
  no_gradient: stats, extra
"""


def _mutating(keys: str) -> tuple[str, str]:
    return OPS + "\n" + MUTATING.replace("  KEYS\n", keys), BACKWARD + "\n" + MUTATING_BACKWARD


def test_mutated_arguments_get_their_versions_bumped_after_the_kernel(tmp_path: Path) -> None:
    ops, backward = _mutating("  mutates: stats, extra\n  mutates_if: training\n")
    spec = load_spec(write_spec(tmp_path, ops, backward))
    op = next(o for o in spec.ops if o.name == "norm_step")
    assert op.mutates == ("stats", "extra") and op.mutates_if == "training"
    text = generate(tmp_path, "fixture_pkg")["ops.py"]
    body = text[text.index("def norm_step(") :]
    assert "    out = wrap(" in body
    kernel_at = body.index("    out = wrap(")
    bump_at = body.index("    if training:\n        bump_versions(stats, extra)\n")
    assert kernel_at < bump_at < body.index("grad_enabled()")
    ops, backward = _mutating("  mutates: stats\n")  # always written: no guard
    load_spec(write_spec(tmp_path, ops, backward))
    assert "    bump_versions(stats)\n    if " in generate(tmp_path, "fixture_pkg")["ops.py"]


@pytest.mark.parametrize(
    ("keys", "key", "fragment"),
    [
        (
            "  mutates: steps\n",
            "mutates:",
            "mutates 'steps' must name a Tensor argument (Tensor arguments: x, stats, extra)",
        ),
        ("  mutates: nothing\n", "mutates:", "mutates 'nothing' must name a Tensor argument"),
        ("  mutates: stats, stats\n", "mutates:", "mutated argument 'stats' is listed twice"),
        ("  mutates_if: training\n", "mutates_if:", "mutates_if needs a `mutates:` list"),
        (
            "  mutates: stats\n  mutates_if: steps\n",
            "mutates_if:",
            "mutates_if 'steps' must name a bool argument (bool arguments: training)",
        ),
    ],
)
def test_bad_mutates(tmp_path: Path, keys: str, key: str, fragment: str) -> None:
    ops, backward = _mutating(keys)
    assert_error(errors(tmp_path, ops, backward), "ops.yaml", line_of(ops, key), "norm_step", fragment)


# --- conditional expressions in composites ---------------------------------------------------


def _conditional(expr: str) -> tuple[str, str]:
    ops, backward = _mutating("")
    head, tail = backward.rsplit("  output: Tensor(x_grad)\n", 1)  # norm_step_grad's, the last
    return ops, f'{head}  output: Tensor(x_grad)\n  composite: "{expr}"\n{tail}'


def test_a_conditional_on_a_bool_attribute_is_accepted(tmp_path: Path) -> None:
    ops, backward = _conditional("out_grad if training else -out_grad")
    spec = load_spec(write_spec(tmp_path, ops, backward))
    ((_, composite),) = spec.composite("norm_step_grad")
    assert composite.python == "out_grad if training else -out_grad" and composite.tested == ("training",)


def test_a_conditional_on_a_tensor_being_complex_is_accepted_and_emitted(tmp_path: Path) -> None:
    ops, backward = _conditional("-out_grad if is_complex(x) else out_grad")
    spec = load_spec(write_spec(tmp_path, ops, backward))
    ((_, composite),) = spec.composite("norm_step_grad")
    assert composite.python == '-out_grad if x._data.dtype.kind == "c" else out_grad'
    assert "x" in composite.names


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("out_grad if is_complex(steps) else x", "is_complex of out_grad, x"),  # an int attribute
        ("out_grad if is_complex(training) else x", "is_complex of out_grad, x"),  # a bool attribute
        ("out_grad if is_complex(x, x) else x", "whether a tensor is complex"),
        ("out_grad if steps else x", "must be a bool attribute"),  # an int attribute
        ("out_grad if training == 'yes' else x", "testable here: training (bool)"),  # not a str
        ("out_grad if x is None else x", "an optional argument against None"),  # x is never None
        ("out_grad if extra is None else x", "testable here: training (bool)"),  # extra: not an arg here
        ("out_grad if training and training else x", "testable here"),
    ],
)
def test_bad_conditional(tmp_path: Path, expr: str, fragment: str) -> None:
    ops, backward = _conditional(expr)
    assert_error(
        errors(tmp_path, ops, backward),
        "backward.yaml",
        line_of(backward, "composite:"),
        "norm_step_grad",
        fragment,
    )


# --- composite steps, calls to grad ops, kernel + composite, higher-order names ---------------

STEPS = COMPOSITE.replace(
    "  composite: EXPR\n",
    "  composite:\n    - STEP1\n    - STEP2\n",
)


def steps_spec(first: str, second: str) -> str:
    return STEPS.replace("STEP1", first).replace("STEP2", second)


@pytest.mark.parametrize(
    "bad", ["t = mul(out_grad, ", "t = 1 - out * nothing", "t = ((((" * 30 + "out" + "))))" * 30]
)
def test_a_bad_step_is_reported_once_not_again_where_later_steps_use_it(tmp_path: Path, bad: str) -> None:
    errs = errors(tmp_path, OPS, steps_spec(bad, "mul(out_grad, t)"))
    assert len(errs) == 1, errs
    assert "mul(out_grad, t)" not in errs[0]  # the one error is about the bad step itself


def test_a_bad_output_composite_does_not_cascade_into_later_outputs(tmp_path: Path) -> None:
    backward = BACKWARD.replace(
        "  output: (Tensor(x_grad), Tensor(y_grad))\n",
        "  output: (Tensor(x_grad), Tensor(y_grad))\n"
        "  composite:\n"
        "    x_grad:\n"
        "      - t = mul(out_grad, \n"
        "      - mul(t, y)\n"
        "    y_grad: mul(t, x)\n",
    )
    errs = errors(tmp_path, OPS, backward)
    assert len(errs) == 1 and "is not `name = expression`" in errs[0], errs


def test_composite_steps_are_generated_in_order(tmp_path: Path) -> None:
    backward = steps_spec("t = 1 - out * out", "mul(out_grad, t)")
    spec = load_spec(write_spec(tmp_path, OPS, backward))
    ((name, composite),) = spec.composite("tanh_grad")
    assert [s for s, _ in composite.steps] == ["t"] and composite.python == "_ops.mul(out_grad, t)"


@pytest.mark.parametrize(
    ("first", "second", "bad_step", "fragment"),
    [
        ("t = 1 - out * out", "t = mul(out_grad, t)", 2, "must be the gradient's expression"),
        ("1 - out * out", "mul(out_grad, out)", 1, "is not `name = expression`"),
        ("t, u = out, out", "mul(out_grad, t)", 1, "is not `name = expression`"),
        ("out = 1 - out * out", "mul(out_grad, out)", 1, "step name 'out' is already an argument"),
        ("_t = 1 - out", "mul(out_grad, _t)", 1, "starts with an underscore"),
        ("tanh = 1 - out", "mul(out_grad, out)", 1, "is the name of an op"),
        ("x_grad = 1 - out", "mul(out_grad, x_grad)", 1, "is reserved"),
        ("node = 1 - out", "mul(out_grad, node)", 1, "is reserved"),
        ("t = mul(out_grad, u)", "u", 1, "unknown name"),  # a later step is not visible yet
        ("t = mul_grad(out, out, out_grad)", "t", 1, "mul_grad returns 2 outputs; pick one with `[i]`"),
        ("t = mul_grad(out, out, out_grad)[2]", "t", 1, "the index must be a number from 0 to 1"),
        ("t = tanh(out)[0]", "t", 1, "tanh returns one output; drop the `[...]`"),
        ("t = out[0]", "t", 1, "subscripts other than picking an output of a call"),
    ],
)
def test_composite_step_errors_name_the_step_line(
    tmp_path: Path, first: str, second: str, bad_step: int, fragment: str
) -> None:
    backward = steps_spec(first, second)
    line = line_of(backward, f"    - {first if bad_step == 1 else second}")
    assert_error(errors(tmp_path, OPS, backward), "backward.yaml", line, "tanh_grad", fragment)


def test_composite_may_call_a_grad_op_and_pick_an_output(tmp_path: Path) -> None:
    backward = steps_spec("t = mul_grad(out, out, out_grad)[1]", "mul(t, 2)")
    ((_, composite),) = load_spec(write_spec(tmp_path, OPS, backward)).composite("tanh_grad")
    assert composite.steps[0][0] == "t"
    files = generate(write_spec(tmp_path, OPS, backward))
    assert "t = _grad_ops.mul_grad(out, out, out_grad)[1]" in files["nodes.py"]


def test_composite_has_no_length_limit(tmp_path: Path) -> None:
    long = " + ".join(["mul(out_grad, 1 - out * out)"] * 12)
    backward = COMPOSITE.replace("EXPR", f'"{long}"')
    nodes = generate(write_spec(tmp_path, OPS, backward))["nodes.py"]
    assert f"x_grad = {' + '.join(['_ops.mul(out_grad, 1 - out * out)'] * 12)}\n" in nodes


def test_kernel_and_composite_together(tmp_path: Path) -> None:
    backward = COMPOSITE.replace("EXPR", '"mul(out_grad, 1 - out * out)"').replace(
        "  composite:", "  kernel: tanh_grad_fast\n  composite:"
    )
    spec = load_spec(write_spec(tmp_path, OPS, backward))
    bwd = spec.backward("tanh_grad")
    assert bwd.kernel == "tanh_grad_fast" and bwd.composite is not None and not bwd.has_grad_op
    files = generate(write_spec(tmp_path, OPS, backward))
    node = files["nodes.py"][files["nodes.py"].index("class TanhGradNode") :]
    graph, first_order = node.split("if create_graph:")[1].split("return (x_grad,)", 1)
    assert "x_grad = _ops.mul(out_grad, 1 - out * out)" in graph
    assert 'dispatch("tanh_grad", "tanh_grad_fast"' in first_order
    assert "def tanh_grad" not in files["grad_ops.py"]  # no grad op: the composite is the recorded path


def test_composite_with_a_backward_is_rejected(tmp_path: Path) -> None:
    backward = COMPOSITE.replace("EXPR", '"mul(out_grad, 1 - out * out)"').replace(
        "  composite:", "  kernel: tanh_grad\n  backward: tanh_double_grad\n  composite:"
    )
    assert_error(
        errors(tmp_path, OPS, backward),
        "backward.yaml",
        line_of(backward, "backward: tanh_double_grad"),
        "tanh_grad",
        "a composite backward is differentiated through its ops; remove `backward:`",
    )


THIRD_ORDER = BACKWARD.replace(
    "  output: (Tensor(x_grad), Tensor(y_grad))\n",
    """\
  output: (Tensor(x_grad), Tensor(y_grad))
  backward: mul_double_grad

- backward_op: mul_double_grad
  forward: mul_grad (Tensor x, Tensor y, Tensor out_grad) -> (Tensor(x_grad), Tensor(y_grad))
  args: (Tensor x, Tensor y, Tensor out_grad, Tensor x_grad_grad, Tensor y_grad_grad)
  output: (Tensor(grad_wrt_x), Tensor(grad_wrt_y), Tensor(grad_wrt_out_grad))
  backward: mul_triple_grad

- backward_op: mul_triple_grad
  forward: mul_double_grad (DOUBLE_ARGS) -> OUTS
  args: (Tensor x_grad_grad, Tensor y_grad_grad, ARGS)
  output: Tensor(grad_wrt_out_grad)
  no_gradient: x, y, x_grad_grad, y_grad_grad
  composite: mul(x_grad_grad, grad_wrt_y_grad) + mul(y_grad_grad, grad_wrt_x_grad)
""",
).replace("DOUBLE_ARGS", "Tensor x, Tensor y, Tensor out_grad, Tensor x_grad_grad, Tensor y_grad_grad")


def test_higher_order_names_say_what_they_are(tmp_path: Path) -> None:
    """mul_double_grad differentiates the grad op mul_grad (x, y, out_grad): it returns
    grad_wrt_x, grad_wrt_y and grad_wrt_out_grad, never a second meaning of an argument;
    the gradients flowing into those at third order are `<output>_grad`."""
    outs = "(Tensor(grad_wrt_x), Tensor(grad_wrt_y), Tensor(grad_wrt_out_grad))"
    args = "Tensor grad_wrt_x_grad, Tensor grad_wrt_y_grad"
    backward = THIRD_ORDER.replace("OUTS", outs).replace("ARGS", args)
    spec = load_spec(write_spec(tmp_path, OPS, backward))
    assert [o.name for o in spec.forward_of(spec.backward("mul_triple_grad")).outputs] == [
        "grad_wrt_x",
        "grad_wrt_y",
        "grad_wrt_out_grad",
    ]
    nodes = generate(write_spec(tmp_path, OPS, backward))["nodes.py"]
    assert "grad_wrt_x_grad = grads[0]" in nodes and "grad_wrt_out_grad = _ops.mul(" in nodes
    assert "return (grad_wrt_x, grad_wrt_y, grad_wrt_out_grad)" in nodes


def test_a_double_grad_with_first_order_names_is_told_the_grad_wrt_names(tmp_path: Path) -> None:
    outs = "(Tensor(grad_wrt_x), Tensor(grad_wrt_y), Tensor(grad_wrt_out_grad))"
    backward = (
        THIRD_ORDER.replace("OUTS", outs)
        .replace("ARGS", "Tensor grad_wrt_x_grad, Tensor grad_wrt_y_grad")
        .replace(
            "(Tensor(grad_wrt_x), Tensor(grad_wrt_y), Tensor(grad_wrt_out_grad))\n  backward:",
            "(Tensor(x_grad), Tensor(grad_wrt_y), Tensor(grad_wrt_out_grad))\n  backward:",
        )
    )
    assert_error(
        errors(tmp_path, OPS, backward),
        "backward.yaml",
        line_of(backward, "output: (Tensor(x_grad), Tensor(grad_wrt_y)"),
        "mul_double_grad",
        "output 'x_grad' is not the gradient of a forward tensor input, `grad_wrt_<input>` (the forward is a "
        "grad op) (expected one of: grad_wrt_x, grad_wrt_y, grad_wrt_out_grad)",
    )


# --- arg_docs and grad_doc ---------------------------------------------------------------------

DOCUMENTED = OPS.replace(
    "  backward: sum_grad\n",
    "  backward: sum_grad\n  arg_docs:\n    x: The input.\n    axis: Axes to reduce.\n"
    "    out: The sum.\n  grad_doc: Broadcast back to x.\n",
)


def test_arg_docs_and_grad_doc_are_read(tmp_path: Path) -> None:
    op = load_spec(write_spec(tmp_path, DOCUMENTED)).op("sum")
    assert op is not None and op.grad_doc == "Broadcast back to x."
    assert [(name, text) for name, text, _ in op.arg_docs] == [
        ("x", "The input."),
        ("axis", "Axes to reduce."),
        ("out", "The sum."),
    ]


@pytest.mark.parametrize(
    ("old", "new", "marker", "fragment"),
    [
        (
            "    axis: Axes",
            "    dim: Axes",
            "    dim:",
            "arg_docs 'dim' is not an argument or output of 'sum' (it has: x, axis",
        ),
        ("    axis: Axes to reduce.", "    axis:", "    axis:", "arg_docs 'axis' has no text"),
        ("    axis: Axes to reduce.", '    axis: ""', "    axis:", "arg_docs 'axis' has no text"),
        (
            "Axes to reduce.",
            "Axes \u2013 all of them.",
            "    axis:",
            "'\u2013' (U+2013): doc texts are printable ASCII",
        ),
        (
            "    axis: Axes to reduce.",
            "    axis: [1, 2]",
            "    axis:",
            "arg_docs 'axis' must be text, got a list",
        ),
        (
            "    out: The sum.",
            "    out: The sum.\n    x: Again.",
            "    x: Again",
            "arg_docs 'x' appears twice",
        ),
        ("  grad_doc: Broadcast back to x.", "  grad_doc: Broadcast \u00e0 x.", "grad_doc", "grad_doc holds"),
        ("  grad_doc: Broadcast back to x.", "  grad_doc: [a]", "grad_doc", "'grad_doc' must be a non-empty"),
    ],
    ids=[
        "unknown argument",
        "empty",
        "empty string",
        "not ASCII",
        "not text",
        "twice",
        "grad_doc not ASCII",
        "grad_doc not text",
    ],
)
def test_bad_arg_docs(tmp_path: Path, old: str, new: str, marker: str, fragment: str) -> None:
    ops = DOCUMENTED.replace(old, new)
    assert ops != DOCUMENTED
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, marker), "sum", fragment)


def test_an_op_without_docs_is_valid_and_gets_a_bare_args_section(tmp_path: Path) -> None:
    ops_py = generate(write_spec(tmp_path))["ops.py"]
    assert (
        "    Args:\n        x (Tensor | float | int)\n        axis (int | Sequence[int], default ())\n"
        in ops_py
    )


def test_the_family_is_the_section_comment_above_an_op(tmp_path: Path) -> None:
    ops = "# --- Activations: elementwise\n" + OPS.replace("- op: mul", "# --- Products\n- op: mul")
    spec = load_spec(write_spec(tmp_path, ops))
    assert [(op.name, op.family) for op in spec.ops] == [
        ("tanh", "Activations"),
        ("sum", "Activations"),
        ("mul", "Products"),
        ("argmax", "Products"),
    ]
    assert load_spec(write_spec(tmp_path / "plain")).ops[0].family == "Other operators"


SPLIT_OP = """
- op: split
  args: (Tensor x, int[] num_or_sections, int axis = 0)
  output: Tensor[](out)
  non_differentiable: out
"""


def test_a_composite_may_pick_one_tensor_of_a_list_output(tmp_path: Path) -> None:
    """`split(...)[k]`: a Tensor[] result is indexed by a constant position (lstm_cell_grad
    takes its four gate blocks this way); the count is known only at run time."""
    backward = steps_spec("t = tanh(split(out, 2, 0)[1])", "mul(out_grad, t)")
    files = generate(write_spec(tmp_path, OPS + SPLIT_OP, backward))
    assert "t = _ops.tanh(_ops.split(out, 2, 0)[1])" in files["nodes.py"]


@pytest.mark.parametrize("index", ["-1", "k", "1.0", "True"])
def test_a_list_output_index_must_be_a_constant_position(tmp_path: Path, index: str) -> None:
    backward = steps_spec(f"t = split(out, 2, 0)[{index}]", "mul(out_grad, t)")
    errs = errors(tmp_path, OPS + SPLIT_OP, backward)
    assert any("the index into split's list must be a number >= 0" in e for e in errs), errs


TANH_GRAD = """\
- backward_op: tanh_grad
  forward: tanh (Tensor x) -> Tensor(out)
  args: (Tensor out, Tensor out_grad)
  output: Tensor(x_grad)
"""


def test_a_kernel_backward_entry_takes_a_jvp_rule_for_its_grad_op(tmp_path: Path) -> None:
    """Forward-over-reverse through tanh_grad uses the written tangent, not the derivation."""
    backward = BACKWARD.replace(
        TANH_GRAD,
        TANH_GRAD + "  jvp:\n    x_grad: mul(out_grad_t, 1 - out * out) - 2 * out_grad * out * out_t\n",
    )
    files = generate(write_spec(tmp_path, OPS, backward))
    assert "x_grad_t = _ops.mul(out_grad_t, 1 - out * out) - 2 * out_grad * out * out_t" in files["jvp.py"]
    assert "(its `jvp:` rule in backward.yaml)" in files["jvp.py"]


@pytest.mark.parametrize(
    ("jvp", "fragment"),
    [
        ("  jvp:\n    y_grad: out_grad_t\n", "jvp keys (y_grad) must be the differentiable outputs (x_grad)"),
        ("  jvp:\n    x_grad: mul(out_grad_t, nothing)\n", "jvp: "),
    ],
)
def test_bad_grad_op_jvp_rules_are_reported(tmp_path: Path, jvp: str, fragment: str) -> None:
    errs = errors(tmp_path, OPS, BACKWARD.replace(TANH_GRAD, TANH_GRAD + jvp))
    assert any("tanh_grad" in e and fragment in e for e in errs), errs


def test_a_composite_backward_refuses_a_jvp_rule(tmp_path: Path) -> None:
    backward = BACKWARD.replace(
        TANH_GRAD, TANH_GRAD + "  composite: mul(out_grad, 1 - out * out)\n  jvp:\n    x_grad: out_grad_t\n"
    )
    errs = errors(tmp_path, OPS, backward)
    assert any("a composite backward's tangents come from its ops" in e for e in errs), errs
