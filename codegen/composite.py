"""`composite:` expressions: checked with `ast`, re-emitted by a small printer and laid out.

A composite gradient is a list of steps (`name = expr`) ending with an expression (most
are that expression alone). An expression may use the backward op's arguments, the
forward op's attributes, earlier steps, numbers (and `True`/`False`/`None`, lists of them
for `int[]` arguments), arithmetic and comparison operators, calls to ops from ops.yaml
or to backward ops that have a grad op function (`Callee`), and conditional expressions
whose test reads a flag (`Flags`); a call to one that returns several outputs must pick
one with a constant index (`f(x)[0]`). Each step is parsed with
`ast.parse` and every node is checked against that whitelist; nothing is ever evaluated.

The printer writes the checked tree back as Python with calls qualified by their module
(`sum(x)` -> `_ops.sum(x)`), spaced the way `ruff format` spaces it (powers of simple
operands hug: `x**2`); each step becomes one statement on one line, as the YAML wrote it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass

from opgrad.codegen.layout import Stmt
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
_PREC_IFEXP = 0
_PREC_COMPARE = 1
_PREC_UNARY = 5
_PREC_ATOM = 9

_WHAT = {
    ast.Attribute: "attribute access",
    ast.Subscript: "subscripts",
    ast.Lambda: "lambdas",
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
class Callee:
    """Something a composite may call: its qualified name in generated code, parameters
    and number of outputs (a call to one with several returns a tuple, to be indexed; one
    returning a Tensor[] may be indexed too)."""

    qualified: str
    params: tuple[Arg, ...]
    outputs: int = 1
    is_list: bool = False  # returns a Tensor[] (split): indexed by any constant position


@dataclass(frozen=True)
class Composite:
    """A checked composite for one output: named steps, then the gradient's expression."""

    steps: tuple[tuple[str, ast.expr], ...]
    result: ast.expr
    names: tuple[str, ...]  # arguments and attributes it reads
    callees: Mapping[str, Callee]
    tested: tuple[str, ...] = ()  # those a conditional only tests (`w is None` needs no data)

    @property
    def python(self) -> str:
        """The gradient's expression on one line (steps not included)."""
        return _Printer(self.callees).expr(self.result)

    def statements(self, target: str) -> list[Stmt]:
        """Every step, then `target = <expression>`: one statement each, as written."""
        printer = _Printer(self.callees)
        return [Stmt(f"{name} = ", printer.expr(expr)) for name, expr in [*self.steps, (target, self.result)]]


# What the test of a conditional expression (`a if test else b`) may be, by the kind of
# the name it reads: a bool attribute (`approximate`, `not approximate`), an optional
# argument or attribute against None (`weight is None`, `weight is not None`), or a str
# attribute against a string (`reduction == "mean"`, `!=`). Only the chosen branch runs.
Flags = Mapping[str, str]  # name -> "bool" | "optional" | "str" | "tensor" (is_complex(x))


def check_composite(
    steps: Sequence[str],
    names: set[str],
    callees: Mapping[str, Callee],
    taken: Set[str] = frozenset(),
    flags: Flags | None = None,
) -> tuple[Composite | None, list[tuple[int, str]]]:
    """Check the steps of one output's composite.

    `names` are the readable values (arguments, attributes, steps of earlier outputs);
    `taken` are names a step may not take (outputs, reserved names); `flags` the names a
    conditional expression may test, by kind (see `Flags`). Returns (the composite, []) or
    (None, [(step index, problem), ...]).
    """
    problems: list[tuple[int, str]] = []
    known = set(names)
    parsed: list[tuple[str, ast.expr]] = []
    used: list[str] = []
    tested: list[str] = []
    result: ast.expr | None = None
    for i, source in enumerate(steps):
        target, expr, why = _parse_step(source, last=i == len(steps) - 1)
        if why is not None:
            problems.append((i, why))
            known.update(step_targets([source]))  # later steps may use it: no cascade
            continue
        assert expr is not None
        if _depth(expr) > MAX_DEPTH:
            problems.append((i, f"composite `{_clip(source)}` is nested more than {MAX_DEPTH} levels deep"))
            known.update([target] if target else [])
            continue
        checker = _Checker(source, known, callees, flags or {})
        checker.visit(expr)
        problems += [(i, p) for p in checker.problems]
        used += [n for n in checker.used if n in names]
        tested += [n for n in checker.tested if n in names]
        if target is None:
            result = expr
            continue
        clash = _step_name_problem(target, known, callees, taken)
        if clash:
            problems.append((i, f"step `{source}`: {clash}"))
        known.add(target)
        parsed.append((target, expr))
    if problems or result is None:
        return None, problems
    return (
        Composite(tuple(parsed), result, tuple(dict.fromkeys(used)), callees, tuple(dict.fromkeys(tested))),
        [],
    )


_TARGET = re.compile(r"\s*([A-Za-z_]\w*)\s*=(?!=)")


def step_targets(steps: Sequence[str]) -> list[str]:
    """The names steps assign (`t = ...`), read even from a step that does not parse, so
    that one bad step is reported once, not again as an unknown name in every later one."""
    return [m[1] for s in steps if (m := _TARGET.match(s)) is not None]


# Deeper expressions are refused: the checker and the printer recurse over the tree.
MAX_DEPTH = 100


def _depth(tree: ast.AST) -> int:
    """The depth of `tree`, found without recursion."""
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack += [(child, depth + 1) for child in ast.iter_child_nodes(node)]
    return deepest


def _clip(source: str, limit: int = 60) -> str:
    return source if len(source) <= limit else source[: limit - 3] + "..."


def _parse(source: str, mode: str) -> ast.AST:
    """`ast.parse`, with the parser's own limits reported as a SyntaxError."""
    try:
        return ast.parse(source, mode=mode)
    except (RecursionError, MemoryError):  # the parser's stack, not the machine's memory
        raise SyntaxError(f"nested too deeply (more than {MAX_DEPTH} levels)") from None


def _parse_step(source: str, last: bool) -> tuple[str | None, ast.expr | None, str | None]:
    """(step name, or None for the final expression; the expression; a problem or None)."""
    if not last:
        try:
            body = _parse(source, "exec").body  # type: ignore[attr-defined]
        except SyntaxError as exc:
            return None, None, f"step `{_clip(source)}` is not `name = expression`: {exc.msg}"
        if (
            len(body) != 1
            or not isinstance(body[0], ast.Assign)
            or len(body[0].targets) != 1
            or not isinstance(body[0].targets[0], ast.Name)
        ):
            return None, None, f"step `{source}` is not `name = expression` (one name, one expression)"
        return body[0].targets[0].id, body[0].value, None
    try:
        tree = _parse(source, "eval")
    except SyntaxError as exc:
        try:
            assigns = isinstance(_parse(source, "exec").body[0], ast.Assign)  # type: ignore[attr-defined]
        except SyntaxError:
            assigns = False
        if assigns:
            why = "must be the gradient's expression, not an assignment"
            return None, None, f"the last step `{_clip(source)}` {why}"
        return None, None, f"composite `{_clip(source)}` is not a valid expression: {exc.msg}"
    return None, tree.body, None  # type: ignore[attr-defined]


def _step_name_problem(name: str, known: set[str], callees: Mapping[str, Callee], taken: Set[str]) -> str:
    if name.startswith("_"):
        return f"step name {name!r} starts with an underscore (reserved for generated code)"
    if name in known:
        return f"step name {name!r} is already an argument, attribute or earlier step"
    if name in callees:
        return f"step name {name!r} is the name of an op"
    if name in taken:
        return f"step name {name!r} is reserved (an output's name, or a name the generated code uses)"
    return ""


class _Checker:
    def __init__(self, source: str, names: set[str], callees: Mapping[str, Callee], flags: Flags) -> None:
        self.source = source
        self.names = names
        self.flags = flags
        self.ops = callees
        self.problems: list[str] = []
        self.used: list[str] = []
        self.tested: list[str] = []  # read by a conditional's test only

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
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call):
            self.visit_indexed_call(node, node.value)
        elif isinstance(node, ast.IfExp):
            self.visit_test(node.test)
            self.visit(node.body)
            self.visit(node.orelse)
        else:
            what = _WHAT.get(type(node), f"`{type(node).__name__}` expressions")
            if isinstance(node, ast.Subscript):
                what = "subscripts other than picking an output of a call (`f(x)[0]`)"
            self.bad(node, f"{what} are not allowed in a composite expression")

    def visit_test(self, test: ast.expr) -> None:
        """The test of `a if test else b`: see `Flags`."""
        name, kind = None, None
        if (
            isinstance(test, ast.Call)
            and isinstance(test.func, ast.Name)
            and test.func.id == "is_complex"
            and len(test.args) == 1
            and not test.keywords
            and isinstance(test.args[0], ast.Name)
            and self.flags.get(test.args[0].id) == "tensor"
        ):
            self.used.append(test.args[0].id)  # a tensor: `x._data.dtype.kind == "c"` reads it
            return
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            name, kind = test.operand, "bool"
        elif isinstance(test, ast.Compare) and len(test.ops) == 1:
            op, right = test.ops[0], test.comparators[0]
            if isinstance(op, ast.Is | ast.IsNot) and isinstance(right, ast.Constant) and right.value is None:
                name, kind = test.left, "optional"
            elif (
                isinstance(op, ast.Eq | ast.NotEq)
                and isinstance(right, ast.Constant)
                and isinstance(right.value, str)
                and right.value.isidentifier()
            ):
                name, kind = test.left, "str"
        else:
            name, kind = test, "bool"
        if isinstance(name, ast.Name) and self.flags.get(name.id) == kind:
            self.tested.append(name.id)
            return
        self.bad(
            test,
            "the test of a conditional expression must be a bool attribute (`flag`, `not flag`), "
            "an optional argument against None (`w is None`, `w is not None`), a str attribute "
            'against a word (`reduction == "mean"`) or whether a tensor is complex (`is_complex(x)`); '
            "testable here: "
            + (", ".join(f"{n} ({k})" for n, k in sorted(self.flags.items()) if k != "tensor") or "none")
            + "; is_complex of "
            + (", ".join(n for n, k in sorted(self.flags.items()) if k == "tensor") or "no tensor"),
        )

    def visit_indexed_call(self, node: ast.Subscript, call: ast.Call) -> None:
        """`f(...)[i]`: output i of a callee that returns several."""
        callee = self.ops.get(call.func.id) if isinstance(call.func, ast.Name) else None
        index = node.slice
        if callee is not None and callee.is_list:
            if not (isinstance(index, ast.Constant) and index.value.__class__ is int and index.value >= 0):
                self.bad(node, f"the index into {call.func.id}'s list must be a number >= 0")  # type: ignore[attr-defined]
        elif callee is not None:
            if callee.outputs < 2:
                self.bad(node, f"{call.func.id} returns one output; drop the `[...]`")  # type: ignore[attr-defined]
            elif not (
                isinstance(index, ast.Constant)
                and isinstance(index.value, int)
                and not isinstance(index.value, bool)
                and 0 <= index.value < callee.outputs
            ):
                self.bad(node, f"the index must be a number from 0 to {callee.outputs - 1}")
        self.visit_call(call, indexed=True)

    def visit_call(self, node: ast.Call, indexed: bool = False) -> None:
        if not isinstance(node.func, ast.Name):
            self.bad(node.func, "only calls to ops from ops.yaml by name (`sum(x)`) are allowed")
            return
        name = node.func.id
        callee = self.ops.get(name)
        if callee is None:
            self.bad(
                node.func,
                f"`{name}` is not an op in ops.yaml (or a backward op with a kernel); "
                "only calls to ops are allowed",
            )
            return
        if callee.outputs > 1 and not indexed:
            self.bad(node, f"{name} returns {callee.outputs} outputs; pick one with `[i]`")
        params = callee.params
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

    def __init__(self, callees: Mapping[str, Callee]) -> None:
        self.callees = callees

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
        if isinstance(node, ast.IfExp):
            parts = []
            for branch in (node.body, node.orelse):
                text, prec = self._emit(branch)
                parts.append(text if prec > _PREC_IFEXP else f"({text})")
            return f"{parts[0]} if {self._test(node.test)} else {parts[1]}", _PREC_IFEXP
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
            return f"{self.callees[node.func.id].qualified}({', '.join(parts)})", _PREC_ATOM
        if isinstance(node, ast.Subscript):
            return f"{self._emit(node.value)[0]}[{self.expr(node.slice)}]", _PREC_ATOM
        raise AssertionError(f"unchecked node {type(node).__name__}")  # pragma: no cover

    @staticmethod
    def _test(test: ast.expr) -> str:
        """A checked conditional test (see `Flags`); strings in double quotes, as ruff has them."""
        if isinstance(test, ast.Call):  # is_complex(x)
            return f'{test.args[0].id}._data.dtype.kind == "c"'  # type: ignore[attr-defined]
        if isinstance(test, ast.UnaryOp):
            return f"not {test.operand.id}"  # type: ignore[attr-defined]
        if isinstance(test, ast.Compare):
            right = test.comparators[0]
            op = {ast.Is: "is", ast.IsNot: "is not", ast.Eq: "==", ast.NotEq: "!="}[type(test.ops[0])]
            value = "None" if right.value is None else f'"{right.value}"'  # type: ignore[attr-defined]
            return f"{test.left.id} {op} {value}"  # type: ignore[attr-defined]
        return test.id  # type: ignore[attr-defined]


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
