"""The benchmark scripts still run (tiny sizes): they are measured by hand, so nothing else
would notice one breaking. Timings are not asserted; ops.py checks its own gradients."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_ops_benchmark_runs_and_writes_its_table(tmp_path: Path) -> None:
    out = tmp_path / "ops.json"
    text = _run("ops.py", "--chain", "40", "--size", "32", "--repeat", "5", "--no-torch", "--json", str(out))
    assert "1. chain of 40 elementwise ops" in text and "a and b 32x32 float32" in text
    payload = json.loads(out.read_text())
    assert payload["chain_length"] == 40 and payload["matmul_size"] == 32 and payload["torch"] is None
    for row in [*payload["chain"].values(), *payload["matmul"].values()]:
        assert row["opgrad"] > 0 and row["numpy"] > 0 and row["opgrad/numpy"] > 0
        assert row["torch"] is None and row["opgrad/torch"] is None


def test_spectral_benchmark_runs_and_checks_its_gradients() -> None:
    text = _run("spectral.py", "--size", "16", "--repeat", "3", "--no-torch")
    for op in ("fft2", "ifft2", "rfft2", "irfft2", "view_as_real", "abs", "multiply"):
        assert f"\n{op} " in text


def test_engine_benchmark_runs(tmp_path: Path) -> None:
    out = tmp_path / "engine.json"
    text = _run("engine.py", "--nodes", "200", "--repeat", "5", "--json", str(out))
    assert "forward / node" in text and "backward / node" in text
    payload = json.loads(out.read_text())
    assert payload["nodes"] == 200 and all(v > 0 for v in payload["median"].values())


def test_training_benchmark_runs_every_workload(tmp_path: Path) -> None:
    out = tmp_path / "training.json"
    text = _run("training.py", "--quick", "--no-torch", "--json", str(out))
    assert "no torch" in text and "mlp_sgd:" in text and "gpt:" in text and "lstm:" in text
    results = json.loads(out.read_text())["results"]
    names = ["mlp_sgd", "mlp_nn", "chain2001", "chain50001", "double_backward", "matmul", "memory"]
    rss = ["memory_rss"] if sys.platform == "linux" else []  # resident memory, fresh processes
    assert list(results) == [*names, *rss, "adam", "cnn", "gpt", "lstm"]
    for name, res in results.items():
        for row in res["rows"].values():
            assert "torch" not in row
            if name == "memory_rss":  # tiny sizes may stay within pages already resident
                assert row["opgrad"] >= 0 and row["numpy"] >= 0
                continue
            assert row["opgrad"] > 0
            if name in ("mlp_sgd", "matmul", "memory"):  # the rows with a NumPy-by-hand reference
                assert row["numpy"] > 0 and row["opgrad/numpy"]["median"] > 0


@pytest.mark.skipif(
    importlib.util.find_spec("mpi4py") is None or importlib.util.find_spec("sklearn") is None,
    reason="needs mpi4py and scikit-learn (pip install -e '.[examples,distributed]')",
)
def test_distributed_benchmark_runs(tmp_path: Path) -> None:
    out = tmp_path / "dist.json"
    args = ("--ranks", "2", "--bucket-mb", "0.001", "--steps", "2", "--warmup", "1", "--batch", "8")
    text = _run("distributed.py", *args, "--json", str(out))
    assert "samples/s" in text and "comm wait ms" in text
    rows = json.loads(out.read_text())
    assert [(r["ranks"], r["ddp"]) for r in rows] == [(1, False), (2, True)]
    assert rows[1]["buckets"] > 1 and all(r["step_ms"] > 0 for r in rows)


def test_forward_ad_benchmark_runs(tmp_path: Path) -> None:
    out = tmp_path / "fwd.json"
    text = _run(
        "forward_ad.py",
        *("--chain", "20", "--width", "4", "--mlp-width", "16", "--batch", "4", "--repeat", "3"),
        *("--no-torch", "--json", str(out)),
    )
    assert "1. jvp through 21 ops" in text and "checkpoint / plain" in text
    payload = json.loads(out.read_text())
    assert payload["jvp_us_per_op"]["opgrad"] > 0 and payload["jvp_us_per_op"]["torch"] is None
    assert payload["checkpoint"]["checkpoint"]["peak_mib"] > 0
    if sys.platform == "linux":  # the resident-memory runs, opgrad only without torch
        assert "peak resident memory" in text
        assert set(payload["checkpoint_rss_mib"]) == {"opgrad"}
        assert all(v >= 0 for v in payload["checkpoint_rss_mib"]["opgrad"].values())
