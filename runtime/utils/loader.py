"""DataLoader: batches from a dataset, in a seeded order, collated into tensors.

    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True, generator=0)
    for epoch in range(epochs):
        for xb, yb in loader:
            ...

The order comes from a sampler: `SequentialSampler` (0..n-1), `RandomSampler` (a fresh
permutation per pass, drawn from its own NumPy generator), or any iterable of indices with
a length (`DistributedSampler`). `shuffle=True` makes a RandomSampler from `generator` (an
int seed or a `np.random.Generator`; None draws a seed from og.manual_seed's generator when
the loader is made), so the same seed gives the same batches, epoch after epoch, in every
run. Indices are grouped into batches of `batch_size` (the last one shorter unless
`drop_last`), and each batch is fetched and collated: a dataset with `__getitems__`
(TensorDataset) returns a whole batch at once, in one indexing per tensor; otherwise the
examples are fetched one by one and `default_collate` stacks them (tuples and lists
element by element, dicts key by key, tensors with og.stack, arrays and numbers into
tensors, strings into lists). Single process: there are no worker processes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from opgrad.runtime import argcheck as checks
from opgrad.runtime import random as _random
from opgrad.runtime.creation import tensor
from opgrad.runtime.later import later
from opgrad.runtime.tensor import Tensor


def as_generator(generator: Any, where: str) -> np.random.Generator:
    """An int seed, a NumPy Generator (used as is), or None (seeded from og.manual_seed's
    generator, so og.manual_seed fixes it too)."""
    if generator is None:
        seed = int(_random.generator_for(np).integers(0, 2**63 - 1))
        return np.random.default_rng(seed)
    if isinstance(generator, np.random.Generator):
        return generator
    if isinstance(generator, (int, np.integer)) and not isinstance(generator, bool):
        return np.random.default_rng(int(generator))
    raise TypeError(
        f"{where}: generator must be an int seed or a np.random.Generator, got {type(generator).__name__}"
    )


class SequentialSampler:
    """0, 1, ..., n - 1."""

    def __init__(self, data_source: Any) -> None:
        self.n = len(data_source)

    def __iter__(self) -> Iterator[int]:
        return iter(range(self.n))

    def __len__(self) -> int:
        return self.n


class RandomSampler:
    """A new permutation of 0..n-1 on every pass, from its own seeded generator."""

    def __init__(self, data_source: Any, generator: Any = None) -> None:
        self.n = len(data_source)
        self.generator = as_generator(generator, "RandomSampler")

    def __iter__(self) -> Iterator[int]:
        return iter(self.generator.permutation(self.n).tolist())

    def __len__(self) -> int:
        return self.n


class BatchSampler:
    """Groups a sampler's indices into lists of `batch_size` (the last shorter unless drop_last)."""

    def __init__(self, sampler: Iterable[int], batch_size: int, drop_last: bool = False) -> None:
        self.sampler = sampler
        self.batch_size = checks.integer("BatchSampler", "batch_size", batch_size, 1)
        self.drop_last = checks.flag("BatchSampler", "drop_last", drop_last)

    def __iter__(self) -> Iterator[list[int]]:
        batch: list[int] = []
        for i in self.sampler:
            batch.append(int(i))
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)  # type: ignore[arg-type]
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


def default_collate(examples: Sequence[Any]) -> Any:
    """Stack a list of examples into one batch, keeping their structure."""
    first = examples[0]
    if isinstance(first, Tensor):
        return later.ops.stack(list(examples), 0)
    if isinstance(first, Mapping):
        return {k: default_collate([e[k] for e in examples]) for k in first}
    if isinstance(first, tuple) and hasattr(first, "_fields"):  # a NamedTuple
        return type(first)(*(default_collate(list(f)) for f in zip(*examples, strict=True)))
    if isinstance(first, (tuple, list)):
        if any(len(e) != len(first) for e in examples):
            raise ValueError("default_collate: the examples of a batch have different lengths")
        return type(first)(default_collate(list(f)) for f in zip(*examples, strict=True))
    if isinstance(first, (str, bytes)):
        return list(examples)
    if isinstance(first, (bool, int, float, np.number, np.bool_, np.ndarray)):
        return tensor(np.stack([np.asarray(e) for e in examples]))
    raise TypeError(
        f"default_collate: cannot batch examples of type {type(first).__name__}; "
        "pass collate_fn= to DataLoader"
    )


class DataLoader:
    """Iterate over a dataset in batches (see the module doc)."""

    def __init__(
        self,
        dataset: Any,
        batch_size: int = 1,
        shuffle: bool = False,
        sampler: Iterable[int] | None = None,
        drop_last: bool = False,
        collate_fn: Callable[[list[Any]], Any] | None = None,
        generator: Any = None,
    ) -> None:
        if not hasattr(dataset, "__getitem__") or not hasattr(dataset, "__len__"):
            raise TypeError(
                f"DataLoader: dataset must have __getitem__ and __len__, got {type(dataset).__name__}"
            )
        checks.flag("DataLoader", "shuffle", shuffle)
        if sampler is not None and shuffle:
            raise ValueError(
                "DataLoader: give shuffle=True or a sampler, not both (the sampler sets the order)"
            )
        if collate_fn is not None and not callable(collate_fn):
            raise TypeError(f"DataLoader: collate_fn must be callable, got {type(collate_fn).__name__}")
        if sampler is None:
            sampler = RandomSampler(dataset, generator) if shuffle else SequentialSampler(dataset)
        elif not hasattr(sampler, "__iter__"):
            raise TypeError(
                f"DataLoader: sampler must be an iterable of indices, got {type(sampler).__name__}"
            )
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.collate_fn = collate_fn

    def __iter__(self) -> Iterator[Any]:
        fetch_many = getattr(self.dataset, "__getitems__", None)
        for batch in self.batch_sampler:
            if fetch_many is not None and self.collate_fn is None:
                yield fetch_many(batch)
                continue
            examples = [self.dataset[i] for i in batch]
            yield (self.collate_fn or default_collate)(examples)

    def __len__(self) -> int:
        return len(self.batch_sampler)
