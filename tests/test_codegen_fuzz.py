"""Property-based fuzzing of the generator: mutated specs never crash it.

Starting from small valid specs (the one of test_codegen_validation.py and the fixture spec
in tests/fixtures/codegen), hypothesis applies mutations of three kinds:

- structural: drop, duplicate, rename or retype keys and entries, on the parsed YAML;
- tokens: replace, delete or duplicate one word or symbol of the text with another from the
  spec's own vocabulary (swapped arguments, types, dangling or crossed references);
- bytes: insert, delete or flip bytes of the file (invalid UTF-8, control characters).

Then `python -m opgrad.codegen --spec-dir ... --out ...` runs (in-process through `main()`,
two in a subprocess), `--check` first, which must write nothing, into an output folder that
already holds files the generator does not own, and the properties are checked: never a
traceback or an internal error, exit 0 or 1, errors as `file:line:` lines, within 5 s,
nothing written outside `--out`, no file it does not own deleted or changed, and on success
the output is exactly the generated modules, each valid Python.

The number of examples comes from the hypothesis profile (tests/conftest.py: a bounded
"default" for CI, a long "fuzz" profile for `nox -s fuzz`).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_codegen_cli import children_cpu
from test_codegen_validation import BACKWARD, OPS

from opgrad.codegen.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "codegen"
BASES = {
    "small": (OPS, BACKWARD),
    "fixture": ((FIXTURE / "ops.yaml").read_text(), (FIXTURE / "backward.yaml").read_text()),
}
GENERATED = {"__init__.py", "ops.py", "grad_ops.py", "nodes.py", "tensor_methods.py"}
TIME_LIMIT = 5.0  # CPU seconds: a bound on the generator's work, not on how loaded the machine is
MESSAGE = re.compile(
    r"(ops|backward)\.yaml:\d+: |\d+ error\(s\); nothing was written\.$|nothing was written\.$|error: "
)


def _vocabulary() -> list[str]:
    words: set[str] = set()
    for ops, backward in BASES.values():
        words |= set(re.findall(r"\w+|[^\w\s]", ops + backward))
    extra = [
        "Tensor?",
        "Tensor[]",
        "int[]",
        "DataType",
        "Scalar?",
        "->",
        "{n}",
        "None",
        "__add__",
        "grad_wrt_x",
    ]
    return sorted(words | set(extra))


VOCABULARY = _vocabulary()
KEYS = sorted(
    {"op", "args", "output", "backward", "kernel", "intermediate", "non_differentiable", "method", "operator"}
    | {"inplace", "view", "mutates", "mutates_if", "doc", "backward_op", "forward", "no_need_buffer"}
    | {"no_gradient", "composite"}
)
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(VOCABULARY),
    st.lists(st.sampled_from(VOCABULARY), max_size=3),
    st.dictionaries(st.sampled_from(VOCABULARY), st.sampled_from(VOCABULARY), max_size=2),
)


@st.composite
def structural(draw: st.DrawFn, text: str) -> str:
    """Mutations of the parsed entries, dumped back to YAML."""
    entries: list[Any] = yaml.safe_load(text)
    for _ in range(draw(st.integers(1, 3))):
        if not entries:
            break
        i = draw(st.integers(0, len(entries) - 1))
        entry = entries[i]
        kind = draw(
            st.sampled_from(["drop_key", "rename_key", "set", "add_key", "drop", "dup", "swap", "name"])
        )
        keys = list(entry)
        if kind == "drop_key" and keys:
            entry.pop(draw(st.sampled_from(keys)))
        elif kind == "rename_key" and keys:
            key = draw(st.sampled_from(keys))
            entry[draw(st.sampled_from(KEYS))] = entry.pop(key)
        elif kind == "set" and keys:
            entry[draw(st.sampled_from(keys))] = draw(VALUES)
        elif kind == "add_key":
            entry[draw(st.sampled_from(KEYS))] = draw(VALUES)
        elif kind == "drop":
            entries.pop(i)
        elif kind == "dup":
            entries.insert(draw(st.integers(0, len(entries))), dict(entry))
        elif kind == "swap" and isinstance(entry.get("args"), str) and "," in entry["args"]:
            parts = entry["args"].strip("()").split(",")
            j = draw(st.integers(0, len(parts) - 2))
            parts[j], parts[j + 1] = parts[j + 1], parts[j]
            entry["args"] = "(" + ",".join(parts) + ")"
        elif kind == "name":  # another entry's name: dangling, crossed or duplicate references
            other = entries[draw(st.integers(0, len(entries) - 1))]
            names = [v for v in other.values() if isinstance(v, str) and re.fullmatch(r"\w+", v)]
            if names and keys:
                entry[draw(st.sampled_from(keys))] = draw(st.sampled_from(names))
    return yaml.safe_dump(entries, sort_keys=False, allow_unicode=True)


@st.composite
def tokens(draw: st.DrawFn, text: str) -> str:
    """One to three words or symbols replaced, deleted or duplicated."""
    pieces = re.split(r"(\w+|[^\w\s])", text)
    spots = [i for i, p in enumerate(pieces) if i % 2 == 1]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.sampled_from(spots))
        kind = draw(st.sampled_from(["replace", "delete", "duplicate"]))
        if kind == "replace":
            pieces[i] = draw(st.sampled_from(VOCABULARY))
        elif kind == "delete":
            pieces[i] = ""
        else:
            pieces[i] = pieces[i] + " " + pieces[i]
    return "".join(pieces)


@st.composite
def raw_bytes(draw: st.DrawFn, text: str) -> bytes:
    """One to four bytes inserted, deleted or flipped."""
    data = bytearray(text.encode())
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["insert", "delete", "flip"]))
        if kind == "insert":
            data[at:at] = bytes([draw(st.integers(0, 255))])
        elif at < len(data):
            if kind == "delete":
                del data[at]
            else:
                data[at] ^= 1 << draw(st.integers(0, 7))
    return bytes(data)


@st.composite
def mutated_spec(draw: st.DrawFn) -> tuple[str, bytes, bytes]:
    """(what was done, ops.yaml bytes, backward.yaml bytes): one file mutated."""
    base = draw(st.sampled_from(sorted(BASES)))
    files = list(BASES[base])
    which = draw(st.integers(0, 1))
    kind = draw(st.sampled_from(["structural", "tokens", "bytes"]))
    if kind == "structural":
        files[which] = draw(structural(files[which]))
    elif kind == "tokens":
        files[which] = draw(tokens(files[which]))
    else:
        files[which] = draw(raw_bytes(files[which]))
    data = [f if isinstance(f, bytes) else f.encode() for f in files]
    return f"{base}/{kind}/{['ops', 'backward'][which]}", data[0], data[1]


def _snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        for p in sorted(root.rglob("*"))
    }


def _prepare(root: Path, ops: bytes, backward: bytes, user_py: bool) -> tuple[Path, Path]:
    spec = root / "spec"
    spec.mkdir()
    (spec / "ops.yaml").write_bytes(ops)
    (spec / "backward.yaml").write_bytes(backward)
    (root / "sibling.py").write_text("print('not the generator's')\n")
    out = root / "out"
    out.mkdir()
    (out / "notes.txt").write_text("a user's notes\n")  # not Python: never the generator's business
    (out / "sub").mkdir()
    (out / "sub" / "mine.py").write_text("x = 1\n")
    if user_py:
        (out / "train.py").write_text("print(1)\n")
    return spec, out


def _check_run(root: Path, out: Path, before: dict[str, str], code: int, err: str, user_py: bool) -> None:
    assert code in (0, 1), f"exit {code}:\n{err}"
    assert "Traceback" not in err and "internal error" not in err, err
    after = _snapshot(root)
    outside = {k: v for k, v in after.items() if not k.startswith("out/") or k.startswith("out/sub")}
    assert outside == {k: v for k, v in before.items() if not k.startswith("out/") or k.startswith("out/sub")}
    for name in ("out/notes.txt", "out/train.py"):
        assert after.get(name) == before.get(name), f"{name} changed or vanished"
    if code == 1:
        lines = [line for line in err.splitlines() if line]
        assert lines and all(MESSAGE.match(line) for line in lines), err
        if user_py or "error(s)" in err:
            assert {k for k in after if k.startswith("out/")} == {k for k in before if k.startswith("out/")}
        return
    assert not user_py, "a folder with a user's .py file must be refused"
    written = {p.name for p in out.iterdir() if p.name.endswith(".py")}
    assert written == GENERATED
    for name in written:
        compile((out / name).read_text(encoding="utf-8"), name, "exec")


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=mutated_spec(), user_py=st.booleans())
def test_mutated_specs_never_crash_the_generator(case: tuple[str, bytes, bytes], user_py: bool) -> None:
    what, ops, backward = case
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        spec, out = _prepare(root, ops, backward, user_py)
        before = _snapshot(root)
        err = io.StringIO()
        start = time.process_time()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            # --check first: out holds no generated file, so never "current"; nothing written
            assert main(["--spec-dir", str(spec), "--out", str(out), "--check"]) == 1
            assert "Traceback" not in err.getvalue() and "internal error" not in err.getvalue()
            assert _snapshot(root) == before
            err.truncate(0)
            err.seek(0)
            code = main(["--spec-dir", str(spec), "--out", str(out)])
        elapsed = time.process_time() - start
        assert elapsed < TIME_LIMIT, f"{what}: {elapsed:.1f} CPU s"
        _check_run(root, out, before, code, err.getvalue(), user_py)
        text = err.getvalue()
        outcome = "generated" if code == 0 else "spec errors" if "error(s)" in text else "folder refused"
        event(f"{what.split('/')[1]} mutation: {outcome}")


@pytest.mark.parametrize("seed", range(2))
def test_the_command_in_a_subprocess(seed: int) -> None:
    """The real command on a few byte-mutated specs: exit status, stderr, timing."""
    ops = bytearray(BASES["small"][0].encode())
    for k in range(4):
        ops[(seed * 97 + k * 31) % len(ops)] ^= 0x80 >> ((seed + k) % 8)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        spec, out = _prepare(root, bytes(ops), BASES["small"][1].encode(), user_py=seed == 0)
        before = _snapshot(root)
        start = children_cpu()
        proc = subprocess.run(
            [sys.executable, "-m", "opgrad.codegen", "--spec-dir", str(spec), "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=120,  # wall clock: only a hang, however loaded the machine
        )
        assert children_cpu() - start < TIME_LIMIT + 5  # the interpreter's start-up included
        _check_run(root, out, before, proc.returncode, proc.stderr, user_py=seed == 0)
