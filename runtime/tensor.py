"""Tensor: an array (NumPy or CuPy) plus the autograd fields.

The hot-path fields are slots set by `wrap`; everything rarely used (hooks, retain_grads,
a name) lives in `_extra`, allocated on first use. A tensor that requires grad is either a
leaf (`_node is None`; its gradient goes to an `AccumulateGrad` it holds weakly in `_acc`)
or an op's output (`_node`, `_pos`: which node and which output position made it).
Ops, methods and Python operators come from the generated `TensorMethods` mixin, and the
PyTorch spellings composed of ops (`view`, `permute`, `chunk`, `x.size()`, ...) from
`TensorConveniences` (runtime/tensor_conveniences.py). The
modules that import Tensor and that its methods call (the generated ops, the engine,
indexing, creation, transfer) are reached through `later` (see `runtime/later.py`).
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from opgrad.generated.tensor_methods import TensorMethods
from opgrad.runtime import _accel
from opgrad.runtime import device as _device
from opgrad.runtime.dtypes import as_dtype, complex_of
from opgrad.runtime.hooks import HOOK_IDS, NodeHooks, RemovableHandle
from opgrad.runtime.later import later
from opgrad.runtime.promotion import get_default_dtype, scalar_dtype
from opgrad.runtime.tensor_conveniences import TensorConveniences
from opgrad.runtime.version import VersionCounter, share_version

if TYPE_CHECKING:
    from opgrad.runtime.grad_node import GradNode


class _TensorExtra:
    """Rarely used per-tensor state."""

    __slots__ = ("hooks", "retain", "grad_owned", "name", "post_accumulate", "view_base")

    def __init__(self) -> None:
        self.hooks: dict[int, Callable[[Any], Any]] | None = None  # leaf tensor hooks
        # leaf hooks run after a gradient was accumulated into .grad (None: none registered)
        self.post_accumulate: dict[int, Callable[[Any], Any]] | None = None
        self.retain = False
        self.grad_owned = False  # .grad is a buffer the engine made and may add into in place
        self.name: str | None = None
        # the tensor whose memory this view shares, noted while a dual level is open (dual.py)
        self.view_base: Tensor | None = None


class Tensor(TensorMethods, TensorConveniences):
    """An n-dimensional array that can record the operations applied to it."""

    # `_dual`: (dual level, tangent) or None (runtime/dual.py). A slot of its own rather than
    # rarely used state in `_extra`: in forward mode every op's output gets a tangent, and
    # making an `_extra` for each cost ~120 ns and one more object for the cyclic GC.
    __slots__ = (
        "_data",
        "_requires_grad",
        "_node",
        "_pos",
        "_grad",
        "_vc",
        "_acc",
        "_extra",
        "_dual",
        "__weakref__",
    )

    __array_priority__ = 1000  # so ndarray (op) Tensor defers to Tensor's reflected operators
    __hash__ = object.__hash__  # __eq__ is elementwise; tensors hash by identity

    def __init__(self, data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> None:
        self._init_fields(later.creation.to_array(data, dtype, device, "Tensor"))
        if requires_grad:
            self.requires_grad = True

    def _init_fields(self, data: Any) -> None:
        """Set every slot for a fresh tensor around `data` (`wrap` inlines the same stores)."""
        self._data = data
        self._requires_grad = False
        self._node: GradNode | None = None
        self._pos = 0
        self._grad: Tensor | None = None
        self._vc: VersionCounter | None = None
        self._acc: weakref.ref[Any] | None = None
        self._extra: _TensorExtra | None = None
        self._dual: tuple[int, Tensor] | None = None

    # -- basic properties ----------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._data.shape

    @property
    def dtype(self) -> np.dtype:
        return self._data.dtype

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    @property
    def device(self) -> str:
        return _device.device_of(self._data)

    @property
    def data(self) -> Tensor:
        """The same memory as a tensor outside the graph (like `detach()`)."""
        return self.detach()

    @property
    def _version(self) -> int:
        """How many in-place writes this tensor's memory has seen."""
        vc = self._vc
        return 0 if vc is None else vc.value

    inplace_version = _version

    @property
    def name(self) -> str | None:
        return None if self._extra is None else self._extra.name

    @name.setter
    def name(self, value: str | None) -> None:
        self._extra_state().name = value

    def _extra_state(self) -> _TensorExtra:
        extra = self._extra
        if extra is None:
            extra = self._extra = _TensorExtra()
        return extra

    # -- conversion ----------------------------------------------------------------------
    def numpy(self) -> np.ndarray:
        """The data as a NumPy array (shares memory on the CPU; copies from a GPU)."""
        data = self._data
        if isinstance(data, np.ndarray):
            return data.view(np.ndarray) if type(data) is not np.ndarray else data
        return data.get()

    def item(self) -> Any:
        if self._data.size != 1:
            raise ValueError(
                f"item(): only a tensor with one element can be converted to a Python number, "
                f"this one has shape {self.shape}"
            )
        return self.numpy().reshape(()).item()

    def tolist(self) -> Any:
        return self.numpy().tolist()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """NumPy 2's conversion protocol: `np.array(t)` (copy=True) gives a copy,
        `np.asarray(t)` (copy=None) shares memory when it can, and copy=False raises when a
        copy cannot be avoided (another dtype, or data on a GPU)."""
        arr = self._data
        fresh = False
        if arr.__class__ is not np.ndarray:
            if isinstance(arr, np.ndarray):
                arr = arr.view(np.ndarray)
            else:  # a GPU array: the host array is always a new copy
                if copy is False:
                    raise ValueError(
                        f"__array__: this tensor is on {self.device}; a NumPy array of it needs a copy, "
                        "but copy=False was given (use np.asarray(t) or t.numpy())"
                    )
                arr = arr.get()
                fresh = True
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            if copy is False:
                raise ValueError(
                    f"__array__: converting a tensor of dtype {arr.dtype} to {np.dtype(dtype)} needs a "
                    "copy, but copy=False was given (use np.asarray(t, dtype=...))"
                )
            return arr.astype(dtype)
        if copy and not fresh:
            return arr.copy()
        return arr

    def __dlpack__(
        self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None, copy: Any = None
    ) -> Any:
        """DLPack export (`np.from_dlpack(t)`, `torch.from_dlpack(t)`): shares memory, which
        is then watched for writes by the other library (runtime/dlpack.py)."""
        args = {"stream": stream, "max_version": max_version, "dl_device": dl_device, "copy": copy}
        return later.dlpack.export(self, args)

    def __dlpack_device__(self) -> tuple[int, int]:
        return later.dlpack.device(self)

    # -- copy and pickle -----------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> Tensor:
        """A leaf's deep copy: new memory, the same requires_grad, a copy of `.grad`. A tensor
        an op produced is refused: copying it would copy the graph behind it, and a backward
        through the copy would send gradients to hidden copies of the leaves."""
        if self._node is not None:
            raise RuntimeError(
                f"deepcopy: only leaf tensors (made by the user, not produced by an op) can be "
                f"deep-copied; this one was produced by {self._node.name} and its copy would carry a "
                "hidden copy of the graph. Deep-copy t.detach() to copy its values outside the graph"
            )
        new = self.__class__.__new__(self.__class__)
        new._init_fields(self._data.copy())
        memo[id(self)] = new
        new._requires_grad = self._requires_grad
        if self._grad is not None:
            new._grad = wrap(self._grad._data.copy())
            new._extra_state().grad_owned = True
        if self._extra is not None and self._extra.name is not None:
            new._extra_state().name = self._extra.name
        return new

    def __copy__(self) -> Tensor:
        """`copy.copy(t)`: a leaf sharing t's memory and version counter (so saved-tensor
        checks see writes through either), with t's requires_grad, as PyTorch's."""
        new = self.__class__.__new__(self.__class__)
        new._init_fields(self._data)
        share_version(new, self)
        new._requires_grad = self._requires_grad
        return new

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Pickling keeps the data (on the host), the dtype, the device and requires_grad, as
        PyTorch does; the graph, `.grad` and hooks are not kept. A tensor an op produced is
        rebuilt as a leaf that requires grad."""
        return (_rebuild_tensor, (self.__class__, self.numpy(), self._requires_grad, self.device))

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iu":
            raise TypeError(f"only integer tensors can be used as an index, this one is {self.dtype}")
        return int(self.item())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise ValueError(
                f"the truth value of a tensor with {self._data.size} elements is ambiguous; "
                "use .any() or .all() on the NumPy array (t.numpy().any())"
            )
        return bool(self.item())

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        body = np.array2string(self.numpy(), separator=", ", prefix="Tensor(")
        extras = [f"dtype={self.dtype}"]
        if self.device != "cpu":
            extras.append(f"device={self.device!r}")
        if self._node is not None:
            extras.append(f"grad_fn=<{type(self._node).__name__}>")
        elif self._requires_grad:
            extras.append("requires_grad=True")
        return f"Tensor({body}, {', '.join(extras)})"

    def astype(self, dtype: Any) -> Tensor:
        """A copy converted to `dtype` (differentiable between floating dtypes)."""
        return later.ops.cast(self, as_dtype(dtype, "astype"))

    def detach(self) -> Tensor:
        """The same memory, cut from the graph (shares the version counter)."""
        t = wrap(self._data)
        share_version(t, self)
        return t

    def to(self, device: Any = None, dtype: Any = None) -> Tensor:
        """Move to `device` and/or convert to `dtype` (both differentiable)."""
        out = self
        if device is not None:
            out = later.transfer.to_device(out, device)
        if dtype is not None and as_dtype(dtype, "to") != out.dtype:
            out = out.astype(dtype)
        return out

    def cpu(self) -> Tensor:
        return self.to("cpu")

    def cuda(self, index: int = 0) -> Tensor:
        return self.to(f"cuda:{index}")

    # -- autograd fields -----------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        value = bool(value)
        if self._node is not None:
            if not value:
                raise RuntimeError(
                    "requires_grad can only be changed on leaf tensors; this tensor was produced by "
                    f"{self._node.name}. Use .detach() to get a tensor outside the graph."
                )
            return
        if value and self._data.dtype.kind not in "fc":
            raise TypeError(
                f"only floating-point and complex tensors can require grad, this one is {self.dtype}; "
                "convert it first, e.g. t.astype('float32')"
            )
        self._requires_grad = value

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        self.requires_grad = requires_grad
        return self

    @property
    def stop_gradient(self) -> bool:
        """Paddle's spelling: always `not requires_grad`."""
        return not self._requires_grad

    @stop_gradient.setter
    def stop_gradient(self, value: bool) -> None:
        self.requires_grad = not value

    @property
    def is_leaf(self) -> bool:
        return self._node is None

    @property
    def grad_fn(self) -> GradNode | None:
        return self._node

    @property
    def grad(self) -> Tensor | None:
        if self._node is not None and self._grad is None and not self._retains():
            warnings.warn(
                "the .grad of a non-leaf tensor is not kept; call .retain_grads() on it before "
                "backward, or use og.grad([output], [tensor])",
                UserWarning,
                stacklevel=2,
            )
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"grad must be a Tensor or None, got {type(value).__name__}")
            if value.shape != self.shape:
                raise ValueError(f"grad has shape {value.shape}; the tensor has shape {self.shape}")
            if value._data.dtype != self._data.dtype:
                raise TypeError(
                    f"grad has dtype {value.dtype}; the tensor has dtype {self.dtype} and its gradient "
                    f"must have the same (convert it with .astype('{self.dtype}'))"
                )
            if value._data.__class__ is not self._data.__class__:
                if value.device != self.device:
                    raise TypeError(
                        f"grad is on device {value.device}; the tensor is on {self.device} and its "
                        "gradient must be on the same device"
                    )
                raise TypeError(
                    f"grad holds a {type(value._data).__name__} array; the tensor holds a "
                    f"{type(self._data).__name__} array and its gradient must hold the same kind"
                )
        self._grad = value
        if self._extra is not None:
            self._extra.grad_owned = False

    def _retains(self) -> bool:
        return self._extra is not None and self._extra.retain

    def retain_grads(self) -> None:
        """Keep this non-leaf tensor's gradient in `.grad` during backward."""
        if not self._requires_grad:
            raise RuntimeError("retain_grads() on a tensor that does not require grad")
        if self._node is None:
            return  # leaves keep their gradient anyway
        extra = self._extra_state()
        if extra.retain:
            return
        extra.retain = True
        self._node._hook_tables().retain[self._pos] = weakref.ref(self)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """`hook(grad)` runs when this tensor's gradient is computed; it may return a
        replacement. Returns a handle whose `remove()` unregisters it."""
        if not callable(hook):
            raise TypeError(f"register_hook: hook must be callable, got {type(hook).__name__}")
        if not self._requires_grad:
            raise RuntimeError(
                "register_hook: this tensor does not require grad, so no gradient will reach the hook"
            )
        key = next(HOOK_IDS)
        if self._node is None:
            extra = self._extra_state()
            if extra.hooks is None:
                extra.hooks = {}
            extra.hooks[key] = hook
            return RemovableHandle(extra.hooks, key)
        tables: NodeHooks = self._node._hook_tables()
        table = tables.tensor.setdefault(self._pos, {})
        table[key] = hook
        return RemovableHandle(table, key)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]) -> RemovableHandle:
        """`hook(self)` runs each time a backward pass has accumulated a gradient into this
        leaf's `.grad` (after the sum, so `self.grad` is the new value); it must return None.
        Leaves only. Returns a handle whose `remove()` unregisters it."""
        if not callable(hook):
            raise TypeError(
                f"register_post_accumulate_grad_hook: hook must be callable, got {type(hook).__name__}"
            )
        if self._node is not None:
            raise RuntimeError(
                "register_post_accumulate_grad_hook: only a leaf accumulates into .grad; "
                "use register_hook on a non-leaf tensor"
            )
        if not self._requires_grad:
            raise RuntimeError(
                "register_post_accumulate_grad_hook: this tensor does not require grad, "
                "so no gradient will be accumulated"
            )
        extra = self._extra_state()
        if extra.post_accumulate is None:
            extra.post_accumulate = {}
        key = next(HOOK_IDS)
        extra.post_accumulate[key] = hook
        return RemovableHandle(extra.post_accumulate, key)

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Paddle's clear_grad: zero the gradient in place (or drop it with set_to_zero=False)."""
        if self._grad is None:
            return
        if set_to_zero:
            g = self._grad
            self._grad = wrap(g._data * 0)
            self._extra_state().grad_owned = True
        else:
            self._grad = None

    clear_gradient = clear_grad

    def zero_grad(self) -> None:
        self._grad = None

    def backward(
        self, grad_tensor: Tensor | None = None, retain_graph: bool | None = None, create_graph: bool = False
    ) -> None:
        """Accumulate d(self)/d(leaf) into every leaf's `.grad` (seed: ones, or grad_tensor).

        With the C primitives this statement runs in C, without this frame (bound by
        engine's `_accel.engine_backward`)."""
        later.engine.backward(
            [self], None if grad_tensor is None else [grad_tensor], retain_graph, create_graph
        )

    # -- indexing and the operators the YAML does not bind -------------------------------
    def __getitem__(self, index: Any) -> Tensor:
        return later.indexing.getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        later.indexing.setitem(self, index, value)

    def __pow__(self, exponent: Any) -> Tensor:
        if isinstance(exponent, Tensor):
            return later.ops.elementwise_pow(self, exponent)
        return later.ops.pow(self, exponent)

    def __rpow__(self, base: Any) -> Tensor:
        return later.ops.elementwise_pow(as_tensor_arg(base, self, "pow", "x"), self)

    @property
    def T(self) -> Tensor:
        """The tensor with its axes reversed."""
        return later.ops.transpose(self, list(range(self.ndim))[::-1])


_new = object.__new__


_accel.grad_property(Tensor)  # Tensor.grad's common cases in C when built (runtime/_accel.py)


def _rebuild_tensor(cls: type[Tensor], array: np.ndarray, requires_grad: bool, device: str) -> Tensor:
    """Unpickling: a leaf of class `cls` around `array`, moved to `device`."""
    if device != "cpu":
        array = _device.move_array(array, device)
    t = cls.__new__(cls)
    t._init_fields(array)
    t._requires_grad = requires_grad
    return t


def wrap(data: Any) -> Tensor:
    """A tensor around `data` (no copy, no grad). The generated ops' constructor: the same
    stores as `Tensor._init_fields`, inlined because every op calls it."""
    t = _new(Tensor)
    t._data = data
    t._requires_grad = False
    t._node = None
    t._pos = 0
    t._grad = None
    t._vc = None
    t._acc = None
    t._extra = None
    t._dual = None
    return t


wrap = _accel.tensor_wrap(wrap)  # its C version when built (runtime/_accel.py)


def as_tensor_arg(value: Any, like: Any, op: str, arg: str) -> Tensor:
    """Convert a Python number or NumPy array passed where `op` expects a Tensor.

    A Python number takes `like`'s dtype unless its category is higher (a float with an
    integer tensor: the default float dtype; `promotion.scalar_dtype`), so a scalar operand
    never widens a tensor's dtype; `like` may be a
    Tensor or a raw array (an operand not converted yet). An array (NumPy or
    CuPy) is copied, as `og.tensor` does: the op's node may save it for backward, and the
    caller may write into the array afterwards (`og.from_numpy` shares memory on purpose).
    """
    if value.__class__ is float and isinstance(like, Tensor):
        like_data = like._data
        if like_data.__class__ is np.ndarray and like_data.dtype.kind == "f":
            # the common case (`p.grad * lr`): a float next to a floating NumPy tensor takes
            # that tensor's dtype, which is what the general path's result_type gives
            return wrap(np.asarray(value, dtype=like_data.dtype))
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, complex, np.number, np.bool_)):
        # `like` may still be a raw array (an operand after this one, not converted yet):
        # the scalar is weak next to it too
        like_data = like._data if isinstance(like, Tensor) else like
        numeric = isinstance(like_data, np.ndarray) and like_data.dtype != object
        if like_data is not None and (numeric or _device.module_of_type(type(like_data)) is not None):
            dtype = scalar_dtype(like_data.dtype, value)  # the promotion table: runtime/promotion.py
            return wrap(_device.array_module(like_data).asarray(value, dtype=dtype))
        if isinstance(value, (bool, np.bool_)):
            return wrap(np.asarray(value, dtype=np.bool_))
        if isinstance(value, int):
            return wrap(np.asarray(value, dtype=np.int64))
        if isinstance(value, float):
            return wrap(np.asarray(value, dtype=get_default_dtype()))
        if isinstance(value, complex):
            return wrap(np.asarray(value, dtype=complex_of(get_default_dtype())))
        return wrap(np.asarray(value))
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            raise TypeError(f"{op}: argument {arg!r} is a NumPy array of dtype object; expected numbers")
        return wrap(value.copy())  # the caller may write into it later; a graph may save it
    mod = _device.module_of_type(type(value))
    if mod is not None:
        return wrap(value.copy())
    if isinstance(value, (list, tuple)):  # `[[1.0, 2.0]] @ t`: numbers as og.tensor reads them
        return wrap(later.creation.to_array(value, None, None, op))
    raise TypeError(
        f"{op}: argument {arg!r} must be a Tensor (or a Python number / NumPy array / list), "
        f"got {type(value).__name__}"
    )


def tensors_of(values: Sequence[Any], op: str, arg: str) -> list[Tensor]:
    """A `Tensor[]` argument: a list/tuple of tensors (numbers and arrays are converted)."""
    if isinstance(values, Tensor) or not isinstance(values, (list, tuple)):
        raise TypeError(
            f"{op}: argument {arg!r} must be a list or tuple of Tensors, got {type(values).__name__}"
        )
    if not values:
        raise ValueError(f"{op}: argument {arg!r} must not be empty")
    like = next((v for v in values if isinstance(v, Tensor)), None)
    return [
        v if isinstance(v, Tensor) else as_tensor_arg(v, like, op, f"{arg}[{i}]")
        for i, v in enumerate(values)
    ]
