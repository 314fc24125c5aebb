"""Containers: Sequential (a chain of modules), ModuleList and ModuleDict (modules by index or
key), ParameterList and ParameterDict (parameters by index or key)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, overload

from opgrad.runtime.nn.module import Module
from opgrad.runtime.nn.parameter import Parameter
from opgrad.runtime.tensor import Tensor


class Sequential(Module):
    """Modules applied one after another: `Sequential(a, b, c)(x) == c(b(a(x)))`.

    Children are named "0", "1", ...; a single OrderedDict/dict argument names them."""

    def __init__(self, *modules: Module | dict[str, Module]) -> None:
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], dict):
            for name, child in modules[0].items():
                self.add_module(name, child)
        else:
            for i, mod in enumerate(modules):
                if not isinstance(mod, Module):
                    raise TypeError(f"Sequential: argument {i} is a {type(mod).__name__}, not a Module")
                self.add_module(str(i), mod)
        self._chain: tuple[Module, ...] = tuple(m for m in self._modules.values() if m is not None)

    def _refresh(self) -> None:
        self.__dict__["_chain"] = tuple(m for m in self._modules.values() if m is not None)

    def forward(self, x: Any) -> Any:
        for mod in self._chain:
            x = mod(x)
        return x

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self._modules)), module)
        self._refresh()
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if isinstance(value, Module) and "_chain" in self.__dict__:
            self._refresh()

    def __len__(self) -> int:
        return len(self._chain)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._chain)

    @overload
    def __getitem__(self, index: int) -> Module: ...
    @overload
    def __getitem__(self, index: slice) -> Sequential: ...
    def __getitem__(self, index: int | slice) -> Module | Sequential:
        if isinstance(index, slice):
            return Sequential(*self._chain[index])
        return self._chain[index]


class ModuleList(Module):
    """A list of modules, registered so their parameters are found (children "0", "1", ...)."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        for mod in modules or ():
            self.append(mod)

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self._modules)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        for mod in modules:
            self.append(mod)
        return self

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(m for m in self._modules.values() if m is not None)

    def __getitem__(self, index: int) -> Module:
        mod = list(self._modules.values())[index]
        assert mod is not None
        return mod


class _Keyed(Module):
    """The dict behaviour of ModuleDict and ParameterDict over one of the module's tables
    (`_modules` or `_parameters`, named by `_table`); subclasses define __setitem__."""

    _table = ""

    def __init__(self, values: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None) -> None:
        super().__init__()
        if values is not None:
            self.update(values)

    def _entries(self) -> dict[str, Any]:
        return self.__dict__[self._table]

    def __setitem__(self, key: str, value: Any) -> None:
        raise NotImplementedError

    def __getitem__(self, key: str) -> Any:
        value = self._entries()[key]
        assert value is not None
        return value

    def __delitem__(self, key: str) -> None:
        del self._entries()[key]
        self.__dict__.pop(key, None)

    def __len__(self) -> int:
        return len(self._entries())

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries())

    def __contains__(self, key: object) -> bool:
        return key in self._entries()

    def keys(self) -> Iterable[str]:
        return self._entries().keys()

    def values(self) -> list[Any]:
        return [v for v in self._entries().values() if v is not None]

    def items(self) -> list[tuple[str, Any]]:
        return [(k, v) for k, v in self._entries().items() if v is not None]

    def pop(self, key: str) -> Any:
        value = self[key]
        del self[key]
        return value

    def update(self, values: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> None:
        pairs = values.items() if isinstance(values, Mapping) else values
        for key, value in pairs:
            self[key] = value


class ModuleDict(_Keyed):
    """An ordered dict of modules, registered under their keys (`md["enc"]`, `md.enc`)."""

    _table = "_modules"

    def __setitem__(self, key: str, module: Module) -> None:
        if not isinstance(module, Module):
            raise TypeError(f"ModuleDict: {key!r} must be a Module, got {type(module).__name__}")
        self.add_module(key, module)


class ParameterList(Module):
    """A list of Parameters, registered as "0", "1", ... (a tensor is wrapped in a Parameter,
    sharing its memory)."""

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        for v in values or ():
            self.append(v)

    def append(self, value: Any) -> ParameterList:
        self.register_parameter(str(len(self._parameters)), _as_parameter(value, "ParameterList"))
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        for v in values:
            self.append(v)
        return self

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Parameter]:
        return iter(p for p in self._parameters.values() if p is not None)

    def __getitem__(self, index: int) -> Parameter:
        p = list(self._parameters.values())[index]
        assert p is not None
        return p

    def __setitem__(self, index: int, value: Any) -> None:
        key = list(self._parameters)[index]
        p = _as_parameter(value, "ParameterList")
        self._parameters[key] = p  # in place: the position (and the name) stays
        self.__dict__[key] = p


class ParameterDict(_Keyed):
    """An ordered dict of Parameters, registered under their keys (a tensor is wrapped in a
    Parameter, sharing its memory)."""

    _table = "_parameters"

    def __setitem__(self, key: str, value: Any) -> None:
        self.register_parameter(key, _as_parameter(value, "ParameterDict"))


def _as_parameter(value: Any, owner: str) -> Parameter:
    if isinstance(value, Parameter):
        return value
    if isinstance(value, Tensor):
        return Parameter(value, requires_grad=value.dtype.kind in "fc")
    raise TypeError(f"{owner}: expected a Parameter or a Tensor, got {type(value).__name__}")
