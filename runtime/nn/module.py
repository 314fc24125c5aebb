"""Module: the base of every layer — a tree of submodules that owns parameters and buffers.

Assigning a `Parameter`, a `Module`, or (for a name made by `register_buffer`) a tensor as
an attribute registers it in the module's ordered tables; registration order is the order
of `parameters()`, `state_dict()` and the repr. The value is also kept in the instance
`__dict__`, so reading `self.weight` in `forward` is a plain attribute look-up.

`module(x)` calls `forward(x)`; a module with forward hooks (`register_forward_pre_hook`,
`register_forward_hook`) runs them around it, and one without pays one attribute read.
`train()`/`eval()` set `training` on the whole tree; `state_dict()` maps dotted names to
tensors sharing the parameters' memory; `save(path)`/`load(path)` write and read them as an
`.npz` file.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple, TypeVar

import numpy as np

from opgrad.runtime import device as _device
from opgrad.runtime import serialization
from opgrad.runtime.dtypes import as_dtype
from opgrad.runtime.hooks import HOOK_IDS, RemovableHandle
from opgrad.runtime.nn._update import assign, bump_version
from opgrad.runtime.nn.parameter import Parameter
from opgrad.runtime.tensor import Tensor, wrap

M = TypeVar("M", bound="Module")


class IncompatibleKeys(NamedTuple):
    """What `load_state_dict(strict=False)` could not match."""

    missing_keys: list[str]
    unexpected_keys: list[str]


class Module:
    """Base class of layers and models: subclass it, assign layers and Parameters in
    `__init__`, and compute the output in `forward`."""

    training: bool
    _hooks: tuple[dict[int, Callable[..., Any]], dict[int, Callable[..., Any]]] | None = None
    _parameters: dict[str, Parameter | None]
    _buffers: dict[str, Tensor | None]
    _non_persistent: set[str]
    _modules: dict[str, Module | None]

    def __init__(self) -> None:
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent"] = set()
        d["_modules"] = {}
        d["_hooks"] = None  # an instance entry: found before the class default, so faster

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define forward()")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        hooks = self._hooks
        if hooks is None:
            return self.forward(*args, **kwargs)
        for hook in list(hooks[0].values()):
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        out = self.forward(*args, **kwargs)
        for hook in list(hooks[1].values()):
            result = hook(self, args, out)
            if result is not None:
                out = result
        return out

    # -- forward hooks -------------------------------------------------------------------
    def register_forward_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """`hook(module, args)` runs before forward; returning a value (a tuple, or one
        argument) replaces the positional arguments. Keyword arguments pass unchanged."""
        return self._add_hook(0, hook, "register_forward_pre_hook")

    def register_forward_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """`hook(module, args, output)` runs after forward; returning a value replaces the
        output. Hooks run in registration order; `handle.remove()` unregisters."""
        return self._add_hook(1, hook, "register_forward_hook")

    def _add_hook(self, which: int, hook: Callable[..., Any], what: str) -> RemovableHandle:
        if not callable(hook):
            raise TypeError(f"{what}: hook must be callable, got {type(hook).__name__}")
        if self._hooks is None:
            self.__dict__["_hooks"] = ({}, {})
        table = self._hooks[which]  # type: ignore[index]
        key = next(HOOK_IDS)
        table[key] = hook
        return RemovableHandle(table, key)

    # -- registration ------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if params is None:
            raise AttributeError(
                f"cannot assign {name!r} before Module.__init__() has run; "
                f"call super().__init__() first in {type(self).__name__}.__init__"
            )
        if isinstance(value, Parameter):
            self._forget(name)
            params[name] = value
        elif isinstance(value, Module):
            self._forget(name)
            self._modules[name] = value
        elif name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign {type(value).__name__} to parameter {name!r} of {type(self).__name__}; "
                    "assign an nn.Parameter (or None)"
                )
            params[name] = None
        elif name in self._modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign {type(value).__name__} to submodule {name!r} of {type(self).__name__}; "
                    "assign a Module (or None)"
                )
            self._modules[name] = None
        elif name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign {type(value).__name__} to buffer {name!r} of {type(self).__name__}; "
                    "assign a Tensor (or None)"
                )
            self._buffers[name] = value
        d[name] = value

    def __delattr__(self, name: str) -> None:
        self._forget(name)
        self.__dict__.pop(name, None)

    def _forget(self, name: str) -> None:
        self._parameters.pop(name, None)
        self._modules.pop(name, None)
        self._buffers.pop(name, None)
        self._non_persistent.discard(name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Register `param` (or a None placeholder, e.g. a disabled bias) under `name`."""
        _check_name(name, "register_parameter", self)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"register_parameter: {name!r} must be a Parameter or None, got {type(param).__name__}"
            )
        self._forget(name)
        self._parameters[name] = param
        self.__dict__[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Register a tensor that is state but not learnable (e.g. running statistics).

        Buffers move with `to()` and appear in `state_dict()` unless `persistent=False`."""
        _check_name(name, "register_buffer", self)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"register_buffer: {name!r} must be a Tensor or None, got {type(tensor).__name__}"
            )
        if isinstance(tensor, Parameter):
            raise TypeError(f"register_buffer: {name!r} is a Parameter; use register_parameter")
        self._forget(name)
        self._buffers[name] = tensor
        if not persistent:
            self._non_persistent.add(name)
        self.__dict__[name] = tensor

    def add_module(self, name: str, module: Module | None) -> None:
        _check_name(name, "add_module", self)
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"add_module: {name!r} must be a Module or None, got {type(module).__name__}")
        self._forget(name)
        self._modules[name] = module
        self.__dict__[name] = module

    register_module = add_module

    # -- traversal -----------------------------------------------------------------------
    def named_modules(self, prefix: str = "") -> Iterator[tuple[str, Module]]:
        """(dotted name, module) for this module and every descendant, depth first, each once."""
        seen: set[int] = set()
        stack: list[tuple[str, Module]] = [(prefix, self)]
        while stack:
            name, mod = stack.pop()
            if id(mod) in seen:
                continue
            seen.add(id(mod))
            yield name, mod
            children = [(f"{name}.{k}" if name else k, m) for k, m in mod._modules.items() if m is not None]
            stack.extend(reversed(children))

    def modules(self) -> Iterator[Module]:
        for _, mod in self.named_modules():
            yield mod

    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen: set[int] = set()
        for name, mod in self._modules.items():
            if mod is not None and id(mod) not in seen:
                seen.add(id(mod))
                yield name, mod

    def children(self) -> Iterator[Module]:
        for _, mod in self.named_children():
            yield mod

    def named_parameters(self, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Parameter]]:
        """(dotted name, parameter) in registration order; a shared parameter appears once."""
        seen: set[int] = set()
        mods = self.named_modules(prefix) if recurse else iter([(prefix, self)])
        for mod_name, mod in mods:
            for name, p in mod._parameters.items():
                if p is None or id(p) in seen:
                    continue
                seen.add(id(p))
                yield (f"{mod_name}.{name}" if mod_name else name), p

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        seen: set[int] = set()
        mods = self.modules() if recurse else iter([self])
        for mod in mods:
            for p in mod._parameters.values():
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Tensor]]:
        seen: set[int] = set()
        mods = self.named_modules(prefix) if recurse else iter([(prefix, self)])
        for mod_name, mod in mods:
            for name, b in mod._buffers.items():
                if b is None or id(b) in seen:
                    continue
                seen.add(id(b))
                yield (f"{mod_name}.{name}" if mod_name else name), b

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self: M, fn: Callable[[Module], Any]) -> M:
        """Call `fn` on every submodule (children first) and then on this module."""
        for mod in reversed(list(self.modules())):
            fn(mod)
        return self

    # -- modes and gradients -------------------------------------------------------------
    def train(self: M, mode: bool = True) -> M:
        """Set `training` on this module and all descendants (Dropout, BatchNorm read it)."""
        if not isinstance(mode, bool):
            raise TypeError(f"train(): mode must be a bool, got {type(mode).__name__}")
        for mod in self.modules():
            mod.__dict__["training"] = mode
        return self

    def eval(self: M) -> M:
        return self.train(False)

    def requires_grad_(self: M, requires_grad: bool = True) -> M:
        for p in self.parameters():
            p.requires_grad = requires_grad
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Drop every parameter's gradient (or, with set_to_none=False, zero it)."""
        for p in self.parameters():
            if set_to_none:
                p._grad = None
            else:
                p.clear_grad(set_to_zero=True)

    # -- state -----------------------------------------------------------------------------
    def state_dict(self, prefix: str = "", keep_vars: bool = False) -> dict[str, Tensor]:
        """Dotted name -> tensor for every parameter and persistent buffer, in registration
        order. The tensors share memory with the module (detached unless keep_vars)."""
        out: dict[str, Tensor] = {}
        for mod_name, mod in self.named_modules(prefix.rstrip(".")):
            head = f"{mod_name}." if mod_name else ""
            for name, p in mod._parameters.items():
                if p is not None:
                    out[head + name] = p if keep_vars else p.detach()
            for name, b in mod._buffers.items():
                if b is not None and name not in mod._non_persistent:
                    out[head + name] = b if keep_vars else b.detach()
        return out

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True) -> IncompatibleKeys:
        """Copy values (Tensors or arrays) into the parameters and buffers in place.

        Shapes must match, and dtypes must be of the same kind (a floating value may load
        into a floating tensor of another precision, and an integer into an integer one).
        With `strict`, missing or unexpected keys raise a KeyError listing them all; a
        wrong shape or dtype raises a ValueError naming every such key. Either is raised
        before anything is written."""
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        if strict and (missing or unexpected):
            raise KeyError(
                f"load_state_dict into {type(self).__name__}: missing keys {missing}, "
                f"unexpected keys {unexpected}"
            )
        values: list[tuple[Tensor, Any, str]] = []
        problems: list[str] = []
        for key, target in own.items():
            if key not in state_dict:
                continue
            value = state_dict[key]
            array = value._data if isinstance(value, Tensor) else np.asarray(value)
            problem = _load_problem(key, array, target)
            if problem:
                problems.append(problem)
            else:
                values.append((target, array, key))
        if problems:
            raise ValueError(f"load_state_dict into {type(self).__name__}: " + "; ".join(problems))
        for target, array, key in values:
            assign(target, array, f"load_state_dict: {key!r}")
        return IncompatibleKeys(missing, unexpected)

    def save(self, path: Any) -> None:
        """Write `state_dict()` to `path` as an .npz archive (one array per dotted name)."""
        save(self.state_dict(), path)

    def load(self, path: Any, strict: bool = True) -> IncompatibleKeys:
        """Load an .npz archive written by `save` into this module."""
        return self.load_state_dict(load(path), strict=strict)

    # -- devices and dtypes ------------------------------------------------------------------
    def to(self: M, device: Any = None, dtype: Any = None) -> M:
        """Move/convert every parameter and buffer in place (the same Parameter objects, so
        an optimizer made before still holds them). Gradients follow; dtype conversion
        applies to floating tensors only."""
        target = None if device is None else _device.normalize_device(device)
        dt = None if dtype is None else as_dtype(dtype, "Module.to: dtype")

        def convert(array: Any) -> Any:
            if target is not None and _device.device_of(array) != target:
                array = _device.move_array(array, target)
            if dt is not None and array.dtype.kind == "f" and array.dtype != dt:
                array = array.astype(dt)
            return array

        for t in [*self.parameters(), *self.buffers()]:
            new = convert(t._data)
            if new is t._data:
                continue
            t._data = new
            t._acc = None  # its accumulator recorded the old array type
            bump_version(t)
            if t._grad is not None:
                t._grad = wrap(convert(t._grad._data))
        return self

    def cpu(self: M) -> M:
        return self.to("cpu")

    def cuda(self: M, index: int = 0) -> M:
        return self.to(f"cuda:{index}")

    def double(self: M) -> M:
        return self.to(dtype="float64")

    def float(self: M) -> M:
        return self.to(dtype="float32")

    def half(self: M) -> M:
        return self.to(dtype="float16")

    # -- repr ------------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The arguments shown inside this module's repr line (override in layers)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        children = [(k, m) for k, m in self._modules.items() if m is not None]
        if not children:
            return f"{type(self).__name__}({extra})"
        lines = [f"{type(self).__name__}({extra}"]
        for name, mod in children:
            body = repr(mod).replace("\n", "\n  ")
            lines.append(f"  ({name}): {body}")
        return "\n".join(lines) + "\n)"


def _check_name(name: str, what: str, mod: Module) -> None:
    if not isinstance(name, str):
        raise TypeError(f"{what}: name must be a str, got {type(name).__name__}")
    if not name or "." in name:
        raise ValueError(f"{what}: name must be non-empty and contain no '.', got {name!r}")
    if name not in mod.__dict__ and hasattr(type(mod), name):
        raise KeyError(f"{what}: {name!r} is already an attribute of {type(mod).__name__}")


def _load_problem(key: str, array: Any, target: Tensor) -> str:
    """Why `array` cannot be loaded into `target` ("" when it can)."""
    if tuple(array.shape) != tuple(target.shape):
        mine = tuple(target.shape)
        return f"{key!r} has shape {tuple(array.shape)} in the state dict, but the module's has shape {mine}"
    kind, want = array.dtype.kind, target.dtype.kind
    if kind != want and not (kind in "iu" and want in "iu"):
        return f"{key!r} has dtype {array.dtype} in the state dict, but the module's is {target.dtype}"
    return ""


def save(state_dict: Any, path: Any) -> None:
    """Write a state dict (name -> Tensor or array) to `path` as an .npz archive.

    The file is written exactly at `path` (no suffix is added); `np.load` reads it. Every
    value is converted before the file is opened, and a path is written through a temporary
    file in the same folder that then replaces it, so a failed save leaves an existing file
    as it was. Anything else (an optimizer's nested state dict, say) is written by
    `og.save`, which `load` also reads."""
    if not _flat(state_dict):
        serialization.save(state_dict, path)
        return
    arrays = {}
    for key, value in state_dict.items():
        array = value.numpy() if isinstance(value, Tensor) else np.asarray(value)
        if array.dtype.hasobject:
            raise TypeError(f"save: {key!r} holds Python objects (dtype object); expected a numeric array")
        arrays[key] = serialization.contiguous(array)

    def write(file: Any) -> None:
        with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
            for key, array in arrays.items():
                with zf.open(f"{key}.npy", "w", force_zip64=True) as f:
                    np.lib.format.write_array(f, array, allow_pickle=False)

    serialization.write_file(path, write, "save")


def _flat(obj: Any) -> bool:
    """A name -> tensor/array mapping (what `Module.state_dict()` gives)."""
    return isinstance(obj, Mapping) and all(
        isinstance(k, str) and (isinstance(v, (Tensor, np.ndarray)) or hasattr(v, "__array__"))
        for k, v in obj.items()
    )


def load(path: Any) -> Any:
    """Read an .npz archive written by `save` into name -> NumPy array (no pickles); a file
    written by `og.save` loads as `og.load` gives it."""
    where = serialization.describe(path)
    start = None if isinstance(path, (str, os.PathLike)) else path.tell()
    with serialization.open_archive(path, "load") as zf:
        names = zf.namelist()
        if serialization.STRUCTURE in names:
            structured = True
        else:
            structured = False
            for name in names:
                if not name.endswith(".npy"):
                    raise ValueError(f"load: {where} holds {name!r}, which is not a .npy array")
            out = {}
            for name in names:
                try:
                    with zf.open(name) as f:
                        out[name[:-4]] = np.lib.format.read_array(f, allow_pickle=False)
                except (ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
                    raise ValueError(f"load: {where} is not a readable .npz archive: {exc}") from None
    if structured:
        if start is not None:
            path.seek(start)
        return serialization.load(path)
    return out
