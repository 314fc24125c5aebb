"""Module state on disk and in memory: nn.save/nn.load (.npz archives) and
Module.load_state_dict. A bad file or a mismatched value gives an error naming the path or
the key before anything is written, and a failed save never damages an existing file."""

from __future__ import annotations

import io
import os
import zipfile

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import nn
from opgrad.runtime.nn._update import assign


def linear() -> nn.Linear:
    lin = nn.Linear(2, 3)
    lin.load_state_dict({"weight": np.arange(6.0).reshape(2, 3), "bias": np.array([1.0, 2.0, 3.0])})
    return lin


# -- nn.load --------------------------------------------------------------------------------
def test_loading_a_text_file_names_the_path(tmp_path):
    # Before: NumPy's "This file contains pickled (object) data ..." with no path.
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    with pytest.raises(ValueError, match=r"load: '.*notes\.txt' is not an \.npz archive"):
        nn.load(path)
    with pytest.raises(ValueError, match="is not an .npz archive"):
        linear().load(str(path))


def test_loading_an_npy_file_names_the_path(tmp_path):
    # Before: "'numpy.ndarray' object does not support the context manager protocol".
    path = tmp_path / "w.npy"
    np.save(path, np.zeros(3))
    with pytest.raises(ValueError, match=r"load: '.*w\.npy' is not an \.npz archive"):
        nn.load(path)


def test_loading_a_truncated_zip_names_the_path(tmp_path):
    # Before: zipfile.BadZipFile "File is not a zip file".
    path = tmp_path / "broken.npz"
    linear().save(path)
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(ValueError, match=r"load: '.*broken\.npz' is not"):
        nn.load(path)


def test_loading_a_zip_of_other_files_names_the_member(tmp_path):
    path = tmp_path / "other.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("readme.txt", "hi")
    with pytest.raises(
        ValueError, match=r"load: '.*other\.zip' holds 'readme\.txt', which is not a \.npy array"
    ):
        nn.load(path)


def test_loading_pickled_object_arrays_is_refused(tmp_path):
    path = tmp_path / "objects.npz"
    np.savez(path, w=np.array([{"a": 1}], dtype=object))
    with pytest.raises(ValueError, match=r"load: '.*objects\.npz' is not a readable \.npz archive"):
        nn.load(path)


def test_a_missing_file_names_the_path(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"load: no file at '.*absent\.npz'"):
        nn.load(tmp_path / "absent.npz")


def test_file_objects_round_trip_and_bad_ones_are_named():
    buf = io.BytesIO()
    linear().save(buf)
    buf.seek(0)
    dst = nn.Linear(2, 3)
    dst.load(buf)
    np.testing.assert_array_equal(dst.bias.numpy(), [1.0, 2.0, 3.0])
    bad = io.BytesIO(b"not a zip")
    with pytest.raises(ValueError, match="load: the BytesIO given is not an .npz archive"):
        nn.load(bad)
    assert bad.tell() == 0  # the check reads and puts the position back


# -- nn.save ----------------------------------------------------------------------------------
def test_a_failed_save_keeps_the_existing_file(tmp_path):
    path = tmp_path / "model.npz"
    linear().save(path)
    before = path.read_bytes()
    with pytest.raises(TypeError, match="save: 'bad' holds Python objects"):
        nn.save({"weight": np.zeros(2), "bad": np.array([object()])}, path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["model.npz"]  # no temporary file left behind


def test_a_save_interrupted_while_writing_keeps_the_existing_file(tmp_path, monkeypatch):
    path = tmp_path / "model.npz"
    linear().save(path)
    before = path.read_bytes()

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(np.lib.format, "write_array", fail)
    with pytest.raises(OSError, match="disk full"):
        nn.Linear(2, 3).save(path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["model.npz"]


def test_save_replaces_the_file_and_keeps_normal_permissions(tmp_path):
    path = tmp_path / "model.npz"
    path.write_bytes(b"old")
    linear().save(path)
    assert sorted(nn.load(path)) == ["bias", "weight"]
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


# -- Module.load_state_dict -------------------------------------------------------------------------
def test_dtype_kind_mismatch_is_named_per_key_and_nothing_is_written():
    # Before: an int64 weight was silently cast into the float32 parameter.
    lin = linear()
    version = lin.weight._version
    with pytest.raises(
        ValueError, match=r"'weight' has dtype int64 in the state dict, but the module's is float32"
    ):
        lin.load_state_dict({"weight": np.zeros((2, 3), dtype=np.int64), "bias": np.zeros(3)})
    np.testing.assert_array_equal(lin.bias.numpy(), [1.0, 2.0, 3.0])  # bias was fine, and is untouched
    assert lin.weight._version == version


def test_every_mismatch_is_listed_in_one_error():
    lin = linear()
    with pytest.raises(ValueError) as info:
        lin.load_state_dict({"weight": np.zeros((3, 2)), "bias": np.zeros(3, dtype=bool)})
    text = str(info.value)
    assert "load_state_dict into Linear" in text
    assert "'weight' has shape (3, 2) in the state dict, but the module's has shape (2, 3)" in text
    assert "'bias' has dtype bool in the state dict, but the module's is float32" in text


def test_floating_precision_and_integer_width_may_differ():
    lin = linear()
    lin.load_state_dict(
        {"weight": og.zeros((2, 3), dtype="float64"), "bias": np.full(3, 0.5, dtype=np.float16)}
    )
    assert lin.weight.dtype == og.float32 and lin.bias.numpy().tolist() == [0.5, 0.5, 0.5]
    bn = nn.BatchNorm2d(2)
    state = {k: v.numpy() for k, v in bn.state_dict().items()}
    state["num_batches_tracked"] = np.array(7, dtype=np.int32)
    bn.load_state_dict(state)
    assert bn.num_batches_tracked.item() == 7
    state["num_batches_tracked"] = np.array(7.0)
    with pytest.raises(ValueError, match="'num_batches_tracked' has dtype float64"):
        bn.load_state_dict(state)


def test_assign_checks_the_shape_itself():
    t = og.zeros((2,))
    with pytest.raises(ValueError, match=r"probe: expected shape \(2,\), got \(3,\)"):
        assign(t, np.ones(3), "probe")
    assert t.numpy().tolist() == [0.0, 0.0]


def test_parameter_defaults_and_repr():
    p = nn.Parameter()
    assert p.shape == (0,) and p.dtype == og.float32 and p.requires_grad
    assert repr(nn.Parameter(og.tensor([1.0]), requires_grad=False)).startswith(
        "Parameter containing:\nTensor("
    )
    assert not nn.Parameter([1.0], requires_grad=False).requires_grad


def test_save_names_a_missing_folder_or_a_folder_target(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"save: the folder of '.*absent.*model\.npz' does not exist"):
        linear().save(tmp_path / "absent" / "model.npz")
    with pytest.raises(IsADirectoryError, match="save: '.*' is a folder; give a file path"):
        linear().save(tmp_path)
    assert os.listdir(tmp_path) == []
