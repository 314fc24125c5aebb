"""Writing generated files, and checking that the checked-in ones are current.

`write` rewrites only files whose bytes differ (so timestamps and editors are left
alone) and removes stale generated files; `check` compares without touching anything
and returns a unified diff (extra and missing files included).
"""

from __future__ import annotations

import difflib
from pathlib import Path


def _existing(out_dir: Path) -> dict[str, str]:
    """The Python files now in `out_dir`: all of them belong to the generator."""
    if not out_dir.is_dir():
        return {}
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(out_dir.glob("*.py"))}


def write(files: dict[str, str], out_dir: Path) -> list[str]:
    """Write `files` into `out_dir`; returns the names written or removed."""
    out_dir.mkdir(parents=True, exist_ok=True)
    changed: list[str] = []
    existing = _existing(out_dir)
    for name, text in files.items():
        path = out_dir / name
        data = text.encode("utf-8")
        if path.exists() and path.read_bytes() == data:
            continue
        path.write_bytes(data)
        changed.append(name)
    for name in existing:
        if name not in files:
            (out_dir / name).unlink()
            changed.append(name)
    return changed


def check(files: dict[str, str], out_dir: Path) -> str:
    """A unified diff from what is in `out_dir` to what would be generated ('' if current)."""
    existing = _existing(out_dir)
    chunks: list[str] = []
    for name in sorted(set(files) | set(existing)):
        old = existing.get(name)
        new = files.get(name)
        if old == new:
            continue
        rel = f"{out_dir.name}/{name}"
        diff = difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            (new or "").splitlines(keepends=True),
            fromfile=f"a/{rel}" if old is not None else "/dev/null",
            tofile=f"b/{rel}" if new is not None else "/dev/null",
        )
        chunks.append("".join(diff))
    return "".join(chunks)
