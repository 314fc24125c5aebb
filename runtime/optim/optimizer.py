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

from opgrad.runtime.grad_mode import enable_grad, no_grad
from opgrad.runtime.kernels.registry import get_array_module
from opgrad.runtime.nn._update import bump_version
from opgrad.runtime.tensor import Tensor

ParamsArg = Iterable[Tensor] | Iterable[dict[str, Any]]


class Optimizer:
    """Base class: holds `param_groups` (a list of dicts) and `state` (param -> dict)."""

    def __init__(self, params: ParamsArg, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.param_groups: list[dict[str, Any]] = []
        self.state: dict[Tensor, dict[str, Any]] = {}
        if isinstance(params, Tensor):
            raise TypeError(
                f"{type(self).__name__}: params must be an iterable of tensors or of dicts, got one Tensor; "
                "wrap it in a list"
            )
        groups = list(params)
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
            raise TypeError(f"{name}: a parameter group must be a dict with a 'params' entry")
        ps = group["params"]
        params = [ps] if isinstance(ps, Tensor) else list(ps)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        for i, p in enumerate(params):
            if not isinstance(p, Tensor):
                raise TypeError(f"{name}: params[{i}] is a {type(p).__name__}, not a Tensor")
            if not p.is_leaf:
                raise ValueError(f"{name}: params[{i}] is not a leaf tensor; optimizers update leaves")
            if id(p) in seen:
                raise ValueError(f"{name}: params[{i}] appears in more than one place (or group)")
            seen.add(id(p))
        unknown = set(group) - set(self.defaults) - {"params", "initial_lr"}
        if unknown:
            raise KeyError(f"{name}: unknown hyper-parameters {sorted(unknown)} in a parameter group")
        full = {**self.defaults, **group, "params": params}
        self._check_group(full)
        self.param_groups.append(full)

    def _check_group(self, group: dict[str, Any]) -> None:
        lr = group.get("lr")
        if lr is None or lr < 0:
            raise ValueError(f"{type(self).__name__}: lr must be a non-negative number, got {lr!r}")

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
        """Restore hyper-parameters and per-parameter state saved by `state_dict`."""
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError(
                f"{type(self).__name__}.load_state_dict: {len(groups)} parameter groups saved, "
                f"{len(self.param_groups)} here"
            )
        params = [p for g in self.param_groups for p in g["params"]]
        for mine, saved in zip(self.param_groups, groups, strict=True):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError(
                    f"{type(self).__name__}.load_state_dict: a group has {len(saved['params'])} parameters "
                    f"saved, {len(mine['params'])} here"
                )
        for mine, saved in zip(self.param_groups, groups, strict=True):
            mine.update({k: copy.deepcopy(v) for k, v in saved.items() if k != "params"})
        self.state = {}
        for i, s in state_dict["state"].items():
            p = params[int(i)]
            xp = get_array_module(p._data)
            self.state[p] = {
                k: (
                    xp.array(v, dtype=p._data.dtype)
                    if isinstance(v, np.ndarray) and v.shape == p.shape
                    else v
                )
                for k, v in s.items()
            }

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, g in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for k in sorted(g):
                if k != "params":
                    lines.append(f"    {k}: {g[k]}")
        return "\n".join(lines) + "\n)"


def _to_cpu(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.copy()
    if hasattr(value, "get") and hasattr(value, "shape"):
        return value.get()
    return value
