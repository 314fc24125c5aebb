"""Complex tensors (issue 15): dtypes and promotion, the ops that accept them (`complex: true`
in ops.yaml) and the ones that refuse them, gradients in PyTorch's convention (checked as
pairs of reals against finite differences, and against PyTorch when it is installed), the
FFTs of og.fft, and training complex parameters."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from test_ops import _grad_setup

import opgrad as og
from op_samples import OPS, ROOT, YAML_OPS
from opgrad.codegen import load_spec
from opgrad.runtime.dtypes import complex_of

SPEC = load_spec(ROOT)
COMPLEX_OPS = [op.name for op in SPEC.ops if op.complex]
REAL_ONLY = [op.name for op in SPEC.ops if not op.complex]
gradcheck, gradgradcheck = og.testing.gradcheck, og.testing.gradgradcheck


def crandn(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.standard_normal(shape) + 1j * rng.standard_normal(shape))


def _c(rng: np.random.Generator, *shape: int) -> og.Tensor:
    return og.tensor(crandn(rng, *shape), requires_grad=True)


def _r(rng: np.random.Generator, *shape: int) -> og.Tensor:
    return og.tensor(rng.standard_normal(shape), dtype="float64", requires_grad=True)


# --- dtypes and promotion --------------------------------------------------------------------


def test_complex_dtypes_are_created_and_converted():
    assert og.tensor([1 + 2j]).dtype == og.complex64  # the complex of the default float32
    assert og.tensor([1.0, 2j], dtype="complex128").dtype == og.complex128
    assert og.tensor(np.array([1j], dtype=np.complex64)).dtype == og.complex64
    assert og.from_numpy(np.array([1j])).dtype == og.complex128
    og.set_default_dtype(og.float64)
    try:
        assert og.tensor([1j]).dtype == og.complex128
    finally:
        og.set_default_dtype(og.float32)
    x = og.tensor([1.5, -2.0], dtype="float64")
    z = x.cast("complex128")
    assert z.dtype == og.complex128 and z.numpy().tolist() == [1.5 + 0j, -2 + 0j]
    back = (z * 1j).cast("float64")  # complex to real keeps the real part, without a warning
    np.testing.assert_array_equal(back.numpy(), [0.0, 0.0])
    assert og.zeros((2,), dtype="cfloat").dtype == og.complex64
    assert z.is_complex() and not x.is_complex() and x.is_floating_point()


TORCH_TABLE = [  # (expression, expected), each checked against PyTorch 2.13 when it is installed
    ("f32 + c128_0d", "complex64"),
    ("f64 + c64", "complex128"),
    ("f64 + c64_0d", "complex128"),
    ("c64 + f64_0d", "complex64"),
    ("i64 + c64_0d", "complex64"),
    ("c64 + i64", "complex64"),
    ("f32 * 1j", "complex64"),
    ("f64 * 1j", "complex128"),
    ("i64 * 1j", "complex64"),
    ("f16 + c64", "complex64"),
    ("c64 + c128", "complex128"),
    ("c64 * 2.5", "complex64"),
    ("b * 1j", "complex64"),
]


def _operands(mod: Any) -> dict[str, Any]:
    def t(dtype: str, shape: tuple[int, ...] = (3,)) -> Any:
        arr = np.ones(shape, dtype=dtype)
        return og.tensor(arr) if mod is og else mod.tensor(arr)

    return {
        "f16": t("float16"),
        "f32": t("float32"),
        "f64": t("float64"),
        "i64": t("int64"),
        "b": t("bool"),
        "c64": t("complex64"),
        "c128": t("complex128"),
        "c64_0d": t("complex64", ()),
        "c128_0d": t("complex128", ()),
        "f64_0d": t("float64", ()),
    }


@pytest.mark.parametrize(("expr", "want"), TORCH_TABLE)
def test_promotion_with_complex_follows_pytorch(expr, want):
    got = eval(expr, {}, _operands(og))  # noqa: S307 - the table's own expressions
    assert str(got.dtype) == want
    torch = pytest.importorskip("torch")
    assert str(eval(expr, {}, _operands(torch)).dtype).removeprefix("torch.") == want  # noqa: S307


# --- which ops take complex input --------------------------------------------------------------


def _first_float_sample(name: str) -> tuple[Any, int] | None:
    info = OPS.get(name)
    if info is None:
        return None
    for s in info.sample_list():
        for i, a in enumerate(s.args):
            if isinstance(a, np.ndarray) and a.dtype == np.float64 and a.size:
                return s, i
    return None


REFUSING = [n for n in REAL_ONLY if _first_float_sample(n) is not None]


@pytest.mark.parametrize("name", REFUSING)
def test_an_op_without_complex_support_names_itself_and_the_argument(name):
    """Every op not marked `complex: true`, given a complex tensor where its sample has a float
    one, raises a TypeError naming the op, before anything is computed (the old behaviour: a
    complex tensor went to NumPy, which orders complex numbers lexicographically, and the
    gradient was computed without conjugates)."""
    sample, position = _first_float_sample(name)
    args = [og.tensor(a) if isinstance(a, np.ndarray) else a for a in sample.args]
    args[position] = og.tensor(sample.args[position] + 0.5j)
    with pytest.raises(TypeError, match=rf"^{name}\b.*complex"):
        getattr(og, name)(*args, **sample.kwargs)


def test_an_in_place_op_refuses_complex_before_writing():
    z = og.tensor([1 + 1j, -2 + 0.5j])
    before = z.numpy().copy()
    with pytest.raises(TypeError, match=r"relu_: x: complex tensors are not supported"):
        z.relu_()
    with pytest.raises(TypeError, match=r"clip_.*complex"):
        og.clip_(z, 0.0, 1.0)
    np.testing.assert_array_equal(z.numpy(), before)
    z.add_(1j)  # add accepts complex, in place too
    np.testing.assert_array_equal(z.numpy(), before + 1j)


def test_refusals_name_the_argument_and_the_fix():
    z = og.tensor([1 + 1j])
    with pytest.raises(TypeError, match=r"^log1p: complex tensors are not supported \(got complex64\)"):
        og.log1p(z)
    with pytest.raises(TypeError, match=r"^maximum: complex tensors are not supported"):
        og.maximum(z, og.tensor([1.0]))
    with pytest.raises(TypeError, match=r"^less_than: x: complex tensors are not supported"):
        z < z  # noqa: B015 - the comparison raises
    with pytest.raises(TypeError, match=r"docs/dtypes.md"):
        og.sort(z)


def _complexify(rng: np.random.Generator, info: Any, sample: Any) -> list[Any]:
    """The sample's float64 arrays made complex (a random imaginary part; lists only at
    differentiable positions), the rest as they are."""
    out = []
    for i, a in enumerate(sample.args):
        if isinstance(a, np.ndarray) and a.dtype == np.float64:
            a = np.asarray(a + 1j * rng.uniform(0.2, 0.8, a.shape) * rng.choice([-1.0, 1.0], a.shape))
        elif i in info.diff_args and isinstance(a, list) and a and isinstance(a[0], np.ndarray):
            a = [np.asarray(v + 1j * rng.uniform(0.2, 0.8, v.shape)) for v in a]
        out.append(a)
    return out


def _complex_cases() -> list[Any]:
    params = []
    for name in COMPLEX_OPS:
        info = OPS.get(name)
        if info is None or info.complex_io or not info.differentiable:
            continue  # the complex-number ops and FFTs have complex samples in the op table
        samples = [s for s in info.sample_list() if s.grad and s.forward]
        if samples:
            params.append(pytest.param(name, samples[0], id=name))
    return params


@pytest.mark.parametrize(("name", "sample"), _complex_cases())
def test_complex_ops_match_numpy_and_finite_differences(name, sample):
    """Every op with `complex: true`, on its first op-table sample made complex: the forward
    against the same NumPy reference, and first and second derivatives as pairs of reals."""
    info = OPS[name]
    rng = np.random.default_rng(5)
    arrays = _complexify(rng, info, sample)
    with np.errstate(all="ignore"):
        expected = info.ref(*arrays, **sample.kwargs)
    out = getattr(og, name)(
        *[og.tensor(a) if isinstance(a, np.ndarray) else a for a in arrays], **sample.kwargs
    )
    outs = out if isinstance(out, (list, tuple)) else [out]
    exps = expected if isinstance(expected, (list, tuple)) else [expected]
    for o, e in zip(outs, exps, strict=True):
        np.testing.assert_allclose(o.numpy(), np.asarray(e), rtol=1e-10, atol=1e-12)
    fn, leaves = _grad_setup(info, dataclasses.replace(sample, args=tuple(arrays)))
    assert any(x.dtype.kind == "c" for x in leaves)
    assert gradcheck(fn, leaves, atol=info.grad_atol, rtol=info.grad_rtol)
    assert gradgradcheck(fn, leaves, atol=info.grad_atol, rtol=info.grad_rtol)


def test_every_complex_op_is_checked_somewhere():
    covered = {p.values[0] for p in _complex_cases()} | {
        n for n in COMPLEX_OPS if OPS.get(n) is not None and OPS[n].complex_io
    }
    unchecked = [n for n in COMPLEX_OPS if n not in covered and OPS.get(n) and OPS[n].differentiable]
    assert unchecked == []
    assert {"add", "multiply", "divide", "matmul", "exp", "sum", "mean", "abs", "angle", "fftn"} <= set(
        COMPLEX_OPS
    )


# --- the gradient convention, against PyTorch --------------------------------------------------


def _torch_grads(fn_t: Any, arrays: list[np.ndarray]) -> list[np.ndarray]:
    torch = pytest.importorskip("torch")
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    fn_t(torch, *ts).backward()
    return [t.grad.numpy() for t in ts]


def _og_grads(fn: Any, arrays: list[np.ndarray]) -> list[np.ndarray]:
    ts = [og.tensor(a, requires_grad=True) for a in arrays]
    fn(og, *ts).backward()
    return [t.grad.numpy() for t in ts]


def _abs2(mod: Any, z: Any) -> Any:
    return (z * z.conj()).real


TORCH_CASES = {
    "mul-div": (lambda m, a, b: _abs2(m, a * b / (b + 2)).sum(), [(3,), (3,)]),
    "matmul": (lambda m, a, b: _abs2(m, a @ b).sum(), [(2, 3), (3, 4)]),
    "exp-log-sqrt": (lambda m, a: (m.exp(a).real + m.log(a).imag + m.sqrt(a).real).sum(), [(4,)]),
    "trig": (
        lambda m, a: (m.sin(a) * m.cos(a) + m.tanh(a) - m.sigmoid(a) * m.sinh(a) + m.cosh(a)).real.sum(),
        [(4,)],
    ),
    "abs-angle": (lambda m, a: (m.abs(a) ** 3 + m.angle(a) * 2).sum(), [(5,)]),
    "pow-reciprocal": (lambda m, a: _abs2(m, a**3 + m.reciprocal(a)).sum(), [(4,)]),
    "fft": (lambda m, a: _abs2(m, m.fft.fft(a, norm="ortho") * m.arange(4)).sum(), [(4,)]),
    "irfft": (lambda m, a: (m.fft.irfft(a, n=7) ** 2 * m.arange(7)).sum(), [(4,)]),
    "rfft2": (lambda m, a: m.fft.rfft2(a.real).imag.sum() + m.fft.ifft2(a).real.sum(), [(3, 4)]),
    "view-as-real": (lambda m, a: (m.view_as_real(a) ** 2 * m.arange(2)).sum(), [(3,)]),
}


@pytest.mark.parametrize("case", sorted(TORCH_CASES))
def test_gradients_match_pytorch(case):
    fn, shapes = TORCH_CASES[case]
    rng = np.random.default_rng(11)
    arrays = [crandn(rng, *s) + 1.5 for s in shapes]  # away from 0 and the branch cuts
    want = _torch_grads(fn, arrays)
    got = _og_grads(fn, arrays)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_irfft_gradient_is_the_doubled_adjoint():
    """irfft reads each bin but 0 and n/2 twice (as the frequency and its mirror image), so its
    gradient doubles them; finite differences of the real and imaginary parts confirm it."""
    rng = np.random.default_rng(3)
    for n, m in ((8, 5), (7, 4), (6, 6)):  # even, odd, and an input longer than needed
        z = _c(rng, m)
        assert gradcheck(lambda a, n=n: og.fft.irfft(a, n=n), [z])
        g = rng.standard_normal(n)
        (grad,) = og.grad([og.fft.irfft(z, n=n)], [z], [og.tensor(g)])
        used = n // 2 + 1
        want = np.fft.rfft(g) / n
        want[1 : (n + 1) // 2] *= 2
        np.testing.assert_allclose(grad.numpy()[: min(used, m)], want[: min(used, m)], atol=1e-12)
        np.testing.assert_array_equal(grad.numpy()[used:], 0)  # bins irfft ignores


# --- autograd entry points ----------------------------------------------------------------------


def test_backward_of_a_complex_output_needs_a_seed():
    z = og.tensor([1 + 2j], requires_grad=True)
    y = z * z
    with pytest.raises(RuntimeError, match=r"output 0 is complex \(complex64\).*real loss"):
        y.backward()
    assert z.grad is None
    y.backward(og.tensor([1 + 0j]))
    np.testing.assert_allclose(z.grad.numpy(), [2 - 4j])  # g * conj(2z)
    x = og.tensor([1.0], requires_grad=True)
    with pytest.raises(TypeError, match=r"grad_tensors\[0\] is complex .* but output 0 is real"):
        (x * 2).backward(og.tensor([1j]))


def test_gradient_descent_on_a_real_loss_of_complex_parameters_converges():
    rng = np.random.default_rng(0)
    target = og.tensor(crandn(rng, 6))
    for make in (lambda p: og.optim.SGD(p, lr=0.2), lambda p: og.optim.Adam(p, lr=0.1)):
        z = og.zeros((6,), dtype=og.complex128, requires_grad=True)
        opt = make([z])
        for _ in range(200):
            opt.zero_grad()
            d = z - target
            loss = og.real(d * og.conj(d)).sum()
            loss.backward()
            opt.step()
        np.testing.assert_allclose(z.numpy(), target.numpy(), atol=1e-3)


def test_adam_on_complex_parameters_matches_pytorch_and_round_trips_its_state():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    t = crandn(rng, 2, 3)
    z = og.zeros((2, 3), dtype=og.complex128, requires_grad=True)
    zt = torch.zeros(2, 3, dtype=torch.complex128, requires_grad=True)
    opt, opt_t = og.optim.Adam([z], lr=0.05), torch.optim.Adam([zt], lr=0.05)
    for _ in range(4):
        opt.zero_grad()
        opt_t.zero_grad()
        (og.abs(z - og.tensor(t)) ** 2).sum().backward()
        ((zt - torch.tensor(t)).abs() ** 2).sum().backward()
        opt.step()
        opt_t.step()
    np.testing.assert_allclose(z.numpy(), zt.detach().numpy(), rtol=1e-12, atol=1e-14)
    fresh = og.optim.Adam([z], lr=0.05)
    fresh.load_state_dict(opt.state_dict())
    assert fresh.state[z]["exp_avg"].shape == (2, 3, 2)  # the real and imaginary parts


def _forward_cases() -> list[Any]:
    """The first grad sample of every op that takes complex input, made complex (the
    complex-number ops and FFTs: their own complex samples)."""
    params = []
    for name in COMPLEX_OPS:
        info = OPS.get(name)
        if info is None or not info.differentiable:
            continue
        samples = [s for s in info.sample_list() if s.grad and s.forward]
        if samples:
            params.append(pytest.param(name, samples[0], id=name))
    return params


@pytest.mark.parametrize(("name", "sample"), _forward_cases())
def test_forward_mode_on_complex_tensors_matches_central_differences(name, sample):
    """Tangents through every op that takes complex input, with complex tangents: explicit
    `jvp:` rules are C-linear in the tangents (abs, angle, real, imag: R-linear), derived ones
    come from the conjugate-convention backward by the double-vjp trick, which gives the
    differential itself; both against (f(x + eps v) - f(x - eps v)) / (2 eps)."""
    info = OPS[name]
    rng = np.random.default_rng(9)
    arrays = list(sample.args) if info.complex_io else _complexify(rng, info, sample)

    def direction(a: np.ndarray) -> np.ndarray:
        v = crandn(rng, *a.shape) if a.dtype.kind == "c" else rng.standard_normal(a.shape)
        return np.asarray(v, dtype=a.dtype)

    vs: dict[int, Any] = {}
    for i in info.diff_args:
        a = arrays[i] if i < len(arrays) else None
        if isinstance(a, np.ndarray) and a.dtype.kind in "fc":
            vs[i] = direction(a)
        elif isinstance(a, list) and a and all(isinstance(v, np.ndarray) for v in a):
            vs[i] = [direction(v) for v in a]
    fwad = og.autograd.forward_ad

    def build(i: int, a: Any, make: Any) -> Any:
        if i in vs:
            return (
                [make(x, v) for x, v in zip(a, vs[i], strict=True)] if isinstance(a, list) else make(a, vs[i])
            )
        if isinstance(a, np.ndarray):
            return og.tensor(a)
        return [og.tensor(x) for x in a] if isinstance(a, list) and a and isinstance(a[0], np.ndarray) else a

    def call(shift: float) -> np.ndarray:
        args = [build(i, a, lambda x, v: og.tensor(np.asarray(x + shift * v))) for i, a in enumerate(arrays)]
        out = getattr(og, name)(*args, **sample.kwargs)
        return (out[0] if isinstance(out, (list, tuple)) else out).numpy()

    with fwad.dual_level():
        args = [
            build(i, a, lambda x, v: fwad.make_dual(og.tensor(x), og.tensor(v))) for i, a in enumerate(arrays)
        ]
        out = getattr(og, name)(*args, **sample.kwargs)
        first = out[0] if isinstance(out, (list, tuple)) else out
        tangent = fwad.unpack_dual(first).tangent
    eps = 1e-6
    numeric = (call(eps) - call(-eps)) / (2 * eps)
    assert tangent is not None
    np.testing.assert_allclose(tangent.numpy(), numeric, rtol=1e-5, atol=1e-6)


def test_forward_over_reverse_hvp_of_a_real_loss_of_complex_inputs():
    rng = np.random.default_rng(2)
    z0, v0 = crandn(rng, 4), crandn(rng, 4)

    def grad_at(a: np.ndarray) -> np.ndarray:
        z = og.tensor(a, requires_grad=True)
        loss = og.real(og.tanh(z) * og.conj(z) + og.exp(z) * z).sum()
        (g,) = og.grad([loss], [z])
        return g.numpy()

    fwad = og.autograd.forward_ad
    with fwad.dual_level():
        z = fwad.make_dual(og.tensor(z0, requires_grad=True), og.tensor(v0))
        loss = og.real(og.tanh(z) * og.conj(z) + og.exp(z) * z).sum()
        (g,) = og.grad([loss], [z], create_graph=True)
        hvp = fwad.unpack_dual(g).tangent.numpy()
    eps = 1e-6
    numeric = (grad_at(z0 + eps * v0) - grad_at(z0 - eps * v0)) / (2 * eps)
    np.testing.assert_allclose(hvp, numeric, rtol=1e-5, atol=1e-6)


def test_gradcheck_reports_the_imaginary_part_of_a_wrong_gradient():
    class WrongConj(og.autograd.Function):
        @staticmethod
        def forward(ctx, z):
            return z * 2j

        @staticmethod
        def backward(ctx, g):
            return g * 2j  # the right one is g * conj(2j) = -2j g

    z = _c(np.random.default_rng(0), 2)
    with pytest.raises(og.testing.GradcheckError, match=r"element \(0,\) (real|imag)"):
        gradcheck(WrongConj.apply, [z])
    with pytest.raises(ValueError, match="complex128"):
        gradcheck(og.conj, [og.tensor([1j], dtype="complex64", requires_grad=True)])


# --- views and the parts ------------------------------------------------------------------------


def test_real_imag_and_view_as_real_are_views():
    z = og.tensor(np.array([1 + 2j, 3 - 4j]))
    r, i, v = z.real, z.imag, og.view_as_real(z)
    assert r.numpy().tolist() == [1.0, 3.0] and i.numpy().tolist() == [2.0, -4.0]
    assert v.shape == (2, 2) and np.shares_memory(v.numpy(), z.numpy())
    back = og.view_as_complex(v)
    np.testing.assert_array_equal(back.numpy(), z.numpy())
    assert og.real(og.tensor([1.0, 2.0])).dtype == og.float32  # a real tensor: itself
    with pytest.raises(TypeError, match="imag: x must be a complex tensor"):
        og.imag(og.tensor([1.0]))
    with pytest.raises(ValueError, match=r"view_as_complex: x's last axis must have length 2"):
        og.view_as_complex(og.zeros((2, 3)))
    p = og.polar(og.tensor([2.0]), og.tensor([np.pi / 2]))
    np.testing.assert_allclose(p.numpy(), [2j], atol=1e-6)
    c = og.complex(og.tensor([1.0, 2.0]), og.tensor(3.0))
    assert c.dtype == og.complex64 and c.numpy().tolist() == [1 + 3j, 2 + 3j]
    with pytest.raises(TypeError, match="complex: real must be a float32 or float64 tensor"):
        og.complex(og.tensor([1]), og.tensor([2]))


def test_complex_of_names_the_complex_dtype_of_each_precision():
    assert complex_of(np.dtype("float16")) == og.complex64
    assert complex_of(np.dtype("float32")) == og.complex64
    assert complex_of(np.dtype("float64")) == og.complex128


# --- og.fft --------------------------------------------------------------------------------------


FFT_CALLS = [
    ("fft", {}, np.fft.fft, {}),
    ("fft", {"n": 6, "dim": 0, "norm": "ortho"}, np.fft.fft, {"n": 6, "axis": 0, "norm": "ortho"}),
    ("ifft", {"norm": "forward"}, np.fft.ifft, {"norm": "forward"}),
    ("rfft", {"n": 5}, np.fft.rfft, {"n": 5}),
    ("irfft", {"n": 9}, np.fft.irfft, {"n": 9}),
    ("fft2", {}, np.fft.fft2, {}),
    ("ifft2", {"s": (3, 5)}, np.fft.ifft2, {"s": (3, 5)}),
    ("rfft2", {"norm": "ortho"}, np.fft.rfft2, {"norm": "ortho"}),
    ("irfft2", {"s": (4, 6)}, np.fft.irfft2, {"s": (4, 6)}),
    ("fftn", {"dim": (0, 2)}, np.fft.fftn, {"axes": (0, 2)}),
    ("ifftn", {}, np.fft.ifftn, {}),
    ("rfftn", {}, np.fft.rfftn, {}),
    ("irfftn", {"s": (2, 3, 6)}, np.fft.irfftn, {"s": (2, 3, 6), "axes": (0, 1, 2)}),
]


@pytest.mark.parametrize(("name", "kwargs", "ref", "ref_kwargs"), FFT_CALLS)
def test_og_fft_matches_numpy_fft_and_its_gradients_check(name, kwargs, ref, ref_kwargs):
    rng = np.random.default_rng(4)
    real_input = name.startswith("rfft")
    data = rng.standard_normal((2, 3, 4)) if real_input else crandn(rng, 2, 3, 4)
    fn = getattr(og.fft, name)
    out = fn(og.tensor(data), **kwargs)
    np.testing.assert_allclose(out.numpy(), ref(data, **ref_kwargs), rtol=1e-10, atol=1e-12)
    x = og.tensor(data, requires_grad=True)
    assert gradcheck(lambda a: fn(a, **kwargs), [x])


def test_fft_of_float32_is_complex64_and_float16_is_refused():
    assert og.fft.fft(og.ones(4)).dtype == og.complex64
    assert og.fft.irfft(og.fft.rfft(og.ones(4))).dtype == og.float32
    with pytest.raises(TypeError, match="fftn: float16 is not supported"):
        og.fft.fft(og.ones(4, dtype="float16"))
    with pytest.raises(ValueError, match="fftn: norm must be 'backward', 'ortho' or 'forward', got 'bad'"):
        og.fft.fft(og.ones(4), norm="bad")
    with pytest.raises(TypeError, match="rfftn: x must be a real tensor"):
        og.fft.rfft(og.tensor([1j]))
    with pytest.raises(ValueError, match="fftn: axis 3 is out of range"):
        og.fft.fft(og.ones(4), dim=3)
    with pytest.raises(TypeError, match="fft: got both 'dim' and its alias 'axis'"):
        og.fft.fft(og.ones(4), dim=0, axis=0)
    with pytest.raises(TypeError, match="fft2: got both 'dim' and its alias 'axes'"):
        og.fft.fft2(og.ones((2, 2)), dim=(0, 1), axes=(0, 1))  # before: dim was silently ignored
    assert og.fft.fft2(og.ones((2, 3, 4)), axes=(0, 1)).shape == (2, 3, 4)


def test_fftshift_and_fftfreq_match_numpy():
    x = og.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(og.fft.fftshift(x).numpy(), np.fft.fftshift(x.numpy()))
    np.testing.assert_array_equal(og.fft.fftshift(x, dim=1).numpy(), np.fft.fftshift(x.numpy(), axes=1))
    np.testing.assert_array_equal(og.fft.ifftshift(og.fft.fftshift(x)).numpy(), x.numpy())
    np.testing.assert_allclose(og.fft.fftfreq(5, 0.5).numpy(), np.fft.fftfreq(5, 0.5))
    np.testing.assert_allclose(og.fft.rfftfreq(6).numpy(), np.fft.rfftfreq(6))
    assert og.fft.fftfreq(4).dtype == og.get_default_dtype()
    t = og.tensor(crandn(np.random.default_rng(0), 5), requires_grad=True)
    assert gradcheck(og.fft.fftshift, [t])


def test_yaml_complex_ops_are_listed_in_the_docs():
    text = (ROOT / "docs" / "dtypes.md").read_text()
    start = text.index("Ops that accept complex tensors: ") + len("Ops that accept complex tensors: ")
    listed = " ".join(text[start : text.index(" (the list is checked", start)].split()).split(", ")
    assert listed == [n for n in YAML_OPS if n in COMPLEX_OPS]


def test_vector_and_matrix_norms_of_complex_tensors_match_pytorch():
    rng = np.random.default_rng(8)
    z = crandn(rng, 3, 4)
    cases = [
        (lambda m, a: m.linalg.vector_norm(a), {}),
        (lambda m, a: m.linalg.vector_norm(a, ord=3, dim=1), {}),
        (lambda m, a: m.linalg.vector_norm(a, ord=float("inf")), {}),
        (lambda m, a: m.linalg.matrix_norm(a, ord="fro"), {}),
        (lambda m, a: m.linalg.matrix_norm(a, ord=1), {}),
    ]
    for fn, _ in cases:
        x = og.tensor(z, requires_grad=True)
        assert gradcheck(lambda a, fn=fn: fn(og, a), [x])
        torch = pytest.importorskip("torch")
        xt = torch.tensor(z, requires_grad=True)
        fn(torch, xt).sum().backward()
        fn(og, x).sum().backward()
        np.testing.assert_allclose(
            fn(og, og.tensor(z)).numpy(), fn(torch, torch.tensor(z)).numpy(), rtol=1e-12
        )
        np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-10, atol=1e-12)
    with pytest.raises(TypeError, match="matrix_norm: ord='nuc' needs singular values"):
        og.linalg.matrix_norm(og.tensor(z), ord="nuc")


def test_complex_tensors_save_load_pickle_and_become_parameters(tmp_path):
    import pickle

    z = og.tensor(np.array([1 + 2j, 3 - 1j]), requires_grad=True)
    og.save({"z": z, "p": og.nn.Parameter(og.tensor([1j]))}, tmp_path / "c.og")
    back = og.load(tmp_path / "c.og")
    np.testing.assert_array_equal(back["z"].numpy(), z.numpy())
    assert back["z"].dtype == og.complex128 and back["z"].requires_grad
    assert back["p"].requires_grad and back["p"].dtype == og.complex64
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(z)).numpy(), z.numpy())
    params = og.nn.ParameterList([og.tensor([1j])])
    assert params[0].requires_grad


def test_full_and_random_creation_of_complex_tensors():
    assert og.full((2,), 1j).dtype == og.complex64  # the default float dtype's complex
    assert og.full((2,), 1 + 1j, dtype="complex128").numpy().tolist() == [1 + 1j, 1 + 1j]
    assert og.full_like(og.zeros((1,), dtype="complex64"), 2j).numpy().tolist() == [2j]
    og.manual_seed(0)
    z = og.randn(20000, dtype=og.complex128).numpy()
    # as torch.randn: real and imaginary parts independent, each of variance 1/2
    assert abs(np.var(z) - 1.0) < 0.05 and abs(np.var(z.real) - 0.5) < 0.03
    u = og.rand(1000, dtype=og.complex64).numpy()
    assert u.dtype == np.complex64 and 0 <= u.real.min() and u.imag.max() < 1
    with pytest.raises(TypeError, match="randn: dtype must be floating or complex, got int64"):
        og.randn(2, dtype="int64")


def test_paddle_and_torch_helper_names():
    z = og.tensor([1j, 2.0])
    assert og.is_complex(z) and not og.is_complex(og.tensor([1.0])) and og.is_complex("complex128")
    assert og.as_real is og.view_as_real and og.as_complex is og.view_as_complex  # Paddle's names
    with pytest.raises(TypeError, match="is_complex: expected a Tensor or a dtype, got list"):
        og.is_complex([1])
