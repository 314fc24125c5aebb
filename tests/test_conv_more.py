"""og.conv_transpose2d and og.conv1d against PyTorch's functional forms, and their errors."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og

RNG = np.random.default_rng(5)


def _matches_torch(torch_fn, og_fn, arrays, kw):
    """Values and all three gradients (for a random output gradient) equal torch's."""
    torch = pytest.importorskip("torch")
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    want = torch_fn(*ts, **kw)
    os_ = [og.tensor(a, requires_grad=True) for a in arrays]
    got = og_fn(*os_, **kw)
    np.testing.assert_allclose(got.numpy(), want.detach().numpy(), atol=1e-12)
    g = RNG.standard_normal(tuple(want.shape))
    want.backward(torch.tensor(g))
    og.sum(got * og.tensor(g)).backward()
    for o, t in zip(os_, ts, strict=True):
        np.testing.assert_allclose(o.grad.numpy(), t.grad.numpy(), atol=1e-10)
    return tuple(want.shape)


@pytest.mark.parametrize(
    "kw",
    [{}, {"stride": 2, "padding": 1, "output_padding": 1}, {"groups": 2, "dilation": 2, "stride": (2, 1)}],
)
def test_conv_transpose2d_matches_torch_with_gradients(kw):
    torch = pytest.importorskip("torch")
    x, w, b = (
        RNG.standard_normal((2, 4, 3, 5)),
        RNG.standard_normal((4, 3, 3, 2)),
        RNG.standard_normal(6 if kw.get("groups") else 3),
    )
    if not kw.get("groups"):
        b = b[:3]
    _matches_torch(torch.nn.functional.conv_transpose2d, og.nn.functional.conv_transpose2d, (x, w, b), kw)


def test_conv1d_matches_torch():
    torch = pytest.importorskip("torch")
    x, w, b = RNG.standard_normal((2, 4, 9)), RNG.standard_normal((6, 2, 3)), RNG.standard_normal(6)
    kw = {"stride": 2, "padding": 1, "dilation": 2, "groups": 2}
    want = torch.nn.functional.conv1d(*(torch.tensor(a) for a in (x, w, b)), **kw)
    np.testing.assert_allclose(
        og.conv1d(*(og.tensor(a) for a in (x, w, b)), **kw).numpy(), want.numpy(), atol=1e-12
    )


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: og.conv_transpose2d(og.zeros((1, 2, 3, 3)), og.zeros((3, 1, 2, 2))),
            "weight has 3 input channels",
        ),
        (
            lambda: og.conv_transpose2d(og.zeros((1, 2, 3, 3)), og.zeros((2, 1, 2, 2)), output_padding=1),
            "output_padding",
        ),
        (lambda: og.conv1d(og.zeros((1, 2, 3, 3)), og.zeros((2, 2, 2))), "conv1d: x must be \\(N, C, L\\)"),
    ],
)
def test_bad_arguments_are_clear_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_conv_transpose1d_module_matches_torch():
    torch = pytest.importorskip("torch")
    ours = og.nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, dilation=1)
    theirs = torch.nn.ConvTranspose1d(
        4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, dilation=1
    ).double()
    assert tuple(ours.weight.shape) == tuple(theirs.weight.shape)
    with torch.no_grad():
        theirs.weight.copy_(torch.tensor(ours.weight.numpy()))
        theirs.bias.copy_(torch.tensor(ours.bias.numpy()))
    x = RNG.standard_normal((2, 4, 5))
    np.testing.assert_allclose(
        ours(og.tensor(x.astype(np.float32))).numpy(), theirs(torch.tensor(x)).detach().numpy(), atol=1e-5
    )


def test_conv3d_matches_torch_with_gradients():
    torch = pytest.importorskip("torch")
    x, w, b = (
        RNG.standard_normal((2, 4, 5, 4, 6)),
        RNG.standard_normal((6, 2, 2, 3, 2)),
        RNG.standard_normal(6),
    )
    kw = {"stride": (2, 1, 2), "padding": (1, 0, 1), "dilation": (1, 1, 2), "groups": 2}
    shape = _matches_torch(torch.nn.functional.conv3d, og.conv3d, (x, w, b), kw)
    layer = og.nn.Conv3d(4, 6, (2, 3, 2), stride=(2, 1, 2), padding=(1, 0, 1), dilation=(1, 1, 2), groups=2)
    assert layer(og.tensor(x.astype(np.float32))).shape == shape
