"""Behaviour of the linear-algebra ops that the op table (op_samples_linalg.py) cannot express:
errors that name the op and the batch element, the og.linalg namespace, the gradient at a
singular matrix, and a third-order check of a composite gradient."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og


def _t(a, requires_grad=False):
    return og.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def test_linalg_namespace_holds_the_same_functions():
    # as in torch.linalg: its norms are its own (og.norm is the vector p-norm op)
    own = {
        "vector_norm",
        "matrix_norm",
        "norm",
        "solve",
        "pinv",
        "lstsq",
        "LstsqResult",
        "cond",
        "matrix_rank",
        "multi_dot",
    }
    for name in og.linalg.__all__:
        if name not in own:
            assert getattr(og.linalg, name) is getattr(og, name)
    assert og.linalg.norm is not og.norm and not hasattr(og, "vector_norm")
    assert og.linalg.solve is not og.solve  # torch.linalg.solve's vector rule and left=
    import opgrad.linalg

    assert opgrad.linalg is og.linalg


def test_cholesky_of_a_non_positive_definite_matrix_names_the_batch_element():
    good = np.eye(3) * 2
    bad = np.diag([1.0, -1.0, 1.0])
    x = _t(np.stack([np.stack([good, good]), np.stack([good, bad])]))
    with pytest.raises(ValueError, match=r"cholesky: x\[1, 1\] is not positive definite"):
        og.cholesky(x)
    with pytest.raises(ValueError, match=r"cholesky: x is not positive definite"):
        og.cholesky(_t(bad))


def test_cholesky_reads_the_symmetric_part():
    a = np.array([[4.0, 1.0], [3.0, 5.0]])
    low = og.cholesky(_t(a)).numpy()
    np.testing.assert_allclose(low @ low.T, (a + a.T) / 2, rtol=1e-12)
    up = og.cholesky(_t(a), upper=True).numpy()
    np.testing.assert_allclose(up, low.T)


def test_inv_and_solves_of_a_singular_matrix_name_the_batch_element():
    x = _t(np.stack([np.eye(2), np.ones((2, 2))]))
    with pytest.raises(ValueError, match=r"triangular_solve: x\[1\] is singular"):
        og.triangular_solve(_t(np.stack([np.eye(2), np.triu(np.ones((2, 2)), 1)])), _t(np.ones((2, 1))))
    with pytest.raises(ValueError, match=r"inv: x\[1\] is singular"):
        og.inv(x)
    with pytest.raises(ValueError, match=r"solve: a\[1\] is singular"):
        og.solve(x, _t(np.ones((2, 1))))


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: og.inv(_t(np.ones((2, 3)))), r"inv: x has shape \(2, 3\); expected square"),
        (lambda: og.det(_t(np.ones(3))), r"det: x has shape \(3,\); expected at least 2 dimensions"),
        (lambda: og.solve(_t(np.eye(3)), _t(np.ones(3))), r"solve: a has shape .* expected b of shape"),
        (lambda: og.solve(_t(np.ones((2, 3, 3))), _t(np.ones((4, 3, 1)))), r"solve: .*batch dimensions"),
        (lambda: og.outer(_t(np.ones((2, 2))), _t(np.ones(2))), r"outer: .*expected 1-D"),
        (lambda: og.cross(_t(np.ones(4)), _t(np.ones(4))), r"cross: axis -1 has size 4"),
        (lambda: og.diagonal(_t(np.ones((2, 2))), 0, 1, 1), r"diagonal: axis1 and axis2 are the same axis"),
        (
            lambda: og.diag_embed(_t(np.ones((2, 2))), 0, 1, -2),
            r"diag_embed: dim1 and dim2 are the same axis",
        ),
        (lambda: og.bmm(_t(np.ones((2, 2, 3))), _t(np.ones((3, 3, 2)))), r"bmm: .*expected \(b, n, m\)"),
        (lambda: og.trace(_t(np.ones(3))), r"trace: x has shape \(3,\)"),
        (lambda: og.matrix_power(_t(np.ones((2, 2))), -1), r"matrix_power: x is singular; a negative n"),
    ],
)
def test_bad_input_gets_a_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_det_of_a_singular_matrix_is_zero_and_its_gradient_raises():
    x = _t([[1.0, 2.0], [2.0, 4.0]], requires_grad=True)
    d = og.det(x)
    assert d.item() == 0.0
    with pytest.raises(ValueError, match=r"inv: x is singular"):
        d.backward()


def test_slogdet_of_a_singular_matrix():
    sign, logabsdet = og.slogdet(_t([[1.0, 2.0], [2.0, 4.0]]))
    assert sign.item() == 0.0 and logabsdet.item() == -np.inf


def test_integer_input_computes_in_the_default_float_dtype():
    assert og.inv(og.tensor([[2, 0], [0, 4]])).dtype == og.float32
    np.testing.assert_allclose(og.det(og.tensor([[2, 1], [1, 3]])).numpy(), 5.0, rtol=1e-6)


def test_third_order_gradients_of_the_composites():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    spd = a @ a.T + 3 * np.eye(3)

    def third(fn, x):
        return og.testing.gradgradcheck(
            lambda t: og.grad(fn(t).sum(), [t], create_graph=True)[0], [_t(x, True)], raise_exception=True
        )

    assert third(lambda t: og.inv(t), a)
    assert third(lambda t: og.det(t), a)
    assert third(lambda t: og.cholesky(t), spd)
    assert third(lambda t: og.matrix_power(t, 3), a / 3)
    assert third(lambda t: og.triangular_solve(t, _t(spd), False, True), a)
    assert third(lambda t: og.cholesky_solve(_t(spd), t), a)
    assert third(lambda t: og.solve(t, _t(spd)), a)
