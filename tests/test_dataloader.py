"""og.utils.data.DataLoader, samplers, collation and random_split."""

from __future__ import annotations

import subprocess
import sys
from typing import NamedTuple

import numpy as np
import pytest

import opgrad as og
from opgrad.utils.data import (
    DataLoader,
    Dataset,
    DistributedSampler,
    RandomSampler,
    Subset,
    TensorDataset,
    default_collate,
    random_split,
)


def data(n=10):
    return TensorDataset(og.arange(n).astype("float32").reshape((n, 1)) * 10, og.arange(n))


def labels(loader):
    return [b[1].tolist() for b in loader]


def test_sequential_batches_and_drop_last():
    assert labels(DataLoader(data(), batch_size=4)) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    loader = DataLoader(data(), batch_size=4, drop_last=True)
    assert labels(loader) == [[0, 1, 2, 3], [4, 5, 6, 7]] and len(loader) == 2
    assert len(DataLoader(data(), batch_size=4)) == 3
    xb, yb = next(iter(DataLoader(data(), batch_size=3)))
    assert xb.shape == (3, 1) and xb.dtype == np.float32 and yb.dtype == np.int64
    np.testing.assert_array_equal(xb.numpy()[:, 0], [0.0, 10.0, 20.0])


def test_shuffle_is_a_permutation_reproducible_across_runs_and_new_each_epoch():
    loader = DataLoader(data(), batch_size=3, shuffle=True, generator=7)
    e1, e2 = labels(loader), labels(loader)
    flat = sorted(i for b in e1 for i in b)
    assert flat == list(range(10)) and e1 != e2  # every example once; a new order per epoch
    again = DataLoader(data(), batch_size=3, shuffle=True, generator=7)
    assert labels(again) == e1 and labels(again) == e2
    expected = np.random.default_rng(7).permutation(10).tolist()
    assert [i for b in e1 for i in b] == expected  # the documented draw
    # None: seeded from og.manual_seed
    og.manual_seed(3)
    a = labels(DataLoader(data(), batch_size=5, shuffle=True))
    og.manual_seed(3)
    assert labels(DataLoader(data(), batch_size=5, shuffle=True)) == a


def test_same_batches_in_a_fresh_process():
    code = (
        "import opgrad as og\n"
        "from opgrad.utils.data import DataLoader, TensorDataset\n"
        "d = TensorDataset(og.arange(20))\n"
        "print([b[0].tolist() for b in DataLoader(d, batch_size=6, shuffle=True, generator=11)])\n"
    )
    runs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout for _ in range(2)
    }
    assert len(runs) == 1 and runs.pop().startswith("[[")


def test_batches_of_tensors_that_require_grad_stay_differentiable():
    w = og.arange(4).astype("float64").reshape((4, 1))
    w.requires_grad = True
    (xb,) = next(iter(DataLoader(TensorDataset(w), batch_size=2, sampler=[3, 1])))
    (xb * og.tensor([[2.0], [5.0]], dtype="float64")).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy()[:, 0], [0.0, 5.0, 0.0, 2.0])


class Pairs(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": np.full(2, float(i)), "y": i, "name": f"n{i}", "t": (og.tensor([i]), 2.5)}


class Point(NamedTuple):
    a: int
    b: float


def test_collate_of_dicts_tuples_strings_and_namedtuples():
    batch = next(iter(DataLoader(Pairs(), batch_size=3)))
    assert set(batch) == {"x", "y", "name", "t"}
    assert batch["x"].shape == (3, 2) and batch["y"].tolist() == [0, 1, 2]
    assert batch["name"] == ["n0", "n1", "n2"]
    assert isinstance(batch["t"], tuple) and batch["t"][0].shape == (3, 1)
    assert batch["t"][1].tolist() == [2.5, 2.5, 2.5]
    pts = default_collate([Point(1, 2.0), Point(3, 4.0)])
    assert isinstance(pts, Point) and pts.a.tolist() == [1, 3]
    with pytest.raises(TypeError, match="default_collate: cannot batch examples of type object"):
        default_collate([object()])
    with pytest.raises(ValueError, match="different lengths"):
        default_collate([(1, 2), (1,)])
    custom = DataLoader(Pairs(), batch_size=2, collate_fn=lambda ex: [e["y"] for e in ex])
    assert list(custom) == [[0, 1], [2, 3], [4]]


def test_distributed_sampler_in_a_loader():
    d = data(10)
    shards = [
        labels(DataLoader(d, batch_size=2, sampler=DistributedSampler(d, 2, r, seed=1))) for r in range(2)
    ]
    flat = sorted(i for s in shards for b in s for i in b)
    assert flat == list(range(10))


def test_loader_argument_errors():
    with pytest.raises(TypeError, match="DataLoader: dataset must have __getitem__ and __len__"):
        DataLoader(5)
    with pytest.raises(ValueError, match="batch_size"):
        list(DataLoader(data(), batch_size=0))
    with pytest.raises(ValueError, match="shuffle=True or a sampler, not both"):
        DataLoader(data(), shuffle=True, sampler=[0])
    with pytest.raises(TypeError, match="generator must be an int seed"):
        DataLoader(data(), shuffle=True, generator="x")
    with pytest.raises(TypeError, match="collate_fn must be callable"):
        DataLoader(data(), collate_fn=3)


def test_random_split_lengths_fractions_and_reproducibility():
    d = data(10)
    a, b = random_split(d, [7, 3], generator=2)
    assert isinstance(a, Subset) and (len(a), len(b)) == (7, 3)
    assert sorted(a.indices + b.indices) == list(range(10))
    assert random_split(d, [7, 3], generator=2)[0].indices == a.indices
    assert a.indices + b.indices == np.random.default_rng(2).permutation(10).tolist()
    sizes = [len(s) for s in random_split(d, [0.5, 0.25, 0.25], generator=0)]
    assert sizes == [6, 2, 2] or sum(sizes) == 10 and sizes[0] >= 5
    assert a[0][1].item() == a.indices[0]
    batch = next(iter(DataLoader(b, batch_size=3)))
    assert batch[1].tolist() == b.indices
    with pytest.raises(ValueError, match=r"sum to 9, but the dataset has 10"):
        random_split(d, [5, 4])
    with pytest.raises(ValueError, match="fractions must be in"):
        random_split(d, [0.5, 0.6])
    with pytest.raises(ValueError, match="ints >= 0"):
        random_split(d, [11, -1])


def test_random_sampler_draws_fresh_permutations():
    s = RandomSampler(range(6), generator=np.random.default_rng(0))
    assert sorted(s) == list(range(6)) and len(s) == 6


def test_the_readme_training_example_runs(tmp_path, monkeypatch):
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "DataLoader" in b)
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {"og": og}
    exec(compile(block, "README.md", "exec"), scope)  # noqa: S102 - our own README
    assert Path(scope["path"]).exists()  # type: ignore[arg-type]
    assert len(scope["opt"].state) == 2  # both parameters have momentum buffers, restored
