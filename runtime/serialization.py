"""og.save / og.load: nested containers of tensors and Python values, without pickle.

The file is a zip archive NumPy can open (`np.load`): each tensor or array is one `.npy`
member (`t0.npy`, `t1.npy`, ...) written with `allow_pickle=False`, and the member
`structure.json` describes the object around them: dicts (any key that is itself
storable: str, int, float, bool, None, tuple), lists, tuples, None, bool, int, float
(inf and nan too), str, and leaves that point at a member. So an optimizer's or a
scheduler's `state_dict()` round-trips, and loading never runs code from the file.

Why .npz and not safetensors: safetensors holds a flat name -> tensor table with string
metadata only, so nested state (integer keys, lists of groups, Python numbers) would need
this same JSON structure on top, plus a new dependency; NumPy's format is already what
`nn.save` writes and keeps every dtype opgrad has.

What comes back: a Tensor stays a Tensor (a Parameter a Parameter) with its dtype, shape
and `requires_grad`, on the CPU (pass `device=` to move); a NumPy array or NumPy scalar
stays one. A tensor or array saved twice in one object is stored once and loads as one
object. Not kept: `.grad`, hooks, the graph, names. Everything is read and checked before
`load` returns, so a truncated or foreign file raises a ValueError naming the file and what
is wrong, and nothing half-loaded escapes.
"""

from __future__ import annotations

import json
import math
import os
import uuid
import zipfile
from collections.abc import Callable
from typing import Any

import numpy as np

from opgrad.runtime import device as _device
from opgrad.runtime.dtypes import as_dtype
from opgrad.runtime.nn.parameter import Parameter
from opgrad.runtime.tensor import Tensor, wrap

STRUCTURE = "structure.json"
FORMAT = "opgrad.save/1"


# -- writing -----------------------------------------------------------------------------
def save(obj: Any, path: Any) -> None:
    """Write `obj` (nested dicts, lists, tuples of tensors, arrays and Python values) to
    `path` (a file path, written atomically, or a binary file object)."""
    arrays: list[np.ndarray] = []
    seen: dict[int, int] = {}
    tree = _encode(obj, "obj", arrays, seen, [])

    def write(file: Any) -> None:
        with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
            for i, array in enumerate(arrays):
                with zf.open(f"t{i}.npy", "w", force_zip64=True) as f:
                    np.lib.format.write_array(f, array, allow_pickle=False)
            zf.writestr(STRUCTURE, json.dumps({"format": FORMAT, "object": tree}))

    write_file(path, write, "save")


def _encode(obj: Any, where: str, arrays: list[np.ndarray], seen: dict[int, int], keep: list[Any]) -> Any:
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, int):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else {"float": repr(obj)}
    if isinstance(obj, (Tensor, np.ndarray, np.generic)):
        if id(obj) not in seen:
            keep.append(obj)  # keeps the id unique while encoding
            array = _host(obj)
            if array.dtype.hasobject:
                raise TypeError(f"save: {where} holds Python objects (dtype object); expected numbers")
            if array.dtype.kind not in "biufc":
                raise TypeError(f"save: {where} has dtype {array.dtype}, which opgrad cannot store")
            seen[id(obj)] = len(arrays)
            arrays.append(contiguous(array))
        leaf: dict[str, Any] = {"array": seen[id(obj)]}
        if isinstance(obj, Tensor):
            leaf["kind"] = "parameter" if isinstance(obj, Parameter) else "tensor"
            leaf["requires_grad"] = obj._requires_grad
        else:
            leaf["kind"] = "ndarray" if isinstance(obj, np.ndarray) else "scalar"
        return leaf
    if isinstance(obj, (list, tuple)):
        items = [_encode(v, f"{where}[{i}]", arrays, seen, keep) for i, v in enumerate(obj)]
        return {"list" if isinstance(obj, list) else "tuple": items}
    if isinstance(obj, dict):
        pairs = []
        for k, v in obj.items():
            if not (k is None or isinstance(k, (str, int, float, tuple))):
                raise TypeError(
                    f"save: {where} has a key of type {type(k).__name__}; "
                    "keys must be str, numbers, None or tuples"
                )
            pairs.append(
                [
                    _encode(k, f"a key of {where}", arrays, seen, keep),
                    _encode(v, f"{where}[{k!r}]", arrays, seen, keep),
                ]
            )
        return {"dict": pairs}
    raise TypeError(
        f"save: {where} is a {type(obj).__name__}; og.save stores tensors, arrays, dicts, lists, "
        "tuples, str, int, float, bool and None"
    )


def contiguous(array: np.ndarray) -> np.ndarray:
    """C-contiguous, keeping 0-d arrays 0-d (np.ascontiguousarray makes them 1-d)."""
    return array if array.flags.c_contiguous else np.array(array, order="C")


def _host(obj: Any) -> np.ndarray:
    data = obj._data if isinstance(obj, Tensor) else obj
    if isinstance(data, np.generic):
        return np.asarray(data)
    if isinstance(data, np.ndarray):
        return data.view(np.ndarray) if type(data) is not np.ndarray else data
    return data.get()  # a GPU array


def write_file(path: Any, write: Callable[[Any], None], what: str) -> None:
    """Call `write(file)` on a binary file object as given, or on a path through a temporary
    file in the same folder that then replaces it (a failed write leaves the old file)."""
    if not isinstance(path, (str, os.PathLike)):
        write(path)  # a file object: the caller owns it
        return
    target = os.fspath(path)
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"{what}: the folder of {target!r} does not exist")
    if os.path.isdir(target):
        raise IsADirectoryError(f"{what}: {target!r} is a folder; give a file path")
    tmp = f"{target}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp"  # same folder: os.replace is atomic
    try:
        with open(tmp, "xb") as f:
            write(f)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# -- reading -----------------------------------------------------------------------------
def describe(path: Any) -> str:
    """How errors name the file: its path, or the kind of file object given."""
    if isinstance(path, (str, os.PathLike)):
        return repr(os.fspath(path))
    return f"the {type(path).__name__} given"


def open_archive(path: Any, what: str) -> zipfile.ZipFile:
    """The zip archive at `path` (a path or a seekable binary file), or a clear error."""
    where = describe(path)
    if isinstance(path, (str, os.PathLike)) and not os.path.isfile(path):
        raise FileNotFoundError(f"{what}: no file at {where}")
    if not _is_zip(path):
        raise ValueError(f"{what}: {where} is not an .npz archive (a zip file, as written by save)")
    try:
        return zipfile.ZipFile(path)
    except (OSError, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{what}: {where} is not a readable .npz archive: {exc}") from None


def _is_zip(file: Any) -> bool:
    """Whether a path or a seekable file object holds a zip archive (the position is kept)."""
    if isinstance(file, (str, os.PathLike)):
        return zipfile.is_zipfile(file)
    pos = file.tell()
    try:
        return zipfile.is_zipfile(file)
    finally:
        file.seek(pos)


def read_member(zf: zipfile.ZipFile, name: str, where: str, what: str) -> np.ndarray:
    try:
        with zf.open(name) as f:
            return np.lib.format.read_array(f, allow_pickle=False)
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise ValueError(f"{what}: {where} member {name!r} is not a readable .npy array: {exc}") from None


def load(path: Any, device: Any = None) -> Any:
    """Read what `save` wrote. A plain .npz archive of arrays (as `nn.save` writes for a
    flat state dict, or `np.savez`) loads as a dict of name -> Tensor."""
    where = describe(path)
    target = None if device is None else _device.normalize_device(device)
    with open_archive(path, "load") as zf:
        names = zf.namelist()
        if STRUCTURE not in names:
            bad = [n for n in names if not n.endswith(".npy")]
            if bad:
                raise ValueError(
                    f"load: {where} is not an opgrad save file: "
                    f"it holds {bad[0]!r}, which is not a .npy array"
                )
            return {n[:-4]: _tensor(read_member(zf, n, where, "load"), False, False, target) for n in names}
        try:
            head = json.loads(zf.read(STRUCTURE).decode("utf-8"))
        except (ValueError, OSError, EOFError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
            raise ValueError(f"load: {where} has an unreadable {STRUCTURE}: {exc}") from None
        if not isinstance(head, dict) or head.get("format") != FORMAT or "object" not in head:
            raise ValueError(f"load: {where} is not an opgrad save file (expected format {FORMAT!r})")
        arrays: dict[int, np.ndarray] = {}
        built: dict[tuple[Any, Any], Any] = {}

        def array(i: Any) -> np.ndarray:
            if not isinstance(i, int) or isinstance(i, bool) or f"t{i}.npy" not in names:
                raise ValueError(f"load: {where} refers to array {i!r}, which the file does not hold")
            if i not in arrays:
                arrays[i] = read_member(zf, f"t{i}.npy", where, "load")
            return arrays[i]

        def decode(node: Any) -> Any:
            if node is None or isinstance(node, (bool, int, float, str)):
                return node
            if isinstance(node, dict) and len(node) == 1:
                ((tag, body),) = node.items()
                if tag == "float" and body in ("inf", "-inf", "nan"):
                    return float(body)
                if tag in ("list", "tuple") and isinstance(body, list):
                    items = [decode(v) for v in body]
                    return items if tag == "list" else tuple(items)
                if (
                    tag == "dict"
                    and isinstance(body, list)
                    and all(isinstance(p, list) and len(p) == 2 for p in body)
                ):
                    return {_key(decode(k)): decode(v) for k, v in body}
            if isinstance(node, dict) and "array" in node:
                kind = node.get("kind")
                key = (node["array"], kind)
                if key not in built:
                    a = array(node["array"])
                    as_dtype(a.dtype, f"load: {where}: dtype")
                    if kind in ("tensor", "parameter"):
                        built[key] = _tensor(a, bool(node.get("requires_grad")), kind == "parameter", target)
                    elif kind == "ndarray":
                        built[key] = a
                    elif kind == "scalar":
                        built[key] = a[()]
                    else:
                        raise ValueError(f"load: {where} has a leaf of unknown kind {kind!r}")
                return built[key]
            raise ValueError(f"load: {where} has an entry opgrad does not understand: {str(node)[:80]}")

        return decode(head["object"])


def _key(k: Any) -> Any:
    return k if not isinstance(k, list) else tuple(k)


def _tensor(array: np.ndarray, requires_grad: bool, parameter: bool, device: str | None) -> Tensor:
    data = array if device in (None, "cpu") else _device.move_array(array, device)
    if parameter:
        p = Parameter(data, requires_grad=requires_grad)
        return p
    t = wrap(data)
    if requires_grad:
        t.requires_grad = True
    return t
