"""og.func.functional_call: a module run with replaced parameters and buffers, which come back
afterwards; gradients with respect to the replacements against finite differences; tied
weights, strict, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad import nn
from opgrad.func import functional_call


def _mlp() -> nn.Sequential:
    og.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4, dtype=og.float64), nn.Tanh(), nn.Linear(4, 2, dtype=og.float64))


def test_replaced_parameters_are_used_and_the_originals_come_back():
    model = _mlp()
    before = {k: v.numpy().copy() for k, v in model.state_dict().items()}
    x = np.random.default_rng(0).standard_normal((5, 3))
    new = {k: og.tensor(np.random.default_rng(1).standard_normal(v.shape)) for k, v in before.items()}
    got = functional_call(model, new, og.tensor(x)).numpy()
    h = np.tanh(x @ new["0.weight"].numpy() + new["0.bias"].numpy())
    np.testing.assert_allclose(got, h @ new["2.weight"].numpy() + new["2.bias"].numpy())
    for k, v in model.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), before[k])
    assert all(isinstance(p, nn.Parameter) for p in model.parameters())
    # a partial dict: the rest of the model is its own
    partial = functional_call(model, {"2.bias": og.tensor(np.zeros(2))}, (og.tensor(x),)).numpy()
    np.testing.assert_allclose(partial, model(og.tensor(x)).numpy() - before["2.bias"])


def test_gradients_flow_to_the_replacements_and_match_finite_differences():
    model = _mlp()
    x = og.tensor(np.random.default_rng(2).standard_normal((5, 3)))
    names = ["0.weight", "2.bias"]
    params = [og.tensor(model.state_dict()[n].numpy().copy(), requires_grad=True) for n in names]

    def loss(*ps):
        out = functional_call(model, dict(zip(names, ps, strict=True)), (x,))
        return (out * out).sum()

    assert og.testing.gradcheck(loss, params)
    assert og.testing.gradgradcheck(loss, params)
    assert all(p.grad is None for p in model.parameters())  # the module's own were not touched


def test_buffers_and_kwargs_and_the_originals_restored_after_an_error():
    bn = nn.BatchNorm1d(3, dtype=og.float64)
    bn.eval()
    x = og.tensor(np.random.default_rng(3).standard_normal((4, 3)))
    mean = og.tensor(np.array([1.0, 2.0, 3.0]))
    out = functional_call(bn, ({"running_mean": mean}, {"weight": og.tensor(np.full(3, 2.0))}), x).numpy()
    np.testing.assert_allclose(out, 2.0 * (x.numpy() - mean.numpy()) / np.sqrt(1 + bn.eps) + bn.bias.numpy())
    np.testing.assert_array_equal(bn.running_mean.numpy(), np.zeros(3))

    class Boom(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin = nn.Linear(2, 2)

        def forward(self, x, fail=False):
            if fail:
                raise RuntimeError("boom")
            return self.lin(x)

    m = Boom()
    original = m.lin.weight
    with pytest.raises(RuntimeError, match="boom"):
        functional_call(m, {"lin.weight": og.zeros(2, 2)}, og.zeros(1, 2), {"fail": True})
    assert m.lin.weight is original and m.lin._parameters["weight"] is original


def test_tied_weights_follow_tie_weights():
    class Tied(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a = nn.Linear(2, 2, bias=False, dtype=og.float64)
            self.b = self.a  # the same module under two names

        def forward(self, x):
            return self.a(x) + self.b(x)

    m = Tied()
    x = og.tensor(np.ones((1, 2)))
    w = og.tensor(np.eye(2))
    np.testing.assert_allclose(functional_call(m, {"a.weight": w}, x).numpy(), [[2.0, 2.0]])
    untied = functional_call(m, {"a.weight": w}, x, tie_weights=False).numpy()
    # without tying the replacement still lands on the one shared attribute: both paths see it
    np.testing.assert_allclose(untied, [[2.0, 2.0]])
    with pytest.raises(ValueError, match="tied names 'a.weight', 'b.weight' were given different tensors"):
        functional_call(m, {"a.weight": w, "b.weight": og.tensor(np.zeros((2, 2)))}, x)


def test_a_parameter_registered_under_two_names_is_tied_unless_told_otherwise():
    class Shared(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.foo = nn.Parameter(np.ones(()))
            self.foo_tied = self.foo  # one Parameter, two names (as weight tying in a language model)

        def forward(self, x):
            return x + self.foo + self.foo_tied

    m = Shared()
    x = og.tensor(0.0, dtype=og.float64)
    assert float(m(x)) == 2.0
    assert float(functional_call(m, {"foo": og.tensor(0.0, dtype=og.float64)}, x)) == 0.0
    assert float(functional_call(m, {"foo": og.tensor(0.0, dtype=og.float64)}, x, tie_weights=False)) == 1.0
    assert float(m(x)) == 2.0


@pytest.mark.parametrize(
    ("dicts", "kwargs", "error", "match"),
    [
        (
            {"0.wieght": og.zeros(3, 4)},
            {},
            ValueError,
            "Sequential has no parameter or buffer named '0.wieght'",
        ),
        ({"0.weight": np.zeros((3, 4))}, {}, TypeError, "'0.weight' must be a Tensor, got ndarray"),
        (
            ({"0.bias": og.zeros(4)}, {"0.bias": og.zeros(4)}),
            {},
            ValueError,
            "'0.bias' appears in more than one",
        ),
        (
            {"0.bias": og.zeros(4)},
            {"strict": True},
            ValueError,
            "strict=True and no tensor given for '0.weight'",
        ),
        ([1, 2], {}, TypeError, "parameter_and_buffer_dicts must be a dict"),
    ],
)
def test_bad_calls_are_refused_before_anything_changes(dicts, kwargs, error, match):
    model = _mlp()
    before = dict(model.named_parameters())
    with pytest.raises(error, match=match):
        functional_call(model, dicts, og.zeros(1, 3, dtype=og.float64), **kwargs)
    after = dict(model.named_parameters())
    assert after.keys() == before.keys() and all(after[k] is before[k] for k in before)
