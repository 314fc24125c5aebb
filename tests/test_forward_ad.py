"""og.autograd.forward_ad: dual levels, make_dual/unpack_dual, tangents through ops, views,
in-place writes, no_grad, and forward-over-reverse."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.autograd import forward_ad as fw
from opgrad.generated import grad_ops
from opgrad.runtime.dual import FORWARD, pause_rules, resume_rules, rule_scope

RNG = np.random.default_rng(1)


def t(a, requires_grad=False):
    return og.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def test_tangent_of_a_composition_matches_finite_differences():
    x, v = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))
    w = RNG.standard_normal((3, 4))

    def f_np(a):
        return np.exp(np.tanh(a @ w)).sum(axis=0) / 3

    def f_og(a):
        return og.sum(og.exp(og.tanh(a @ t(w))), axis=0) / 3

    eps = 1e-6
    numeric = (f_np(x + eps * v) - f_np(x - eps * v)) / (2 * eps)
    with fw.dual_level():
        y = f_og(fw.make_dual(t(x), t(v)))
        primal, tangent = fw.unpack_dual(y)
    np.testing.assert_allclose(primal.numpy(), f_np(x))
    np.testing.assert_allclose(tangent.numpy(), numeric, atol=1e-8)
    assert not tangent.requires_grad  # nothing required grad: nothing recorded


def test_no_tangent_gives_none_and_tangents_end_with_the_level():
    with fw.dual_level():
        a = t([1.0, 2.0])
        assert fw.unpack_dual(og.tanh(a)).tangent is None
        d = fw.make_dual(a, t([1.0, 0.0]))
        y = d * 2
        assert fw.unpack_dual(y).tangent is not None
    assert fw.unpack_dual(y).tangent is None
    assert fw.unpack_dual(d).tangent is None
    with fw.dual_level():  # a new level does not see the old tangents
        assert fw.unpack_dual(y).tangent is None


def test_nested_levels_and_make_dual_outside_a_level_raise():
    with fw.dual_level():
        with pytest.raises(RuntimeError, match="nested forward mode"):
            with fw.dual_level():
                pass
        # the open level is still usable after the refused nesting
        d = fw.make_dual(t([1.0]), t([2.0]))
        assert fw.unpack_dual(d * 3).tangent.item() == 6.0
    with pytest.raises(RuntimeError, match="no dual level is open"):
        fw.make_dual(t([1.0]), t([1.0]))


def test_make_dual_refuses_mismatched_tangents():
    with fw.dual_level():
        with pytest.raises(ValueError, match=r"tangent has shape \(3,\) but tensor has shape \(2,\)"):
            fw.make_dual(t([1.0, 2.0]), t([1.0, 2.0, 3.0]))
        with pytest.raises(TypeError, match="tangent has dtype float32 but tensor has dtype float64"):
            fw.make_dual(t([1.0, 2.0]), og.tensor([1.0, 2.0]))
        with pytest.raises(TypeError, match="tangent must be a Tensor"):
            fw.make_dual(t([1.0, 2.0]), [1.0, 2.0])
        with pytest.raises(TypeError, match="floating"):
            fw.make_dual(og.tensor([1, 2]), og.tensor([1, 2]))


def test_no_grad_does_not_stop_forward_mode():
    with fw.dual_level(), og.no_grad():
        d = fw.make_dual(t([0.5, -0.5]), t([1.0, 2.0]))
        tangent = fw.unpack_dual(og.sin(d)).tangent
    np.testing.assert_allclose(tangent.numpy(), np.cos([0.5, -0.5]) * [1.0, 2.0])


def test_views_share_their_base_tangent_and_inplace_writes_update_it():
    with fw.dual_level():
        base = fw.make_dual(t(np.arange(6.0)), t(np.ones(6)))
        view = og.reshape(base, [2, 3])
        row = view[0]
        np.testing.assert_array_equal(fw.unpack_dual(row).tangent.numpy(), np.ones(3))
        # an in-place op on the view: its tangent is written into the base's tangent memory
        row.multiply_(t([2.0, 3.0, 4.0]))
        np.testing.assert_array_equal(fw.unpack_dual(row).tangent.numpy(), [2.0, 3.0, 4.0])
        np.testing.assert_array_equal(fw.unpack_dual(base).tangent.numpy(), [2.0, 3.0, 4.0, 1.0, 1.0, 1.0])


def test_inplace_op_uses_the_old_value():
    x0, tx = np.array([0.3, 0.7]), np.array([1.0, -1.0])
    y0, ty = np.array([2.0, 5.0]), np.array([0.5, 0.25])
    with fw.dual_level():
        x = fw.make_dual(t(x0), t(tx))
        y = fw.make_dual(t(y0), t(ty))
        x.multiply_(y)  # d(x*y) = tx*y + x*ty with x's value before the write
        tangent = fw.unpack_dual(x).tangent
    np.testing.assert_allclose(tangent.numpy(), tx * y0 + x0 * ty)


def test_setitem_tangent():
    with fw.dual_level():
        x = fw.make_dual(t([1.0, 2.0, 3.0]), t([1.0, 1.0, 1.0]))
        value = fw.make_dual(t([7.0]), t([5.0]))
        x[1:2] = value
        np.testing.assert_array_equal(fw.unpack_dual(x).tangent.numpy(), [1.0, 5.0, 1.0])
        z = fw.make_dual(t([1.0, 2.0]), t([1.0, 1.0]))
        z[0] = 4.0  # a constant has no tangent
        np.testing.assert_array_equal(fw.unpack_dual(z).tangent.numpy(), [0.0, 1.0])


def test_forward_over_reverse_matches_reverse_over_reverse():
    x0, v0 = RNG.standard_normal(4), RNG.standard_normal(4)

    def f(z):
        return og.sum(og.tanh(z) * og.exp(z) + og.softmax(z, axis=0) * z)

    x = t(x0, requires_grad=True)
    (g,) = og.grad([f(x)], [x], create_graph=True)
    (hv_rr,) = og.grad([og.sum(g * t(v0))], [x])
    with fw.dual_level():
        d = fw.make_dual(t(x0, requires_grad=True), t(v0))
        (g,) = og.grad([f(d)], [d], create_graph=True)
        hv_fr = fw.unpack_dual(g).tangent
    np.testing.assert_allclose(hv_fr.numpy(), hv_rr.numpy(), atol=1e-12)


def test_tangents_mix_with_reverse_mode():
    # the tangent is recorded: differentiating it in reverse mode gives d/dx (J v)
    x = t([0.3, -0.4], requires_grad=True)
    with fw.dual_level():
        d = fw.make_dual(x, t([1.0, 1.0]))
        tangent = fw.unpack_dual(og.tanh(d)).tangent
    (g,) = og.grad([og.sum(tangent)], [x])
    th = np.tanh([0.3, -0.4])
    np.testing.assert_allclose(g.numpy(), -2 * th * (1 - th**2))


def test_list_arguments_and_multi_output_ops():
    a, b = RNG.standard_normal(3), RNG.standard_normal(3)
    with fw.dual_level():
        x = fw.make_dual(t(a), t(np.ones(3)))
        y = og.concat([x, t(b)], 0)
        parts = og.split(y * 2, 2)
        values, _ = og.topk(x, 2)
        assert fw.unpack_dual(y).tangent.numpy().tolist() == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
        assert fw.unpack_dual(parts[0]).tangent.numpy().tolist() == [2.0, 2.0, 2.0]
        assert fw.unpack_dual(parts[1]).tangent.numpy().tolist() == [0.0, 0.0, 0.0]
        assert fw.unpack_dual(values).tangent.numpy().tolist() == [1.0, 1.0]


def test_rule_scopes_nest():
    with fw.dual_level():
        with rule_scope():
            with rule_scope():
                assert not FORWARD.active
            assert not FORWARD.active  # the inner scope's end does not resume forward mode
        assert FORWARD.active
    assert not FORWARD.active


def test_generated_rules_pause_like_rule_scope_and_resume_after_an_error(monkeypatch):
    """Generated rules pause with pause_rules()/resume_rules() in try/finally: they nest
    with rule_scope and leave forward mode on when the rule's own op raises."""
    with fw.dual_level():
        with rule_scope():
            pause_rules()
            resume_rules()
            assert not FORWARD.active and FORWARD.paused == 1
        assert FORWARD.active and FORWARD.paused == 0
        # a tangent that requires grad: the rule's general path (through grad_ops.tanh_grad)
        tangent = og.tensor(np.array([1.0, 2.0]), requires_grad=True)
        x = fw.make_dual(og.tensor(np.array([0.5, 1.0])), tangent)

        def broken(*args):
            assert not FORWARD.active  # called inside the rule, forward mode paused
            raise ValueError("broken tanh_grad")

        monkeypatch.setattr(grad_ops, "tanh_grad", broken)
        with pytest.raises(ValueError, match="broken tanh_grad"):
            og.tanh(x)
        assert FORWARD.active and FORWARD.paused == 0
        monkeypatch.undo()
        y = og.tanh(x)
        expected = np.array([1.0, 2.0]) * (1 - np.tanh([0.5, 1.0]) ** 2)
        np.testing.assert_allclose(fw.unpack_dual(y).tangent.numpy(), expected, rtol=1e-15)


def test_an_in_place_write_into_a_view_gives_its_base_a_tangent_as_pytorch():
    """The base had no tangent: it gets zeros, and the view's tangent is written into the
    matching part of it (a base without a tangent used to keep none: a silent zero)."""
    with fw.dual_level():
        x = og.zeros(4, dtype=og.float64)
        x[1:3].add_(fw.make_dual(og.tensor(np.array([1.0, 2.0])), og.tensor(np.array([10.0, 20.0]))))
        primal, tangent = fw.unpack_dual(x)
        assert primal.tolist() == [0.0, 1.0, 2.0, 0.0] and tangent.tolist() == [0.0, 10.0, 20.0, 0.0]
        assert fw.unpack_dual(og.sum(x * x))[1].item() == 2 * (1 * 10 + 2 * 20)
        m = og.zeros((4, 4), dtype=og.float64)
        inner = og.transpose(m[1:3], [1, 0])[2:]  # a view of a view of m: shape (2, 2)
        inner.add_(
            fw.make_dual(og.ones((2, 2), dtype=og.float64), og.tensor(np.array([[1.0, 2.0], [3.0, 4.0]])))
        )
        want = np.zeros((4, 4))
        want[1:3, 2:] = np.array([[1.0, 2.0], [3.0, 4.0]]).T
        np.testing.assert_array_equal(fw.unpack_dual(m)[1].numpy(), want)
    assert fw.unpack_dual(x)[1] is None  # the level closed


def test_a_view_made_before_its_base_got_a_tangent_writes_into_that_tangent():
    with fw.dual_level():
        base = og.zeros(3, dtype=og.float64)
        view = base[:2]
        dual = fw.make_dual(base, og.tensor(np.array([1.0, 1.0, 1.0])))  # a new tensor holding base's data
        assert fw.unpack_dual(view)[1] is None
        view.add_(fw.make_dual(og.tensor(np.array([1.0, 1.0])), og.tensor(np.array([5.0, 6.0]))))
        assert fw.unpack_dual(base)[1].tolist() == [5.0, 6.0, 0.0]
        assert fw.unpack_dual(dual)[1].tolist() == [1.0, 1.0, 1.0]
