"""How the plan's statements are spelled: one fixed shape, never chosen by line length.

A statement is `prefix + body + suffix`; its body is text or a bracketed group of items (a
call, tuple or list, which may nest). Every statement is written on one line, whatever its
length, except a group the plan marks `vertical` for what it is, never for its length (the
parameters of a `def` that takes more than one, `__all__`, a call with more than four
arguments): one item per line with a trailing comma, however short. A kernel call is
spelled by the `kernel_call` macro of templates/_function.jinja2 by the same rules (one
argument per line for more than two arrays). A reader sees the same shape for every op, a
longer argument name changes no layout, and `--check` depends on no installed formatter:
generated/ is excluded from `ruff format` and from the line-length check in
pyproject.toml (ruff's linter still checks it, imports included).
"""

from __future__ import annotations

from dataclasses import dataclass

INDENT = "    "


@dataclass(frozen=True)
class Group:
    """`head(item, item, ...)`: a call (`head` = callee), tuple or list (`head` = "")."""

    head: str
    items: tuple[Item, ...]
    open: str = "("
    close: str = ")"
    is_tuple: bool = False  # a one-element tuple keeps its comma: `(x,)`
    vertical: bool = False  # one item per line, each with a trailing comma


Item = str | Group


def call(head: str, *items: Item) -> Group:
    return Group(head, tuple(items))


def tuple_of(*items: Item) -> Group:
    return Group("", tuple(items), is_tuple=True)


def list_of(*items: Item) -> Group:
    return Group("", tuple(items), "[", "]")


def vertical(group: Group) -> Group:
    """`group` written one item per line (see the module docstring)."""
    return Group(group.head, group.items, group.open, group.close, group.is_tuple, vertical=True)


@dataclass(frozen=True)
class Stmt:
    """`prefix + body + suffix`."""

    prefix: str
    body: Item
    suffix: str = ""


def _spell(item: Item, indent: int) -> str:
    """`item` starting at column `indent` (its first line not padded)."""
    if isinstance(item, str):
        return item
    if not item.vertical:  # on this line; a vertical group inside opens and closes here too
        inner = ", ".join(_spell(i, indent) for i in item.items)
        if item.is_tuple and len(item.items) == 1:
            inner += ","
        return f"{item.head}{item.open}{inner}{item.close}"
    pad = " " * indent
    column = indent + len(INDENT)
    items = "".join(f"{' ' * column}{_spell(i, column)},\n" for i in item.items)
    return f"{item.head}{item.open}\n{items}{pad}{item.close}"


def stmt(statement: Stmt, indent: int) -> str:
    """`statement` for a template line that starts at column `indent`."""
    return f"{statement.prefix}{_spell(statement.body, indent)}{statement.suffix}"
