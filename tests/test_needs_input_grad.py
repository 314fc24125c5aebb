"""`needs_input_grad: true` (backward.yaml): a grad kernel computes only the gradients the graph
uses. The spec checks, the generated call, and for every op that uses it (add, subtract,
multiply, divide, matmul, linear, the convolutions) the skipped path against the full one:
the same values for what is computed, None for what is not, and the same gradients through
create_graph."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
import yaml
from test_codegen_validation import BACKWARD, OPS, assert_error, errors, line_of, write_spec

import opgrad as og
from opgrad.codegen import generate
from opgrad.runtime.kernels.registry import lookup

ROOT = Path(__file__).resolve().parents[1]
USERS = sorted(
    e["backward_op"]
    for e in yaml.safe_load((ROOT / "backward.yaml").read_text())
    if e.get("needs_input_grad")
)


def test_the_key_is_checked_with_file_and_line(tmp_path: Path) -> None:
    bad_value = BACKWARD.replace(
        "  output: (Tensor(x_grad), Tensor(y_grad))",
        "  output: (Tensor(x_grad), Tensor(y_grad))\n  needs_input_grad: 1",
    )
    assert_error(
        errors(tmp_path / "a", OPS, bad_value),
        "backward.yaml",
        line_of(bad_value, "needs_input_grad"),
        "mul_grad",
        "'needs_input_grad' must be true or false",
    )
    composite_only = BACKWARD.replace(
        "  args: (Tensor out, Tensor out_grad)\n  output: Tensor(x_grad)",
        "  args: (Tensor out, Tensor out_grad)\n  output: Tensor(x_grad)\n"
        "  composite: out_grad * (1 - out * out)\n  needs_input_grad: true",
    )
    assert_error(
        errors(tmp_path / "b", OPS, composite_only),
        "backward.yaml",
        line_of(composite_only, "needs_input_grad"),
        "tanh_grad",
        "needs_input_grad needs a kernel",
    )
    ops = OPS + "\n- op: cat\n  args: (Tensor[] xs)\n  output: Tensor(out)\n  backward: cat_grad\n"
    listed = (
        BACKWARD + "\n- backward_op: cat_grad\n  args: (Tensor[] xs, Tensor out_grad)\n"
        "  output: Tensor[](xs_grad)\n  needs_input_grad: true\n"
    )
    assert_error(
        errors(tmp_path / "c", ops, listed),
        "backward.yaml",
        line_of(listed, "needs_input_grad"),
        "cat_grad",
        "not supported with a Tensor[] gradient output",
    )


def test_the_generated_node_passes_the_edges_as_needs(tmp_path: Path) -> None:
    backward = BACKWARD.replace(
        "  output: (Tensor(x_grad), Tensor(y_grad))",
        "  output: (Tensor(x_grad), Tensor(y_grad))\n  needs_input_grad: true",
    )
    nodes = generate(write_spec(tmp_path, OPS, backward))["nodes.py"]
    node = nodes[nodes.index("class MulGradNode") :]
    assert "(self._next0 is not None, self._next1 is not None)," in node
    assert "x_grad = None if _r0 is None else wrap(_r0)" in node


def test_every_user_is_a_kernel_that_defaults_to_computing_everything() -> None:
    assert USERS == [
        "add_grad",
        "conv1d_grad",
        "conv2d_grad",
        "conv3d_grad",
        "conv_transpose1d_grad",
        "conv_transpose2d_grad",
        "divide_grad",
        "linear_grad",
        "matmul_grad",
        "multiply_grad",
        "pow_double_grad",
        "subtract_grad",
        "tanh_double_grad",
    ]
    for name in USERS:
        assert lookup(name, "cpu").__defaults__[-1] is None, name  # needs=None


def _cases():
    rng = np.random.default_rng(0)
    r = rng.standard_normal
    for binary in (og.add, og.subtract, og.multiply, og.divide):
        yield f"{binary.__name__}, broadcast", binary, [r((3, 4)), r(4) + 3], {}
    yield "matmul 2-D", og.matmul, [r((3, 4)), r((4, 5))], {}
    yield "matmul batched, broadcast", og.matmul, [r((2, 3, 4)), r((4, 5))], {}
    yield "matmul 1-D @ 2-D", og.matmul, [r(4), r((4, 5))], {}
    yield "matmul transposed", og.matmul, [r((4, 3)), r((5, 4))], {"transpose_x": True, "transpose_y": True}
    yield "linear 3-D", og.linear, [r((2, 3, 4)), r((4, 5)), r(5)], {}
    yield "conv2d", og.conv2d, [r((2, 3, 6, 6)), r((4, 3, 3, 3)), r(4)], {"stride": 2, "padding": 1}
    yield "conv1d", og.conv1d, [r((2, 3, 7)), r((4, 3, 3)), r(4)], {"stride": 2, "padding": 1}
    yield "conv_transpose1d", og.conv_transpose1d, [r((2, 3, 5)), r((3, 2, 3)), r(2)], {"stride": 2}
    yield (
        "conv_transpose2d",
        og.conv_transpose2d,
        [r((2, 3, 4, 5)), r((3, 2, 3, 2)), r(2)],
        {"stride": 2, "padding": 1},
    )
    yield "conv3d", og.conv3d, [r((2, 2, 4, 5, 5)), r((3, 2, 2, 3, 2)), r(3)], {"stride": 2, "padding": 1}


@pytest.mark.parametrize(
    ("name", "op", "arrays", "kwargs"), list(_cases()), ids=lambda v: v if isinstance(v, str) else ""
)
def test_skipping_unused_gradients_gives_the_full_paths_values(name, op, arrays, kwargs):
    def grads(mask, create_graph):
        ts = [og.tensor(a, requires_grad=m) for a, m in zip(arrays, mask, strict=True)]
        out = op(*ts, **kwargs)
        w = og.tensor(np.cos(np.arange(out.size)).reshape(out.shape))
        wanted = [t for t in ts if t.requires_grad]
        got = og.grad((out * w).sum(), wanted, create_graph=create_graph)
        node = out.grad_fn
        return dict(zip([i for i, m in enumerate(mask) if m], got, strict=True)), node

    full, _ = grads([True] * len(arrays), False)
    for mask in itertools.product([True, False], repeat=len(arrays)):
        if not any(mask):
            continue
        for create_graph in (False, True):
            got, node = grads(list(mask), create_graph)
            assert sorted(got) == [i for i, m in enumerate(mask) if m]
            for i, g in got.items():
                np.testing.assert_allclose(
                    g.numpy(), full[i].numpy(), rtol=1e-12, atol=1e-12, err_msg=f"{mask}"
                )
        # the node itself returns None where no edge leads
        seeds = [og.tensor(np.ones(node.output_meta_at(0)[0]))]
        returned = node.apply(seeds, False)
        for i, m in enumerate(mask):
            assert (returned[i] is None) == (not m), (mask, i)
