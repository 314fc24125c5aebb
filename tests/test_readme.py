"""The README's usage example runs as written (so it cannot rot)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

README = Path(__file__).resolve().parents[1] / "README.md"


def test_every_readme_python_block_runs():
    """The PyTorch / Paddle spellings block too (each block runs on its own). The snippets of
    "Adding an operator" are pieces of files; tests/test_adding_an_op.py runs them."""
    usage = README.read_text().split("\n## Adding an operator")[0]
    blocks = re.findall(r"```python\n(.*?)```", usage, flags=re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})  # noqa: S102 - our own README


def test_readme_python_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "README.md has no python example"
    scope: dict[str, object] = {}
    exec(compile(blocks[0], str(README), "exec"), scope)  # noqa: S102 - our own README
    x, gx, ggx = scope["x"], scope["gx"], scope["ggx"]
    np.testing.assert_allclose(gx.numpy(), 3 * x.numpy() ** 2, rtol=1e-6)
    np.testing.assert_allclose(ggx.numpy(), 6 * x.numpy(), rtol=1e-6)
    assert scope["w"].grad is not None
