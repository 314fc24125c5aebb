"""One case per spec rule the other validation tests leave untriggered: each breaks the
small valid spec of test_codegen_validation.py in one place and checks the message and the
`file:line` it points at. Together with that file they keep every rule of `model.py`,
`validate.py`, `signature.py`, `reader.py` and `loader.py` pinned (branch coverage of
codegen/ >= 90%).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_codegen_validation import BACKWARD, OPS, assert_error, errors, line_of, write_spec

from opgrad.codegen import generate, load_spec
from opgrad.codegen.loader import load_entries
from opgrad.codegen.model import BackwardSpec, OpSpec
from opgrad.codegen.reader import Problems
from opgrad.codegen.validate import grad_op_sig, validate

SUM_DOUBLE = """
- backward_op: sum_double_grad
  forward: sum_grad (Tensor x, Tensor out_grad, int[] axis, bool keepdim) -> Tensor(x_grad)
  args: (Tensor x_grad_grad)
  output: Tensor(grad_wrt_out_grad)
"""
SUM_WITH_DOUBLE = BACKWARD.replace(
    "  no_need_buffer: x\n", "  no_need_buffer: x\n  backward: sum_double_grad\n"
)
AMBIGUOUS_OP = """
- op: amb
  args: (Tensor x, Tensor out_grad)
  output: Tensor(out)
  backward: amb_grad
"""
AMBIGUOUS_BACKWARD = """
- backward_op: amb_grad
  forward: amb (Tensor x, Tensor out_grad) -> Tensor(out)
  args: (Tensor out_grad)
  output: (Tensor(x_grad), Tensor(out_grad_grad))
"""
MAXI_OP = """
- op: maxi
  args: (Tensor x)
  output: (Tensor(out), Tensor(indices))
  non_differentiable: indices
  backward: maxi_grad
"""
MAXI_BACKWARD = """
- backward_op: maxi_grad
  forward: maxi (Tensor x) -> (Tensor(out), Tensor(indices))
  args: (Tensor x, Tensor indices_grad)
  output: Tensor(x_grad)
"""


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def tanh(new_lines: str) -> str:
    """OPS with lines added to the tanh entry."""
    return edit(OPS, "  doc: Hyperbolic tangent.\n", f"  doc: Hyperbolic tangent.\n{new_lines}")


def tanh_grad(new_lines: str) -> str:
    return edit(
        BACKWARD,
        "  args: (Tensor out, Tensor out_grad)\n",
        f"  args: (Tensor out, Tensor out_grad)\n{new_lines}",
    )


# (id, ops.yaml, backward.yaml, file, marker of the line, op, fragment)
CASES = [
    # --- validate.py: cross-entry rules ---
    (
        "backward_op named like an op",
        OPS,
        BACKWARD + "\n- backward_op: argmax\n  forward: tanh (Tensor x) -> Tensor(out)\n"
        "  args: (Tensor out_grad)\n  output: Tensor(x_grad)\n",
        "backward.yaml",
        "backward_op: argmax",
        "argmax",
        "an op in ops.yaml already has the name 'argmax'",
    ),
    (
        "backward of another op",
        edit(OPS, "backward: tanh_grad", "backward: sum_grad"),
        BACKWARD,
        "ops.yaml",
        "backward: sum_grad",
        "tanh",
        "backward 'sum_grad' differentiates 'sum' (its `forward:`), not 'tanh'",
    ),
    (
        "forward op has no backward",
        OPS,
        BACKWARD + "\n- backward_op: argmax_grad\n  forward: argmax (Tensor x, int axis) -> Tensor(out)\n"
        "  args: (Tensor x)\n  output: Tensor(x_grad)\n",
        "backward.yaml",
        "forward: argmax",
        "argmax_grad",
        "it has no `backward:`; add `backward: argmax_grad` to 'argmax'",
    ),
    (
        "duplicate backward_op",
        OPS,
        BACKWARD + "\n- backward_op: tanh_grad  # again\n  forward: tanh (Tensor x) -> Tensor(out)\n"
        "  args: (Tensor out, Tensor out_grad)\n  output: Tensor(x_grad)\n",
        "backward.yaml",
        "# again",
        "tanh_grad",
        "duplicate name; first defined on line 1",
    ),
    (
        "node classes clash",
        OPS,
        BACKWARD + "\n- backward_op: tanh_Grad\n  forward: tanh (Tensor x) -> Tensor(out)\n"
        "  args: (Tensor out, Tensor out_grad)\n  output: Tensor(x_grad)\n",
        "backward.yaml",
        "backward_op: tanh_Grad",
        "tanh_Grad",
        "node class TanhGradNode would clash with that of 'tanh_grad'",
    ),
    (
        "ambiguous backward argument",
        OPS + AMBIGUOUS_OP,
        BACKWARD + AMBIGUOUS_BACKWARD,
        "backward.yaml",
        "args: (Tensor out_grad)",
        "amb_grad",
        "argument 'out_grad' is ambiguous: input and grad",
    ),
    (
        "attribute listed in backward args",
        OPS,
        edit(BACKWARD, "args: (Tensor x, Tensor out_grad)", "args: (Tensor x, Tensor out_grad, Tensor axis)"),
        "backward.yaml",
        "Tensor axis)",
        "sum_grad",
        "argument 'axis' is an attribute of the forward",
    ),
    (
        "gradient of a non-differentiable output",
        OPS + MAXI_OP,
        BACKWARD + MAXI_BACKWARD,
        "backward.yaml",
        "indices_grad",
        "maxi_grad",
        "argument 'indices_grad' is the gradient of an output that is non_differentiable",
    ),
    (
        "higher order reads a no_need_buffer input",
        OPS,
        SUM_WITH_DOUBLE
        + SUM_DOUBLE.replace("args: (Tensor x_grad_grad)", "args: (Tensor x, Tensor x_grad_grad)"),
        "backward.yaml",
        "args: (Tensor x, Tensor x_grad_grad)",
        "sum_double_grad",
        "argument 'x' is no_need_buffer in sum_grad (metadata only)",
    ),
    (
        "higher order outputs the gradient of a no_need_buffer input",
        OPS,
        SUM_WITH_DOUBLE
        + SUM_DOUBLE.replace(
            "output: Tensor(grad_wrt_out_grad)", "output: (Tensor(grad_wrt_x), Tensor(grad_wrt_out_grad))"
        ),
        "backward.yaml",
        "output: (Tensor(grad_wrt_x), Tensor(grad_wrt_out_grad))",
        "sum_double_grad",
        "output 'grad_wrt_x': x is no_need_buffer in sum_grad",
    ),
    (
        "no_gradient of a no_need_buffer input",
        OPS,
        SUM_WITH_DOUBLE + SUM_DOUBLE + "  no_gradient: x\n",
        "backward.yaml",
        "no_gradient: x",
        "sum_double_grad",
        "no_gradient 'x' gets no gradient anyway: it is no_need_buffer in sum_grad",
    ),
    (
        "backward argument type differs",
        OPS,
        edit(BACKWARD, "args: (Tensor out, Tensor out_grad)", "args: (Tensor? out, Tensor out_grad)"),
        "backward.yaml",
        "Tensor? out",
        "tanh_grad",
        "argument 'out' is `Tensor?` but the forward has `Tensor`",
    ),
    (
        "no_need_buffer: out_grad",
        OPS,
        tanh_grad("  no_need_buffer: out_grad\n"),
        "backward.yaml",
        "no_need_buffer: out_grad",
        "tanh_grad",
        "no_need_buffer 'out_grad' is not a forward tensor input",
    ),
    (
        "no_gradient names no input",
        OPS,
        BACKWARD + "  no_gradient: z\n",
        "backward.yaml",
        "no_gradient: z",
        "mul_grad",
        "no_gradient 'z' is not a forward tensor input",
    ),
    (
        "an input left without a gradient",
        OPS,
        edit(BACKWARD, "output: (Tensor(x_grad), Tensor(y_grad))", "output: Tensor(x_grad)"),
        "backward.yaml",
        "LAST:output: Tensor(x_grad)\n",
        "mul_grad",
        "input 'y' gets no gradient: add 'y_grad' to `output`, or list 'y' under `no_gradient`",
    ),
    (
        "gradient output of the wrong kind",
        OPS,
        edit(
            BACKWARD, "output: (Tensor(x_grad), Tensor(y_grad))", "output: (Tensor[](x_grad), Tensor(y_grad))"
        ),
        "backward.yaml",
        "Tensor[](x_grad)",
        "mul_grad",
        "output 'x_grad' must be `Tensor`",
    ),
    (
        "composite calls a backward op without a grad op function",
        OPS,
        tanh_grad("  composite: out_grad * (1 - out * out)\n")
        + "  composite:\n    x_grad: tanh_grad(x, out_grad)\n"
        "    y_grad: out_grad * x\n",
        "backward.yaml",
        "x_grad: tanh_grad",
        "mul_grad",
        "`tanh_grad` is not an op in ops.yaml (or a backward op with a kernel)",
    ),
    (
        "composite reads a no_need_buffer input",
        OPS,
        edit(BACKWARD, "  no_need_buffer: x\n", "  no_need_buffer: x\n  composite: out_grad * x\n"),
        "backward.yaml",
        "composite: out_grad * x",
        "sum_grad",
        "composite uses x, which no_need_buffer saves as metadata only",
    ),
    # --- model.py: one entry's own rules ---
    (
        "op without a tensor argument",
        OPS + "\n- op: make\n  args: (int n)\n  output: Tensor(out)\n  non_differentiable: out\n",
        BACKWARD,
        "ops.yaml",
        "args: (int n)",
        "make",
        "an op needs at least one (non-optional) Tensor or Tensor[] argument",
    ),
    (
        "output named like an argument",
        edit(OPS, "output: Tensor(out)\n  backward: tanh_grad", "output: Tensor(x)\n  backward: tanh_grad"),
        BACKWARD,
        "ops.yaml",
        "output: Tensor(x)",
        "tanh",
        "output 'x' has the same name as an argument",
    ),
    (
        "count naming a tensor",
        OPS + "\n- op: parts\n  args: (Tensor x)\n  output: Tensor[](out){x}\n  non_differentiable: out\n",
        BACKWARD,
        "ops.yaml",
        "{x}",
        "parts",
        "count {x} of output 'out' must name a non-tensor argument",
    ),
    (
        "every output intermediate",
        OPS + "  intermediate: out\n",
        BACKWARD,
        "ops.yaml",
        "intermediate: out",
        "argmax",
        "every output is intermediate",
    ),
    (
        "backward of an op with no differentiable output",
        OPS + "  backward: tanh_grad\n",
        BACKWARD,
        "ops.yaml",
        "LAST:backward: tanh_grad\n",
        "argmax",
        "every output is non_differentiable (or intermediate)",
    ),
    (
        "non-differentiable Tensor[] output of a differentiable op",
        OPS + "\n- op: chunks\n  args: (Tensor x, int n)\n  output: (Tensor(a), Tensor[](b){n})\n"
        "  non_differentiable: b\n  backward: tanh_grad\n",
        BACKWARD,
        "ops.yaml",
        "output: (Tensor(a)",
        "chunks",
        "Tensor[] output 'b' of a differentiable op must be differentiable",
    ),
    (
        "intermediate without a backward",
        OPS.replace(
            "  output: Tensor(out)\n  non_differentiable: out",
            "  output: (Tensor(out), Tensor(aux))\n  non_differentiable: out\n  intermediate: aux",
        ),
        BACKWARD,
        "ops.yaml",
        "intermediate: aux",
        "argmax",
        "intermediate outputs only make sense for an op with a backward",
    ),
    (
        "method on an op whose first argument is a list",
        OPS + "\n- op: cat\n  args: (Tensor[] xs)\n  output: Tensor(out)\n  non_differentiable: out\n"
        "  method: true\n",
        BACKWARD,
        "ops.yaml",
        "method: true",
        "cat",
        "a method binds the first argument to self, so it must be a Tensor",
    ),
    (
        "operator listed twice",
        edit(OPS, "operator: [__mul__, __rmul__]", "operator: [__mul__, __mul__]"),
        BACKWARD,
        "ops.yaml",
        "operator: [__mul__, __mul__]",
        "mul",
        "an operator is listed twice",
    ),
    (
        "binary operator on a unary op",
        tanh("  operator: [__add__]\n"),
        BACKWARD,
        "ops.yaml",
        "operator: [__add__]",
        "tanh",
        "__add__ takes 2 operand(s) but the op has 1 argument(s)",
    ),
    (
        "operator on a list argument",
        OPS + "\n- op: cat\n  args: (Tensor[] xs)\n  output: Tensor(out)\n  non_differentiable: out\n"
        "  operator: [__neg__]\n",
        BACKWARD,
        "ops.yaml",
        "operator: [__neg__]",
        "cat",
        "__neg__ binds the first argument to self, so it must be a Tensor",
    ),
    (
        "reflected operator with an attribute second",
        OPS + "  operator: [__radd__]\n",
        BACKWARD,
        "ops.yaml",
        "operator: [__radd__]",
        "argmax",
        "reflected __radd__ passes self as the second argument, so it must be a Tensor",
    ),
    (
        "operator with arguments lacking defaults",
        OPS + "\n- op: addc\n  args: (Tensor x, Tensor y, float c)\n  output: Tensor(out)\n"
        "  non_differentiable: out\n  operator: [__add__]\n",
        BACKWARD,
        "ops.yaml",
        "operator: [__add__]",
        "addc",
        "__add__ passes 2 operand(s); arguments c need defaults",
    ),
    (
        "in-place Tensor[] output",
        OPS + "\n- op: parts\n  args: (Tensor x, int n)\n  output: Tensor[](out){n}\n  backward: tanh_grad\n"
        "  inplace: (x -> out)\n",
        BACKWARD,
        "ops.yaml",
        "inplace: (x -> out)",
        "parts",
        "a Tensor[] output ('out') cannot be written in place",
    ),
    (
        "forward that is not a signature",
        OPS,
        edit(BACKWARD, "forward: tanh (Tensor x) -> Tensor(out)", "forward: tanh Tensor x"),
        "backward.yaml",
        "forward: tanh Tensor x",
        "tanh_grad",
        "forward 'tanh Tensor x' is not `<op> (<args>) -> <outputs>`",
    ),
    (
        "forward with a bad argument",
        OPS,
        edit(BACKWARD, "forward: tanh (Tensor x) -> Tensor(out)", "forward: tanh (Tensr x) -> Tensor(out)"),
        "backward.yaml",
        "forward: tanh (Tensr x)",
        "tanh_grad",
        "forward signature: argument 'x' has unknown type 'Tensr'",
    ),
    (
        "attribute in backward args",
        OPS,
        edit(BACKWARD, "args: (Tensor out, Tensor out_grad)", "args: (Tensor out, Tensor out_grad, int k)"),
        "backward.yaml",
        "int k",
        "tanh_grad",
        "argument `int k` is not a tensor; list only tensors here",
    ),
    (
        "default in backward args",
        OPS,
        edit(BACKWARD, "args: (Tensor out, Tensor out_grad)", "args: (Tensor out, Tensor? out_grad = None)"),
        "backward.yaml",
        "= None",
        "tanh_grad",
        "argument `Tensor? out_grad = None` of a backward op cannot have a default",
    ),
    (
        "gradient output with a count",
        OPS,
        edit(BACKWARD, "  output: Tensor(x_grad)\n", "  output: Tensor[](x_grad){n}\n"),
        "backward.yaml",
        "{n}",
        "tanh_grad",
        "gradient output 'x_grad' cannot take a {count}",
    ),
    (
        "no_gradient with a gradient",
        OPS,
        BACKWARD + "  no_gradient: x\n",
        "backward.yaml",
        "no_gradient: x",
        "mul_grad",
        "no_gradient 'x': 'x_grad' is an output",
    ),
    (
        "composite string for several outputs",
        OPS,
        BACKWARD + "  composite: out_grad\n",
        "backward.yaml",
        "composite: out_grad",
        "mul_grad",
        "several outputs (x_grad, y_grad): write `composite:` as a mapping",
    ),
    (
        "composite keys are not the outputs",
        OPS,
        BACKWARD + "  composite:\n    x_grad: out_grad\n",
        "backward.yaml",
        "composite:",
        "mul_grad",
        "composite keys (x_grad) must be the outputs (x_grad, y_grad)",
    ),
    (
        "backward entry that nothing names",
        OPS,
        BACKWARD + "\n- backward_op: orphan_grad\n  args: (Tensor out_grad)\n  output: Tensor(x_grad)\n",
        "backward.yaml",
        "backward_op: orphan_grad",
        "orphan_grad",
        "no op or backward entry names it: add `backward: orphan_grad` to the op it differentiates",
    ),
    (
        "backward entry two ops name",
        edit(OPS, "backward: sum_grad", "backward: tanh_grad"),
        edit(BACKWARD, "  forward: tanh (Tensor x) -> Tensor(out)\n", ""),
        "backward.yaml",
        "backward_op: tanh_grad",
        "tanh_grad",
        "several entries name it in `backward:` (tanh, sum)",
    ),
    (
        "forward name that disagrees",
        OPS,
        edit(BACKWARD, "  forward: tanh (Tensor x) -> Tensor(out)\n", "  forward: sum\n"),
        "backward.yaml",
        "forward: sum",
        "tanh_grad",
        "forward 'sum' does not name this entry: its backward is 'sum_grad'",
    ),
    (
        "forward signature that disagrees",
        OPS,
        edit(
            BACKWARD,
            "  forward: tanh (Tensor x) -> Tensor(out)\n",
            "  forward: tanh (Tensor y) -> Tensor(out)\n",
        ),
        "backward.yaml",
        "forward: tanh",
        "tanh_grad",
        "forward signature (Tensor y) does not match tanh's args (Tensor x)",
    ),
    # --- signature.py: the grammar ---
    (
        "unbalanced )",
        edit(OPS, "args: (Tensor x)", "args: (Tensor x), int y)"),
        BACKWARD,
        "ops.yaml",
        "args: (Tensor x), int y)",
        "tanh",
        "unbalanced ')'",
    ),
    (
        "unterminated string",
        edit(OPS, "args: (Tensor x)", 'args: (Tensor x, str m = "abc)'),
        BACKWARD,
        "ops.yaml",
        'str m = "abc',
        "tanh",
        "unterminated string",
    ),
    (
        "unbalanced [",
        edit(OPS, "args: (Tensor x)", "args: (Tensor x, int[] a = [1, 2)"),
        BACKWARD,
        "ops.yaml",
        "int[] a = [1, 2",
        "tanh",
        "unbalanced brackets",
    ),
    (
        "args without parentheses",
        edit(OPS, "args: (Tensor x)", "args: Tensor x"),
        BACKWARD,
        "ops.yaml",
        "args: Tensor x",
        "tanh",
        "args must be written in parentheses",
    ),
    (
        "empty args",
        edit(OPS, "args: (Tensor x)", "args: ()"),
        BACKWARD,
        "ops.yaml",
        "args: ()",
        "tanh",
        "an op needs at least one",
    ),
    (
        "argument without a name",
        edit(OPS, "args: (Tensor x)", "args: (Tensor)"),
        BACKWARD,
        "ops.yaml",
        "args: (Tensor)",
        "tanh",
        "argument 'Tensor' is not `<type> <name>`",
    ),
    (
        "tensor with a default",
        edit(OPS, "args: (Tensor x)", "args: (Tensor x = 1)"),
        BACKWARD,
        "ops.yaml",
        "args: (Tensor x = 1)",
        "tanh",
        "Tensor x cannot have a default other than None",
    ),
    (
        "bad number default",
        tanh("  kernel: k\n").replace("args: (Tensor x)", "args: (Tensor x, float f = abc)"),
        BACKWARD,
        "ops.yaml",
        "float f = abc",
        "tanh",
        "default of float f must be a number literal",
    ),
    (
        "unquoted string default",
        edit(OPS, "args: (Tensor x)", "args: (Tensor x, str m = mean)"),
        BACKWARD,
        "ops.yaml",
        "str m = mean",
        "tanh",
        "must be a quoted string literal",
    ),
    (
        "list default that is a number",
        edit(OPS, "args: (Tensor x)", "args: (Tensor x, int[] a = 3)"),
        BACKWARD,
        "ops.yaml",
        "int[] a = 3",
        "tanh",
        "must be a list of integer literals",
    ),
    (
        "list default of words",
        edit(OPS, "args: (Tensor x)", "args: (Tensor x, int[] a = [a])"),
        BACKWARD,
        "ops.yaml",
        "int[] a = [a]",
        "tanh",
        "must be a list of integer literals",
    ),
    (
        "unknown dtype default",
        edit(OPS, "args: (Tensor x)", "args: (Tensor x, DataType d = float128)"),
        BACKWARD,
        "ops.yaml",
        "float128",
        "tanh",
        "must be a dtype name",
    ),
    (
        "bad output",
        edit(OPS, "output: Tensor(out)\n  backward: tanh_grad", "output: Tensr(out)\n  backward: tanh_grad"),
        BACKWARD,
        "ops.yaml",
        "Tensr(out)",
        "tanh",
        "output 'Tensr(out)' is not `Tensor(name)`",
    ),
    (
        "count on a plain output",
        edit(
            OPS, "output: Tensor(out)\n  backward: tanh_grad", "output: Tensor(out){n}\n  backward: tanh_grad"
        ),
        BACKWARD,
        "ops.yaml",
        "Tensor(out){n}",
        "tanh",
        "only a Tensor[] output takes a {count}",
    ),
    # --- reader.py and loader.py ---
    (
        "a key twice",
        tanh("  doc: again\n"),
        BACKWARD,
        "ops.yaml",
        "- op: tanh",
        "tanh",
        "key 'doc' appears twice (again on line 6)",
    ),
    (
        "name with an underscore",
        edit(OPS, "- op: tanh", "- op: _tanh"),
        BACKWARD,
        "ops.yaml",
        "- op: _tanh",
        "_tanh",
        "op name '_tanh' starts with an underscore",
    ),
    (
        "name that is not a string",
        edit(OPS, "- op: tanh", "- op: 3"),
        BACKWARD,
        "ops.yaml",
        "- op: 3",
        None,
        "'op' must be a non-empty string, got int 3",
    ),
    (
        "listed twice",
        edit(OPS, "non_differentiable: out", "non_differentiable: out, out"),
        BACKWARD,
        "ops.yaml",
        "non_differentiable: out, out",
        "argmax",
        "non_differentiable output 'out' is listed twice",
    ),
    (
        "default before no default",
        edit(OPS, "args: (Tensor x)", "args: (Tensor x, int a = 1, int b)"),
        BACKWARD,
        "ops.yaml",
        "int a = 1, int b",
        "tanh",
        "argument 'b' has no default but follows an argument that has one",
    ),
    (
        "output twice",
        edit(
            OPS,
            "output: Tensor(out)\n  backward: tanh_grad",
            "output: (Tensor(out), Tensor(out))\n  backward: tanh_grad",
        ),
        BACKWARD,
        "ops.yaml",
        "Tensor(out), Tensor(out)",
        "tanh",
        "output 'out' appears twice",
    ),
    (
        "list output not last",
        OPS + "\n- op: parts\n  args: (Tensor x, int n)\n  output: (Tensor[](a){n}, Tensor(b))\n"
        "  non_differentiable: a, b\n",
        BACKWARD,
        "ops.yaml",
        "Tensor[](a){n}",
        "parts",
        "Tensor[] output 'a' must be the last output",
    ),
    (
        "an argument named like a builtin class the checks use",
        edit(OPS, "args: (Tensor x)", "args: (Tensor x, float float = 1.0)"),
        BACKWARD,
        "ops.yaml",
        "float float",
        "tanh",
        "argument name 'float' is reserved: the generated code uses that name",
    ),
    (
        "a key that is not a string",
        tanh("  3: x\n"),
        BACKWARD,
        "ops.yaml",
        "- op: tanh",
        "tanh",
        "unknown key 3",
    ),
    (
        "complex must be a bool",
        tanh("  complex: yes please\n"),
        BACKWARD,
        "ops.yaml",
        "complex: yes",
        "tanh",
        "'complex' must be true or false, got str 'yes please'",
    ),
    (
        "a huge value is shortened",
        tanh("  method: [" + ", ".join(["aaaa"] * 500) + "]\n"),
        BACKWARD,
        "ops.yaml",
        "method: [",
        "tanh",
        "'method' must be true, false or a method name, got list ['aaaa', 'aaa...aaaa', 'aaaa']",
    ),
]


@pytest.mark.parametrize(
    ("ops", "backward", "file", "marker", "op", "fragment"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule(
    tmp_path: Path, ops: str, backward: str, file: str, marker: str, op: str | None, fragment: str
) -> None:
    text = ops if file == "ops.yaml" else backward
    at = text.rindex(marker.removeprefix("LAST:")) if marker.startswith("LAST:") else text.index(marker)
    line = text[:at].count("\n") + 1
    errs = errors(tmp_path, ops, backward)
    assert_error(errs, file, line, op, fragment)
    assert all(len(e) < 400 for e in errs), "messages stay short"


@pytest.mark.parametrize(
    ("ops", "fragment", "line"),
    [
        ("op: tanh\n", "ops.yaml:1: expected a list of entries (`- op: ...`), got a mapping", 1),
        ("- op: tanh\n  args: (Tensor x)\n- just words\n", "ops.yaml:3: expected a mapping entry", 3),
        ("- op: [1, 2\n", "ops.yaml:2: not valid YAML", 2),
        ("- op: tanh\n  args: (Tensor x)\n\tdoc: x\n", "ops.yaml:3: not valid YAML", 3),
        ("- op: tanh\n  args: (Tensor x)\n   doc: x\n", "ops.yaml:3: not valid YAML", 3),
        ("- op: tanh\n  args: (Tensor x)\n doc: x\n", "ops.yaml:3: not valid YAML", 3),
    ],
)
def test_files_that_are_not_a_list_of_entries(tmp_path: Path, ops: str, fragment: str, line: int) -> None:
    errs = errors(tmp_path, ops)
    assert any(e.startswith(fragment) for e in errs), errs


@pytest.mark.parametrize(
    ("ops", "hint"),
    [
        (
            "- op: tanh\n  args: (Tensor x)\n\tdoc: x\n",
            "this line holds a tab: YAML indents with spaces only",
        ),
        ("- op: tanh\n  doc: a: b\n", 'a value containing `: ` must be quoted, `doc: "a: b"`'),
        ("- op: tanh\n  args: (Tensor x)\n   doc: x\n", "or a key is indented differently"),
        ("- op: tanh\n  args: (Tensor x)\n doc: x\n", "check the indentation: each entry starts with `- `"),
    ],
)
def test_yaml_syntax_errors_get_a_hint(tmp_path: Path, ops: str, hint: str) -> None:
    (err,) = errors(tmp_path, ops)
    assert "not valid YAML" in err and hint in err, err


def test_a_missing_file(tmp_path: Path) -> None:
    write_spec(tmp_path)
    (tmp_path / "backward.yaml").unlink()
    from opgrad.codegen import SpecError

    with pytest.raises(SpecError) as info:
        load_spec(tmp_path)
    assert info.value.errors == [f"backward.yaml: file not found in {tmp_path}"]


def test_a_file_too_large(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from opgrad.codegen import loader

    monkeypatch.setattr(loader, "MAX_BYTES", 100)
    errs = errors(tmp_path)
    assert "ops.yaml:1: larger than 100 bytes; this is not an op spec" in errs


def test_an_op_whose_backward_failed_to_parse_is_not_also_called_dangling(tmp_path: Path) -> None:
    backward = edit(BACKWARD, "args: (Tensor out, Tensor out_grad)", "args: (Tensr out, Tensor out_grad)")
    errs = errors(tmp_path, OPS, backward)
    assert errs == [
        "backward.yaml:3: op 'tanh_grad': argument 'out' has unknown type 'Tensr'; known types: "
        + errs[0].split("known types: ")[1]
    ]


def test_composites_nested_too_deeply_or_beyond_the_parser_are_refused(tmp_path: Path) -> None:
    for expr, fragment in [
        ("out_grad" + " + out_grad" * 150, "is nested more than 100 levels deep"),
        ("-" * 20000 + "out_grad", "is not a valid expression: nested too deeply"),
        ("out_grad" + " + out_grad" * 3000, "is not a valid expression: nested too deeply"),
        ("(" * 300 + "out_grad" + ")" * 300, "is not a valid expression: too many nested parentheses"),
    ]:
        backward = tanh_grad(f"  composite: {expr}\n")
        errs = errors(tmp_path, OPS, backward)
        assert any(fragment in e and e.startswith("backward.yaml:4: op 'tanh_grad'") for e in errs), errs
        assert all(len(e) < 600 for e in errs)


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("out_grad << 1", "only the operators"),
        ("not out_grad", "only unary - and + are allowed"),
        ("1 < out_grad < 2", "only single comparisons"),
        ("tanh + out_grad", "op `tanh` can only be called, not used as a value"),
        ("mul(out_grad, out, out)", "mul takes at most 2 arguments, got 3"),
        ("mul(out_grad, **out)", "`**` arguments are not allowed"),
        ("mul(out_grad, x=out)", "mul gets argument 'x' twice"),
    ],
)
def test_composite_expressions_refused(tmp_path: Path, expr: str, fragment: str) -> None:
    errs = errors(tmp_path, OPS, tanh_grad(f"  composite: {expr}\n"))
    assert_error(errs, "backward.yaml", 4, "tanh_grad", fragment)


def test_a_composite_step_that_does_not_parse(tmp_path: Path) -> None:
    backward = tanh_grad("  composite:\n    - a = = 1\n    - out_grad\n")
    assert_error(errors(tmp_path, OPS, backward), "backward.yaml", 5, "tanh_grad", "step `a = = 1` is not")


def test_a_spec_with_float_and_scalar_int_defaults_and_a_doc_generates(tmp_path: Path) -> None:
    ops = edit(OPS, "args: (Tensor x)\n", "args: (Tensor x, float f = 2, Scalar s = 3, int[]? a = None)\n")
    backward = edit(
        BACKWARD,
        "forward: tanh (Tensor x) -> Tensor(out)",
        "forward: tanh (Tensor x, float f, Scalar s, int[]? a) -> Tensor(out)",
    )
    text = generate(write_spec(tmp_path, ops, backward))["ops.py"]
    assert (
        "def tanh(\n    x: Tensor | float | int,\n    f: float = 2.0,\n    s: float = 3,\n"
        "    a: Sequence[int] | int | None = None,\n)" in text
    )
    check = "    if a.__class__ is not tuple and a.__class__ is not int and a is not None:\n"
    assert check + "        a = int_list_arg(a" in text


def test_a_tensor_list_under_no_gradient_gets_one_none_per_position(tmp_path: Path) -> None:
    ops = OPS + "\n- op: weigh\n  args: (Tensor[] xs, Tensor w)\n  output: Tensor(out)\n"
    ops += "  backward: weigh_grad\n"
    backward = (
        BACKWARD + "\n- backward_op: weigh_grad\n  forward: weigh (Tensor[] xs, Tensor w) -> Tensor(out)\n"
        "  args: (Tensor[] xs, Tensor out_grad)\n  output: Tensor(w_grad)\n  no_gradient: xs\n"
    )
    files = generate(write_spec(tmp_path, ops, backward))
    assert "node._xs_count = _builtins.len(xs)" in files["ops.py"]
    assert "return (*[None] * self._xs_count, w_grad)" in files["nodes.py"]
    # without the key, leaving xs_grad out is an error
    errs = errors(tmp_path, ops, backward.replace("  no_gradient: xs\n", ""))
    assert any("input 'xs' gets no gradient" in e for e in errs)


def test_every_name_generated_code_imports_is_reserved() -> None:
    import importlib

    from opgrad.codegen import naming

    render = importlib.import_module("opgrad.codegen.render")
    imported = {name for name in render.RUNTIME_IMPORTS if not name.startswith("_")}
    assert imported <= naming.RUNTIME_NAMES, imported - naming.RUNTIME_NAMES


# --- validate() on its own: what the returned Spec holds when entries fail -------------------


def _validate_directly(tmp_path: Path, ops: str, backward: str):
    """Parse both files as load_spec does, then call validate() and return (spec, problems)
    without raising: the Spec must hold only the entries that passed every check."""
    spec_dir = write_spec(tmp_path, ops, backward)
    problems = Problems()
    parsed: dict[str, list] = {"op": [], "backward_op": []}
    names: set[str] = set()
    for file_name, parse, key in (
        ("ops.yaml", OpSpec.from_yaml, "op"),
        ("backward.yaml", BackwardSpec.from_yaml, "backward_op"),
    ):
        shown, entries = load_entries(spec_dir / file_name, file_name)
        for entry in entries:
            names.add(entry[key])
            item = parse(entry, shown, problems)
            if item is not None:
                parsed[key].append(item)
    assert not len(problems)  # every entry parses: the problems below are validate()'s
    return validate(parsed["op"], parsed["backward_op"], names, problems), problems


def test_a_composite_with_a_bad_output_is_left_out_of_the_spec_with_its_good_outputs(tmp_path: Path) -> None:
    backward = BACKWARD + "  composite:\n    x_grad: out_grad * y\n    y_grad: nosuchop(out_grad)\n"
    spec, problems = _validate_directly(tmp_path, OPS, backward)
    assert any("`nosuchop` is not an op" in e for e in problems.messages()), problems.messages()
    assert "mul_grad" not in [b.name for b in spec.backwards]
    assert "mul_grad" not in dict(spec.composites)  # x_grad's composite alone must not be kept
    good = BACKWARD + "  composite:\n    x_grad: out_grad * y\n    y_grad: out_grad * x\n"
    spec, problems = _validate_directly(tmp_path, OPS, good)
    assert not problems.messages()
    assert [out for out, _ in dict(spec.composites)["mul_grad"]] == ["x_grad", "y_grad"]


def test_a_composite_reading_a_no_need_buffer_input_is_left_out_of_the_spec(tmp_path: Path) -> None:
    backward = edit(BACKWARD, "  no_need_buffer: x\n", "  no_need_buffer: x\n  composite: out_grad * x\n")
    spec, problems = _validate_directly(tmp_path, OPS, backward)
    assert any("which no_need_buffer saves as metadata only" in e for e in problems.messages())
    assert "sum_grad" not in dict(spec.composites)
    assert "sum_grad" not in [b.name for b in spec.backwards]


def test_the_no_need_buffer_error_of_a_composite_with_steps_points_at_its_last_step(tmp_path: Path) -> None:
    steps = "  composite:\n    - a = out_grad * 2\n    - b = a + 1\n    - b * x\n"
    backward = edit(BACKWARD, "  no_need_buffer: x\n", "  no_need_buffer: x\n" + steps)
    errs = errors(tmp_path, OPS, backward)
    assert_error(errs, "backward.yaml", line_of(backward, "- b * x"), "sum_grad", "composite uses x")
    assert len([e for e in errs if "composite uses x" in e]) == 1


def test_a_grad_op_signature_renames_outputs_one_for_one(tmp_path: Path) -> None:
    spec = load_spec(write_spec(tmp_path))
    for b in spec.backwards:
        sig = grad_op_sig(b, spec)
        assert len(sig.outputs) == len(b.outputs)
        assert [o.type for o in sig.outputs] == [o.type for o in b.outputs]
