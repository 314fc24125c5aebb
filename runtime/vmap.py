"""`og.func.vmap`: map a function over a batch axis of its inputs, as torch.func.vmap.

This is the batching transform's fallback, for every op: the function runs once per batch
element on slices of the mapped inputs (basic indexing, a view) and the results are stacked
along `out_dims`. Slicing and stacking are ops, so vmap differentiates and nests like any
composition (`vmap(grad(f))` gives per-sample gradients, `vmap(vmap(f))` maps two axes). It is
exactly as fast as that Python loop: vmap has no batching rules yet, so it brings no speed-up
(og.func.jacrev and hessian are fast through the batched backward, runtime/batching.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from opgrad.generated import ops
from opgrad.runtime.random import get_rng_state, set_rng_state
from opgrad.runtime.tensor import Tensor

__all__ = ["vmap"]

_RANDOMNESS = ("error", "different", "same")


def _leaves(tree: Any) -> list[Any]:
    if isinstance(tree, (list, tuple)):
        return [leaf for item in tree for leaf in _leaves(item)]
    if isinstance(tree, dict):
        return [leaf for key in tree for leaf in _leaves(tree[key])]
    return [tree]


def _rebuild(tree: Any, leaves: Any) -> Any:
    """tree with its leaves replaced, in _leaves' order, from the iterator `leaves`."""
    if isinstance(tree, (list, tuple)):
        items = [_rebuild(item, leaves) for item in tree]
        return type(tree)(items) if not hasattr(tree, "_fields") else type(tree)(*items)
    if isinstance(tree, dict):
        return {key: _rebuild(tree[key], leaves) for key in tree}
    return next(leaves)


def _dims_per_leaf(name: str, dims: Any, tree: Any, where: str) -> list[Any]:
    """One dim (int or None) per leaf of tree: an int/None applies to every leaf under it; a
    list/tuple/dict of dims matches tree's structure."""
    if dims is None or (isinstance(dims, int) and not isinstance(dims, bool)):
        return [dims] * len(_leaves(tree))
    if isinstance(dims, (list, tuple)) and isinstance(tree, (list, tuple)) and len(dims) == len(tree):
        return [d for sub, t in zip(dims, tree, strict=True) for d in _dims_per_leaf(name, sub, t, where)]
    if isinstance(dims, dict) and isinstance(tree, dict) and dims.keys() == tree.keys():
        return [d for key in tree for d in _dims_per_leaf(name, dims[key], tree[key], where)]
    raise ValueError(
        f"vmap: {name} {dims!r} does not match the structure of {where} (an int or None for all of it, "
        "or a tuple/list/dict of the same shape)"
    )


def _axis(dim: int, ndim: int, what: str, name: str) -> int:
    if not -ndim <= dim < ndim:
        raise ValueError(f"vmap: {name}={dim} is out of range for {what} with {ndim} dimensions")
    return dim % ndim


def vmap(
    func: Callable[..., Any],
    in_dims: Any = 0,
    out_dims: Any = 0,
    randomness: str = "error",
    *,
    chunk_size: int | None = None,
) -> Callable[..., Any]:
    """func mapped over axis `in_dims` of its positional arguments (None: not mapped, passed
    whole; a tuple: one entry per argument, nested like the argument); the results are
    stacked along `out_dims`. randomness: "error" (func must not draw random numbers),
    "different" (each element its own), "same" (every element the same draws). Keyword
    arguments are passed unmapped. chunk_size is accepted for PyTorch compatibility (the
    elements run one at a time)."""
    if not callable(func):
        raise TypeError(f"vmap: func must be callable, got {type(func).__name__}")
    if randomness not in _RANDOMNESS:
        raise ValueError(f"vmap: randomness must be one of {_RANDOMNESS}, got {randomness!r}")
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise ValueError(f"vmap: chunk_size must be a positive int or None, got {chunk_size!r}")

    def mapped(*args: Any, **kwargs: Any) -> Any:
        per_arg = in_dims if isinstance(in_dims, tuple) else (in_dims,) * len(args)
        if len(per_arg) != len(args):
            raise ValueError(
                f"vmap: in_dims has {len(per_arg)} entries but the function got {len(args)} arguments"
            )
        slots: list[tuple[int, int, Tensor, int]] = []  # (argument, leaf, tensor, axis)
        size: int | None = None
        first = ""
        for i, (arg, dims) in enumerate(zip(args, per_arg, strict=True)):
            leaves = _leaves(arg)
            for k, (leaf, dim) in enumerate(
                zip(leaves, _dims_per_leaf("in_dims", dims, arg, f"argument {i}"), strict=True)
            ):
                if dim is None:
                    continue
                if not isinstance(leaf, Tensor):
                    raise ValueError(
                        f"vmap: argument {i} is mapped (in_dims={dim}) but holds a "
                        f"{type(leaf).__name__}, not a Tensor"
                    )
                if leaf.ndim == 0:
                    raise ValueError(f"vmap: argument {i} is mapped (in_dims={dim}) but is a 0-d tensor")
                axis = _axis(dim, leaf.ndim, f"argument {i}", "in_dims")
                n = leaf.shape[axis]
                if size is None:
                    size, first = n, f"argument {i} has size {n} along axis {axis}"
                elif n != size:
                    raise ValueError(
                        f"vmap: the mapped axes must all have one size: {first}, but argument {i} has size "
                        f"{n} along axis {axis}"
                    )
                slots.append((i, k, leaf, axis))
        if size is None:
            raise ValueError("vmap: at least one argument must be mapped (in_dims are all None)")
        if size == 0:
            raise ValueError("vmap: the mapped axis has size 0; there is nothing to map over")
        start = get_rng_state()  # "same" replays it; "error" checks nothing drew from it
        results = []
        for b in range(size):
            leaves = [list(_leaves(a)) for a in args]
            for i, k, t, axis in slots:
                leaves[i][k] = t[(slice(None),) * axis + (b,)]
            call_args = [_rebuild(a, iter(leaf)) for a, leaf in zip(args, leaves, strict=True)]
            if randomness == "same":
                set_rng_state(start)
            results.append(func(*call_args, **kwargs))
            if randomness == "error" and get_rng_state()[0] != start[0]:
                set_rng_state(start)
                raise RuntimeError(
                    "vmap: func drew random numbers, which randomness='error' (the default, as in PyTorch) "
                    "refuses; pass randomness='different' (each element its own draws) or 'same'"
                )
        return _stack(results, out_dims)

    return mapped


def _stack(results: list[Any], out_dims: Any) -> Any:
    template = results[0]
    dims = _dims_per_leaf("out_dims", out_dims, template, "the function's output")
    per_result = [_leaves(r) for r in results]
    out = []
    for k, dim in enumerate(dims):
        column = [leaves[k] for leaves in per_result]
        if dim is None:
            out.append(column[0])
            continue
        if not all(isinstance(c, Tensor) for c in column):
            raise ValueError(
                f"vmap: output {k} is a {type(column[0]).__name__}; a mapped output must be a Tensor "
                "(out_dims=None returns a value that does not depend on the mapped axis)"
            )
        axis = _axis(dim, column[0].ndim + 1, f"output {k}", "out_dims")
        out.append(ops.stack(column, axis))
    return _rebuild(template, iter(out))
