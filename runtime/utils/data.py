"""opgrad.utils.data: datasets, samplers and the DataLoader. A `Dataset` maps an index to
an example, `TensorDataset` indexes several tensors along their first dimension, `Subset`
and `random_split` take parts of a dataset, `DataLoader` (runtime/utils/loader.py) batches
one, and `DistributedSampler` gives each rank its own shard of the indices, reshuffled per
epoch (`set_epoch`) the same way on every rank."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from opgrad.runtime.distributed import group
from opgrad.runtime.tensor import Tensor, wrap
from opgrad.runtime.utils.loader import (
    BatchSampler,
    DataLoader,
    RandomSampler,
    SequentialSampler,
    as_generator,
    default_collate,
)

__all__ = [
    "BatchSampler",
    "DataLoader",
    "Dataset",
    "DistributedSampler",
    "RandomSampler",
    "SequentialSampler",
    "Subset",
    "TensorDataset",
    "default_collate",
    "random_split",
]


class Dataset:
    """Subclass and define `__getitem__(i)` and `__len__()`."""

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define __getitem__")

    def __len__(self) -> int:
        raise NotImplementedError(f"{type(self).__name__} must define __len__")


class TensorDataset(Dataset):
    """Example i is `tuple(t[i] for t in tensors)`; all tensors share their first dimension."""

    def __init__(self, *tensors: Tensor) -> None:
        if not tensors:
            raise ValueError("TensorDataset: give at least one tensor")
        for i, t in enumerate(tensors):
            if not isinstance(t, Tensor) or t.ndim == 0:
                raise TypeError(f"TensorDataset: argument {i} must be a Tensor with a first dimension")
        n = tensors[0].shape[0]
        if any(t.shape[0] != n for t in tensors):
            sizes = [t.shape[0] for t in tensors]
            raise ValueError(f"TensorDataset: the tensors' first dimensions differ: {sizes}")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple[Tensor, ...]:
        return tuple(t[index] for t in self.tensors)

    def __getitems__(self, indices: list[int]) -> tuple[Tensor, ...]:
        """A whole batch at once (what DataLoader asks for): one indexing per tensor."""
        idx = np.asarray(indices, dtype=np.int64)
        return tuple(t[idx] if t._requires_grad else wrap(t._data[idx]) for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


class Subset(Dataset):
    """The examples of `dataset` at `indices`, renumbered 0..len(indices)-1."""

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = [int(i) for i in indices]

    def __getitem__(self, index: int) -> Any:
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices: list[int]) -> Any:
        inner = [self.indices[i] for i in indices]
        many = getattr(self.dataset, "__getitems__", None)
        if many is not None:
            return many(inner)
        return default_collate([self.dataset[i] for i in inner])

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset: Any, lengths: Sequence[int | float], generator: Any = None) -> list[Subset]:
    """Split `dataset` into non-overlapping Subsets of the given lengths (ints summing to
    len(dataset), or fractions summing to 1, the remainder handed out one by one from the
    first part), over a permutation from `generator` (an int seed or a np.random.Generator;
    None: og.manual_seed's generator)."""
    n = len(dataset)
    if not lengths:
        raise ValueError("random_split: lengths must not be empty")
    if all(isinstance(x, float) for x in lengths):
        if any(not 0.0 <= x <= 1.0 for x in lengths) or abs(sum(lengths) - 1.0) > 1e-6:
            raise ValueError(f"random_split: fractions must be in [0, 1] and sum to 1, got {list(lengths)}")
        sizes = [int(np.floor(n * x)) for x in lengths]
        for i in range(n - sum(sizes)):
            sizes[i % len(sizes)] += 1
    else:
        sizes = []
        for x in lengths:
            if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 0:
                raise ValueError(
                    f"random_split: lengths must be ints >= 0 (or fractions), got {list(lengths)}"
                )
            sizes.append(int(x))
        if sum(sizes) != n:
            raise ValueError(
                f"random_split: the lengths {sizes} sum to {sum(sizes)}, but the dataset has {n}"
            )
    order = as_generator(generator, "random_split").permutation(n).tolist()
    out, start = [], 0
    for size in sizes:
        out.append(Subset(dataset, order[start : start + size]))
        start += size
    return out


class DistributedSampler:
    """Yields this rank's indices into a dataset of `len(dataset)` examples.

    Each epoch's order is a permutation drawn from `seed + epoch` (the same on every rank;
    call `set_epoch(e)` before each epoch), or 0..n-1 with `shuffle=False`. Rank r takes
    positions r, r + num_replicas, ... of it. Without `drop_last` the order is padded with
    its own first indices up to a multiple of num_replicas, so every rank gets the same
    number of examples; with it the tail that does not divide evenly is dropped.
    num_replicas / rank default to the process group's world size and rank."""

    def __init__(
        self,
        dataset: Any,
        num_replicas: int | None = None,
        rank: int | None = None,
        shuffle: bool = True,
        seed: int = 0,
        drop_last: bool = False,
    ) -> None:
        where = "DistributedSampler"
        if num_replicas is None:
            num_replicas = group.get_world_size()
        if rank is None:
            rank = group.get_rank()
        if not isinstance(num_replicas, int) or num_replicas < 1:
            raise ValueError(f"{where}: num_replicas must be a positive int, got {num_replicas!r}")
        if not isinstance(rank, int) or not 0 <= rank < num_replicas:
            raise ValueError(f"{where}: rank must be an int in [0, {num_replicas - 1}], got {rank!r}")
        self.n = len(dataset)
        self.num_replicas = num_replicas
        self.rank = rank
        self.shuffle = bool(shuffle)
        self.seed = int(seed)
        self.drop_last = bool(drop_last)
        self.epoch = 0
        if drop_last:
            self.num_samples = self.n // num_replicas
        else:
            self.num_samples = -(-self.n // num_replicas)
        self.total_size = self.num_samples * num_replicas

    def set_epoch(self, epoch: int) -> None:
        self.epoch = int(epoch)

    def indices(self) -> np.ndarray:
        """This rank's indices for the current epoch, as an int64 array."""
        if self.shuffle:
            order = np.random.default_rng(self.seed + self.epoch).permutation(self.n)
        else:
            order = np.arange(self.n)
        if self.total_size > self.n and self.n:
            reps = -(-self.total_size // self.n)
            order = np.tile(order, reps)
        order = order[: self.total_size]
        return order[self.rank :: self.num_replicas].astype(np.int64)

    def __iter__(self) -> Iterator[int]:
        return iter(self.indices().tolist())

    def __len__(self) -> int:
        return self.num_samples
