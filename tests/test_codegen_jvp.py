"""`jvp:` rules in ops.yaml: validated like composites (file:line errors, whitelist,
injection-proof), generated into jvp.py, and called by every forward function."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_codegen_validation import BACKWARD, OPS, assert_error, errors, line_of, write_spec

from opgrad.codegen import generate, load_spec

JVP_OPS = OPS.replace(
    "  backward: tanh_grad\n  doc: Hyperbolic tangent.",
    "  backward: tanh_grad\n  jvp:\n    out: EXPR\n  doc: Hyperbolic tangent.",
)


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("eval(x_t)", "`eval` is not an op in ops.yaml"),
        ("x_t.T", "attribute access are not allowed"),
        ("__import__('os').system('true')", "only calls to ops from ops.yaml by name"),
        ("mul(x_t, y_t)", "unknown name"),  # tanh has no y
        ("mul(x_t, 'x')", "only numbers, True, False and None"),
        ("import os", "is not a valid expression"),
        ("out_t * 2", "unknown name"),  # an output's own tangent is what the rule defines
    ],
)
def test_jvp_rejects(tmp_path: Path, expr: str, fragment: str) -> None:
    ops = JVP_OPS.replace("EXPR", f'"{expr}"')
    assert_error(
        errors(tmp_path, ops, BACKWARD), "ops.yaml", line_of(ops, "out: "), "tanh", "jvp: ", fragment
    )


def test_jvp_keys_must_be_the_differentiable_outputs(tmp_path: Path) -> None:
    ops = JVP_OPS.replace("    out: EXPR", "    result: x_t")
    assert_error(
        errors(tmp_path, ops, BACKWARD),
        "ops.yaml",
        line_of(ops, "jvp:"),
        "tanh",
        "jvp keys (result) must be the differentiable outputs (out)",
    )
    ops = JVP_OPS.replace("  jvp:\n    out: EXPR", "  jvp: x_t")
    assert_error(errors(tmp_path, ops, BACKWARD), "ops.yaml", line_of(ops, "jvp:"), "tanh", "'jvp' must be")


def test_explicit_and_derived_rules_are_generated(tmp_path: Path) -> None:
    ops = JVP_OPS.replace("EXPR", '"mul(x_t, 1 - out * out)"')
    spec = load_spec(write_spec(tmp_path, ops, BACKWARD))
    ((name, ((output, rule),)),) = spec.jvps
    assert (name, output, rule.python) == ("tanh", "out", "_ops.mul(x_t, 1 - out * out)")
    files = generate(write_spec(tmp_path, ops, BACKWARD), "fixture_pkg")
    jvp = files["jvp.py"]
    assert "def tanh(\n    x,\n    out,\n) -> None:" in jvp
    rule = "        out_t = _ops.mul(x_t, 1 - out * out)\n    finally:\n        resume_rules()\n"
    assert rule + "    set_tangent(out, out_t)" in jvp
    assert "    derive(_ops.mul, (x, y), (out,)" in jvp  # no jvp: the double-vjp trick
    assert "def argmax(" not in jvp  # no differentiable output: no rule, no call
    assert "    if FORWARD.active:\n        _jvp.tanh(x, out)\n    return out" in files["ops.py"]


def test_docs_list_every_explicit_rule() -> None:
    """docs/autograd.md names the ops with a `jvp:` rule; this keeps the list true."""
    root = Path(__file__).resolve().parents[1]
    spec = load_spec(root)
    text = " ".join((root / "docs" / "autograd.md").read_text().split())
    start = text.index("Ops with an explicit rule: ") + len("Ops with an explicit rule: ")
    listed = text[start : text.index(" (the list is checked", start)].split(", ")
    assert listed == [op.name for op in spec.ops if op.name in dict(spec.jvps)], (
        "update the list of ops with an explicit rule in docs/autograd.md (in ops.yaml order)"
    )
