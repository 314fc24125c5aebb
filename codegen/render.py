"""Rendering: the plan through the Jinja2 templates into the text of each generated file.

The environment is strict (`StrictUndefined`: a misspelled field is an error, not an
empty string) and whitespace-controlled (`trim_blocks`, `lstrip_blocks`). Filters only
spell statements (`layout.py`: one fixed shape, no line breaking). A module's imports
are exactly the names its rendered body uses, found by parsing the body with `ast`, so
no import is ever missing or unused.
"""

from __future__ import annotations

import ast
from pathlib import Path

import jinja2

from opgrad.codegen import layout, naming
from opgrad.codegen.plan import Module, Plan

TEMPLATES = Path(__file__).parent / "templates"

# Every import a generated module may need: the name it binds -> (section, module, member).
# The renderer keeps exactly those whose names the rendered code uses (found with `ast`).
# Sections follow isort: 0 __future__, 1 standard library, 2 third party, 3 first party.
RUNTIME_IMPORTS: dict[str, tuple[int, str, str]] = {
    "annotations": (0, "__future__", "annotations"),
    naming.BUILTINS_ALIAS: (1, "", f"builtins as {naming.BUILTINS_ALIAS}"),
    "Sequence": (1, "collections.abc", "Sequence"),
    "Any": (1, "typing", "Any"),
    "TYPE_CHECKING": (1, "typing", "TYPE_CHECKING"),
    "_np": (2, "", "numpy as _np"),
    "_accel": (3, "opgrad.runtime", "_accel"),
    "alias_arg": (3, "opgrad.runtime.arguments", "alias_arg"),
    "bool_arg": (3, "opgrad.runtime.arguments", "bool_arg"),
    "dtype_arg": (3, "opgrad.runtime.arguments", "dtype_arg"),
    "float_arg": (3, "opgrad.runtime.arguments", "float_arg"),
    "int_arg": (3, "opgrad.runtime.arguments", "int_arg"),
    "int_list_arg": (3, "opgrad.runtime.arguments", "int_list_arg"),
    "scalar_arg": (3, "opgrad.runtime.arguments", "scalar_arg"),
    "str_arg": (3, "opgrad.runtime.arguments", "str_arg"),
    "grad_enabled": (3, "opgrad.runtime.grad_mode", "grad_enabled"),
    "FLOAT_DTYPES": (3, "opgrad.runtime.promotion", "FLOAT_DTYPES"),
    "COMPLEX_DTYPES": (3, "opgrad.runtime.promotion", "COMPLEX_DTYPES"),
    "refuse_complex": (3, "opgrad.runtime.promotion", "refuse_complex"),
    "COMPLEX_OPS": (3, "opgrad.runtime.promotion", "COMPLEX_OPS"),
    "conj_if_complex": (3, "opgrad.runtime.promotion", "conj_if_complex"),
    "promote_args": (3, "opgrad.runtime.promotion", "promote_args"),
    "promote_float": (3, "opgrad.runtime.promotion", "promote_float"),
    "promote_list": (3, "opgrad.runtime.promotion", "promote_list"),
    "GradNode": (3, "opgrad.runtime.grad_node", "GradNode"),
    "TensorMeta": (3, "opgrad.runtime.grad_node", "TensorMeta"),
    "new_node": (3, "opgrad.runtime.grad_node", "new_node"),
    "new_node_of": (3, "opgrad.runtime.grad_node", "new_node_of"),
    "recorded": (3, "opgrad.runtime.grad_node", "recorded"),
    "set_history": (3, "opgrad.runtime.grad_node", "set_history"),
    "check_inplace": (3, "opgrad.runtime.inplace", "check_inplace"),
    "mark_view": (3, "opgrad.runtime.inplace", "mark_view"),
    "saved_before_write": (3, "opgrad.runtime.inplace", "saved_before_write"),
    "write_inplace": (3, "opgrad.runtime.inplace", "write_inplace"),
    "write_into": (3, "opgrad.runtime.inplace", "write_into"),
    "dispatch": (3, "opgrad.runtime.kernels.registry", "dispatch"),
    "kernel_error": (3, "opgrad.runtime.kernels.registry", "kernel_error"),
    "kernel_results_error": (3, "opgrad.runtime.kernels.registry", "kernel_results_error"),
    "kernel_table": (3, "opgrad.runtime.kernels.registry", "kernel_table"),
    "Tensor": (3, "opgrad.runtime.tensor", "Tensor"),
    "as_tensor_arg": (3, "opgrad.runtime.tensor", "as_tensor_arg"),
    "tensors_of": (3, "opgrad.runtime.tensor", "tensors_of"),
    "wrap": (3, "opgrad.runtime.tensor", "wrap"),
    "Saved": (3, "opgrad.runtime.tensor_wrapper", "Saved"),
    "TensorWrapper": (3, "opgrad.runtime.tensor_wrapper", "TensorWrapper"),
    "bump_versions": (3, "opgrad.runtime.tensor_wrapper", "bump_versions"),
    "unpack": (3, "opgrad.runtime.tensor_wrapper", "unpack"),
    "unpack_data": (3, "opgrad.runtime.tensor_wrapper", "unpack_data"),
    "FORWARD": (3, "opgrad.runtime.dual", "FORWARD"),
    "KERNEL_TANGENT": (3, "opgrad.runtime.dual", "KERNEL_TANGENT"),
    "derive": (3, "opgrad.runtime.dual", "derive"),
    "no_tangent_rule": (3, "opgrad.runtime.dual", "no_tangent_rule"),
    "pause_rules": (3, "opgrad.runtime.dual", "pause_rules"),
    "plain_tangent": (3, "opgrad.runtime.dual", "plain_tangent"),
    "resume_rules": (3, "opgrad.runtime.dual", "resume_rules"),
    "set_output_tangent": (3, "opgrad.runtime.dual", "set_output_tangent"),
    "set_tangent": (3, "opgrad.runtime.dual", "set_tangent"),
    "tangent_of": (3, "opgrad.runtime.dual", "tangent_of"),
    "tangents": (3, "opgrad.runtime.dual", "tangents"),
    "write_tangent": (3, "opgrad.runtime.dual", "write_tangent"),
}


def imports_for(package: str) -> dict[str, tuple[int, str, str]]:
    """The import table for generated modules that live in `package`.

    Generated modules import each other as modules (`from opgrad.generated import nodes
    as _nodes`) and look names up at call time, so they load in any order.
    """
    parent, _, leaf = package.rpartition(".")
    table = dict(RUNTIME_IMPORTS)
    alias = naming.GENERATED_ALIAS
    table[alias] = (3, parent, f"{leaf} as {alias}") if parent else (3, "", f"{leaf} as {alias}")
    for alias, module in (
        (naming.GRAD_OPS_ALIAS, naming.GRAD_OPS_MODULE),
        (naming.JVP_ALIAS, naming.JVP_MODULE),
        (naming.NODES_ALIAS, naming.NODES_MODULE),
        (naming.OPS_ALIAS, naming.OPS_MODULE),
    ):
        table[alias] = (3, package, f"{module} as {alias}")
    return table


def _docstring(lines: tuple[str, ...], indent: int) -> str:
    if len(lines) == 1:
        return f'"""{lines[0]}"""'
    pad = " " * indent
    body = "".join(f"\n{pad}{line}" if line else "\n" for line in lines[1:])  # no blank-line padding
    return f'"""{lines[0]}{body}\n{pad}"""'


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["stmt"] = layout.stmt
    env.filters["docstring"] = _docstring
    env.filters["indented"] = lambda item, column: f"{' ' * column}{item},\n"
    env.globals["builtins"] = naming.BUILTINS_ALIAS  # `import builtins as _builtins`
    env.tests["record"] = lambda value, kind: type(value).__name__ == kind  # a plan record
    return env


def _used_names(code: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name):
            names.add(node.id)
    return names


def _import_sections(names: set[str], table: dict[str, tuple[int, str, str]]) -> list[list[str]]:
    """isort-style import lines for `names`: sections, `import` before `from`, sorted."""
    sections: dict[int, dict[str, list[str]]] = {}
    for name in sorted(names):
        if name not in table:
            continue
        section, module, member = table[name]
        sections.setdefault(section, {}).setdefault(module, []).append(member)
    out: list[list[str]] = []
    for section in sorted(sections):
        modules = sections[section]
        plain = sorted(f"import {m}" for m in modules.get("", []))
        froms: list[str] = []
        for module in sorted(m for m in modules if m):
            members = modules[module]
            aliased = sorted(m for m in members if " as " in m)
            simple = sorted((m for m in members if " as " not in m), key=_member_order)
            if simple:
                if len(simple) == 1:
                    froms.append(f"from {module} import {simple[0]}")
                else:  # one per line, with the trailing comma that keeps isort from joining them
                    froms.append(f"from {module} import (\n" + "".join(f"    {m},\n" for m in simple) + ")")
            froms += [f"from {module} import {m}" for m in aliased]
        out.append(plain + froms)
    return out


def _member_order(member: str) -> tuple[int, str]:
    """isort's order-by-type: CONSTANTS, then Classes, then functions and variables."""
    if member.isupper():
        return (0, member)
    if member[:1].isupper():
        return (1, member)
    return (2, member)


def render_module(env: jinja2.Environment, module: Module, package: str) -> str:
    table = imports_for(package)
    body = env.get_template(module.template).render(module=module).strip("\n")
    used = _used_names(body) | {"annotations"} if body else set()
    runtime_names = used - module.type_only
    # Every kernel table the body reads is defined once at module level, sorted.
    kernel_tables = sorted(
        f'{name} = kernel_table("{name.removeprefix(naming.KERNEL_TABLE_PREFIX)}")'
        for name in used
        if name.startswith(naming.KERNEL_TABLE_PREFIX)
    )
    if kernel_tables:
        runtime_names.add("kernel_table")
    type_imports = _import_sections(used & module.type_only, table)
    if type_imports:
        runtime_names.add("TYPE_CHECKING")
    imports = _import_sections(runtime_names, table)
    text = env.get_template("_module.jinja2").render(
        header=naming.header(module.file.removesuffix(".py")),
        title=module.title,
        imports=imports,
        type_imports=type_imports,
        kernel_tables=kernel_tables,
        body=body,
    )
    return text.rstrip("\n") + "\n"


def render(plan: Plan) -> dict[str, str]:
    """File name -> text, for every generated file."""
    env = environment()
    return {module.file: render_module(env, module, plan.package) for module in plan.modules}
