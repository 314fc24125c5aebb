"""The runnable demos in examples/ still run end to end (in a subprocess, as a user would)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(
    r"^test accuracy (?P<acc>\d\.\d{3}) \((?P<n>\d+) samples, (?P<epochs>\d+) epochs?, (?P<secs>\d+\.\d) s\)$"
)


@pytest.mark.skipif(
    importlib.util.find_spec("sklearn") is None,
    reason="examples/train_digits.py needs scikit-learn for the digits data set "
    "(pip install -e '.[examples]')",
)
def test_train_digits_quick_runs_and_prints_summary():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_digits.py"), "--quick", "--no-progress"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    assert proc.returncode == 0, output
    lines = proc.stdout.strip().splitlines()
    assert lines, output
    match = SUMMARY.match(lines[-1])
    assert match, f"last line is not the summary:\n{output}"
    assert 0.0 <= float(match["acc"]) <= 1.0
    assert int(match["n"]) == 1797  # the whole digits data set
    assert int(match["epochs"]) == 1


def _run_example(name: str, *args: str) -> tuple[subprocess.CompletedProcess[str], str]:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc, f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"


@pytest.mark.skipif(
    importlib.util.find_spec("sklearn") is None,
    reason="examples/train_cnn.py needs scikit-learn for the digits data set (pip install -e '.[examples]')",
)
def test_train_cnn_quick_runs_and_prints_summary():
    proc, output = _run_example("train_cnn.py", "--quick", "--no-progress")
    assert proc.returncode == 0, output
    lines = proc.stdout.strip().splitlines()
    assert lines, output
    match = SUMMARY.match(lines[-1])
    assert match, f"last line is not the summary:\n{output}"
    assert 0.0 <= float(match["acc"]) <= 1.0
    assert int(match["n"]) == 1797  # the whole digits data set
    assert int(match["epochs"]) == 1


GPT_SUMMARY = re.compile(
    r"^final loss (?P<loss>\d+\.\d{2}) nats/char after (?P<steps>\d+) steps \((?P<secs>\d+\.\d) s\)$"
)


def test_train_gpt_quick_runs_samples_and_prints_summary():
    # Needs only NumPy (tqdm is optional): no scikit-learn, no download; the text ships in
    # examples/data/.
    proc, output = _run_example("train_gpt.py", "--quick", "--no-progress", "--prompt", "In the")
    assert proc.returncode == 0, output
    lines = proc.stdout.strip().splitlines()
    assert lines, output
    match = GPT_SUMMARY.match(lines[-1])
    assert match, f"last line is not the summary:\n{output}"
    assert int(match["steps"]) == 10
    # Ten steps cannot learn much, but the loss is finite and no worse than a uniform guess
    # over the text's characters (ln 60 ~ 4.09 nats) by much.
    assert 0.0 < float(match["loss"]) < 5.0
    sample = proc.stdout.split("--- sample", 1)[1].splitlines()
    assert sample[1].startswith("In the"), output


GP_SUMMARY = re.compile(
    r"^test accuracy (?P<acc>\d\.\d{3}) \((?P<n>\d+) test images, NLML (?P<first>-?\d+\.\d{3}) -> "
    r"(?P<last>-?\d+\.\d{3}) per point, (?P<steps>\d+) steps, (?P<secs>\d+\.\d) s\)$"
)


@pytest.mark.skipif(
    importlib.util.find_spec("sklearn") is None,
    reason="examples/train_gp.py needs scikit-learn for the digits data set (pip install -e '.[examples]')",
)
def test_train_gp_quick_lowers_the_marginal_likelihood_and_classifies():
    proc, output = _run_example("train_gp.py", "--quick")
    assert proc.returncode == 0, output
    lines = proc.stdout.strip().splitlines()
    match = GP_SUMMARY.match(lines[-1]) if lines else None
    assert match, f"last line is not the summary:\n{output}"
    assert int(match["steps"]) == 5 and int(match["n"]) == 360
    # five Adam steps on the kernel's 66 parameters lower the NLML through cholesky and its solve
    assert float(match["last"]) < float(match["first"]) - 1.0, output
    assert float(match["acc"]) > 0.9, output  # a GP on 300 digits already classifies well


DEBLUR_SUMMARY = re.compile(
    r"^kernel error (?P<err>\d\.\d{4}) \(hidden 3x3 blur, (?P<n>\d+) images, "
    r"loss (?P<first>\S+) -> (?P<last>\S+), (?P<steps>\d+) steps, \d+\.\d s\)$"
)


@pytest.mark.skipif(
    importlib.util.find_spec("sklearn") is None,
    reason="examples/train_deblur.py needs scikit-learn for the digits (pip install -e '.[examples]')",
)
def test_train_deblur_recovers_the_hidden_blur_to_its_target():
    # the whole demo (about a second): complex parameters, rfft2/irfft2, Adam, to the stated 2%
    proc, output = _run_example("train_deblur.py")
    assert proc.returncode == 0, output
    lines = proc.stdout.strip().splitlines()
    match = DEBLUR_SUMMARY.match(lines[-1]) if lines else None
    assert match, f"last line is not the summary:\n{output}"
    assert int(match["n"]) == 1797 and int(match["steps"]) == 300
    assert float(match["err"]) < 0.02, output
    assert float(match["last"]) < float(match["first"]) / 10, output


def test_train_char_lstm_quick_runs_samples_and_prints_summary():
    # The LSTM demo shares train_gpt.py's text, vocabulary and batches (it imports them).
    proc, output = _run_example("train_char_lstm.py", "--quick", "--no-progress", "--prompt", "And")
    assert proc.returncode == 0, output
    lines = proc.stdout.strip().splitlines()
    match = GPT_SUMMARY.match(lines[-1]) if lines else None
    assert match, f"last line is not the summary:\n{output}"
    assert int(match["steps"]) == 10
    assert 0.0 < float(match["loss"]) < 5.0  # finite, and near or below a uniform guess (ln 60)
    sample = proc.stdout.split("--- sample", 1)[1].splitlines()
    assert sample[1].startswith("And"), output


@pytest.mark.skipif(
    importlib.util.find_spec("sklearn") is None or importlib.util.find_spec("mpi4py") is None,
    reason="needs scikit-learn and mpi4py (pip install -e '.[examples,distributed]')",
)
def test_train_digits_distributed_matches_one_process(tmp_path):
    """`mpiexec -n 2 train_digits.py --distributed`: the same summary line and, in float64, the
    same final parameters as one process over the same global batches (odd batch size 33:
    the ranks get 17 and 16 examples)."""
    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or "mpiexec"
    common = ["--quick", "--no-progress", "--float64", "--batch-size", "33"]
    one, output = _run_example("train_digits.py", *common, "--save", str(tmp_path / "one.npz"))
    assert one.returncode == 0, output
    proc = subprocess.run(
        [str(mpiexec), "-n", "2", sys.executable, str(ROOT / "examples" / "train_digits.py"), *common]
        + ["--save", str(tmp_path / "two.npz"), "--distributed"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    assert proc.returncode == 0, output
    last = [SUMMARY.match(out.strip().splitlines()[-1]) for out in (one.stdout, proc.stdout)]
    assert all(last), output
    assert last[0]["acc"] == last[1]["acc"] and last[1]["epochs"] == "1"
    a, b = np.load(tmp_path / "one.npz"), np.load(tmp_path / "two.npz")
    assert sorted(a) == sorted(b) and len(a) == 4
    for name in a:
        np.testing.assert_allclose(b[name], a[name], atol=1e-6, rtol=0, err_msg=name)


@pytest.mark.skipif(
    importlib.util.find_spec("sklearn") is None or importlib.util.find_spec("mpi4py") is None,
    reason="needs scikit-learn and mpi4py (pip install -e '.[examples,distributed]')",
)
def test_train_cnn_distributed_quick_prints_the_summary_once():
    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or "mpiexec"
    proc = subprocess.run(
        [str(mpiexec), "-n", "2", sys.executable, str(ROOT / "examples" / "train_cnn.py")]
        + ["--quick", "--no-progress", "--distributed"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    assert proc.returncode == 0, output
    lines = proc.stdout.strip().splitlines()
    assert "2 ranks" in lines[0] and SUMMARY.match(lines[-1]), output
    assert sum(bool(SUMMARY.match(line)) for line in lines) == 1, output  # rank 1 stays quiet
