"""Writing generated files, and checking that the checked-in ones are current.

The generator owns only the files it wrote: a regular file whose first line is the
`@generated` header (`naming.header`). `write` refuses, before touching anything, an
output folder that holds any other `.py` file (a user's own code, a symlink), because it
must never overwrite or delete what it did not write; then it rewrites only files whose
bytes differ (so timestamps and editors are left alone) and removes generated files the
spec no longer produces. `check` compares without touching anything and returns a unified
diff (stray and missing files included); `strays` names the files `check` finds that the
spec does not produce.

The reference page (docs/ops.md) follows the same rule with its own header
(`naming.PAGE_HEADER`): `write_page` replaces only a file that starts with it, and
`check_page` diffs it.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from opgrad.codegen import naming


class OutputError(Exception):
    """The output folder cannot be used; the message says why and what to do."""


def _first_line(path: Path) -> bytes | None:
    """The first line of a regular file (not a symlink), None for anything else."""
    if path.is_symlink() or not path.is_file():
        return None
    try:
        with path.open("rb") as f:
            return f.readline(400)
    except OSError:
        return None


def owned(path: Path) -> bool:
    """A regular file (not a symlink) that starts with the generator's header."""
    first = _first_line(path)
    return (
        first is not None
        and first.startswith(naming.HEADER_PREFIX.encode())
        and first.rstrip().endswith(naming.HEADER_SUFFIX.encode())
    )


def _python_files(out_dir: Path) -> list[Path]:
    if not out_dir.is_dir():
        return []
    return sorted(p for p in out_dir.iterdir() if p.name.endswith(".py"))


def _read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        return f"<unreadable: {exc.strerror or exc}>\n"


def check_out_dir(files: dict[str, str], out_dir: Path) -> None:
    """Raise `OutputError` if `write(files, out_dir)` could lose anything that is not the
    generator's, or could not write at all."""
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"{out_dir} exists and is not a folder; pass --out a folder (new or generated)")
    foreign = [p.name for p in _python_files(out_dir) if not owned(p)]
    blocked = [name for name in files if (out_dir / name).exists() and not (out_dir / name).is_file()]
    if foreign or blocked:
        names = ", ".join(sorted(set(foreign + blocked)))
        raise OutputError(
            f"{out_dir} holds files the generator did not write ({names}); it never overwrites or "
            "removes those. Move them away, or pass --out an empty or generated folder."
        )
    parent = out_dir
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise OutputError(f"cannot create {out_dir}: {parent} is not a folder")


def write(files: dict[str, str], out_dir: Path) -> list[str]:
    """Write `files` into `out_dir`; returns the names written or removed.

    Raises `OutputError` (having written nothing) if the folder holds a `.py` file the
    generator does not own, or cannot be created.
    """
    check_out_dir(files, out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create {out_dir}: {exc.strerror or exc}") from None
    stale = [p for p in _python_files(out_dir) if p.name not in files and owned(p)]
    changed: list[str] = []
    for name, text in files.items():
        path = out_dir / name
        data = text.encode("utf-8")
        if path.is_file() and path.read_bytes() == data:
            continue
        path.write_bytes(data)
        changed.append(name)
    for path in stale:
        path.unlink()
        changed.append(path.name)
    return changed


def strays(files: dict[str, str], out_dir: Path) -> list[str]:
    """The `.py` files in `out_dir` that the spec does not produce."""
    return [p.name for p in _python_files(out_dir) if p.name not in files]


def check(files: dict[str, str], out_dir: Path) -> str:
    """A unified diff from what is in `out_dir` to what would be generated ('' if current)."""
    existing = {p.name: _read(p) for p in _python_files(out_dir)}
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


def owns_page(path: Path) -> bool:
    """A regular file (not a symlink) whose first line is the page header."""
    first = _first_line(path)
    return first is not None and first.rstrip(b"\r\n") == naming.PAGE_HEADER.encode()


def write_page(text: str, path: Path) -> bool:
    """Write the reference page at `path` (creating its folder); True if it changed.

    Raises `OutputError` (having written nothing) if `path` holds a file the generator did
    not write, or cannot be created."""
    check_page_path(path)
    if path.exists() and path.read_bytes() == text.encode("utf-8"):
        return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    return True


def check_page_path(path: Path) -> None:
    """Raise `OutputError` if writing the page at `path` could replace a file the generator
    did not write, or could not be done (call it before writing anything)."""
    if (path.exists() or path.is_symlink()) and not owns_page(path):
        raise OutputError(
            f"{path} exists and the generator did not write it (its first line is not "
            f"{naming.PAGE_HEADER!r}); it never overwrites that. Move it away, or pass --docs another path."
        )
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise OutputError(f"cannot create {path.parent}: {parent} is not a folder")


def check_page(text: str, path: Path, shown: str) -> str:
    """A unified diff from the page at `path` to `text` ('' if current); `shown` names it."""
    old = _read(path) if path.is_file() else None
    if old == text:
        return ""
    return "".join(
        difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            text.splitlines(keepends=True),
            fromfile=f"a/{shown}" if old is not None else "/dev/null",
            tofile=f"b/{shown}",
        )
    )
