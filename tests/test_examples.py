"""The runnable demos in examples/ still run end to end (in a subprocess, as a user would)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

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
