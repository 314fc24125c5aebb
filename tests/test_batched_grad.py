"""The batched backward (`og.grad(..., is_grads_batched=True)`, runtime/batching.py) in
float64: every batching rule and the per-row fallback against one ordinary grad() per row,
with and without create_graph, and every op of the op table (first and second order); the
Jacobians and Hessians built on it against the row-by-row path, central differences and
torch.func when installed."""

from __future__ import annotations

import numpy as np
import pytest
from test_ops import _as_list, _grad_setup, _gradcheck_case

import opgrad as og
from op_samples import OPS, YAML_OPS
from opgrad import func
from opgrad.generated import nodes
from opgrad.runtime import batching
from opgrad.runtime.grad_node import GradNode

RNG = np.random.default_rng(7)


def t(a, requires_grad=False):
    return og.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


W1 = RNG.standard_normal((6, 5)) / 2
W2 = RNG.standard_normal((5, 4)) / 2

# name -> (input shape, function); each covers one rule (or the fallback) at least once
CASES = {
    "tanh_matmul_1d": ((6,), lambda x: og.tanh(x @ t(W1))),
    "tanh_matmul_3d": ((2, 2, 6), lambda x: og.tanh(og.tanh(x @ t(W1)) @ t(W2))),
    "tanh_matmul_2d": ((3, 6), lambda x: og.tanh(og.tanh(x @ t(W1)) @ t(W2))),
    "pointwise": ((2, 3), lambda x: og.sin(x) * og.cos(x) + og.exp(x) + og.log(og.sigmoid(x))),
    "reshape_flatten_squeeze": (
        (2, 3),
        lambda x: og.flatten(og.unsqueeze(og.reshape(og.tanh(x), [3, 2]), 0)),
    ),
    "sum_mean_axes": ((2, 3, 2), lambda x: og.sum(og.tanh(x), [0, 2]) + og.mean(x * x, 1, True)[0, :, 0]),
    "fallback_ops": ((2, 3), lambda x: og.softmax(x, -1) * og.concat([x[:, :1], x[:, 1:] * 2], 1)),
    "stack": ((2, 3), lambda x: og.stack([og.tanh(x), x * 2, x[:, ::-1]], -1)),
    "binary": ((2, 3), lambda x: (x + t([1.0, 2.0, 3.0])) * og.sum(x, 0) / (x[:1] * x[:1] + 1.0) - x[:, :1]),
    "scale_neg_relu_transpose": ((2, 3), lambda x: og.transpose(og.relu(-x * 3.0 + 0.5), [1, 0]) @ t(W1[:2])),
    "linear": ((2, 3, 6), lambda x: og.tanh(og.linear(x, t(W1), t(W1[0])))),
    "linear_1d_no_bias": ((6,), lambda x: og.linear(og.tanh(x), t(W1))),
    "mixed_dtypes": (
        (2, 3),
        lambda x: x * og.tensor(np.float32([1.5, 2.0, -1.0])) + og.cast(og.tanh(x), "float32"),
    ),
    "broadcast": ((3,), lambda x: og.tanh(x) * t(RNG.standard_normal((2, 3))) + x[None, :] / 3),
}


def _rows(y, x, seeds, create_graph):
    return np.stack(
        [og.grad([y], [x], [s], retain_graph=True, create_graph=create_graph)[0].numpy() for s in seeds]
    )


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("name", sorted(CASES))
def test_batched_grad_equals_one_grad_per_row(name, create_graph):
    shape, fn = CASES[name]
    x = t(RNG.standard_normal(shape), requires_grad=True)
    y = fn(x)
    seeds = t(RNG.standard_normal((4, *y.shape)))
    (batched,) = og.grad(
        [y], [x], [seeds], retain_graph=True, create_graph=create_graph, is_grads_batched=True
    )
    assert batched.shape == (4, *shape)
    (row,) = og.grad([y], [x], [seeds[0]], retain_graph=True, create_graph=create_graph)
    # a rule records only what the result depends on; the node's own grad op may record an
    # edge to an input whose derivative is zero (matmul_grad to x for x_grad)
    assert row.requires_grad or not batched.requires_grad
    if create_graph and name.startswith("tanh"):
        assert batched.requires_grad
    np.testing.assert_allclose(batched.numpy(), _rows(y, x, seeds, False), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_order_batched_grad_and_the_fallback_agree(name, monkeypatch):
    """Through a create_graph gradient (the grad ops and double-grad nodes), with the rules
    and with every node on the per-row fallback."""
    shape, fn = CASES[name]
    x = t(RNG.standard_normal(shape), requires_grad=True)
    (g,) = og.grad([og.sum(fn(x) ** 2)], [x], create_graph=True)
    seeds = t(RNG.standard_normal((3, *g.shape)))
    (with_rules,) = og.grad([g], [x], [seeds], retain_graph=True, is_grads_batched=True)
    monkeypatch.setattr(batching, "RULES", {})
    (fallback,) = og.grad([g], [x], [seeds], retain_graph=True, is_grads_batched=True)
    expected = _rows(g, x, seeds, False)
    np.testing.assert_allclose(with_rules.numpy(), expected, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(fallback.numpy(), expected, rtol=1e-12, atol=1e-14)


def test_rules_name_existing_nodes():
    assert nodes.TanhGradNode.name in batching.RULES
    names, todo = set(), [GradNode]
    while todo:  # every GradNode class: the generated ones and the runtime's own
        cls = todo.pop()
        names.add(cls.name)
        todo += cls.__subclasses__()
    unknown = sorted(set(batching.RULES) - names)
    assert not unknown, f"runtime/batching.py registers rules for nodes that do not exist: {unknown}"


def test_a_graph_with_hooks_runs_one_pass_per_row():
    x = t(RNG.standard_normal(3), requires_grad=True)
    seen = []
    h = og.tanh(x)
    h.register_hook(lambda g: seen.append(g.shape) or g * 2)
    z = h * 3
    (batched,) = og.grad([z], [x], [t(np.eye(3))], is_grads_batched=True)
    assert seen == [(3,)] * 3  # the hook saw one row at a time
    np.testing.assert_allclose(batched.numpy(), np.diag(6 * (1 - np.tanh(x.numpy()) ** 2)), atol=1e-14)


def test_bad_batched_arguments():
    x = t([1.0, 2.0], requires_grad=True)
    y = og.tanh(x)
    with pytest.raises(ValueError, match="leading batch dimension"):
        og.grad([y], [x], [t([1.0, 2.0])[0]], is_grads_batched=True)
    with pytest.raises(ValueError, match=r"must be \(batch, \*\(2,\)\)"):
        og.grad([y], [x], [t(np.ones((2, 3)))], is_grads_batched=True)
    with pytest.raises(ValueError, match="size 0"):
        og.grad([y], [x], [t(np.ones((0, 2)))], is_grads_batched=True)
    with pytest.raises(ValueError, match="needs grad_outputs"):
        og.grad([y], [x], is_grads_batched=True)
    with pytest.raises(ValueError, match="only_inputs"):
        og.grad([y], [x], [t(np.ones((1, 2)))], only_inputs=False, is_grads_batched=True)


def mlp_np(x):
    return float(np.sum(np.tanh(np.tanh(x @ W1) @ W2)))


def mlp_og(x):
    return og.sum(og.tanh(og.tanh(x @ t(W1)) @ t(W2)))


def test_hessians_vectorised_and_row_by_row_agree_with_finite_differences():
    x0 = RNG.standard_normal(6)
    h_func = func.hessian(mlp_og)(t(x0)).numpy()
    h_rows = og.autograd.functional.hessian(mlp_og, t(x0)).numpy()
    h_vec = og.autograd.functional.hessian(mlp_og, t(x0), vectorize=True).numpy()
    eps = 1e-4
    fd = np.zeros((6, 6))
    for i in range(6):
        for j in range(6):
            e_i, e_j = np.eye(6)[i] * eps, np.eye(6)[j] * eps
            fd[i, j] = (
                mlp_np(x0 + e_i + e_j)
                - mlp_np(x0 + e_i - e_j)
                - mlp_np(x0 - e_i + e_j)
                + mlp_np(x0 - e_i - e_j)
            ) / (4 * eps * eps)
    np.testing.assert_allclose(h_vec, h_rows, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(h_func, h_rows, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(h_func, fd, atol=1e-6)


def test_jacobians_vectorised_equal_row_by_row():
    x0 = RNG.standard_normal((2, 6))
    jac_rows = og.autograd.functional.jacobian(lambda x: og.tanh(x @ t(W1)), t(x0))
    jac_vec = og.autograd.functional.jacobian(lambda x: og.tanh(x @ t(W1)), t(x0), vectorize=True)
    jac_rev = func.jacrev(lambda x: og.tanh(x @ t(W1)))(t(x0))
    assert jac_vec.shape == (2, 5, 2, 6) and not jac_vec.requires_grad
    np.testing.assert_allclose(jac_vec.numpy(), jac_rows.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(jac_rev.numpy(), jac_rows.numpy(), rtol=1e-12, atol=1e-14)
    # several inputs and outputs, an unused input, create_graph
    a, b = t(RNG.standard_normal(3)), t(RNG.standard_normal(3))
    fn = lambda p, q: (og.tanh(p) * 2, og.sum(p * p))  # noqa: E731
    rows = og.autograd.functional.jacobian(fn, (a, b), create_graph=True)
    vec = og.autograd.functional.jacobian(fn, (a, b), create_graph=True, vectorize=True)
    for r_row, v_row in zip(rows, vec, strict=True):
        for r, v in zip(r_row, v_row, strict=True):
            np.testing.assert_allclose(v.numpy(), r.numpy(), rtol=1e-12, atol=1e-14)
    with pytest.raises(RuntimeError, match="independent of input 1"):
        og.autograd.functional.jacobian(fn, (a, b), strict=True, vectorize=True)
    # forward mode: the batched columns equal one jvp per column
    cols = og.autograd.functional.jacobian(fn, (a, b), strategy="forward-mode")
    vec = og.autograd.functional.jacobian(fn, (a, b), strategy="forward-mode", vectorize=True)
    for c_row, v_row in zip(cols, vec, strict=True):
        for c, v in zip(c_row, v_row, strict=True):
            assert not v.requires_grad
            np.testing.assert_allclose(v.numpy(), c.numpy(), rtol=1e-12, atol=1e-14)


def test_third_order_through_a_vectorised_hessian():
    """The Hessian's graph (batched rules under create_graph) differentiates again."""
    x0 = RNG.standard_normal(3)

    def cubic(x):
        return og.sum(og.tanh(x) * og.sin(x)) + og.sum(x @ t(W1[:3]))

    third = func.jacrev(func.hessian(cubic))(t(x0)).numpy()
    per_row = og.autograd.functional.jacobian(
        lambda x: og.autograd.functional.hessian(cubic, x, create_graph=True), t(x0)
    ).numpy()
    np.testing.assert_allclose(third, per_row, rtol=1e-10, atol=1e-12)


def test_against_torch_func_hessian():
    torch = pytest.importorskip("torch")
    x0 = RNG.standard_normal(6)
    t1, t2 = torch.tensor(W1), torch.tensor(W2)
    theirs = torch.func.hessian(lambda z: torch.sum(torch.tanh(torch.tanh(z @ t1) @ t2)))(torch.tensor(x0))
    np.testing.assert_allclose(func.hessian(mlp_og)(t(x0)).numpy(), theirs.numpy(), rtol=1e-12, atol=1e-14)
    tx = torch.tensor(RNG.standard_normal((2, 6)))
    theirs = torch.func.jacrev(lambda z: torch.tanh(z @ t1))(tx)
    ours = func.jacrev(lambda z: og.tanh(z @ t(W1)))(t(tx.numpy()))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12, atol=1e-14)


def test_jacrev_records_only_what_something_outside_can_differentiate():
    x0, c0 = RNG.standard_normal(3), RNG.standard_normal(3)
    # nothing outside: the Jacobian is a plain tensor
    assert not func.jacrev(lambda x: og.tanh(x) * 2)(t(x0)).requires_grad
    # the caller's tensor requires grad: the Jacobian is a function of it
    x = t(x0, requires_grad=True)
    jac = func.jacrev(lambda z: og.tanh(z) * 2)(x)
    (g,) = og.grad([og.sum(jac)], [x])
    np.testing.assert_allclose(g.numpy(), -4 * np.tanh(x0) * (1 - np.tanh(x0) ** 2), atol=1e-14)

    # a closure over an outer transform's input: recorded, so the outer gradient sees it
    def outer(a):
        inner = func.jacrev(lambda y: og.tanh(a * y))(t(c0))  # diag((1 - tanh(a c)^2) a)
        return og.sum(inner)

    def outer_np(a):
        return float(np.sum((1 - np.tanh(a * c0) ** 2) * a))

    eps = 1e-6
    fd = np.array([(outer_np(x0 + e) - outer_np(x0 - e)) / (2 * eps) for e in np.eye(3) * eps])
    np.testing.assert_allclose(func.grad(outer)(t(x0)).numpy(), fd, atol=1e-8)


@pytest.mark.parametrize("chunk_size", [1, 2, 5, 64])
def test_jacrev_chunks_give_the_same_jacobian(chunk_size):
    x0 = RNG.standard_normal((2, 6))
    fn = lambda x: og.tanh(x @ t(W1))  # noqa: E731
    whole = func.jacrev(fn)(t(x0)).numpy()
    np.testing.assert_allclose(func.jacrev(fn, chunk_size=chunk_size)(t(x0)).numpy(), whole, rtol=1e-13)
    with pytest.raises(ValueError, match="chunk_size"):
        func.jacrev(fn, chunk_size=0)


def test_a_leaf_hook_makes_the_batched_grad_run_per_row():
    x = t(RNG.standard_normal(3), requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.shape))
    (batched,) = og.grad([og.tanh(x)], [x], [t(np.eye(3))], is_grads_batched=True)
    assert seen == [(3,)] * 3
    np.testing.assert_allclose(batched.numpy(), np.diag(1 - np.tanh(x.numpy()) ** 2), atol=1e-14)


# -- every op of the op table: the batched pass against one pass per row --------------------
def _op_cases() -> list:
    params = []
    for name in YAML_OPS:
        info = OPS.get(name)
        if info is None:
            continue  # test_ops.py reports the missing OpInfo
        kept = [s for s in info.sample_list() if _gradcheck_case(info, s) and "grad" not in s.xfail]
        params += [pytest.param(name, s, id=f"{name}-{i}") for i, s in enumerate(kept[:2])]
    return params


@pytest.mark.parametrize("name, sample", _op_cases())
def test_every_op_batched_equals_rows(name, sample):
    """First order, and (where the op's backward is differentiable) second order through a
    create_graph gradient: one batched pass equals one ordinary pass per row."""
    fn, leaves = _grad_setup(OPS[name], sample)
    outs = [o for o in _as_list(fn(*leaves)) if isinstance(o, og.Tensor) and o.requires_grad]
    if not outs:
        return
    rng = np.random.default_rng(3)
    batch = 3
    seeds = [og.tensor(rng.standard_normal((batch, *o.shape)).astype(o.dtype)) for o in outs]
    if any(o.dtype.kind == "c" for o in outs):
        seeds = [og.tensor((rng.standard_normal((batch, *o.shape)) + 1j).astype(o.dtype)) for o in outs]
    _compare(outs, leaves, seeds, batch, name)
    try:
        firsts = og.grad(outs, leaves, [s[0] for s in seeds], create_graph=True, allow_unused=True)
    except RuntimeError:
        return  # no double backward
    gs = [g for g in firsts if g is not None and g.requires_grad]
    if gs:
        seeds2 = [og.tensor(rng.standard_normal((batch, *g.shape)).astype(g.dtype)) for g in gs]
        try:
            og.grad(gs, leaves, [s[0] for s in seeds2], retain_graph=True, allow_unused=True)
        except RuntimeError:
            return  # a grad op without a backward
        _compare(gs, leaves, seeds2, batch, name)


def _compare(outs, leaves, seeds, batch, name):
    rows = [
        og.grad(outs, leaves, [s[b] for s in seeds], retain_graph=True, allow_unused=True)
        for b in range(batch)
    ]
    batched = og.grad(outs, leaves, seeds, retain_graph=True, allow_unused=True, is_grads_batched=True)
    for i, g in enumerate(batched):
        if g is None:
            assert all(r[i] is None for r in rows), f"{name}: input {i} got no batched gradient"
            continue
        expected = np.stack([r[i].numpy() for r in rows])
        tol = 1e-12 if g.dtype in (np.float64, np.complex128) else 1e-5
        np.testing.assert_allclose(g.numpy(), expected, rtol=tol, atol=tol, err_msg=f"{name}: input {i}")


def test_a_custom_function_makes_the_batched_grad_run_per_row():
    shapes = []

    class Cube(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return og.tensor(x.numpy() ** 3)

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            shapes.append(grad.shape)  # user code sees one row's gradient
            return grad * 3 * x * x

    x = t(RNG.standard_normal(3), requires_grad=True)
    (batched,) = og.grad([og.tanh(Cube.apply(x))], [x], [t(np.eye(3))], is_grads_batched=True)
    assert shapes == [(3,)] * 3
    c = x.numpy() ** 3
    np.testing.assert_allclose(
        batched.numpy(), np.diag((1 - np.tanh(c) ** 2) * 3 * x.numpy() ** 2), atol=1e-14
    )


# -- og.func.jacfwd: batched columns against forward mode, every op of the op table -------------
def _small_cases() -> list:
    params = []
    for name in YAML_OPS:
        info = OPS.get(name)
        if info is None or info.complex_io:
            continue
        for s in info.sample_list():
            if _gradcheck_case(info, s) and "grad" not in s.xfail:
                _, leaves = _grad_setup(info, s)
                if sum(x.size for x in leaves) <= 24:
                    params.append(pytest.param(name, s, id=name))
                break
    return params


@pytest.mark.parametrize("name, sample", _small_cases())
def test_jacfwd_equals_forward_mode_column_by_column(name, sample):
    fn, leaves = _grad_setup(OPS[name], sample)
    xs = tuple(og.tensor(x.numpy().astype(np.float64)) for x in leaves)

    def f(*a):
        outs = [o for o in _as_list(fn(*a)) if isinstance(o, og.Tensor) and o.dtype.kind == "f"]
        return tuple(outs) if len(outs) > 1 else outs[0]

    ours = func.jacfwd(f, argnums=tuple(range(len(xs))))(*xs)
    fwd = og.autograd.functional.jacobian(f, xs, strategy="forward-mode")
    flat_ours = [j for row in (ours if isinstance(ours[0], tuple) else (ours,)) for j in row]
    flat_fwd = [j for row in (fwd if isinstance(fwd[0], tuple) else (fwd,)) for j in row]
    for a, b in zip(flat_ours, flat_fwd, strict=True):
        assert a.shape == b.shape
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-10, rtol=1e-8, err_msg=name)


def test_jacfwd_keeps_forward_mode_for_hooks_and_records_for_outer_transforms():
    x0 = RNG.standard_normal(3)
    seen = []

    def hooked(x):
        h = og.tanh(x)
        h.register_hook(lambda g: seen.append(1))
        return h * 2

    jac = func.jacfwd(hooked)(t(x0))
    assert seen == []  # forward mode runs no backward hooks
    np.testing.assert_allclose(jac.numpy(), np.diag(2 * (1 - np.tanh(x0) ** 2)), atol=1e-14)
    # jacfwd(jacrev) and jacfwd inside grad: recorded where an outer transform needs it
    x1 = t(RNG.standard_normal(6))
    np.testing.assert_allclose(
        func.jacfwd(func.jacrev(mlp_og))(x1).numpy(), func.hessian(mlp_og)(x1).numpy(), rtol=1e-12, atol=1e-14
    )
    x = t(x0, requires_grad=True)
    (g,) = og.grad([og.sum(func.jacfwd(lambda z: og.tanh(z) * 2)(x))], [x])
    np.testing.assert_allclose(g.numpy(), -4 * np.tanh(x0) * (1 - np.tanh(x0) ** 2), atol=1e-14)
