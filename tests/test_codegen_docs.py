"""The generated documentation: docstrings of every op, in-place form, Tensor method and
operator (Args matching the signature, Returns, Gradient), the `arg_docs:` of the real spec,
and docs/ops.md. The lists come from the spec, never from a hand-written list."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import opgrad as og
from opgrad.codegen import docs, load_spec, naming, reference_page
from opgrad.codegen.model import OpSpec
from opgrad.codegen.plan import op_bindings

ROOT = Path(__file__).resolve().parents[1]
SPEC = load_spec(ROOT)


def sections(doc: str | None) -> dict[str, list[str]]:
    """A docstring's sections (`Args`, `Returns`, `Gradient`): their entries, continuation
    lines joined."""
    assert doc, "no docstring"
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in inspect.cleandoc(doc).splitlines():
        if re.fullmatch(r"[A-Z]\w+:", line):
            current = out.setdefault(line[:-1], [])
        elif current is not None and line.startswith("        "):
            current[-1] += " " + line.strip()
        elif current is not None and line.startswith("    "):
            current.append(line.strip())
    return out


def listed_args(doc: str | None) -> list[str]:
    return [re.match(r"(\w+) \(", item)[1] for item in sections(doc).get("Args", [])]  # type: ignore[index]


def parameters(function: object, skip_self: bool = False) -> list[str]:
    names = list(inspect.signature(function).parameters)  # type: ignore[arg-type]
    return names[1:] if skip_self else names


@pytest.mark.parametrize("op", SPEC.ops, ids=lambda op: op.name)
def test_every_op_function_documents_its_signature(op: OpSpec) -> None:
    function = getattr(og, op.name)
    found = sections(function.__doc__)
    aliases = [alias for _, alias in op.aliases]  # `alias:` parameters trail the signature
    assert listed_args(function.__doc__) == parameters(function) == [a.name for a in op.args] + aliases
    assert [m[1] for item in found["Returns"] if (m := re.match(r"(\w+) \(", item))] == [
        o.name for o in op.visible_outputs
    ]
    assert inspect.cleandoc(function.__doc__).startswith(op.doc.split(" ")[0])
    flows, none = docs.gradient_inputs(op, SPEC)
    gradient = " ".join(found["Gradient"])
    if op.backward is None:
        assert gradient.startswith("None: the outputs are not differentiable.")
    else:
        assert f"Flows to {', '.join(flows)}." in gradient
        assert (f"No gradient for: {', '.join(none)}." in gradient) == bool(none)
    for arg in op.args:  # the default, as the signature has it
        default = inspect.signature(function).parameters[arg.name].default
        item = next(i for i in found["Args"] if i.startswith(f"{arg.name} ("))
        assert (f", default {default!r}" in item or f'default "{default}"' in item) == (
            default is not inspect.Parameter.empty
        ), item


@pytest.mark.parametrize("op", [op for op in SPEC.ops if op.inplace], ids=lambda op: op.name)
def test_every_inplace_function_documents_its_signature(op: OpSpec) -> None:
    function = getattr(og, op.inplace_name)
    assert listed_args(function.__doc__) == parameters(function)
    assert "In place: writes the result into" in " ".join(function.__doc__.split())
    assert sections(function.__doc__)["Returns"][0].startswith(f"{op.inplace[0]} (Tensor): Written in place")


BOUND = [(name, op) for op in SPEC.ops for name in op_bindings(op)]


@pytest.mark.parametrize(("name", "op"), BOUND, ids=[name for name, _ in BOUND])
def test_every_tensor_method_and_operator_is_documented(name: str, op: OpSpec) -> None:
    method = getattr(og.Tensor, name)
    assert method.__doc__, f"Tensor.{name} has no docstring"
    assert listed_args(method.__doc__) == parameters(method, skip_self=True)
    called = op.inplace_name if name in op.inplace_bindings else op.name
    assert f"Calls `opgrad.{called}(" in " ".join(method.__doc__.split())
    assert "Gradient" in sections(method.__doc__)


def test_the_docstrings_of_a_method_an_operator_and_a_reflected_one() -> None:
    assert "Calls `opgrad.add(self, other)`: self is x, other is y." in " ".join(
        og.Tensor.__add__.__doc__.split()
    )
    assert "Calls `opgrad.add(other, self)`: self is y, other is x." in " ".join(
        og.Tensor.__radd__.__doc__.split()
    )
    assert sections(og.Tensor.__radd__.__doc__)["Args"] == [
        "other (Tensor | float | int): The first operand; broadcasts against y."
    ]
    assert sections(og.Tensor.__neg__.__doc__).get("Args") is None  # nothing but self
    where = sections(og.where.__doc__)["Gradient"]
    assert where == ["Flows to x, y. No gradient for: condition."]


@pytest.mark.parametrize("op", SPEC.ops, ids=lambda op: op.name)
def test_every_argument_and_output_of_the_spec_is_described(op: OpSpec) -> None:
    """ops.yaml describes each op's arguments and results (`arg_docs:`): add the missing ones there."""
    described = {name for name, _, _ in op.arg_docs}
    wanted = [a.name for a in op.args] + [o.name for o in op.visible_outputs]
    missing = [name for name in wanted if name not in described]
    assert not missing, f"ops.yaml: op {op.name!r} needs arg_docs for {', '.join(missing)}"


def test_the_reference_page_is_current_and_lists_every_op_by_family() -> None:
    page = (ROOT / naming.PAGE).read_text()
    assert page == reference_page(ROOT), "docs/ops.md is stale: run `python -m opgrad.codegen`"
    headings = re.findall(r"^(##+) (.+)$", page, re.M)
    families = list(dict.fromkeys(op.family for op in SPEC.ops))
    assert [title for level, title in headings if level == "##"] == families
    expected = []
    for family in families:
        expected += [f"`{op.name}`" for op in SPEC.ops if op.family == family]
    assert [title for level, title in headings if level == "###"] == expected


def test_the_page_names_each_orders_kernel_or_composite() -> None:
    page = reference_page(ROOT)
    tanh = page[page.index("### `tanh`") :].split("\n### ")[0]
    assert "1st order (`tanh_grad`): kernel `tanh_grad`" in tanh
    assert "2nd order (`tanh_double_grad`): kernel `tanh_double_grad`; with `create_graph`" in tanh
    assert "higher order" in tanh
    assert "forms: `Tensor.tanh`, in place `opgrad.tanh_`, `Tensor.tanh_`" in tanh
    sigmoid = page[page.index("### `sigmoid`") :].split("\n### ")[0]
    assert "2nd order (`sigmoid_double_grad`): composite; higher orders" in sigmoid


def test_readme_links_the_reference_page() -> None:
    assert "(docs/ops.md)" in (ROOT / "README.md").read_text()


def test_the_page_has_no_code_block_ruff_format_would_rewrite() -> None:
    """`ruff format .` reformats ```python blocks in Markdown; the page must keep its bytes."""
    page = reference_page(ROOT)
    assert "```python" not in page and "    ```\n" in page


def test_the_reference_says_where_each_forward_mode_rule_comes_from() -> None:
    """Each op's entry in docs/ops.md says whether its jvp rule is explicit (and shows it) or
    derived from its backward (issue: the op reference names the forward rule's origin)."""
    page = (ROOT / "docs" / "ops.md").read_text()
    for op in SPEC.ops:
        entry = page.split(f"### `{op.name}`\n", 1)[1].split("\n### ", 1)[0]
        if op.jvp:
            assert "- forward mode: explicit (`jvp:` in ops.yaml):" in entry, op.name
            assert all(f"{source.output}_t = " in entry for source in op.jvp), op.name
        elif op.backward is None:
            assert "- forward mode: none" in entry, op.name
        else:
            assert "- forward mode: derived from the backward (" in entry, op.name
