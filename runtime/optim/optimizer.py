"""Optimizer: the base of SGD/Adam/AdamW — parameter groups, per-parameter state, and
state_dict round trips.

`params` is an iterable of tensors, or of dicts (`{"params": [...], "lr": 0.1, ...}`), one
per *parameter group*; a group's keys override the optimizer's defaults, and schedulers
change `group["lr"]`. Subclasses implement `_update(p, grad, state, group)` on raw arrays:
the update writes into the parameter's memory in place (no graph, no new tensor, so
models and other references keep seeing the same Parameter) and `step` then bumps the
parameter's version, so a graph that saved the old value refuses to use it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from opgrad.runtime import argcheck as checks
from opgrad.runtime.device import array_module
from opgrad.runtime.dtypes import real_of
from opgrad.runtime.grad_mode import enable_grad, no_grad
from opgrad.runtime.nn._update import bump_version
from opgrad.runtime.tensor import Tensor

ParamsArg = Iterable[Tensor] | Iterable[dict[str, Any]]


class Optimizer:
    """Base class: holds `param_groups` (a list of dicts) and `state` (param -> dict)."""

    def __init__(self, params: ParamsArg, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.param_groups: list[dict[str, Any]] = []
        self.state: dict[Tensor, dict[str, Any]] = {}
        self._check_group(defaults, "")
        if isinstance(params, Tensor):
            raise TypeError(
                f"{type(self).__name__}: params must be an iterable of tensors or of dicts, got one Tensor; "
                "wrap it in a list"
            )
        if isinstance(params, (set, frozenset, dict)):
            raise TypeError(
                f"{type(self).__name__}: params must be an ordered iterable (a list), got a "
                f"{type(params).__name__}; the order numbers the parameters in state_dict()"
            )
        try:
            groups: list[Any] = list(params)
        except TypeError:
            raise TypeError(
                f"{type(self).__name__}: params must be an iterable of tensors or of dicts, "
                f"got {type(params).__name__}"
            ) from None
        if not groups:
            raise ValueError(f"{type(self).__name__}: got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, group: dict[str, Any]) -> None:
        """Add a group of parameters with its own hyper-parameters (others from defaults)."""
        name = type(self).__name__
        if not isinstance(group, dict) or "params" not in group:
            raise TypeError(
                f"{name}: a parameter group must be a dict with a 'params' entry, got {type(group).__name__}"
            )
        ps = group["params"]
        if isinstance(ps, (set, frozenset)):
            raise TypeError(
                f"{name}: a group's params must be an ordered iterable (a list), got a {type(ps).__name__}"
            )
        params = [ps] if isinstance(ps, Tensor) else list(ps)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        for i, p in enumerate(params):
            if not isinstance(p, Tensor):
                raise TypeError(f"{name}: params[{i}] is a {type(p).__name__}, not a Tensor")
            if not p.is_leaf:
                raise ValueError(f"{name}: params[{i}] is not a leaf tensor; optimizers update leaves")
            if p.dtype.kind not in "fc":
                raise TypeError(
                    f"{name}: params[{i}] has dtype {p.dtype}; optimizers update floating or complex tensors"
                )
            if id(p) in seen:
                raise ValueError(f"{name}: params[{i}] appears in more than one place (or group)")
            seen.add(id(p))
        unknown = set(group) - set(self.defaults) - {"params", "initial_lr"}
        if unknown:
            raise ValueError(
                f"{name}: unknown hyper-parameters {sorted(unknown)} in a parameter group; "
                f"expected some of {sorted(self.defaults)}"
            )
        full = {**self.defaults, **group, "params": params}
        self._check_group(full, f"param_groups[{len(self.param_groups)}]")
        self.param_groups.append(full)

    def _check_group(self, group: dict[str, Any], where: str) -> None:
        """Raise if a hyper-parameter in `group` (the defaults when `where` is "") is invalid;
        subclasses check their own keys and call this for lr."""
        checks.real(type(self).__name__, checks.key(where, "lr"), group.get("lr"), low=0.0)

    def _state_spec(self, group: dict[str, Any]) -> dict[str, str] | None:
        """What a parameter's state holds under `group`'s settings, once it has been stepped:
        name -> "moment" (an array of the parameter's shape) or "count" (an int). None: not
        known (a custom optimizer), so load_state_dict only converts arrays."""
        return None

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Drop every parameter's gradient (set_to_none) or zero it (a fresh buffer)."""
        for group in self.param_groups:
            for p in group["params"]:
                if set_to_none:
                    p._grad = None
                else:
                    p.clear_grad(set_to_zero=True)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; `closure` (re-computing the loss with
        grad enabled) is called first and its value returned."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    g = p._grad
                    if g is None:
                        continue
                    state = self.state.get(p)
                    if state is None:
                        state = self.state[p] = {}
                    if p._data.dtype.kind == "c":  # as PyTorch: the real and imaginary parts as reals
                        self._update(_as_real(p._data), _as_real(g._data), state, group)
                    else:
                        self._update(p._data, g._data, state, group)
                    bump_version(p)
        return loss

    def _update(self, param: Any, grad: Any, state: dict[str, Any], group: dict[str, Any]) -> None:
        raise NotImplementedError

    # -- state ------------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """{"state": {index: {name: array or number}}, "param_groups": [...]} where params
        are numbered across groups in order (so a new optimizer over the same model loads
        it). Arrays are copies on the CPU."""
        index = {id(p): i for i, p in enumerate(p for g in self.param_groups for p in g["params"])}
        groups = [
            {**{k: v for k, v in g.items() if k != "params"}, "params": [index[id(p)] for p in g["params"]]}
            for g in self.param_groups
        ]
        state = {}
        for p, s in self.state.items():
            state[index[id(p)]] = {k: _to_cpu(v) for k, v in s.items()}
        return {"state": state, "param_groups": copy.deepcopy(groups)}

    def load_state_dict(self, state_dict: Mapping[str, Any]) -> None:
        """Restore hyper-parameters and per-parameter state saved by `state_dict`.

        Everything is checked first (group count and sizes, hyper-parameters, each state's
        keys, moment shapes and dtypes); on any error the optimizer is left unchanged."""
        name = f"{type(self).__name__}.load_state_dict"
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"{name}: expected a dict from state_dict(), got {type(state_dict).__name__}")
        missing = [k for k in ("state", "param_groups") if k not in state_dict]
        if missing:
            raise ValueError(
                f"{name}: the state dict has no {missing} entry; expected 'state' and 'param_groups'"
            )
        groups = state_dict["param_groups"]
        if not isinstance(groups, (list, tuple)) or len(groups) != len(self.param_groups):
            n = len(groups) if isinstance(groups, (list, tuple)) else type(groups).__name__
            raise ValueError(f"{name}: {n} parameter groups saved, {len(self.param_groups)} here")
        new_groups = []
        for g, (mine, saved) in enumerate(zip(self.param_groups, groups, strict=True)):
            if not isinstance(saved, Mapping) or "params" not in saved:
                raise ValueError(f"{name}: param_groups[{g}] must be a dict with a 'params' entry")
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError(
                    f"{name}: param_groups[{g}] has {len(saved['params'])} parameters saved, "
                    f"{len(mine['params'])} here"
                )
            unknown = set(saved) - set(self.defaults) - {"params", "initial_lr"}
            if unknown:
                raise ValueError(f"{name}: param_groups[{g}] has unknown hyper-parameters {sorted(unknown)}")
            new = {**mine, **{k: copy.deepcopy(v) for k, v in saved.items() if k != "params"}}
            new["params"] = mine["params"]
            self._check_group(new, f"param_groups[{g}]")
            new_groups.append(new)
        saved_state = state_dict["state"]
        if not isinstance(saved_state, Mapping):
            raise TypeError(
                f"{name}: 'state' must be a dict (parameter index -> state), got {type(saved_state).__name__}"
            )
        owners = [(p, g) for g in new_groups for p in g["params"]]
        new_state: dict[Tensor, dict[str, Any]] = {}
        for key, s in saved_state.items():
            i = _param_index(name, key, len(owners))
            p, group = owners[i]
            if not isinstance(s, Mapping):
                raise TypeError(f"{name}: state[{key!r}] must be a dict, got {type(s).__name__}")
            new_state[p] = self._load_param_state(name, f"state[{key!r}]", p, dict(s), group)
        for mine, new in zip(self.param_groups, new_groups, strict=True):
            mine.clear()
            mine.update(new)
        self.state = new_state

    def _load_param_state(
        self, name: str, label: str, p: Tensor, saved: dict[str, Any], group: dict[str, Any]
    ) -> dict[str, Any]:
        """One parameter's saved state, checked against `_state_spec` and converted to the
        parameter's dtype and device."""
        where = f"{name}: {label}"
        spec = self._state_spec(group)
        if spec is not None and saved and set(saved) != set(spec):
            raise ValueError(
                f"{where} has keys {sorted(saved)}; expected {sorted(spec)} (or an empty state) "
                "for these settings"
            )
        xp = array_module(p._data)
        data = _as_real(p._data) if p._data.dtype.kind == "c" else p._data  # what `_update` sees
        out: dict[str, Any] = {}
        for k, v in saved.items():
            kind = None if spec is None else spec[k]
            if kind == "count":
                out[k] = checks.count(name, f"{label}[{k!r}]", v)
                continue
            is_array = isinstance(v, np.ndarray) or (hasattr(v, "shape") and hasattr(v, "dtype"))
            if kind == "moment" and not is_array:
                raise TypeError(f"{where}[{k!r}] must be an array of shape {p.shape}, got {type(v).__name__}")
            if kind == "moment" and tuple(v.shape) != tuple(data.shape):
                shape = tuple(data.shape)  # a complex parameter's: its real view's, (..., 2)
                raise ValueError(
                    f"{where}[{k!r}] has shape {tuple(v.shape)}, but the parameter has shape {shape}"
                )
            if kind == "moment" and v.dtype.kind != "f":
                raise TypeError(f"{where}[{k!r}] has dtype {v.dtype}; expected a floating array")
            if is_array and tuple(v.shape) == tuple(data.shape):
                v = xp.array(
                    v.get() if hasattr(v, "get") and not isinstance(v, np.ndarray) else v, dtype=data.dtype
                )
            out[k] = v
        return out

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, g in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for k in sorted(g):
                if k != "params":
                    lines.append(f"    {k}: {g[k]}")
        return "\n".join(lines) + "\n)"


def _param_index(name: str, key: Any, n: int) -> int:
    """A state key (an int, or its str from a JSON round trip) as a parameter index."""
    try:
        i = int(key) if isinstance(key, str) else checks.count(name, "a state key", key)
    except (TypeError, ValueError):
        i = -1
    if not 0 <= i < n:
        raise ValueError(f"{name}: state key {key!r} is not a parameter index in [0, {n})")
    return i


def _to_cpu(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.copy()
    if hasattr(value, "get") and hasattr(value, "shape"):
        return value.get()
    return value


def _as_real(a: Any) -> Any:
    """A complex array's memory as a real array with a last axis of 2 (real, imaginary): a
    view, so an update written into it is written into the complex parameter."""
    return a[..., None].view(real_of(a.dtype))
