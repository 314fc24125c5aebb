"""Line breaking for the few statement shapes the generator emits.

Generated code must already be formatted (`ruff format --check generated/` passes), so
statements that can grow long are described as data -- a prefix, a bracketed group of
comma-separated items (which may nest), a suffix -- and laid out here with the rules
ruff (and black) apply to such lines:

1. the whole statement on one line if it fits;
2. otherwise split at the last bracket: the opening line, the contents indented one
   level, the closing bracket; a call's arguments go on one line if they fit, else (and
   always for a tuple or list literal) one item per line with a trailing comma; a lone
   argument is itself split the same way;
3. if not even the opening line fits, an assigned or returned value is wrapped in
   parentheses and laid out inside them;
4. a parenthesized `a or b or c` condition that does not fit puts one operand per line
   (or, where ruff's choice is not a matter of length alone, avoids the shape).

Templates call `stmt` and `cond` as filters; the plan decides what the code is, this
module only decides where lines break.
"""

from __future__ import annotations

from dataclasses import dataclass

LINE_LENGTH = 110  # [tool.ruff] line-length in pyproject.toml
INDENT = "    "


@dataclass(frozen=True)
class Group:
    """`head(item, item, ...)`: a call (`head` = callee), tuple or list (`head` = "")."""

    head: str
    items: tuple[Item, ...]
    open: str = "("
    close: str = ")"
    is_tuple: bool = False  # a one-element tuple keeps its comma: `(x,)`

    def flat(self) -> str:
        inner = ", ".join(flat(i) for i in self.items)
        if self.is_tuple and len(self.items) == 1:
            inner += ","
        return f"{self.head}{self.open}{inner}{self.close}"


Item = str | Group


def flat(item: Item) -> str:
    return item if isinstance(item, str) else item.flat()


def call(head: str, *items: Item) -> Group:
    return Group(head, tuple(items))


def tuple_of(*items: Item) -> Group:
    return Group("", tuple(items), is_tuple=True)


def list_of(*items: Item) -> Group:
    return Group("", tuple(items), "[", "]")


@dataclass(frozen=True)
class Stmt:
    """`prefix + body + suffix`, where `body` is where the line may break."""

    prefix: str
    body: Item
    suffix: str = ""

    def flat(self) -> str:
        return f"{self.prefix}{flat(self.body)}{self.suffix}"


@dataclass(frozen=True)
class Cond:
    """`if (a or b or c) and grad_enabled():` -- `operands` joined by `or`, then `tail`."""

    keyword: str
    operands: tuple[str, ...]
    tail: str


def fits(text: str, indent: int) -> bool:
    return indent + len(text) <= LINE_LENGTH


def _lines(prefix: str, body: Item, suffix: str, indent: int) -> list[str]:
    pad = " " * indent
    one = f"{prefix}{flat(body)}{suffix}"
    if fits(one, indent) or isinstance(body, str):
        return [pad + one]
    inner = indent + len(INDENT)
    if not fits(f"{prefix}{body.head}{body.open}", indent) and prefix.endswith(("= ", "return ")):
        # Not even the opening line fits: the right-hand side goes in parentheses.
        return [f"{pad}{prefix}("] + _lines("", body, "", inner) + [f"{pad}){suffix}"]
    lines = [f"{pad}{prefix}{body.head}{body.open}"]
    items = body.items
    if len(items) == 1 and prefix.startswith("def "):
        lines.append(f"{' ' * inner}{flat(items[0])},")  # a lone parameter keeps a comma
    elif len(items) == 1 and not body.is_tuple:
        lines += _lines("", items[0], "", inner)
    else:
        joined = ", ".join(flat(i) for i in items)
        # A call's arguments may share one line; a tuple or list literal that does not
        # fit always takes one item per line (ruff's "collection" rule).
        if body.head and fits(joined, inner):
            lines.append(" " * inner + joined)
        else:
            for item in items:
                lines += _lines("", item, ",", inner)
    lines.append(f"{pad}{body.close}{suffix}")
    return lines


def stmt(statement: Stmt, indent: int) -> str:
    """Lay out `statement` whose first line starts at column `indent` (the template's)."""
    lines = _lines(statement.prefix, statement.body, statement.suffix, indent)
    return "\n".join(lines)[indent:]


def cond(condition: Cond, indent: int) -> str:
    """Lay out an `if` whose operands are joined with `or`.

    Between "fits on one line" and "needs one operand per line" ruff's choice depends on
    more than lengths, so in that zone the operands are first gathered into a local
    (`_any_grad = a or b`, one short statement per line) and the `if` tests it.
    """
    ops = condition.operands
    keyword, tail = condition.keyword, condition.tail
    one = f"{keyword} {ops[0]}{tail}" if len(ops) == 1 else f"{keyword} ({' or '.join(ops)}){tail}"
    if fits(one, indent):
        return one
    pad = " " * indent
    inner = " " * (indent + len(INDENT))
    # ruff keeps `) and grad_enabled():` on the closing line only when the tail adds one
    # clause; a longer tail (`and out._data.dtype.kind == "f"`) goes the `_any_grad` way.
    if len(ops) > 1 and not fits(" or ".join(ops), indent + len(INDENT)) and tail.count(" and ") <= 1:
        body = [inner + ops[0]] + [f"{inner}or {op}" for op in ops[1:]]
        return "\n".join([f"{keyword} ("] + body + [pad + ")" + tail])
    lines: list[str] = []
    first = ops[0][1:-1] if ops[0].startswith("(") and ops[0].endswith(")") else ops[0]
    current = f"_any_grad = {first}"
    for op in ops[1:]:
        if fits(f"{current} or {op}", indent):
            current = f"{current} or {op}"
        else:
            lines.append(current)
            current = f"_any_grad = _any_grad or {op}"
    lines.append(current)
    lines.append(f"{keyword} _any_grad{tail}")
    return f"\n{pad}".join(lines)
