"""The layers, containers, losses, transformer and hooks added for PyTorch/Paddle users,
each against a NumPy reference in float64 (and PyTorch with copied weights where cheap)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import opgrad as og
from opgrad import nn

gradcheck = og.testing.gradcheck

RNG = np.random.default_rng(0)


def t64(a, requires_grad=False):
    return og.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


# -- containers ---------------------------------------------------------------------------------
def test_module_dict_registers_and_behaves_like_a_dict():
    md = nn.ModuleDict({"enc": nn.Linear(2, 3), "dec": nn.Linear(3, 2)})
    md["act"] = nn.ReLU()
    assert list(md) == ["enc", "dec", "act"] and len(md) == 3 and "dec" in md
    assert md["enc"] is md.enc
    assert sorted(md.state_dict()) == ["dec.bias", "dec.weight", "enc.bias", "enc.weight"]
    assert len(list(md.parameters())) == 4
    popped = md.pop("dec")
    assert isinstance(popped, nn.Linear) and list(md.keys()) == ["enc", "act"]
    assert len(list(md.parameters())) == 2
    with pytest.raises(TypeError, match="ModuleDict: 'x' must be a Module"):
        md["x"] = 3
    with pytest.raises(KeyError, match="'update' is already an attribute"):
        md["update"] = nn.ReLU()


def test_parameter_list_and_dict():
    pl = nn.ParameterList([og.ones((2,)), nn.Parameter(og.zeros((3,)))])
    pl.append(og.ones((1,)))
    assert len(pl) == 3 and [p.shape for p in pl] == [(2,), (3,), (1,)]
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in pl)
    assert sorted(pl.state_dict()) == ["0", "1", "2"]
    pl[1] = og.full((4,), 2.0)
    assert pl[1].shape == (4,) and pl[-1].shape == (1,)
    pd = nn.ParameterDict({"a": og.ones((2,))})
    pd["b"] = og.zeros((1,))
    assert list(pd) == ["a", "b"] and isinstance(pd["b"], nn.Parameter)
    holder = nn.Module()
    holder.ps = pd
    assert sorted(holder.state_dict()) == ["ps.a", "ps.b"]
    del pd["a"]
    assert list(pd.keys()) == ["b"]
    with pytest.raises(TypeError, match="ParameterList: expected a Parameter or a Tensor"):
        pl.append([1.0])


# -- layers ---------------------------------------------------------------------------------
def test_identity_flatten_unflatten():
    x = og.arange(24).reshape((2, 3, 4))
    assert nn.Identity()(x) is x
    assert nn.Flatten()(x).shape == (2, 12)
    u = nn.Unflatten(1, (2, -1))
    y = u(nn.Flatten()(x))
    assert y.shape == (2, 2, 6)
    np.testing.assert_array_equal(y.numpy(), x.numpy().reshape(2, 2, 6))
    assert nn.Unflatten(-1, (2, 2))(x).shape == (2, 3, 2, 2)
    with pytest.raises(ValueError, match=r"cannot split axis 1 of size 12 into \(5, -1\)"):
        nn.Unflatten(1, (5, -1))(nn.Flatten()(x))
    with pytest.raises(ValueError, match="at most one of sizes may be -1"):
        nn.Unflatten(1, (-1, -1))


def bn_ref(x, axes, eps=1e-5):
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5)])
def test_batchnorm1d_matches_numpy_in_training_and_eval(shape):
    x = RNG.standard_normal(shape) * 2 + 1
    bn = nn.BatchNorm1d(3, momentum=0.2, dtype="float64")
    bn.weight.numpy()[:] = [1.0, 2.0, 0.5]
    bn.bias.numpy()[:] = [0.0, -1.0, 3.0]
    axes = (0,) if len(shape) == 2 else (0, 2)
    scale = np.array([1.0, 2.0, 0.5]).reshape((1, 3) + (1,) * (len(shape) - 2))
    shift = np.array([0.0, -1.0, 3.0]).reshape(scale.shape)
    out = bn(t64(x)).numpy()
    np.testing.assert_allclose(out, bn_ref(x, axes) * scale + shift, rtol=1e-10, atol=1e-12)
    n = x.size // 3
    batch_var = x.var(axis=axes) * n / (n - 1)
    np.testing.assert_allclose(bn.running_mean.numpy(), 0.2 * x.mean(axis=axes), rtol=1e-12)
    np.testing.assert_allclose(bn.running_var.numpy(), 0.8 + 0.2 * batch_var, rtol=1e-12)
    assert bn.num_batches_tracked.item() == 1
    bn.eval()
    rm = bn.running_mean.numpy().reshape(scale.shape)
    rv = bn.running_var.numpy().reshape(scale.shape)
    np.testing.assert_allclose(
        bn(t64(x)).numpy(), (x - rm) / np.sqrt(rv + 1e-5) * scale + shift, rtol=1e-10, atol=1e-12
    )
    bn.train()
    xt = t64(x, requires_grad=True)
    gradcheck(lambda a: bn(a), [xt])  # batch statistics: every output depends on every input
    with pytest.raises(ValueError, match=r"BatchNorm1d: expected \(N, C\) or \(N, C, L\) input"):
        bn(og.zeros((2, 3, 4, 5)))


def conv1d_ref(x, w, b, stride, pad, dil, groups):
    n, c, length = x.shape
    o, cg, k = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad)))
    lo = (length + 2 * pad - dil * (k - 1) - 1) // stride + 1
    out = np.zeros((n, o, lo))
    og_ = o // groups
    for oc in range(o):
        gi = oc // og_
        for i in range(lo):
            seg = xp[:, gi * cg : (gi + 1) * cg, i * stride : i * stride + dil * (k - 1) + 1 : dil]
            out[:, oc, i] = (seg * w[oc]).sum(axis=(1, 2)) + b[oc]
    return out


def test_conv1d_matches_numpy_and_gradchecks():
    m = nn.Conv1d(4, 6, 3, stride=2, padding=1, dilation=2, groups=2, dtype="float64")
    x = RNG.standard_normal((2, 4, 11))
    ref = conv1d_ref(x, m.weight.numpy(), m.bias.numpy(), 2, 1, 2, 2)
    np.testing.assert_allclose(m(t64(x)).numpy(), ref, rtol=1e-10, atol=1e-12)
    assert m.weight.shape == (6, 2, 3)
    small = nn.Conv1d(2, 2, 2, dtype="float64")
    gradcheck(
        lambda a, w, b: small.forward(a),
        [t64(RNG.standard_normal((1, 2, 4)), True), small.weight, small.bias],
    )
    with pytest.raises(ValueError, match=r"Conv1d: expected \(N, C, L\) input"):
        m(og.zeros((2, 4)))


def conv_transpose_ref(x, w, b, stride, pad, out_pad, dil, groups):
    n, cin, h, wd = x.shape
    _, cog, kh, kw = w.shape
    sh, sw = stride
    ho = (h - 1) * sh - 2 * pad[0] + dil[0] * (kh - 1) + out_pad[0] + 1
    wo = (wd - 1) * sw - 2 * pad[1] + dil[1] * (kw - 1) + out_pad[1] + 1
    full = np.zeros((n, cog * groups, ho + 2 * pad[0] + kh * dil[0], wo + 2 * pad[1] + kw * dil[1]))
    cig = cin // groups
    for ci in range(cin):
        g = ci // cig
        for i in range(h):
            for j in range(wd):
                for a in range(kh):
                    for c in range(kw):
                        full[:, g * cog : (g + 1) * cog, i * sh + a * dil[0], j * sw + c * dil[1]] += (
                            x[:, ci, i, j][:, None] * w[ci, :, a, c][None, :]
                        )
    out = full[:, :, pad[0] : pad[0] + ho, pad[1] : pad[1] + wo]
    return out + b.reshape(1, -1, 1, 1)


CT_CASES = [
    (2, 3, 3, 1, 0, 0, 1, 1),
    (2, 4, 3, 2, 1, 1, 1, 2),
    (3, 3, (2, 3), (2, 1), (0, 2), (1, 0), (1, 2), 1),
    (2, 2, 3, 3, 4, 0, 2, 1),
]


@pytest.mark.parametrize(("cin", "cout", "k", "s", "p", "op", "d", "g"), CT_CASES)
def test_conv_transpose2d_matches_numpy(cin, cout, k, s, p, op, d, g):
    m = nn.ConvTranspose2d(cin, cout, k, s, p, op, g, True, d, dtype="float64")
    x = RNG.standard_normal((2, cin, 5, 4))
    pair = lambda v: (v, v) if isinstance(v, int) else v  # noqa: E731
    ref = conv_transpose_ref(x, m.weight.numpy(), m.bias.numpy(), pair(s), pair(p), pair(op), pair(d), g)
    np.testing.assert_allclose(m(t64(x)).numpy(), ref, rtol=1e-10, atol=1e-12)


def test_conv_transpose2d_gradchecks_and_matches_torch():
    m = nn.ConvTranspose2d(2, 2, 2, stride=2, padding=1, output_padding=1, dtype="float64")
    gradcheck(lambda a, w, b: m.forward(a), [t64(RNG.standard_normal((1, 2, 3, 3)), True), m.weight, m.bias])
    with pytest.raises(ValueError, match="output_padding"):
        nn.ConvTranspose2d(2, 2, 3, stride=1, output_padding=1)
    torch = pytest.importorskip("torch")
    for cin, cout, k, s, p, op, d, g in CT_CASES:
        mm = nn.ConvTranspose2d(cin, cout, k, s, p, op, g, True, d, dtype="float64")
        tt = torch.nn.ConvTranspose2d(cin, cout, k, s, p, op, g, True, d).double()
        with torch.no_grad():
            tt.weight.copy_(torch.from_numpy(mm.weight.numpy()))
            tt.bias.copy_(torch.from_numpy(mm.bias.numpy()))
        x = RNG.standard_normal((2, cin, 5, 4))
        np.testing.assert_allclose(mm(t64(x)).numpy(), tt(torch.from_numpy(x)).detach().numpy(), atol=1e-12)


# -- losses -----------------------------------------------------------------------------------
def log_softmax(z, axis=-1):
    z = z - z.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def test_cross_entropy_and_nll_losses_match_numpy():
    z = RNG.standard_normal((5, 4))
    y = np.array([0, 3, 1, 1, 2])
    lp = log_softmax(z)
    picked = -lp[np.arange(5), y]
    assert nn.CrossEntropyLoss()(t64(z), og.tensor(y)).item() == pytest.approx(picked.mean(), rel=1e-12)
    assert nn.CrossEntropyLoss(reduction="sum")(t64(z), og.tensor(y)).item() == pytest.approx(
        picked.sum(), rel=1e-12
    )
    w = np.array([1.0, 2.0, 0.5, 3.0])
    ref = (picked * w[y]).sum() / w[y].sum()
    assert nn.CrossEntropyLoss(weight=t64(w))(t64(z), og.tensor(y)).item() == pytest.approx(ref, rel=1e-12)
    assert nn.NLLLoss(weight=t64(w))(t64(lp), og.tensor(y)).item() == pytest.approx(ref, rel=1e-12)
    yi = y.copy()
    yi[1] = -100
    keep = yi != -100
    assert nn.NLLLoss()(t64(lp), og.tensor(yi)).item() == pytest.approx(picked[keep].mean(), rel=1e-12)
    # class axis 1 of (N, C, L) input with a weight: moved to where nll_loss reads it
    z3 = RNG.standard_normal((2, 3, 4))
    y3 = RNG.integers(0, 4, size=(2, 3))
    w4 = t64(w)
    lp3 = log_softmax(z3, -1)
    pick3 = -np.take_along_axis(lp3, y3[..., None], -1)[..., 0]
    ref3 = (pick3 * w[y3]).sum() / w[y3].sum()
    assert nn.CrossEntropyLoss(weight=w4)(t64(z3), og.tensor(y3)).item() == pytest.approx(ref3, rel=1e-12)
    zt = t64(z, True)
    gradcheck(lambda a: nn.CrossEntropyLoss(weight=t64(w), reduction="sum")(a, og.tensor(y)), [zt])
    with pytest.raises(ValueError, match="reduction must be one of 'mean', 'sum', 'none'"):
        nn.MSELoss(reduction="avg")


def test_regression_losses_match_numpy():
    a, b = RNG.standard_normal((3, 4)) * 2, RNG.standard_normal((3, 4))
    d = a - b
    assert nn.MSELoss()(t64(a), t64(b)).item() == pytest.approx((d**2).mean(), rel=1e-12)
    assert nn.L1Loss(reduction="sum")(t64(a), t64(b)).item() == pytest.approx(np.abs(d).sum(), rel=1e-12)
    for beta in (1.0, 0.5, 2.0):
        ref = np.where(np.abs(d) < beta, 0.5 * d**2 / beta, np.abs(d) - 0.5 * beta).mean()
        assert nn.SmoothL1Loss(beta=beta)(t64(a), t64(b)).item() == pytest.approx(ref, rel=1e-12)
        huber = np.where(np.abs(d) < beta, 0.5 * d**2, beta * (np.abs(d) - 0.5 * beta)).mean()
        assert nn.SmoothL1Loss(delta=beta)(t64(a), t64(b)).item() == pytest.approx(huber, rel=1e-12)
    assert nn.SmoothL1Loss(beta=0.0)(t64(a), t64(b)).item() == pytest.approx(np.abs(d).mean(), rel=1e-12)
    with pytest.raises(ValueError, match="give beta .* or delta .*, not both"):
        nn.SmoothL1Loss(beta=1.0, delta=1.0)


def test_bce_with_logits_and_kl_div_match_numpy():
    z, y = RNG.standard_normal((4, 3)), RNG.uniform(size=(4, 3))
    pw = np.array([1.0, 2.0, 0.5])
    p = 1 / (1 + np.exp(-z))
    ref = -(pw * y * np.log(p) + (1 - y) * np.log(1 - p)).mean()
    got = nn.BCEWithLogitsLoss(pos_weight=t64(pw))(t64(z), t64(y)).item()
    assert got == pytest.approx(ref, rel=1e-10)
    lq = log_softmax(RNG.standard_normal((4, 3)))
    tp = np.exp(log_softmax(RNG.standard_normal((4, 3))))
    kl = tp * (np.log(tp) - lq)
    assert nn.KLDivLoss(reduction="batchmean")(t64(lq), t64(tp)).item() == pytest.approx(
        kl.sum() / 4, rel=1e-12
    )
    assert nn.KLDivLoss(log_target=True)(t64(lq), t64(np.log(tp))).item() == pytest.approx(
        kl.mean(), rel=1e-12
    )


def test_losses_match_torch():
    torch = pytest.importorskip("torch")
    F = torch.nn  # noqa: N806
    z, y = RNG.standard_normal((5, 4)), RNG.integers(0, 4, size=5)
    a, b = RNG.standard_normal((5, 4)), RNG.standard_normal((5, 4))
    tz, ta, tb = torch.from_numpy(z), torch.from_numpy(a), torch.from_numpy(b)
    pairs = [
        (
            nn.CrossEntropyLoss(label_smoothing=0.1)(t64(z), og.tensor(y)),
            F.CrossEntropyLoss(label_smoothing=0.1)(tz, torch.from_numpy(y)),
        ),
        (nn.SmoothL1Loss(beta=0.7)(t64(a), t64(b)), F.SmoothL1Loss(beta=0.7)(ta, tb)),
        (
            nn.KLDivLoss(reduction="batchmean")(t64(a), t64(np.abs(b))),
            F.KLDivLoss(reduction="batchmean")(ta, tb.abs()),
        ),
        (nn.BCEWithLogitsLoss()(t64(a), t64(np.abs(b) / 3)), F.BCEWithLogitsLoss()(ta, tb.abs() / 3)),
    ]
    for mine, theirs in pairs:
        assert mine.item() == pytest.approx(theirs.item(), rel=1e-10)


# -- transformer ------------------------------------------------------------------------------
def np_layer_norm(x, w, b, eps=1e-5):
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + eps) * w + b


def np_encoder_layer(m, x, keep=None):
    """The layer's forward in NumPy, from its own weights (eval mode: no dropout)."""
    a = m.self_attn
    heads, hd = a.num_heads, a.head_dim

    def lin(layer, v):
        return v @ layer.weight.numpy() + layer.bias.numpy()

    def attend(v):
        b_, length, e = v.shape
        q, k, val = (
            lin(p, v).reshape(b_, length, heads, hd).transpose(0, 2, 1, 3)
            for p in (a.q_proj, a.k_proj, a.v_proj)
        )
        s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(hd)
        if keep is not None:
            s = np.where(keep[:, None, None, :], s, -np.inf)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        return lin(a.out_proj, (s @ val).transpose(0, 2, 1, 3).reshape(b_, length, e))

    def ff(v):
        return lin(m.linear2, np.maximum(lin(m.linear1, v), 0))

    n1 = lambda v: np_layer_norm(v, m.norm1.weight.numpy(), m.norm1.bias.numpy())  # noqa: E731
    n2 = lambda v: np_layer_norm(v, m.norm2.weight.numpy(), m.norm2.bias.numpy())  # noqa: E731
    if m.norm_first:
        x = x + attend(n1(x))
        return x + ff(n2(x))
    x = n1(x + attend(x))
    return n2(x + ff(x))


@pytest.mark.parametrize("norm_first", [False, True])
def test_transformer_encoder_layer_matches_numpy(norm_first):
    og.manual_seed(1)
    m = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first, dtype="float64").eval()
    for ln in (m.norm1, m.norm2):  # not the trivial ones and zeros
        ln.weight.numpy()[:] = RNG.uniform(0.5, 1.5, 8)
        ln.bias.numpy()[:] = RNG.standard_normal(8)
    x = RNG.standard_normal((3, 5, 8))
    pad = np.zeros((3, 5), bool)
    pad[1, 3:] = True
    np.testing.assert_allclose(m(t64(x)).numpy(), np_encoder_layer(m, x), rtol=1e-10, atol=1e-12)
    got = m(t64(x), src_key_padding_mask=og.tensor(pad)).numpy()
    np.testing.assert_allclose(got, np_encoder_layer(m, x, ~pad), rtol=1e-10, atol=1e-12)
    seq_first = nn.TransformerEncoderLayer(
        8, 2, 16, 0.0, batch_first=False, norm_first=norm_first, dtype="float64"
    )
    seq_first.load_state_dict(m.state_dict())
    np.testing.assert_allclose(
        seq_first.eval()(t64(x.transpose(1, 0, 2))).numpy().transpose(1, 0, 2),
        np_encoder_layer(m, x),
        atol=1e-12,
    )


def test_transformer_encoder_stacks_independent_copies_and_trains():
    og.manual_seed(0)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, dtype="float64")
    enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8, dtype="float64")).eval()
    assert enc.layers[0] is not layer and enc.layers[0].linear1.weight is not enc.layers[1].linear1.weight
    enc.layers[1].linear1.weight.numpy()[:] += 0.1
    x = RNG.standard_normal((2, 4, 8))
    h = np_encoder_layer(enc.layers[1], np_encoder_layer(enc.layers[0], x))
    ref = np_layer_norm(h, enc.norm.weight.numpy(), enc.norm.bias.numpy())
    np.testing.assert_allclose(enc(t64(x)).numpy(), ref, rtol=1e-10, atol=1e-12)
    enc(t64(x)).sum().backward()
    assert all(p.grad is not None for p in enc.parameters())


def test_transformer_encoder_layer_matches_torch():
    torch = pytest.importorskip("torch")
    t = torch.nn.TransformerEncoderLayer(8, 2, 16, 0.0, "gelu", batch_first=True).double().eval()
    m = nn.TransformerEncoderLayer(8, 2, 16, 0.0, "gelu", dtype="float64").eval()
    e = 8
    w_in, b_in = t.self_attn.in_proj_weight.detach().numpy(), t.self_attn.in_proj_bias.detach().numpy()
    for i, proj in enumerate((m.self_attn.q_proj, m.self_attn.k_proj, m.self_attn.v_proj)):
        proj.weight.numpy()[...] = w_in[i * e : (i + 1) * e].T
        proj.bias.numpy()[...] = b_in[i * e : (i + 1) * e]
    pairs = [(m.self_attn.out_proj, t.self_attn.out_proj), (m.linear1, t.linear1), (m.linear2, t.linear2)]
    for mine, theirs in pairs:
        mine.weight.numpy()[...] = theirs.weight.detach().numpy().T
        mine.bias.numpy()[...] = theirs.bias.detach().numpy()
    x = RNG.standard_normal((3, 5, 8))
    pad = np.zeros((3, 5), bool)
    pad[0, 4] = True
    a = m(t64(x), src_key_padding_mask=og.tensor(pad)).numpy()
    b = t(torch.from_numpy(x), src_key_padding_mask=torch.from_numpy(pad)).detach().numpy()
    np.testing.assert_allclose(a, b, atol=1e-12)


# -- module API ---------------------------------------------------------------------------------
def test_forward_pre_and_post_hooks():
    lin = nn.Linear(2, 2, dtype="float64")
    calls = []
    h1 = lin.register_forward_pre_hook(lambda mod, args: calls.append(("pre", mod)) or (args[0] * 2,))
    h2 = lin.register_forward_hook(lambda mod, args, out: calls.append(("post", args[0].tolist())) or out + 1)
    x = t64([[1.0, 2.0]])
    got = lin(x).numpy()
    ref = (x.numpy() * 2) @ lin.weight.numpy() + lin.bias.numpy() + 1
    np.testing.assert_allclose(got, ref)
    assert calls == [("pre", lin), ("post", [[2.0, 4.0]])]
    h1.remove()
    h2.remove()
    np.testing.assert_allclose(lin(x).numpy(), x.numpy() @ lin.weight.numpy() + lin.bias.numpy())
    assert len(calls) == 2
    seen = []
    with lin.register_forward_hook(lambda m, a, o: seen.append(o.shape)):
        lin(x)
    lin(x)
    assert seen == [(1, 2)]
    with pytest.raises(TypeError, match="register_forward_hook: hook must be callable"):
        lin.register_forward_hook(3)
    # a hook returning a single value (not a tuple) replaces the one argument
    lin.register_forward_pre_hook(lambda m, a: a[0] * 0)
    np.testing.assert_allclose(lin(x).numpy(), lin.bias.numpy()[None])


def test_half_double_named_modules_and_apply():
    model = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.ReLU(), nn.Linear(3, 1)))
    assert [n for n, _ in model.named_modules()] == ["", "0", "1", "1.0", "1.1"]
    model.half()
    assert all(p.dtype == np.float16 for p in model.parameters())
    model.double()
    assert all(p.dtype == np.float64 for p in model.parameters())
    seen = []
    model.apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "ReLU", "Sequential", "Linear", "Sequential"]  # children before parents
    assert seen[-1] == "Sequential" and len(seen) == 5
