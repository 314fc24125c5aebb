"""`composite:` expressions: checked with `ast`, re-emitted by a small printer.

A composite gradient is an expression over the backward op's arguments, the forward
op's attributes, numbers (and `True`/`False`/`None`, lists of them for `int[]`
arguments), arithmetic and comparison operators, and calls to ops from ops.yaml. The
expression is parsed with `ast.parse(mode="eval")` and every node is checked against
that whitelist; nothing is ever evaluated. The printer writes the checked tree back as
Python with calls qualified by the ops module (`sum(x)` -> `_ops.sum(x)`), formatted the
way `ruff format` would (powers of simple operands hug: `x**2`).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from opgrad.codegen.signature import Arg

_BINOPS: dict[type, tuple[str, int]] = {
    ast.Add: ("+", 3),
    ast.Sub: ("-", 3),
    ast.Mult: ("*", 4),
    ast.Div: ("/", 4),
    ast.FloorDiv: ("//", 4),
    ast.Mod: ("%", 4),
    ast.MatMult: ("@", 4),
    ast.Pow: ("**", 6),
}
_UNARY: dict[type, str] = {ast.USub: "-", ast.UAdd: "+"}
_COMPARE: dict[type, str] = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
}
_PREC_COMPARE = 1
_PREC_UNARY = 5
_PREC_ATOM = 9

_WHAT = {
    ast.Attribute: "attribute access",
    ast.Subscript: "subscripts",
    ast.Lambda: "lambdas",
    ast.IfExp: "conditional expressions",
    ast.BoolOp: "`and`/`or`",
    ast.NamedExpr: "assignment expressions",
    ast.ListComp: "comprehensions",
    ast.GeneratorExp: "comprehensions",
    ast.SetComp: "comprehensions",
    ast.DictComp: "comprehensions",
    ast.Dict: "dict literals",
    ast.Set: "set literals",
    ast.Starred: "starred arguments",
    ast.JoinedStr: "f-strings",
    ast.Await: "await",
    ast.Yield: "yield",
}


@dataclass(frozen=True)
class Composite:
    """A checked expression: the Python the generator emits and the names it reads."""

    python: str
    names: tuple[str, ...]


def check_composite(
    source: str, names: set[str], ops: Mapping[str, tuple[Arg, ...]], ops_alias: str
) -> tuple[Composite | None, list[str]]:
    """Check `source`; returns (the composite, []) or (None, [problem, ...])."""
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        return None, [f"composite `{source}` is not a valid expression: {exc.msg}"]
    checker = _Checker(source, names, ops)
    checker.visit(tree.body)
    if checker.problems:
        return None, checker.problems
    used = tuple(dict.fromkeys(checker.used))
    return Composite(_Printer(ops_alias).expr(tree.body), used), []


class _Checker:
    def __init__(self, source: str, names: set[str], ops: Mapping[str, tuple[Arg, ...]]) -> None:
        self.source = source
        self.names = names
        self.ops = ops
        self.problems: list[str] = []
        self.used: list[str] = []

    def bad(self, node: ast.AST, why: str) -> None:
        segment = ast.get_source_segment(self.source, node) or type(node).__name__
        self.problems.append(f"composite `{self.source}`: `{segment}`: {why}")

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.BinOp):
            if type(node.op) not in _BINOPS:
                self.bad(node, "only the operators + - * / // % @ ** and comparisons are allowed")
            self.visit(node.left)
            self.visit(node.right)
        elif isinstance(node, ast.UnaryOp):
            if type(node.op) not in _UNARY:
                self.bad(node, "only unary - and + are allowed")
            self.visit(node.operand)
        elif isinstance(node, ast.Compare):
            if len(node.ops) != 1 or type(node.ops[0]) not in _COMPARE:
                self.bad(node, "only single comparisons with < <= > >= == != are allowed")
            self.visit(node.left)
            for item in node.comparators:
                self.visit(item)
        elif isinstance(node, ast.Name):
            if node.id not in self.names:
                if node.id in self.ops:
                    self.bad(node, f"op `{node.id}` can only be called, not used as a value")
                else:
                    self.bad(
                        node,
                        f"unknown name; use the backward args or forward attributes ({_list(self.names)})",
                    )
            else:
                self.used.append(node.id)
        elif isinstance(node, ast.Constant):
            if not (node.value is None or isinstance(node.value, bool | int | float)):
                self.bad(node, "only numbers, True, False and None are allowed as constants")
        elif isinstance(node, ast.List | ast.Tuple):
            for item in node.elts:
                self.visit(item)
        elif isinstance(node, ast.Call):
            self.visit_call(node)
        else:
            what = _WHAT.get(type(node), f"`{type(node).__name__}` expressions")
            self.bad(node, f"{what} are not allowed in a composite expression")

    def visit_call(self, node: ast.Call) -> None:
        if not isinstance(node.func, ast.Name):
            self.bad(node.func, "only calls to ops from ops.yaml by name (`sum(x)`) are allowed")
            return
        name = node.func.id
        params = self.ops.get(name)
        if params is None:
            self.bad(node.func, f"`{name}` is not an op in ops.yaml; only calls to ops are allowed")
            return
        param_names = [p.name for p in params]
        if len(node.args) > len(params):
            self.bad(node, f"{name} takes at most {len(params)} arguments, got {len(node.args)}")
        given = set(param_names[: len(node.args)])
        for kw in node.keywords:
            if kw.arg is None:
                self.bad(node, "`**` arguments are not allowed")
            elif kw.arg not in param_names:
                self.bad(node, f"{name} has no argument {kw.arg!r} (arguments: {', '.join(param_names)})")
            elif kw.arg in given:
                self.bad(node, f"{name} gets argument {kw.arg!r} twice")
            else:
                given.add(kw.arg)
        missing = [p.name for p in params if p.default is None and p.name not in given]
        if missing and len(node.args) <= len(params):
            self.bad(node, f"{name} is missing argument(s) {', '.join(missing)}")
        for arg in node.args:
            self.visit(arg)
        for kw in node.keywords:
            self.visit(kw.value)


def _list(names: set[str]) -> str:
    return ", ".join(sorted(names)) or "none"


class _Printer:
    """Writes a checked expression back out in ruff-format style."""

    def __init__(self, ops_alias: str) -> None:
        self.ops_alias = ops_alias

    def expr(self, node: ast.AST) -> str:
        return self._emit(node)[0]

    def _emit(self, node: ast.AST) -> tuple[str, int]:
        if isinstance(node, ast.BinOp):
            symbol, prec = _BINOPS[type(node.op)]
            left, lp = self._emit(node.left)
            right, rp = self._emit(node.right)
            if node.op.__class__ is ast.Pow:
                left = left if lp > prec else f"({left})"
                right = right if rp >= _PREC_UNARY else f"({right})"
                if _simple_power_operand(node.left, left=True) and _simple_power_operand(node.right):
                    return f"{left}**{right}", prec
                return f"{left} ** {right}", prec
            left = left if lp >= prec else f"({left})"
            right = right if rp > prec else f"({right})"
            return f"{left} {symbol} {right}", prec
        if isinstance(node, ast.UnaryOp):
            operand, op_prec = self._emit(node.operand)
            # ruff writes -(x**2) for -x ** 2: a power under a unary sign gets parentheses.
            operand = (
                operand
                if op_prec >= _PREC_UNARY and not isinstance(node.operand, ast.BinOp)
                else f"({operand})"
            )
            return f"{_UNARY[type(node.op)]}{operand}", _PREC_UNARY
        if isinstance(node, ast.Compare):
            left, lp = self._emit(node.left)
            right, rp = self._emit(node.comparators[0])
            left = left if lp > _PREC_COMPARE else f"({left})"
            right = right if rp > _PREC_COMPARE else f"({right})"
            return f"{left} {_COMPARE[type(node.ops[0])]} {right}", _PREC_COMPARE
        if isinstance(node, ast.Name):
            return node.id, _PREC_ATOM
        if isinstance(node, ast.Constant):
            return repr(node.value), _PREC_ATOM
        if isinstance(node, ast.List):
            return "[" + ", ".join(self.expr(e) for e in node.elts) + "]", _PREC_ATOM
        if isinstance(node, ast.Tuple):
            items = [self.expr(e) for e in node.elts]
            return ("(" + items[0] + ",)" if len(items) == 1 else "(" + ", ".join(items) + ")"), _PREC_ATOM
        if isinstance(node, ast.Call):
            assert isinstance(node.func, ast.Name)
            parts = [self.expr(a) for a in node.args]
            parts += [f"{kw.arg}={self.expr(kw.value)}" for kw in node.keywords]
            return f"{self.ops_alias}.{node.func.id}({', '.join(parts)})", _PREC_ATOM
        raise AssertionError(f"unchecked node {type(node).__name__}")  # pragma: no cover


def _simple_power_operand(node: ast.AST, left: bool = False) -> bool:
    """ruff hugs `**` when both operands are names or numbers (`x**2`, `x**-1`); a
    unary left operand is parenthesized and so is not simple (`(-x) ** 2`)."""
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd) and not left:
        return isinstance(node.operand, ast.Name | ast.Constant) and _simple_power_operand(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and not left:
        return _simple_power_operand(node.left, left=True) and _simple_power_operand(node.right)
    return False
