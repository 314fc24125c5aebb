"""og.save / og.load: nested state (optimizers, schedulers) without pickle, clear errors."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest

import opgrad as og
from opgrad import nn, optim


def trained_adam():
    og.manual_seed(0)
    model = nn.Linear(3, 2)
    opt = optim.Adam(
        [{"params": [model.weight], "lr": 0.01}, {"params": [model.bias], "weight_decay": 0.1}], amsgrad=True
    )
    for _ in range(2):
        opt.zero_grad()
        (model(og.randn((4, 3))) ** 2).sum().backward()
        opt.step()
    return model, opt


def test_nested_values_round_trip_with_dtypes_shapes_and_flags(tmp_path):
    w = og.tensor([[1.5, -2.0]], dtype="float16", requires_grad=True)
    obj = {
        "w": w,
        "again": w,
        "p": nn.Parameter(og.ones((2,), dtype="float64")),
        "ints": og.tensor([1, 2, 3], dtype="int8"),
        "mask": og.tensor([True, False]),
        "raw": np.arange(4, dtype=np.uint8).reshape(2, 2),
        "npscalar": np.float32(0.25),
        3: ["text", None, True, 7, 2.5, float("inf"), (1, "two")],
        (1, 2): {"nested": {"deep": []}},
        "nan": float("nan"),
    }
    path = tmp_path / "state.og"
    og.save(obj, path)
    back = og.load(path)
    assert set(back) == set(obj)
    assert isinstance(back["w"], og.Tensor) and back["w"].dtype == np.float16 and back["w"].shape == (1, 2)
    assert back["w"].requires_grad and back["w"].is_leaf
    assert back["again"] is back["w"]  # stored once, one object again
    assert isinstance(back["p"], nn.Parameter) and back["p"].requires_grad and back["p"].dtype == np.float64
    assert back["ints"].dtype == np.int8 and back["ints"].tolist() == [1, 2, 3]
    assert back["mask"].dtype == np.bool_ and not back["mask"].requires_grad
    assert type(back["raw"]) is np.ndarray and back["raw"].dtype == np.uint8
    np.testing.assert_array_equal(back["raw"], obj["raw"])
    assert type(back["npscalar"]) is np.float32 and back["npscalar"] == 0.25
    assert back[3][:5] == ["text", None, True, 7, 2.5] and back[3][5] == float("inf")
    assert back[3][6] == (1, "two") and isinstance(back[3][6], tuple)
    assert back[(1, 2)] == {"nested": {"deep": []}}
    assert np.isnan(back["nan"])


def test_no_pickle_numpy_opens_the_members(tmp_path):
    path = tmp_path / "s.npz"
    og.save({"a": og.arange(3)}, path)
    with zipfile.ZipFile(path) as zf:
        assert sorted(zf.namelist()) == ["structure.json", "t0.npy"]
        head = json.loads(zf.read("structure.json"))
    assert head["format"] == "opgrad.save/1"
    with np.load(path, allow_pickle=False) as arch:
        np.testing.assert_array_equal(arch["t0"], [0, 1, 2])


def test_optimizer_state_dict_round_trips_and_continues_identically(tmp_path):
    model, opt = trained_adam()
    path = tmp_path / "opt.npz"
    og.save({"model": model.state_dict(), "opt": opt.state_dict()}, path)
    # a second copy trained on from the loaded state matches the original step for step
    og.manual_seed(5)
    model2 = nn.Linear(3, 2)
    opt2 = optim.Adam([{"params": [model2.weight], "lr": 0.5}, {"params": [model2.bias]}], amsgrad=True)
    state = og.load(path)
    model2.load_state_dict(state["model"])
    opt2.load_state_dict(state["opt"])
    assert opt2.param_groups[0]["lr"] == 0.01 and opt2.param_groups[1]["weight_decay"] == 0.1
    x = og.randn((4, 3))
    for m, o in ((model, opt), (model2, opt2)):
        o.zero_grad()
        (m(x) ** 2).sum().backward()
        o.step()
    np.testing.assert_array_equal(model2.weight.numpy(), model.weight.numpy())
    np.testing.assert_array_equal(model2.bias.numpy(), model.bias.numpy())


def test_nn_save_of_an_optimizer_state_dict_no_longer_raises(tmp_path):
    _, opt = trained_adam()
    path = tmp_path / "opt.npz"
    nn.save(opt.state_dict(), path)  # raised TypeError before
    back = nn.load(path)
    assert back["param_groups"][0]["amsgrad"] is True
    np.testing.assert_array_equal(back["state"][0]["exp_avg"], opt.state_dict()["state"][0]["exp_avg"])


def test_scheduler_state_dict_round_trips(tmp_path):
    _, opt = trained_adam()
    sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    for _ in range(3):
        sched.step()
    og.save(sched.state_dict(), tmp_path / "s")
    _, opt2 = trained_adam()
    sched2 = optim.lr_scheduler.StepLR(opt2, step_size=9)
    sched2.load_state_dict(og.load(tmp_path / "s"))
    assert sched2.last_epoch == 3 and sched2.step_size == 2
    sched.step()
    sched2.step()
    assert sched2.get_last_lr() == sched.get_last_lr()


def test_plain_npz_from_nn_save_loads_as_tensors(tmp_path):
    lin = nn.Linear(2, 3)
    lin.save(tmp_path / "m.npz")
    back = og.load(tmp_path / "m.npz")
    assert sorted(back) == ["bias", "weight"] and isinstance(back["weight"], og.Tensor)
    np.testing.assert_array_equal(back["weight"].numpy(), lin.weight.numpy())


def test_unstorable_values_are_named_and_nothing_is_written(tmp_path):
    path = tmp_path / "x"
    with pytest.raises(TypeError, match=r"save: obj\['a'\]\[1\] is a set"):
        og.save({"a": [1, {2}]}, path)
    with pytest.raises(TypeError, match="holds Python objects"):
        og.save([np.array([object()])], path)
    with pytest.raises(TypeError, match="has a key of type frozenset"):
        og.save({frozenset(): 1}, path)
    assert not path.exists()


def test_truncated_file_names_the_file_and_the_module_is_unchanged(tmp_path):
    path = tmp_path / "model.og"
    og.save(nn.Linear(2, 3).state_dict(), path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=r"load: '.*model\.og' is not"):
        og.load(path)
    lin = nn.Linear(2, 3)
    before = lin.weight.numpy().copy()
    with pytest.raises(ValueError, match=r"model\.og"):
        lin.load(path)
    np.testing.assert_array_equal(lin.weight.numpy(), before)


def test_foreign_files_are_refused_with_the_reason(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(ValueError, match=r"notes\.txt' is not an \.npz archive"):
        og.load(text)
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("readme.txt", "hi")
    with pytest.raises(ValueError, match=r"other\.zip' is not an opgrad save file: it holds 'readme\.txt'"):
        og.load(other)
    wrong = tmp_path / "wrong.npz"
    with zipfile.ZipFile(wrong, "w") as zf:
        zf.writestr("structure.json", json.dumps({"format": "something/9", "object": 1}))
    with pytest.raises(ValueError, match=r"wrong\.npz' is not an opgrad save file \(expected format"):
        og.load(wrong)
    dangling = tmp_path / "dangling.npz"
    with zipfile.ZipFile(dangling, "w") as zf:
        zf.writestr(
            "structure.json",
            json.dumps({"format": "opgrad.save/1", "object": {"array": 4, "kind": "tensor"}}),
        )
    with pytest.raises(ValueError, match=r"dangling\.npz' refers to array 4"):
        og.load(dangling)
    with pytest.raises(FileNotFoundError, match=r"load: no file at '.*absent'"):
        og.load(tmp_path / "absent")


def test_file_objects_and_the_device_argument():
    buf = io.BytesIO()
    og.save({"x": og.ones((2,))}, buf)
    buf.seek(0)
    back = og.load(buf, device="cpu")
    assert back["x"].device == "cpu" and back["x"].tolist() == [1.0, 1.0]


def test_loaded_tensors_do_not_share_memory_with_the_saved_ones(tmp_path):
    x = og.ones((3,))
    og.save(x, tmp_path / "x")
    y = og.load(tmp_path / "x")
    x[0] = 5.0
    assert y.tolist() == [1.0, 1.0, 1.0]


def test_zero_dim_buffers_keep_their_shape_through_nn_save(tmp_path):
    # Before: np.ascontiguousarray turned BatchNorm's num_batches_tracked () into (1,), and
    # loading the file back into a BatchNorm2d failed its shape check.
    bn = nn.BatchNorm2d(2)
    bn(og.randn((2, 2, 3, 3)))
    bn.save(tmp_path / "bn.npz")
    assert nn.load(tmp_path / "bn.npz")["num_batches_tracked"].shape == ()
    fresh = nn.BatchNorm2d(2)
    fresh.load(tmp_path / "bn.npz")
    assert fresh.num_batches_tracked.item() == 1
    og.save(og.tensor(3.0), tmp_path / "scalar")
    assert og.load(tmp_path / "scalar").shape == ()


def test_the_docs_nn_example_runs(tmp_path, monkeypatch):
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "nn.md").read_text()
    block = re.findall(r"```python\n(.*?)```", text, flags=re.S)[0]
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {}
    exec(compile(block, "docs/nn.md", "exec"), scope)  # noqa: S102 - our own docs
    assert (tmp_path / "ckpt.og").exists()
    assert scope["opt"].param_groups[0]["weight_decay"] == 0.1
    assert scope["sched"].last_epoch == 3 * len(scope["loader"])
