"""Containers: Sequential (a chain of modules) and ModuleList (an indexable list of them)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, overload

from opgrad.runtime.nn.module import Module


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
