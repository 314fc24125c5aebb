"""og.nn.RNN, LSTM, GRU and their cells: PyTorch's results with copied weights, gradients
against finite differences (first and second order), dropout between layers, argument errors."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad import nn

CONFIGS = [
    {},
    {"num_layers": 2, "bidirectional": True},
    {"num_layers": 3, "batch_first": True},
    {"bias": False},
]
LAYERS = {"RNN": nn.RNN, "LSTM": nn.LSTM, "GRU": nn.GRU}


def _to_torch_state(hx, torch):
    if isinstance(hx, tuple):
        return tuple(torch.tensor(h.numpy()) for h in hx)
    return torch.tensor(hx.numpy())


def _flatten_state(h):
    return list(h) if isinstance(h, tuple) else [h]


@pytest.mark.parametrize("kind", sorted(LAYERS))
@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default"
)
def test_layers_match_pytorch_with_copied_weights(kind, config):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    ref = getattr(torch.nn, kind)(5, 4, dtype=torch.float64, **config)
    ours = LAYERS[kind](5, 4, dtype=og.float64, **config)
    state = {k: og.tensor(v.detach().numpy()) for k, v in ref.state_dict().items()}
    assert sorted(state) == sorted(ours.state_dict())  # the same names and shapes as PyTorch's
    ours.load_state_dict(state)
    rng = np.random.default_rng(1)
    shape = (2, 6, 5) if config.get("batch_first") else (6, 2, 5)
    x = rng.standard_normal(shape)
    directions = 2 if config.get("bidirectional") else 1
    h0 = rng.standard_normal((config.get("num_layers", 1) * directions, 2, 4))
    hx = (og.tensor(h0), og.tensor(h0 * 0.5)) if kind == "LSTM" else og.tensor(h0)
    tx = torch.tensor(x, requires_grad=True)
    ox = og.tensor(x, requires_grad=True)
    t_out, t_h = ref(tx, _to_torch_state(hx, torch))
    o_out, o_h = ours(ox, hx)
    np.testing.assert_allclose(o_out.numpy(), t_out.detach().numpy(), atol=1e-12)
    for a, b in zip(_flatten_state(o_h), _flatten_state(t_h), strict=True):
        np.testing.assert_allclose(a.numpy(), b.detach().numpy(), atol=1e-12)
    # a loss that weighs every output differently, so that a wrong gradient cannot cancel
    w = rng.standard_normal(o_out.shape)
    loss_t = (t_out * torch.tensor(w)).sum() + sum(h.sin().sum() for h in _flatten_state(t_h))
    loss_o = (o_out * og.tensor(w)).sum() + sum(og.sin(h).sum() for h in _flatten_state(o_h))
    loss_t.backward()
    loss_o.backward()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), atol=1e-12)
    for name, p in ref.named_parameters():
        np.testing.assert_allclose(getattr(ours, name).grad.numpy(), p.grad.numpy(), atol=1e-11, err_msg=name)


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
def test_unbatched_input_and_cells_match_pytorch(kind):
    torch = pytest.importorskip("torch")
    torch.manual_seed(2)
    ref = getattr(torch.nn, kind)(3, 4, dtype=torch.float64)
    ours = LAYERS[kind](3, 4, dtype=og.float64)
    ours.load_state_dict({k: og.tensor(v.detach().numpy()) for k, v in ref.state_dict().items()})
    x = np.random.default_rng(3).standard_normal((5, 3))
    t_out, _ = ref(torch.tensor(x))
    o_out, o_h = ours(og.tensor(x))
    assert o_out.shape == (5, 4)
    assert _flatten_state(o_h)[0].shape == (1, 4)
    np.testing.assert_allclose(o_out.numpy(), t_out.detach().numpy(), atol=1e-12)

    ref_cell = getattr(torch.nn, kind + "Cell")(3, 4, dtype=torch.float64)
    cell = getattr(nn, kind + "Cell")(3, 4, dtype=og.float64)
    cell.load_state_dict({k: og.tensor(v.detach().numpy()) for k, v in ref_cell.state_dict().items()})
    xb = np.random.default_rng(4).standard_normal((2, 3))
    t_step = ref_cell(torch.tensor(xb))
    o_step = cell(og.tensor(xb))
    for a, b in zip(_flatten_state(o_step), _flatten_state(t_step), strict=True):
        np.testing.assert_allclose(a.numpy(), b.detach().numpy(), atol=1e-12)


def test_lstm_projection_matches_pytorch():
    torch = pytest.importorskip("torch")
    torch.manual_seed(5)
    ref = torch.nn.LSTM(3, 6, num_layers=2, proj_size=2, bidirectional=True, dtype=torch.float64)
    ours = nn.LSTM(3, 6, num_layers=2, proj_size=2, bidirectional=True, dtype=og.float64)
    ours.load_state_dict({k: og.tensor(v.detach().numpy()) for k, v in ref.state_dict().items()})
    x = np.random.default_rng(6).standard_normal((4, 2, 3))
    t_out, (t_h, t_c) = ref(torch.tensor(x))
    o_out, (o_h, o_c) = ours(og.tensor(x))
    assert o_out.shape == (4, 2, 4) and o_h.shape == (4, 2, 2) and o_c.shape == (4, 2, 6)
    for a, b in ((o_out, t_out), (o_h, t_h), (o_c, t_c)):
        np.testing.assert_allclose(a.numpy(), b.detach().numpy(), atol=1e-12)


def _layer_loss(layer):
    """A scalar of the layer's outputs as a function of (x, h0, *parameters): gradcheck
    perturbs the parameters in place, so the layer reads them as they are."""

    def fn(x, h0, *parameters):
        hx = (h0, og.tanh(h0)) if layer.mode == "LSTM" else h0
        out, h = layer(x, hx)
        return out.sum() * 0.5 + sum((hh * hh).sum() for hh in _flatten_state(h)) + (out * out).sum()

    return fn


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
def test_gradients_match_finite_differences_to_second_order(kind):
    og.manual_seed(0)
    layer = LAYERS[kind](2, 3, num_layers=2, bidirectional=True, dtype=og.float64)
    rng = np.random.default_rng(7)
    x = og.tensor(rng.standard_normal((3, 2, 2)), requires_grad=True)
    h0 = og.tensor(rng.standard_normal((4, 2, 3)) * 0.5, requires_grad=True)
    weights = [layer.weight_ih_l0, layer.weight_hh_l0_reverse, layer.bias_hh_l1]
    assert og.testing.gradcheck(_layer_loss(layer), [x, h0, *weights])
    assert og.testing.gradgradcheck(_layer_loss(layer), [x, h0, *weights])


def test_dropout_between_layers_only_in_training():
    og.manual_seed(0)
    layer = nn.GRU(3, 4, num_layers=2, dropout=0.5, dtype=og.float64)
    x = og.tensor(np.random.default_rng(8).standard_normal((5, 2, 3)))
    layer.eval()
    a, _ = layer(x)
    b, _ = layer(x)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    layer.train()
    c, _ = layer(x)
    assert not np.allclose(a.numpy(), c.numpy())
    single = nn.GRU(3, 4, num_layers=1, dropout=0.5, dtype=og.float64)  # no layer after the last
    single.train()
    d, _ = single(x)
    single.eval()
    np.testing.assert_array_equal(d.numpy(), single(x)[0].numpy())


def test_a_recurrent_model_learns_a_sequence_task():
    """An LSTM learns to output the running sum's sign of a +-1 sequence (needs memory)."""
    og.manual_seed(0)
    rng = np.random.default_rng(9)
    lstm = nn.LSTM(1, 8, batch_first=True)
    head = nn.Linear(8, 1)
    opt = og.optim.Adam([*lstm.parameters(), *head.parameters()], lr=0.03)
    x = rng.choice([-1.0, 1.0], size=(64, 6, 1)).astype(np.float32)
    y = (np.cumsum(x, axis=1) > 0).astype(np.float32)
    losses = []
    for _ in range(80):
        out, _ = lstm(og.tensor(x))
        loss = og.binary_cross_entropy_with_logits(head(out), og.tensor(y))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss))
    assert losses[-1] < 0.35 * losses[0]


@pytest.mark.parametrize(
    ("make", "call", "error", "match"),
    [
        (
            lambda: nn.LSTM(3, 4),
            lambda m: m(og.zeros(5, 2, 2)),
            ValueError,
            "LSTM: input must have input_size=3",
        ),
        (lambda: nn.GRU(3, 4), lambda m: m(og.zeros(5, 2, 2, 3)), ValueError, "GRU: input must have 2"),
        (
            lambda: nn.RNN(3, 4),
            lambda m: m(og.zeros(0, 2, 3)),
            ValueError,
            "RNN: the input sequence must have length",
        ),
        (
            lambda: nn.GRU(3, 4, num_layers=2),
            lambda m: m(og.zeros(5, 2, 3), og.zeros(1, 2, 4)),
            ValueError,
            r"GRU: hx must have shape \(2, 2, 4\)",
        ),
        (
            lambda: nn.LSTM(3, 4),
            lambda m: m(og.zeros(5, 2, 3), og.zeros(1, 2, 4)),
            TypeError,
            "LSTM: hx must be a tuple",
        ),
        (
            lambda: nn.LSTM(3, 4),
            lambda m: m(og.zeros(5, 2, 3), (og.zeros(1, 2, 4), og.zeros(1, 3, 4))),
            ValueError,
            "LSTM: c_0 must have shape",
        ),
        (
            lambda: nn.RNN(3, 4, dtype=og.float64),
            lambda m: m(og.zeros(5, 2, 3, dtype=og.float64), og.zeros(1, 2, 4, dtype=og.float32)),
            TypeError,
            "RNN: hx must have the input's dtype",
        ),
        (
            lambda: nn.LSTMCell(3, 4),
            lambda m: m(og.zeros(2, 3), og.zeros(2, 4)),
            TypeError,
            "LSTMCell: hx must be",
        ),
        (
            lambda: nn.GRUCell(3, 4),
            lambda m: m(og.zeros(2, 3), og.zeros(3, 4)),
            ValueError,
            "GRUCell: hx must",
        ),
    ],
)
def test_bad_inputs_are_refused_naming_the_module_and_argument(make, call, error, match):
    with pytest.raises(error, match=match):
        call(make())


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: nn.RNN(3, 4, nonlinearity="sigmoid"), "RNN: nonlinearity must be 'tanh' or 'relu'"),
        (lambda: nn.RNNBase("GRU", 3, 4, proj_size=2), "RNNBase: proj_size is only supported by LSTM"),
        (lambda: nn.LSTM(3, 4, proj_size=4), "LSTM: proj_size must be smaller than hidden_size"),
        (lambda: nn.LSTM(3, 0), "LSTM: hidden_size"),
        (lambda: nn.GRU(3, 4, dropout=1.5), "GRU: dropout"),
    ],
)
def test_bad_constructor_arguments_are_refused(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_parameters_follow_pytorch_names_shapes_and_init_bounds():
    layer = nn.LSTM(3, 5, num_layers=2, bidirectional=True)
    shapes = {k: tuple(v.shape) for k, v in layer.state_dict().items()}
    assert shapes["weight_ih_l0"] == (20, 3)
    assert shapes["weight_ih_l1_reverse"] == (20, 10)
    assert shapes["weight_hh_l1"] == (20, 5)
    assert shapes["bias_hh_l0_reverse"] == (20,)
    assert len(shapes) == 16
    bound = 1 / np.sqrt(5)
    assert all(np.abs(p.numpy()).max() <= bound for p in layer.parameters())
    assert "num_layers=2" in repr(layer) and "bidirectional=True" in repr(layer)


@pytest.mark.parametrize(
    ("gates", "c", "match"),
    [
        ((3, 7), (3, 2), r"lstm_cell: gates must have shape c.shape\[:-1\] \+ \(4 \* hidden,\) = \(3, 8\)"),
        ((2, 8), (3, 2), r"= \(3, 8\) for c of shape \(3, 2\), got \(2, 8\)"),
        ((8,), (), r"lstm_cell: gates must have shape"),
    ],
)
def test_lstm_cell_refuses_mismatched_shapes_naming_the_argument(gates, c, match):
    g = og.randn(*gates, requires_grad=True)
    with pytest.raises(ValueError, match=match):
        og.lstm_cell(g, og.tensor(np.random.randn(*c)))
    assert g.grad is None


def test_lstm_uses_the_fused_cell_and_folds_the_hidden_bias_into_the_input_projection():
    """One lstm_cell node per step, and no per-step bias: b_hh is added once with b_ih."""
    lstm = og.nn.LSTM(3, 4)
    out, _ = lstm(og.randn(5, 2, 3))
    names = []
    stack, seen = [out.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name)
        stack.extend(n for n, _ in node.next_functions)
    assert names.count("lstm_cell_grad") == 5
    assert names.count("linear_grad") == 5 + 1  # one per step, plus the input projection
