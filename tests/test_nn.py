"""opgrad.nn: Module bookkeeping (registration, state dicts, modes, devices), each layer
against a NumPy computation, gradients reaching every parameter, and nn.init."""

from __future__ import annotations

import math

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import nn
from opgrad.runtime.nn import functional as F


def arr(t: og.Tensor) -> np.ndarray:
    return np.array(t.numpy())


class Block(nn.Module):
    """A module with a parameter, a buffer, a submodule and plain attributes, in a known order."""

    def __init__(self) -> None:
        super().__init__()
        self.scale = nn.Parameter(og.ones((3,)))
        self.register_buffer("count", og.zeros((), dtype="int64"))
        self.inner = nn.Linear(3, 2)
        self.note = "plain attribute"
        self.shift = nn.Parameter(og.zeros((2,)))

    def forward(self, x: og.Tensor) -> og.Tensor:
        return self.inner(x * self.scale) + self.shift


# -- Parameter --------------------------------------------------------------------------
def test_parameter_is_a_leaf_tensor_that_requires_grad():
    p = nn.Parameter(og.tensor([1.0, 2.0]))
    assert isinstance(p, og.Tensor) and p.requires_grad and p.is_leaf
    y = p * 2
    assert type(y) is og.Tensor
    y.sum().backward()
    np.testing.assert_array_equal(arr(p.grad), [2.0, 2.0])
    assert not nn.Parameter(og.tensor([1.0]), requires_grad=False).requires_grad
    assert "Parameter containing" in repr(p)


def test_parameter_shares_a_tensors_memory_and_copies_other_data():
    t = og.tensor([1.0, 2.0])
    p = nn.Parameter(t)
    p._data[0] = 5.0
    assert t.numpy()[0] == 5.0
    a = np.array([1.0, 2.0], dtype=np.float32)
    q = nn.Parameter(a)
    q._data[0] = 7.0
    assert a[0] == 1.0


def test_parameter_of_integers_cannot_require_grad():
    with pytest.raises(TypeError, match="floating"):
        nn.Parameter(og.tensor([1, 2]))
    assert not nn.Parameter(og.tensor([1, 2]), requires_grad=False).requires_grad


# -- registration ------------------------------------------------------------------------
def test_registration_order_and_names():
    b = Block()
    assert [n for n, _ in b.named_parameters()] == ["scale", "shift", "inner.weight", "inner.bias"]
    assert [n for n, _ in b.named_buffers()] == ["count"]
    assert [n for n, _ in b.named_modules()] == ["", "inner"]
    assert list(b.children()) == [b.inner]
    assert list(b.parameters(recurse=False)) == [b.scale, b.shift]
    assert b.note == "plain attribute"
    assert b.scale is b._parameters["scale"]


def test_nested_modules_list_depth_first_in_order():
    model = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.ReLU(), nn.Linear(3, 1)), nn.Tanh())
    names = [n for n, _ in model.named_modules()]
    assert names == ["", "0", "1", "1.0", "1.1", "2"]
    assert [n for n, _ in model.named_parameters()] == ["0.weight", "0.bias", "1.1.weight", "1.1.bias"]


def test_shared_parameters_and_modules_are_listed_once():
    lin = nn.Linear(2, 2)
    model = nn.Sequential(lin, nn.ReLU(), lin)
    assert len(list(model.parameters())) == 2
    assert [n for n, _ in model.named_modules()] == ["", "0", "1"]


def test_reassigning_and_deleting_attributes_updates_the_tables():
    b = Block()
    b.shift = nn.Parameter(og.ones((2,)))
    assert [n for n, _ in b.named_parameters(recurse=False)] == ["scale", "shift"]
    b.inner = nn.Linear(3, 4)
    assert b.inner.out_features == 4 and b._modules["inner"] is b.inner
    del b.shift
    assert "shift" not in dict(b.named_parameters())
    with pytest.raises(AttributeError):
        b.shift  # noqa: B018
    b.inner = None
    assert list(b.children()) == []
    b.count = og.ones((), dtype="int64")
    assert b._buffers["count"] is b.count


def test_assigning_a_plain_tensor_to_a_parameter_name_raises():
    lin = nn.Linear(2, 2)
    with pytest.raises(TypeError, match="Parameter"):
        lin.weight = og.zeros((2, 2))
    b = Block()
    with pytest.raises(TypeError, match="Module"):
        b.inner = og.zeros((1,))


def test_disabled_bias_is_a_none_parameter():
    lin = nn.Linear(3, 2, bias=False)
    assert lin.bias is None
    assert [n for n, _ in lin.named_parameters()] == ["weight"]
    x = og.randn((4, 3))
    np.testing.assert_allclose(arr(lin(x)), arr(x) @ arr(lin.weight), rtol=1e-6)


def test_setattr_before_init_is_a_clear_error():
    class Bad(nn.Module):
        def __init__(self) -> None:
            self.w = nn.Parameter(og.ones((1,)))

    with pytest.raises(AttributeError, match="super\\(\\).__init__"):
        Bad()


def test_repr_shows_the_tree():
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.25))
    text = repr(model)
    assert text.splitlines()[0] == "Sequential("
    assert "(0): Linear(in_features=4, out_features=8, bias=True)" in text
    assert "(2): Dropout(p=0.25)" in text
    assert repr(nn.ReLU()) == "ReLU()"


def test_sequential_indexing_and_append():
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
    model.append(nn.Linear(3, 1))
    assert len(model) == 3 and isinstance(model[2], nn.Linear)
    assert isinstance(model[:2], nn.Sequential) and len(model[:2]) == 2
    assert model(og.randn((5, 2))).shape == (5, 1)
    named = nn.Sequential({"fc": nn.Linear(2, 2), "act": nn.Tanh()})
    assert [n for n, _ in named.named_children()] == ["fc", "act"]


def test_module_list_registers_its_modules():
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    assert len(layers) == 3 and len(list(layers.parameters())) == 6
    assert layers[1] is list(layers)[1]


# -- modes, gradients, devices -----------------------------------------------------------------
def test_train_and_eval_propagate_to_every_module():
    model = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Dropout(0.5)))
    assert all(m.training for m in model.modules())
    assert model.eval() is model
    assert not any(m.training for m in model.modules())
    model.train()
    assert all(m.training for m in model.modules())


def test_dropout_is_identity_in_eval_and_masks_in_training():
    og.manual_seed(0)
    drop = nn.Dropout(0.5)
    x = og.ones((200, 50))
    y = arr(drop(x))
    assert set(np.unique(y)) <= {0.0, 2.0}
    assert 0.4 < (y == 0).mean() < 0.6
    drop.eval()
    assert drop(x) is x
    assert nn.Dropout(0.0)(x) is x


def test_zero_grad_drops_or_zeroes_gradients():
    model = nn.Linear(3, 2)
    model(og.randn((4, 3))).sum().backward()
    assert all(p.grad is not None for p in model.parameters())
    model.zero_grad(set_to_none=False)
    assert all(not arr(p.grad).any() for p in model.parameters())
    model.zero_grad()
    assert all(p.grad is None for p in model.parameters())


def test_to_dtype_converts_in_place_and_keeps_the_parameter_objects():
    model = Block()
    params = list(model.parameters())
    model.to(dtype="float64")
    assert list(model.parameters()) == params
    assert all(p.dtype == np.float64 for p in params)
    assert model.count.dtype == np.int64  # integer buffers keep their dtype
    assert model(og.randn((2, 3), dtype="float64")).dtype == np.float64
    assert model.to("cpu") is model
    model.float()
    assert all(p.dtype == np.float32 for p in params)


def test_deepcopy_and_pickle_give_independent_equal_modules():
    import copy
    import pickle

    model = nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3), nn.ReLU())
    x = og.randn((1, 2, 5, 5))
    model(x)  # move the running statistics away from their initial values
    model.eval()
    for clone in (copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        assert clone[0].weight is not model[0].weight and clone[0].weight.requires_grad
        assert clone[0].weight is dict(clone.named_parameters())["0.weight"]
        assert not clone.training
        np.testing.assert_array_equal(arr(clone(x)), arr(model(x)))
        np.testing.assert_array_equal(arr(clone[1].running_var), arr(model[1].running_var))


def test_requires_grad_toggles_all_parameters():
    model = nn.Linear(2, 2).requires_grad_(False)
    assert not any(p.requires_grad for p in model.parameters())


# -- state dicts ---------------------------------------------------------------------------------
def test_state_dict_holds_parameters_and_persistent_buffers():
    b = Block()
    b.register_buffer("scratch", og.zeros((2,)), persistent=False)
    sd = b.state_dict()
    assert list(sd) == ["scale", "shift", "count", "inner.weight", "inner.bias"]
    assert not sd["scale"].requires_grad
    assert np.shares_memory(sd["scale"].numpy(), b.scale.numpy())
    assert "scratch" in dict(b.named_buffers())


def test_state_dict_round_trip_through_an_npz_file(tmp_path):
    og.manual_seed(1)
    src = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.LayerNorm(5), nn.Linear(5, 3))
    og.manual_seed(2)
    dst = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.LayerNorm(5), nn.Linear(5, 3))
    x = og.randn((6, 4))
    assert not np.allclose(arr(src(x)), arr(dst(x)))
    path = tmp_path / "model.weights"
    src.save(path)
    assert path.exists()  # written exactly there, no suffix added
    with np.load(path) as archive:
        assert sorted(archive.files) == sorted(src.state_dict())
    before = [id(p) for p in dst.parameters()]
    result = dst.load(path)
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert [id(p) for p in dst.parameters()] == before
    np.testing.assert_array_equal(arr(src(x)), arr(dst(x)))
    np.testing.assert_array_equal(nn.load(path)["0.weight"], arr(src[0].weight))


def test_load_state_dict_accepts_arrays_and_reports_key_problems():
    lin = nn.Linear(2, 3)
    weights = {"weight": np.ones((2, 3), dtype=np.float32), "bias": og.zeros((3,))}
    lin.load_state_dict(weights)
    np.testing.assert_array_equal(arr(lin.weight), np.ones((2, 3)))
    with pytest.raises(KeyError, match=r"missing keys \['bias'\].*unexpected keys \['extra'\]"):
        lin.load_state_dict({"weight": np.zeros((2, 3)), "extra": np.zeros(1)})
    np.testing.assert_array_equal(arr(lin.weight), np.ones((2, 3)))  # nothing written
    result = lin.load_state_dict({"weight": np.zeros((2, 3)), "extra": np.zeros(1)}, strict=False)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == ["extra"]
    assert not arr(lin.weight).any()


def test_load_state_dict_rejects_a_shape_mismatch_before_writing():
    lin = nn.Linear(2, 3)
    old = arr(lin.bias).copy()
    with pytest.raises(ValueError, match="'weight' has shape \\(3, 2\\)"):
        lin.load_state_dict({"bias": np.zeros(3), "weight": np.zeros((3, 2))})
    np.testing.assert_array_equal(arr(lin.bias), old)


def test_loading_weights_invalidates_graphs_that_saved_them():
    lin = nn.Linear(2, 2)
    x = og.randn((3, 2), requires_grad=True)
    out = (x @ lin.weight).sum()  # matmul saves the weight for x's gradient
    lin.load_state_dict({k: v.numpy() * 2 for k, v in lin.state_dict().items()})
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        out.backward()


# -- layers against NumPy --------------------------------------------------------------------------
def test_linear_matches_numpy_with_paddle_weight_layout():
    lin = nn.Linear(4, 3)
    assert lin.weight.shape == (4, 3) and lin.bias.shape == (3,)
    x = og.randn((5, 4))
    np.testing.assert_allclose(arr(lin(x)), arr(x) @ arr(lin.weight) + arr(lin.bias), rtol=1e-5, atol=1e-6)
    x3 = og.randn((2, 5, 4))
    assert lin(x3).shape == (2, 5, 3)
    bound = 1 / math.sqrt(4)
    assert np.abs(arr(lin.weight)).max() <= bound and np.abs(arr(lin.bias)).max() <= bound


def test_linear_gradients_pass_gradcheck_in_float64():
    og.manual_seed(3)
    lin = nn.Linear(3, 2).double()
    x = og.randn((4, 3), dtype="float64", requires_grad=True)

    def fn(x, w, b):
        return og.tanh(lin(x))

    assert og.testing.gradcheck(fn, [x, lin.weight, lin.bias])


def test_manual_seed_makes_models_reproducible():
    og.manual_seed(7)
    a = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
    og.manual_seed(7)
    b = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
    for p, q in zip(a.parameters(), b.parameters(), strict=True):
        np.testing.assert_array_equal(arr(p), arr(q))


def test_embedding_looks_up_rows_and_accumulates_their_gradients():
    emb = nn.Embedding(6, 3, padding_idx=0)
    assert not arr(emb.weight)[0].any()
    ids = og.tensor([[1, 2, 1], [5, 0, 1]])
    out = emb(ids)
    np.testing.assert_array_equal(arr(out), arr(emb.weight)[arr(ids)])
    out.sum().backward()
    expected = np.zeros((6, 3))
    np.add.at(expected, arr(ids).reshape(-1), 1.0)
    np.testing.assert_allclose(arr(emb.weight.grad), expected)


@pytest.mark.parametrize(
    ("layer", "reference"),
    [
        (nn.ReLU(), lambda x: np.maximum(x, 0)),
        (nn.Tanh(), np.tanh),
        (nn.Sigmoid(), lambda x: 1 / (1 + np.exp(-x))),
        (nn.GELU(), lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))),
        (
            nn.GELU(approximate=True),
            lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
        ),
        (nn.SiLU(), lambda x: x / (1 + np.exp(-x))),
        (nn.LeakyReLU(0.1), lambda x: np.where(x > 0, x, 0.1 * x)),
        (nn.Softmax(-1), lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
        (nn.Identity(), lambda x: x),
        (nn.Flatten(), lambda x: x.reshape(x.shape[0], -1)),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, nn.Module) else "",
)
def test_activation_and_shape_layers_match_numpy(layer, reference):
    x = og.randn((3, 4, 2), dtype="float64")
    np.testing.assert_allclose(arr(layer(x)), reference(arr(x)), rtol=1e-6, atol=1e-7)


def layer_norm_reference(x, w, b, axes, eps):
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def test_layer_norm_matches_numpy_and_passes_gradcheck():
    og.manual_seed(4)
    ln = nn.LayerNorm((3, 4)).double()
    nn.init.normal_(ln.weight)
    nn.init.normal_(ln.bias)
    x = og.randn((2, 3, 4), dtype="float64", requires_grad=True)
    expected = layer_norm_reference(arr(x), arr(ln.weight), arr(ln.bias), (1, 2), 1e-5)
    np.testing.assert_allclose(arr(ln(x)), expected, rtol=1e-6, atol=1e-8)
    assert og.testing.gradcheck(lambda x, w, b: ln(x), [x, ln.weight, ln.bias])
    plain = nn.LayerNorm(4, elementwise_affine=False)
    assert list(plain.parameters()) == []
    y = og.randn((5, 4))
    np.testing.assert_allclose(arr(plain(y)), layer_norm_reference(arr(y), 1, 0, -1, 1e-5), atol=1e-5)


def conv2d_reference(x, w, b, stride, padding, dilation=(1, 1), groups=1):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    ho = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (wd + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, ho, wo))
    og_ = o // groups
    for g in range(groups):
        for i in range(ho):
            for j in range(wo):
                r, s = i * stride[0], j * stride[1]
                patch = xp[:, g * cg : (g + 1) * cg, r : r + dilation[0] * (kh - 1) + 1 : dilation[0]]
                patch = patch[..., s : s + dilation[1] * (kw - 1) + 1 : dilation[1]]
                wg = w[g * og_ : (g + 1) * og_]
                out[:, g * og_ : (g + 1) * og_, i, j] = np.einsum("nchw,ochw->no", patch, wg)
    return out + (0 if b is None else b.reshape(1, -1, 1, 1))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kernel_size": 3},
        {"kernel_size": (2, 3), "stride": 2, "padding": 1},
        {"kernel_size": 3, "padding": (1, 2), "dilation": 2, "bias": False},
        {"kernel_size": 1, "groups": 2},
    ],
)
def test_conv2d_matches_numpy(kwargs):
    og.manual_seed(5)
    conv = nn.Conv2d(4, 6, **kwargs).double()
    x = og.randn((2, 4, 7, 8), dtype="float64")
    bias = None if conv.bias is None else arr(conv.bias)
    expected = conv2d_reference(
        arr(x), arr(conv.weight), bias, conv.stride, conv.padding, conv.dilation, conv.groups
    )
    np.testing.assert_allclose(arr(conv(x)), expected, rtol=1e-7, atol=1e-9)


def test_conv2d_gradients_pass_gradcheck():
    og.manual_seed(6)
    conv = nn.Conv2d(2, 3, 2, stride=1, padding=1).double()
    x = og.randn((1, 2, 3, 3), dtype="float64", requires_grad=True)
    assert og.testing.gradcheck(lambda x, w, b: conv(x), [x, conv.weight, conv.bias])


def pool_reference(x, k, s, p, reduce, pad_value):
    xp = np.pad(x, ((0, 0), (0, 0), (p[0],) * 2, (p[1],) * 2), constant_values=pad_value)
    ho = (x.shape[2] + 2 * p[0] - k[0]) // s[0] + 1
    wo = (x.shape[3] + 2 * p[1] - k[1]) // s[1] + 1
    out = np.empty(x.shape[:2] + (ho, wo))
    for i in range(ho):
        for j in range(wo):
            out[:, :, i, j] = reduce(
                xp[:, :, i * s[0] : i * s[0] + k[0], j * s[1] : j * s[1] + k[1]], axis=(2, 3)
            )
    return out


def test_max_pool2d_matches_numpy():
    x = og.randn((2, 3, 6, 7), dtype="float64")
    np.testing.assert_allclose(
        arr(nn.MaxPool2d(2)(x)), pool_reference(arr(x), (2, 2), (2, 2), (0, 0), np.max, 0)
    )
    pooled = nn.MaxPool2d(3, stride=2, padding=1)(x)
    np.testing.assert_allclose(arr(pooled), pool_reference(arr(x), (3, 3), (2, 2), (1, 1), np.max, -np.inf))


def test_avg_pool2d_matches_numpy():
    x = og.randn((2, 3, 6, 7), dtype="float64")
    expected = pool_reference(arr(x), (2, 3), (2, 3), (0, 0), np.mean, 0)
    np.testing.assert_allclose(arr(nn.AvgPool2d((2, 3))(x)), expected, rtol=1e-7)


def test_adaptive_avg_pool2d_matches_numpy():
    x = og.randn((2, 3, 6, 8), dtype="float64")
    expected = arr(x).reshape(2, 3, 2, 3, 2, 4).mean(axis=(3, 5))
    np.testing.assert_allclose(arr(nn.AdaptiveAvgPool2d((2, 2))(x)), expected, rtol=1e-7)
    np.testing.assert_allclose(arr(nn.AdaptiveAvgPool2d(1)(x)), arr(x).mean(axis=(2, 3), keepdims=True))


def test_batch_norm2d_uses_batch_stats_in_training_and_running_stats_in_eval():
    og.manual_seed(8)
    bn = nn.BatchNorm2d(3, momentum=0.1).double()
    nn.init.normal_(bn.weight)
    nn.init.normal_(bn.bias)
    assert [n for n, _ in bn.named_buffers()] == ["running_mean", "running_var", "num_batches_tracked"]
    x = og.randn((4, 3, 5, 5), dtype="float64") * 2 + 1
    xa = arr(x)
    w, b = arr(bn.weight).reshape(1, 3, 1, 1), arr(bn.bias).reshape(1, 3, 1, 1)
    mean = xa.mean(axis=(0, 2, 3))
    var = xa.var(axis=(0, 2, 3))
    expected = (xa - mean.reshape(1, 3, 1, 1)) / np.sqrt(var.reshape(1, 3, 1, 1) + 1e-5) * w + b
    np.testing.assert_allclose(arr(bn(x)), expected, rtol=1e-6, atol=1e-8)
    n = 4 * 5 * 5
    np.testing.assert_allclose(arr(bn.running_mean), 0.1 * mean, rtol=1e-6)
    np.testing.assert_allclose(arr(bn.running_var), 0.9 + 0.1 * var * n / (n - 1), rtol=1e-6)
    assert int(bn.num_batches_tracked.item()) == 1
    bn.eval()
    rm, rv = arr(bn.running_mean).reshape(1, 3, 1, 1), arr(bn.running_var).reshape(1, 3, 1, 1)
    y = og.randn((2, 3, 5, 5), dtype="float64")
    np.testing.assert_allclose(arr(bn(y)), (arr(y) - rm) / np.sqrt(rv + 1e-5) * w + b, rtol=1e-6, atol=1e-8)
    assert int(bn.num_batches_tracked.item()) == 1  # eval leaves the statistics alone
    assert "running_mean" in bn.state_dict()


def test_batch_norm2d_records_buffer_writes_and_works_without_running_stats():
    bn = nn.BatchNorm2d(2)
    version = bn.running_mean._version
    bn(og.randn((3, 2, 4, 4)))
    assert bn.running_mean._version == version + 1
    free = nn.BatchNorm2d(2, affine=False, track_running_stats=False)
    assert list(free.parameters()) == [] and list(free.buffers()) == []
    x = og.randn((3, 2, 4, 4), dtype="float64")
    xa = arr(x)
    expected = (xa - xa.mean((0, 2, 3), keepdims=True)) / np.sqrt(xa.var((0, 2, 3), keepdims=True) + 1e-5)
    free.eval()  # without running statistics eval still uses the batch's
    np.testing.assert_allclose(arr(free(x)), expected, rtol=1e-6, atol=1e-8)


def test_batch_norm2d_gradients_reach_input_weight_and_bias():
    og.manual_seed(9)
    bn = nn.BatchNorm2d(2).double()
    nn.init.normal_(bn.weight)
    x = og.randn((3, 2, 2, 2), dtype="float64", requires_grad=True)
    probe = og.tensor(np.random.default_rng(0).standard_normal((3, 2, 2, 2)))
    assert og.testing.gradcheck(lambda x, w, b: bn(x) * probe, [x, bn.weight, bn.bias])


def test_group_norm_matches_numpy():
    og.manual_seed(10)
    gn = nn.GroupNorm(2, 4).double()
    nn.init.normal_(gn.weight)
    nn.init.normal_(gn.bias)
    x = og.randn((3, 4, 2, 5), dtype="float64")
    xa = arr(x).reshape(3, 2, -1)
    norm = ((xa - xa.mean(-1, keepdims=True)) / np.sqrt(xa.var(-1, keepdims=True) + 1e-5)).reshape(3, 4, 2, 5)
    expected = norm * arr(gn.weight).reshape(1, 4, 1, 1) + arr(gn.bias).reshape(1, 4, 1, 1)
    np.testing.assert_allclose(arr(gn(x)), expected, rtol=1e-6, atol=1e-8)


def attention_reference(mha, q, k, v, mask=None, causal=False):
    def proj(lin, x):
        return x @ arr(lin.weight) + arr(lin.bias)

    b, lq, e = q.shape
    h, d = mha.num_heads, mha.head_dim

    def heads(x):
        return x.reshape(b, x.shape[1], h, d).transpose(0, 2, 1, 3)

    qh, kh, vh = heads(proj(mha.q_proj, q)), heads(proj(mha.k_proj, k)), heads(proj(mha.v_proj, v))
    scores = qh @ kh.transpose(0, 1, 3, 2) / math.sqrt(d)
    if causal:
        scores = np.where(np.tril(np.ones((lq, kh.shape[2]), bool)), scores, -np.inf)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf) if mask.dtype == bool else scores + mask
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    out = (weights @ vh).transpose(0, 2, 1, 3).reshape(b, lq, e)
    return proj(mha.out_proj, out)


def test_multi_head_attention_matches_numpy():
    og.manual_seed(11)
    mha = nn.MultiHeadAttention(8, 2).double()
    assert [n for n, _ in mha.named_children()] == ["q_proj", "k_proj", "v_proj", "out_proj"]
    q = og.randn((2, 5, 8), dtype="float64")
    kv = og.randn((2, 3, 8), dtype="float64")
    np.testing.assert_allclose(arr(mha(q)), attention_reference(mha, arr(q), arr(q), arr(q)), atol=1e-10)
    cross = mha(q, kv, kv)
    assert cross.shape == (2, 5, 8)
    np.testing.assert_allclose(arr(cross), attention_reference(mha, arr(q), arr(kv), arr(kv)), atol=1e-10)


def test_multi_head_attention_masks():
    og.manual_seed(12)
    mha = nn.MultiHeadAttention(4, 2).double()
    x = og.randn((2, 4, 4), dtype="float64")
    xa = arr(x)
    causal = attention_reference(mha, xa, xa, xa, causal=True)
    np.testing.assert_allclose(arr(mha(x, is_causal=True)), causal, atol=1e-10)
    keep = np.ones((4, 4), dtype=bool)
    keep[:, 3] = False  # nobody attends to the last position
    np.testing.assert_allclose(
        arr(mha(x, attn_mask=og.tensor(keep))), attention_reference(mha, xa, xa, xa, mask=keep), atol=1e-10
    )
    additive = np.random.default_rng(0).standard_normal((4, 4))
    np.testing.assert_allclose(
        arr(mha(x, attn_mask=og.tensor(additive))),
        attention_reference(mha, xa, xa, xa, mask=additive),
        atol=1e-10,
    )
    # the first position attends only to itself under the causal mask
    changed = x.numpy().copy()
    changed[:, 1:] += 1.0
    np.testing.assert_allclose(
        arr(mha(og.tensor(changed), is_causal=True))[:, 0], arr(mha(x, is_causal=True))[:, 0], atol=1e-10
    )


def test_multi_head_attention_gradients_reach_every_projection():
    og.manual_seed(13)
    mha = nn.MultiHeadAttention(4, 2).double()
    x = og.randn((1, 3, 4), dtype="float64", requires_grad=True)
    params = list(mha.parameters())
    assert len(params) == 8
    assert og.testing.gradcheck(lambda x, *ps: mha(x, is_causal=True), [x, *params])


def _composed_layer_norm(x, n, weight, bias, eps):
    axes = list(range(x.ndim - n, x.ndim))
    centred = x - og.mean(x, axes, True)
    return centred * og.rsqrt(og.mean(centred * centred, axes, True) + eps) * weight + bias


def _composed_attention(q, k, v, mask, is_causal):
    """softmax(q k^T / sqrt(d) + additive mask) v from elementary ops: a bool mask adds
    -inf where False, a float mask adds itself, is_causal adds -inf above the diagonal."""
    scores = og.matmul(q, k, False, True) * (1.0 / np.sqrt(q.shape[-1]))
    lq, lk = q.shape[-2], k.shape[-2]
    add = np.zeros((lq, lk))
    if mask is not None and mask.dtype == np.bool_:
        add = np.where(mask.numpy(), 0.0, -np.inf)
    if is_causal:
        add = add + np.where(np.tril(np.ones((lq, lk), dtype=bool)), 0.0, -np.inf)
    scores = scores + og.tensor(add)
    if mask is not None and mask.dtype != np.bool_:
        scores = scores + mask
    return og.matmul(og.softmax(scores, -1), v)


def test_fused_layer_norm_and_attention_match_their_composition():
    """nn.functional.layer_norm and scaled_dot_product_attention (the fused generated ops)
    agree with the same math composed from elementary ops, values and gradients."""
    og.manual_seed(17)
    x = og.randn((2, 5, 8), dtype="float64", requires_grad=True)
    w = og.randn((8,), dtype="float64", requires_grad=True)
    b = og.randn((8,), dtype="float64", requires_grad=True)
    mask = og.tensor(np.random.default_rng(1).standard_normal((5, 5)) > -0.5)
    mask = og.logical_or(mask, og.tensor(np.eye(5, dtype=bool)))  # every row attends somewhere

    def run(layer_norm, attention):
        y = layer_norm(x, 1, w, b, 1e-5)
        out = attention(y, y * 0.5, y, mask, True)
        return [arr(t) for t in (out, *og.grad([(out * out).sum()], [x, w, b]))]

    fused = run(
        lambda x, n, w, b, eps: F.layer_norm(x, x.shape[-n:], w, b, eps),
        lambda q, k, v, m, c: F.scaled_dot_product_attention(q, k, v, m, 0.0, c),
    )
    composed = run(_composed_layer_norm, _composed_attention)
    for got, want in zip(fused, composed, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-10)


def test_gradients_reach_every_parameter_of_a_model():
    og.manual_seed(14)
    model = nn.Sequential(
        nn.Embedding(10, 6),
        nn.LayerNorm(6),
        nn.Linear(6, 8),
        nn.GELU(),
        nn.Dropout(0.1),
        nn.Linear(8, 3),
    )
    ids = og.tensor([[1, 2, 3], [4, 5, 6]])
    loss = F.cross_entropy(og.reshape(model(ids), [-1, 3]), og.tensor([0, 1, 2, 0, 1, 2]))
    loss.backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.shape == p.shape, name
        assert np.abs(arr(p.grad)).sum() > 0, name


def test_functional_reexports_ops_and_finds_new_ones_by_name():
    assert F.relu is og.relu and F.cross_entropy is og.cross_entropy and F.softmax is og.softmax
    assert F.matmul is og.matmul  # any op, by name
    with pytest.raises(AttributeError, match="no 'not_an_op'"):
        F.not_an_op  # noqa: B018
    x, w, b = og.randn((2, 3)), og.randn((3, 4)), og.randn((4,))
    np.testing.assert_allclose(arr(F.linear(x, w, b)), arr(x) @ arr(w) + arr(b), rtol=1e-5, atol=1e-6)


# -- init ------------------------------------------------------------------------------------------
def test_init_functions_fill_in_place_with_the_right_statistics():
    og.manual_seed(15)
    w = nn.Parameter(og.zeros((400, 300)))
    data = w._data
    version = w._version
    assert nn.init.kaiming_uniform_(w, nonlinearity="relu") is w
    assert w._data is data and w._version == version + 1
    bound = math.sqrt(2.0) * math.sqrt(3.0 / 400)
    assert np.abs(arr(w)).max() <= bound and np.abs(arr(w)).max() > 0.95 * bound
    nn.init.kaiming_normal_(w, mode="fan_out")
    assert abs(arr(w).std() - math.sqrt(2 / (1 + 0.01**2)) / math.sqrt(300)) < 0.01 * arr(w).std() * 3
    nn.init.xavier_uniform_(w)
    assert np.abs(arr(w)).max() <= math.sqrt(6 / 700)
    nn.init.xavier_normal_(w, gain=2.0)
    assert abs(arr(w).std() / (2 * math.sqrt(2 / 700)) - 1) < 0.02
    nn.init.normal_(w, mean=3.0, std=0.5)
    assert abs(arr(w).mean() - 3.0) < 0.01 and abs(arr(w).std() - 0.5) < 0.01
    nn.init.uniform_(w, -2, -1)
    assert arr(w).min() >= -2 and arr(w).max() < -1
    nn.init.zeros_(w)
    assert not arr(w).any()
    nn.init.ones_(w)
    assert (arr(w) == 1).all()
    assert w.dtype == np.float32


def test_init_uses_the_convolution_fan_for_4d_weights():
    w = og.zeros((8, 4, 3, 3))
    nn.init.kaiming_uniform_(w, a=math.sqrt(5))
    bound = math.sqrt(2 / (1 + 5)) * math.sqrt(3 / (4 * 9))
    assert np.abs(arr(w)).max() <= bound
    with pytest.raises(ValueError, match="at least 2 axes"):
        nn.init.xavier_uniform_(og.zeros((3,)))


def test_init_is_reproducible_under_manual_seed():
    og.manual_seed(16)
    a = nn.init.normal_(og.zeros((5,)))
    og.manual_seed(16)
    b = nn.init.normal_(og.zeros((5,)))
    np.testing.assert_array_equal(arr(a), arr(b))


# -- training end to end ------------------------------------------------------------------------------
def test_a_tiny_mlp_learns_xor_like_classes():
    from opgrad.runtime import optim

    og.manual_seed(0)
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, size=(256, 2)).astype(np.float32)
    y = ((x[:, 0] * x[:, 1]) > 0).astype(np.int64)
    model = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = optim.Adam(model.parameters(), lr=0.01)
    xt, yt = og.tensor(x), og.tensor(y)
    for _ in range(300):
        opt.zero_grad()
        loss = F.cross_entropy(model(xt), yt)
        loss.backward()
        opt.step()
    assert loss.item() < 0.1
    model.eval()
    with og.no_grad():
        acc = (arr(model(xt)).argmax(1) == y).mean()
    assert acc > 0.97


# -- reprs, containers, fallbacks and argument errors ----------------------------------------------
def test_reprs_show_the_constructor_arguments_that_differ_from_defaults():
    assert repr(nn.Conv2d(3, 4, 3)) == "Conv2d(3, 4, kernel_size=(3, 3), stride=(1, 1))"
    full = nn.Conv2d(4, 8, (3, 1), stride=2, padding=1, dilation=2, groups=2, bias=False)
    assert repr(full) == (
        "Conv2d(4, 8, kernel_size=(3, 1), stride=(2, 2), padding=(1, 1), dilation=(2, 2), groups=2, "
        "bias=False)"
    )
    assert repr(nn.MaxPool2d(2)) == "MaxPool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))"
    assert repr(nn.AvgPool2d(3, 1, 1)) == "AvgPool2d(kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))"
    assert repr(nn.AdaptiveAvgPool2d((2, 1))) == "AdaptiveAvgPool2d(output_size=(2, 1))"
    assert repr(nn.LayerNorm(4)) == "LayerNorm((4,), eps=1e-05, elementwise_affine=True)"
    assert (
        repr(nn.BatchNorm2d(3))
        == "BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)"
    )
    assert repr(nn.GroupNorm(2, 4, affine=False)) == "GroupNorm(2, 4, eps=1e-05, affine=False)"
    assert repr(nn.MultiHeadAttention(4, 2)).startswith(
        "MultiHeadAttention(embed_dim=4, num_heads=2, dropout=0.0\n"
    )
    assert repr(nn.Linear(2, 3, bias=False)) == "Linear(in_features=2, out_features=3, bias=False)"


def test_sequential_and_module_list_keep_order_and_registration():
    a, b, c = nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1)
    with pytest.raises(TypeError, match="Sequential: argument 1 is a function, not a Module"):
        nn.Sequential(a, og.tanh)
    seq = nn.Sequential(a, b)
    seq.head = c  # a Module attribute joins the chain
    assert list(seq) == [a, b, c] and len(seq) == 3
    x = og.tensor([[0.5, -1.0]])
    np.testing.assert_allclose(arr(seq(x)), arr(c(og.tanh(a(x)))))
    seq.note = "not a module"  # other attributes do not
    assert len(seq) == 3 and seq.note == "not a module"
    layers = nn.ModuleList([a]).extend([b, c])
    assert len(layers) == 3 and list(layers) == [a, b, c] and layers[-1] is c
    assert [n for n, _ in layers.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_module_registration_errors_name_the_module_and_the_value():
    m = nn.Module()
    with pytest.raises(NotImplementedError, match="Module must define forward"):
        m(1)
    with pytest.raises(TypeError, match="register_buffer: 'b' must be a Tensor or None, got ndarray"):
        m.register_buffer("b", np.zeros(2))
    with pytest.raises(TypeError, match="register_buffer: 'p' is a Parameter; use register_parameter"):
        m.register_buffer("p", nn.Parameter(og.zeros((1,))))
    with pytest.raises(TypeError, match="register_parameter: 'w' must be a Parameter or None, got Tensor"):
        m.register_parameter("w", og.zeros((1,)))
    with pytest.raises(TypeError, match="add_module: 'sub' must be a Module or None, got int"):
        m.add_module("sub", 3)
    with pytest.raises(TypeError, match="name must be a str, got int"):
        m.add_module(1, nn.Tanh())
    with pytest.raises(ValueError, match="name must be non-empty and contain no '.', got 'a.b'"):
        m.register_buffer("a.b", None)
    with pytest.raises(KeyError, match="'train' is already an attribute of Module"):
        m.register_parameter("train", None)
    with pytest.raises(TypeError, match=r"train\(\): mode must be a bool, got str"):
        m.train("eval")
    m.register_buffer("stats", og.zeros((2,)))
    with pytest.raises(TypeError, match="cannot assign ndarray to buffer 'stats' of Module"):
        m.stats = np.zeros(2)
    m.add_module("sub", nn.Tanh())
    with pytest.raises(TypeError, match="cannot assign int to submodule 'sub'"):
        m.sub = 3
    m.sub = None
    assert m.sub is None and list(m.children()) == []


def test_apply_visits_children_before_parents():
    model = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Tanh()))
    seen = []
    assert model.apply(lambda mod: seen.append(type(mod).__name__)) is model
    assert seen == ["Tanh", "Sequential", "Linear", "Sequential"]


def test_module_to_moves_gradients_with_the_parameters():
    lin = nn.Linear(2, 2)
    (lin(og.ones((1, 2))).sum()).backward()
    grad_before = arr(lin.weight.grad)
    lin.double()
    assert lin.weight.dtype == og.float64 and lin.weight.grad.dtype == og.float64
    np.testing.assert_allclose(arr(lin.weight.grad), grad_before)
    lin.to(dtype="float64")  # already there: nothing changes
    assert lin.weight.dtype == og.float64


@pytest.mark.parametrize(
    ("mask_kind", "is_causal"),
    [(None, True), ("bool", False), ("bool", True), ("float", False), ("float", True), (None, False)],
)
def test_attention_matches_its_composition_for_every_mask(mask_kind, is_causal):
    rng = np.random.default_rng(3)
    q, k, v = (og.tensor(rng.standard_normal((2, 4, 3)), requires_grad=True) for _ in range(3))
    mask = None
    if mask_kind == "bool":
        mask = og.logical_or(og.tensor(rng.standard_normal((4, 4)) > -0.3), og.tensor(np.eye(4, dtype=bool)))
    elif mask_kind == "float":
        mask = og.tensor(rng.standard_normal((4, 4)))

    def run(attention):
        out = attention(q, k, v, mask, is_causal)
        grads = og.grad([(out * out).sum()], [q, k, v])
        return [arr(out)] + [arr(g) for g in grads]

    fused = run(
        lambda q, k, v, m, c: nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=m, is_causal=c)
    )
    for got, want in zip(fused, run(_composed_attention), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def test_normalization_argument_and_shape_errors():
    with pytest.raises(
        ValueError, match=r"layer_norm: input of shape \(2, 3\) does not end with normalized_shape \(4,\)"
    ):
        nn.LayerNorm(4)(og.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"BatchNorm2d: expected NCHW input \(4 axes\), got shape \(2, 3\)"):
        nn.BatchNorm2d(3)(og.zeros((2, 3)))
    with pytest.raises(
        ValueError, match=r"MultiHeadAttention: query must have shape \(batch, length, 4\), got \(2, 3, 5\)"
    ):
        nn.MultiHeadAttention(4, 2)(og.zeros((2, 3, 5)))
    gn = nn.GroupNorm(2, 4, affine=False)
    assert gn.weight is None and list(gn.parameters()) == []
    x = og.tensor(np.arange(16.0).reshape(1, 4, 2, 2))
    out = arr(gn(x)).reshape(2, -1)
    np.testing.assert_allclose(out.mean(1), 0, atol=1e-6)
    np.testing.assert_allclose(out.var(1), 1, rtol=1e-4)


def test_layer_norm_without_affine():
    x = og.tensor(np.array([[1.0, 2.0, 6.0]]))
    out = arr(nn.LayerNorm(3, elementwise_affine=False)(x))
    want = (x.numpy() - 3.0) / np.sqrt(14 / 3 + 1e-5)
    np.testing.assert_allclose(out, want, rtol=1e-6)


@pytest.mark.parametrize(
    "name",
    ["uniform_", "normal_", "zeros_", "ones_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_"],
)
def test_init_functions_name_themselves_when_given_a_non_tensor(name):
    # Before: zeros_ and ones_ raised AttributeError ("'numpy.ndarray' object has no attribute '_data'").
    with pytest.raises(TypeError, match=f"{name}: expected a Tensor, got ndarray"):
        getattr(nn.init, name)(np.zeros((2, 2)))


def test_init_errors_name_the_function():
    w = og.zeros((2, 2))
    with pytest.raises(TypeError, match="constant_: value must be a real number, got str"):
        nn.init.constant_(w, "1")
    with pytest.raises(ValueError, match="normal_: std must be a finite number >= 0, got -1.0"):
        nn.init.normal_(w, std=-1.0)
    with pytest.raises(TypeError, match="uniform_: b must be a real number"):
        nn.init.uniform_(w, 0.0, None)
    with pytest.raises(ValueError, match="xavier_uniform_: fan_in \\+ fan_out is 0"):
        nn.init.xavier_uniform_(og.zeros((0, 0)))
    with pytest.raises(ValueError, match="kaiming_normal_: fan_out is 0"):
        nn.init.kaiming_normal_(og.zeros((3, 0)), mode="fan_out")
    assert not w.numpy().any()  # nothing was written by the refused calls
    with pytest.raises(ValueError, match="kaiming_uniform_: mode must be 'fan_in' or 'fan_out', got 'fan'"):
        nn.init.kaiming_uniform_(og.zeros((2, 2)), mode="fan")
    with pytest.raises(ValueError, match="calculate_gain: unsupported nonlinearity 'swish'"):
        nn.init.calculate_gain("swish")
    assert nn.init.calculate_gain("leaky_relu") == pytest.approx(math.sqrt(2 / (1 + 0.01**2)))
    assert nn.init.calculate_gain("leaky_relu", 0.2) == pytest.approx(math.sqrt(2 / 1.04))
    assert nn.init.calculate_gain("selu") == 0.75 and nn.init.calculate_gain("tanh") == pytest.approx(5 / 3)
