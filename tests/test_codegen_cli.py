"""`python -m opgrad.codegen` on hostile specs and output folders: every case gives
`file:line` errors and a non-zero exit within seconds, with no traceback, and nothing is
written; the generator never overwrites or deletes a file it did not write.

Most cases call `main()` in-process; a few run the real command in a subprocess (exit
status, timing, no traceback on stderr).
"""

from __future__ import annotations

import ast
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from test_codegen_validation import BACKWARD, OPS

from opgrad.codegen import generate, naming
from opgrad.codegen.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "codegen"


def spec_dir(tmp_path: Path, ops: str | bytes = OPS, backward: str | bytes = BACKWARD) -> Path:
    spec = tmp_path / "spec"
    spec.mkdir(exist_ok=True)
    for name, text in (("ops.yaml", ops), ("backward.yaml", backward)):
        data = text.encode() if isinstance(text, str) else text
        (spec / name).write_bytes(data)
    return spec


def run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str, spec: Path | None = None
) -> tuple[int, str, Path]:
    """main() on the spec in tmp_path/spec writing to tmp_path/out: (status, stderr, out)."""
    spec = spec or tmp_path / "spec"
    out = tmp_path / "out"
    capsys.readouterr()
    code = main(["--spec-dir", str(spec), "--out", str(out), *extra])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    assert "internal error" not in captured.err
    return code, captured.err, out


def assert_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], *expected: str) -> str:
    """Exit 1, every expected `file:line: ...` fragment printed, nothing written."""
    code, err, out = run(tmp_path, capsys)
    assert code == 1, err
    for fragment in expected:
        assert fragment in err, f"{fragment!r} not in:\n{err}"
    assert "nothing was written" in err
    assert not out.exists()
    return err


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# --- empty specs -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ops", "backward"),
    [("", BACKWARD), ("", ""), ("# nothing yet\n", ""), ("[]\n", "[]\n")],
    ids=["empty ops, backward refers to it", "both empty", "comments only", "empty lists"],
)
def test_an_empty_ops_yaml_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ops: str, backward: str
) -> None:
    spec_dir(tmp_path, ops, backward)
    err = assert_refused(tmp_path, capsys, "ops.yaml:1: no ops: the file has no entries")
    assert "StopIteration" not in err


def test_an_empty_backward_yaml_is_fine_when_nothing_needs_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    only_argmax = OPS[OPS.index("- op: argmax") :]
    spec_dir(tmp_path, only_argmax, "")
    code, err, out = run(tmp_path, capsys)
    assert code == 0, err
    assert "def argmax(" in (out / "ops.py").read_text()


# --- an op that fails while its backward entries (a whole chain) remain --------------------


def _fixture_with(old: str, new: str) -> str:
    text = (FIXTURE / "ops.yaml").read_text()
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "fragment"),
    [
        ("args: (Tensor x, Tensor y)", "args: (Tensr x, Tensor y)", "argument 'x' has unknown type 'Tensr'"),
        ("args: (Tensor x, Tensor y)", "args: (Tensor x, Tensor x)", "argument 'x' appears twice"),
        ("op: fx_mul", "op: class", "op name 'class' is a Python keyword"),
    ],
    ids=["typo'd type", "argument twice", "op named class"],
)
def test_a_broken_op_with_a_chain_of_backward_entries_reports_the_real_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, fragment: str
) -> None:
    """fx_mul -> fx_mul_grad -> fx_mul_double_grad: the chain used to end in StopIteration."""
    ops = _fixture_with(old, new)
    spec_dir(tmp_path, ops, (FIXTURE / "backward.yaml").read_text())
    line = line_of(ops, new)
    err = assert_refused(tmp_path, capsys, f"ops.yaml:{line}: ", fragment)
    assert "StopIteration" not in err


def test_a_forward_chain_that_loops_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    loop = """
- backward_op: loop_a
  forward: loop_b (Tensor x) -> Tensor(x_grad)
  args: (Tensor x)
  output: Tensor(x_grad)
  backward: loop_b

- backward_op: loop_b
  forward: loop_a (Tensor x) -> Tensor(x_grad)
  args: (Tensor x)
  output: Tensor(x_grad)
  backward: loop_a
"""
    backward = BACKWARD + loop
    spec_dir(tmp_path, OPS, backward)
    assert_refused(
        tmp_path,
        capsys,
        f"backward.yaml:{line_of(backward, 'forward: loop_b')}: op 'loop_a': its `forward:` chain "
        "(loop_a -> loop_b -> loop_a) loops",
        f"backward.yaml:{line_of(backward, 'forward: loop_a')}: op 'loop_b'",
    )


# --- bytes and characters --------------------------------------------------------------------


def test_a_byte_that_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ops = OPS.encode().replace(b"doc: Hyperbolic tangent.", b"doc: Hyperbolic \xff tangent.")
    spec_dir(tmp_path, ops)
    line = line_of(OPS, "doc: Hyperbolic")
    assert_refused(tmp_path, capsys, f"ops.yaml:{line}: byte 0xff is not UTF-8")


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x1b", "\x7f", "\u200b\u2028"[1]])
def test_a_raw_control_character(tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str) -> None:
    ops = OPS.replace("doc: Hyperbolic tangent.", f"doc: Hyperbolic{char}tangent.")
    spec_dir(tmp_path, ops)
    line = line_of(OPS, "doc: Hyperbolic")
    assert_refused(tmp_path, capsys, f"ops.yaml:{line}: control character U+{ord(char):04X} is not allowed")


@pytest.mark.parametrize("escape", ["\\0", "\\x01", "\\e", "\\u2028", "\\x9b"])
def test_an_escaped_control_character_in_a_doc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], escape: str
) -> None:
    """A double-quoted YAML string can spell any character: the value is checked too."""
    ops = OPS.replace("doc: Hyperbolic tangent.", f'doc: "Hyperbolic{escape}tangent."')
    spec_dir(tmp_path, ops)
    line = line_of(OPS, "doc: Hyperbolic")
    assert_refused(tmp_path, capsys, f"ops.yaml:{line}: op 'tanh': 'doc' contains control character(s) U+")


def test_an_escaped_control_character_in_a_composite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backward = BACKWARD.replace(
        "  output: Tensor(x_grad)\n", '  output: Tensor(x_grad)\n  composite: "out_grad * (1 - out)\\0"\n', 1
    )
    spec_dir(tmp_path, OPS, backward)
    line = line_of(backward, "composite:")
    assert_refused(
        tmp_path,
        capsys,
        f"backward.yaml:{line}: op 'tanh_grad': 'composite' contains control character(s) U+0000",
    )


def test_a_doc_with_quotes_and_backslashes_is_escaped(tmp_path: Path) -> None:
    doc = 'Mean of x: reduction "mean" gives \\sum_i x_i / n, and a trailing quote "'
    arg = 'The input, "any" shape \\ dtype "'
    ops = OPS.replace("doc: Hyperbolic tangent.", f"doc: '{doc}'\n  arg_docs:\n    x: '{arg}'")
    files = generate(spec_dir(tmp_path, ops))
    tree = ast.parse(files["ops.py"])
    tanh = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "tanh")
    summary, args = ast.get_docstring(tanh, clean=False).split("\n\n")[:2]
    assert summary == doc
    assert args.splitlines()[1] == f"        x (Tensor | float | int): {arg}"


# --- YAML that would hang or crash the parser -------------------------------------------------

ALIAS_BOMB = """\
- op: tanh
  args: (Tensor x)
  output: Tensor(out)
  a: &a [x, x, x, x, x, x, x, x, x, x]
  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
  f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
  g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
  h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]
  i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]
  doc: *i
"""
NESTED = "- op: [" + "[" * 5000 + "]" * 5000 + "]\n"


def test_an_alias_bomb_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_dir(tmp_path, ALIAS_BOMB)
    assert_refused(tmp_path, capsys, "ops.yaml:5: not valid YAML: alias *a is not allowed")


def test_deeply_nested_flow_lists_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_dir(tmp_path, NESTED)
    assert_refused(tmp_path, capsys, "ops.yaml:1: not valid YAML: nested more than")


def test_an_op_name_with_a_trailing_newline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ops = OPS.replace("- op: tanh\n", '- op: "tanh\\n"\n')
    spec_dir(tmp_path, ops)
    err = assert_refused(
        tmp_path, capsys, "ops.yaml:1: op 'tanh\\n': op name 'tanh\\n' is not a valid identifier"
    )
    # every message stays on its own line
    assert all(line.startswith(("ops.yaml:", "backward.yaml:", "2 error(s)")) for line in err.splitlines())


@pytest.mark.parametrize(
    ("name", "ops"),
    [("alias bomb", ALIAS_BOMB), ("nested lists", NESTED)],
)
def test_the_command_reports_hostile_yaml_fast_without_a_traceback(
    tmp_path: Path, name: str, ops: str | bytes
) -> None:
    spec = spec_dir(tmp_path, ops)
    start = children_cpu()
    proc = subprocess.run(
        [sys.executable, "-m", "opgrad.codegen", "--spec-dir", str(spec), "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,  # wall clock: only a hang, however loaded the machine
    )
    elapsed = children_cpu() - start
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.startswith("ops.yaml:")
    assert not (tmp_path / "out").exists()
    assert elapsed < 10, f"{name}: {elapsed:.1f} CPU s"  # the interpreter's start-up included


def children_cpu() -> float:
    """CPU seconds (user + system) used so far by finished child processes: a bound on the
    work a command does that does not depend on how loaded the machine is."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# --- the output folder ------------------------------------------------------------------------


def test_out_is_an_existing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_dir(tmp_path)
    (tmp_path / "out").write_text("keep me\n")
    code, err, out = run(tmp_path, capsys)
    assert code == 1 and "exists and is not a folder" in err and "nothing was written" in err
    assert out.read_text() == "keep me\n"


def test_out_cannot_be_created(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = spec_dir(tmp_path)
    (tmp_path / "blocker").write_text("a file\n")
    capsys.readouterr()
    code = main(["--spec-dir", str(spec), "--out", str(tmp_path / "blocker" / "sub" / "out")])
    err = capsys.readouterr().err
    assert code == 1 and "cannot create" in err and "blocker is not a folder" in err
    assert "Traceback" not in err and (tmp_path / "blocker").read_text() == "a file\n"


def test_a_users_python_file_in_out_is_never_deleted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reported repro: `echo 'print(1)' > out/train.py; codegen --out out` deleted it."""
    spec_dir(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "train.py").write_text("print(1)\n")
    code, err, _ = run(tmp_path, capsys)
    assert code == 1
    assert "holds files the generator did not write (train.py)" in err and "nothing was written" in err
    assert sorted(p.name for p in out.iterdir()) == ["train.py"]
    assert (out / "train.py").read_text() == "print(1)\n"


def test_a_users_file_named_like_a_generated_one_is_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_dir(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "ops.py").write_text("# my own ops\n")
    code, err, _ = run(tmp_path, capsys)
    assert code == 1 and "(ops.py)" in err
    assert (out / "ops.py").read_text() == "# my own ops\n" and len(list(out.iterdir())) == 1


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_a_symlink_in_out_is_not_written_through(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_dir(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere.py"
    elsewhere.write_text(naming.header("ops") + "\n")  # even a generated-looking target
    (out / "ops.py").symlink_to(elsewhere)
    code, err, _ = run(tmp_path, capsys)
    assert code == 1 and "(ops.py)" in err
    assert elsewhere.read_text() == naming.header("ops") + "\n"


def test_generated_files_are_replaced_and_stale_ones_removed_others_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_dir(tmp_path)
    code, _, out = run(tmp_path, capsys)
    assert code == 0
    (out / "old_module.py").write_text(naming.header("old_module") + "\nx = 1\n")  # generated once
    (out / "notes.txt").write_text("not Python: not the generator's business\n")
    (out / "ops.py").write_text(naming.header("ops") + "\n# stale\n")
    code, err, _ = run(tmp_path, capsys)
    assert code == 0, err
    assert not (out / "old_module.py").exists()
    assert (out / "notes.txt").read_text().startswith("not Python")
    assert "# stale" not in (out / "ops.py").read_text()


def test_check_flags_stray_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_dir(tmp_path)
    code, _, out = run(tmp_path, capsys)
    assert code == 0
    (out / "train.py").write_bytes(b"print(1)\n\xff\n")  # not even UTF-8
    code, err, _ = run(tmp_path, capsys, "--check")
    assert code == 1
    assert "holds files the spec does not produce: train.py" in err
    assert (out / "train.py").read_bytes() == b"print(1)\n\xff\n"


def test_an_internal_error_is_one_line_and_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import opgrad.codegen.__main__ as cli

    def broken(spec_dir: Path) -> dict[str, str]:
        raise KeyError("boom")

    monkeypatch.setattr(cli, "generate", broken)
    spec = spec_dir(tmp_path)
    assert cli.main(["--spec-dir", str(spec), "--out", str(tmp_path / "out")]) == 3
    err = capsys.readouterr().err
    assert "internal error in opgrad.codegen: KeyError: 'boom'" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


# --- the reference page (docs/ops.md) --------------------------------------------------------


def test_out_never_writes_the_page_anywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--out DIR` redirects the package only: the page is not written, beside DIR or in the spec."""
    spec = spec_dir(tmp_path)
    code, err, out = run(tmp_path, capsys)
    assert code == 0, err
    assert not (spec / "docs").exists() and not (tmp_path / "docs").exists()
    assert all(p.suffix == ".py" for p in out.iterdir())


def test_the_default_output_writes_the_page_into_the_spec_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = spec_dir(tmp_path)
    assert main(["--spec-dir", str(spec)]) == 0
    page = (spec / naming.PAGE).read_text()
    assert page.splitlines()[0] == naming.PAGE_HEADER
    assert "### `tanh`" in page and "`opgrad.sum(x, axis=(), keepdim=False) -> Tensor`" in page
    assert main(["--spec-dir", str(spec), "--check"]) == 0
    (spec / naming.PAGE).write_text(page.replace("### `tanh`", "### `tan`"))
    capsys.readouterr()
    assert main(["--spec-dir", str(spec), "--check"]) == 1
    captured = capsys.readouterr()
    assert "-### `tan`\n+### `tanh`" in captured.out and "docs/ops.md is stale" in captured.err


def test_docs_puts_the_page_where_it_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_dir(tmp_path)
    page = tmp_path / "site" / "reference.md"
    code, err, _ = run(tmp_path, capsys, "--docs", str(page))
    assert code == 0, err
    assert page.read_text().startswith(naming.PAGE_HEADER + "\n")
    code, err, _ = run(tmp_path, capsys, "--docs", str(page), "--check")
    assert code == 0, err


@pytest.mark.parametrize(
    "content", ["# My notes on ops\n", naming.PAGE_HEADER + "x\n"], ids=["notes", "near-header"]
)
def test_a_users_page_is_never_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    """A docs/ops.md the generator did not write stops the run before anything is written."""
    spec = spec_dir(tmp_path)
    (spec / "docs").mkdir()
    (spec / naming.PAGE).write_text(content)
    capsys.readouterr()
    assert main(["--spec-dir", str(spec)]) == 1
    err = capsys.readouterr().err
    assert "docs/ops.md exists and the generator did not write it" in err and "nothing was written" in err
    assert (spec / naming.PAGE).read_text() == content
    assert not (spec / "generated").exists()


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_the_page_is_not_written_through_a_symlink(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = spec_dir(tmp_path)
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text(naming.PAGE_HEADER + "\n")  # even a generated-looking target
    (spec / "docs").mkdir()
    (spec / naming.PAGE).symlink_to(elsewhere)
    capsys.readouterr()
    assert main(["--spec-dir", str(spec)]) == 1
    assert elsewhere.read_text() == naming.PAGE_HEADER + "\n"
